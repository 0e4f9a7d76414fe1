import Foundation

/// The JSON5 reader of ``FastJSONDecoder/allowsJSON5``: reads what `JSONDecoder` reads with
/// `allowsJSON5` into the same index (``_Tape``) the JSON reader makes, so decoding works on
/// it unchanged.
///
/// The dialect is `JSONDecoder`'s JSON5: `//` and `/* */` comments; whitespace also `\v`, `\f`
/// and the byte `A0`; unquoted keys (letters, digits, marks, `_`, `$`, escapes);
/// single-quoted strings; the escapes `\'`, `\xHH` and a backslash before a line break (which
/// stays in the string), but not `\0`, `\x00` or `\u0000`; numbers with a leading `+`, a
/// leading or trailing `.`, hexadecimal digits (`0x1F`), `Infinity` and `NaN`; a trailing
/// comma in arrays and objects.
///
/// Strings are stored unescaped and numbers in JSON form (`+.5` as `0.5`, `0x1F` as `31`), so
/// the decoder reads them as it reads JSON; `Infinity` and `NaN` are kept as written, for the
/// floating-point types to read (``json5Special(_:as:)``). One difference: a malformed number
/// or escape is an error where it is, when `JSONDecoder` reports it only once a model reads
/// that value.
struct JSON5Reader {
  private let input: [UInt8]
  private var position = 0
  private var entries: [_TapeEntry] = []
  /// Unescaped string contents and number texts, which the entries point into.
  private var storage: [UInt8] = []
  private let options: JSONReadingOptions

  private init(_ input: [UInt8], options: JSONReadingOptions) {
    self.input = input
    self.options = options
    storage.reserveCapacity(input.count)
  }

  /// The index of the JSON5 text `input`.
  ///
  /// - Throws: `FormatError` with the line and column of the first problem.
  static func read(_ input: [UInt8], options: JSONReadingOptions) throws(FormatError) -> _Tape {
    var reader = JSON5Reader(input, options: options)
    if input.starts(with: [0xEF, 0xBB, 0xBF]) { reader.position = 3 }
    try reader.readValue(depth: 0)
    if let byte = try reader.skipSpace() {
      throw reader.error("unexpected character '\(Self.describe(byte))' after the top-level value")
    }
    return try _Tape(unpacked: reader.entries, bytes: reader.storage)
  }

  /// The first byte of `input` past its whitespace and comments, as the reader skips them;
  /// `nil` when there is none (or a comment does not end).
  static func firstSignificantByte(of input: [UInt8]) -> UInt8? {
    var reader = JSON5Reader(input, options: JSONReadingOptions())
    return try? reader.skipSpace()
  }

  // MARK: Values

  private mutating func readValue(depth: Int) throws(FormatError) {
    guard let byte = try skipSpace() else { throw error("unexpected end of the text") }
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "'"):
      position += 1
      let (start, length) = try readString(until: byte)
      entries.append(_TapeEntry(kind: .string, length: UInt32(length), payload: Int64(start)))
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      try readContainer(isObject: byte == UInt8(ascii: "{"), depth: depth + 1)
    case UInt8(ascii: "t"): try readLiteral("true", .true)
    case UInt8(ascii: "f"): try readLiteral("false", .false)
    case UInt8(ascii: "n"): try readLiteral("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "I"),
      UInt8(ascii: "N"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      try readNumber()
    default:
      throw error("unexpected character '\(Self.describe(byte))'")
    }
  }

  private mutating func readContainer(isObject: Bool, depth: Int) throws(FormatError) {
    guard depth <= options.maximumDepth else {
      throw FormatError(
        .depthLimitExceeded(limit: options.maximumDepth, location: location(at: position)))
    }
    position += 1
    let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
    let start = entries.count
    entries.append(_TapeEntry(kind: isObject ? .object : .array))
    var count = 0
    while true {
      guard let byte = try skipSpace() else { throw error("unexpected end of the text") }
      if byte == close {
        position += 1
        break
      }
      if isObject {
        try readKey()
        guard try skipSpace() == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
        position += 1
      }
      try readValue(depth: depth)
      count += 1
      guard let next = try skipSpace() else { throw error("unexpected end of the text") }
      if next == UInt8(ascii: ",") {
        position += 1
      } else if next != close {
        throw error("expected ',' or '\(Self.describe(close))', found '\(Self.describe(next))'")
      }
    }
    entries[start].length = UInt32(truncatingIfNeeded: count)
    entries[start].payload = Int64(entries.count)
    guard count < Int(UInt32.max) else { throw error("too many elements") }
  }

