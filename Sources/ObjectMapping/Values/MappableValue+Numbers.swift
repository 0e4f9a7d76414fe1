extension PayloadValue {
  /// Reads an integer of type `T` exactly: JSON integers in range, numbers with an exponent or
  /// a zero fraction when the value is whole (`1e5`, `3.0`), and, under lenient coercion,
  /// strings that parse that way as a whole. Anything else is an error, never 0.
  func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
    let entry = self.entry
    let expected = "an integer"
    switch entry.kind {
    case .integer:
      guard let value = T(exactly: entry.payload) else {
        throw invalid(expected: expected, reason: "out of range for \(T.self)")
      }
      return value
    case .number:
      return try exactInteger(tape.numberText(at: index), as: T.self, expected: expected)
    case .string where coercion == .lenient:
      return try exactInteger(tape.string(at: index), as: T.self, expected: expected)
    default:
      throw mismatch(expected: expected)
    }
  }

  private func exactInteger<T: FixedWidthInteger>(
    _ text: String, as type: T.Type, expected: String
  ) throws -> T {
    guard let number = _CanonicalNumber(text: text) else {
      throw invalid(expected: expected)
    }
    guard number.exponent >= 0 else {
      throw invalid(expected: expected, reason: "not a whole number")
    }
    guard let value = number.integer(as: T.self) else {
      throw invalid(expected: expected, reason: "out of range for \(T.self)")
    }
    return value
  }

  /// Reads a `Double`: the correctly rounded value of a JSON number, or under lenient coercion
  /// of a string that is a number as a whole. Values beyond `Double`'s range are errors, and so
  /// are non-zero values that round to zero (`1e-400`); subnormals (`5e-324`) read as they are.
  func double() throws -> Double {
    let entry = self.entry
    let value: Double
    switch entry.kind {
    case .integer, .number:
      value = tape.doubleValue(at: index) ?? .nan
      if value == 0 { try checkExactZero() }
    case .string where coercion == .lenient:
      let text = tape.string(at: index)
      guard _CanonicalNumber(text: text) != nil, let parsed = Double(text) else {
        throw invalid(expected: "a number")
      }
      if parsed == 0 && _hasNonZeroSignificand(text.utf8) {
        throw invalid(expected: "a number", reason: "out of range (rounds to 0)")
      }
      value = parsed
    default:
      throw mismatch(expected: "a number")
    }
    guard value.isFinite else { throw invalid(expected: "a number", reason: "out of range") }
    return value
  }
}

extension PayloadValue {
  /// Throws when this number parsed as zero although its text is not zero (`1e-400`): the
  /// rare, out-of-line half of ``double()``.
  @inline(never)
  private func checkExactZero() throws {
    let entry = self.entry
    guard entry.kind == .number, tape.hasNonZeroSignificand(entry) else { return }
    throw invalid(expected: "a number", reason: "out of range (rounds to 0)")
  }
}

extension _CanonicalNumber {
  /// The whole number as `T`, or `nil` when it has a fraction or does not fit.
  func integer<T: FixedWidthInteger>(as type: T.Type) -> T? {
    guard exponent >= 0 else { return nil }
    if digits.isEmpty { return 0 }
    if negative && !T.isSigned { return nil }
    var value: T = 0
    let ten: T = 10
    for digit in digits {
      let (shifted, overflow) = value.multipliedReportingOverflow(by: ten)
      guard !overflow else { return nil }
      let amount = T(digit - UInt8(ascii: "0"))
      let (next, overflow2) =
        negative
        ? shifted.subtractingReportingOverflow(amount) : shifted.addingReportingOverflow(amount)
      guard !overflow2 else { return nil }
      value = next
    }
    for _ in 0..<exponent {
      let (shifted, overflow) = value.multipliedReportingOverflow(by: ten)
      guard !overflow else { return nil }
      value = shifted
    }
    return value
  }
}

extension MappableValue where Self: FixedWidthInteger {
  /// Reads an exact integer in range (see ``Coercion``): a JSON integer, a number with an
  /// exponent or a zero fraction when the value is whole (`1e5`, `3.0`) and, under lenient
  /// coercion, a string that parses that way as a whole (`"69726278940360707"` stays exact).
  /// Anything else is an error, never 0.
  ///
  /// - Parameter payload: The payload value.
  /// - Throws: ``ConversionFailure`` for a value that is not a whole number or is out of range
  ///   for the type.
  public init(payload: PayloadValue) throws { self = try payload.integer(Self.self) }

