import Foundation
import ObjectMapping
import Testing

/// `FastJSONEncoder` writes straight into the JSON writer; every use of the coders that a stream
/// cannot follow in order still gives `JSONEncoder`'s result (issue 20).
@Suite("FastJSONEncoder streaming")
struct StreamEncoderTests {
  /// `value` written by both encoders, each read back and written with sorted keys.
  static func bothEncoders<T: Encodable>(
    _ value: T, configure: (FastJSONEncoder, JSONEncoder) -> Void = { _, _ in }
  ) throws -> (ours: String, foundation: String) {
    let ours = FastJSONEncoder()
    let foundation = JSONEncoder()
    configure(ours, foundation)
    let canonical: (Data) throws -> String = {
      try Node(jsonData: $0).jsonString(options: .sortedKeys)
    }
    return (try canonical(ours.encode(value)), try canonical(foundation.encode(value)))
  }

  struct Key: CodingKey {
    let stringValue: String
    init(stringValue: String) { self.stringValue = stringValue }
    init(_ name: String) { stringValue = name }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
  }

  @Test func aNestedContainerWrittenAfterItsParentMovedOnKeepsItsMembers() throws {
    struct Interleaved: Encodable {
      func encode(to encoder: any Encoder) throws {
        var outer = encoder.container(keyedBy: Key.self)
        var inner = outer.nestedContainer(keyedBy: Key.self, forKey: Key("inner"))
        try inner.encode(1, forKey: Key("a"))
        try outer.encode("middle", forKey: Key("b"))
        try inner.encode(2, forKey: Key("c"))
        var list = outer.nestedUnkeyedContainer(forKey: Key("list"))
        try list.encode(true)
        try outer.encode(3, forKey: Key("d"))
        try list.encode(false)
      }
    }
    let (ours, foundation) = try Self.bothEncoders(Interleaved())
    #expect(ours == #"{"b":"middle","d":3,"inner":{"a":1,"c":2},"list":[true,false]}"#)
    #expect(ours == foundation)
  }

