/// The packed form of ``Node/DecimalText``: the bytes of a JSON number with at most 19 digits
/// before its exponent, kept as two words instead of a `String`, so that reading a number into
/// a ``Node`` allocates nothing.
///
/// `significand` holds the digits before and after the point as one integer (`-0.0250e+07`:
/// 250). `layout` holds what gives the text back byte for byte:
///
/// | bits | meaning |
/// |---|---|
/// | 0 | a leading `-` |
/// | 1–5 | digits before the point (1–19) |
/// | 6–10 | digits after the point (0 when there is no point; 1–18) |
/// | 11 | an exponent follows |
/// | 12 | the exponent marker is `E` (else `e`) |
/// | 13–14 | the exponent's sign: 0 none, 1 `+`, 2 `-` |
/// | 15–18 | the exponent's digits, leading zeros included (1–15) |
/// | 32–63 | the exponent's value (at most `UInt32.max`) |
///
/// The digits' count gives back leading zeros (`0.0025`: 25 in five digits), so every valid
/// text has exactly one packed form and two packed forms are equal exactly when their texts
/// are. Text that is not a JSON number, or that has more digits, or a longer or larger
/// exponent, is not packed.
extension Node.DecimalText {
  /// Layout bit 0: a leading `-`.
  package static let negativeBit: UInt64 = 1
  /// Layout bit 11: an exponent follows.
  package static let exponentBit: UInt64 = 1 << 11
  /// Layout bit 12: the exponent marker is `E`.
  package static let upperCaseBit: UInt64 = 1 << 12
  /// Layout bits 13–14 when the exponent has a `+`.
  package static let exponentPlusBits: UInt64 = 1 << 13
  /// Layout bits 13–14 when the exponent has a `-`.
  package static let exponentMinusBits: UInt64 = 2 << 13

  /// The rest of a layout word: the digits before the point (bits 1–5) and after it (bits
  /// 6–10), the exponent's digit count (bits 15–18) and its value (bits 32–63). The one place
  /// these positions are written; both packers (``packed(_:)`` and the scanner's, which packs
  /// while it reads) call it.
  @inline(__always)
  package static func layoutFields(
    integerDigits: Int, fractionDigits: Int, exponentDigits: Int = 0, exponent: UInt64 = 0
  ) -> UInt64 {
    UInt64(truncatingIfNeeded: integerDigits) << 1
      | UInt64(truncatingIfNeeded: fractionDigits) << 6
      | UInt64(truncatingIfNeeded: exponentDigits & 15) << 15 | exponent << 32
  }
  /// The most significant digits a packed text holds: every 19-digit integer is below 2^64.
  package static let maximumDigits = 19
  /// The longest exponent (in digits) a packed text holds.
  package static let maximumExponentDigits = 15

  /// The room ``write(significand:layout:to:)`` needs: the longest text of a packed number is
  /// 38 bytes (a sign, 19 digits, a point, a marker, an exponent sign and 15 exponent digits),
  /// and the 19 digits are first spelled out in bytes 21...39.
  package static let maximumPackedLength = 40

  /// The packed form of `text`, or `nil` when it is not a JSON number or does not fit.
  package static func packed(_ text: String) -> Storage? {
    if let packed = unsafe text.utf8.withContiguousStorageIfAvailable({ unsafe packed($0) }) {
      return packed
    }
    return unsafe Array(text.utf8).withUnsafeBufferPointer { unsafe packed($0) }
  }

  /// Number text given as UTF-8 bytes (a number the JSON reader scanned): packed when it fits,
  /// else kept as a `String`.
  package init(utf8 text: UnsafeBufferPointer<UInt8>) {
    if let packed = unsafe Self.packed(text) {
      self.init(storage: packed)
    } else {
      self.init(storage: .text(unsafe String(decoding: text, as: UTF8.self)))
    }
  }

