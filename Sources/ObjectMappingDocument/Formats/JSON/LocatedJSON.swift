/// A JSON value with the place of every value and every key in its text: what readers of
/// hand-written files (definition files) need to point their own errors at the right line and
/// column.
///
/// ```swift
/// let value = try _LocatedJSON.read(#"{"name": 1}"#, options: .lenient)
/// value.members?.first?.keyLocation    // line 1, column 2 (byte 1)
/// value.members?.first?.value.location // line 1, column 10 (byte 9)
/// ```
///
/// It is the document layer's JSON reader, not a second one: the text is first scanned by
/// ``_JSONScanner`` with the given options (so what it accepts, and every syntax, UTF-8 and
/// depth error with its location, is exactly the scanner's), then the scanned tape is turned
/// into values while one pass over the validated bytes finds where each tape entry starts.
/// Lines and columns are counted as ``_JSONScanner/location(of:in:)`` counts them for
/// ``FormatError``: `\n`, `\r\n` and `\r` each end a line, columns count Unicode scalars from 1,
/// and a leading byte order mark is not counted.
///
/// Time and memory are linear in the text; nothing recurses per level of nesting (the tape is
/// walked with an explicit stack), so the depth the options allow costs no call stack while
/// reading. Destroying a deep value recurses, as a `Node` does: keep ``JSONReadingOptions/maximumDepth``
/// in the hundreds.
package struct _LocatedJSON: Sendable {
  /// What a value is.
  package enum Kind: Sendable {
    case object([Member])
    case array([_LocatedJSON])
    case string(String)
    /// A number as written (`12`, `-1.5e3`).
    case number(String)
    case bool(Bool)
    case null
  }

  /// A member of an object: its key, where the key's opening quote is, and its value.
  package struct Member: Sendable {
    package var key: String
    package var keyLocation: TextLocation
    package var value: _LocatedJSON

    package init(key: String, keyLocation: TextLocation, value: _LocatedJSON) {
      self.key = key
      self.keyLocation = keyLocation
      self.value = value
    }
  }

  /// What the value is.
  package var kind: Kind
  /// Where the value starts: its first character (`{`, `[`, the opening quote, the number's
  /// first digit or sign, the literal's first letter).
  package var location: TextLocation

  package init(kind: Kind, location: TextLocation) {
    self.kind = kind
    self.location = location
  }

  /// The members of an object; `nil` for other kinds.
  package var members: [Member]? {
    if case .object(let members) = kind { return members }
    return nil
  }

  /// Reads `text`, one JSON value in the dialect `options` allow (``JSONReadingOptions/lenient``
  /// for comments, trailing commas and a byte order mark).
  ///
  /// - Throws: `FormatError`, exactly as `Node(jsonString:options:)` throws it for the same
  ///   text: syntax, invalid UTF-8 and nesting deeper than `options.maximumDepth`, each with
  ///   its line and column.
  package static func read(_ text: String, options: JSONReadingOptions) throws(FormatError)
    -> _LocatedJSON
  {
    let bytes = Array(text.utf8)
    return try read(bytes, options: options)
  }

  /// ``read(_:options:)`` for UTF-8 bytes.
  package static func read(_ bytes: [UInt8], options: JSONReadingOptions) throws(FormatError)
    -> _LocatedJSON
  {
    let result = try _JSONText.bytes(bytes).scan(options: options) {
      view -> Result<_LocatedJSON, FormatError> in
      let tokens = TokenStarts(bytes)
      let count = view.next(after: 0)
      guard tokens.starts.count == count else {
        // Cannot happen for text the scanner accepted; reported rather than trusted.
        return .failure(
          FormatError(
            .syntax(
              message: "the reader found \(tokens.starts.count) values where the scanner found "
                + "\(count)", location: TextLocation(offset: 0, line: 1, column: 1))))
      }
      var counter = _LineCounter(bytes)
      let locations = tokens.starts.map { counter.location(of: $0) }
      return .success(build(view, bytes: bytes, tokens: tokens, locations: locations))
    }
    return try result.get()
  }

  /// One open container while the tape is turned into values.
  private struct Frame {
    var isObject: Bool
    var location: TextLocation
    var remaining: Int
    var elements: [_LocatedJSON] = []
    var members: [Member] = []
    /// The key of the member whose value is being built.
    var key: (String, TextLocation)?
  }

  /// The values of the tape, built with an explicit stack (no recursion per level).
  private static func build(
    _ view: _UnsafeTapeView, bytes: [UInt8], tokens: TokenStarts, locations: [TextLocation]
  ) -> _LocatedJSON {
    var stack: [Frame] = []
    var index = 0
    while true {
      var finished: _LocatedJSON?
      // In an object, a key entry comes before each value.
      if let top = stack.indices.last, stack[top].isObject, stack[top].key == nil {
        stack[top].key = (view.string(at: index), locations[index])
        index += 1
      }
      let entry = view[index]
      let location = locations[index]
      switch entry.kind {
      case .object, .array:
        let count = view.count(at: index)
        index += 1
        if count == 0 {
          finished = _LocatedJSON(
            kind: entry.kind == .object ? .object([]) : .array([]), location: location)
        } else {
          stack.append(Frame(isObject: entry.kind == .object, location: location, remaining: count))
        }
      case .string:
        finished = _LocatedJSON(kind: .string(view.string(at: index)), location: location)
        index += 1
      case .integer, .number:
        let text = String(decoding: bytes[tokens.starts[index]..<tokens.ends[index]], as: UTF8.self)
        finished = _LocatedJSON(kind: .number(text), location: location)
        index += 1
      case .true, .false:
        finished = _LocatedJSON(kind: .bool(entry.kind == .true), location: location)
        index += 1
      case .null:
        finished = _LocatedJSON(kind: .null, location: location)
        index += 1
      }
      // Hands the finished value to its container, closing the containers it completes.
      while var value = finished {
        guard let top = stack.indices.last else { return value }
        if stack[top].isObject, let (key, keyLocation) = stack[top].key {
          stack[top].members.append(Member(key: key, keyLocation: keyLocation, value: value))
          stack[top].key = nil
        } else {
          stack[top].elements.append(value)
        }
        stack[top].remaining -= 1
        guard stack[top].remaining == 0 else { break }
        let frame = stack.removeLast()
        value = _LocatedJSON(
          kind: frame.isObject ? .object(frame.members) : .array(frame.elements),
          location: frame.location)
        finished = value
      }
    }
  }
}

