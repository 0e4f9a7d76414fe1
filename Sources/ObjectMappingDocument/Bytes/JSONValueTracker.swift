/// Follows one JSON value byte by byte without validating it: enough structure (strings and
/// their escapes, the nesting of brackets, comments, the end of a number or literal) to know
/// where the value ends, whatever chunks its bytes arrive in.
///
/// The stream reader (``_JSONStreamReader``) uses it to cut a stream into values; the scanner
/// then validates each value in its real context. A byte the tracker reports as an
/// ``Step/anomaly`` is an error in any JSON text (a bracket closing the wrong container, a
/// control character in a string, nesting past the limit, `/` not starting a comment): the
/// reader stops there and lets the scanner name the first error.
struct JSONValueTracker {
  /// What a byte did to the value.
  enum Step {
    /// The value goes on.
    case inside
    /// The value ends with this byte (a closing bracket or quote).
    case endsAfter
    /// The value (a number or a literal) ended before this byte, which is not part of it.
    case endsBefore
    /// This byte is an error in any JSON text.
    case anomaly
  }

  /// A comment being skipped (lenient reading only).
  enum Comment: UInt8 {
    case none, slash, line, block, blockStar
  }

  private enum Mode: UInt8 {
    case container, string, scalar
  }

  private var mode = Mode.container
  /// Whether each open container is an object (`true`) or an array.
  private var containers: [Bool] = []
  private(set) var inString = false
  private var escaped = false
  private var comment = Comment.none
  /// Whether `//` and `/* */` comments are whitespace.
  let allowsComments: Bool
  /// How many containers the value may open (the reading options' depth limit minus the
  /// value's own depth).
  var depthLimit: Int

  init(allowsComments: Bool, depthLimit: Int) {
    self.allowsComments = allowsComments
    self.depthLimit = depthLimit
  }

  /// How many containers are open.
  var depth: Int { containers.count }

  /// Starts a value whose first byte is `byte` (not whitespace).
  mutating func begin(_ byte: UInt8) -> Step {
    containers.removeAll(keepingCapacity: true)
    inString = false
    escaped = false
    comment = .none
    switch byte {
    case JSONByte.openBracket, JSONByte.openBrace:
      mode = .container
      return open(byte)
    case JSONByte.quote:
      mode = .string
      inString = true
      return .inside
    default:
      mode = .scalar
      return .inside
    }
  }

  /// Follows the value with its next byte.
  @inline(__always)
  mutating func step(_ byte: UInt8) -> Step {
    if inString {
      if escaped {
        escaped = false
      } else if byte == JSONByte.backslash {
        escaped = true
      } else if byte == JSONByte.quote {
        inString = false
        if mode == .string { return .endsAfter }
      } else if byte < 0x20 {
        return .anomaly
      }
      return .inside
    }
    switch mode {
    case .scalar:
      return JSONByte.endsScalar(byte, allowsComments: allowsComments) ? .endsBefore : .inside
    case .string:
      return .endsAfter  // not reached: a string value ends with its closing quote
    case .container:
      if comment != .none {
        return Self.follow(&comment, byte) ? .inside : .anomaly
      }
      switch byte {
      case JSONByte.quote:
        inString = true
      case JSONByte.openBracket, JSONByte.openBrace:
        return open(byte)
      case JSONByte.closeBracket, JSONByte.closeBrace:
        guard let isObject = containers.last, isObject == (byte == JSONByte.closeBrace) else {
          return .anomaly
        }
        containers.removeLast()
        if containers.isEmpty { return .endsAfter }
      case JSONByte.slash where allowsComments:
        comment = .slash
      default:
        break
      }
      return .inside
    }
  }

