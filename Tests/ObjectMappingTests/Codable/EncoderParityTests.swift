import Foundation
import ObjectMapping
import ObjectMappingTestSupport
import Testing

/// `FastJSONEncoder` writes `JSONEncoder`'s bytes and throws its errors: each test runs both
/// on the same value with the same settings and compares the output byte for byte, or the
/// errors' cases, paths and texts (issue 34). `JSONEncoder` writes an object's members in its
/// dictionary's order, which varies: values with more than one member per object are
/// compared with `.sortedKeys`.
@Suite("FastJSONEncoder parity")
struct EncoderParityTests {
  static let sorted: @Sendable (FastJSONEncoder, JSONEncoder) -> Void = {
    $0.outputFormatting = [.sortedKeys]
    $1.outputFormatting = [.sortedKeys]
  }

  // MARK: Top-level values

  struct EmptyStruct: Codable {}
  final class EmptyClass: Codable {}
  enum Switch: String, Codable { case off, on }
  struct Timestamp: Codable { var value: Double }
  struct Address: Codable {
    var street = "1 Infinite Loop"
    var city = "Cupertino"
    var zip: Int? = nil
    var tags = ["a/b", "c"]
  }

  @Test func topLevelValuesAreWrittenAsJSONEncoderWritesThem() {
    Parity.expectSameEncoding(EmptyStruct())
    Parity.expectSameEncoding(EmptyClass())
    Parity.expectSameEncoding(Switch.on)
    Parity.expectSameEncoding(Timestamp(value: 3_141_592_653))
    Parity.expectSameEncoding(Address(), configure: Self.sorted)
    Parity.expectSameEncoding([Address(), Address(zip: 95014)], configure: Self.sorted)
    Parity.expectSameEncoding(Int?.none)
    Parity.expectSameEncoding([Int?.none, 1])
    Parity.expectSameEncoding([1, 2, 3])
    Parity.expectSameEncoding("a")
    Parity.expectSameEncoding(true)
    Parity.expectSameEncoding(42)
    Parity.expectSameEncoding(UInt64.max)
    Parity.expectSameEncoding(Int8.min)
    Parity.expectSameEncoding(1.5)
    Parity.expectSameEncoding(Float(0.1))
    Parity.expectSameEncoding(Decimal(string: "12.50"))
    Parity.expectSameEncoding(URL(string: "https://swift.org/a?b=c"))
    Parity.expectSameEncoding(Date(timeIntervalSince1970: 0))
    Parity.expectSameEncoding(Data([1, 2, 3]))
    Parity.expectSameEncoding(["a": 1])
    Parity.expectSameEncoding(Node.object([.init("n", .decimal("1.5"))]))
  }

  @Test func aNodesDecimalKeepsItsExactText() throws {
    // A `Node` is this library's type: FastJSONEncoder writes a decimal's exact text, as the
    // library's own writer does. `JSONEncoder` writes it through `Node`'s `Encodable`
    // conformance, as a `Decimal` (`1.50` becomes `1.5`): the same number, other bytes.
    let node = Node.object([.init("n", .decimal("1.50"))])
    let (ours, foundation) = Parity.encode(node)
    #expect(ours == .value(#"{"n":1.50}"#))
    #expect(foundation == .value(#"{"n":1.5}"#))
  }

  struct EncodesNothing: Encodable {
    func encode(to encoder: any Encoder) throws {}
  }

  @Test func aTopLevelValueThatWritesNothingIsAnError() {
    let outcome = Parity.expectSameEncoding(EncodesNothing())
    #expect(
      outcome
        == .error(
          "invalidValue(EncodesNothing) at : Top-level EncodesNothing did not encode any values."))
    // Nested, it is `{}`, as with JSONEncoder.
    #expect(Parity.expectSameEncoding([EncodesNothing()]) == .value("[{}]"))
    #expect(Parity.expectSameEncoding(["test": EncodesNothing()]) == .value(#"{"test":{}}"#))
    #expect(
      Parity.expectSameEncoding(["test": EncodesNothing()], configure: Self.sorted)
        == .value(#"{"test":{}}"#))
  }

  // MARK: Numbers

  @Test func doublesAreWrittenAsJSONEncoderWritesThem() {
    let values: [Double] = [
      0, -0.0, 1, -1, 1000, 1000.5, 0.1, 0.2 + 0.1, 1e-7, 1.5e16, 1e16, 1e21, 1e22, 1e300,
      123_456_789_012_345_680, 0.000001, .leastNormalMagnitude, .greatestFiniteMagnitude,
      -.greatestFiniteMagnitude, 9_007_199_254_740_992, 2.2250738585072014e-308,
      7.45673334164903e-115, 100, 1e15, 123.456, -65.619721101000012,
      // Whole numbers past 2^53 and below 1e16: Swift prints them with an exponent.
      9.5e15, 9_007_199_254_740_994, -9.5e15, 4_503_599_627_370_497,
    ]
    for value in values {
      Parity.expectSameEncoding([value])
      Parity.expectSameEncoding(value)
      Parity.expectSameEncoding(["key": value])
    }
    #expect(Parity.expectSameEncoding([1000.0, 0.1]) == .value("[1000,0.1]"))
    #expect(Parity.expectSameEncoding([9.5e15]) == .value("[9.5e+15]"))
  }

