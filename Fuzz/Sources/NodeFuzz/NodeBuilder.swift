import Foundation
import ObjectMapping

/// Turns fuzz bytes into a `Node` built directly, not read from text: numbers of every
/// representation (decimal text of any length, doubles from raw bits including NaN and
/// infinities), strings of arbitrary Unicode, odd keys (empty, duplicated, dotted, JSON Pointer
/// characters, control characters), and nesting deeper than the readers' limit.
struct NodeBuilder {
  private var bytes: [UInt8]
  private var position = 0
  /// The deepest nesting built so far (a scalar at the top is depth 0).
  private(set) var deepest = 0
  /// Whether a NaN or infinite `.double` was built (the JSON writer must then refuse).
  private(set) var hasNonFinite = false
  /// Whether an object with two members of the same key was built.
  private(set) var hasDuplicateKeys = false

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  var isAtEnd: Bool { position >= bytes.count }

  mutating func byte() -> UInt8 {
    guard position < bytes.count else { return 0 }
    defer { position += 1 }
    return bytes[position]
  }

  mutating func uint64() -> UInt64 {
    var value: UInt64 = 0
    for _ in 0..<8 { value = value << 8 | UInt64(byte()) }
    return value
  }

  /// Digits `0`–`9`, `count` of them, taken from the input (cycled when it runs out).
  mutating func digits(_ count: Int, nonZeroFirst: Bool) -> String {
    var text = ""
    text.reserveCapacity(count)
    for index in 0..<count {
      var digit = byte() % 10
      if index == 0 && nonZeroFirst && digit == 0 { digit = 1 }
      text.append(Character(Unicode.Scalar(48 + digit)))
    }
    return text
  }

  /// Valid JSON number text: sign, integer part, fraction and exponent of varying lengths; one
  /// in sixteen is very long (up to 20 000 digits).
  mutating func numberText() -> String {
    let shape = byte()
    var text = shape & 1 == 0 ? "" : "-"
    let long = shape & 0xF0 == 0xF0
    let integerDigits = long ? Int(byte()) * 80 + 1 : Int(byte() % 24) + 1
    text += digits(integerDigits, nonZeroFirst: integerDigits > 1)
    if shape & 2 != 0 { text += "." + digits(Int(byte() % 30) + 1, nonZeroFirst: false) }
    if shape & 4 != 0 {
      text += ["e", "E", "e+", "e-"][Int(byte() % 4)]
      text += digits(Int(byte() % 6) + 1, nonZeroFirst: false)
    }
    return text
  }

  /// A string from the input's bytes (invalid UTF-8 repaired), sometimes with control
  /// characters, quotes, backslashes and non-BMP scalars mixed in.
  mutating func string() -> String {
    let length = Int(byte() % 40)
    var scalars = String.UnicodeScalarView()
    for _ in 0..<length {
      let raw = byte()
      switch raw {
      case 0xF0...0xF7: scalars.append("\u{1F600}")
      case 0xF8...0xFB: scalars.append(Unicode.Scalar(UInt8(raw & 0x1F)))
      case 0xFC: scalars.append("\u{FEFF}")
      case 0xFD: scalars.append("\u{2028}")
      case 0xFE: scalars.append("\"")
      case 0xFF: scalars.append("\\")
      default: scalars.append(Unicode.Scalar(raw))
      }
    }
    return String(scalars)
  }

  /// Keys that stress paths and lookups.
  mutating func key(previous: [Node.Member]) -> String {
    let choice = byte()
    switch choice % 12 {
    case 0: return ""
    case 1:
      if let last = previous.last { return last.key }
      return "a"
    case 2: return "a.b"
    case 3: return "/~0~1"
    case 4: return "(x)"
    case 5: return "[0]"
    case 6: return String(repeating: "k", count: Int(byte()) * 8)
    case 7: return "id"
    default: return string()
    }
  }

  /// The next node, at most `budget` containers deep below `depth`.
  mutating func node(depth: Int = 0) -> Node {
    deepest = max(deepest, depth)
    let op = byte()
    switch op % 14 {
    case 0: return .null
    case 1: return .bool(op & 0x80 != 0)
    case 2: return .integer(Int64(bitPattern: uint64()))
    case 3:
      let value = Double(bitPattern: uint64())
      if !value.isFinite { hasNonFinite = true }
      return .double(value)
    case 4:
      let value = Double(Int64(bitPattern: uint64()) % 1_000_000) / 64
      return .double(value)
    case 5, 6: return .decimal(numberText())
    case 7, 8: return .string(string())
    case 9 where depth < 40, 10 where depth < 40:
      var elements: [Node] = []
      for _ in 0..<Int(byte() % 6) where !isAtEnd { elements.append(node(depth: depth + 1)) }
      return .array(elements)
    case 11 where depth < 40, 12 where depth < 40:
      var members: [Node.Member] = []
      for _ in 0..<Int(byte() % 6) where !isAtEnd {
        let key = key(previous: members)
        if members.contains(where: { $0.key == key }) { hasDuplicateKeys = true }
        members.append(Node.Member(key, node(depth: depth + 1)))
      }
      return .object(members)
    case 13 where depth == 0:
      // Deep nesting around one leaf: up to 1 020 levels, past the readers' 512 limit.
      let levels = Int(byte()) * 4
      var result = node(depth: levels)
      for level in 0..<levels {
        result = level % 3 == 0 ? .object([Node.Member("n", result)]) : .array([result])
      }
      return result
    default: return .string(string())
    }
  }
}
