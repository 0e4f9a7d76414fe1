extension _JSONWriter {
  /// Writes a floating-point number as `JSONEncoder` writes it: the shortest text that reads
  /// back as the same value of its own type (`Float(0.1)` is `0.1`, not the `Double`
  /// `0.10000000149011612`), without a trailing `.0` (`1000.0` is `1000`), exponents as Swift
  /// prints them (`1e-07`, `1.5e+16`).
  ///
  /// The one place the `Codable` encoder turns a `Float` or `Double` into text (today Swift's
  /// own `description`, formatted into a stack buffer and copied here without a `String`), so
  /// that a faster shortest-digits writer can replace it in one spot. The caller has checked
  /// that `value` is finite.
  package mutating func encoderNumber(_ value: some BinaryFloatingPoint & TextOutputStreamable) {
    assert(value.isFinite, "non-finite numbers are the caller's to handle")
    var sink = _EncoderNumberSink(writer: _JSONWriter(capacity: 0))
    swap(&sink.writer, &self)
    value.write(to: &sink)
    swap(&sink.writer, &self)
  }

  /// ``encoderNumber(_:)``'s text as a string (for a number kept in a value tree).
  package static func encoderNumberText(_ value: some BinaryFloatingPoint & TextOutputStreamable)
    -> String
  {
    var writer = _JSONWriter(capacity: 32)
    writer.encoderNumber(value)
    return String(decoding: writer.takeBytes(), as: UTF8.self)
  }
}

/// Receives a number's digits from the standard library and writes them without a trailing
/// `.0` (see ``_JSONWriter/encoderNumber(_:)``).
private struct _EncoderNumberSink: TextOutputStream {
  var writer: _JSONWriter

  mutating func write(_ string: String) {
    var text = string
    if text.hasSuffix(".0") { text.removeLast(2) }
    writer.numberText(text)
  }

  // Called by the standard library's floating-point `write(to:)` with the formatted digits.
  mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
    var count = buffer.count
    if count >= 2, buffer[count - 2] == UInt8(ascii: "."), buffer[count - 1] == UInt8(ascii: "0") {
      count -= 2
    }
    writer.numberText(utf8: UnsafeBufferPointer(rebasing: buffer[0..<count]))
  }
}