  private mutating func readKey() throws(FormatError) {
    let byte = input[position]
    let start: Int
    let length: Int
    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
      position += 1
      (start, length) = try readString(until: byte)
    } else {
      (start, length) = try readUnquotedKey()
    }
    entries.append(_TapeEntry(kind: .string, length: UInt32(length), payload: Int64(start)))
  }

  private mutating func readLiteral(_ literal: StaticString, _ kind: _TapeKind) throws(FormatError)
  {
    let count = literal.utf8CodeUnitCount
    guard position + count <= input.count,
      input[position..<position + count].elementsEqual(literal.description.utf8)
    else {
      throw error("invalid literal, expected \(literal)")
    }
    position += count
    entries.append(_TapeEntry(kind: kind))
  }

  // MARK: Strings

  /// Reads a string's content up to `quote` (the opening quote already read) into the
  /// storage, unescaped: returns where it starts there and its length.
  private mutating func readString(until quote: UInt8) throws(FormatError) -> (Int, Int) {
    let start = storage.count
    var runStart = position
    while true {
      guard position < input.count else { throw error("unterminated string") }
      let byte = input[position]
      if byte == quote {
        try appendRun(from: runStart)
        position += 1
        return (start, storage.count - start)
      }
      if byte == UInt8(ascii: "\\") {
        try appendRun(from: runStart)
        position += 1
        try readEscape()
        runStart = position
        continue
      }
      guard byte >= 0x20 else { throw error("unescaped control character in a string") }
      position += 1
    }
  }

  /// Reads an unquoted key into the storage: letters, digits, marks, `_`, `$` and escapes.
  private mutating func readUnquotedKey() throws(FormatError) -> (Int, Int) {
    let start = storage.count
    var first = true
    while position < input.count {
      if input[position] == UInt8(ascii: "\\") {
        position += 1
        try readEscape()
        first = false
        continue
      }
      guard let (scalar, length) = decodeScalar(at: position) else {
        throw error("invalid UTF-8 in a key")
      }
      guard Self.isKeyCharacter(scalar, first: first) else { break }
      storage.append(contentsOf: input[position..<position + length])
      position += length
      first = false
    }
    guard !first else { throw error("expected a key") }
    return (start, storage.count - start)
  }

  /// Copies `input[start..<position]` (raw string bytes) to the storage, checking its UTF-8.
  private mutating func appendRun(from start: Int) throws(FormatError) {
    guard start < position else { return }
    let run = input[start..<position]
    guard String(validating: run, as: UTF8.self) != nil else {
      throw FormatError(.invalidUTF8(location: location(at: start)))
    }
    storage.append(contentsOf: run)
  }

  /// Reads one escape (after its backslash) into the storage.
  private mutating func readEscape() throws(FormatError) {
    guard position < input.count else { throw error("unterminated string") }
    let byte = input[position]
    position += 1
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "\\"), UInt8(ascii: "/"):
      storage.append(byte)
    case UInt8(ascii: "b"): storage.append(0x08)
    case UInt8(ascii: "f"): storage.append(0x0C)
    case UInt8(ascii: "n"): storage.append(0x0A)
    case UInt8(ascii: "r"): storage.append(0x0D)
    case UInt8(ascii: "t"): storage.append(0x09)
    case 0x0A:
      storage.append(0x0A)
    case 0x0D:
      storage.append(0x0D)
      if position < input.count, input[position] == 0x0A {
        storage.append(0x0A)
        position += 1
      }
    case UInt8(ascii: "x"):
      guard let value = hexValue(digits: 2), value != 0 else {
        throw error("invalid \\x escape")
      }
      append(Unicode.Scalar(UInt8(value)))
    case UInt8(ascii: "u"):
      guard let unit = hexValue(digits: 4), unit != 0 else { throw error("invalid \\u escape") }
      var scalar = Unicode.Scalar(unit)
      if unit >= 0xD800 && unit < 0xDC00, position + 6 <= input.count,
        input[position] == UInt8(ascii: "\\"), input[position + 1] == UInt8(ascii: "u")
      {
        position += 2
        guard let low = hexValue(digits: 4), low >= 0xDC00 && low < 0xE000 else {
          throw error("lone surrogate in a \\u escape")
        }
        scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
      }
      guard let scalar else {
        guard options.loneSurrogates == .replace else {
          throw error("lone surrogate in a \\u escape")
        }
        return append("\u{FFFD}")
      }
      append(scalar)
    default:
      throw error("invalid escape '\\\(Self.describe(byte))'")
    }
  }

  private mutating func append(_ scalar: Unicode.Scalar) {
    storage.append(contentsOf: String(Character(scalar)).utf8)
  }

  /// The value of the next `digits` hexadecimal digits, read; `nil` if they are not that.
  private mutating func hexValue(digits: Int) -> UInt32? {
    guard position + digits <= input.count else { return nil }
    var value: UInt32 = 0
    for byte in input[position..<position + digits] {
      guard let digit = Self.hexDigit(byte) else { return nil }
      value = value << 4 | UInt32(digit)
    }
    position += digits
    return value
  }

  // MARK: Numbers

  /// Reads a number: stored as an integer entry, or as JSON number text (`Infinity` and `NaN`
  /// as written, with their sign).
  private mutating func readNumber() throws(FormatError) {
    let start = position
    while position < input.count {
      let byte = input[position]
      let isLetter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
      guard
        (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: ".")
          || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || isLetter
      else { break }
      position += 1
    }
    var token = Array(input[start..<position])
    var sign: [UInt8] = []
    if token.first == UInt8(ascii: "-") || token.first == UInt8(ascii: "+") {
      if token.first == UInt8(ascii: "-") { sign = [UInt8(ascii: "-")] }
      token.removeFirst()
    }
    if token.elementsEqual("Infinity".utf8) || token.elementsEqual("NaN".utf8) {
      return appendNumber(sign + token, integral: false)
    }
    if token.count > 2, token[0] == UInt8(ascii: "0"), token[1] | 0x20 == UInt8(ascii: "x") {
      return try appendHex(token.dropFirst(2), negative: !sign.isEmpty, text: sign + token)
    }
    guard let (normalized, integral) = Self.normalizedDecimal(token) else {
      throw FormatError(
        .invalidNumber(text: String(decoding: input[start..<position], as: UTF8.self)))
    }
    let text = sign + normalized
    if integral, text != Array("-0".utf8), let value = Int64(String(decoding: text, as: UTF8.self))
    {
      entries.append(_TapeEntry(kind: .integer, payload: value))
      return
    }
    appendNumber(text, integral: integral)
  }

  private mutating func appendHex(_ digits: ArraySlice<UInt8>, negative: Bool, text: [UInt8])
    throws(FormatError)
  {
    var magnitude: UInt64 = 0
    var overflow = false
    for byte in digits {
      guard let digit = Self.hexDigit(byte) else {
        throw FormatError(.invalidNumber(text: String(decoding: text, as: UTF8.self)))
      }
      let (shifted, over) = magnitude.multipliedReportingOverflow(by: 16)
      overflow = overflow || over
      magnitude = shifted | UInt64(digit)
    }
    guard !overflow else {
      // Kept as written: no type reads it (as `JSONDecoder` reads no such number).
      return appendNumber(text, integral: false)
    }
    let decimal = (negative ? "-" : "") + String(magnitude)
    if let value = Int64(decimal) {
      entries.append(_TapeEntry(kind: .integer, payload: value))
    } else {
      appendNumber(Array(decimal.utf8), integral: true)
    }
  }

  private mutating func appendNumber(_ text: [UInt8], integral: Bool) {
    let start = storage.count
    storage.append(contentsOf: text)
    entries.append(
      _TapeEntry(
        kind: .number, flags: integral ? _TapeEntry.numberIsIntegral : 0,
        length: UInt32(text.count), payload: Int64(start)))
  }

  /// `token` (a number without its sign) as JSON number text, and whether it is integral;
  /// `nil` when it is not a JSON5 number.
  private static func normalizedDecimal(_ token: [UInt8]) -> ([UInt8], Bool)? {
    var index = 0
    func digits() -> [UInt8] {
      let start = index
      while index < token.count, token[index] >= 0x30, token[index] <= 0x39 { index += 1 }
      return Array(token[start..<index])
    }
    let whole = digits()
    if whole.count > 1, whole[0] == UInt8(ascii: "0") { return nil }
    var fraction: [UInt8] = []
    var hasPoint = false
    if index < token.count, token[index] == UInt8(ascii: ".") {
      hasPoint = true
      index += 1
      fraction = digits()
    }
    guard !whole.isEmpty || !fraction.isEmpty else { return nil }
    var exponent: [UInt8] = []
    if index < token.count, token[index] | 0x20 == UInt8(ascii: "e") {
      index += 1
      var exponentSign: [UInt8] = []
      if index < token.count, token[index] == UInt8(ascii: "+") || token[index] == UInt8(ascii: "-")
      {
        exponentSign = [token[index]]
        index += 1
      }
      let exponentDigits = digits()
      guard !exponentDigits.isEmpty else { return nil }
      exponent = [UInt8(ascii: "e")] + exponentSign + exponentDigits
    }
    guard index == token.count else { return nil }
    var text = whole.isEmpty ? [UInt8(ascii: "0")] : whole
    if hasPoint, !fraction.isEmpty { text += [UInt8(ascii: ".")] + fraction }
    text += exponent
    return (text, fraction.isEmpty && exponent.isEmpty)
  }

  // MARK: Space and comments

  /// Skips whitespace and comments; returns the next byte (not consumed), or `nil` at the end.
  private mutating func skipSpace() throws(FormatError) -> UInt8? {
    while position < input.count {
      let byte = input[position]
      switch byte {
      case 0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C, 0xA0:
        position += 1
      case UInt8(ascii: "/"):
        guard position + 1 < input.count else { return byte }
        if input[position + 1] == UInt8(ascii: "/") {
          position += 2
          while position < input.count, input[position] != 0x0A, input[position] != 0x0D {
            position += 1
          }
        } else if input[position + 1] == UInt8(ascii: "*") {
          let start = position
          position += 2
          while true {
            guard position + 1 < input.count else {
              position = start
              throw error("unterminated comment")
            }
            if input[position] == UInt8(ascii: "*"), input[position + 1] == UInt8(ascii: "/") {
              position += 2
              break
            }
            position += 1
          }
        } else {
          return byte
        }
      default:
        return byte
      }
    }
    return nil
  }

  // MARK: Characters

  private static func isKeyCharacter(_ scalar: Unicode.Scalar, first: Bool) -> Bool {
    // `_` is connector punctuation, which may not start a key otherwise: test it first.
    if scalar == "_" || scalar == "$" { return true }
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
      .letterNumber:
      return true
    case .nonspacingMark, .spacingMark, .decimalNumber, .connectorPunctuation:
      return !first
    default:
      return !first && (scalar == "\u{200C}" || scalar == "\u{200D}")
    }
  }

  private func decodeScalar(at offset: Int) -> (Unicode.Scalar, Int)? {
    var iterator = input[offset...].makeIterator()
    var decoder = UTF8()
    switch decoder.decode(&iterator) {
    case .scalarValue(let scalar): return (scalar, UTF8.width(scalar))
    default: return nil
    }
  }

  private static func hexDigit(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
  }

  private static func describe(_ byte: UInt8) -> String {
    byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\u{\(String(byte, radix: 16))}"
  }

  // MARK: Errors

  private func error(_ message: String) -> FormatError {
    FormatError(.syntax(message: message, location: location(at: min(position, input.count))))
  }

  /// The line and column (in Unicode scalars) of byte `offset`.
  private func location(at offset: Int) -> TextLocation {
    var line = 1
    var column = 1
    var index = 0
    while index < offset {
      let byte = input[index]
      if byte == 0x0A || (byte == 0x0D && (index + 1 >= input.count || input[index + 1] != 0x0A)) {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
      index += 1
    }
    return TextLocation(offset: offset, line: line, column: column)
  }
}

/// `Infinity` or `NaN` (with a sign) as a floating-point value, as `JSONDecoder` reads them
/// with `allowsJSON5`; `nil` for other texts.
func json5Special<T: BinaryFloatingPoint>(_ text: String, as type: T.Type) -> T? {
  switch text {
  case "Infinity": return .infinity
  case "-Infinity": return -.infinity
  case "NaN": return .nan
  case "-NaN": return -.nan
  default: return nil
  }
}

/// `Infinity` or `NaN` as a `Decimal` (NaN, as `JSONDecoder` reads both); `nil` otherwise.
func json5Decimal(_ text: String) -> Decimal? {
  json5Special(text, as: Double.self) == nil ? nil : .nan
}
