/// The byte loops of the form codec that read a string's UTF-8 storage in place.
///
/// Safety: each function reads only inside the buffer the standard library lends for the
/// duration of the call (`withContiguousStorageIfAvailable`, `withUnsafeBufferPointer`), through
/// bounds-checked `UnsafeBufferPointer` slices; nothing escapes the call.

/// Appends `text` percent-encoded for form data (see the `[UInt8]` overload).
package func _appendPercentEncoded(_ text: String, to bytes: inout [UInt8]) {
  let done: Void? = text.utf8.withContiguousStorageIfAvailable {
    _appendPercentEncoded($0, to: &bytes)
  }
  if done == nil { _appendPercentEncoded(Array(text.utf8), to: &bytes) }
}

/// Appends UTF-8 bytes percent-encoded for form data: ASCII letters, digits and `*-._` as is,
/// space as `+`, every other byte as `%XX` (uppercase hex). Clean runs are copied whole.
package func _appendPercentEncoded(_ utf8: [UInt8], to bytes: inout [UInt8]) {
  utf8.withUnsafeBufferPointer { _appendPercentEncoded($0, to: &bytes) }
}

private func _appendPercentEncoded(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
  var runStart = 0
  for (index, byte) in utf8.enumerated() where !_isFormUnreserved(byte) {
    if runStart < index {
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
    }
    if byte == UInt8(ascii: " ") {
      bytes.append(UInt8(ascii: "+"))
    } else {
      bytes.append(UInt8(ascii: "%"))
      bytes.append(_upperHexDigit(byte >> 4))
      bytes.append(_upperHexDigit(byte & 0x0F))
    }
    runStart = index + 1
  }
  if runStart < utf8.count {
    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
  }
}

/// The UTF-8 bytes of `text` in a new array, copied in one block from a native string.
package func _utf8Array(_ text: String) -> [UInt8] {
  text.utf8.withContiguousStorageIfAvailable { Array($0) } ?? Array(text.utf8)
}
