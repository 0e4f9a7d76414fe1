/// Decompression of `gzip` and `deflate` response bodies (RFC 1952, RFC 1950 and RFC 1951) for
/// ``SocketTransport``, without a compression library: array-based, linear in its input and
/// output, and stopped as soon as the output passes a limit (a 500 MB "gzip bomb" costs no more
/// than the limit).
enum Inflate {
  enum Failure: Error, Equatable {
    /// The output passed the limit.
    case tooLarge
    /// The data is not valid (a bad header, code, distance or checksum, or it ends early), or
    /// is in a coding this decoder does not know.
    case invalid
    /// The transfer was cancelled meanwhile.
    case cancelled
  }

  /// The most codings a `Content-Encoding` field may list: each layer may cost up to the limit's
  /// worth of work, so a short body of hundreds of stored layers would cost minutes of CPU
  /// (libcurl stops at 5 too; a real server applies one, rarely two).
  static let maximumCodings = 5

  /// The content of `data` decoded with the content codings of a `Content-Encoding` field, in
  /// the order they were applied (`gzip`, `x-gzip`, `deflate`, `identity`); another coding
  /// (`br`), or more than ``maximumCodings``, is ``Failure/invalid``, since its data cannot be
  /// read. `cancelled` is asked every 64 KiB of output. Empty data stays empty (a `HEAD`, a
  /// `304`).
  static func decode(
    _ data: [UInt8], codings: [String], limit: Int, cancelled: () -> Bool = { false }
  ) throws(Failure) -> [UInt8] {
    guard codings.count <= maximumCodings else { throw .invalid }
    var data = data
    for coding in codings.reversed() where !data.isEmpty {
      switch coding {
      case "gzip", "x-gzip": data = try gunzip(data, limit: limit, cancelled: cancelled)
      case "deflate": data = try inflateZlib(data, limit: limit, cancelled: cancelled)
      case "identity": continue
      default: throw .invalid
      }
    }
    return data
  }

  /// The content of one or more gzip members; bytes after a member that do not start another
  /// are ignored, as libcurl ignores them.
  static func gunzip(_ data: [UInt8], limit: Int, cancelled: () -> Bool = { false })
    throws(Failure) -> [UInt8]
  {
    var output: [UInt8] = []
    var position = 0
    repeat {
      // The limit counts every member's output together.
      position = try member(
        data, from: position, into: &output, limit: limit - output.count, cancelled: cancelled)
    } while position + 1 < data.count && data[position] == 0x1F && data[position + 1] == 0x8B
    return output
  }

  /// Decodes the gzip member at `start` into `output`; the position after it.
  private static func member(
    _ data: [UInt8], from start: Int, into output: inout [UInt8], limit: Int,
    cancelled: () -> Bool
  ) throws(Failure) -> Int {
    guard data.count - start >= 18, data[start] == 0x1F, data[start + 1] == 0x8B,
      data[start + 2] == 8
    else { throw .invalid }
    let flags = data[start + 3]
    // Reserved flag bits must be zero (RFC 1952, 2.3.1.2), as zlib requires.
    guard flags & 0xE0 == 0 else { throw .invalid }
    var position = start + 10
    if flags & 0x04 != 0 {
      guard position + 2 <= data.count else { throw .invalid }
      position += 2 + Int(data[position]) + Int(data[position + 1]) << 8
    }
    for flag in [UInt8(0x08), 0x10] where flags & flag != 0 {
      while position < data.count, data[position] != 0 { position += 1 }
      position += 1
    }
    if flags & 0x02 != 0 {
      // The header's own CRC-16: the low half of the CRC-32 of the bytes before it.
      guard position + 2 <= data.count,
        UInt32(data[position]) | UInt32(data[position + 1]) << 8
          == crc32(data[start..<position]) & 0xFFFF
      else { throw .invalid }
      position += 2
    }
    guard position < data.count else { throw .invalid }
    let first = output.count
    var reader = BitReader(data, from: position)
    try inflate(&reader, into: &output, limit: limit, cancelled: cancelled)
    position = reader.byteAlignedPosition
    guard position + 8 <= data.count else { throw .invalid }
    let crc = littleEndian(data, position)
    let size = littleEndian(data, position + 4)
    guard crc == crc32(output[first...]), size == UInt32(truncatingIfNeeded: output.count - first)
    else { throw .invalid }
    return position + 8
  }

