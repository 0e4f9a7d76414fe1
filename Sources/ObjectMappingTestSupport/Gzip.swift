/// Gzip bodies for tests (RFC 1952 members around RFC 1951 deflate data), made without a
/// compression library: a body stored as it is, and a "gzip bomb" of zeros that inflates about
/// 159-fold (3 MB on the wire become 500 MB).
///
/// ```swift
/// let server = try LoopbackServer { _ in
///   LoopbackServer.Response(
///     status: 200, headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"],
///     body: Gzip.stored(Array(#"{"id": 1}"#.utf8)))
/// }
/// let bomb = Gzip.zeros(count: 500_000_000)    // 3.1 MB
/// ```
public enum Gzip {
  /// `bytes` as a gzip member of stored (uncompressed) deflate blocks.
  ///
  /// - Parameter bytes: The content.
  /// - Returns: The gzip member; it inflates to `bytes`.
  public static func stored(_ bytes: [UInt8]) -> [UInt8] {
    var output = header
    var offset = 0
    repeat {
      let count = min(65_535, bytes.count - offset)
      let isFinal = offset + count == bytes.count
      output.append(isFinal ? 1 : 0)
      output += [UInt8(count & 0xFF), UInt8(count >> 8)]
      output += [UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
      output += bytes[offset..<(offset + count)]
      offset += count
    } while offset < bytes.count
    output += littleEndian(crc32(bytes))
    output += littleEndian(UInt32(truncatingIfNeeded: bytes.count))
    return output
  }

  /// A gzip member that inflates to `count` zero bytes: one fixed-Huffman block of a literal
  /// zero and length-258 matches at distance 1 (13 bits per 258 bytes), with a valid CRC-32.
  ///
  /// - Parameter count: The inflated size.
  /// - Returns: The gzip member, about `count / 159` bytes.
  public static func zeros(count: Int) -> [UInt8] {
    var bits = BitWriter(capacity: count / 150 + 64)
    bits.write(1, count: 1)  // BFINAL
    bits.write(1, count: 2)  // BTYPE 01: fixed Huffman codes
    let count = max(0, count)
    if count > 0 {
      bits.writeCode(0x30, length: 8)  // literal 0
      let matches = (count - 1) / 258
      // Length 258 (code 285: 11000101) then distance 1 (code 0: 00000), as one 13-bit code.
      let match = UInt64(reversed(0xC5, length: 8)) | UInt64(reversed(0, length: 5)) << 8
      for _ in 0..<matches { bits.write(match, count: 13) }
      for _ in 0..<((count - 1) % 258) { bits.writeCode(0x30, length: 8) }
    }
    bits.writeCode(0, length: 7)  // end of block
    var output = header
    output += bits.finish()
    output += littleEndian(crc32OfZeros(count: count))
    output += littleEndian(UInt32(truncatingIfNeeded: count))
    return output
  }

  /// The CRC-32 (ISO-HDLC, as gzip uses) of `bytes`.
  public static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
    }
    return crc ^ 0xFFFF_FFFF
  }

  /// The CRC-32 of `count` zero bytes, in O(log count): feeding zeros multiplies the CRC
  /// register by x^(8·count) modulo the CRC polynomial.
  public static func crc32OfZeros(count: Int) -> UInt32 {
    // Polynomials are bit-reflected: x^0 is the top bit.
    var power: UInt32 = 0x8000_0000  // x^0
    var base: UInt32 = 0x4000_0000  // x^1
    var exponent = UInt64(max(0, count)) * 8
    while exponent > 0 {
      if exponent & 1 == 1 { power = multiply(power, base) }
      base = multiply(base, base)
      exponent >>= 1
    }
    return multiply(power, 0xFFFF_FFFF) ^ 0xFFFF_FFFF
  }

  /// `a·b` modulo the (reflected) CRC-32 polynomial.
  private static func multiply(_ a: UInt32, _ b: UInt32) -> UInt32 {
    var product: UInt32 = 0
    var a = a
    var b = b
    while a != 0 {
      if a & 0x8000_0000 != 0 { product ^= b }
      a <<= 1
      b = b & 1 != 0 ? (b >> 1) ^ polynomial : b >> 1
    }
    return product
  }

  private static let polynomial: UInt32 = 0xEDB8_8320

  private static let table: [UInt32] = (0..<256).map { index in
    var value = UInt32(index)
    for _ in 0..<8 { value = value & 1 != 0 ? (value >> 1) ^ polynomial : value >> 1 }
    return value
  }

  /// ID1 ID2, deflate, no flags, no time, no extra flags, unknown OS.
  private static let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]

  private static func littleEndian(_ value: UInt32) -> [UInt8] {
    [0, 8, 16, 24].map { UInt8((value >> UInt32($0)) & 0xFF) }
  }

  private static func reversed(_ code: UInt32, length: Int) -> UInt32 {
    var result: UInt32 = 0
    for bit in 0..<length where code & (1 << UInt32(bit)) != 0 {
      result |= 1 << UInt32(length - 1 - bit)
    }
    return result
  }

  /// Bits written least significant first, as deflate packs them.
  private struct BitWriter {
    private var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var used = 0

    init(capacity: Int) {
      bytes.reserveCapacity(capacity)
    }

    /// Writes the low `count` bits of `value` (at most 32).
    mutating func write(_ value: UInt64, count: Int) {
      buffer |= value << UInt64(used)
      used += count
      while used >= 8 {
        bytes.append(UInt8(buffer & 0xFF))
        buffer >>= 8
        used -= 8
      }
    }

    /// Writes a Huffman code, most significant bit first.
    mutating func writeCode(_ code: UInt32, length: Int) {
      write(UInt64(reversed(code, length: length)), count: length)
    }

    mutating func finish() -> [UInt8] {
      if used > 0 { bytes.append(UInt8(buffer & 0xFF)) }
      return bytes
    }
  }
}