  @Test func aKeyWrittenTwiceKeepsTheLaterValue() throws {
    struct Twice: Encodable {
      let count: Int
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for index in 0..<count { try container.encode(index, forKey: Key("k\(index)")) }
        try container.encode("first", forKey: Key("k0"))
        try container.encode("again", forKey: Key("k0"))
      }
    }
    // Small objects are checked by a scan, large ones by a set.
    for count in [1, 5, 40, 300] {
      let (ours, foundation) = try Self.bothEncoders(Twice(count: count))
      #expect(ours == foundation)
      #expect(ours.contains(#""k0":"again""#))
      #expect(ours.components(separatedBy: #""k0""#).count == 2)
    }
  }

  @Test func largeDictionariesAndNestedCollectionsMatchJSONEncoder() throws {
    let dictionary = Dictionary(uniqueKeysWithValues: (0..<500).map { ("key\($0)", [$0, -$0]) })
    let (ours, foundation) = try Self.bothEncoders(["outer": dictionary])
    #expect(ours == foundation)
    // Integral doubles are left out: both readers read `1.0` and `1` as the same `Double`, but
    // `Node` keeps them apart (`JSONEncoder` writes `1`, ours `1.0`).
    let nested: [[[Double]]] = [[[1.5, -2.25]], [], [[0.1, 1e300], [3.5]]]
    let (oursNested, foundationNested) = try Self.bothEncoders(nested)
    #expect(oursNested == foundationNested)
  }

  @Test func aSubclassAndItsSuperclassWriteOneObject() throws {
    class Base: Encodable {
      var id = 7
      enum CodingKeys: String, CodingKey { case id }
    }
    final class Derived: Base {
      var name = "derived"
      enum DerivedKeys: String, CodingKey { case name, parent }
      override func encode(to encoder: any Encoder) throws {
        try super.encode(to: encoder)
        var container = encoder.container(keyedBy: DerivedKeys.self)
        try container.encode(name, forKey: .name)
        try super.encode(to: container.superEncoder(forKey: .parent))
      }
    }
    let (ours, foundation) = try Self.bothEncoders(Derived())
    #expect(ours == #"{"id":7,"name":"derived","parent":{"id":7}}"#)
    #expect(ours == foundation)
  }

  @Test func aValueThatCatchesAnErrorAndGoesOnLosesNothing() throws {
    struct Forgiving: Encodable {
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(1, forKey: Key("before"))
        // NaN cannot be written under `.throw`; the model carries on without it.
        try? container.encode(["inner": [1, .nan]], forKey: Key("broken"))
        try container.encode(2, forKey: Key("after"))
      }
    }
    let (ours, foundation) = try Self.bothEncoders(Forgiving())
    #expect(ours == #"{"after":2,"before":1}"#)
    #expect(ours == foundation)
  }

  @Test func valuesThatWriteNothingOrOneValueMatchJSONEncoder() throws {
    struct Empty: Encodable {
      func encode(to encoder: any Encoder) throws {}
    }
    struct Wrapper: Encodable {
      let wrapped: [String: [Int]]
      func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode(wrapped)
      }
    }
    struct Holder: Encodable {
      let empty = Empty()
      let wrapper = Wrapper(wrapped: ["a": [1, 2]])
      let optional: Int? = nil
      let url = URL(string: "https://example.com/a?b=c")
      let decimal = Decimal(string: "3.25")
      let small: Int8 = -3
      let big: UInt64 = .max
    }
    let (ours, foundation) = try Self.bothEncoders(Holder())
    #expect(ours == foundation)
    #expect(
      ours
        == #"{"big":18446744073709551615,"decimal":3.25,"empty":{},"small":-3,"url":"https:\/\/example.com\/a?b=c","wrapper":{"a":[1,2]}}"#
        .replacingOccurrences(of: "\\/", with: "/"))
  }

  @Test func strategiesApplyWhileStreaming() throws {
    struct Event: Encodable {
      let startDate = Date(timeIntervalSince1970: 1_000_000.5)
      let payloadData = Data([1, 2, 3])
      let ratio = Double.infinity
      let values = [1.5, -.infinity, .nan]
    }
    let (ours, foundation) = try Self.bothEncoders(Event()) { ours, foundation in
      ours.keyEncodingStrategy = .convertToSnakeCase
      ours.dateEncodingStrategy = .secondsSince1970
      ours.nonConformingFloatEncodingStrategy = .convertToString(
        positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
      foundation.keyEncodingStrategy = ours.keyEncodingStrategy
      foundation.dateEncodingStrategy = ours.dateEncodingStrategy
      foundation.nonConformingFloatEncodingStrategy = ours.nonConformingFloatEncodingStrategy
    }
    #expect(ours == foundation)
    #expect(ours.contains(#""start_date":1000000.5"#))
    #expect(ours.contains(#""values":[1.5,"-inf","nan"]"#))
  }

  @Test func aNonFiniteNumberIsAnErrorAtItsPath() throws {
    struct Outer: Encodable { let rows: [[Double]] }
    let encoder = FastJSONEncoder()
    encoder.errorReporting = .mappingErrors
    let error = #expect(throws: MappingErrors.self) {
      try encoder.encode(Outer(rows: [[1], [2, .nan]]))
    }
    #expect(
      error?.errors.map(\.description) == [
        "/rows/1/1: cannot serialize: Unable to encode Double.nan directly in JSON."
      ])
  }

  @Test func prettyOutputIsStreamedWithJSONEncodersLayout() throws {
    struct Point: Encodable {
      let tags: [String]
    }
    // One member per object, so that JSONEncoder's member order (its dictionary's) cannot
    // differ; the streamed output is compared byte for byte.
    for value in [[Point(tags: ["a", "b"]), Point(tags: [])], []] {
      let encoder = FastJSONEncoder()
      encoder.outputFormatting = [.prettyPrinted]
      let foundation = JSONEncoder()
      foundation.outputFormatting = [.prettyPrinted]
      let text = String(decoding: try encoder.encode(["p": value]), as: UTF8.self)
      #expect(text == String(decoding: try foundation.encode(["p": value]), as: UTF8.self))
    }
    let encoder = FastJSONEncoder()
    encoder.outputFormatting = [.prettyPrinted]
    #expect(
      String(decoding: try encoder.encode(["p": [Point(tags: [])]]), as: UTF8.self).hasPrefix(
        "{\n  \"p\" : [\n    {\n"))
  }
}
