/// The shortest decimal text that reads back as the same `Double` or `Float`, in the format of
/// the standard library's `description`; how the JSON and form writers print floating-point
/// numbers.
///
/// Swift's own `description` spends about 460 instructions on a 17-digit double (half of
/// encoding canada.json); this takes a fraction of that. Written from Raffaello Giulietti's
/// paper "The Schubfach way to render doubles" (2020; the algorithm behind Java's
/// `Double.toString` since JDK 19):
///
/// 1. A finite `v = c × 2^q` rounds back from every decimal inside its *rounding interval*,
///    the reals closer to `v` than to its neighbours: `[v - 2^q / 2, v + 2^q / 2]`, whose lower
///    half is `2^q / 4` wide when `v` is the first value of a binade (`c` is the smallest normal
///    significand), since the value below is then closer. The bounds belong to the interval
///    when `c` is even (a decimal exactly halfway reads back as the even neighbour).
/// 2. `k = ⌊log10(2^q)⌋` (from `3/4 × 2^q` at a binade's start) makes `10^k` no wider than the
///    interval, so the interval holds at least one multiple of `10^k` and at most one of
///    `10^(k+1)`.
/// 3. `4v`, and four times each bound, are scaled by `10^-k` with one 128-bit multiplication
///    each (``_shortestDecimalPowers``), *rounded to odd*: the integer part, with its lowest
///    bit set when anything was cut off. Comparing such a value with an even integer (four
///    times a candidate) gives the same answer as comparing the exact one.
/// 4. If exactly one multiple of `10^(k+1)` lies in the interval, it is the shortest decimal.
///    Otherwise the answer is `s = ⌊v × 10^-k⌋` or `s + 1` (times `10^k`): the one inside the
///    interval, or, when both are, the one closer to `v` (the even one on a tie).
///
/// The result is the shortest decimal in the rounding interval and, among the shortest, the
/// closest to `v`: the digits the standard library prints. Step 3 is exact as long as no
/// scaled value that is not an integer lies within `2^-68` of one; the paper proves a wider
/// margin for every double, and ``ShortestDecimalTests`` checks every `Float` (opt-in) and
/// random and edge-case doubles against `description`.
///
/// Output: `description`'s format. Digits with a decimal point (`0.1`, `100.0`, `-0.0`,
/// `0.0001`) when the decimal exponent is at least -4 and the magnitude at most `2^53` (`2^24`
/// for `Float`); otherwise exponent form with at least two exponent digits (`1e-05`,
/// `1.2345678901234568e+17`, `5e-324`). Non-finite values print as `description` does (`nan`,
/// `inf`, `-inf`); the JSON writer rejects them before they get here.
///
/// Invariant (what makes the pointer writes safe): every `write` gets a pointer to at least
/// ``maximumLength`` writable bytes and writes at most that many (the longest text,
/// `-2.2250738585072014e-308`, has 24); debug builds assert the count.
package enum _ShortestDecimal {
  /// The most bytes one number's text takes, with room to spare.
  package static let maximumLength = 32

  // MARK: - Entry points

  /// Writes the shortest round-trip text of `value` at `out`, which has room for
  /// ``maximumLength`` bytes.
  ///
  /// - Returns: The number of bytes written.
  @inline(__always)
  package static func write(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> Int {
    let bits = value.bitPattern
    let fraction = bits & (1 << 52 - 1)
    let biased = Int(truncatingIfNeeded: bits >> 52) & 0x7FF
    guard biased != 0x7FF else { return unsafe writeNonFinite(value.description, to: out) }
    var start = unsafe out
    if bits >> 63 != 0 {
      unsafe start[0] = UInt8(ascii: "-")
      unsafe start += 1
    }
    let written: Int
    if biased == 0 && fraction == 0 {
      written = unsafe writeZero(to: start)
    } else {
      // Subnormals have no implicit bit and the exponent of the smallest normal binade.
      let decimal = shortest(
        significand: biased == 0 ? fraction : fraction | 1 << 52,
        exponent: Swift.max(biased, 1) &- 1075, lowerIsCloser: fraction == 0 && biased > 1)
      written = unsafe format(decimal, exponentForm: value.magnitude > 0x1p53, to: start)
    }
    let count = unsafe start - out + written
    assert(count <= maximumLength, "a number's text fits its room")
    return count
  }

  /// Writes the shortest round-trip text of `value` (the `Float` itself, not its `Double`
  /// expansion: `0.1`, not `0.10000000149011612`) at `out`, which has room for
  /// ``maximumLength`` bytes.
  ///
  /// - Returns: The number of bytes written.
  package static func write(_ value: Float, to out: UnsafeMutablePointer<UInt8>) -> Int {
    let bits = value.bitPattern
    let fraction = UInt64(bits & (1 << 23 - 1))
    let biased = Int(truncatingIfNeeded: bits >> 23) & 0xFF
    guard biased != 0xFF else { return unsafe writeNonFinite(value.description, to: out) }
    var start = unsafe out
    if bits >> 31 != 0 {
      unsafe start[0] = UInt8(ascii: "-")
      unsafe start += 1
    }
    let written: Int
    if biased == 0 && fraction == 0 {
      written = unsafe writeZero(to: start)
    } else {
      let decimal = shortest(
        significand: biased == 0 ? fraction : fraction | 1 << 23,
        exponent: Swift.max(biased, 1) &- 150, lowerIsCloser: fraction == 0 && biased > 1)
      written = unsafe format(decimal, exponentForm: value.magnitude > 0x1p24, to: start)
    }
    let count = unsafe start - out + written
    assert(count <= maximumLength, "a number's text fits its room")
    return count
  }

  /// ``write(_:to:)-(Double,_)``, with the choice of `description`'s `.0` after a whole number
  /// in digits.
  ///
  /// - Parameters:
  ///   - pointZero: Whether a whole number in digits ends in `.0`, as `description` writes it
  ///     (`100.0`, `-0.0`); without it the text is `JSONEncoder`'s (`100`, `-0`, and otherwise
  ///     the same: `1e+16`, `9.5e+15`, `0.1`).
  /// - Returns: The number of bytes written.
  package static func write(
    _ value: Double, to out: UnsafeMutablePointer<UInt8>, pointZero: Bool
  ) -> Int {
    let count = unsafe write(value, to: out)
    return unsafe pointZero ? count : withoutPointZero(out, count: count)
  }

  /// ``write(_:to:)-(Float,_)``, with the choice of `description`'s `.0` after a whole number in
  /// digits (see ``write(_:to:pointZero:)-(Double,_,_)``).
  package static func write(
    _ value: Float, to out: UnsafeMutablePointer<UInt8>, pointZero: Bool
  ) -> Int {
    let count = unsafe write(value, to: out)
    return unsafe pointZero ? count : withoutPointZero(out, count: count)
  }

  /// The count of the text at `out` without a final `.0`: only a whole number in digits ends
  /// so (a fraction never ends in a zero, and an exponent never follows a point).
  private static func withoutPointZero(_ out: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
    guard count >= 2, unsafe out[count &- 1] == UInt8(ascii: "0"),
      unsafe out[count &- 2] == UInt8(ascii: ".")
    else { return count }
    return count &- 2
  }

  /// The shortest round-trip text of `value`: equal to `value.description`.
  package static func text(_ value: Double) -> String {
    unsafe String(unsafeUninitializedCapacity: maximumLength) { buffer in
      // A fresh string's storage has at least `maximumLength` bytes.
      guard let base = buffer.baseAddress else { return 0 }
      return unsafe write(value, to: base)
    }
  }

  /// The shortest round-trip text of `value`: equal to `value.description`.
  package static func text(_ value: Float) -> String {
    unsafe String(unsafeUninitializedCapacity: maximumLength) { buffer in
      guard let base = buffer.baseAddress else { return 0 }
      return unsafe write(value, to: base)
    }
  }

  /// The shortest decimal of `value`'s magnitude: `significand × 10^exponent` with no trailing
  /// zero in `significand` (for tests and callers that format on their own); `nil` for zero,
  /// infinities and NaN.
  package static func decimal(_ value: Double) -> (significand: UInt64, exponent: Int)? {
    guard value.isFinite && value != 0 else { return nil }
    let bits = value.bitPattern
    let fraction = bits & (1 << 52 - 1)
    let biased = Int(truncatingIfNeeded: bits >> 52) & 0x7FF
    let decimal = shortest(
      significand: biased == 0 ? fraction : fraction | 1 << 52,
      exponent: Swift.max(biased, 1) &- 1075, lowerIsCloser: fraction == 0 && biased > 1)
    return withoutTrailingZeros(decimal)
  }

  // MARK: - The shortest decimal

  /// The shortest decimal in the rounding interval of `c × 2^q` (`c > 0`, below `2^54`), and
  /// the closest to it among the shortest: `significand × 10^exponent`, possibly with trailing
  /// zeros in `significand`. `lowerIsCloser` is set for the first value of a binade (not the
  /// smallest normal one), whose interval's lower half is half as wide.
  @inline(__always)
  static func shortest(significand c: UInt64, exponent q: Int, lowerIsCloser: Bool) -> (
    significand: UInt64, exponent: Int
  ) {
    assert(c > 0 && c < 1 << 54 && q >= -1074 && q <= 971, "a finite non-zero double or float")
    // Scaled by 4 so the bounds are integers: `4c ± 2`, or `4c - 1` below a binade's start.
    let scaled = c << 2
    let upper = scaled + 2
    let lower: UInt64
    let k: Int
    if lowerIsCloser {
      lower = scaled - 1
      // ⌊log10(3/4 × 2^q)⌋: ⌊log10(2)⌋ and ⌊log10(3/4)⌋ as 41-bit fractions, exact for every
      // `q` of a double (checked by a test).
      k = (q &* 661_971_961_083 &- 274_743_187_321) >> 41
    } else {
      lower = scaled - 2
      k = (q &* 661_971_961_083) >> 41  // ⌊log10(2^q)⌋
    }
    // The interval's bounds are open when `c` is odd: `open` is then 1, which turns each `<=`
    // below into `<` (the scaled bounds and the even candidates are integers).
    let open = c & 1
    // The power of ten has its top bit at 2^127; `shift` (1...4) lines `4c × 2^q` up with it
    // so the product's upper 64 bits are the scaled value's integer part.
    // ⌊log2(10^-k)⌋ as a 38-bit fraction, exact over the table's range (checked by a test).
    let shift = q &+ 1 &+ (((0 &- k) &* 913_124_641_741) >> 38)
    assert(shift >= 1 && shift <= 4, "the scaled values keep below 2^60")
    let index = 2 &* (k &- smallestExponent)
    let (powerHigh, powerLow) = unsafe _shortestDecimalPowers.withUnsafeBufferPointer { table in
      unsafe (table[index], table[index &+ 1])
    }
    let middle = roundedToOdd(scaled << shift, powerHigh, powerLow)
    let lowerScaled = roundedToOdd(lower << shift, powerHigh, powerLow)
    let upperScaled = roundedToOdd(upper << shift, powerHigh, powerLow)

    let s = middle >> 2  // ⌊v × 10^-k⌋
    if s >= 10 {
      // One digit fewer: the multiples of 10^(k+1) around `v`. (Below 10, `s` itself is as
      // short as they are, so the closest of `s` and `s + 1` is chosen below instead.)
      let down = s / 10 &* 10
      let up = down &+ 10
      let downInside = lowerScaled &+ open <= down << 2
      let upInside = up << 2 &+ open <= upperScaled
      if downInside != upInside { return (downInside ? down : up, k) }
    }
    let t = s &+ 1
    let sInside = lowerScaled &+ open <= s << 2
    let tInside = t << 2 &+ open <= upperScaled
    if sInside != tInside { return (sInside ? s : t, k) }
    // Both inside: the closer one to `v`, whose scaled value is compared with the midpoint
    // `4s + 2`; the even one on a tie.
    let midpoint = s << 2 &+ 2
    let pickS = middle < midpoint || (middle == midpoint && s & 1 == 0)
    return (pickS ? s : t, k)
  }

  /// `⌊x × g / 2^128⌋` with its lowest bit set when the product is not an integer (rounded to
  /// odd), for `x < 2^60` and the 128-bit `g = high × 2^64 + low`.
  ///
  /// `g` is at most one unit above the real power of ten, so the product is at most `x / 2^128`
  /// (below `2^-68`) above the real scaled value: the real value is an integer exactly when the
  /// product's fraction is below that bound, since a non-integer one is never that close to an
  /// integer (the paper's bound), and its integer part is the product's.
  @inline(__always)
  private static func roundedToOdd(_ x: UInt64, _ high: UInt64, _ low: UInt64) -> UInt64 {
    let upper = high.multipliedFullWidth(by: x)
    let lower = low.multipliedFullWidth(by: x)
    let (fraction, carry) = upper.low.addingReportingOverflow(lower.high)
    let integer = upper.high &+ (carry ? 1 : 0)
    let inexact = fraction != 0 || lower.low >= x
    return integer | (inexact ? 1 : 0)
  }

  /// `decimal` with the trailing zeros of its significand moved into its exponent.
  private static func withoutTrailingZeros(_ decimal: (significand: UInt64, exponent: Int)) -> (
    significand: UInt64, exponent: Int
  ) {
    var (significand, exponent) = decimal
    while significand % 10 == 0 {
      significand /= 10
      exponent += 1
    }
    return (significand, exponent)
  }

  // MARK: - Text

  /// A decimal's digits as exactly 17 (its significand scaled up by a power of ten, so the
  /// first is not zero), ready to store with three writes: the first digit, then two words of
  /// eight (``eightDigits(_:)``). The zeros they end with tell how many are significant.
  private struct Digits {
    /// The first digit, in ASCII.
    var first: UInt8
    /// Digits 2–9 and 10–17, in ASCII, the first in the lowest byte.
    var high: UInt64
    var low: UInt64
    /// The number of significant digits (1...17).
    var count: Int
    /// The exponent of the first digit: the decimal is `d.ddd × 10^scientific`.
    var scientific: Int

    @inline(__always)
    init(_ decimal: (significand: UInt64, exponent: Int)) {
      let (significand, exponent) = decimal
      assert(significand > 0 && significand < 100_000_000_000_000_000, "at most 17 digits")
      let length = digitCount(significand)
      scientific = exponent &+ length &- 1
      let padded =
        unsafe significand &* _powersOfTen.withUnsafeBufferPointer { unsafe $0[17 &- length] }
      let first = padded / 10_000_000_000_000_000
      let rest = padded &- first &* 10_000_000_000_000_000
      let high = eightDigits(UInt32(truncatingIfNeeded: rest / 100_000_000))
      let low = eightDigits(UInt32(truncatingIfNeeded: rest % 100_000_000))
      let trailingZeros =
        low != 0
        ? low.leadingZeroBitCount >> 3
        : high != 0 ? 8 &+ high.leadingZeroBitCount >> 3 : 16
      count = 17 &- trailingZeros
      self.first = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: first)
      self.high = high | _asciiZeros
      self.low = low | _asciiZeros
    }

    /// Writes the 17 digits at `out` (the bytes after the significant ones are zeros).
    @inline(__always)
    func write(to out: UnsafeMutablePointer<UInt8>) {
      unsafe out[0] = first
      unsafe UnsafeMutableRawPointer(out + 1).storeBytes(of: high.littleEndian, as: UInt64.self)
      unsafe UnsafeMutableRawPointer(out + 9).storeBytes(of: low.littleEndian, as: UInt64.self)
    }
  }

  /// Writes `decimal` (a non-zero magnitude below 10^17, trailing zeros allowed) in
  /// `description`'s format at `out`; returns the byte count.
  ///
  /// The 17 digits are stored whole; the bytes past the significant ones are scratch,
  /// overwritten by what follows them or left beyond the returned count (all within
  /// ``maximumLength``), except for an integer's, whose zeros are its own.
  @inline(__always)
  private static func format(
    _ decimal: (significand: UInt64, exponent: Int), exponentForm: Bool,
    to out: UnsafeMutablePointer<UInt8>
  ) -> Int {
    let digits = Digits(decimal)
    let integerDigits = digits.scientific &+ 1
    // The common case inline: `ddd.ddd` with at most six digits before the point.
    guard !exponentForm, integerDigits > 0, integerDigits < digits.count, integerDigits <= 6
    else { return unsafe formatOthers(digits, exponentForm: exponentForm, to: out) }
    // The digits one byte to the right, then, in one word, the first eight with the integer
    // part kept in place and the digits after it moved one byte up (the ones moved out of the
    // word are in place already), stored over the first eight bytes; then the point.
    unsafe digits.write(to: out + 1)
    let leading = UInt64(digits.first) | digits.high << 8
    let kept = integerDigits &* 8
    let word = leading & ((1 &<< kept) &- 1) | (leading &>> kept) &<< (kept &+ 8)
    unsafe UnsafeMutableRawPointer(out).storeBytes(of: word.littleEndian, as: UInt64.self)
    unsafe out[integerDigits] = UInt8(ascii: ".")
    return digits.count &+ 1
  }

  /// ``format(_:exponentForm:to:)`` for everything but a short integer part with a fraction.
  @inline(never)
  private static func formatOthers(
    _ digits: Digits, exponentForm: Bool, to out: UnsafeMutablePointer<UInt8>
  ) -> Int {
    let scientific = digits.scientific
    let count = digits.count
    if exponentForm || scientific < -4 {
      // `d.ddde±XX`: the first digit, the point, the other digits, the exponent.
      unsafe digits.write(to: out + 1)
      unsafe out[0] = digits.first
      var end = 1
      if count > 1 {
        unsafe out[1] = UInt8(ascii: ".")
        end = count &+ 1
      }
      unsafe out[end] = UInt8(ascii: "e")
      unsafe out[end &+ 1] = scientific < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
      let magnitude = Int(truncatingIfNeeded: scientific.magnitude)
      if magnitude < 100 {
        unsafe writePair(magnitude, to: out + (end &+ 2))
        return end &+ 4
      }
      unsafe out[end &+ 2] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude / 100)
      unsafe writePair(magnitude % 100, to: out + (end &+ 3))
      return end &+ 5
    }
    if scientific < 0 {
      // `0.000ddd`: at most three zeros after the point.
      let zeros = 0 &- scientific
      unsafe out.update(repeating: UInt8(ascii: "0"), count: zeros &+ 1)
      unsafe out[1] = UInt8(ascii: ".")
      unsafe digits.write(to: out + (zeros &+ 1))
      return zeros &+ 1 &+ count
    }
    let integerDigits = scientific &+ 1
    if integerDigits >= count {
      // An integer (at most 2^53, so 16 digits): its digits, its zeros (those of the 17
      // written), then `.0`.
      unsafe digits.write(to: out)
      unsafe out[integerDigits] = UInt8(ascii: ".")
      unsafe out[integerDigits &+ 1] = UInt8(ascii: "0")
      return integerDigits &+ 2
    }
    // `ddd.ddd`: the digits one byte to the right, then the integer part moved left.
    unsafe digits.write(to: out + 1)
    for index in 0..<integerDigits { unsafe out[index] = unsafe out[index &+ 1] }
    unsafe out[integerDigits] = UInt8(ascii: ".")
    return count &+ 1
  }

  /// The number of decimal digits of `value` (1...20).
  @inline(__always)
  private static func digitCount(_ value: UInt64) -> Int {
    // ⌊log10(2^bits)⌋ from the bit length (1233 / 4096 ≈ log10(2)), then one comparison.
    let bits = 64 &- (value | 1).leadingZeroBitCount
    let guess = (bits &* 1233) >> 12
    let power = unsafe _powersOfTen.withUnsafeBufferPointer { unsafe $0[guess] }
    return guess &+ (value >= power ? 1 : 0)
  }

  /// The eight decimal digits of `value` (below 10^8, with leading zeros) as the bytes 0...9 of
  /// a word, the first digit in the lowest byte (the first in memory on little-endian
  /// machines; the caller stores it `littleEndian`).
  ///
  /// Lanes split in two at each step: the word's two 32-bit halves get the high and low four
  /// digits, each half's 16-bit lanes two digits each, each 16-bit lane's bytes one each. The
  /// divisions are multiplications: `(n × 10486) >> 20 = ⌊n / 100⌋` for `n` below 10^4 and
  /// `(n × 103) >> 10 = ⌊n / 10⌋` below 179, and no lane's product reaches the next lane.
  @inline(__always)
  package static func eightDigits(_ value: UInt32) -> UInt64 {
    let high = value / 10_000
    let halves = UInt64(high) | UInt64(value &- high &* 10_000) << 32
    let hundreds = ((halves &* 10486) >> 20) & 0x0000_007F_0000_007F
    let pairs = hundreds | (halves &- hundreds &* 100) << 16
    let tens = ((pairs &* 103) >> 10) & 0x000F_000F_000F_000F
    return tens | (pairs &- tens &* 10) << 8
  }

  /// Writes the two digits of `pair` (0...99) at `out`.
  @inline(__always)
  private static func writePair(_ pair: Int, to out: UnsafeMutablePointer<UInt8>) {
    // ⌊pair / 10⌋ as a multiplication: (n × 103) >> 10 = ⌊n / 10⌋ for every n below 179.
    let tens = (pair &* 103) >> 10
    unsafe out[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: tens)
    unsafe out[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair &- tens &* 10)
  }

  /// Writes `0.0` at `out`; returns the byte count.
  @inline(__always)
  private static func writeZero(to out: UnsafeMutablePointer<UInt8>) -> Int {
    unsafe out[0] = UInt8(ascii: "0")
    unsafe out[1] = UInt8(ascii: ".")
    unsafe out[2] = UInt8(ascii: "0")
    return 3
  }

  /// Writes a non-finite value's `description` (`nan`, `-inf`, ...: at most 5 bytes).
  @inline(never)
  private static func writeNonFinite(_ text: String, to out: UnsafeMutablePointer<UInt8>) -> Int {
    var count = 0
    for byte in text.utf8.prefix(maximumLength) {
      unsafe out[count] = byte
      count += 1
    }
    return count
  }
}

/// `'0'` in every byte: digits 0...9 in bytes become their ASCII text.
private let _asciiZeros: UInt64 = 0x3030_3030_3030_3030

/// `10^n` for `n` in 0...19, and `UInt64.max` for 20 (which no value reaches).
private let _powersOfTen: [UInt64] = [
  1, 10, 100, 1000, 10000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
  10_000_000_000, 100_000_000_000, 1_000_000_000_000, 10_000_000_000_000,
  100_000_000_000_000, 1_000_000_000_000_000, 10_000_000_000_000_000,
  100_000_000_000_000_000, 1_000_000_000_000_000_000, 10_000_000_000_000_000_000, .max,
]
