import Foundation
import Testing

@testable import ObjectMapping
@testable import ObjectMappingDocument

/// Reading a `Node` packs each number with a fraction or an exponent while the scanner reads its
/// digits (`_JSONScanner.scanPackingNumbers`), instead of packing the number's bytes again when
/// the node is built. Each test compares that path with the one it replaced: the tape scanned
/// the mapping layer's way (`_Tape(json:)`), whose node packs every number from its bytes.
@Suite struct NumberPackingScanTests {
  /// The node of `text` the way it was read before: scanned without packing, every number packed
  /// from its bytes by the node builder.
  private static func nodeFromBytes(_ text: String) throws -> Node {
    try _Tape(json: Array(text.utf8)).node(at: 0)
  }

  /// Every decimal payload of `node` in document order, as stored (packed words or text).
  private static func storages(of node: Node) -> [Node.DecimalText.Storage] {
    switch node {
    case .decimal(let number): return [number.storage]
    case .array(let elements): return elements.flatMap(storages(of:))
    case .object(let members): return members.flatMap { storages(of: $0.value) }
    default: return []
    }
  }

  /// The packed numbers the scanner wrote for `document`, as storages (`nil`: it left the
  /// number to be kept as text).
  private static func scannerPacked(_ document: String) throws -> [Node.DecimalText.Storage?] {
    try Array(document.utf8).withUnsafeBufferPointer { buffer in
      try _JSONScanner.scanPackingNumbers(buffer, options: .strict) { _, numbers in
        numbers.map {
          $0.layout == 0 ? nil : .packed(significand: $0.significand, layout: $0.layout)
        }
      }
    }
  }

  /// `text` alone (its last digit the last byte of the input, so no word can be loaded past
  /// it), inside an array, and followed by more than eight bytes, read packed while scanning,
  /// has the storage its text has when packed from a `String`, reads as the old path reads it
  /// and writes back byte for byte.
  private static func expectPackedWhileScanning(_ text: String, packed: Bool? = nil) throws {
    let expected = Node.DecimalText.packed(text) ?? .text(text)
    if let packed {
      if case .packed = expected { #expect(packed, "\(text)") } else { #expect(!packed, "\(text)") }
    }
    for document in [text, "[\(text)]", "[\(text)            , \(text)]", "{\"n\":\(text)}"] {
      let node = try Node(jsonString: document)
      let stored = storages(of: node)
      #expect(!stored.isEmpty && stored.allSatisfy { $0 == expected }, "\(document)")
      // The scanner packed it itself (the node builder packs the bytes again only what the
      // scanner left as text, which does not fit).
      let scanned = try Self.scannerPacked(document)
      if case .packed = expected {
        #expect(
          scanned.count == stored.count && scanned.allSatisfy { $0 == expected }, "\(document)")
      } else {
        #expect(scanned.count == stored.count && scanned.allSatisfy { $0 == nil }, "\(document)")
      }
      #expect(stored == storages(of: try nodeFromBytes(document)), "\(document)")
      #expect(try node.jsonString() == document.filter { $0 != " " }, "\(document)")
    }
  }

  /// Fractions of 1 to 22 digits (the digits are read eight at a time: every length around
  /// the 8 and 16 boundaries, and past the 19 digits a packed number holds), after integer
  /// parts of 1, 2, 11 and 19 digits, and after `0` and `-0`.
  @Test func fractionsOfEveryLengthAroundTheEightDigitSteps() throws {
    for integer in ["0", "-0", "7", "-65", "12345678901", "-1234567890123456789"] {
      for length in 1...22 {
        let fraction = String("1234567890987654321012".prefix(length))
        let text = "\(integer).\(fraction)"
        let integerDigits = integer.filter(\.isNumber).count
        try Self.expectPackedWhileScanning(text, packed: integerDigits + length <= 19)
      }
    }
  }