  /// The packed form of the bytes, or `nil` when they are not a JSON number or do not fit.
  @inline(__always)
  package static func packed(_ text: UnsafeBufferPointer<UInt8>) -> Storage? {
    guard let base = text.baseAddress, !text.isEmpty else { return nil }
    let end = text.count
    var index = 0
    var layout: UInt64 = 0
    if unsafe base[0] == UInt8(ascii: "-") {
      layout = negativeBit
      index = 1
    }
    guard index < end else { return nil }
    var significand: UInt64 = 0
    let integerStart = index
    let first = unsafe base[index] &- UInt8(ascii: "0")
    guard first < 10 else { return nil }
    index += 1
    if first != 0 {
      // Byte by byte: the integer part of a number with a fraction is short (`-65.6136`).
      significand = UInt64(first)
      while index < end {
        let digit = unsafe base[index] &- UInt8(ascii: "0")
        guard digit < 10 else { break }
        guard index &- integerStart < maximumDigits else { return nil }
        significand = significand &* 10 &+ UInt64(digit)
        index &+= 1
      }
    }
    let integerDigits = index - integerStart
    var fractionDigits = 0
    if unsafe index < end && base[index] == UInt8(ascii: ".") {
      index += 1
      let fractionStart = index
      guard
        unsafe readDigits(
          base, &index, end, into: &significand, room: maximumDigits - integerDigits)
      else { return nil }
      fractionDigits = index - fractionStart
      guard fractionDigits > 0 else { return nil }
    }
    var exponentDigits = 0
    var exponent: UInt64 = 0
    if unsafe index < end && base[index] | 0x20 == UInt8(ascii: "e") {
      layout |= exponentBit
      if unsafe base[index] == UInt8(ascii: "E") { layout |= upperCaseBit }
      index += 1
      if unsafe index < end && base[index] == UInt8(ascii: "+") {
        layout |= exponentPlusBits
        index += 1
      } else if unsafe index < end && base[index] == UInt8(ascii: "-") {
        layout |= exponentMinusBits
        index += 1
      }
      let exponentStart = index
      while index < end {
        let digit = unsafe base[index] &- UInt8(ascii: "0")
        guard digit < 10 else { break }
        guard index - exponentStart < maximumExponentDigits else { return nil }
        exponent = exponent &* 10 &+ UInt64(digit)
        index += 1
      }
      exponentDigits = index - exponentStart
      guard exponentDigits > 0, exponent <= UInt64(UInt32.max) else { return nil }
    }
    guard index == end else { return nil }
    layout |= layoutFields(
      integerDigits: integerDigits, fractionDigits: fractionDigits,
      exponentDigits: exponentDigits, exponent: exponent)
    return .packed(significand: significand, layout: layout)
  }

  /// Reads the digits at `index` onto the end of `significand`, moving `index` past them, eight
  /// at a time where the text has eight bytes; `false` when there are more than `room`.
  @inline(__always)
  private static func readDigits(
    _ base: UnsafePointer<UInt8>, _ index: inout Int, _ end: Int, into significand: inout UInt64,
    room: Int
  ) -> Bool {
    let start = index
    if end >= 8 {
      // A word of the text's bytes from `index` (zeros past its end, which are not digits).
      while index < end {
        let word = unsafe _word(base, at: index, end: end)
        let count = _leadingDigits(word)
        guard count > 0 else { return true }
        guard index &- start &+ count <= room else { return false }
        if count == 8 {
          significand = significand &* 100_000_000 &+ _eightDigitsValue(word)
          index &+= 8
        } else {
          significand =
            significand &* powerOfTen(count)
            &+ _eightDigitsValue(word &<< UInt64((8 &- count) &* 8))
          index &+= count
          return true
        }
      }
      return true
    }
    while index < end {
      let digit = unsafe base[index] &- UInt8(ascii: "0")
      guard digit < 10 else { break }
      guard index &- start < room else { return false }
      significand = significand &* 10 &+ UInt64(digit)
      index &+= 1
    }
    return true
  }

  /// `10^count` for `count` in `1...7`.
  @inline(__always)
  package static func powerOfTen(_ count: Int) -> UInt64 {
    switch count {
    case 1: 10
    case 2: 100
    case 3: 1_000
    case 4: 10_000
    case 5: 100_000
    case 6: 1_000_000
    default: 10_000_000
    }
  }

  /// Whether a packed number has neither a fraction nor an exponent.
  package static func isIntegral(layout: UInt64) -> Bool {
    layout & (31 << 6 | exponentBit) == 0
  }

