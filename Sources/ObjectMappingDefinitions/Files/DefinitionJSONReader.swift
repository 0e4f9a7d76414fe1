/// Reads the JSON of definition files: RFC 8259 plus `//` and `/* */` comments and trailing
/// commas (AppCoreKit's `.mappings` files have both), keeping where every value and key was
/// written.
///
/// Definition files are small and written by people, so the reader favours clear errors over
/// speed: it works on the text's Unicode scalars, counts lines and columns as it goes, and
/// stops at the first syntax error with its line and column. Nesting deeper than
/// ``maximumDepth`` is an error, never a stack overflow.
struct DefinitionJSONReader {
  static let maximumDepth = 256

  private var cursor: _TextCursor

  init(_ text: String, file: String) {
    cursor = _TextCursor(text, file: file)
  }

  /// Reads the whole text as one value.
  static func read(_ text: String, file: String) throws(DefinitionError) -> DefinitionValue {
    var reader = DefinitionJSONReader(text, file: file)
    try reader.skipTrivia()
    let value = try reader.readValue(depth: 0)
    try reader.skipTrivia()
    if reader.current != nil {
      throw reader.error("unexpected \(reader.describeCurrent()) after the end of the document")
    }
    return value
  }

  private var location: DefinitionLocation { cursor.location }
  private var current: Unicode.Scalar? { cursor.current }
  private mutating func advance() { cursor.advance() }
  private func error(_ message: String, at location: DefinitionLocation? = nil) -> DefinitionError {
    cursor.error(message, at: location)
  }

  private func describeCurrent() -> String {
    guard let current else { return "end of file" }
    if current.properties.isWhitespace || current.value < 0x20 {
      return "character U+\(String(current.value, radix: 16, uppercase: true))"
    }
    return "\"\(current)\""
  }

  /// Skips whitespace and comments.
  private mutating func skipTrivia() throws(DefinitionError) {
    while let scalar = current {
      switch scalar {
      case " ", "\t", "\n", "\r", "\u{FEFF}":
        advance()
      case "/":
        let start = location
        let next = cursor.peek(1)
        if next == "/" {
          while let inner = current, inner != "\n" { advance() }
        } else if next == "*" {
          advance()
          advance()
          var closed = false
          while let inner = current {
            if inner == "*", cursor.peek(1) == "/" {
              advance()
              advance()
              closed = true
              break
            }
            advance()
          }
          if !closed { throw error("a /* comment is not closed", at: start) }
        } else {
          throw error("unexpected \"/\" (comments start with // or /*)")
        }
      default:
        return
      }
    }
  }

  private mutating func readValue(depth: Int) throws(DefinitionError) -> DefinitionValue {
    let start = location
    guard let scalar = current else { throw error("expected a value, found the end of file") }
    switch scalar {
    case "{":
      guard depth < Self.maximumDepth else {
        throw error("nesting deeper than \(Self.maximumDepth) levels")
      }
      return DefinitionValue(kind: .object(try readMembers(depth: depth)), location: start)
    case "[":
      guard depth < Self.maximumDepth else {
        throw error("nesting deeper than \(Self.maximumDepth) levels")
      }
      return DefinitionValue(kind: .array(try readElements(depth: depth)), location: start)
    case "\"":
      return DefinitionValue(kind: .string(try readString()), location: start)
    case "-", "0"..."9":
      return DefinitionValue(kind: .number(try readNumber()), location: start)
    case "t", "f", "n":
      let word = readWord()
      switch word {
      case "true": return DefinitionValue(kind: .bool(true), location: start)
      case "false": return DefinitionValue(kind: .bool(false), location: start)
      case "null": return DefinitionValue(kind: .null, location: start)
      default: throw error("unexpected word \"\(word)\"", at: start)
      }
    default:
      throw error("expected a value, found \(describeCurrent())")
    }
  }