  @Test(arguments: [
    // text, packed
    ("0.0", true),
    ("-0.0", true),
    ("-0e0", true),
    ("0E-0", true),
    ("-0.000e+00", true),
    ("0.000000000000000001", true),
    ("0.0000000000000000001", false),
    ("1.000000000000000000", true),
    ("9.999999999999999999", true),
    ("99999999999999999999.5", false),
    ("1234567890123456789.0", false),
    ("123456789012345678.9", true),
    ("-9.999999999999999999E-0000000000004", true),
    ("1e000000000000001", true),
    ("1e0000000000000001", false),
    ("1e4294967295", true),
    ("1e4294967296", false),
    ("1e99999999999999999999", false),
    ("-65.613616999999977", true),
    ("1E+06", true),
    ("2e-7", true),
    ("12345678901234567890e5", false),
    ("0.1234567890123456789", false),
  ])
  func edgesOfThePackedForm(text: String, packed: Bool) throws {
    try Self.expectPackedWhileScanning(text, packed: packed)
  }

  /// Generated numbers (every part of the grammar, lengths around the packed form's limits),
  /// many to a document, as the old path reads them, one by one and all in one array.
  @Test func generatedNumbersReadAsTheBytesPathReadsThem() throws {
    var random = JSONReaderRandom(seed: 0x38A)
    func int(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
    func digits(_ count: Int) -> String {
      String((0..<count).map { _ in Character(String(int(10))) })
    }
    var texts: [String] = []
    for _ in 0..<5_000 {
      var text = int(3) == 0 ? "-" : ""
      text += int(4) == 0 ? "0" : String(1 + int(9)) + digits([0, 0, 1, 4, 10, 17, 18, 19][int(8)])
      if int(4) != 0 {
        text +=
          "." + String(repeating: "0", count: [0, 0, 1, 7, 8, 17][int(6)])
          + digits(1 + int(20))
      }
      if int(2) == 0 || !text.contains(".") {
        text += ["e", "E"][int(2)] + ["", "+", "-"][int(3)]
        text += String(repeating: "0", count: [0, 0, 0, 1, 14, 15][int(6)])
        text += [String(int(10)), digits(1 + int(9)), digits(10), digits(16)][int(4)]
      }
      texts.append(text)
    }
    for text in texts.prefix(1_000) { try Self.expectPackedWhileScanning(text) }
    let document = "[" + texts.joined(separator: ",") + "]"
    let node = try Node(jsonString: document)
    let expected = texts.map { Node.DecimalText.packed($0) ?? .text($0) }
    #expect(Self.storages(of: node) == expected)
    #expect(Self.storages(of: try Self.nodeFromBytes(document)) == expected)
    #expect(
      try Self.scannerPacked(document)
        == expected.prefix(document.utf8.count / 16 + 16).map {
          if case .packed = $0 { $0 } else { nil }
        })
    #expect(try node.jsonString() == document)
    // Both forms were exercised.
    #expect(expected.count { if case .packed = $0 { true } else { false } } > 1_000)
    #expect(expected.count { if case .text = $0 { true } else { false } } > 1_000)
  }

  /// The scan packs up to one number for every 16 bytes of input; in denser documents (a
  /// number with a fraction or an exponent every four bytes) the node builder packs the rest
  /// from their bytes, with the same result.
  @Test func numbersPastTheScansRoomArePackedFromTheirBytes() throws {
    for item in ["1.5", "2e5", "0.0"] {
      for count in [1, 2, 3, 1_000, 100_001] {
        let document = "[" + Array(repeating: item, count: count).joined(separator: ",") + "]"
        let node = try Node(jsonString: document)
        guard case .array(let elements) = node else {
          Issue.record("\(item) × \(count) read as \(node.debugDescription.prefix(40))")
          continue
        }
        #expect(elements.count == count)
        #expect(elements.allSatisfy { $0 == .decimal(Node.DecimalText(item)) })
        #expect(try node.jsonString() == document)
        let packedByTheScan = try Self.scannerPacked(document)
        #expect(packedByTheScan.count == min(count, document.utf8.count / 16 + 16))
        #expect(packedByTheScan.allSatisfy { $0 == Node.DecimalText(item).storage })
      }
    }
    let mixed =
      "["
      + Array(repeating: #"1,"a",1.5,true,[2e5],{"k":0.5}"#, count: 2_000).joined(
        separator: ",") + "]"
    let node = try Node(jsonString: mixed)
    #expect(Self.storages(of: node) == Self.storages(of: try Self.nodeFromBytes(mixed)))
    #expect(Self.storages(of: node).count == 6_000)
    #expect(try node.jsonString() == mixed)
  }