  /// Writes the text of a packed number to `out`, which has room for
  /// ``maximumPackedLength`` bytes; returns the number of bytes written.
  @inline(__always)
  package static func write(
    significand: UInt64, layout: UInt64, to out: UnsafeMutablePointer<UInt8>
  ) -> Int {
    var position = 0
    if layout & negativeBit != 0 {
      unsafe out[0] = UInt8(ascii: "-")
      position = 1
    }
    let integerDigits = Int(truncatingIfNeeded: layout >> 1 & 31)
    let fractionDigits = Int(truncatingIfNeeded: layout >> 6 & 31)
    // All 19 digits of the significand, leading zeros included, past the text's first 21
    // bytes: three, then eight and eight at once. The text's digits are the last ones.
    let scratch = unsafe out + 21
    let high = significand / 10_000_000_000_000_000
    let rest = significand &- high &* 10_000_000_000_000_000
    let upper = rest / 100_000_000
    let lower = rest &- upper &* 100_000_000
    let hundreds = high / 100
    let tens = high / 10 &- hundreds &* 10
    unsafe scratch[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: hundreds)
    unsafe scratch[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: tens)
    unsafe scratch[2] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: high &- high / 10 &* 10)
    let zeros: UInt64 = 0x3030_3030_3030_3030
    unsafe UnsafeMutableRawPointer(scratch + 3).storeBytes(
      of: (_ShortestDecimal.eightDigits(UInt32(truncatingIfNeeded: upper)) | zeros).littleEndian,
      as: UInt64.self)
    unsafe UnsafeMutableRawPointer(scratch + 11).storeBytes(
      of: (_ShortestDecimal.eightDigits(UInt32(truncatingIfNeeded: lower)) | zeros).littleEndian,
      as: UInt64.self)
    let digits = unsafe scratch + (19 &- integerDigits &- fractionDigits)
    unsafe (out + position).update(from: digits, count: integerDigits)
    position &+= integerDigits
    if fractionDigits > 0 {
      unsafe out[position] = UInt8(ascii: ".")
      unsafe (out + (position &+ 1)).update(from: digits + integerDigits, count: fractionDigits)
      position &+= fractionDigits &+ 1
    }
    if layout & exponentBit != 0 {
      unsafe out[position] = layout & upperCaseBit != 0 ? UInt8(ascii: "E") : UInt8(ascii: "e")
      position &+= 1
      switch layout >> 13 & 3 {
      case 1:
        unsafe out[position] = UInt8(ascii: "+")
        position &+= 1
      case 2:
        unsafe out[position] = UInt8(ascii: "-")
        position &+= 1
      default: break
      }
      let exponentDigits = Int(truncatingIfNeeded: layout >> 15 & 15)
      var exponent = layout >> 32
      let last = position &+ exponentDigits &- 1
      unsafe writeDigits(&exponent, from: last, downTo: position, in: out)
      position = last &+ 1
    }
    return position
  }

  /// Writes the last digits of `value` at `out[first...last]` (zeros once `value` runs out),
  /// the last digit at `last`, and removes them from `value`.
  @inline(__always)
  private static func writeDigits(
    _ value: inout UInt64, from last: Int, downTo first: Int, in out: UnsafeMutablePointer<UInt8>
  ) {
    var index = last
    while index >= first {
      let quotient = value / 10
      unsafe out[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value &- quotient &* 10)
      value = quotient
      index &-= 1
    }
  }

  /// The text of a packed number.
  package static func text(significand: UInt64, layout: UInt64) -> String {
    unsafe String(unsafeUninitializedCapacity: maximumPackedLength) { buffer in
      guard let out = buffer.baseAddress else { return 0 }
      return unsafe write(significand: significand, layout: layout, to: out)
    }
  }

  /// Appends the number's text to `bytes`.
  package func appendText(to bytes: inout [UInt8]) {
    switch storage {
    case .text(let text): bytes.append(contentsOf: text.utf8)
    case .float(let value): bytes.append(contentsOf: value.description.utf8)
    case .packed(let significand, let layout):
      unsafe withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.maximumPackedLength) {
        buffer in
        guard let out = buffer.baseAddress else { return }
        let count = unsafe Self.write(significand: significand, layout: layout, to: out)
        unsafe bytes.append(contentsOf: UnsafeBufferPointer(start: out, count: count))
      }
    }
  }
}

/// A number of a scanned document packed by the scanner, for the node builder: the two words of
/// ``Node/DecimalText/Storage/packed(significand:layout:)``, or a `layout` of 0 (which no packed
/// text has: it always counts at least one digit before the point) when the text does not fit
/// and is kept as text.
///
/// ``_JSONScanner/scanPackingNumbers(_:options:reserving:_:)`` writes one for each number entry
/// with a fraction or an exponent, in document order (up to one for every 16 bytes of input),
/// so that building a `Node` does not read the digits the scanner already read a second time.
package struct _PackedNumber {
  /// The digits before and after the point, as one integer.
  package var significand: UInt64
  /// The layout word (see ``Node/DecimalText``'s packing), or 0: not packed.
  package var layout: UInt64

  @inline(__always)
  package init(significand: UInt64, layout: UInt64) {
    self.significand = significand
    self.layout = layout
  }
}