  /// The content of zlib data (RFC 1950), or of raw deflate data, which some servers send for
  /// `deflate`.
  static func inflateZlib(_ data: [UInt8], limit: Int, cancelled: () -> Bool = { false })
    throws(Failure) -> [UInt8]
  {
    var output: [UInt8] = []
    let isZlib =
      data.count >= 2 && data[0] & 0x0F == 8 && (Int(data[0]) << 8 | Int(data[1])) % 31 == 0
      && data[1] & 0x20 == 0
    var reader = BitReader(data, from: isZlib ? 2 : 0)
    try inflate(&reader, into: &output, limit: limit, cancelled: cancelled)
    // The Adler-32 of the content, when the stream has it (a stream cut just before it is
    // accepted, as zlib in libcurl accepts it): a wrong one is corrupt data.
    let position = reader.byteAlignedPosition
    if isZlib, position + 4 <= data.count {
      let stored =
        UInt32(data[position]) << 24 | UInt32(data[position + 1]) << 16
        | UInt32(data[position + 2]) << 8 | UInt32(data[position + 3])
      guard stored == adler32(output) else { throw .invalid }
    }
    return output
  }

  /// Adler-32 (RFC 1950) of `bytes`.
  static func adler32(_ bytes: [UInt8]) -> UInt32 {
    var (a, b): (UInt32, UInt32) = (1, 0)
    var start = 0
    while start < bytes.count {
      // 5,552 bytes is the most that cannot overflow `b` before the modulo (zlib's NMAX).
      let end = min(start + 5_552, bytes.count)
      for byte in bytes[start..<end] {
        a &+= UInt32(byte)
        b &+= a
      }
      a %= 65_521
      b %= 65_521
      start = end
    }
    return b << 16 | a
  }

  private static func littleEndian(_ data: [UInt8], _ at: Int) -> UInt32 {
    UInt32(data[at]) | UInt32(data[at + 1]) << 8 | UInt32(data[at + 2]) << 16
      | UInt32(data[at + 3]) << 24
  }

