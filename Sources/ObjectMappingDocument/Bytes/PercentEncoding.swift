/// The one percent-encoder of the package: form bodies (the form codec), and request targets
/// (the object manager's route values, query items and paths) use it with different sets of
/// bytes kept as they are.
///
/// Safety: each function reads only inside the buffer the standard library lends for the
/// duration of the call (`withContiguousStorageIfAvailable`, `withUnsafeBufferPointer`), through
/// bounds-checked `UnsafeBufferPointer` slices; nothing escapes the call.

/// The ASCII bytes a percent-encoder writes as they are; every other byte (all non-ASCII bytes
/// included) is written `%XX` with uppercase hex.
package struct _PercentEncodingSet: Sendable {
  /// Bit `b` set: ASCII byte `b` is kept.
  private let low: UInt64
  private let high: UInt64

  /// A set of ASCII letters, digits and `others`.
  private init(alphanumericsAnd others: String) {
    var low: UInt64 = 0
    var high: UInt64 = 0
    func insert(_ byte: UInt8) {
      if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
    }
    for byte in UInt8(ascii: "a")...UInt8(ascii: "z") { insert(byte) }
    for byte in UInt8(ascii: "A")...UInt8(ascii: "Z") { insert(byte) }
    for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { insert(byte) }
    for byte in others.utf8 where byte < 128 { insert(byte) }
    self.low = low
    self.high = high
  }

  /// Whether `byte` is written as it is.
  @inline(__always)
  package func contains(_ byte: UInt8) -> Bool {
    byte < 64
      ? low & (1 << UInt64(byte)) != 0 : byte < 128 && high & (1 << UInt64(byte - 64)) != 0
  }

  /// WHATWG's `application/x-www-form-urlencoded` set: letters, digits and `*-._` (a space is
  /// written `+` by the form codec).
  package static let formComponent = _PercentEncodingSet(alphanumericsAnd: "*-._")
  /// RFC 3986's unreserved characters, letters, digits and `-._~`: what a value interpolated
  /// into a path segment or a query component keeps, so it can neither end its segment nor add
  /// a query item.
  package static let unreserved = _PercentEncodingSet(alphanumericsAnd: "-._~")
  /// What may appear in a URL path (RFC 3986 `pchar` and `/`).
  package static let path = _PercentEncodingSet(alphanumericsAnd: "-._~!$&'()*+,;=:@/")
  /// What may appear in a URL query (RFC 3986 `pchar`, `/` and `?`).
  package static let query = _PercentEncodingSet(alphanumericsAnd: "-._~!$&'()*+,;=:@/?")
}

/// Appends `text` percent-encoded for form data (see the `[UInt8]` overload).
package func _appendPercentEncoded(_ text: String, to bytes: inout [UInt8]) {
  _appendPercentEncoded(text, keeping: .formComponent, spaceAsPlus: true, to: &bytes)
}

/// Appends UTF-8 bytes percent-encoded for form data: ASCII letters, digits and `*-._` as is,
/// space as `+`, every other byte as `%XX` (uppercase hex). Clean runs are copied whole.
package func _appendPercentEncoded(_ utf8: [UInt8], to bytes: inout [UInt8]) {
  unsafe utf8.withUnsafeBufferPointer {
    unsafe _appendPercentEncoded(
      $0, keeping: .formComponent, spaceAsPlus: true, keepingEscapes: false, to: &bytes)
  }
}