  private mutating func readWord() -> String {
    var word = ""
    while let scalar = current, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
      word.unicodeScalars.append(scalar)
      advance()
    }
    return word
  }

  private mutating func readMembers(depth: Int) throws(DefinitionError) -> [DefinitionValue.Member]
  {
    advance()  // {
    var members: [DefinitionValue.Member] = []
    while true {
      try skipTrivia()
      if current == "}" {
        advance()
        return members
      }
      guard current == "\"" else {
        throw error("expected a quoted key or \"}\", found \(describeCurrent())")
      }
      let keyLocation = location
      let key = try readString()
      try skipTrivia()
      guard current == ":" else {
        throw error("expected \":\" after the key \"\(key)\", found \(describeCurrent())")
      }
      advance()
      try skipTrivia()
      let value = try readValue(depth: depth + 1)
      members.append(DefinitionValue.Member(key: key, keyLocation: keyLocation, value: value))
      try skipTrivia()
      if current == "," {
        advance()
      } else if current != "}" {
        throw error("expected \",\" or \"}\" after a member, found \(describeCurrent())")
      }
    }
  }

  private mutating func readElements(depth: Int) throws(DefinitionError) -> [DefinitionValue] {
    advance()  // [
    var elements: [DefinitionValue] = []
    while true {
      try skipTrivia()
      if current == "]" {
        advance()
        return elements
      }
      elements.append(try readValue(depth: depth + 1))
      try skipTrivia()
      if current == "," {
        advance()
      } else if current != "]" {
        throw error("expected \",\" or \"]\" after an element, found \(describeCurrent())")
      }
    }
  }

  private mutating func readString() throws(DefinitionError) -> String {
    let start = location
    advance()  // "
    var text = String.UnicodeScalarView()
    while true {
      guard let scalar = current else { throw error("a string is not closed", at: start) }
      switch scalar {
      case "\"":
        advance()
        return String(text)
      case "\\":
        advance()
        text.append(try readEscape())
      case "\n":
        throw error("a string is not closed before the end of the line", at: start)
      default:
        if scalar.value < 0x20 { throw error("a control character in a string must be escaped") }
        text.append(scalar)
        advance()
      }
    }
  }

  private mutating func readEscape() throws(DefinitionError) -> Unicode.Scalar {
    guard let scalar = current else { throw error("an escape is cut off by the end of file") }
    advance()
    switch scalar {
    case "\"", "\\", "/": return scalar
    case "b": return "\u{08}"
    case "f": return "\u{0C}"
    case "n": return "\n"
    case "r": return "\r"
    case "t": return "\t"
    case "u":
      let high = try readHex()
      if (0xD800..<0xDC00).contains(high) {
        guard current == "\\", cursor.peek(1) == "u" else {
          throw error("a lone high surrogate \\u\(String(high, radix: 16))")
        }
        advance()
        advance()
        let low = try readHex()
        guard (0xDC00..<0xE000).contains(low),
          let combined = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        else { throw error("an invalid surrogate pair") }
        return combined
      }
      guard let decoded = Unicode.Scalar(high) else {
        throw error("a lone low surrogate \\u\(String(high, radix: 16))")
      }
      return decoded
    default:
      throw error("unknown escape \\\(scalar)")
    }
  }

  private mutating func readHex() throws(DefinitionError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let scalar = current, let digit = UInt32(String(scalar), radix: 16) else {
        throw error("\\u needs four hexadecimal digits")
      }
      value = value << 4 | digit
      advance()
    }
    return value
  }

  private mutating func readNumber() throws(DefinitionError) -> String {
    let start = location
    var text = ""
    func isDigit(_ scalar: Unicode.Scalar?) -> Bool {
      scalar.map { ("0"..."9").contains($0) } ?? false
    }
    if current == "-" {
      text.append("-")
      advance()
    }
    guard isDigit(current) else { throw error("a number needs a digit", at: start) }
    if current == "0" {
      text.append("0")
      advance()
      if isDigit(current) { throw error("a number cannot start with 0", at: start) }
    }
    while isDigit(current), let scalar = current {
      text.unicodeScalars.append(scalar)
      advance()
    }
    if current == "." {
      text.append(".")
      advance()
      guard isDigit(current) else { throw error("a fraction needs a digit", at: start) }
      while isDigit(current), let scalar = current {
        text.unicodeScalars.append(scalar)
        advance()
      }
    }
    if current == "e" || current == "E" {
      text.append("e")
      advance()
      if let sign = current, sign == "+" || sign == "-" {
        text.unicodeScalars.append(sign)
        advance()
      }
      guard isDigit(current) else { throw error("an exponent needs a digit", at: start) }
      while isDigit(current), let scalar = current {
        text.unicodeScalars.append(scalar)
        advance()
      }
    }
    return text
  }
}
