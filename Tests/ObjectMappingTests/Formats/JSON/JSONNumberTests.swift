import Foundation
import ObjectMappingTestSupport
import Testing

@testable import ObjectMapping

@Suite struct JSONNumberTests {
  @Test(arguments: [
    ("0", Node.integer(0)),
    ("7", .integer(7)),
    ("-7", .integer(-7)),
    ("1000000000000000000", .integer(1_000_000_000_000_000_000)),
    ("9223372036854775807", .integer(.max)),
    ("-9223372036854775808", .integer(.min)),
    ("9223372036854775808", .decimal("9223372036854775808")),
    ("-9223372036854775809", .decimal("-9223372036854775809")),
    ("9999999999999999999", .decimal("9999999999999999999")),
    ("12345678901234567890", .decimal("12345678901234567890")),
    ("-123456789012345678901234567890", .decimal("-123456789012345678901234567890")),
    ("-0", .decimal("-0")),
    ("0.1", .decimal("0.1")),
    ("12.50", .decimal("12.50")),
    ("1e2", .decimal("1e2")),
    ("1E+2", .decimal("1E+2")),
    ("-0.0e-0", .decimal("-0.0e-0")),
    ("0e00", .decimal("0e00")),
  ])
  func integersThatFitStayExactAndEverythingElseKeepsItsText(text: String, expected: Node) throws {
    let node = try Node(jsonString: text)
    // `==` on nodes compares numbers by value; compare the cases too.
    #expect(String(describing: node) == String(describing: expected))
    #expect(try Node(jsonString: "[\(text)]") == .array([expected]))
  }

  @Test(arguments: [
    ("01", "syntax error at line 1, column 1 (byte 0): leading zeros are not allowed in numbers"),
    ("-01", "syntax error at line 1, column 2 (byte 1): leading zeros are not allowed in numbers"),
    ("[00]", "syntax error at line 1, column 2 (byte 1): leading zeros are not allowed in numbers"),
    ("+1", "syntax error at line 1, column 1 (byte 0): expected a value, found '+'"),
    (".5", "syntax error at line 1, column 1 (byte 0): expected a value, found '.'"),
    ("NaN", "syntax error at line 1, column 1 (byte 0): expected a value, found 'N'"),
    (
      "-Infinity",
      "syntax error at line 1, column 2 (byte 1): expected a digit after '-', found 'I'"
    ),
    (
      "-",
      "syntax error at line 1, column 2 (byte 1): expected a digit after '-', found end of input"
    ),
    (
      "1.",
      "syntax error at line 1, column 3 (byte 2): expected a digit after the decimal point, "
        + "found end of input"
    ),
    (
      "[1.e5]",
      "syntax error at line 1, column 4 (byte 3): expected a digit after the decimal point, "
        + "found 'e'"
    ),
    (
      "1e",
      "syntax error at line 1, column 3 (byte 2): expected a digit in the exponent, found end of input"
    ),
    (
      "1e+",
      "syntax error at line 1, column 4 (byte 3): expected a digit in the exponent, found end of input"
    ),
    (
      "[1E-x]",
      "syntax error at line 1, column 5 (byte 4): expected a digit in the exponent, found 'x'"
    ),
    (
      "[0x1]",
      "syntax error at line 1, column 3 (byte 2): expected ',' or ']' after an array element, "
        + "found 'x'"
    ),
    (
      "1.5.3",
      "syntax error at line 1, column 4 (byte 3): trailing characters after the top-level value"
    ),
    (
      "[1 000]",
      "syntax error at line 1, column 4 (byte 3): expected ',' or ']' after an array element, "
        + "found '0'"
    ),
  ])
  func malformedNumbersAreSyntaxErrors(text: String, description: String) {
    let error = #expect(throws: FormatError.self) { try Node(jsonString: text) }
    #expect(error?.description == description)
  }

  @Test(arguments: [
    ("0.1", 0.1),
    ("-0.0", -0.0),
    ("-0", -0.0),
    ("1e23", 1e23),
    ("8.98846567431158e307", 8.98846567431158e307),
    ("1.7976931348623157e308", .greatestFiniteMagnitude),
    ("2.2250738585072011e-308", Double(bitPattern: 0x000F_FFFF_FFFF_FFFF)),
    ("4.9406564584124654e-324", .leastNonzeroMagnitude),
    ("2.4703282292062327e-324", 0),
    ("2.4703282292062328e-324", .leastNonzeroMagnitude),
    ("9007199254740993", 9_007_199_254_740_992),
    ("12345678901234567890", 12_345_678_901_234_567_168),
    ("1e400", .infinity),
    ("-1e400", -.infinity),
    ("1e-400", 0),
    ("0.30000000000000004", 0.30000000000000004),
    ("123456789012345678901234567890e-10", 12_345_678_901_234_567_168),
  ])
  func doublesAreCorrectlyRounded(text: String, expected: Double) throws {
    let tape = try _Tape(json: Array(text.utf8))
    let value = try #require(tape.doubleValue(at: 0))
    #expect(value.bitPattern == expected.bitPattern)
  }

  /// Every number of canada.json reads as exactly glibc's `strtod` of its text, and the shortest
  /// text Swift prints for it reads back to the same bits.
  @Test(.enabled(if: TestData.isAvailable)) func canadaNumbersMatchStrtodBitForBit() throws {
    let tape = try _Tape(json: [UInt8](TestData.data("json-benchmark/canada.json")))
    var numbers = 0
    var mismatches: [String] = []
    for index in tape.entries.indices
    where tape.entry(at: index).kind == .number
      || tape.entry(at: index).kind == .integer
    {
      numbers += 1
      let text = tape.numberText(at: index)
      let value = try #require(tape.doubleValue(at: index))
      let reference = text.withCString { strtod($0, nil) }
      let swift = try #require(Double(text))
      let shortest = Array(swift.description.utf8)
      let reread = shortest.withUnsafeBufferPointer { _parseDouble($0) }
      if value.bitPattern != reference.bitPattern || swift.bitPattern != reference.bitPattern
        || reread.bitPattern != reference.bitPattern
      {
        mismatches.append("\(text): \(value) vs strtod \(reference), shortest reads \(reread)")
      }
    }
    #expect(numbers == 111_126)
    #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
  }

  @Test func shortestDescriptionsReadBackThroughTheReader() throws {
    var random = JSONReaderRandom(seed: 42)
    for _ in 0..<2_000 {
      let value = Double(bitPattern: random.next() & ~(0x7FF << 52) | (random.next() % 0x7FF) << 52)
      let text = value.description
      let tape = try _Tape(json: Array(text.utf8))
      #expect(tape.doubleValue(at: 0)?.bitPattern == value.bitPattern, "\(text)")
      #expect(try Node(jsonString: text) == .double(value))
    }
  }
}
