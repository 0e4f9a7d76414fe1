import Foundation

/// The input of a ``FastJSONDecoder`` call, made into what the reader scans as
/// `JSONDecoder` makes it: UTF-16 and UTF-32 text converted to UTF-8, a brace-less top-level
/// object given its braces (`assumesTopLevelDictionary`), JSON5 read by its own reader.
enum JSONInput {
  case data(Data)
  case bytes([UInt8])
  case string(String)

  /// Scans the input and calls `body` with a view of its index, valid during the call.
  ///
  /// - Throws: `FormatError` when the input is not JSON (or not JSON5); `body` is not called.
  func scan<Result>(with options: DecodingOptions, _ body: (_UnsafeTapeView) -> Result)
    throws(FormatError) -> Result
  {
    switch self {
    case .string(let string):
      return try Self.scan(.string(string), utf8: string.utf8, options, body)
    case .data(let data):
      if let text = try Self.transcoded(data) {
        return try Self.scan(.string(text), utf8: text.utf8, options, body)
      }
      return try Self.scan(.data(data), utf8: data, options, body)
    case .bytes(let bytes):
      if let text = try Self.transcoded(bytes) {
        return try Self.scan(.string(text), utf8: text.utf8, options, body)
      }
      return try Self.scan(.bytes(bytes), utf8: bytes, options, body)
    }
  }

  /// Scans UTF-8 `text` (whose bytes `utf8` also gives, for the checks that read a few).
  private static func scan<Result>(
    _ text: _JSONText, utf8: some Collection<UInt8>, _ options: DecodingOptions,
    _ body: (_UnsafeTapeView) -> Result
  ) throws(FormatError) -> Result {
    var text = text
    if options.assumesTopLevelDictionary,
      let braced = Self.braced(utf8, json5: options.allowsJSON5)
    {
      text = .bytes(braced)
    }
    if options.allowsJSON5 {
      let tape = try text.withUTF8 { bytes throws(FormatError) in
        try JSON5Reader.read(bytes, options: options.reading)
      }
      return tape.withView(body)
    }
    return try text.scan(options: options.reading, body)
  }

  /// `utf8` between braces when its first character (past spaces and a byte order mark, and
  /// in JSON5 past comments) is not `{`: the object `assumesTopLevelDictionary` assumes; `nil`
  /// when it is one already. In JSON5 the closing brace goes on a line of its own, so that a
  /// `//` comment that ends the text does not take it in.
  private static func braced(_ utf8: some Collection<UInt8>, json5: Bool) -> [UInt8]? {
    var bytes = Array(utf8)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
    let first =
      json5 ? JSON5Reader.firstSignificantByte(of: bytes) : bytes.first { !isJSONSpace($0) }
    guard first != UInt8(ascii: "{") else { return nil }
    var braced: [UInt8] = [UInt8(ascii: "{")]
    braced.reserveCapacity(bytes.count + 3)
    braced += bytes
    if json5 { braced.append(0x0A) }
    braced.append(UInt8(ascii: "}"))
    return braced
  }

  /// The text of `bytes` when they are UTF-16 or UTF-32 (without their byte order mark);
  /// `nil` for UTF-8. The encoding is told as `JSONDecoder` tells it: by a byte order mark, or
  /// by where the zero bytes of the first two characters (ASCII in JSON) are.
  ///
  /// One difference: `FF FE 00 00` is UTF-32 little-endian's byte order mark here, where
  /// `JSONDecoder` takes it for UTF-16's (`FF FE`) and then fails on the zero bytes.
  ///
  /// - Throws: `FormatError` when the bytes are not valid text in the encoding found.
  static func transcoded(_ bytes: some Collection<UInt8>) throws(FormatError) -> String? {
    var iterator = bytes.makeIterator()
    let first = (iterator.next(), iterator.next(), iterator.next(), iterator.next())
    let encoding: String.Encoding
    let markLength: Int
    switch first {
    case (0, 0, 0xFE, 0xFF): (encoding, markLength) = (.utf32BigEndian, 4)
    case (0xFF, 0xFE, 0, 0): (encoding, markLength) = (.utf32LittleEndian, 4)
    // `JSONDecoder` also takes `FE FF 00 00` for UTF-32 little-endian (its mark's bytes in
    // big-endian order); as UTF-16 it would be a mark and U+0000, which no JSON starts with.
    case (0xFE, 0xFF, 0, 0): (encoding, markLength) = (.utf32LittleEndian, 4)
    case (0xFE, 0xFF, _, _): (encoding, markLength) = (.utf16BigEndian, 2)
    case (0xFF, 0xFE, _, _): (encoding, markLength) = (.utf16LittleEndian, 2)
    case (0, 0, 0, .some(let last)) where last != 0: (encoding, markLength) = (.utf32BigEndian, 0)
    case (0, .some(let a), 0, .some(let b)) where a != 0 && b != 0:
      (encoding, markLength) = (.utf16BigEndian, 0)
    case (.some(let a), 0, 0, 0) where a != 0: (encoding, markLength) = (.utf32LittleEndian, 0)
    case (.some(let a), 0, .some(let b), 0) where a != 0 && b != 0:
      (encoding, markLength) = (.utf16LittleEndian, 0)
    case (0, .some(let a), nil, nil) where a != 0: (encoding, markLength) = (.utf16BigEndian, 0)
    case (.some(let a), 0, nil, nil) where a != 0: (encoding, markLength) = (.utf16LittleEndian, 0)
    default: return nil
    }
    guard let text = String(bytes: bytes.dropFirst(markLength), encoding: encoding) else {
      throw FormatError(
        .syntax(
          message: "the text is not valid \(encoding.description)",
          location: TextLocation(offset: 0, line: 1, column: 1)))
    }
    return text
  }
}

/// Whether `byte` is JSON whitespace (space, tab, line feed, carriage return).
func isJSONSpace(_ byte: UInt8) -> Bool {
  byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
}

extension _JSONText {
  /// Calls `body` with the text's UTF-8 bytes as an array (JSON5 input, read by a reader that
  /// builds its own index).
  fileprivate func withUTF8<Result>(
    _ body: ([UInt8]) throws(FormatError) -> Result
  ) throws(FormatError) -> Result {
    switch self {
    case .data(let data): return try body(Array(data))
    case .bytes(let bytes): return try body(bytes)
    case .string(let string): return try body(Array(string.utf8))
    }
  }
}
