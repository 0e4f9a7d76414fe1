import Foundation
import Testing

@testable import ObjectMapping

@Suite struct FormCodecTests {
  /// The error `body` throws, as its full description.
  static func errorText(_ body: () throws -> Void) -> String? {
    do {
      try body()
      return nil
    } catch {
      return "\(error)"
    }
  }

  // MARK: Encoding

  @Test func nestedObjectsAndScalarArrays() throws {
    let node: Node = ["user": ["name": "Ann", "role": ["id": 3]], "tags": ["a", "b"]]
    #expect(try node.formURLEncodedString() == "user[name]=Ann&user[role][id]=3&tags[]=a&tags[]=b")
    #expect(
      try node.formURLEncodedString(options: .init(arrays: .indexed))
        == "user[name]=Ann&user[role][id]=3&tags[0]=a&tags[1]=b")
    #expect(try node.formURLEncodedData() == Data(try node.formURLEncodedString().utf8))
  }

  @Test func specExample() throws {
    let node: Node = ["user": ["name": "Ann"], "tags": ["a"]]
    #expect(try node.formURLEncodedString() == "user[name]=Ann&tags[]=a")
  }

  @Test func arraysOfObjectsAreAlwaysIndexed() throws {
    let node: Node = ["items": [["a": "x"], ["a": "y", "b": [1, 2]]], "grid": [[1], [2, 3]]]
    let expected =
      "items[0][a]=x&items[1][a]=y&items[1][b][]=1&items[1][b][]=2"
      + "&grid[0][]=1&grid[1][]=2&grid[1][]=3"
    #expect(try node.formURLEncodedString() == expected)
    // A single container element makes the whole array indexed.
    #expect(try (["m": ["s", ["k": 1]]] as Node).formURLEncodedString() == "m[0]=s&m[1][k]=1")
  }

  @Test func percentEncodingFollowsWHATWG() throws {
    let node: Node = ["q": "a b&c=d/é", "emoji": "😀", "safe": "AZaz09*-._", "other": "~!'()+[]"]
    #expect(
      try node.formURLEncodedString()
        == "q=a+b%26c%3Dd%2F%C3%A9&emoji=%F0%9F%98%80&safe=AZaz09*-._&other=%7E%21%27%28%29%2B%5B%5D"
    )
    #expect(try (["a b/é": ["x y": 1]] as Node).formURLEncodedString() == "a+b%2F%C3%A9[x+y]=1")
  }

  @Test func booleansInBothSpellings() throws {
    let node: Node = ["on": true, "off": false, "list": [true, false]]
    #expect(try node.formURLEncodedString() == "on=true&off=false&list[]=true&list[]=false")
    #expect(
      try node.formURLEncodedString(options: .init(booleans: .numeric))
        == "on=1&off=0&list[]=1&list[]=0")
  }

  @Test func nullsAreOmittedByDefault() throws {
    let node: Node = ["a": nil, "b": 1, "c": [nil, "x", nil], "d": ["e": nil]]
    #expect(try node.formURLEncodedString() == "b=1&c[]=x")
    #expect(
      try node.formURLEncodedString(options: .init(nulls: .emptyValue))
        == "a=&b=1&c[]=&c[]=x&c[]=&d[e]=")
    #expect(
      try node.formURLEncodedString(options: .init(arrays: .indexed, nulls: .omit)) == "b=1&c[0]=x")
  }

  @Test func numbersAreTheirJSONText() throws {
    let node: Node = [
      "i": -42, "d": 0.1, "big": 1e20, "dec": .decimal("0.1000000000000000000000000001"),
      "exp": .decimal("1E+2"),
    ]
    #expect(
      try node.formURLEncodedString()
        == "i=-42&d=0.1&big=1e%2B20&dec=0.1000000000000000000000000001&exp=1E%2B2")
  }

  @Test func emptyContainersAreOmittedAndIndexesStayDense() throws {
    let node: Node = [
      "e": [], "o": [:], "items": [[:], ["a": "x"], ["n": nil], [], ["a": "y"]], "last": "z",
    ]
    #expect(try node.formURLEncodedString() == "items[0][a]=x&items[1][a]=y&last=z")
    #expect(try Node.object([]).formURLEncodedString() == "")
    let scalars: Node = ["t": [nil, "a", nil, "b"]]
    #expect(try scalars.formURLEncodedString(options: .init(arrays: .indexed)) == "t[0]=a&t[1]=b")
  }

  @Test(
    arguments: [
      (
        Node.array([1]),
        "cannot serialize: form URL-encoded data needs an object at the top level, found an array"
      ),
      (
        "x",
        "cannot serialize: form URL-encoded data needs an object at the top level, found a string"
      ),
      (nil, "cannot serialize: form URL-encoded data needs an object at the top level, found null"),
      (
        ["a[b]": 1],
        #"/a[b]: cannot serialize: the key "a[b]" contains a bracket, which form URL-encoded data reads as nesting"#
      ),
      (
        ["u": ["0": "x"]],
        #"/u/0: cannot serialize: the key "0" reads back as an array index in form URL-encoded data"#
      ),
      (
        ["u": ["": "x"]],
        "/u/: cannot serialize: an empty key inside an object reads back as an array append in form URL-encoded data"
      ),
      // Found by Fuzz/FormReaderFuzz: the reader reads `=a&=b` as {"": ["a", "b"]}, which the
      // writer wrote as `[]=a&[]=b`, text the reader rejects.
      (
        ["": ["a", "b"]],
        "/: cannot serialize: an empty top-level key cannot hold an array or object in form URL-encoded data"
      ),
      (
        ["": ["k": "v"]],
        "/: cannot serialize: an empty top-level key cannot hold an array or object in form URL-encoded data"
      ),
      (["v": [1, .double(.nan)]], "/v/1: cannot write the non-finite number nan"),
    ] as [(Node, String)])
  func unrepresentableNodesAreErrors(node: Node, message: String) {
    #expect(Self.errorText { _ = try node.formURLEncodedString() } == message)
  }

  @Test func repeatedEmptyNamesReadButDoNotWriteBack() throws {
    let node = try Node(formURLEncoded: "=a&=b")
    #expect(node == ["": ["a", "b"]])
    #expect(throws: FormatError.self) { try node.formURLEncodedString() }
    // One empty name holds a scalar, which writes back.
    #expect(try Node(formURLEncoded: "=a").formURLEncodedString() == "=a")
  }

  @Test func keysThatReadBackUnchangedAreAllowed() throws {
    // Top-level digit keys and empty keys, and non-canonical indexes inside objects.
    let node: Node = ["0": "a", "": "b", "u": ["01": "c", "x0": "d"]]
    let text = try node.formURLEncodedString()
    #expect(text == "0=a&=b&u[01]=c&u[x0]=d")
    #expect(try Node(formURLEncoded: text) == node)
  }

  // MARK: Decoding

  @Test func decodesWhatTheEncoderWrites() throws {
    let text = "user[name]=Ann&user[role][id]=3&tags[]=a&tags[]=b&items[0][a]=x&items[1][a]=y"
    let expected: Node = [
      "user": ["name": "Ann", "role": ["id": "3"]], "tags": ["a", "b"],
      "items": [["a": "x"], ["a": "y"]],
    ]
    #expect(try Node(formURLEncoded: text) == expected)
    #expect(try Node(formURLEncoded: Data(text.utf8)) == expected)
    #expect(try expected.formURLEncodedString() == text)
  }

  @Test func decodesPercentEncodingAndPlus() throws {
    let node = try Node(
      formURLEncoded: "q=a+b%26c%3Dd%2F%C3%A9&emoji=%F0%9F%98%80&raw=é😀&lower=%c3%a9")
    #expect(node == ["q": "a b&c=d/é", "emoji": "😀", "raw": "é😀", "lower": "é"])
  }

  @Test func roundTripsEveryScalarAsAString() throws {
    let node: Node = [
      "s": "a b&c=d/é 😀", "i": 7, "b": true, "d": 2.5, "n": nil, "deep": ["x": [["y": [1]]]],
    ]
    let back = try Node(formURLEncoded: try node.formURLEncodedString())
    #expect(
      back == [
        "s": "a b&c=d/é 😀", "i": "7", "b": "true", "d": "2.5", "deep": ["x": [["y": ["1"]]]],
      ])
  }

  @Test func percentEncodedBracketsNestLikeLiteralOnes() throws {
    #expect(
      try Node(formURLEncoded: "user%5Bname%5D=Ann&t%5B%5D=1") == [
        "user": ["name": "Ann"], "t": ["1"],
      ])
  }

  @Test func piecesWithoutValuesAndEmptyPieces() throws {
    #expect(
      try Node(formURLEncoded: "&a&&b=&=c&d=e=f&") == ["a": "", "b": "", "": "c", "d": "e=f"])
    #expect(try Node(formURLEncoded: "") == [:])
  }

  @Test func repeatedPlainKeysCollectIntoAnArray() throws {
    #expect(try Node(formURLEncoded: "a=1&b=x&a=2&a=3") == ["a": ["1", "2", "3"], "b": "x"])
    #expect(try Node(formURLEncoded: "a[]=1&a=2") == ["a": ["1", "2"]])
    #expect(try Node(formURLEncoded: "a=1&a[]=2") == ["a": ["1", "2"]])
    #expect(try Node(formURLEncoded: "u[t]=1&u[t]=2") == ["u": ["t": ["1", "2"]]])
  }

  @Test func bracketAppendsAlwaysStartANewElement() throws {
    #expect(try Node(formURLEncoded: "i[][a]=x&i[][b]=y") == ["i": [["a": "x"], ["b": "y"]]])
    #expect(try Node(formURLEncoded: "i[0][a]=x&i[0][b]=y") == ["i": [["a": "x", "b": "y"]]])
    #expect(try Node(formURLEncoded: "m[0][]=1&m[0][]=2&m[1][]=3") == ["m": [["1", "2"], ["3"]]])
  }

  @Test(arguments: [
    (
      "a=%zz",
      #"syntax error at line 1, column 3 (byte 2): expected two hexadecimal digits after '%', found "zz""#
    ),
    (
      "a=1&b%4=2",
      #"syntax error at line 1, column 6 (byte 5): expected two hexadecimal digits after '%', found "4""#
    ),
    (
      "é=%",
      "syntax error at line 1, column 3 (byte 3): expected two hexadecimal digits after '%', found nothing"
    ),
    ("a=%C3%28", "invalid UTF-8 at line 1, column 3 (byte 2)"),
    ("a=ok%FF", "invalid UTF-8 at line 1, column 5 (byte 4)"),
    ("a=%ED%A0%80", "invalid UTF-8 at line 1, column 3 (byte 2)"),
    ("a=%C0%80", "invalid UTF-8 at line 1, column 3 (byte 2)"),
    (
      "a=1&a[b]=2",
      #"syntax error at line 1, column 5 (byte 4): key "a[b]" needs "a" to be an object, but it already holds a value"#
    ),
    (
      "a[b]=1&a=2",
      #"syntax error at line 1, column 8 (byte 7): key "a" gives "a" a value, but it already holds an object"#
    ),
    (
      "x=0&a[b]=1&a[b][c]=2",
      #"syntax error at line 1, column 12 (byte 11): key "a[b][c]" needs "a[b]" to be an object, but it already holds a value"#
    ),
    (
      "a[]=1&a[x]=2",
      #"syntax error at line 1, column 7 (byte 6): key "a[x]" needs "a" to be an object, but it already holds an array"#
    ),
    (
      "a[x]=1&a[]=2",
      #"syntax error at line 1, column 8 (byte 7): key "a[]" needs "a" to be an array, but it already holds an object"#
    ),
    (
      "a[]=1&a[0][b]=2",
      #"syntax error at line 1, column 7 (byte 6): key "a[0][b]" needs "a[0]" to be an object, but it already holds a value"#
    ),
    (
      "items[1][a]=x",
      #"syntax error at line 1, column 1 (byte 0): key "items[1][a]" skips an index: "items" has 0 elements, so the next index is 0"#
    ),
    (
      "t[0]=a&t[2]=b",
      #"syntax error at line 1, column 8 (byte 7): key "t[2]" skips an index: "t" has 1 element, so the next index is 1"#
    ),
    (
      "t[0]=a&t[99999999999999999999999]=b",
      #"syntax error at line 1, column 8 (byte 7): key "t[99999999999999999999999]" skips an index: "t" has 1 element, so the next index is 1"#
    ),
    (
      "a[0]=x&a[0]=y",
      #"syntax error at line 1, column 8 (byte 7): key "a[0]" sets "a[0]" a second time"#
    ),
    ("a[b=1", #"syntax error at line 1, column 4 (byte 3): malformed key "a[b": expected ']'"#),
    ("a]=1", #"syntax error at line 1, column 2 (byte 1): malformed key "a]": unexpected ']'"#),
    (
      "[a]=1",
      #"syntax error at line 1, column 1 (byte 0): malformed key "[a]": expected a name before '['"#
    ),
    (
      "a[b]c=1",
      #"syntax error at line 1, column 5 (byte 4): malformed key "a[b]c": expected '[' or the end of the key after ']'"#
    ),
    (
      "a[b[c]]=1",
      #"syntax error at line 1, column 4 (byte 3): malformed key "a[b[c]]": unexpected '['"#
    ),
    (
      "x=1&a%5Bb=1",
      #"syntax error at line 1, column 10 (byte 9): malformed key "a[b": expected ']'"#
    ),
  ])
  func malformedInputIsReportedWithItsLocation(text: String, message: String) {
    #expect(Self.errorText { _ = try Node(formURLEncoded: text) } == message)
    #expect(Self.errorText { _ = try Node(formURLEncoded: Data(text.utf8)) } == message)
  }

  @Test func invalidRawBytesInDataAreReported() {
    let data = Data([UInt8(ascii: "a"), UInt8(ascii: "="), 0xC3, UInt8(ascii: "x")])
    #expect(
      Self.errorText { _ = try Node(formURLEncoded: data) }
        == "invalid UTF-8 at line 1, column 3 (byte 2)")
  }

  @Test func nestingBeyondTheLimitIsAnError() throws {
    let allowed = "a" + String(repeating: "[k]", count: 512) + "=1"
    var node = try Node(formURLEncoded: allowed)
    var depth = 0
    while case .object(let members) = node, let first = members.first {
      node = first.value
      depth += 1
    }
    #expect(depth == 513)
    #expect(node == "1")
    let tooDeep = "a" + String(repeating: "[k]", count: 513) + "=1"
    #expect(
      Self.errorText { _ = try Node(formURLEncoded: tooDeep) }
        == "nesting deeper than 512 levels at line 1, column 1538 (byte 1537)")
  }

  @Test func deepNodesEncodeWithoutRecursion() throws {
    var node: Node = "v"
    for _ in 0..<20_000 { node = ["k": node] }
    defer { JSONWriterTests.dismantle(&node) }
    let text = try node.formURLEncodedString()
    #expect(text.utf8.count == 1 + 19_999 * 3 + 2)
    #expect(text.hasPrefix("k[k][k]"))
    #expect(text.hasSuffix("[k]=v"))
  }
}
