#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension _Tape {
  /// The index of the first entry after the value at `index` (its whole subtree).
  @inline(__always)
  package func next(after index: Int) -> Int {
    entries[index].next(at: index)
  }

  /// The entry at `index`, unpacked.
  package func entry(at index: Int) -> _TapeEntry { withView { $0[index] } }

  /// Every entry, unpacked (for tests and diagnostics; mappings read through a view).
  package var unpackedEntries: [_TapeEntry] {
    withView { view in entries.indices.map { view[$0] } }
  }

  /// The decoded string of the string entry at `index`.
  package func string(at index: Int) -> String { withView { $0.string(at: index) } }

  /// The literal text of the number entry at `index` (or the decimal text of an integer entry).
  package func numberText(at index: Int) -> String { withView { $0.numberText(at: index) } }

  /// The correctly rounded `Double` of a number or integer entry; `nil` for other kinds.
  package func doubleValue(at index: Int) -> Double? { withView { $0.doubleValue(at: index) } }

  /// Whether the string entry at `index` is exactly `key` (UTF-8 bytes).
  package func stringEquals(at index: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
    withView { unsafe $0.stringEquals(at: index, key) }
  }

  /// The whole subtree at `index` as a ``Node``.
  package func node(at index: Int) -> Node { withView { $0.node(at: index) } }
}

extension _UnsafeTapeView {
  /// The whole subtree at `index` as a ``Node``.
  package func node(at index: Int) -> Node {
    var builder = unsafe NodeBuilder(view: self, cursor: index)
    return builder.next()
  }

  /// The whole document (the value at entry 0) as a ``Node``, with the numbers the scanner
  /// packed (``_JSONScanner/scanPackingNumbers(_:options:reserving:_:)``): those of the first
  /// number entries with a fraction or an exponent, in document order (the others are packed
  /// from their bytes).
  package func document(packedNumbers: UnsafeBufferPointer<_PackedNumber>) -> Node {
    var builder = unsafe NodeBuilder(view: self, cursor: 0, packedNumbers: packedNumbers)
    return builder.next()
  }
}

/// Builds ``Node`` values from a tape's entries, reading through unsafe buffers to keep the
/// per-value work to the allocations a `Node` needs. It recurses once per nesting level, which
/// the reader bounds with its depth limit.
///
/// Invariant: `packedNumbers` holds the packed numbers of the first number entries with a
/// fraction or an exponent from `cursor` on, in order (none, or some or all of them when the
/// builder builds a whole document the scanner packed the numbers of); `nextNumber` counts those
/// built. The builder lives only during the call that made it, inside the scan that lends it the
/// view and the numbers.
@safe private struct NodeBuilder {
  let view: _UnsafeTapeView
  var bytes: UnsafeBufferPointer<UInt8> { unsafe view.bytes }
  var cursor: Int
  let packedNumbers: UnsafeBufferPointer<_PackedNumber>
  var nextNumber = 0
  /// Recently built keys too long for a small string, so repeated keys share one allocation.
  private var keyCache: [CachedKey] = []

  private struct CachedKey {
    var offset = 0
    var length = -1
    var key = ""
  }

  init(
    view: _UnsafeTapeView, cursor: Int,
    packedNumbers: UnsafeBufferPointer<_PackedNumber> = unsafe UnsafeBufferPointer(
      start: nil, count: 0)
  ) {
    self.view = view
    self.cursor = cursor
    unsafe self.packedNumbers = packedNumbers
  }