/// Where each value and key of validated JSON text starts (and, for a scalar, where it ends), in
/// document order: the order of the scanned tape's entries.
///
/// Only for text the scanner accepted, so the walk needs no error handling: between tokens it
/// skips whitespace, comments, commas, colons and closing brackets; a string ends at its
/// unescaped closing quote; a number or a literal at the next delimiter.
private struct TokenStarts {
  var starts: [Int] = []
  var ends: [Int] = []

  init(_ bytes: [UInt8]) {
    let count = bytes.count
    var index = 0
    if count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { index = 3 }
    while index < count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "]"),
        UInt8(ascii: "}"):
        index += 1
      case UInt8(ascii: "/"):
        if index + 1 < count && bytes[index + 1] == UInt8(ascii: "/") {
          index += 2
          while index < count && bytes[index] != 0x0A && bytes[index] != 0x0D { index += 1 }
        } else {
          index += 2
          while index + 1 < count
            && !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/"))
          {
            index += 1
          }
          index += 2
        }
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        starts.append(index)
        index += 1
        ends.append(index)
      case UInt8(ascii: "\""):
        starts.append(index)
        index += 1
        while index < count && bytes[index] != UInt8(ascii: "\"") {
          index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        index += 1
        ends.append(min(index, count))
      default:
        starts.append(index)
        while index < count && !Self.endsToken(bytes[index]) { index += 1 }
        ends.append(index)
      }
    }
  }

  private static func endsToken(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "]"),
      UInt8(ascii: "}"), UInt8(ascii: "/"):
      return true
    default:
      return false
    }
  }
}

/// Turns increasing byte offsets into lines and columns in one pass over the text, counting as
/// ``_JSONScanner/location(of:in:)`` does (which rescans from the start for each offset).
package struct _LineCounter {
  private let bytes: [UInt8]
  private var index = 0
  private var line = 1
  private var column = 1
  /// The byte before `index` was a `\r`: a `\n` right after it ends no second line.
  private var afterReturn = false

  package init(_ bytes: [UInt8]) {
    self.bytes = bytes
    if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { index = 3 }
  }

  /// The location of `offset`, which is not before any offset asked for earlier.
  package mutating func location(of offset: Int) -> TextLocation {
    let limit = min(offset, bytes.count)
    while index < limit {
      let byte = bytes[index]
      if byte == 0x0A {
        if !afterReturn {
          line += 1
          column = 1
        }
        afterReturn = false
      } else if byte == 0x0D {
        line += 1
        column = 1
        afterReturn = true
      } else {
        if byte & 0xC0 != 0x80 { column += 1 }
        afterReturn = false
      }
      index += 1
    }
    return TextLocation(offset: offset, line: line, column: column)
  }
}