  @Test func floatsAreWrittenInTheirOwnShortestForm() {
    let values: [Float] = [
      0, -0.0, 0.1, 1, 1000, 16_777_216, 16_777_218, 1e10, 1e-7, 3.1415927,
      .greatestFiniteMagnitude, .leastNonzeroMagnitude, .leastNormalMagnitude,
      0.3, 100.25,
    ]
    for value in values {
      Parity.expectSameEncoding([value])
      Parity.expectSameEncoding(value)
    }
    // 0.1, not the Double 0.10000000149011612 (a different number).
    #expect(Parity.expectSameEncoding([Float(0.1)]) == .value("[0.1]"))
  }

  @Test func integersOfEveryWidthIncludingInt128() {
    Parity.expectSameEncoding([Int8.min, .max])
    Parity.expectSameEncoding([UInt8.max])
    Parity.expectSameEncoding([Int16.min, .max])
    Parity.expectSameEncoding([UInt32.max])
    Parity.expectSameEncoding([Int64.min, .max])
    Parity.expectSameEncoding([UInt64.max])
    Parity.expectSameEncoding([Int.min, .max])
    Parity.expectSameEncoding([UInt.max])
    Parity.expectSameEncoding([Int128.min, .max, 0])
    Parity.expectSameEncoding([UInt128.max, 0])
    Parity.expectSameEncoding(Int128.max)
    #expect(
      Parity.expectSameEncoding(["big": UInt128.max])
        == .value(#"{"big":340282366920938463463374607431768211455}"#))
  }

  @Test func int128RoundTripsThroughBothCoders() throws {
    struct Wide: Codable, Equatable {
      var low: Int128
      var high: UInt128
      var list: [Int128]
    }
    let value = Wide(low: .min, high: .max, list: [.min, -1, 0, 1, .max])
    let data = try FastJSONEncoder().encode(value)
    #expect(try FastJSONDecoder().decode(Wide.self, from: data) == value)
    #expect(try JSONDecoder().decode(Wide.self, from: data) == value)
    Parity.expectSameEncoding(value, configure: Self.sorted)
  }

  @Test func decimalsAreWrittenAndReadBack() throws {
    let values: [Decimal] = [
      .pi, 0, -1, Decimal(string: "12.50")!, Decimal(string: "1e100")!, .greatestFiniteMagnitude,
      .leastNonzeroMagnitude, Decimal(string: "0.000000000000000000000000000001")!,
    ]
    for value in values {
      Parity.expectSameEncoding([value])
      // Read what it wrote: the same value with either decoder.
      let data = try FastJSONEncoder().encode([value])
      #expect(try FastJSONDecoder().decode([Decimal].self, from: data) == [value])
      #expect(try JSONDecoder().decode([Decimal].self, from: data) == [value])
    }
    #expect(Parity.expectSameEncoding([Decimal.pi]) == .value("[\(Decimal.pi)]"))
  }

  @Test func aDecimalNaNIsAnErrorNotInvalidJSON() {
    // Foundation is wrong here: JSONEncoder writes `[NaN]`, which is not JSON (JSONDecoder
    // itself refuses it). FastJSONEncoder refuses to write it, as it refuses Double.nan.
    for configure in [{ _, _ in }, Self.sorted] as [(FastJSONEncoder, JSONEncoder) -> Void] {
      let (ours, foundation) = Parity.encode(["k": [Decimal.nan]], configure: configure)
      #expect(
        ours
          == .error(
            "invalidValue(Decimal) at k/[0|Index 0]: Unable to encode Decimal.nan directly in JSON."
          ))
      #expect(foundation == .value(#"{"k":[NaN]}"#))
    }
  }

