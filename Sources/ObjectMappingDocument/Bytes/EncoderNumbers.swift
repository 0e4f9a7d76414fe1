extension _JSONWriter {
  /// Writes a `Double` as `JSONEncoder` writes it: the shortest text that reads back as the same
  /// value (Swift's `description`), without a trailing `.0` (`1000.0` is `1000`, `-0.0` is
  /// `-0`), exponents as Swift prints them (`1e-07`, `9.5e+15`).
  ///
  /// With ``encoderNumber(_:)-(Float)``, the one place the `Codable` encoder turns a
  /// floating-point value into text. A whole number up to 2⁵³ (which Swift prints as its digits
  /// and `.0`) is written as an integer, without formatting a double; above 2⁵³ Swift, and so
  /// `JSONEncoder`, print an exponent (`9.007199254740994e+15`), which the shortest-digits writer
  /// gives. The caller has checked that `value` is finite.
  package mutating func encoderNumber(_ value: Double) {
    assert(value.isFinite, "non-finite numbers are the caller's to handle")
    if value.magnitude <= 9_007_199_254_740_992, value == value.rounded(.towardZero) {
      if value == 0, value.sign == .minus { return numberText("-0") }
      return int64(Int64(value))
    }
    do {
      try double(value, pointZero: false)
    } catch {
      // Finite: `double(_:pointZero:)` does not throw.
    }
  }

  /// Writes a `Float` as `JSONEncoder` writes it: the shortest text that reads back as the same
  /// `Float` (`Float(0.1)` is `0.1`, not the `Double` `0.10000000149011612`), without a
  /// trailing `.0`, from the shortest-digits writer (no `String` per number).
  package mutating func encoderNumber(_ value: Float) {
    assert(value.isFinite, "non-finite numbers are the caller's to handle")
    do {
      try float(value, pointZero: false)
    } catch {
      // Finite: `float(_:pointZero:)` does not throw.
    }
  }

  /// ``encoderNumber(_:)-(Double)``'s text as a string (for a number kept in a value tree).
  package static func encoderNumberText(_ value: Double) -> String {
    var writer = _JSONWriter(capacity: 32)
    writer.encoderNumber(value)
    return String(decoding: writer.takeBytes(), as: UTF8.self)
  }

  /// ``encoderNumber(_:)-(Float)``'s text as a string.
  package static func encoderNumberText(_ value: Float) -> String {
    var writer = _JSONWriter(capacity: 32)
    writer.encoderNumber(value)
    return String(decoding: writer.takeBytes(), as: UTF8.self)
  }
}