  /// The value at `cursor`, moving `cursor` past its subtree.
  mutating func next() -> Node {
    let entry = view[cursor]
    cursor += 1
    switch entry.kind {
    case .null: return .null
    case .true: return .bool(true)
    case .false: return .bool(false)
    case .integer: return .integer(entry.payload)
    case .number:
      // Integers beyond the packed range (`-2⁶² ..< 2⁶²`) are stored as text; those that fit
      // `Int64` are integers in a `Node` all the same.
      if entry.flags & _TapeEntry.numberIsIntegral != 0 {
        let text = text(of: entry)
        if let integer = Int64(text), _PackedEntry(integer: integer) == nil {
          return .integer(integer)
        }
        return .decimal(text)
      }
      // Other numbers keep their text, packed without a `String` when it fits: packed by the
      // scanner when it was asked to, else from the text's bytes.
      if unsafe nextNumber < packedNumbers.count {
        let number = unsafe packedNumbers[nextNumber]
        nextNumber &+= 1
        if number.layout != 0 {
          return .decimal(
            Node.DecimalText(
              storage: .packed(significand: number.significand, layout: number.layout)))
        }
      }
      return unsafe .decimal(
        Node.DecimalText(
          utf8: UnsafeBufferPointer(
            rebasing: bytes[Int(entry.payload)..<Int(entry.payload) + Int(entry.length)])))
    case .string: return .string(text(of: entry))
    // Empty containers are built as `[]`: `Array(unsafeUninitializedCapacity: 0)` writes its
    // count into the shared empty-array storage, a write ThreadSanitizer reports as a race
    // between tasks (benign, but it hides real ones).
    case .array where entry.length == 0: return .array([])
    case .object where entry.length == 0: return .object([])
    // Containers are reserved at their exact count and appended to: `reserveCapacity`
    // allocates through code specialized for the element type, where
    // `Array(unsafeUninitializedCapacity:)` calls the standard library's unspecialized
    // `_allocateBufferUninitialized`, which looks up the storage class's generic metadata on
    // every call (some 300 instructions an array).
    // One or two elements (canada's coordinate pairs, 55,000 of its 56,045 arrays) as an array
    // literal: its storage is allocated directly, without `reserveCapacity`'s buffer-growth
    // call and the appends' capacity and uniqueness checks.
    case .array where entry.length == 2:
      let first = next()
      return .array([first, next()])
    case .array where entry.length == 1:
      return .array([next()])
    case .array:
      var elements: [Node] = []
      elements.reserveCapacity(Int(entry.length))
      for _ in 0..<Int(entry.length) { elements.append(next()) }
      return .array(elements)
    case .object:
      var members: [Node.Member] = []
      members.reserveCapacity(Int(entry.length))
      for _ in 0..<Int(entry.length) {
        let key = self.key(of: view[cursor])
        cursor += 1
        members.append(Node.Member(key, next()))
      }
      return .object(members)
    }
  }

  /// The text of an object key entry. Keys of up to 15 UTF-8 bytes are small strings and need
  /// no allocation; longer unescaped keys are looked up in a small cache by their bytes.
  @inline(__always)
  mutating func key(of entry: _TapeEntry) -> String {
    let length = Int(entry.length)
    guard length > 15, entry.flags & _TapeEntry.stringHasEscapes == 0,
      let base = unsafe bytes.baseAddress
    else { return text(of: entry) }
    let start = Int(entry.payload)
    let head = unsafe UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self)
    let tail = unsafe UnsafeRawPointer(base + start + length - 8).loadUnaligned(as: UInt64.self)
    let hash = (head ^ (tail >> 29 | tail << 35) ^ UInt64(length)) &* 0x9E37_79B9_7F4A_7C15
    let slot = Int(truncatingIfNeeded: hash >> 58)
    if keyCache.isEmpty { keyCache = Array(repeating: CachedKey(), count: 64) }
    let cached = keyCache[slot]
    if unsafe cached.length == length && memcmp(base + start, base + cached.offset, length) == 0 {
      return cached.key
    }
    let key = text(of: entry)
    keyCache[slot] = CachedKey(offset: start, length: length, key: key)
    return key
  }

  /// The decoded text of a string or number entry.
  @inline(__always)
  func text(of entry: _TapeEntry) -> String {
    let content = unsafe UnsafeBufferPointer(
      rebasing: bytes[Int(entry.payload)..<Int(entry.payload) + Int(entry.length)])
    if entry.kind == .string && entry.flags & _TapeEntry.stringHasEscapes != 0 {
      return unsafe _unescapeJSONString(content)
    }
    return unsafe _string(validUTF8: content)
  }
}

