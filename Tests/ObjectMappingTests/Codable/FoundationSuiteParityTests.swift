import Foundation
import ObjectMapping
import Testing

/// The cases where `FastJSONDecoder` and `FastJSONEncoder` differed from `JSONDecoder` and
/// `JSONEncoder` when swift-foundation's own coder tests were run against them (see
/// MigratingFromCodable.md). Each test runs Foundation's coder and ours on the same input in
/// the same test, and also names the expected result, so that it fails if both drift.
@Suite("FastJSON coders: swift-foundation's suite")
struct FoundationSuiteParityTests {
  static let keyStrategies: [(String, JSONEncoder.KeyEncodingStrategy)] = [
    ("convertToSnakeCase", .convertToSnakeCase),
    ("custom", .custom { path in ParityKey(path[path.count - 1].stringValue.uppercased()) }),
  ]

  // MARK: A top-level [String: V] under a key strategy

  @Test(arguments: keyStrategies.map(\.0))
  func aTopLevelDictionaryKeepsItsKeysUnderAKeyStrategy(name: String) throws {
    let strategy = try #require(Self.keyStrategies.first { $0.0 == name }?.1)
    let keyed: (FastJSONEncoder, JSONEncoder) -> Void = {
      $0.keyEncodingStrategy = strategy
      $1.keyEncodingStrategy = strategy
    }
    // The stream writes it (no sorting) ...
    #expect(
      Parity.expectSameEncoding(["leaveMeAlone": "test"], configure: keyed)
        == .value(#"{"leaveMeAlone":"test"}"#))
    #expect(Parity.expectSameEncoding([String: Int](), configure: keyed) == .value("{}"))
    #expect(
      Parity.expectSameEncoding(["outerKey": ["innerKey": 1]], configure: keyed)
        == .value(#"{"outerKey":{"innerKey":1}}"#))
    // ... and so does the value tree (sorted keys).
    let sorted: (FastJSONEncoder, JSONEncoder) -> Void = {
      keyed($0, $1)
      $0.outputFormatting = .sortedKeys
      $1.outputFormatting = .sortedKeys
    }
    #expect(
      Parity.expectSameEncoding(["leaveMeAlone": 1, "andMe": 2], configure: sorted)
        == .value(#"{"andMe":2,"leaveMeAlone":1}"#))
    // A model's own keys are still converted.
    let converted = Parity.expectSameEncoding(["item": Member()], configure: sorted)
    #expect(
      converted
        == .value(
          name == "custom" ? #"{"item":{"MEMBERNAME":1}}"# : #"{"item":{"member_name":1}}"#))
  }

  struct Member: Codable, Equatable {
    var memberName = 1
  }

  @Test func aTopLevelDictionaryIsReadWithItsKeysUnderConvertFromSnakeCase() {
    let snake: (FastJSONDecoder, JSONDecoder) -> Void = {
      $0.keyDecodingStrategy = .convertFromSnakeCase
      $1.keyDecodingStrategy = .convertFromSnakeCase
    }
    #expect(
      Parity.expectSameDecoding([String: Int].self, #"{"snake_key":1}"#, configure: snake)
        == .value(#"["snake_key": 1]"#))
    #expect(
      Parity.expectSameDecoding(
        [String: Member].self, #"{"snake_key":{"member_name":2}}"#, configure: snake)
        == .value(
          #"["snake_key": ObjectMappingTests.FoundationSuiteParityTests.Member(memberName: 2)]"#
        ))
  }

  // MARK: A member that failed, caught by the model

  /// A value whose `encode(to:)` always throws.
  struct Failing: Encodable {
    func encode(to encoder: any Encoder) throws {
      throw EncodingError.invalidValue(
        0, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "no"))
    }
  }

  /// A model that tries a member that fails, catches the error, and goes on.
  struct GoesOn: Encodable {
    enum CodingKeys: String, CodingKey { case failed, next }
    var failing: (any Encodable & Sendable)?

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      if let failing {
        try? container.encode(failing, forKey: .failed)
      }
      try? container.encode(nil as Int?, forKey: .next)
    }
  }

  /// Only tries the failing member.
  struct OnlyFails: Encodable {
    enum CodingKeys: String, CodingKey { case failed }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try? container.encode(["key": Failing()], forKey: .failed)
    }
  }

  @Test func aModelThatCatchesAFailedMemberAndGoesOnIsWritten() throws {
    // Was: "Top-level GoesOn did not encode any values." (the stream's record of what was
    // written was left in the failed member's state).
    // After a failed dictionary, this toolchain's `JSONEncoder` writes the next member's
    // `nil` as `{}`, a bug swift-foundation has since fixed (its test
    // `sharedSubEncoderStaleStateDataCorrectness` expects `null`): ours writes `null`.
    let (ours, foundation) = Parity.encode(GoesOn(failing: ["key": Failing()]))
    #expect(ours == .value(#"{"next":null}"#))
    #expect(foundation == ours || foundation == .value(#"{"next":{}}"#))
    #expect(Parity.expectSameEncoding(GoesOn()) == .value(#"{"next":null}"#))
    #expect(Parity.expectSameEncoding(OnlyFails()) == .value("{}"))
    // This toolchain's `JSONEncoder` stops the program (the same stale state) after a failed
    // value of another kind, and after a failed dictionary one level down: ours alone.
    for value in [
      GoesOn(failing: Failing()), GoesOn(failing: [Failing()]),
      GoesOn(failing: ["key": [Failing()]]),
    ] {
      let data = try FastJSONEncoder().encode(value)
      #expect(String(decoding: data, as: UTF8.self) == #"{"next":null}"#)
    }
    let nested = try FastJSONEncoder().encode([GoesOn(failing: ["key": Failing()])])
    #expect(String(decoding: nested, as: UTF8.self) == #"[{"next":null}]"#)
  }

  enum ScalarKeys: String, CodingKey { case a, b }

  /// Catches a failed write of a scalar that `.throw` refuses (or of a failing value) and
  /// writes another member.
  struct CatchesThenWrites: Encodable {
    var failed: @Sendable (inout KeyedEncodingContainer<ScalarKeys>) throws -> Void

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: ScalarKeys.self)
      try? failed(&container)
      try container.encode(1, forKey: .b)
    }
  }

  /// The same in an unkeyed container.
  struct CatchesThenAppends: Encodable {
    func encode(to encoder: any Encoder) throws {
      var container = encoder.unkeyedContainer()
      try? container.encode(Float.nan)
      try container.encode(1)
    }
  }

  @Test func aModelThatCatchesAFailedScalarAndGoesOnIsWritten() throws {
    let failures: [@Sendable (inout KeyedEncodingContainer<ScalarKeys>) throws -> Void] = [
      { try $0.encode(Double.nan, forKey: .a) },
      { try $0.encode(Float.infinity, forKey: .a) },
      { try $0.encode([1, Double.nan], forKey: .a) },
      { try $0.encode(["x": -Double.infinity], forKey: .a) },
      { try $0.encode(Failing(), forKey: .a) },
      { try $0.encode(Date(timeIntervalSince1970: 0), forKey: .a) },
    ]
    let throwingDates: (FastJSONEncoder, JSONEncoder) -> Void = {
      $0.dateEncodingStrategy = .custom { _, _ in throw CocoaError(.coderInvalidValue) }
      $1.dateEncodingStrategy = .custom { _, _ in throw CocoaError(.coderInvalidValue) }
    }
    for failure in failures {
      #expect(
        Parity.expectSameEncoding(CatchesThenWrites(failed: failure), configure: throwingDates)
          == .value(#"{"b":1}"#))
      #expect(
        Parity.expectSameEncoding([CatchesThenWrites(failed: failure)], configure: throwingDates)
          == .value(#"[{"b":1}]"#))
    }
    #expect(Parity.expectSameEncoding(CatchesThenAppends()) == .value("[1]"))
    #expect(Parity.expectSameEncoding(["k": CatchesThenAppends()]) == .value(#"{"k":[1]}"#))
  }

  /// Writes a value for a key, then a container for the same key (`unkeyed`: an unkeyed one).
  struct ValueThenContainer: Encodable {
    var unkeyed: Bool

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: ScalarKeys.self)
      try container.encode(42, forKey: .a)
      if unkeyed {
        var nested = container.nestedUnkeyedContainer(forKey: .a)
        try nested.encode(1)
      } else {
        var nested = container.nestedContainer(keyedBy: ScalarKeys.self, forKey: .a)
        try nested.encode(1, forKey: .b)
      }
    }
  }

  @Test func aContainerAfterAValueForTheSameKeyReplacesIt() throws {
    // swift-foundation's exit tests expect `JSONEncoder` to stop the program here (a
    // precondition), so there is nothing to compare with: the later container replaces the
    // value, as a later value does, streamed or sorted.
    for sorted in [false, true] {
      let encoder = FastJSONEncoder()
      if sorted { encoder.outputFormatting = .sortedKeys }
      let keyed = try encoder.encode(ValueThenContainer(unkeyed: false))
      #expect(String(decoding: keyed, as: UTF8.self) == #"{"a":{"b":1}}"#)
      let unkeyed = try encoder.encode(ValueThenContainer(unkeyed: true))
      #expect(String(decoding: unkeyed, as: UTF8.self) == #"{"a":[1]}"#)
    }
  }

  // MARK: JSON5 keys and byte order marks

  @Test func json5UnquotedKeysMayStartWithAnUnderscoreOrADollarSign() {
    let json5: (FastJSONDecoder, JSONDecoder) -> Void = {
      $0.allowsJSON5 = true
      $1.allowsJSON5 = true
    }
    for (json, expected) in [
      ("{_: 1}", #"["_": 1]"#), ("{$: 1}", #"["$": 1]"#), ("{_$_: 1}", #"["_$_": 1]"#),
      ("{__proto__: 1}", #"["__proto__": 1]"#), ("{$_$a1_: 1}", #"["$_$a1_": 1]"#),
    ] {
      #expect(
        Parity.expectSameDecoding([String: Int].self, json, configure: json5) == .value(expected))
    }
    // An escape in an unquoted key: JSON5 reads it (`ab`); `JSONDecoder` keeps it as written,
    // a difference on purpose (MigratingFromCodable.md).
    let escaped = Parity.decode([String: Int].self, Data(#"{\u0061b: 1}"#.utf8), configure: json5)
    #expect(escaped.ours == .value(#"["ab": 1]"#))
    #expect(escaped.foundation == .value(#"["\\u0061b": 1]"#))
    // A digit or a combining mark still cannot start one.
    for json in ["{1a: 1}", "{\u{301}a: 1}"] {
      #expect(
        Parity.expectSameDecoding([String: Int].self, json, configure: json5)
          == .error("dataCorrupted at : The given data was not valid JSON."))
    }
  }

  @Test func json5WithAnAssumedTopLevelDictionarySkipsComments() {
    let both: (FastJSONDecoder, JSONDecoder) -> Void = {
      $0.allowsJSON5 = true
      $1.allowsJSON5 = true
      $0.assumesTopLevelDictionary = true
      $1.assumesTopLevelDictionary = true
    }
    // A comment before the object's own brace: the text is an object already (was: wrapped
    // in a second pair of braces, "expected a key").
    for (json, expected) in [
      ("/* first */ {a: 1}", #"["a": 1]"#), ("// first\n{a: 1} // last", #"["a": 1]"#),
      ("/* a */ // b\n  {a: 1, /* c */}", #"["a": 1]"#),
      // A line comment that ends the text (was: it took the closing brace in).
      ("a: 1 // last", #"["a": 1]"#), ("// only a comment", "[:]"),
      ("/* first */ a: 1", #"["a": 1]"#),
    ] {
      #expect(
        Parity.expectSameDecoding([String: Int].self, json, configure: both) == .value(expected))
    }
    #expect(
      Parity.expectSameDecoding([String: Int].self, "/* never ends", configure: both)
        == .error("dataCorrupted at : The given data was not valid JSON."))
  }

  @Test func feFF0000IsReadAsUTF32LittleEndianAsJSONDecoderReadsIt() throws {
    // `JSONDecoder` takes `FE FF 00 00` for UTF-32 little-endian's byte order mark (the mark's
    // bytes in the other order); as UTF-16 it would be a mark and U+0000, which no JSON starts
    // with.
    let mark = Data([0xFE, 0xFF, 0, 0])
    let text = try #require(#""👍🏻""#.data(using: .utf32LittleEndian))
    #expect(
      Parity.expectSameDecoding(String.self, mark + text, label: "FE FF 00 00") == .value(#""👍🏻""#))
    let array = try #require(#"[1, "é"]"#.data(using: .utf32LittleEndian))
    Parity.expectSameNode(mark + array, label: "FE FF 00 00 array")
    // With text in another encoding after it, both fail.
    let wrong = try #require(#""x""#.data(using: .utf32BigEndian))
    #expect(
      Parity.expectSameDecoding(String.self, mark + wrong, label: "FE FF 00 00 + UTF-32BE")
        == .error("dataCorrupted at : The given data was not valid JSON."))
  }

  // MARK: Found by a second run of the suites (session 23)

  class Person: Codable {
    var name = "Ann"
  }

  final class Employee: Person {
    var id = 0

    enum Keys: String, CodingKey { case id }

    override init() { super.init() }

    required init(from decoder: any Decoder) throws {
      id = try decoder.container(keyedBy: Keys.self).decode(Int.self, forKey: .id)
      try super.init(from: decoder)
    }

    override func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      try container.encode(id, forKey: .id)
      try super.encode(to: encoder)
    }
  }

  /// A subclass's metatype passed as its superclass's decodes the subclass (swift-foundation's
  /// `decodingConcreteTypeParameter`). Release builds decoded a `Person`: opening the metatype
  /// as an existential gave the static type under optimization.
  @Test func aSubclassMetatypeDecodesTheSubclass() throws {
    let json = Data(#"{"name": "Bo", "id": 7}"#.utf8)
    let metatype: Person.Type = Employee.self
    let foundation = try JSONDecoder().decode(metatype, from: json)
    let fast = try FastJSONDecoder().decode(metatype, from: json)
    #expect(foundation is Employee && fast is Employee)
    #expect((fast as? Employee)?.id == 7 && fast.name == "Bo")
    let nested = try FastJSONDecoder().decode([Person].self, from: Data(#"[{"name": "x"}]"#.utf8))
    #expect(type(of: nested[0]) == Person.self)
  }

  /// A number with a fraction read as an integer: `JSONDecoder` refuses it when all its
  /// significant digits do not fit 64 bits, even when its integral part would.
  @Test(arguments: [
    "[12345678901234567890.5]", "[9223372036854775807.5]", "[18446744073709551615.5]",
    "[1234567890123456789.5]", "[1e19]", "[9007199254740993.0]",
  ])
  func integersFromNumbersWithAFractionFollowJSONDecoder(text: String) {
    let data = Data(text.utf8)
    func outcome<T: Decodable & Equatable>(_: T.Type, _ decode: () throws -> [T]) -> String {
      (try? decode()).map { "\($0)" } ?? "error"
    }
    let unsigned = outcome(UInt64.self) { try FastJSONDecoder().decode([UInt64].self, from: data) }
    let reference = outcome(UInt64.self) { try JSONDecoder().decode([UInt64].self, from: data) }
    #expect(unsigned == reference, "\(text)")
    let signed = outcome(Int64.self) { try FastJSONDecoder().decode([Int64].self, from: data) }
    let signedReference = outcome(Int64.self) { try JSONDecoder().decode([Int64].self, from: data) }
    #expect(signed == signedReference, "\(text)")
  }
}
