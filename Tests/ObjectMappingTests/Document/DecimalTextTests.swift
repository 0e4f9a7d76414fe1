import Foundation
import ObjectMappingTestSupport
import Testing

@testable import ObjectMapping
@testable import ObjectMappingDocument

/// `Node.decimal`'s payload: number text packed in two words when it fits, kept as a `String`
/// otherwise, and always given back byte for byte.
@Suite struct DecimalTextTests {
  /// The number texts the generator makes: every part of the grammar, with the lengths around
  /// the packed form's limits (19 digits, 15 exponent digits).
  private struct NumberTexts {
    var random = JSONReaderRandom(seed: 38)

    mutating func int(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }

    mutating func digits(_ count: Int) -> String {
      String((0..<count).map { _ in Character(String(int(10))) })
    }

    /// A JSON number: sign, integer part, fraction and exponent, each drawn at random, with
    /// leading and trailing zeros where the grammar allows them.
    mutating func next() -> String {
      var text = int(3) == 0 ? "-" : ""
      let integerDigits = [1, 1, 2, 5, 17, 18, 19, 20, 21, 25][int(10)]
      if int(4) == 0 {
        text += "0"
      } else {
        text += String(1 + int(9)) + digits(integerDigits - 1)
      }
      if int(3) != 0 {
        let leadingZeros = [0, 0, 1, 3, 10, 18][int(6)]
        let fraction = [1, 2, 5, 15, 16, 17, 18, 19, 20][int(9)]
        let trailingZeros = [0, 0, 1, 4][int(4)]
        text +=
          "." + String(repeating: "0", count: leadingZeros) + digits(fraction)
          + String(repeating: "0", count: trailingZeros)
      }
      if int(2) == 0 {
        text += int(2) == 0 ? "e" : "E"
        text += ["", "+", "-"][int(3)]
        let leadingZeros = [0, 0, 0, 1, 2, 14][int(6)]
        text += String(repeating: "0", count: leadingZeros)
        text += [String(int(10)), String(1 + int(400)), digits(1 + int(4)), digits(10)][int(4)]
      }
      return text
    }
  }

  /// Whether `text` (a JSON number) fits the packed form: at most 19 digits before the
  /// exponent, an exponent of at most 15 digits and at most `UInt32.max`.
  private static func fitsPacked(_ text: String) -> Bool {
    let parts = text.split(whereSeparator: { $0 == "e" || $0 == "E" })
    let digits = parts[0].filter(\.isNumber).count
    guard digits <= 19 else { return false }
    guard parts.count == 2 else { return true }
    let exponent = parts[1].filter(\.isNumber)
    return exponent.count <= 15 && UInt64(exponent).map { $0 <= UInt32.max } == true
  }