/// Parses JSON number text into the correctly rounded `Double`; `nan` when `text` is not a JSON
/// number (RFC 8259 §6).
///
/// Small cases take Clinger's exact fast path (at most 15 significant digits and a power of ten
/// that is exact in a `Double`), up to 19 significant digits take the Eisel-Lemire algorithm
/// (``_EiselLemire``); the rest go through the C library's `strtod`, which rounds correctly, on
/// a NUL-terminated copy. Every read is bounds-checked against `text`: the tape's number text
/// is validated by its producer, but the parser must stay inside whatever it is given.
@usableFromInline
package func _parseDouble(_ text: UnsafeBufferPointer<UInt8>) -> Double {
  guard let base = text.baseAddress, !text.isEmpty else { return .nan }
  let end = text.count
  var index = 0
  let negative = unsafe base[0] == UInt8(ascii: "-")
  if negative { index = 1 }
  // A leading zero stands alone: `0`, `0.5`, never `01`.
  let integerStart = index
  let leadingZero = unsafe index < end && base[index] == UInt8(ascii: "0")
  var significand: UInt64 = 0
  // Digits from the first non-zero one on: more than 19 may not fit `significand`.
  var digitCount = 0
  var exponent = 0
  while index < end {
    let digit = unsafe base[index] &- UInt8(ascii: "0")
    guard digit <= 9 else { break }
    significand = significand &* 10 &+ UInt64(digit)
    digitCount &+= significand == 0 ? 0 : 1
    index += 1
  }
  guard index > integerStart, !leadingZero || index == integerStart + 1 else { return .nan }
  if unsafe index < end && base[index] == UInt8(ascii: ".") {
    index += 1
    let fractionStart = index
    // Leading zeros (`0.000123`) byte by byte, since they are not significant digits; then
    // eight digits at a time while eight bytes remain; then the rest byte by byte.
    while significand == 0 && index < end {
      let digit = unsafe base[index] &- UInt8(ascii: "0")
      guard digit <= 9 else { break }
      significand = UInt64(digit)
      digitCount &+= significand == 0 ? 0 : 1
      index += 1
    }
    while significand != 0 && end - index >= 8 {
      let word = unsafe _word(base, at: index, end: end)
      guard _leadingDigits(word) == 8 else { break }
      significand = significand &* 100_000_000 &+ _eightDigitsValue(word)
      digitCount &+= 8
      index += 8
    }
    // Fewer than eight digits left: their `n`, moved to the top of the word, read as an
    // `n`-digit number.
    if significand != 0 && index < end && end >= 8 {
      let word = unsafe _word(base, at: index, end: end)
      let count = _leadingDigits(word)
      if count > 0 && count < 8 {
        significand =
          significand &* _integerPowerOfTen(count)
          &+ _eightDigitsValue(word &<< UInt64((8 - count) * 8))
        digitCount &+= count
        index += count
      }
    }
    while index < end {
      let digit = unsafe base[index] &- UInt8(ascii: "0")
      guard digit <= 9 else { break }
      significand = significand &* 10 &+ UInt64(digit)
      digitCount &+= significand == 0 ? 0 : 1
      index += 1
    }
    guard index > fractionStart else { return .nan }
    exponent = fractionStart - index
  }
  if index < end {
    // Exponent part.
    guard unsafe base[index] | 0x20 == UInt8(ascii: "e") else { return .nan }
    index += 1
    var exponentNegative = false
    if unsafe index < end && (base[index] == UInt8(ascii: "-") || base[index] == UInt8(ascii: "+"))
    {
      exponentNegative = unsafe base[index] == UInt8(ascii: "-")
      index += 1
    }
    guard index < end else { return .nan }
    var value = 0
    while index < end {
      let digit = unsafe base[index] &- UInt8(ascii: "0")
      guard digit <= 9 else { return .nan }
      // Beyond ±100,000 every non-zero significand is out of range either way.
      value = min(value &* 10 &+ Int(digit), 100_000)
      index += 1
    }
    exponent += exponentNegative ? -value : value
  }
  if significand == 0 && digitCount == 0 { return negative ? -0.0 : 0.0 }
  if digitCount <= 15 && exponent >= -22 && exponent <= 22 {
    var result = Double(significand)
    if exponent < 0 {
      result /= _powersOfTen[-exponent]
    } else {
      result *= _powersOfTen[exponent]
    }
    return negative ? -result : result
  }
  if digitCount <= 19,
    let result = _EiselLemire.double(
      significand: significand, exponent: exponent, negative: negative)
  {
    return result
  }
  return unsafe _strtod(text)
}

/// 10^`exponent` for `exponent` in 0...7, for the significand of a partial word of digits (a
/// switch, which compiles to a constant table, not a global array behind a lazy initializer).
@inline(__always)
private func _integerPowerOfTen(_ exponent: Int) -> UInt64 {
  switch exponent {
  case 0: 1
  case 1: 10
  case 2: 100
  case 3: 1_000
  case 4: 10_000
  case 5: 100_000
  case 6: 1_000_000
  default: 10_000_000
  }
}

