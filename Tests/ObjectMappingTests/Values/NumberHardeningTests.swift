import Foundation
import ObjectMappingTestSupport
import Testing

@testable import ObjectMapping

/// Number text from outside the JSON reader (`Node.decimal`), numbers that round to zero or to
/// infinity, huge exponents and very long literals: errors with their path, never a silent 0, an
/// over-read or a trap.
@Suite struct NumberHardeningTests {
  struct Reading: Equatable {
    var double: Double?
    var float: Float?
    var decimal: Decimal?
  }

  static let mapping = Mapping(Reading.init) {
    Attribute("d", \.double)
    Attribute("f", \.float)
    Attribute("m", \.decimal)
  }

  static let invalidTexts = [
    "1e", "abc", "nan", "NaN", "inf", "Infinity", "-", "", "1.", ".5", "01", "-01", "+1", "1e+",
    "1E-", "0x10", " 1", "1 ", "1,\"admin\":true", "1]", "--1", "1.5.5", "1e5e5", "١",
  ]

  // MARK: Node.decimal

  @Test(arguments: invalidTexts)
  func invalidDecimalTextIsAnErrorWhenMapped(text: String) {
    let raw = _decimalForMessage(text)
    #expect(
      errorLines { try Self.mapping.map(["d": .decimal(text)] as Node) } == [
        "/d: cannot convert \(raw) to a number: not a JSON number"
      ])
    #expect(
      errorLines { try Self.mapping.map(["list": [1, ["m": .decimal(text)]]] as Node) } == [
        "/list/1/m: cannot convert \(raw) to a number: not a JSON number"
      ])
  }

  @Test(arguments: invalidTexts)
  func invalidDecimalTextIsAnErrorWhenWritten(text: String) {
    let raw = _decimalForMessage(text)
    let node: Node = ["role": "user", "n": ["x": .decimal(text)]]
    #expect(
      throws: FormatError(
        path: "/n/x", .notRepresentable(reason: "\(raw) is not a JSON number"))
    ) {
      try node.jsonData()
    }
    struct Wrapper { var extra: Node = .null }
    let mapping = Mapping(Wrapper.init) { Attribute("extra", \.extra) }
    #expect(
      errorLines { try mapping.serialize(Wrapper(extra: node)) } == [
        "/extra/n/x: cannot serialize: \(raw) is not a JSON number"
      ])
  }

  @Test func injectedMembersAreNamedInFull() throws {
    let node: Node = ["role": .decimal(#"1,"admin":true"#)]
    #expect(
      errorLines { try Self.mapping.map(node) } == [
        #"/role: cannot convert .decimal("1,\"admin\":true") to a number: not a JSON number"#
      ])
    #expect(
      throws: FormatError(
        path: "/role",
        .notRepresentable(reason: #".decimal("1,\"admin\":true") is not a JSON number"#))
    ) {
      try node.jsonData()
    }
    let long = String(repeating: "1", count: 100) + "x"
    #expect(
      errorLines { try Self.mapping.map(["d": .decimal(long)] as Node) } == [
        "/d: cannot convert .decimal(\"\(long)\") to a number: not a JSON number"
      ])
  }

  @Test func validDecimalTextMapsAndWrites() throws {
    for text in ["0", "-0", "1.5", "-1.5e+10", "1E5", "2e-3", "0.000", "123456789012345678901"] {
      let node: Node = ["d": .decimal(text)]
      #expect(try Self.mapping.map(node).double == Double(text))
      #expect(try node.jsonString() == #"{"d":\#(text)}"#)
    }
  }

  // MARK: The number parser

  /// `text` is JSON number grammar (RFC 8259 §6).
  private static func isJSONNumber(_ text: String) -> Bool {
    text.wholeMatch(of: /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/) != nil
  }

  /// Parses `text` from a buffer of exactly its size, followed in memory by digits that an
  /// over-read would pick up.
  private static func parse(_ text: String) -> Double {
    let padded = Array(text.utf8) + Array("999".utf8)
    return padded.withUnsafeBufferPointer { buffer in
      _parseDouble(UnsafeBufferPointer(rebasing: buffer[0..<text.utf8.count]))
    }
  }

  @Test func everyPrefixOfTrickyLiteralsStaysInsideItsText() {
    let literals =
      [
        "-1.5e+10", "1e-400", "1E-5", "-0.0e-0", "123456789012345678901234567890e-5",
        "2.2250738585072014e-308", "4.9406564584124654e-324", "1.7976931348623157e308",
        "0.000000000000000000000000000001", "9007199254740993", "1e999999999999",
      ] + Self.invalidTexts
    for literal in literals {
      var prefix = ""
      for character in [""] + literal.map(String.init) {
        prefix += character
        let parsed = Self.parse(prefix)
        #expect(_isJSONNumber(prefix) == Self.isJSONNumber(prefix), "\(prefix)")
        if Self.isJSONNumber(prefix), let expected = Double(prefix) {
          #expect(parsed.bitPattern == expected.bitPattern, "\(prefix): \(parsed)")
        } else {
          #expect(parsed.isNaN, "\(prefix): \(parsed)")
        }
      }
    }
  }

  /// A plain byte-by-byte reading of the JSON number grammar.
  private static func referenceIsJSONNumber(_ bytes: [UInt8]) -> Bool {
    var index = 0
    func isDigit(_ at: Int) -> Bool { at < bytes.count && (48...57).contains(bytes[at]) }
    func digits() -> Bool {
      let start = index
      while isDigit(index) { index += 1 }
      return index > start
    }
    if index < bytes.count && bytes[index] == UInt8(ascii: "-") { index += 1 }
    if index < bytes.count && bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else if !digits() {
      return false
    }
    if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard digits() else { return false }
    }
    if index < bytes.count
      && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E"))
    {
      index += 1
      if index < bytes.count
        && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"))
      {
        index += 1
      }
      guard digits() else { return false }
    }
    return index == bytes.count
  }

  /// The grammar check reads eight bytes at a time: every length and every byte that is almost
  /// a digit (`/`, `:`, `?`, `@`, 0xFA…0xFF, which carry) at every position, in exact-size
  /// buffers.
  @Test func grammarCheckMatchesAByteByByteReading() {
    var generator = SplitMix64(seed: 0x5EED_0FD1_6175)
    let alphabet = Array("0123456789-+.eE/:?@ ".utf8) + [0x00, 0x2F, 0x3A, 0x3F, 0xFA, 0xFF, 0x80]
    var checked = 0
    for length in 0...40 {
      for _ in 0..<400 {
        var bytes = (0..<length).map { _ in UInt8(ascii: "0") + UInt8(generator.next() % 10) }
        // Mostly numbers, with a few bytes changed.
        if length > 2 && generator.next() % 2 == 0 {
          bytes[Int(generator.next() % UInt64(length))] = UInt8(ascii: ".")
        }
        if length > 4 && generator.next() % 3 == 0 {
          bytes[Int(generator.next() % UInt64(length - 1)) + 1] = UInt8(ascii: "e")
        }
        if length > 0 && generator.next() % 2 == 0 {
          bytes[0] = UInt8(ascii: "-")
        }
        for _ in 0..<Int(generator.next() % 3) where length > 0 {
          bytes[Int(generator.next() % UInt64(length))] =
            alphabet[Int(generator.next() % UInt64(alphabet.count))]
        }
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: length)
        defer { buffer.deallocate() }
        _ = buffer.initialize(from: bytes)
        let valid = _isJSONNumber(UnsafeBufferPointer(buffer))
        #expect(valid == Self.referenceIsJSONNumber(bytes), "\(bytes)")
        checked += valid ? 1 : 0
      }
    }
    #expect(checked > 1_000)
  }

  // MARK: Underflow and overflow

  @Test(arguments: [
    ("1e-400", "d", "out of range (rounds to 0)"),
    ("-1e-400", "d", "out of range (rounds to 0)"),
    ("2.4703282292062327e-324", "d", "out of range (rounds to 0)"),
    ("1e-999999999999", "d", "out of range (rounds to 0)"),
    ("1e400", "d", "out of range"),
    ("-1e999999999999", "d", "out of range"),
    ("4.94e-324", "f", "out of range for Float (rounds to 0)"),
    ("7e-46", "f", "out of range for Float (rounds to 0)"),
    ("-1e-50", "f", "out of range for Float (rounds to 0)"),
    ("3.5e38", "f", "out of range for Float"),
    ("1e999999999999", "f", "out of range for Float"),
  ])
  func numbersBeyondTheTypeAreErrors(text: String, key: String, reason: String) {
    #expect(
      errorLines { try Self.mapping.map(#"{"\#(key)": \#(text)}"#) } == [
        "/\(key): cannot convert \(text) to a number: \(reason)"
      ])
    #expect(
      errorLines { try Self.mapping.map(#"{"\#(key)": "\#(text)"}"#) } == [
        "/\(key): cannot convert \"\(text)\" to a number: \(reason)"
      ])
  }

  @Test func zerosAndSubnormalsRead() throws {
    for zero in ["0", "-0", "-0.0", "0e5", "0.000", "0e-400", "-0.0e999999999999"] {
      let reading = try Self.mapping.map(#"{"d": \#(zero), "f": \#(zero), "m": \#(zero)}"#)
      #expect(reading.double == 0 && reading.float == 0 && reading.decimal == 0, "\(zero)")
    }
    #expect(try Self.mapping.map(#"{"d": 5e-324}"#).double == .leastNonzeroMagnitude)
    #expect(
      try Self.mapping.map(#"{"d": 2.4703282292062328e-324}"#).double == .leastNonzeroMagnitude)
    #expect(try Self.mapping.map(#"{"f": 1e-45}"#).float == .leastNonzeroMagnitude)
    #expect(try Self.mapping.map(#"{"f": 3.4028235e38}"#).float == .greatestFiniteMagnitude)
  }

  @Test func decimalsStayWithinTheirExponentRange() throws {
    let nines = String(repeating: "9", count: 38)
    for (text, digits) in [
      ("1e127", "1" + String(repeating: "0", count: 127)),
      ("1200e125", "12" + String(repeating: "0", count: 127)),
      ("-9.9e128", "-99" + String(repeating: "0", count: 127)),
      ("1e-128", "0." + String(repeating: "0", count: 127) + "1"),
      (nines + "e127", nines + String(repeating: "0", count: 127)),
    ] {
      let decimal = try Self.mapping.map(#"{"m": \#(text)}"#).decimal
      #expect(decimal?.description == digits, "\(text): \(String(describing: decimal))")
    }
    for (text, reason) in [
      ("1e128", "exponent out of range"), ("1e164", "exponent out of range"),
      ("1e-129", "exponent out of range"), ("1.5e-128", "exponent out of range"),
      ("1e999999999999", "exponent out of range"), ("-1e-999999999999", "exponent out of range"),
      (
        String(repeating: "9", count: 39),
        "39 significant digits above "
          + "340282366920938463463374607431768211455, the largest a Decimal holds"
      ),
      (
        "340282366920938463463374607431768211456",
        "39 significant digits above "
          + "340282366920938463463374607431768211455, the largest a Decimal holds"
      ),
      ("1234567890123456789012345678901234567890.5", "more than 38 significant digits"),
    ] {
      #expect(
        errorLines { try Self.mapping.map(#"{"m": \#(text)}"#) } == [
          "/m: cannot convert \(text) to a decimal number: \(reason)"
        ])
    }
  }

  /// Every `Decimal` written reads back: its significand has 128 bits, so 39 digits up to
  /// 2^128 − 1 are exact (found by a probe of the persistent store: a saved
  /// `Decimal.greatestFiniteMagnitude` was written, then refused as "more than 38 significant
  /// digits" on every fetch).
  @Test func everyDecimalWrittenReadsBack() throws {
    for value in [
      Decimal.greatestFiniteMagnitude, -Decimal.greatestFiniteMagnitude,
      Decimal.leastNonzeroMagnitude, Decimal(string: "123456789012345678901234567890123456789"),
      Decimal(
        sign: .minus, exponent: -128, significand: Decimal.greatestFiniteMagnitude.significand),
    ] {
      let reading = Reading(decimal: value)
      let written = try Self.mapping.serialize(reading)
      #expect(
        try Self.mapping.map(written).decimal == value,
        "\(String(decoding: written, as: UTF8.self))")
    }
  }

  // MARK: Long literals

  /// A long ASCII literal as error messages show it: 50 bytes from each end and the count of
  /// bytes left out, grouped by thousands (`1000…(999,900 more bytes)…0001`).
  static func shown(_ text: String) -> String {
    guard text.utf8.count > 160 else { return text }
    var digits = Array(String(text.utf8.count - 100))
    var grouped = ""
    while digits.count > 3 {
      grouped = "," + String(digits.suffix(3)) + grouped
      digits.removeLast(3)
    }
    grouped = String(digits) + grouped
    return text.prefix(50) + "…(\(grouped) more bytes)…" + text.suffix(50)
  }

  @Test func megabyteLiteralsAreLinear() throws {
    func seconds(_ digits: Int) throws -> Double {
      let ones = String(repeating: "1", count: digits)
      let zeros = String(repeating: "0", count: digits)
      let start = Scaling.threadCPUSeconds()
      // Error messages keep 50 bytes from each end of a long number and count the rest.
      #expect(
        errorLines { try Self.mapping.map(#"{"d": 1\#(zeros)}"#) } == [
          "/d: cannot convert \(Self.shown("1" + zeros)) to a number: out of range"
        ])
      #expect(
        errorLines { try Self.mapping.map(#"{"d": 0.\#(zeros)1}"#) } == [
          "/d: cannot convert \(Self.shown("0." + zeros + "1")) to a number: "
            + "out of range (rounds to 0)"
        ])
      #expect(
        errorLines { try Self.mapping.map(#"{"f": -0.\#(zeros)1}"#) } == [
          "/f: cannot convert \(Self.shown("-0." + zeros + "1")) to a number: "
            + "out of range for Float (rounds to 0)"
        ])
      #expect(
        errorLines { try Self.mapping.map(#"{"m": 1\#(zeros)}"#) } == [
          "/m: cannot convert \(Self.shown("1" + zeros)) to a decimal number: "
            + "exponent out of range"
        ])
      #expect(
        errorLines { try Self.mapping.map(#"{"m": 1.\#(ones)}"#) } == [
          "/m: cannot convert \(Self.shown("1." + ones)) to a decimal number: "
            + "more than 38 significant digits"
        ])
      #expect(
        errorLines { try DateRangeTests.mapping.map(#"{"at": 1\#(zeros)}"#) } == [
          "/at: cannot convert \(Self.shown("1" + zeros)) to a date: "
            + "outside the years 0000 through 9999"
        ])
      let long = try Self.mapping.map(#"{"d": 1.\#(ones), "f": 1.\#(ones)}"#)
      #expect(long.double == 1.1111111111111112)
      #expect(long.float == Float(1.1111112))
      let scaled = try Self.mapping.map(#"{"d": \#(ones)e-\#(digits - 1)}"#)
      #expect(scaled.double == 1.1111111111111112)
      // CPU time of this thread: other suites running beside it do not count.
      return Scaling.threadCPUSeconds() - start
    }
    _ = try seconds(1_000)
    let small = try seconds(500_000)
    let large = try seconds(1_000_000)
    // Twice the digits take about twice the time; quadratic would be four times. Under a
    // sanitizer (CI's second and third test runs) the conversions above are still checked, but
    // time is not a measure.
    if ProcessInfo.processInfo.environment["OBJECT_MAPPING_SANITIZER"] == nil {
      #expect(large < small * 3 + 0.05, "500k digits: \(small) s, 1M digits: \(large) s")
    }
  }
}