  /// Follows a container value over `input[index..<end]` much faster than ``step(_:)`` byte
  /// by byte, with the same result: string contents are skipped eight bytes at a time (up to a
  /// quote, a backslash or a control character), and outside strings only brackets and quotes
  /// are looked at.
  ///
  /// Returns where it stopped and why: ``Step/endsAfter`` or ``Step/anomaly`` after the byte
  /// that ends the value or is an error (as ``step(_:)`` reports them); ``Step/inside`` at `end`
  /// when every byte was followed, or before `end` when the byte there needs ``step(_:)`` (the
  /// value is not a container, a comment is open or starts there). Outside strings too, the
  /// bytes are taken eight at a time up to the next quote, bracket or brace.
  @inline(__always)
  mutating func scan(_ input: UnsafeRawBufferPointer, from index: Int, to end: Int)
    -> (index: Int, step: Step)
  {
    guard mode == .container, comment == .none, let base = input.baseAddress else {
      return (index, .inside)
    }
    var index = index
    var inString = self.inString
    defer { self.inString = inString }
    if escaped, index < end {
      escaped = false
      index &+= 1
    }
    while index < end {
      if inString {
        // Eight bytes at a time up to the first quote, backslash or control character.
        var found = false
        while index &+ 8 <= end {
          let word = UInt64(
            littleEndian: unsafe (base + index).loadUnaligned(as: UInt64.self))
          let bytes =
            Self.firstZeroByte(word ^ 0x2222_2222_2222_2222)
            | Self.firstZeroByte(word ^ 0x5C5C_5C5C_5C5C_5C5C) | Self.firstControlByte(word)
          if bytes != 0 {
            index &+= bytes.trailingZeroBitCount &>> 3
            found = true
            break
          }
          index &+= 8
        }
        if !found {
          while index < end {
            let byte = unsafe input[index]
            if byte == JSONByte.quote || byte == JSONByte.backslash || byte < 0x20 { break }
            index &+= 1
          }
          guard index < end else { break }
        }
        let byte = unsafe input[index]
        index &+= 1
        if byte == JSONByte.quote {
          inString = false
          // The next string often follows at once (`":"`, `","`).
          if index &+ 1 < end, unsafe input[index &+ 1] == JSONByte.quote {
            let between = unsafe input[index]
            if between == JSONByte.colon || between == JSONByte.comma {
              index &+= 2
              inString = true
            }
          }
        } else if byte == JSONByte.backslash {
          guard index < end else {
            escaped = true
            break
          }
          index &+= 1
        } else {
          return (index, .anomaly)
        }
        continue
      }
      // Outside strings: eight bytes at a time up to the first quote, bracket or brace (or
      // slash, where comments are allowed).
      while index &+ 8 <= end {
        let word = UInt64(
          littleEndian: unsafe (base + index).loadUnaligned(as: UInt64.self))
        var bytes =
          Self.firstZeroByte(word ^ 0x2222_2222_2222_2222)
          | Self.firstZeroByte((word & 0xD9D9_D9D9_D9D9_D9D9) ^ 0x5959_5959_5959_5959)
        if allowsComments { bytes |= Self.firstZeroByte(word ^ 0x2F2F_2F2F_2F2F_2F2F) }
        if bytes != 0 {
          index &+= bytes.trailingZeroBitCount &>> 3
          break
        }
        index &+= 8
      }
      guard index < end else { break }
      let byte = unsafe input[index]
      if byte == JSONByte.quote {
        inString = true
      } else if byte & 0xD9 == 0x59 {
        // `[`, `]`, `{`, `}` (and `Y`, `_`, `y`, DEL, which go on).
        switch byte {
        case JSONByte.openBracket, JSONByte.openBrace:
          if open(byte) == .anomaly { return (index + 1, .anomaly) }
        case JSONByte.closeBracket, JSONByte.closeBrace:
          guard let isObject = containers.last, isObject == (byte == JSONByte.closeBrace) else {
            return (index + 1, .anomaly)
          }
          containers.removeLast()
          if containers.isEmpty { return (index + 1, .endsAfter) }
        default:
          break
        }
      } else if byte == JSONByte.slash, allowsComments {
        return (index, .inside)
      }
      index &+= 1
    }
    return (index, .inside)
  }

  /// The high bit of the first (lowest) byte of `word` that is zero, and maybe of bytes after
  /// it (a borrow runs on from a zero byte), never of a byte before it: only the lowest set bit
  /// counts. Or-ed with another such mask, the lowest set bit is the first byte of either.
  @inline(__always)
  static func firstZeroByte(_ word: UInt64) -> UInt64 {
    (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
  }

  /// The high bit of the first byte of `word` under 0x20 (a control character), as
  /// ``firstZeroByte(_:)`` marks it.
  @inline(__always)
  static func firstControlByte(_ word: UInt64) -> UInt64 {
    (word &- 0x2020_2020_2020_2020) & ~word & 0x8080_8080_8080_8080
  }

  private mutating func open(_ byte: UInt8) -> Step {
    guard containers.count < depthLimit else { return .anomaly }
    containers.append(byte == JSONByte.openBrace)
    return .inside
  }

  /// Follows a comment with `byte`; `false` when `byte` is an error (`/` not followed by `/`
  /// or `*`). A line comment ends before its line break, which is whitespace.
  @inline(__always)
  static func follow(_ comment: inout Comment, _ byte: UInt8) -> Bool {
    switch comment {
    case .none:
      return true
    case .slash:
      if byte == JSONByte.slash {
        comment = .line
      } else if byte == JSONByte.star {
        comment = .block
      } else {
        return false
      }
    case .line:
      if byte == JSONByte.newline || byte == JSONByte.carriageReturn { comment = .none }
    case .block:
      if byte == JSONByte.star { comment = .blockStar }
    case .blockStar:
      if byte == JSONByte.slash {
        comment = .none
      } else if byte != JSONByte.star {
        comment = .block
      }
    }
    return true
  }
}

/// The bytes the stream reader looks at.
enum JSONByte {
  static let tab = UInt8(ascii: "\t")
  static let newline = UInt8(ascii: "\n")
  static let carriageReturn = UInt8(ascii: "\r")
  static let space = UInt8(ascii: " ")
  static let quote = UInt8(ascii: "\"")
  static let comma = UInt8(ascii: ",")
  static let slash = UInt8(ascii: "/")
  static let star = UInt8(ascii: "*")
  static let colon = UInt8(ascii: ":")
  static let openBracket = UInt8(ascii: "[")
  static let closeBracket = UInt8(ascii: "]")
  static let openBrace = UInt8(ascii: "{")
  static let closeBrace = UInt8(ascii: "}")
  static let backslash = UInt8(ascii: "\\")

  /// JSON whitespace.
  @inline(__always)
  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == space || byte == newline || byte == carriageReturn || byte == tab
  }

  /// Whether `byte` ends a number or a literal: whitespace, a structural character, a quote,
  /// or `/` where comments are allowed. Anything else is part of the token (the scanner then
  /// says what is wrong with `12x` or `tru`).
  @inline(__always)
  static func endsScalar(_ byte: UInt8, allowsComments: Bool) -> Bool {
    switch byte {
    case space, newline, carriageReturn, tab, comma, colon, quote, openBracket, closeBracket,
      openBrace, closeBrace:
      return true
    case slash:
      return allowsComments
    default:
      return false
    }
  }
}
