import Foundation
import ObjectMapping
import Testing

/// RestKit's form style (issue 36): `FormEncodingOptions.restKit` writes spaces as `%20`,
/// `null` as the bare key, nested arrays as `r[][][]=…` and every object's members sorted by
/// name, as RestKit (through AFNetworking) did; the default style is unchanged.
@Suite("Form bodies as RestKit wrote them")
struct FormRestKitStyleTests {
  static let node: Node = [
    "name": "Ann Lee", "note": nil, "r": [[["item1", "item2"]]], "admin": true,
    "items": [["a": "x", "b": "y"], ["a": "1"]], "math": "1+1=2 & *ok*~",
  ]

  @Test func theRestKitStyle() throws {
    #expect(
      try Self.node.formURLEncodedString(options: .restKit)
        == "admin=1&items[][a]=x&items[][b]=y&items[][a]=1&math=1%2B1%3D2%20%26%20%2Aok%2A~"
        + "&name=Ann%20Lee&note&r[][][]=item1&r[][][]=item2")
  }

  /// AFNetworking sorted every dictionary's keys: at the top level and in nested
  /// objects, array elements kept in order; sorting alone is an option of its own.
  @Test func membersAreSortedAtEveryLevel() throws {
    let node: Node = [
      "zeta": ["y": 1, "b": ["d": 2, "c": 3]], "alpha": [["k": 1, "e": 2], ["z": 0]], "mid": "m",
    ]
    #expect(
      try node.formURLEncodedString(options: FormEncodingOptions(sortsKeys: true))
        == "alpha[0][e]=2&alpha[0][k]=1&alpha[1][z]=0&mid=m&zeta[b][c]=3&zeta[b][d]=2&zeta[y]=1")
    #expect(
      try node.formURLEncodedString()
        == "zeta[y]=1&zeta[b][d]=2&zeta[b][c]=3&alpha[0][k]=1&alpha[0][e]=2&alpha[1][z]=0&mid=m")
    #expect(FormEncodingOptions.restKit.sortsKeys && !FormEncodingOptions().sortsKeys)
  }

  @Test func theDefaultStyleIsUnchanged() throws {
    #expect(
      try Self.node.formURLEncodedString()
        == "name=Ann+Lee&r[0][0][]=item1&r[0][0][]=item2&admin=true"
        + "&items[0][a]=x&items[0][b]=y&items[1][a]=1&math=1%2B1%3D2+%26+*ok*%7E")
  }

  @Test func eachPartOfTheStyleIsAnOptionOfItsOwn() throws {
    let node: Node = ["a b": "c d", "n": nil, "list": [["x"], ["y"]]]
    #expect(
      try node.formURLEncodedString(options: FormEncodingOptions(escaping: .rfc3986))
        == "a%20b=c%20d&list[0][]=x&list[1][]=y")
    #expect(
      try node.formURLEncodedString(options: FormEncodingOptions(nulls: .bareKey))
        == "a+b=c+d&n&list[0][]=x&list[1][]=y")
    #expect(
      try node.formURLEncodedString(options: FormEncodingOptions(arrays: .bracketsAtEveryLevel))
        == "a+b=c+d&list[][]=x&list[][]=y")
    // Non-ASCII text is UTF-8, percent-encoded.
    #expect(try (["k": "¡é"] as Node).formURLEncodedString(options: .restKit) == "k=%C2%A1%C3%A9")
    // A bare key inside an array and an object.
    #expect(
      try (["o": ["p": nil], "l": [nil, 1]] as Node).formURLEncodedString(options: .restKit)
        == "l[]&l[]=1&o[p]")
  }

  @Test func whatTheReaderMakesOfTheRestKitStyle() throws {
    // Spaces and bare keys read back; the nesting of arrays does not (documented).
    let node = try Node(formURLEncoded: "name=Ann%20Lee&note&r[][][]=item1&r[][][]=item2")
    #expect(node == ["name": "Ann Lee", "note": "", "r": [[["item1"]], [["item2"]]]])
  }

  @Test func aFormatGivenWithoutOptionsTakesTheCallsFormOptions() throws {
    struct Tag: Equatable, Sendable {
      var label = ""
      var note: String?
    }
    let mapping = Mapping(Tag.init) {
      Attribute("label", \.label)
      Attribute("note", \.note).nulls(.include)
    }
    let tag = Tag(label: "a b")
    let call = MappingOptions(form: .restKit)
    #expect(
      String(decoding: try mapping.serialize(tag, as: .formURLEncoded, with: call), as: UTF8.self)
        == "label=a%20b&note")
    #expect(
      String(decoding: try mapping.serialize(tag, as: .formURLEncoded), as: UTF8.self)
        == "label=a+b")
    // A mapping's own form options, when it is the root.
    #expect(
      String(
        decoding: try mapping.options(call).serialize(tag, as: .formURLEncoded), as: UTF8.self)
        == "label=a%20b&note")
    // The reader reads either.
    #expect(
      try mapping.map(
        .payload(Data("label=a%20b&note".utf8), contentType: "application/x-www-form-urlencoded"))
        == Tag(label: "a b", note: ""))
  }
}
