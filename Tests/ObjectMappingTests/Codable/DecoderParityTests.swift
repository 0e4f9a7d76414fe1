import Foundation
import ObjectMapping
import ObjectMappingTestSupport
import Testing

/// `FastJSONDecoder` gives `JSONDecoder`'s answers: each test runs both on the same input and
/// compares the values, or the errors' cases, coding paths and texts (issue 34). The cases are
/// those of swift-foundation's `JSONEncoderTests` and swift-corelibs-foundation's
/// `TestJSONEncoder`, written again as side-by-side comparisons.
@Suite("FastJSONDecoder parity")
struct DecoderParityTests {
  // MARK: Numbers

  @Test(arguments: [
    "0", "1", "-1", "-0", "1.0", "1e2", "1E+2", "1.5", "1e400", "-1e400", "1e-400", "300",
    "-129", "255", "256", "65536", "4294967296", "9223372036854775807", "9223372036854775808",
    "-9223372036854775808", "-9223372036854775809", "18446744073709551615",
    "18446744073709551616", "9007199254740993", "9007199254740993.0", "1.5e16", "1e20",
    "12345678901234567.5", "0.1e1", "true", "\"1\"", "null", "[1]", "{}",
  ])
  func integersReadAsJSONDecoderReadsThem(json: String) {
    Parity.expectSameDecoding([Int].self, "[\(json)]")
    Parity.expectSameDecoding([Int8].self, "[\(json)]")
    Parity.expectSameDecoding([UInt8].self, "[\(json)]")
    Parity.expectSameDecoding([Int16].self, "[\(json)]")
    Parity.expectSameDecoding([UInt32].self, "[\(json)]")
    Parity.expectSameDecoding([Int64].self, "[\(json)]")
    Parity.expectSameDecoding([UInt64].self, "[\(json)]")
    Parity.expectSameDecoding([UInt].self, "[\(json)]")
    Parity.expectSameDecoding([Int128].self, "[\(json)]")
    Parity.expectSameDecoding([UInt128].self, "[\(json)]")
  }