private let _powersOfTen: [Double] = [
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
  1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]

/// `strtod` on a NUL-terminated copy of `text`. Validated JSON number text contains only
/// `-+.eE` and digits, which every C locale reads the same way except for the decimal point;
/// the text is rewritten to the current locale's decimal point when it differs.
private func _strtod(_ text: UnsafeBufferPointer<UInt8>) -> Double {
  unsafe withUnsafeTemporaryAllocation(of: CChar.self, capacity: text.count + 1) { buffer in
    guard let base = buffer.baseAddress else { return .nan }
    let point = _localeDecimalPoint()
    for offset in 0..<text.count {
      let byte = unsafe text[offset]
      unsafe base[offset] = byte == UInt8(ascii: ".") ? point : CChar(bitPattern: byte)
    }
    unsafe base[text.count] = 0
    return unsafe strtod(base, nil)
  }
}

private func _localeDecimalPoint() -> CChar {
  guard let conventions = unsafe localeconv(), let point = unsafe conventions.pointee.decimal_point
  else {
    return CChar(bitPattern: UInt8(ascii: "."))
  }
  return unsafe point.pointee
}

/// Decodes JSON string content that contains escapes. Lone surrogates (only present when the
/// reader's policy let them through) become U+FFFD.
package func _unescapeJSONString(_ content: UnsafeBufferPointer<UInt8>) -> String {
  // Every escape the reader accepts decodes to fewer bytes than it takes; the slack covers a
  // malformed `\u` (2 bytes in, U+FFFD's 3 out) from any other producer.
  let capacity = content.count + content.count / 2 + 4
  return unsafe withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
    guard let output = buffer.baseAddress, let input = content.baseAddress else { return "" }
    let count = content.count
    var written = 0
    var index = 0
    func hex(at position: Int) -> UInt32? {
      guard position + 4 <= count else { return nil }
      var value: UInt32 = 0
      for offset in 0..<4 {
        let byte = unsafe input[position + offset]
        let digit: UInt32
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
        value = value << 4 | digit
      }
      return value
    }
    func append(scalar: UInt32) {
      for byte in (Unicode.Scalar(scalar) ?? "\u{FFFD}").utf8 {
        unsafe output[written] = byte
        written += 1
      }
    }
    while index < count {
      // Copy the run up to the next backslash in one go.
      var runEnd = index
      while unsafe runEnd < count && input[runEnd] != UInt8(ascii: "\\") { runEnd += 1 }
      if runEnd > index {
        unsafe (output + written).update(from: input + index, count: runEnd - index)
        written += runEnd - index
        index = runEnd
      }
      guard index + 1 < count else {
        if index < count {
          unsafe output[written] = unsafe input[index]
          written += 1
        }
        break
      }
      let escape = unsafe input[index + 1]
      index += 2
      switch escape {
      case UInt8(ascii: "n"): unsafe output[written] = 0x0A
      case UInt8(ascii: "t"): unsafe output[written] = 0x09
      case UInt8(ascii: "r"): unsafe output[written] = 0x0D
      case UInt8(ascii: "b"): unsafe output[written] = 0x08
      case UInt8(ascii: "f"): unsafe output[written] = 0x0C
      case UInt8(ascii: "u"):
        guard let unit = hex(at: index) else {
          append(scalar: 0xFFFD)
          continue
        }
        index += 4
        if unit >= 0xD800 && unit < 0xDC00, index + 6 <= count,
          unsafe input[index] == UInt8(ascii: "\\"), unsafe input[index + 1] == UInt8(ascii: "u"),
          let low = hex(at: index + 2), low >= 0xDC00 && low < 0xE000
        {
          index += 6
          append(scalar: 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
        } else {
          append(scalar: unit)
        }
        continue
      default: unsafe output[written] = escape  // \" \\ \/
      }
      written += 1
    }
    // Valid UTF-8 without a second check: the runs copied between escapes are cut at ASCII
    // backslashes of valid text (the tape's invariant), and each `\u` escape is encoded here
    // from a scalar (U+FFFD for a lone surrogate).
    return unsafe _string(validUTF8: UnsafeBufferPointer(start: output, count: written))
  }
}