  /// A scan whose entries run out of their reserved room runs again with more and gives the
  /// same node and packed numbers (which start over with it).
  @Test func aScanThatRunsOutOfRoomRunsAgainWithTheSameNumbers() throws {
    let documents = [
      "[" + Array(repeating: "1.5", count: 13).joined(separator: ",") + "]",
      "[" + (0..<40).map { "\($0).25e-\($0)" }.joined(separator: ",") + "]",
      #"[1, 2.5, {"a": [3e3, "x", -0.0]}]"#,
    ]
    for text in documents {
      let bytes = Array(text.utf8)
      let expected = try Self.nodeFromBytes(text)
      for reserved in [nil, 1, 5, 20, 28] {
        let node = try bytes.withUnsafeBufferPointer { buffer in
          try _JSONScanner.scanPackingNumbers(buffer, options: .strict, reserving: reserved) {
            view, numbers in
            view.document(packedNumbers: numbers)
          }
        }
        #expect(Self.storages(of: node) == Self.storages(of: expected), "\(text), \(reserved ?? 0)")
        #expect(try node.jsonString() == text.filter { $0 != " " })
      }
    }
  }

  /// Malformed numbers fail with the errors, messages and positions the mapping layer's scan
  /// gives.
  @Test(arguments: [
    "1.", "[1.]", "1.e5", "-", "-.5", "01.5", "1e", "1e+", "[1E-]", "1.5e", "[0.5.5]", "1.5x",
    "-01.0", "[1.0,]", "1.0 2", "1.5e+5.5",
  ])
  func malformedNumbersFailAsTheMappingScanFails(text: String) throws {
    let scanned = #expect(throws: FormatError.self) { try _Tape(json: Array(text.utf8)) }
    let read = #expect(throws: FormatError.self) { try Node(jsonString: text) }
    #expect(scanned == read)
  }

  @Test func malformedNumberErrorsInFull() throws {
    #expect {
      try Node(jsonString: "[1.]")
    } throws: { error in
      (error as? FormatError)?.description
        == "syntax error at line 1, column 4 (byte 3): expected a digit after the decimal point, "
        + "found ']'"
    }
    #expect {
      try Node(jsonString: "[1.5e+")
    } throws: { error in
      (error as? FormatError)?.description
        == "syntax error at line 1, column 7 (byte 6): expected a digit in the exponent, "
        + "found end of input"
    }
  }

  /// Arrays of one and two elements are built as array literals, others reserved and appended
  /// to: all read as the old path reads them.
  @Test func arraysOfEverySmallCount() throws {
    let text =
      #"[[], [1], [1.5, "a"], [[2]], [[1, 2], [3]], [1, 2, 3], [{}], [{"a": [0.5]}, null], "#
      + #"[[[[[-1.25e3]]]]], [true, [false, [null, []]]]]"#
    let node = try Node(jsonString: text)
    #expect(node == (try Self.nodeFromBytes(text)))
    #expect(Self.storages(of: node) == Self.storages(of: try Self.nodeFromBytes(text)))
    #expect(
      try node.jsonString()
        == #"[[],[1],[1.5,"a"],[[2]],[[1,2],[3]],[1,2,3],[{}],[{"a":[0.5]},null],[[[[[-1.25e3]]]]],[true,[false,[null,[]]]]]"#
    )
    guard case .array(let elements) = node else {
      Issue.record("not an array")
      return
    }
    #expect(elements.map { $0.arrayValue?.count } == [0, 1, 2, 1, 2, 3, 1, 2, 1, 2])
  }

  /// The bytes of a `Data` slice, a string and a byte array are read in place, each the same.
  @Test func inputsAreReadInPlace() throws {
    let text = #"{"a": [1.5, -0.0, 2e-3, 12345678901234567890.5]}"#
    let padded = Data(("xxxx" + text + "yy").utf8)
    let slice = padded[padded.startIndex + 4..<padded.endIndex - 2]
    let expected = try Self.nodeFromBytes(text)
    for node in [
      try Node(jsonData: slice), try Node(jsonString: text), try Node(jsonBytes: Array(text.utf8)),
      try Node(jsonBytes: text.utf8), try Node(jsonData: Data(text.utf8)),
    ] {
      #expect(node == expected)
      #expect(Self.storages(of: node) == Self.storages(of: expected))
    }
  }
}