/// Appends `text` percent-encoded: the bytes of `set` as they are, a space as `+` when
/// `spaceAsPlus`, and with `keepingEscapes` a `%` followed by two hexadecimal digits as it is
/// (text that is already partly encoded); every other byte as `%XX` (uppercase hex).
package func _appendPercentEncoded(
  _ text: String, keeping set: _PercentEncodingSet, spaceAsPlus: Bool = false,
  keepingEscapes: Bool = false, to bytes: inout [UInt8]
) {
  let done: Void? = unsafe text.utf8.withContiguousStorageIfAvailable {
    unsafe _appendPercentEncoded(
      $0, keeping: set, spaceAsPlus: spaceAsPlus, keepingEscapes: keepingEscapes, to: &bytes)
  }
  if done == nil {
    unsafe Array(text.utf8).withUnsafeBufferPointer {
      unsafe _appendPercentEncoded(
        $0, keeping: set, spaceAsPlus: spaceAsPlus, keepingEscapes: keepingEscapes, to: &bytes)
    }
  }
}

/// `text` percent-encoded (see ``_appendPercentEncoded(_:keeping:spaceAsPlus:keepingEscapes:to:)``).
package func _percentEncoded(
  _ text: String, keeping set: _PercentEncodingSet, keepingEscapes: Bool = false
) -> String {
  var bytes: [UInt8] = []
  bytes.reserveCapacity(text.utf8.count)
  _appendPercentEncoded(text, keeping: set, keepingEscapes: keepingEscapes, to: &bytes)
  return String(decoding: bytes, as: UTF8.self)
}

private func _appendPercentEncoded(
  _ utf8: UnsafeBufferPointer<UInt8>, keeping set: _PercentEncodingSet, spaceAsPlus: Bool,
  keepingEscapes: Bool, to bytes: inout [UInt8]
) {
  var runStart = 0
  var index = 0
  while index < utf8.count {
    let byte = unsafe utf8[index]
    if set.contains(byte) {
      index += 1
      continue
    }
    if keepingEscapes, byte == UInt8(ascii: "%"), index + 2 < utf8.count,
      unsafe _hexDigitValue(utf8[index + 1]) != nil, unsafe _hexDigitValue(utf8[index + 2]) != nil
    {
      index += 3
      continue
    }
    if runStart < index {
      unsafe bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
    }
    if spaceAsPlus, byte == UInt8(ascii: " ") {
      bytes.append(UInt8(ascii: "+"))
    } else {
      bytes.append(UInt8(ascii: "%"))
      bytes.append(_upperHexDigit(byte >> 4))
      bytes.append(_upperHexDigit(byte & 0x0F))
    }
    index += 1
    runStart = index
  }
  if runStart < utf8.count {
    unsafe bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
  }
}

/// `text` with every `%XX` decoded (and `+` as a space when `plusAsSpace`), or `nil` when a `%`
/// is not followed by two hexadecimal digits or the decoded bytes are not UTF-8.
package func _percentDecoded(_ text: Substring, plusAsSpace: Bool = false) -> String? {
  let utf8 = text.utf8
  guard
    utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) })
  else { return String(text) }
  var bytes: [UInt8] = []
  bytes.reserveCapacity(utf8.count)
  var index = utf8.startIndex
  while index < utf8.endIndex {
    let byte = utf8[index]
    if byte == UInt8(ascii: "%") {
      let first = utf8.index(after: index)
      guard first < utf8.endIndex, let high = _hexDigitValue(utf8[first]) else { return nil }
      let second = utf8.index(after: first)
      guard second < utf8.endIndex, let low = _hexDigitValue(utf8[second]) else { return nil }
      bytes.append(high << 4 | low)
      index = utf8.index(after: second)
    } else {
      bytes.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
      index = utf8.index(after: index)
    }
  }
  return String(validating: bytes, as: UTF8.self)
}

/// The value of a hexadecimal digit, or `nil`.
@inline(__always)
package func _hexDigitValue(_ byte: UInt8) -> UInt8? {
  switch byte {
  case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
  case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
  case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
  default: return nil
  }
}

/// The UTF-8 bytes of `text` in a new array, copied in one block from a native string.
package func _utf8Array(_ text: String) -> [UInt8] {
  unsafe text.utf8.withContiguousStorageIfAvailable { unsafe Array($0) } ?? Array(text.utf8)
}