  @Test func int128AndUInt128ReadTheirWholeRange() {
    for json in [
      "170141183460469231731687303715884105727", "-170141183460469231731687303715884105728",
      "170141183460469231731687303715884105728", "340282366920938463463374607431768211455",
      "340282366920938463463374607431768211456", "1e3", "-1e3", "1e30", "12.0",
    ] {
      Parity.expectSameDecoding([Int128].self, "[\(json)]")
      Parity.expectSameDecoding([UInt128].self, "[\(json)]")
      Parity.expectSameDecoding(Int128.self, json)
    }
    #expect(
      Parity.expectSameDecoding(UInt128.self, "340282366920938463463374607431768211455")
        == .value("340282366920938463463374607431768211455"))
  }

  @Test(arguments: [
    "0", "-0", "0.0", "-0.0", "0e10", "1", "0.1", "1.5", "-2.01e-3", "1e300", "1e308", "1e309",
    "-1e309", "1e-320", "5e-324", "1e-400", "2.2250738585072011e-308", "3.4028235e38",
    "3.4028236e38", "1e39", "1e-45", "1e-46", "1.17549435e-38", "16777217", "0.30000000000000004",
    "9007199254740993", "7.45673334164903e-115", "\"1.5\"", "true", "null",
  ])
  func floatingPointReadsAsJSONDecoderReadsIt(json: String) {
    Parity.expectSameDecoding([Double].self, "[\(json)]")
    Parity.expectSameDecoding([Float].self, "[\(json)]")
    Parity.expectSameDecoding(Double.self, json)
    Parity.expectSameDecoding(Float.self, json)
  }

  @Test func aFloatIsParsedFromItsTextNotThroughADouble() {
    // 16777217 rounds to 16777216 as a Float directly; 0.1 is the Float nearest 0.1.
    #expect(Parity.expectSameDecoding(Float.self, "0.1") == .value("0.1"))
    #expect(Parity.expectSameDecoding(Float.self, "16777217") == .value("16777216.0"))
    #expect(Parity.expectSameDecoding(Float.self, "3.4028235e38") == .value("3.4028235e+38"))
  }

  @Test(arguments: [
    "0", "12.50", "-1", "3.14159265358979323846264338327950288419",
    "12345678901234567890123456789012345678901234567890", "1e10", "1e-10", "1e127", "1e128",
    "1e200", "-0", "0.0000000000000000000000000000000000000001", "\"1\"", "null",
  ])
  func decimalsReadAsJSONDecoderReadsThem(json: String) {
    Parity.expectSameDecoding([Decimal].self, "[\(json)]")
  }

  @Test func decimalPiReadsBackWhatItsEncoderWrote() throws {
    let data = try FastJSONEncoder().encode([Decimal.pi])
    #expect(data == (try JSONEncoder().encode([Decimal.pi])))
    #expect(
      Parity.expectSameDecoding([Decimal].self, data, label: "pi") == .value("[\(Decimal.pi)]"))
    #expect(try FastJSONDecoder().decode([Decimal].self, from: data) == [Decimal.pi])
  }

  @Test func nonConformingFloatsAsStrings() {
    let convert: (FastJSONDecoder, JSONDecoder) -> Void = {
      $0.nonConformingFloatDecodingStrategy = .convertFromString(
        positiveInfinity: "INF", negativeInfinity: "-INF", nan: "NaN")
      $1.nonConformingFloatDecodingStrategy = $0.nonConformingFloatDecodingStrategy
    }
    for json in [#"["INF"]"#, #"["-INF"]"#, #"["inf"]"#, #"["\u0049NF"]"#, "[1]", #"["1"]"#] {
      Parity.expectSameDecoding([Double].self, json, configure: convert)
      Parity.expectSameDecoding([Float].self, json, configure: convert)
      Parity.expectSameDecoding([Double].self, json)
    }
    // NaN is not equal to itself: compared by its text.
    #expect(
      Parity.expectSameDecoding([Double].self, #"["NaN"]"#, configure: convert) == .value("[nan]"))
  }

  // MARK: Strings, booleans, null

  @Test(arguments: [
    #""\/test\/path""#, #""\\/test\\/path""#, #""閆崬밺뀫颒""#, #""\u00e9\u2265""#,
    #""42\u00e942\u226542""#, #""\u00E9""#, #""\uD834\uDD1E""#, #""\uD834""#, #""\uD834hello""#,
    #""hello\uD834""#, #""\uD834\u1221""#, #""\uD8""#, #""\uD834x\uDD1E""#, #""abc\u0000def""#,
    #""\h\e\l\l\o""#, "\"a\u{7F}b\"", "\"a\tb\"", #""\b\f\n\r\t\"\\""#, "1", "true", "null", "[]",
  ])
  func stringsReadAsJSONDecoderReadsThem(json: String) {
    Parity.expectSameDecoding(String.self, json)
    Parity.expectSameDecoding([String].self, "[\(json)]")
  }

  @Test func everyControlCharacterEscapeReadsAsJSONDecoderReadsIt() {
    for code in 0...0x20 {
      let escaped = String(format: "\"\\u%04x\"", code)
      Parity.expectSameDecoding(String.self, escaped)
      Parity.expectSameDecoding(String.self, "\"\(Character(UnicodeScalar(UInt8(code))))\"")
    }
  }

  @Test(arguments: ["true", "false", "1", "0", "\"true\"", "null", "tru", "True"])
  func booleansReadAsJSONDecoderReadsThem(json: String) {
    Parity.expectSameDecoding(Bool.self, json)
    Parity.expectSameDecoding([Bool].self, "[\(json)]")
    Parity.expectSameDecoding([Bool?].self, "[\(json)]")
  }

  // MARK: Syntax and leniencies

  @Test(arguments: [
    "{\"key\" : [ true, ],}", "[1,]", "[1,,2]", "[,]", "[1 2]", "{\"a\":1,}", "{,}",
    "{\"a\" 1}", "[+1]", "[.5]", "[0x10]", "[NaN]", "[Infinity]",
    "[1] // c", "/* c */ [1]", "[1]\u{0}", "[1] x", " [1] ", "\t[1]\r\n", "[1]\u{A0}",
    "\u{FEFF}[1]", "[\"\u{FEFF}\"]", "", " ", "[", "]", "[[[]]]",
    "{\"a\":{\"b\":[1,{\"c\":null}]}}",
    "['a']", "[\"a\" \"b\"]", "[true false]", "[nul]", "[null ]", "\u{2028}[1]",
  ])
  func syntaxAndLeniencesAreJSONDecoders(json: String) {
    Parity.expectSameNode(json)
  }

  @Test func malformedNumbersAndStringsAreErrorsWhereverTheyAre() throws {
    // `JSONDecoder`'s reader takes any run of digits, `.`, `+`, `-`, `e` for a number, and
    // the bytes of a string as they are, and checks them only when a model reads that value:
    // read, both decoders fail alike (`[Int]` below); never read (`Sparse` below), the
    // document is accepted by `JSONDecoder`. FastJSONDecoder checks the whole document, as
    // the JSON it is: a malformed number or string is an error wherever it is (documented in
    // MigratingFromCodable.md).
    struct Sparse: Decodable, Equatable { var id: Int }
    let invalidString: [UInt8] = [0x22, 0xED, 0xA0, 0x80, 0x22]
    for token in ["01", "-", "1.", "1e", "1e+", "--1", "1.2.3", "-01.5"].map({ Array($0.utf8) })
      + [invalidString]
    {
      let read = Data(Array("[".utf8) + token + Array("]".utf8))
      let (oursRead, foundationRead) = Parity.decode([Int].self, read)
      #expect(oursRead == .error("dataCorrupted at : The given data was not valid JSON."))
      #expect(foundationRead.isError)
      let unread = Data(Array(#"{"id": 1, "junk": "#.utf8) + token + Array("}".utf8))
      let (ours, foundation) = Parity.decode(Sparse.self, unread)
      #expect(ours == .error("dataCorrupted at : The given data was not valid JSON."))
      #expect(foundation == .value(String(reflecting: Sparse(id: 1))))
    }
  }

  @Test func topLevelFragmentsAndPartialInput() {
    for json in ["0 ", "1.0 ", "0.1 ", "1e3 ", "-2.01e-3 ", "0e-10", "tru_", "fals_", "nul_"] {
      Parity.expectSameDecoding(Double.self, json)
      Parity.expectSameDecoding(Bool?.self, json)
    }
    let full = Data("3.141596".utf8)
    Parity.expectSameDecoding(Double.self, full[0..<4], label: "3.14 from a slice")
  }

  @Test func invalidUTF8AndKeys() {
    let inputs: [[UInt8]] = [
      Array(#"{"a":""#.utf8) + [0xFF] + Array(#""}"#.utf8),
      Array(#"{""#.utf8) + [0xC0, 0xAF] + Array(#"":1}"#.utf8),
      [0x7B, 0x80],
    ]
    for bytes in inputs {
      Parity.expectSameDecoding([String: String].self, Data(bytes), label: "\(bytes)")
    }
  }

  @Test func byteOrderMarksAndUTF16AndUTF32Input() throws {
    let text = #"{"a": ["é", "👍🏻", 1.5]}"#
    for encoding in [
      String.Encoding.utf16LittleEndian, .utf16BigEndian, .utf32BigEndian, .utf16, .utf8,
    ] {
      let plain = try #require(text.data(using: encoding))
      Parity.expectSameNode(plain, label: "\(encoding)")
    }
    // Byte order marks, as `JSONDecoder`'s `bomPrefixes` test writes them.
    let marks: [(String, [UInt8], String.Encoding)] = [
      ("UTF-8", [0xEF, 0xBB, 0xBF], .utf8), ("UTF-16BE", [0xFE, 0xFF], .utf16BigEndian),
      ("UTF-16LE", [0xFF, 0xFE], .utf16LittleEndian),
      ("UTF-32BE", [0, 0, 0xFE, 0xFF], .utf32BigEndian),
    ]
    for (name, mark, encoding) in marks {
      let data = Data(mark) + (try #require(text.data(using: encoding)))
      #expect(Parity.expectSameNode(data, label: name).isError == false)
      // A fragment too (two bytes of UTF-16).
      let fragment = Data(mark) + (try #require("7".data(using: encoding)))
      Parity.expectSameDecoding(Int.self, fragment, label: "\(name) fragment")
    }
  }

  @Test func utf32LittleEndianWithItsByteOrderMarkIsRead() throws {
    // Foundation on Linux is wrong here: it takes `FF FE 00 00` for UTF-16's byte order mark
    // (`FF FE`) and then fails on the zero bytes ("The given data was not valid JSON."), so
    // the two decoders differ on purpose: FastJSONDecoder reads the text.
    let data = Data([0xFF, 0xFE, 0, 0]) + (try #require(#"["é"]"#.data(using: .utf32LittleEndian)))
    let (ours, foundation) = Parity.decode([String].self, data)
    #expect(ours == .value(#"["é"]"#))
    #expect(foundation == .error("dataCorrupted at : The given data was not valid JSON."))
    // Without the mark both read it.
    Parity.expectSameDecoding(
      [String].self, try #require(#"["é"]"#.data(using: .utf32LittleEndian)), label: "UTF-32LE")
  }

  @Test func depthLimitIsJSONDecoders() {
    for depth in [256, 511, 512, 513, 600] {
      let json = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
      Parity.expectSameNode(json)
    }
  }

  // MARK: Duplicate and equivalent keys

  struct Cafe: Codable, Equatable {
    var cafe: Bool
    /// The key as Swift source spells it: `é` is U+00E9.
    enum CodingKeys: String, CodingKey { case cafe = "caf\u{E9}" }
  }

  @Test func duplicateKeysReadTheFirstMemberAsJSONDecoderDoes() {
    struct One: Codable, Equatable { var a: Int }
    for json in [#"{"a":1,"a":2}"#, #"{"a":1,"\u0061":2}"#, #"{"b":0,"a":1,"a":2}"#] {
      Parity.expectSameDecoding(One.self, json)
      Parity.expectSameDecoding([String: Int].self, json)
      Parity.expectSameDecoding(KeyList.self, json)
    }
  }

  /// `[Int: V]` is read member by member (not through `Dictionary.init(from:)` and a keyed
  /// container, whose frames overflowed a small stack in a recursion), with the standard
  /// library's answers: repeated keys, numbers spelt twice, keys that are not numbers, values
  /// of the wrong type, null, and under key strategies.
  @Test(arguments: [
    #"{"1":1,"2":2}"#, #"{"1":1,"1":2}"#, #"{"01":2}"#, #"{"+1":2,"-0":3}"#,
    #"{"\u0031":1,"1":2}"#, #"{"a":1}"#, #"{"1":1,"a":2}"#, #"{"1.0":1}"#, #"{" 1":1}"#,
    #"{"9223372036854775808":1}"#, #"{"-9223372036854775808":1}"#, #"{}"#, #"{"1":null}"#,
    "null", "[]", "[1]", #"{"1_0":1}"#,
  ])
  func integerKeyedDictionariesAreReadAsJSONDecoderReadsThem(json: String) {
    Parity.expectSameDecoding([Int: Int].self, json)
    Parity.expectSameDecoding([Int: Int?].self, json)
    Parity.expectSameDecoding([String: [Int: Int]].self, #"{"k":\#(json)}"#)
    Parity.expectSameDecoding([[Int: Int]?].self, "[\(json)]")
    Parity.expectSameDecoding([Int: Int].self, json) {
      $0.keyDecodingStrategy = .convertFromSnakeCase
      $1.keyDecodingStrategy = .convertFromSnakeCase
    }
    let custom: JSONDecoder.KeyDecodingStrategy = .custom { path in
      ParityKey(path[path.count - 1].stringValue == "1" ? "2" : path[path.count - 1].stringValue)
    }
    Parity.expectSameDecoding([Int: Int].self, json) {
      $0.keyDecodingStrategy = custom
      $1.keyDecodingStrategy = custom
    }
  }

  /// Where the order of the keys decides (one number spelt twice, `"1"` and `"01"`; a value
  /// of the wrong type and a key that is not a number), `JSONDecoder`'s answer depends on the
  /// order of a Swift dictionary's keys, which changes from process to process. Ours follows
  /// the payload: the later spelling's value, the first failure in the payload. Each is one of
  /// the answers `JSONDecoder` gives.
  @Test func integerKeysSpeltTwiceFollowThePayloadsOrder() throws {
    let cases: [(json: String, ours: [Int: Int], possible: [[Int: Int]])] = [
      (#"{"1":1,"01":2}"#, [1: 2], [[1: 1], [1: 2]]),
      (#"{"01":2,"1":1,"1":3}"#, [1: 1], [[1: 1], [1: 2]]),
      (#"{"-0":1,"0":2,"+0":3}"#, [0: 3], [[0: 1], [0: 2], [0: 3]]),
    ]
    for (json, ours, possible) in cases {
      let data = Data(json.utf8)
      #expect(try FastJSONDecoder().decode([Int: Int].self, from: data) == ours, "\(json)")
      #expect(possible.contains(try JSONDecoder().decode([Int: Int].self, from: data)), "\(json)")
    }
    let mixed = Data(#"{"1":"x","a":2}"#.utf8)
    let ours = Parity.outcome(
      { try FastJSONDecoder().decode([Int: Int].self, from: mixed) }, text: { "\($0)" })
    #expect(
      ours
        == .error("typeMismatch(Int) at [1|1]: Expected to decode Int but found a string instead."))
    let theirs = Parity.outcome(
      { try JSONDecoder().decode([Int: Int].self, from: mixed) }, text: { "\($0)" })
    #expect(
      theirs == ours
        || theirs
          == .error("typeMismatch(Int) at a: Expected Int key but found String key instead.")
    )
  }

  @Test func canonicallyEquivalentKeysAreOneKey() {
    for json in [
      #"{"caf\u00e9":true,"cafe\u0301":false}"#, #"{"cafe\u0301":false,"caf\u00e9":true}"#,
      #"{"cafe\u0301":false}"#, "{\"cafe\u{301}\":true}", #"{"cafe":true}"#,
    ] {
      Parity.expectSameDecoding(Cafe.self, json)
      Parity.expectSameDecoding([String: Bool].self, json)
      Parity.expectSameDecoding(KeyList.self, json)
    }
    #expect(
      Parity.expectSameDecoding([String: Bool].self, #"{"caf\u00e9":true,"cafe\u0301":false}"#)
        == .value(#"["café": true]"#))
    // A key that is not ASCII equal to an ASCII payload key (U+212A KELVIN SIGN is `K`), and
    // the other way round; misses in objects of plain keys and of escaped keys.
    struct Kelvin: Codable, Equatable {
      var kelvin: Int?
      var plain: Int?
      enum CodingKeys: String, CodingKey {
        case kelvin = "\u{212A}"
        case plain = "p"
      }
    }
    for json in [
      #"{"K": 1}"#, #"{"\u212A": 2}"#, "{\"\u{212A}\": 3}", #"{"p": 1, "q": 2}"#,
      #"{"\u0070": 4}"#, #"{"x": 1, "K": 5, "p": 6}"#, "{}",
    ] {
      Parity.expectSameDecoding(Kelvin.self, json)
    }
  }

  @Test func anASCIIKeyIsComparedByteForByte() {
    // The one difference in key comparison, on purpose: a model key in ASCII (`K`) is found
    // by its bytes, so a payload key written with U+212A KELVIN SIGN (canonically `K`) is
    // not it for FastJSONDecoder, and is for `JSONDecoder`. (Checking every missed ASCII key
    // for the three characters Unicode makes equal to ASCII ones would cost a scan of the
    // object per absent optional member.)
    struct Plain: Codable, Equatable { var k: Int? }
    struct Capital: Codable, Equatable {
      var k: Int?
      enum CodingKeys: String, CodingKey { case k = "K" }
    }
    let (ours, foundation) = Parity.decode(Capital.self, Data(#"{"\u212A": 1}"#.utf8))
    #expect(ours == .value(String(reflecting: Capital(k: nil))))
    #expect(foundation == .value(String(reflecting: Capital(k: 1))))
    Parity.expectSameDecoding(Plain.self, #"{"k": 1, "\u212A": 2}"#)
  }

  /// The keys a keyed container lists, sorted (`JSONDecoder` lists them in its dictionary's
  /// order), and how many.
  struct KeyList: Decodable, CustomDebugStringConvertible {
    var keys: [String]
    init(from decoder: any Decoder) throws {
      keys = try decoder.container(keyedBy: ParityKey.self).allKeys.map(\.stringValue).sorted()
    }
    var debugDescription: String { "\(keys)" }
  }

  // MARK: Containers

  @Test func containerErrorsAreJSONDecoders() {
    struct Keyed: Decodable {
      init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: ParityKey.self)
      }
    }
    struct Unkeyed: Decodable {
      init(from decoder: any Decoder) throws {
        _ = try decoder.unkeyedContainer()
      }
    }
    for json in ["null", "1", "\"a\"", "true", "[]", "{}"] {
      Parity.expectSameDecoding(Keyed.self, json)
      Parity.expectSameDecoding(Unkeyed.self, json)
      Parity.expectSameDecoding([Keyed].self, "[\(json)]")
    }
  }

  struct Item: Codable, Equatable {
    var id: Int
    var name: String?
  }

  @Test func keyedErrorsAreJSONDecoders() {
    for json in [
      #"{"id": 1}"#, #"{"name": "a"}"#, #"{"id": null}"#, #"{"id": "1"}"#, #"{"id": 1, "name": 2}"#,
      #"{"id": 1, "name": null}"#, #"[1]"#, #"{"id": 1.5}"#, #"{"id": 1e100}"#,
    ] {
      Parity.expectSameDecoding(Item.self, json)
      Parity.expectSameDecoding([String: Item].self, #"{"k": \#(json)}"#)
    }
  }

  /// Reads an unkeyed container the way `JSONDecoder`'s tests probe it.
  struct UnkeyedProbe: Decodable, CustomDebugStringConvertible {
    var answers: [String] = []
    init(from decoder: any Decoder) throws {
      var container = try decoder.unkeyedContainer()
      func note(_ label: String, _ body: () throws -> Any) {
        do {
          answers.append("\(label)=\(try body())")
        } catch {
          answers.append("\(label)!\(Parity.describe(error))")
        }
      }
      note("count") { container.count as Any }
      // A failed read leaves the container where it was.
      note("int") { try container.decode(Int.self) }
      note("index") { container.currentIndex }
      note("string") { try container.decode(String.self) }
      note("nil?") { try container.decodeNil() }
      note("nil") { try container.decodeNil() }
      note("index") { container.currentIndex }
      note("ifPresent") { try container.decodeIfPresent(Int.self) as Any }
      note("nested") { try container.nestedContainer(keyedBy: ParityKey.self).allKeys.count }
      note("index") { container.currentIndex }
      note("unkeyed") { try container.nestedUnkeyedContainer().count as Any }
      note("super") { try container.superDecoder().codingPath.count }
      note("atEnd") { container.isAtEnd }
      note("past") { try container.decode(Int.self) }
      note("pastNil") { try container.decodeNil() }
      note("pastNested") { try container.nestedUnkeyedContainer() }
      note("pastKeyed") { try container.nestedContainer(keyedBy: ParityKey.self) }
      note("pastSuper") { try container.superDecoder().codingPath.count }
      note("pastIfPresent") { try container.decodeIfPresent(Int.self) as Any }
      note("index") { container.currentIndex }
    }
    var debugDescription: String { answers.joined(separator: "\n") }
  }

  @Test func unkeyedContainersAnswerAsJSONDecodersDo() {
    for json in [
      #"["s", null, 3, {}, [], 4]"#, #"[1, "s", null, {"a": 1}, [1, 2], true]"#, "[]",
      #"[null, null, null, null, null, null]"#,
    ] {
      let outcome = Parity.expectSameDecoding(UnkeyedProbe.self, json)
      #expect(!outcome.isError, "\(outcome)")
    }
  }

  @Test func tryingTypesOneAfterAnotherReadsTheSameElement() {
    // What `Node`'s and many models' `init(from:)` do: `try?` one type, then the next.
    struct Loose: Decodable, Equatable {
      var values: [String] = []
      init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        while !container.isAtEnd {
          if let number = try? container.decode(Int.self) {
            values.append("int \(number)")
          } else if let text = try? container.decode(String.self) {
            values.append("string \(text)")
          } else {
            values.append("other \(try container.decode(Node.self).doublesOnly())")
          }
        }
      }
    }
    Parity.expectSameDecoding(Loose.self, #"[1, "two", 3.5, true, null, [4]]"#)
  }

  @Test func superDecodersAreJSONDecoders() {
    struct Probe: Decodable, CustomDebugStringConvertible {
      var answers: [String] = []
      init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ParityKey.self)
        for key in ["present", "missing", "null"] {
          let inner = try container.superDecoder(forKey: ParityKey(key))
          answers.append(Parity.render(inner.codingPath))
          let single = try inner.singleValueContainer()
          answers.append("nil: \(single.decodeNil())")
          answers.append("\((try? single.decode(Int.self)) as Any)")
          do {
            _ = try inner.container(keyedBy: ParityKey.self)
          } catch {
            answers.append(Parity.describe(error))
          }
        }
        let plain = try container.superDecoder()
        answers.append(Parity.render(plain.codingPath))
        answers.append("\((try? plain.singleValueContainer().decode(Int.self)) as Any)")
      }
      var debugDescription: String { answers.joined(separator: "\n") }
    }
    for json in [#"{"present": 1, "null": null, "super": 2}"#, #"{"present": {}}"#] {
      Parity.expectSameDecoding(Probe.self, json)
    }
  }

  // MARK: Types passed as metatypes, configurations

  class Person: Codable, Equatable {
    var name = ""
    init() {}
    static func == (lhs: Person, rhs: Person) -> Bool {
      type(of: lhs) == type(of: rhs) && lhs.name == rhs.name
    }
  }

  final class Employee: Person, CustomDebugStringConvertible {
    var employeeID = 0
    override init() { super.init() }
    enum CodingKeys: String, CodingKey { case employeeID }
    required init(from decoder: any Decoder) throws {
      employeeID = try decoder.container(keyedBy: CodingKeys.self).decode(
        Int.self, forKey: .employeeID)
      try super.init(from: decoder.container(keyedBy: CodingKeys.self).superDecoder())
    }
    var debugDescription: String { "Employee(\(employeeID), \(name))" }
  }

  @Test func aMetatypePassedAsItsSuperclassDecodesTheSubclass() throws {
    let json = Data(#"{"employeeID": 7, "super": {"name": "Ann"}}"#.utf8)
    let type: Person.Type = Employee.self
    let ours = try FastJSONDecoder().decode(type, from: json)
    let theirs = try JSONDecoder().decode(type, from: json)
    #expect(ours is Employee && theirs is Employee)
    #expect((ours as? Employee)?.debugDescription == (theirs as? Employee)?.debugDescription)
    #expect((ours as? Employee)?.debugDescription == "Employee(7, Ann)")
    // Inside containers: what each container does with the metatype, both decoders alike.
    struct Holder: Decodable, CustomDebugStringConvertible {
      var people: [Person] = []
      enum CodingKeys: String, CodingKey { case person, list }
      init(from decoder: any Decoder) throws {
        let type: Person.Type = Employee.self
        let container = try decoder.container(keyedBy: CodingKeys.self)
        people.append(try container.decode(type, forKey: .person))
        var list = try container.nestedUnkeyedContainer(forKey: .list)
        people.append(try list.decode(type))
        people.append(
          try container.superDecoder(forKey: .person).singleValueContainer().decode(type))
      }
      var debugDescription: String { people.map { "\(Swift.type(of: $0))" }.joined(separator: ",") }
    }
    let held =
      #"{"person": {"employeeID": 8, "super": {"name": "Bo"}, "name": "Bo"}, "list": [{"employeeID": 9, "super": {"name": "Cy"}, "name": "Cy"}]}"#
    Parity.expectSameDecoding(Holder.self, held)
  }

  struct Configured: DecodableWithConfiguration, Equatable {
    var value: Int
    init(from decoder: any Decoder, configuration: Int) throws {
      value = try decoder.singleValueContainer().decode(Int.self) * configuration
    }
  }

  enum TenTimes: DecodingConfigurationProviding {
    static let decodingConfiguration = 10
  }

  @Test func configurationsReachTheModelAsWithJSONDecoder() throws {
    let data = Data("4".utf8)
    let ours = try FastJSONDecoder().decode(Configured.self, from: data, configuration: 3)
    #expect(ours == (try JSONDecoder().decode(Configured.self, from: data, configuration: 3)))
    #expect(ours.value == 12)
    let provided = try FastJSONDecoder().decode(
      Configured.self, from: data, configuration: TenTimes.self)
    #expect(
      provided
        == (try JSONDecoder().decode(Configured.self, from: data, configuration: TenTimes.self)))
  }

  // MARK: Dates, data, URLs

  struct Stamp: Codable, Equatable {
    var date: Date
  }

  @Test func iso8601DatesReadOnlyWhatJSONDecoderReads() {
    let iso: (FastJSONDecoder, JSONDecoder) -> Void = {
      $0.dateDecodingStrategy = .iso8601
      $1.dateDecodingStrategy = .iso8601
    }
    let texts = [
      "2023-11-14T22:13:20Z", "1970-01-01T00:00:00Z", "1970-01-01T00:00:00.5Z",
      "1969-12-31T23:59:58.75Z", "2023-11-14T22:13:20+01:00", "2023-11-14T22:13:20-08:30",
      "2023-11-14T22:13:20+0100", "2023-11-14T22:13:20+01", "2023-11-14T22:13:20z",
      "2023-11-14T22:13:20GMT", "2023-11-14T22:13:20UTC+02:00", "2023-11-14t22:13:20Z",
      "2023-11-14 22:13:20Z", "2023-11-14", "2023-11-14T22:13:20", "2023-11-14T22:13Z",
      "20231114T221320Z", "2023-02-29T00:00:00Z", "2024-02-29T00:00:00Z", "2023-13-01T00:00:00Z",
      "2023-11-14T24:00:00Z", "2023-11-14T23:59:60Z", "0999-01-01T00:00:00Z",
      "10000-01-01T00:00:00Z", "2023-11-14T22:13:20Zjunk", " 2023-11-14T22:13:20Z", "",
      "2023-11-14T22:13:20.123456789Z", "2023-11-14T22:13:20.Z", "1500-03-01T00:00:00Z",
      "1582-10-04T00:00:00Z", "1582-10-10T00:00:00Z", "1582-10-15T00:00:00Z",
      "1583-01-01T00:00:00Z", "1200-02-29T00:00:00Z", "1000-01-01T00:00:00Z",
      "9999-12-31T23:59:59Z", "2000-02-29T12:00:00-12:00",
    ]
    for text in texts {
      Parity.expectSameDecoding(Stamp?.self, #"{"date": "\#(text)"}"#, configure: iso)
      // As a top-level value (the error's path is the same there).
      Parity.expectSameDecoding(Date.self, #""\#(text)""#, configure: iso)
    }
  }

  @Test func anInvalidISO8601DateNamesItsOwnPath() {
    // `JSONDecoder` gives the container's path here (`[]`), without the date's own key: the
    // one error it reports at its parent. FastJSONDecoder names the date, as for every other
    // error; the case and the text are the same.
    let iso: (FastJSONDecoder, JSONDecoder) -> Void = {
      $0.dateDecodingStrategy = .iso8601
      $1.dateDecodingStrategy = .iso8601
    }
    let (ours, foundation) = Parity.decode(
      Stamp.self, Data(#"{"date": "yesterday"}"#.utf8), configure: iso)
    #expect(ours == .error("dataCorrupted at date: Expected date string to be ISO8601-formatted."))
    #expect(
      foundation == .error("dataCorrupted at : Expected date string to be ISO8601-formatted."))
  }

  @Test func dateStrategiesAreJSONDecoders() {
    let strategies: [JSONDecoder.DateDecodingStrategy] = [
      .deferredToDate, .secondsSince1970, .millisecondsSince1970,
      .custom { decoder in
        Date(timeIntervalSince1970: try decoder.singleValueContainer().decode(Double.self) * 2)
      },
    ]
    for strategy in strategies {
      for json in ["721692800", "1700000000.5", "-1.25", "1e300", "\"1\"", "null", "{}"] {
        Parity.expectSameDecoding([Date].self, "[\(json)]") {
          $0.dateDecodingStrategy = strategy
          $1.dateDecodingStrategy = strategy
        }
      }
    }
  }

  @Test func dataStrategiesAreJSONDecoders() {
    let strategies: [JSONDecoder.DataDecodingStrategy] = [
      .base64, .deferredToData,
      .custom { decoder in Data(try decoder.singleValueContainer().decode(String.self).utf8) },
    ]
    for strategy in strategies {
      for json in [
        #""AQID""#, #""AQI=""#, #""AQI""#, #""A Q I D""#, #""****""#, #""""#, "[1, 2, 3]", "[256]",
        "null", "1",
      ] {
        Parity.expectSameDecoding([Data].self, "[\(json)]") {
          $0.dataDecodingStrategy = strategy
          $1.dataDecodingStrategy = strategy
        }
      }
    }
  }

  @Test func urlsAreJSONDecoders() {
    for json in [
      #""https://a.b/c?d=e""#, #""relative/path""#, #""""#, #""http://[::1""#, #""a b""#, "1",
      "null",
    ] {
      Parity.expectSameDecoding([URL].self, "[\(json)]")
    }
  }

  // MARK: Key strategies

  @Test func convertFromSnakeCaseIsJSONDecoders() {
    struct Keys: Decodable, CustomDebugStringConvertible {
      var keys: [String]
      init(from decoder: any Decoder) throws {
        keys = try decoder.container(keyedBy: ParityKey.self).allKeys.map(\.stringValue)
      }
      var debugDescription: String { "\(keys)" }
    }
    let names = [
      "user_id", "url_value", "_leading", "trailing_", "h_ttp_status", "http_status", "url2",
      "ALL_CAPS", "__a__b__", "a__b", "_", "__", "", "one_two_three", "ÉTÉ_CASE", "a_1b", "a_b_",
      "snake_Case", "camelCase", "x", "_x_y", "x_y_",
    ]
    for name in names {
      Parity.expectSameDecoding(Keys.self, #"{"\#(name)": 1}"#) {
        $0.keyDecodingStrategy = .convertFromSnakeCase
        $1.keyDecodingStrategy = .convertFromSnakeCase
      }
    }
  }

  struct Snaked: Codable, Equatable {
    var userID: Int?
    var allCaps: Int?
    var nestedValue: Nested?
    var leaveMeAlone: [String: Int]?
    struct Nested: Codable, Equatable { var intValue: Int }
  }

  @Test func snakeCaseKeysLeaveDictionaryKeysAloneAndErrorsNameCodingKeys() {
    let snake: (FastJSONDecoder, JSONDecoder) -> Void = {
      $0.keyDecodingStrategy = .convertFromSnakeCase
      $1.keyDecodingStrategy = .convertFromSnakeCase
    }
    for json in [
      #"{"user_id": 1, "ALL_CAPS": 2, "leave_me_alone": {"snake_key": 1, "camelKey": 2}}"#,
      #"{"nested_value": {"int_value": "x"}}"#, #"{"nested_value": {}}"#,
      #"{"leave_me_alone": {"a_b": "x"}}"#, #"{"user_i_d": 1, "userID": 2}"#,
    ] {
      Parity.expectSameDecoding(Snaked.self, json, configure: snake)
    }
  }

  @Test func customKeyStrategiesSeeJSONDecodersPaths() {
    let custom: JSONDecoder.KeyDecodingStrategy = .custom { path in
      ParityKey(Parity.render(path) + ">" + path[path.count - 1].stringValue.uppercased())
    }
    struct Keys: Decodable, CustomDebugStringConvertible {
      var keys: [String]
      var nested: [String] = []
      init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ParityKey.self)
        keys = container.allKeys.map(\.stringValue).sorted()
        if let first = container.allKeys.first(where: { $0.stringValue.hasSuffix("OBJ") }) {
          nested = try container.nestedContainer(keyedBy: ParityKey.self, forKey: first).allKeys
            .map(\.stringValue).sorted()
        }
      }
      var debugDescription: String { "\(keys) \(nested)" }
    }
    Parity.expectSameDecoding(Keys.self, #"{"a": 1, "obj": {"b": 2}, "list": [{"c": 3}]}"#) {
      $0.keyDecodingStrategy = custom
      $1.keyDecodingStrategy = custom
    }
    Parity.expectSameDecoding([String: Int].self, #"{"a_b": 1}"#) {
      $0.keyDecodingStrategy = custom
      $1.keyDecodingStrategy = custom
    }
  }

  // MARK: assumesTopLevelDictionary and JSON5

  @Test func assumesTopLevelDictionaryIsJSONDecoders() {
    let assumes: (FastJSONDecoder, JSONDecoder) -> Void = {
      $0.assumesTopLevelDictionary = true
      $1.assumesTopLevelDictionary = true
    }
    for json in [
      #""x" : 42"#, #"{"x" : 42}"#, "", " ", #""x" : 42}"#, #"{"x" : 42"#, #""x" : 1.5"#,
      #""x": 1, "y": 2"#, #""x": 1,"#, "[1]", "42", "\u{FEFF}\"x\": 1",
    ] {
      Parity.expectSameDecoding([String: Double].self, json, configure: assumes)
    }
  }

  @Test func json5IsReadAsJSONDecoderReadsIt() {
    let json5: (FastJSONDecoder, JSONDecoder) -> Void = {
      $0.allowsJSON5 = true
      $1.allowsJSON5 = true
    }
    let integers = [
      "1", "11", "-1", "0", "+0", "-0", "+1", "0x1F", "0x0000000E", "-0X1f", "+0X1f", "1.", "1.e2",
      "1e2", "1E+02", "-", "+", "-a", "-0x", "-0xAFFFFFAFFFFFAFFFFFAFFFFFAFFFFF", "0xABC.DEF",
      "0xABCpD", "1e", "1E ", "+1e", "01", "Infinity", "NaN",
    ]
    for json in integers {
      Parity.expectSameDecoding(Int.self, json, configure: json5)
    }
    let doubles = [
      "1", "-0", "+10", "Infinity", "-Infinity", "+Infinity", ".1", "1.", "-.1", "+.1", "1e-2",
      "1E+02", "0x1F", "-0X1f", "-Inf", "+Na", "-infinity", "+NAN", "0x2.", ".e1",
      "0xFFFFFFFFFFFFFFFFFFFFFF",
    ]
    for json in doubles {
      Parity.expectSameDecoding(Double.self, json, configure: json5)
      Parity.expectSameDecoding(Decimal.self, json, configure: json5)
    }
    // NaN compares unequal to itself: by its text.
    #expect(
      Parity.expectSameDecoding([Double].self, "[NaN, -NaN, +NaN]", configure: json5)
        == .value("[nan, -nan, nan]"))
    let documents = [
      "{v\n : true}", "{ v \r\n : true,\r\nv\r\n:true,}", "{v// comment \n : true}",
      "{v/* comment */:/*comment*/\ntrue}", "// start with a comment\r\n{v:true}",
      "{$a_1: true}", "{\"v\": true, 'w': false}", "{v: true,}", "{v: true,,}", "{1v: true}",
      "{v : \"hi\\x20there\"}", "{v:\"hello\\uA\"}",
      "{v: 'it\\'s'}", "{v: \"line\\\nbreak\"}", "{v: 'a\"b'}", "[", "['hi',", "{k : true ",
      "nul", "null", "{v: [1, 2,],}", "{v: 0x10, w: .5}", "/* unterminated",
    ]
    for json in documents {
      Parity.expectSameNode(json, configure: json5)
    }
    // Malformed escapes and numbers: `JSONDecoder` reads them lazily and fails only when the
    // value is read (here as a `Node`, trying each type in turn, which ends in a type
    // mismatch); FastJSONDecoder's JSON5 reader fails where they are. Both are errors.
    for json in [
      "{v : \"hi\\xthere\"}", "{v : \"hi\\0there\"}", "{v : \"hi\\x00there\"}",
      "{v : \"hi\\u0000there\"}", "Null",
    ] {
      let (ours, foundation) = Parity.decode(Node.self, Data(json.utf8), configure: json5)
      #expect(ours == .error("dataCorrupted at : The given data was not valid JSON."))
      #expect(foundation.isError, "\(json)")
    }
  }

  @Test func json5WithAnAssumedTopLevelDictionary() {
    let both: (FastJSONDecoder, JSONDecoder) -> Void = {
      $0.allowsJSON5 = true
      $1.allowsJSON5 = true
      $0.assumesTopLevelDictionary = true
      $1.assumesTopLevelDictionary = true
    }
    for json in [
      "hello: \"world\"", "{hello: \"world\"}", "hello: \"world\", goodbye: \"42\"",
      "hello: \"world\",", "hello: \"world\"   ", "   hello   : \"world\"   ", "{hello: \"world\"",
      "hello: \"world\"}", "hello: \"world\" x", "", " ", "{ }", ",", " , ", "[1,2,3]",
      "fragment", "42", "\"x\" : 1.",
    ] {
      Parity.expectSameDecoding([String: Node].self, json, configure: both)
    }
  }

  // MARK: Errors the models throw

  struct Thrown: Error, Equatable { var code: Int }

  struct Throwing: Decodable {
    init(from decoder: any Decoder) throws { throw Thrown(code: 7) }
  }

  @Test func aModelsOwnErrorReachesTheCallerUnchanged() {
    for decode in [
      { _ = try FastJSONDecoder().decode(Throwing.self, from: Data("{}".utf8)) },
      { _ = try JSONDecoder().decode(Throwing.self, from: Data("{}".utf8)) },
      { _ = try FastJSONDecoder().decode([Throwing].self, from: Data("[{}]".utf8)) },
      { _ = try JSONDecoder().decode([Throwing].self, from: Data("[{}]".utf8)) },
      { _ = try FastJSONDecoder().decode([String: Throwing].self, from: Data(#"{"a":{}}"#.utf8)) },
      { _ = try JSONDecoder().decode([String: Throwing].self, from: Data(#"{"a":{}}"#.utf8)) },
    ] as [() throws -> Void] {
      #expect(throws: Thrown(code: 7)) { try decode() }
    }
  }

  @Test func decodingErrorsCanBeCaughtAsWithJSONDecoder() {
    func caught(_ decode: (Data) throws -> Item) -> String {
      do {
        _ = try decode(Data(#"{"name": "a"}"#.utf8))
        return "no error"
      } catch DecodingError.keyNotFound(let key, let context) {
        return "missing \(key.stringValue) at \(context.codingPath.count)"
      } catch {
        return "other \(error)"
      }
    }
    let ours = caught { try FastJSONDecoder().decode(Item.self, from: $0) }
    #expect(ours == caught { try JSONDecoder().decode(Item.self, from: $0) })
    #expect(ours == "missing id at 0")
  }

  // MARK: The corpora

  @Test(.enabled(if: TestData.isAvailable))
  func corporaDecodeToJSONDecodersNodes() throws {
    for corpus in ["twitter", "citm_catalog", "canada"] {
      let data = try TestData.data("json-benchmark/\(corpus).json")
      let ours = try FastJSONDecoder().decode(Node.self, from: data)
      #expect(ours.doublesOnly() == (try JSONDecoder().decode(Node.self, from: data)).doublesOnly())
      // FastJSONDecoder's node keeps every number's exact text, as the reader does.
      #expect(ours == (try Node(jsonData: data)))
    }
  }
}