  /// CRC-32 (IEEE) of `bytes`.
  static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
    }
    return ~crc
  }

  private static let crcTable: [UInt32] = (0..<256).map { index in
    var value = UInt32(index)
    for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
    return value
  }

  // MARK: Deflate (RFC 1951)

  struct BitReader {
    let data: [UInt8]
    var position: Int
    var buffer: UInt32 = 0
    var count = 0

    init(_ data: [UInt8], from position: Int) {
      self.data = data
      self.position = position
    }

    /// The next `needed` bits (at most 16), least significant first.
    mutating func bits(_ needed: Int) throws(Failure) -> Int {
      while count < needed {
        guard position < data.count else { throw .invalid }
        buffer |= UInt32(data[position]) << UInt32(count)
        position += 1
        count += 8
      }
      let value = Int(buffer & ((1 << UInt32(needed)) - 1))
      buffer >>= UInt32(needed)
      count -= needed
      return value
    }

    /// Drops the bits left of the current byte.
    mutating func alignToByte() {
      buffer = 0
      count = 0
    }

    /// The position of the first byte not consumed (after aligning).
    var byteAlignedPosition: Int { position - count / 8 }
  }

  /// A canonical Huffman code: the number of codes of each length and the symbols in order.
  struct Huffman {
    var counts = [Int](repeating: 0, count: 16)
    var symbols: [Int]

    /// The code of the code lengths `lengths`; `nil` when they are over-subscribed.
    init?(_ lengths: [Int]) {
      for length in lengths { counts[length] += 1 }
      counts[0] = 0
      var left = 1
      for length in 1..<16 {
        left <<= 1
        left -= counts[length]
        if left < 0 { return nil }
      }
      var offsets = [Int](repeating: 0, count: 16)
      for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
      symbols = [Int](repeating: 0, count: lengths.count)
      for (symbol, length) in lengths.enumerated() where length != 0 {
        symbols[offsets[length]] = symbol
        offsets[length] += 1
      }
    }

    func decode(_ reader: inout BitReader) throws(Failure) -> Int {
      var code = 0
      var first = 0
      var index = 0
      for length in 1..<16 {
        code |= try reader.bits(1)
        let count = counts[length]
        if code - count < first { return symbols[index + (code - first)] }
        index += count
        first += count
        first <<= 1
        code <<= 1
      }
      throw .invalid
    }
  }

  private static let lengthBase = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
    131, 163, 195, 227, 258,
  ]
  private static let lengthExtra = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
  ]
  private static let distanceBase = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
  ]
  private static let distanceExtra = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
  ]
  private static let fixedLiterals = Huffman(
    [Int](repeating: 8, count: 144) + [Int](repeating: 9, count: 112)
      + [Int](repeating: 7, count: 24) + [Int](repeating: 8, count: 8))
  private static let fixedDistances = Huffman([Int](repeating: 5, count: 30))
  private static let lengthOrder = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
  ]

  /// Decodes deflate blocks from `reader` into `output` up to the last block.
  static func inflate(
    _ reader: inout BitReader, into output: inout [UInt8], limit: Int, cancelled: () -> Bool
  ) throws(Failure) {
    let start = output.count
    var isLast = false
    while !isLast {
      if cancelled() { throw .cancelled }
      isLast = try reader.bits(1) == 1
      switch try reader.bits(2) {
      case 0:
        reader.alignToByte()
        let at = reader.position
        guard at + 4 <= reader.data.count else { throw .invalid }
        let length = Int(reader.data[at]) | Int(reader.data[at + 1]) << 8
        let check = Int(reader.data[at + 2]) | Int(reader.data[at + 3]) << 8
        guard length == ~check & 0xFFFF, at + 4 + length <= reader.data.count else {
          throw .invalid
        }
        guard output.count - start + length <= limit else { throw .tooLarge }
        output += reader.data[(at + 4)..<(at + 4 + length)]
        reader.position = at + 4 + length
      case 1:
        guard let literals = fixedLiterals, let distances = fixedDistances else { throw .invalid }
        try codes(
          &reader, literals, distances, into: &output, start: start, limit: limit,
          cancelled: cancelled)
      case 2:
        let (literals, distances) = try dynamicCodes(&reader)
        try codes(
          &reader, literals, distances, into: &output, start: start, limit: limit,
          cancelled: cancelled)
      default:
        throw .invalid
      }
    }
  }

  private static func dynamicCodes(_ reader: inout BitReader) throws(Failure) -> (
    Huffman, Huffman
  ) {
    let literalCount = try reader.bits(5) + 257
    let distanceCount = try reader.bits(5) + 1
    let lengthCount = try reader.bits(4) + 4
    guard literalCount <= 286, distanceCount <= 30 else { throw .invalid }
    var lengthLengths = [Int](repeating: 0, count: 19)
    for index in 0..<lengthCount { lengthLengths[lengthOrder[index]] = try reader.bits(3) }
    guard let lengthCode = Huffman(lengthLengths) else { throw .invalid }
    var lengths: [Int] = []
    lengths.reserveCapacity(literalCount + distanceCount)
    while lengths.count < literalCount + distanceCount {
      let symbol = try lengthCode.decode(&reader)
      switch symbol {
      case 0..<16:
        lengths.append(symbol)
      case 16:
        guard let previous = lengths.last else { throw .invalid }
        lengths += repeatElement(previous, count: 3 + (try reader.bits(2)))
      case 17:
        lengths += repeatElement(0, count: 3 + (try reader.bits(3)))
      default:
        lengths += repeatElement(0, count: 11 + (try reader.bits(7)))
      }
    }
    guard lengths.count == literalCount + distanceCount, lengths[256] != 0,
      let literals = Huffman(Array(lengths[..<literalCount])),
      let distances = Huffman(Array(lengths[literalCount...]))
    else { throw .invalid }
    return (literals, distances)
  }

  private static func codes(
    _ reader: inout BitReader, _ literals: Huffman, _ distances: Huffman,
    into output: inout [UInt8], start: Int, limit: Int, cancelled: () -> Bool
  ) throws(Failure) {
    var nextCheck = output.count + 65_536
    while true {
      if output.count >= nextCheck {
        if cancelled() { throw .cancelled }
        nextCheck = output.count + 65_536
      }
      let symbol = try literals.decode(&reader)
      if symbol < 256 {
        guard output.count - start < limit else { throw .tooLarge }
        output.append(UInt8(symbol))
        continue
      }
      if symbol == 256 { return }
      let lengthIndex = symbol - 257
      guard lengthIndex < lengthBase.count else { throw .invalid }
      let length = lengthBase[lengthIndex] + (try reader.bits(lengthExtra[lengthIndex]))
      let distanceIndex = try distances.decode(&reader)
      guard distanceIndex < distanceBase.count else { throw .invalid }
      let distance =
        distanceBase[distanceIndex] + (try reader.bits(distanceExtra[distanceIndex]))
      guard distance <= output.count - start else { throw .invalid }
      guard output.count - start + length <= limit else { throw .tooLarge }
      var from = output.count - distance
      for _ in 0..<length {
        output.append(output[from])
        from += 1
      }
    }
  }
}
