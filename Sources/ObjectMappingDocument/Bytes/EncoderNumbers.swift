extension _JSONWriter {
  /// Writes a `Double` as `JSONEncoder` writes it: the shortest text that reads back as the same
  /// value (Swift's `description`), without a trailing `.0` (`1000.0` is `1000`, `-0.0` is
  /// `-0`), exponents as Swift prints them (`1e-07`, `1.5e+16`).
  ///
  /// With ``encoderNumber(_:)-(Float)``, the one place the `Codable` encoder turns a
  /// floating-point value into text, so that a faster shortest-digits writer can replace it in
  /// one spot. A whole number below 10¹⁶ (which Swift prints as its digits and `.0`) is written
  /// as an integer, without formatting a double. The caller has checked that `value` is finite.
  package mutating func encoderNumber(_ value: Double) {
    assert(value.isFinite, "non-finite numbers are the caller's to handle")
    if value.magnitude < 1e16, value == value.rounded(.towardZero) {
      if value == 0, value.sign == .minus { return numberText("-0") }
      return int64(Int64(value))
    }
    do {
      try double(value)
    } catch {
      // Finite: `double(_:)` does not throw.
    }
  }

  /// Writes a `Float` as `JSONEncoder` writes it: the shortest text that reads back as the same
  /// `Float` (`Float(0.1)` is `0.1`, not the `Double` `0.10000000149011612`), without a
  /// trailing `.0`. (A `Float`'s text is at most 15 bytes: a string without an allocation.)
  package mutating func encoderNumber(_ value: Float) {
    assert(value.isFinite, "non-finite numbers are the caller's to handle")
    var text = value.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    numberText(text)
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