  /// The integer; one beyond `Int64` (a large `UInt64`) as its exact decimal text.
  public func payloadNode() -> Node {
    if let value = Int64(exactly: self) { return .integer(value) }
    return .decimal(String(self))
  }

  /// `"an integer"`.
  public static var expectedDescription: String { "an integer" }
}

// Every fixed-width integer type converts the same way, through the members above.
extension Int: MappableValue {}
extension Int8: MappableValue {}
extension Int16: MappableValue {}
extension Int32: MappableValue {}
extension Int64: MappableValue {}
extension UInt: MappableValue {}
extension UInt8: MappableValue {}
extension UInt16: MappableValue {}
extension UInt32: MappableValue {}
extension UInt64: MappableValue {}

extension Double: MappableValue {
  /// Reads the correctly rounded value of a number (see ``Coercion``). Values beyond `Double`'s
  /// range are errors, and so are non-zero values that round to zero (`1e-400`); subnormals
  /// (`5e-324`) read as they are.
  public init(payload: PayloadValue) throws { self = try payload.double() }
  /// The number; one with no fraction (and magnitude below 2^53) is an integer (`100`, not
  /// `100.0`), as a `Double` property is written and as `JSONEncoder` writes it; NaN and
  /// infinities cannot be written.
  public func payloadNode() throws -> Node {
    guard isFinite else {
      throw ConversionFailure.notRepresentable(
        description, reason: "JSON has no non-finite numbers")
    }
    if let integer = wholeInteger(self) { return .integer(integer) }
    return .double(self)
  }
  /// `"a number"`.
  public static var expectedDescription: String { "a number" }
}

extension Float: MappableValue {
  /// Reads the correctly rounded `Float` of a number's text (see ``Coercion``). Values beyond
  /// `Float`'s range are errors, and so are non-zero values that round to zero (`1e-50`);
  /// subnormals (`1e-45`) read as they are.
  public init(payload: PayloadValue) throws {
    let entry = payload.entry
    let text: String
    switch entry.kind {
    case .integer, .number: text = payload.tape.numberText(at: payload.index)
    case .string where payload.context.coercion == .lenient:
      text = payload.tape.string(at: payload.index)
      guard _CanonicalNumber(text: text) != nil else { throw payload.invalid(expected: "a number") }
    default: throw payload.mismatch(expected: "a number")
    }
    guard let value = Float(text), value.isFinite else {
      throw payload.invalid(expected: "a number", reason: "out of range for Float")
    }
    if value == 0 && _hasNonZeroSignificand(text.utf8) {
      throw payload.invalid(expected: "a number", reason: "out of range for Float (rounds to 0)")
    }
    self = value
  }
  /// The number, written as the shortest text that reads back as this `Float`; one with no
  /// fraction (and magnitude below 2^24) as an integer (`3`, not `3.0`), as a `Double` is
  /// written and as `JSONEncoder` writes it.
  public func payloadNode() throws -> Node {
    guard isFinite else {
      throw ConversionFailure.notRepresentable(
        description, reason: "JSON has no non-finite numbers")
    }
    if let integer = wholeInteger(self) { return .integer(integer) }
    return .decimal(Node.DecimalText(float: self))
  }
  /// `"a number"`.
  public static var expectedDescription: String { "a number" }
}

/// `value` as an integer when it is a whole number, not `-0`, of magnitude below the first
/// integer the type cannot hold exactly (2^53 for a `Double`, 2^24 for a `Float`); `nil`
/// otherwise. Such a number is written as its digits (`100`, not `100.0`), as `JSONEncoder`
/// writes it: the one test for a `Double` or `Float` property, their arrays, floating-point raw
/// values and the payload encoder.
@inline(__always)
func wholeInteger<Number: BinaryFloatingPoint>(_ value: Number) -> Int64? {
  let exactIntegers = Number(
    sign: .plus, exponent: Number.Exponent(Number.significandBitCount + 1), significand: 1)
  guard value.rounded(.towardZero) == value, value.magnitude < exactIntegers,
    value != 0 || value.sign == .plus
  else { return nil }
  return Int64(value)
}
