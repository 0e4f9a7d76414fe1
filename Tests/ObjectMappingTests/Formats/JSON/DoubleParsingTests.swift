import Testing

@testable import ObjectMapping

/// `_parseDouble` (Clinger's fast path, Eisel-Lemire, `strtod`) against the standard library's
/// correctly rounded `Double(String)`.
@Suite struct DoubleParsingTests {
  private func parse(_ text: String) -> Double {
    Array(text.utf8).withUnsafeBufferPointer { _parseDouble($0) }
  }

  private func expectSame(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    guard let expected = Double(text) else {
      Issue.record("not a number: \(text)", sourceLocation: sourceLocation)
      return
    }
    let parsed = parse(text)
    #expect(
      parsed.bitPattern == expected.bitPattern, "\(text): \(parsed) != \(expected)",
      sourceLocation: sourceLocation)
  }

  @Test func knownHardCases() {
    for text in [
      "0", "-0", "0.0", "-0.0", "0e10", "1", "-1", "9007199254740993", "9007199254740992",
      "1.7976931348623157e308", "2.2250738585072014e-308", "4.9e-324", "5e-324", "1e23",
      "8.98846567431158e307", "-65.61361699999999", "83.99999999999999", "0.1", "0.3",
      "1.00000000000000011102230246251565404236316680908203125",
      "1.0000000000000001110223024625156540423631668090820312",
      "7.038531e-26", "9.109e-31", "123456789012345678", "1234567890123456789",
      "12345678901234567890", "1e-100", "1e100", "1.5e-101", "3.7e101", "2.5", "1e22", "1e-22",
      "4503599627370497.5", "9007199254740993.0", "1e308", "1e-307", "18446744073709551615",
      "0.000001", "1E5", "1e+5",
    ] where Double(text) != nil {
      expectSame(text)
    }
  }

  /// Text outside the JSON number grammar is NaN, even where Swift's `Double(_:)` reads it.
  @Test func textThatIsNotAJSONNumberIsNaN() {
    for text in ["1.e5", ".5", "01", "+1", "1e", "-", "", "0x1p3", "nan", "inf", "1e5 "] {
      #expect(parse(text).isNaN, "\(text)")
    }
  }

  @Test func randomDecimals() {
    var generator = SplitMix64(seed: 0x0DDB_1A5E_5BAD_5EED)
    for _ in 0..<200_000 {
      let digitCount = Int(generator.next() % 20) + 1
      var digits = ""
      for position in 0..<digitCount {
        let digit = generator.next() % 10
        digits += String(position == 0 && digit == 0 ? 1 : digit)
      }
      let pointAt = Int(generator.next() % UInt64(digitCount + 1))
      var text = digits
      if pointAt < digitCount && pointAt > 0 {
        text.insert(".", at: text.index(text.startIndex, offsetBy: pointAt))
      }
      if generator.next() % 3 == 0 {
        text += "e" + String(Int(generator.next() % 240) - 120)
      }
      if generator.next() % 2 == 0 { text = "-" + text }
      expectSame(text)
    }
  }

  /// Fractions are read eight digits at a time, then a partial word: every fraction length from 1
  /// to 26 digits, after integer parts of several lengths and after leading zeros (which are not
  /// significant digits), with and without an exponent after them.
  @Test func fractionsOfEveryLengthAndLeadingZeros() {
    var generator = SplitMix64(seed: 0x5EED_F00D_0000_0008)
    for integer in ["0", "7", "65", "-65", "123456789", "-0"] {
      for leadingZeros in [0, 1, 3, 7, 8, 9, 17] where integer.hasSuffix("0") || leadingZeros < 2 {
        for length in 1...26 {
          for _ in 0..<6 {
            var fraction = String(repeating: "0", count: leadingZeros)
            for _ in 0..<length { fraction += String(generator.next() % 10) }
            var text = integer + "." + fraction
            if generator.next() % 4 == 0 { text += "e" + String(Int(generator.next() % 40) - 20) }
            expectSame(text)
          }
        }
      }
    }
    // A fraction that ends exactly on a word boundary, and text shorter than a word.
    for text in ["1.12345678", "1.1234567", "0.5", "-1.25", "12.34567890123456"] {
      expectSame(text)
    }
  }
}

/// A small deterministic random number generator (SplitMix64).
struct SplitMix64 {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