  @Test func generatedNumbersRoundTripAndReadAsTheirText() throws {
    var texts = NumberTexts()
    var packed = 0
    var unpacked = 0
    for _ in 0..<20_000 {
      let text = texts.next()
      let node = try Node(jsonString: text)
      // Written back, alone and inside containers, the text is the one read.
      #expect(try node.jsonString() == text)
      #expect(
        try Node(jsonString: "[\(text),{\"n\":\(text)}]").jsonString()
          == "[\(text),{\"n\":\(text)}]")
      let integral = !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
      if integral, let integer = Int64(text) {
        #expect(node == .integer(integer), "\(text)")
        continue
      }
      guard case .decimal(let number) = node else {
        Issue.record("\(text) read as \(node.debugDescription)")
        continue
      }
      #expect(number.text == text)
      #expect(number.description == text)
      // The text given as a `String` makes the same value, which the reader's bytes made.
      #expect(Node.DecimalText(text) == number)
      #expect(Node.DecimalText(text).hashValue == number.hashValue)
      #expect(Node.decimal(text) == node)
      switch number.storage {
      case .packed:
        #expect(Self.fitsPacked(text), "\(text) packed")
        packed += 1
      case .text(let stored):
        #expect(!Self.fitsPacked(text), "\(text) not packed")
        #expect(stored == text)
        unpacked += 1
      case .float:
        Issue.record("\(text) read as a Float's text")
      }
      // The values read from the node are the values of its text.
      let fromNode = try _Tape(node: node)
      let fromText = try _Tape(json: Array(text.utf8))
      let double = try #require(fromNode.doubleValue(at: 0))
      let expected = try #require(Double(text))
      #expect(double.bitPattern == expected.bitPattern, "\(text)")
      #expect(fromText.doubleValue(at: 0)?.bitPattern == expected.bitPattern, "\(text)")
      #expect(fromNode.numberText(at: 0) == text)
      #expect(fromNode.entry(at: 0).flags == fromText.entry(at: 0).flags, "\(text)")
      if let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) {
        #expect(Decimal(string: number.text, locale: Locale(identifier: "en_US_POSIX")) == decimal)
      }
    }
    // Both forms were exercised.
    #expect(packed > 3_000)
    #expect(unpacked > 3_000)
  }

  @Test(arguments: [
    // text, packed
    ("0.0", true),
    ("-0.0", true),
    ("0.000000000000000001", true),
    ("1.000000000000000000", true),
    ("9999999999999999999", true),
    ("99999999999999999999", false),
    ("-9.999999999999999999E-0000000000004", true),
    ("1e000000000000001", true),
    ("1e0000000000000001", false),
    ("1e4294967295", true),
    ("1e4294967296", false),
    ("-65.613616999999977", true),
    ("1E+06", true),
    ("12345678901234567890.5", false),
    ("0.1234567890123456789", false),
  ])
  func edgesOfThePackedForm(text: String, packed: Bool) throws {
    let number = Node.DecimalText(text)
    #expect(number.text == text)
    if case .packed = number.storage {
      #expect(packed)
    } else {
      #expect(!packed)
    }
    let node = try Node(jsonString: text)
    #expect(node == .decimal(number))
    #expect(try node.jsonString() == text)
    #expect(try Node(jsonString: "[\(text)]").jsonString() == "[\(text)]")
  }

  /// Text that is not a JSON number is kept as given and rejected when written, as a `String`
  /// payload was.
  @Test(arguments: ["", "-", "1.", ".5", "01", "1e", "1e+", "+1", "1,2", "nan", "1.5 ", "٣"])
  func textThatIsNotANumberIsKeptAsGiven(text: String) throws {
    let number = Node.DecimalText(text)
    #expect(number.storage == .text(text))
    #expect(number.text == text)
    #expect(!number.isJSONNumber)
    #expect(throws: FormatError.self) { try Node.decimal(text).jsonString() }
  }

  @Test func equalityOfTextsIsBySpellingAndOfNodesByValue() {
    #expect(Node.DecimalText("1.0") != Node.DecimalText("1.00"))
    #expect(Node.DecimalText("1e2") != Node.DecimalText("1E2"))
    #expect(Node.DecimalText("1.50") == "1.50")
    #expect(Node.decimal("1.0") == .decimal("1.00"))
    #expect(Node.decimal("1e2") == .integer(100))
    #expect(Node.decimal("0.0025") == .decimal("25e-4"))
    #expect(Node.decimal("0.0025") != .decimal("0.025"))
    #expect(Node.decimal("0.0025").debugDescription == #".decimal("0.0025")"#)
  }

  @Test func aNodeIsNoLargerThanWithAStringPayload() {
    // A `String` payload made `Node` 17 bytes (24 with padding); the packed text keeps it so.
    #expect(MemoryLayout<Node>.size <= 17)
    #expect(MemoryLayout<Node>.stride <= 24)
    #expect(MemoryLayout<Node.DecimalText>.size <= 17)
  }

  /// Every fractional number of canada.json (111,080) is packed, and the corpus written from its `Node`
  /// has every number's text as the file spells it.
  @Test(.enabled(if: TestData.isAvailable)) func canadaNumbersArePackedAndWrittenAsRead() throws {
    let bytes = [UInt8](try TestData.data("json-benchmark/canada.json"))
    let tape = try _Tape(json: bytes)
    var sourceTexts: [String] = []
    for index in tape.entries.indices
    where tape.entry(at: index).kind == .number || tape.entry(at: index).kind == .integer {
      sourceTexts.append(tape.numberText(at: index))
    }
    let node = try Node(jsonBytes: bytes)
    let (texts, packed) = Self.numberTexts(of: node)
    #expect(sourceTexts.count == 111_126)
    #expect(texts == sourceTexts)
    #expect(packed == 111_080)
    // Written and read again, every number has the same text, and writing it again gives the
    // same bytes.
    let written = try node.jsonData()
    let reread = try Node(jsonData: written)
    #expect(Self.numberTexts(of: reread).texts == sourceTexts)
    #expect(try reread.jsonData() == written)
  }

  /// The text of every number of `node` in document order, and how many are packed decimals.
  private static func numberTexts(of node: Node) -> (texts: [String], packed: Int) {
    var texts: [String] = []
    var packed = 0
    var pending = [node]
    while let next = pending.popLast() {
      switch next {
      case .array(let elements): pending.append(contentsOf: elements.reversed())
      case .object(let members): pending.append(contentsOf: members.map(\.value).reversed())
      case .integer(let value): texts.append(String(value))
      case .decimal(let number):
        texts.append(number.text)
        if case .packed = number.storage { packed += 1 }
      default: break
      }
    }
    return (texts, packed)
  }
}