  @Test func nonConformingFloatsAreJSONEncoders() {
    struct Rows: Encodable {
      var rows: [[Double]]
      var single: Float
    }
    for value in [Double.infinity, -.infinity, .nan] {
      Parity.expectSameEncoding(Rows(rows: [[1], [2, value]], single: 1), configure: Self.sorted)
      Parity.expectSameEncoding(Rows(rows: [], single: Float(value)), configure: Self.sorted)
      Parity.expectSameEncoding(value)
      Parity.expectSameEncoding(["k": value])
      Parity.expectSameEncoding(Rows(rows: [[value]], single: Float(value))) {
        $0.nonConformingFloatEncodingStrategy = .convertToString(
          positiveInfinity: "INF", negativeInfinity: "-INF", nan: "NaN")
        $1.nonConformingFloatEncodingStrategy = $0.nonConformingFloatEncodingStrategy
        $0.outputFormatting = .sortedKeys
        $1.outputFormatting = .sortedKeys
      }
    }
    #expect(
      Parity.expectSameEncoding(["k": Double.infinity])
        == .error("invalidValue(Double) at k: Unable to encode Double.inf directly in JSON."))
  }

  // MARK: Strings

  @Test func stringsAreEscapedAsJSONEncoderEscapesThem() {
    let strings = [
      "/", "a/b", "\\/", "\"", "\\", "\u{1}\u{2}\u{3}", "\u{10}\u{18}\u{1f}", "\u{7f}", "\u{2028}",
      "é", "閆崬밺뀫颒", "👍🏻", "abc\u{0}def", "\n\r\t\u{8}\u{c}", "tab\there",
      String(repeating: "x/", count: 40),
    ]
    for string in strings {
      Parity.expectSameEncoding([string])
      Parity.expectSameEncoding([string: string])
      Parity.expectSameEncoding([string]) {
        $0.outputFormatting = .withoutEscapingSlashes
        $1.outputFormatting = .withoutEscapingSlashes
      }
    }
    #expect(Parity.expectSameEncoding(["/": 1]) == .value(#"{"\/":1}"#))
    for code in 0..<0x20 {
      Parity.expectSameEncoding(String(Character(UnicodeScalar(UInt8(code)))))
    }
  }

  @Test func urlsAreWrittenAsStringsWithTheirSlashes() {
    let url = URL(string: "http://swift.org/path/file.json")!
    #expect(Parity.expectSameEncoding(url) == .value(#""http:\/\/swift.org\/path\/file.json""#))
    Parity.expectSameEncoding(url) {
      $0.outputFormatting = .withoutEscapingSlashes
      $1.outputFormatting = .withoutEscapingSlashes
    }
  }

  // MARK: Output formats

  struct Tree: Codable {
    var name: String
    var children: [Tree]
    var empty: [String: Int] = [:]
    var list: [Int] = []
  }

  static let tree = Tree(
    name: "root",
    children: [
      Tree(name: "a", children: [], empty: [:], list: [1, 2]),
      Tree(name: "b/c", children: [Tree(name: "d", children: [])]),
    ])

  @Test func prettyPrintedAndSortedOutputIsJSONEncoders() {
    let formats: [JSONEncoder.OutputFormatting] = [
      [.sortedKeys], [.prettyPrinted, .sortedKeys],
      [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes],
    ]
    for format in formats {
      let configure: (FastJSONEncoder, JSONEncoder) -> Void = {
        $0.outputFormatting = format
        $1.outputFormatting = format
      }
      Parity.expectSameEncoding(Self.tree, configure: configure)
      Parity.expectSameEncoding([[String: Int]](), configure: configure)
      Parity.expectSameEncoding([String: [Int]](), configure: configure)
      Parity.expectSameEncoding([[Int]()], configure: configure)
      Parity.expectSameEncoding(["a": [String: Int]()], configure: configure)
      Parity.expectSameEncoding([Int8(1), 2, 3], configure: configure)
      Parity.expectSameEncoding(["k": [1.5, 2]], configure: configure)
    }
    // One member per object: the order cannot differ, so pretty output without sorting too.
    let pretty: (FastJSONEncoder, JSONEncoder) -> Void = {
      $0.outputFormatting = .prettyPrinted
      $1.outputFormatting = .prettyPrinted
    }
    #expect(
      Parity.expectSameEncoding(["k": [[String: [Int]]()]], configure: pretty)
        == .value("{\n  \"k\" : [\n    {\n\n    }\n  ]\n}"))
    Parity.expectSameEncoding([["a": ["b": [1, 2]]]], configure: pretty)
  }

  @Test func keysAreSortedByTheirUTF8Bytes() {
    let dictionary = [
      "Foo": 1, "FOO": 2, "foo": 3, "foo1": 4, "Foo2": 5, "foo3": 6, "foo12": 7, "Foo11": 8,
      "føo": 9, "bar": 10, "": 11, "é": 12, "z": 13,
    ]
    Parity.expectSameEncoding(dictionary, configure: Self.sorted)
    var many = ["AAA": 1, "AAAAAAB": 2]
    for index in 0..<256 { many["key\(index)"] = index }
    Parity.expectSameEncoding(many, configure: Self.sorted)
  }

  // MARK: Dates and data

  @Test func iso8601DatesAreWrittenAsJSONEncoderWritesThem() {
    let iso: (FastJSONEncoder, JSONEncoder) -> Void = {
      $0.dateEncodingStrategy = .iso8601
      $1.dateEncodingStrategy = .iso8601
    }
    var intervals: [Double] = [
      0, 0.5, -1.25, -0.5, 1_700_000_000.999, 951_782_400, 1_709_164_800, -62_135_596_800,
      253_402_300_799, 253_402_300_800, -30_610_224_000, -30_610_224_001, -1e10, 1e11, 86_399.999,
    ]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<200 { intervals.append(Double.random(in: -4e10...4e10, using: &generator)) }
    for interval in intervals {
      Parity.expectSameEncoding([Date(timeIntervalSince1970: interval)], configure: iso)
    }
    Parity.expectSameEncoding([Date.distantPast, .distantFuture], configure: iso)
    #expect(
      Parity.expectSameEncoding(
        [Date(timeIntervalSince1970: 0.5), Date(timeIntervalSince1970: -1.25)], configure: iso)
        == .value(#"["1970-01-01T00:00:00Z","1969-12-31T23:59:58Z"]"#))
  }

  @Test func dateStrategiesAreJSONEncoders() {
    let strategies: [JSONEncoder.DateEncodingStrategy] = [
      .deferredToDate, .secondsSince1970, .millisecondsSince1970,
      .custom { date, encoder in
        var container = encoder.singleValueContainer()
        try container.encode(date.timeIntervalSince1970 / 2)
      },
      .custom { _, _ in },
      .custom { date, encoder in
        var container = encoder.container(keyedBy: ParityKey.self)
        try container.encode(
          Int(exactly: date.timeIntervalSince1970.rounded()) ?? 0, forKey: ParityKey("at"))
      },
    ]
    for strategy in strategies {
      for interval in [0, 1_000_000.5, -1.25, 1e300, .infinity] as [Double] {
        Parity.expectSameEncoding(["d": Date(timeIntervalSince1970: interval)]) {
          $0.dateEncodingStrategy = strategy
          $1.dateEncodingStrategy = strategy
        }
      }
    }
  }

  @Test func dataStrategiesAreJSONEncoders() {
    let strategies: [JSONEncoder.DataEncodingStrategy] = [
      .base64, .deferredToData,
      .custom { data, encoder in
        var container = encoder.singleValueContainer()
        try container.encode(data.count)
      },
      .custom { _, _ in },
    ]
    for strategy in strategies {
      for data in [Data(), Data([0, 1, 255]), Data(repeating: 7, count: 100)] {
        Parity.expectSameEncoding([data]) {
          $0.dataEncodingStrategy = strategy
          $1.dataEncodingStrategy = strategy
        }
      }
    }
  }

  // MARK: Key strategies

  @Test func convertToSnakeCaseIsJSONEncoders() {
    struct Keys: Encodable {
      let names: [String]
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ParityKey.self)
        for name in names { try container.encode(1, forKey: ParityKey(name)) }
      }
    }
    let names = [
      "userID", "URLValue", "_leading", "trailing_", "HTTPStatus", "url2", "ALL_CAPS",
      "myURLProperty", "createdAt", "a", "", "_", "__a__b__", "oneTwoThree", "AB", "aB", "Ab",
      "a1B2", "htmlURLString", "ÉtéCase", "x_y", "already_snake", "sevenDaysAgo", "Ⓐbc", "ǅemal",
    ]
    for name in names {
      Parity.expectSameEncoding(Keys(names: [name])) {
        $0.keyEncodingStrategy = .convertToSnakeCase
        $1.keyEncodingStrategy = .convertToSnakeCase
      }
    }
    // Two keys that convert to one: the later value, as JSONEncoder keeps it.
    Parity.expectSameEncoding(Keys(names: ["camelCase", "camel_case", "a", "A"])) {
      $0.keyEncodingStrategy = .convertToSnakeCase
      $1.keyEncodingStrategy = .convertToSnakeCase
      $0.outputFormatting = .sortedKeys
      $1.outputFormatting = .sortedKeys
    }
  }

  struct Snaked: Codable {
    var userID = 1
    var leaveMeAlone = ["camelKey": ["innerKey": 1], "snake_key": [:]]
    var nestedValue = Nested()
    struct Nested: Codable {
      var intValue = 2
      var urlList: [String: Int] = ["someURL": 3]
    }
  }

  @Test func keyStrategiesLeaveDictionaryKeysAlone() {
    let strategies: [JSONEncoder.KeyEncodingStrategy] = [
      .useDefaultKeys, .convertToSnakeCase,
      .custom { path in ParityKey(path.map(\.stringValue).joined(separator: ".").uppercased()) },
    ]
    for strategy in strategies {
      Parity.expectSameEncoding(Snaked()) {
        $0.keyEncodingStrategy = strategy
        $1.keyEncodingStrategy = strategy
        $0.outputFormatting = .sortedKeys
        $1.outputFormatting = .sortedKeys
      }
    }
  }

  /// Writes its coding path as its value.
  struct PathValue: Encodable {
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(Parity.render(encoder.codingPath))
    }
  }

  struct Dictionaries<Value: Encodable & Sendable>: Encodable, Sendable {
    var byNumber: [Int: Value]
    var byName: [String: Value]
    var nested: [String: [Int: [String: Value]]]
    var empty: [Int: Int] = [:]

    init(_ value: Value) {
      byNumber = [7: value, -1: value]
      byName = ["a_b": value, "12": value]
      nested = ["k_k": [3: ["x_y": value]]]
    }
  }

  /// `[String: V]` and `[Int: V]` are written member by member by the stream (not through the
  /// standard library's `Dictionary.encode(to:)`, whose frames overflowed a small stack in a
  /// recursion), with `JSONEncoder`'s output, coding paths (a key's integer value included)
  /// and errors, under every key strategy.
  /// `value` written by both encoders without `.sortedKeys` (the stream writes it; sorted
  /// output goes through a value tree), compared as parsed JSON: a dictionary's members come in
  /// its own order, the same for both, but the comparison should not depend on it.
  static func expectSameUnsortedEncoding<T: Encodable>(
    _ value: T, strategy: JSONEncoder.KeyEncodingStrategy = .useDefaultKeys,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let fast = FastJSONEncoder()
    fast.keyEncodingStrategy = strategy
    let foundation = JSONEncoder()
    foundation.keyEncodingStrategy = strategy
    let ours = Result { try fast.encode(value) }
    let theirs = Result { try foundation.encode(value) }
    switch (ours, theirs) {
    case (.success(let a), .success(let b)):
      let parsedA = try? JSONSerialization.jsonObject(with: a, options: [.fragmentsAllowed])
      let parsedB = try? JSONSerialization.jsonObject(with: b, options: [.fragmentsAllowed])
      #expect(
        (parsedA as? NSObject).map { $0.isEqual(parsedB) } == true,
        "\(String(decoding: a, as: UTF8.self)) vs \(String(decoding: b, as: UTF8.self))",
        sourceLocation: sourceLocation)
    case (.failure(let a), .failure(let b)):
      #expect(Parity.describe(a) == Parity.describe(b), sourceLocation: sourceLocation)
    default:
      Issue.record("\(ours) vs \(theirs)", sourceLocation: sourceLocation)
    }
  }

  /// `[String: V]` and `[Int: V]` are written member by member by the stream (not through the
  /// standard library's `Dictionary.encode(to:)`, whose frames overflowed a small stack in a
  /// recursion), with `JSONEncoder`'s output, coding paths (a key's integer value included)
  /// and errors, under every key strategy; and the same through the value tree `.sortedKeys`
  /// takes.
  @Test func dictionariesAreWrittenAsJSONEncoderWritesThem() {
    let custom = JSONEncoder.KeyEncodingStrategy.custom { path in
      ParityKey(path.map(\.stringValue).joined(separator: ".") + "!")
    }
    let strategies: [JSONEncoder.KeyEncodingStrategy] = [.useDefaultKeys, .convertToSnakeCase]
    for strategy in strategies {
      let sorted: (FastJSONEncoder, JSONEncoder) -> Void = {
        $0.keyEncodingStrategy = strategy
        $1.keyEncodingStrategy = strategy
        $0.outputFormatting = .sortedKeys
        $1.outputFormatting = .sortedKeys
      }
      Parity.expectSameEncoding(Dictionaries(1), configure: sorted)
      Parity.expectSameEncoding([[5: Double.nan]], configure: sorted)
      Self.expectSameUnsortedEncoding(Dictionaries(1), strategy: strategy)
      Self.expectSameUnsortedEncoding(["k": Dictionaries(1)], strategy: strategy)
      Self.expectSameUnsortedEncoding([Dictionaries(true)], strategy: strategy)
      Self.expectSameUnsortedEncoding([[5: Double.nan]], strategy: strategy)
      Self.expectSameUnsortedEncoding([["a_b": [9: "x"]]], strategy: strategy)
      Self.expectSameUnsortedEncoding([[9: ["a_b": "x"]]], strategy: strategy)
      Self.expectSameUnsortedEncoding([Int: [Int: Int]](), strategy: strategy)
    }
    // The coding paths the values see (`byName/[12|12]`: a `[String: V]`'s key that reads as a
    // number has that integer value, as the standard library's key gives it), and those of
    // errors, without a key strategy: through the stream and through the value tree.
    Self.expectSameUnsortedEncoding(Dictionaries(PathValue()))
    Self.expectSameUnsortedEncoding(["k": Dictionaries(PathValue())])
    Self.expectSameUnsortedEncoding([["1_2": [Double.nan]]])
    Self.expectSameUnsortedEncoding([["a_b": [9: [-3: Double.infinity]]]])
    Parity.expectSameEncoding(Dictionaries(PathValue())) {
      $0.outputFormatting = .sortedKeys
      $1.outputFormatting = .sortedKeys
    }
    let paths = try? FastJSONEncoder().encode(Dictionaries(PathValue()))
    let parsed = paths.flatMap { try? Node(jsonData: $0) }
    #expect(parsed?["byName"]?["12"] == .string("byName/[12|12]"))
    #expect(parsed?["byNumber"]?["-1"] == .string("byNumber/[-1|-1]"))
    #expect(parsed?["nested"]?["k_k"]?["3"]?["x_y"] == .string("nested/k_k/[3|3]/x_y"))
    // Under a key strategy `JSONEncoder` leaves the dictionary's own path out of the paths
    // below a `[String: V]` (`1_2/[0|Index 0]`), so a custom strategy sees `k_k.3` for the
    // key `3` of `nested.k_k`; ours keep it (`nested.k_k.3`). The rest is the same.
    let customized = FastJSONEncoder()
    customized.keyEncodingStrategy = custom
    let written = (try? customized.encode(Dictionaries(1))).flatMap { try? Node(jsonData: $0) }
    #expect(written?["byNumber!"]?["byNumber.-1!"] == .integer(1))
    #expect(written?["byName!"]?["12"] == .integer(1))
    #expect(written?["nested!"]?["k_k"]?["nested.k_k.3!"]?["x_y"] == .integer(1))
    Self.expectSameUnsortedEncoding([[5: Double.nan]], strategy: custom)
    Self.expectSameUnsortedEncoding([[9: ["a_b": "x"]]], strategy: custom)
    let snake = FastJSONEncoder()
    snake.keyEncodingStrategy = .convertToSnakeCase
    let outcome = Parity.outcome({ try snake.encode([["1_2": [Double.nan]]]) }, text: { "\($0)" })
    #expect(
      outcome
        == .error(
          "invalidValue(Double) at [0|Index 0]/1_2/[0|Index 0]: "
            + "Unable to encode Double.nan directly in JSON."))
    let snakePaths = (try? snake.encode(["k": Dictionaries(PathValue())]))
      .flatMap { try? Node(jsonData: $0) }
    #expect(snakePaths?["k"]?["by_name"]?["12"] == .string("k/byName/12"))
  }

  @Test func aCustomKeyStrategySeesJSONEncodersPaths() {
    func paths(_ encode: (JSONEncoder.KeyEncodingStrategy) throws -> Void) rethrows -> [String] {
      let seen = Locked<[String]>([])
      try encode(
        .custom { path in
          seen.withLock { $0.append(Parity.render(path)) }
          return path[path.count - 1]
        })
      return seen.withLock { $0.sorted() }
    }
    let ours = try? paths { strategy in
      let encoder = FastJSONEncoder()
      encoder.keyEncodingStrategy = strategy
      _ = try encoder.encode(Self.tree)
    }
    let theirs = try? paths { strategy in
      let encoder = JSONEncoder()
      encoder.keyEncodingStrategy = strategy
      _ = try encoder.encode(Self.tree)
    }
    #expect(ours == theirs)
    #expect(ours?.contains("children/[1|Index 1]/children/[0|Index 0]/name") == true)
  }

  // MARK: Containers and coding paths

  /// Records the coding paths an `encode(to:)` sees, as `JSONEncoder`'s tests check them.
  struct PathRecorder: Encodable {
    let log: Locked<[String]>

    func encode(to encoder: any Encoder) throws {
      func note(_ label: String, _ path: [any CodingKey]) {
        log.withLock { $0.append("\(label): \(Parity.render(path))") }
      }
      note("encoder", encoder.codingPath)
      var keyed = encoder.container(keyedBy: ParityKey.self)
      note("keyed", keyed.codingPath)
      var nested = keyed.nestedContainer(keyedBy: ParityKey.self, forKey: ParityKey("a"))
      note("encoder after nested", encoder.codingPath)
      note("nested", nested.codingPath)
      var list = nested.nestedUnkeyedContainer(forKey: ParityKey("b"))
      note("list", list.codingPath)
      var inner = list.nestedContainer(keyedBy: ParityKey.self)
      note("inner", inner.codingPath)
      try inner.encode(1, forKey: ParityKey("c"))
      let superOfKey = keyed.superEncoder(forKey: ParityKey("s"))
      note("super for key", superOfKey.codingPath)
      var superContainer = superOfKey.container(keyedBy: ParityKey.self)
      note("below super", superContainer.codingPath)
      try superContainer.encode(2, forKey: ParityKey("x"))
      let plainSuper = keyed.superEncoder()
      note("super", plainSuper.codingPath)
      var single = plainSuper.singleValueContainer()
      try single.encode(3)
      let elementSuper = list.superEncoder()
      note("element super", elementSuper.codingPath)
      var elementSingle = elementSuper.singleValueContainer()
      try elementSingle.encode(4)
      try list.encode(Child(log: log))
    }
  }

  struct Child: Encodable {
    let log: Locked<[String]>
    func encode(to encoder: any Encoder) throws {
      log.withLock { $0.append("child: \(Parity.render(encoder.codingPath))") }
      var container = encoder.singleValueContainer()
      try container.encode(5)
    }
  }

  @Test func codingPathsAreJSONEncoders() throws {
    let ours = Locked<[String]>([])
    let theirs = Locked<[String]>([])
    let fast = FastJSONEncoder()
    fast.outputFormatting = .sortedKeys
    let foundation = JSONEncoder()
    foundation.outputFormatting = .sortedKeys
    let ourData = try fast.encode(PathRecorder(log: ours))
    let theirData = try foundation.encode(PathRecorder(log: theirs))
    #expect(String(decoding: ourData, as: UTF8.self) == String(decoding: theirData, as: UTF8.self))
    // The stream meets the super encoders and encodes the value again through a tree: the
    // paths of that second run are the ones compared (the first run saw the same ones up to
    // the super encoder).
    let ourLog = Array(ours.withLock { $0 }.suffix(theirs.withLock { $0 }.count))
    let theirLog = theirs.withLock { $0 }
    // Foundation is wrong about the last two paths: below a nested unkeyed container its
    // super encoder and its elements lose the container's own path (`a/b`), and an element
    // written after a pending super encoder gets that encoder's index. FastJSONDecoder gives
    // the paths the output has (`a/b/1` and `a/b/2`); the output itself is the same.
    #expect(Array(ourLog.dropLast(2)) == Array(theirLog.dropLast(2)))
    #expect(
      Array(ourLog.suffix(2)) == ["element super: a/b/[1|Index 1]", "child: a/b/[2|Index 2]"])
    #expect(Array(theirLog.suffix(2)) == ["element super: [1|Index 1]", "child: [1|Index 1]"])
    #expect(theirLog.contains("encoder after nested: "))
    #expect(theirLog.contains("below super: s"))
  }

  @Test func superEncodersWriteWhereJSONEncoderWritesThem() {
    struct SuperEncoding: Encodable {
      func encode(to encoder: any Encoder) throws {
        var keyed = encoder.container(keyedBy: ParityKey.self)
        var first = keyed.superEncoder(forKey: ParityKey("firstSuper")).singleValueContainer()
        var second = keyed.superEncoder(forKey: ParityKey("secondSuper")).singleValueContainer()
        try first.encode("First")
        try second.encode("Second")
        var unkeyed = keyed.nestedUnkeyedContainer(forKey: ParityKey("unkeyed"))
        try unkeyed.encode(0)
        let elementSuper1 = unkeyed.superEncoder()
        let elementSuper2 = unkeyed.superEncoder()
        try unkeyed.encode(42)
        var one = elementSuper1.singleValueContainer()
        var two = elementSuper2.singleValueContainer()
        try one.encode("First")
        try two.encode("Second")
        try ["direct": "super"].encode(to: keyed.superEncoder(forKey: ParityKey("direct")))
      }
    }
    #expect(
      Parity.expectSameEncoding(SuperEncoding(), configure: Self.sorted)
        == .value(
          #"{"direct":{"direct":"super"},"firstSuper":"First","secondSuper":"Second","unkeyed":[0,"First","Second",42]}"#
        ))
  }

  enum Replaced: CaseIterable { case value, keyedContainer, unkeyedContainer }

  @Test func aKeyWrittenAgainKeepsTheLaterValue() {
    struct Redundant: Encodable {
      let replaced: Replaced
      let throughSuper: Bool
      func encode(to encoder: any Encoder) throws {
        var keyed = encoder.container(keyedBy: ParityKey.self)
        switch replaced {
        case .value: try keyed.encode(0, forKey: ParityKey("key"))
        case .keyedContainer:
          _ = keyed.nestedContainer(keyedBy: ParityKey.self, forKey: ParityKey("key"))
        case .unkeyedContainer: _ = keyed.nestedUnkeyedContainer(forKey: ParityKey("key"))
        }
        if throughSuper {
          var single = keyed.superEncoder(forKey: ParityKey("key")).singleValueContainer()
          try single.encode(42)
        } else {
          try keyed.encode(42, forKey: ParityKey("key"))
        }
      }
    }
    for replaced in Replaced.allCases {
      for throughSuper in [false, true] {
        #expect(
          Parity.expectSameEncoding(Redundant(replaced: replaced, throughSuper: throughSuper))
            == .value(#"{"key":42}"#))
      }
    }
  }

  @Test func aNestedContainerForAKeyAlreadyWrittenAmendsIt() {
    struct Amending: Encodable {
      func encode(to encoder: any Encoder) throws {
        var top = encoder.container(keyedBy: ParityKey.self)
        try top.encode(["first": "a"], forKey: ParityKey("object"))
        var object = top.nestedContainer(keyedBy: ParityKey.self, forKey: ParityKey("object"))
        try object.encode("b", forKey: ParityKey("second"))
        try top.encode([1, 2], forKey: ParityKey("array"))
        var array = top.nestedUnkeyedContainer(forKey: ParityKey("array"))
        try array.encode(3)
        var again = top.nestedContainer(keyedBy: ParityKey.self, forKey: ParityKey("object"))
        try again.encode("c", forKey: ParityKey("third"))
      }
    }
    #expect(
      Parity.expectSameEncoding(Amending(), configure: Self.sorted)
        == .value(#"{"array":[1,2,3],"object":{"first":"a","second":"b","third":"c"}}"#))
  }

  @Test func aSingleValueAmendedByAContainer() {
    struct SingleThenKeyed: Encodable {
      func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode(["a": 1])
        var keyed = encoder.container(keyedBy: ParityKey.self)
        try keyed.encode(2, forKey: ParityKey("b"))
      }
    }
    struct SingleThenUnkeyed: Encodable {
      func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode([1])
        var unkeyed = encoder.unkeyedContainer()
        try unkeyed.encode(2)
      }
    }
    struct KeyedTwice: Encodable {
      func encode(to encoder: any Encoder) throws {
        var first = encoder.container(keyedBy: ParityKey.self)
        try first.encode(1, forKey: ParityKey("a"))
        var second = encoder.container(keyedBy: ParityKey.self)
        try second.encode(2, forKey: ParityKey("b"))
      }
    }
    Parity.expectSameEncoding(SingleThenKeyed(), configure: Self.sorted)
    Parity.expectSameEncoding(SingleThenUnkeyed())
    Parity.expectSameEncoding(KeyedTwice(), configure: Self.sorted)
    Parity.expectSameEncoding([SingleThenKeyed()], configure: Self.sorted)
  }

  @Test func aKeyedAndAnUnkeyedContainerForOneKey() throws {
    // `JSONEncoder` stops the program here (a precondition: "Attempt to re-encode into nested
    // UnkeyedEncodingContainer ... is invalid"; see EncoderMisuseTests, which checks that it
    // does); the second container's write is an error, the first keeps its values.
    struct Conflicting: Encodable {
      func encode(to encoder: any Encoder) throws {
        var top = encoder.container(keyedBy: ParityKey.self)
        var first = top.nestedContainer(keyedBy: ParityKey.self, forKey: ParityKey("top"))
        try first.encode("Johnny Appleseed", forKey: ParityKey("first"))
        var second = top.nestedUnkeyedContainer(forKey: ParityKey("top"))
        try? second.encode("second")
      }
    }
    #expect(
      String(decoding: try FastJSONEncoder().encode(Conflicting()), as: UTF8.self)
        == #"{"top":{"first":"Johnny Appleseed"}}"#)
  }

  class Base: Encodable {
    var baseValue = 1
  }

  final class Derived: Base {
    var derivedValue = 2
    enum CodingKeys: String, CodingKey { case derivedValue }
    override func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(derivedValue, forKey: .derivedValue)
      try super.encode(to: container.superEncoder())
    }
  }

  final class SharingDerived: Base {
    var derivedValue = 2
    enum CodingKeys: String, CodingKey { case derivedValue }
    override func encode(to encoder: any Encoder) throws {
      try super.encode(to: encoder)
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(derivedValue, forKey: .derivedValue)
    }
  }

  @Test func classesThatShareOrSplitTheirEncoderWithTheirSuperclass() {
    Parity.expectSameEncoding(Derived(), configure: Self.sorted)
    Parity.expectSameEncoding(SharingDerived(), configure: Self.sorted)
    Parity.expectSameEncoding([Derived(), SharingDerived()], configure: Self.sorted)
  }

  // MARK: Configurations, user info, errors

  struct Configured: EncodableWithConfiguration {
    var value: Int
    func encode(to encoder: any Encoder, configuration: Int) throws {
      var container = encoder.singleValueContainer()
      try container.encode(value * configuration)
    }
  }

  enum TenTimes: EncodingConfigurationProviding {
    static let encodingConfiguration = 10
  }

  @Test func configurationsReachTheValueAsWithJSONEncoder() throws {
    let ours = try FastJSONEncoder().encode(Configured(value: 4), configuration: 3)
    #expect(ours == (try JSONEncoder().encode(Configured(value: 4), configuration: 3)))
    #expect(String(decoding: ours, as: UTF8.self) == "12")
    let provided = try FastJSONEncoder().encode(Configured(value: 4), configuration: TenTimes.self)
    #expect(
      provided == (try JSONEncoder().encode(Configured(value: 4), configuration: TenTimes.self)))
  }

  struct Thrown: Error, Equatable { var code: Int }

  struct Throwing: Encodable {
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: ParityKey.self)
      try container.encode(1, forKey: ParityKey("before"))
      throw Thrown(code: 9)
    }
  }

  @Test func aModelsOwnErrorReachesTheCallerUnchanged() {
    for encode in [
      { _ = try FastJSONEncoder().encode(Throwing()) },
      { _ = try JSONEncoder().encode(Throwing()) },
      { _ = try FastJSONEncoder().encode([["a": Throwing()]]) },
      { _ = try JSONEncoder().encode([["a": Throwing()]]) },
    ] as [() throws -> Void] {
      #expect(throws: Thrown(code: 9)) { try encode() }
    }
  }

  @Test func anEncoderGoesOnAfterAValueThrew() throws {
    // `JSONEncoder`'s `encoderStateThrowOnEncode`: a failed call leaves nothing behind.
    let encoder = FastJSONEncoder()
    #expect(throws: EncodingError.self) { try encoder.encode([Double.nan]) }
    #expect(try encoder.encode([1]) == (try JSONEncoder().encode([1])))
    let catching = Parity.expectSameEncoding(CatchingEncoder())
    #expect(!catching.isError)
  }

  /// Catches the error of a non-finite value and writes something else instead.
  struct CatchingEncoder: Encodable {
    func encode(to encoder: any Encoder) throws {
      var container = encoder.unkeyedContainer()
      try container.encode(1)
      do {
        try container.encode(Double.nan)
      } catch {
        try container.encode("caught")
      }
    }
  }

  @Test func userInfoReachesTheValue() throws {
    struct Reader: Encodable {
      func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(encoder.userInfo[CodingUserInfoKey(rawValue: "tag")!] as? String ?? "")
      }
    }
    Parity.expectSameEncoding([Reader()]) {
      $0.userInfo = [CodingUserInfoKey(rawValue: "tag")!: "x"]
      $1.userInfo = [CodingUserInfoKey(rawValue: "tag")!: "x"]
    }
  }

  @Test func nestingDepthIsLimitedAsJSONEncoderLimitsIt() {
    func nested(_ depth: Int) -> Node {
      var node = Node.array([])
      for _ in 1..<depth { node = .array([node]) }
      return node
    }
    for depth in [100, 511, 513, 600] {
      Parity.expectSameEncoding(nested(depth))
      Parity.expectSameEncoding(nested(depth), configure: Self.sorted)
    }
    // Foundation on Linux is one level short here: its decoder reads 512 levels, its encoder
    // refuses them. FastJSONEncoder writes what the readers read (512 levels) and refuses 513,
    // as JSONEncoder refuses 512.
    for configure in [{ _, _ in }, Self.sorted] as [(FastJSONEncoder, JSONEncoder) -> Void] {
      let (ours, foundation) = Parity.encode(nested(512), configure: configure)
      #expect(
        ours == .value(String(repeating: "[", count: 512) + String(repeating: "]", count: 512)))
      #expect(
        foundation
          == .error("invalidValue(Node) at : Unable to encode the given top-level value to JSON."))
    }
  }

  // MARK: The corpora

  @Test(.enabled(if: TestData.isAvailable))
  func corporaAreWrittenAsJSONEncoderWritesThem() throws {
    for corpus in ["twitter", "citm_catalog", "canada"] {
      let node = try Node(jsonData: TestData.data("json-benchmark/\(corpus).json"))
      let value = try JSONDecoder().decode(
        Node.self, from: TestData.data("json-benchmark/\(corpus).json"))
      Parity.expectSameEncoding(value, configure: Self.sorted)
      Parity.expectSameEncoding(node.doublesOnly(), configure: Self.sorted)
    }
  }
}
