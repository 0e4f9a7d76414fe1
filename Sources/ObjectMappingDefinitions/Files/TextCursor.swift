/// A position in the text of a definition file, moved one Unicode scalar at a time, that knows
/// its line and column: what both definition readers (JSON and property list) read with.
struct TextCursor {
  private let scalars: [Unicode.Scalar]
  let file: String
  private var offset = 0
  private var position = LinePosition()

  init(_ text: String, file: String) {
    scalars = Array(text.unicodeScalars)
    self.file = file
  }

  /// Where the cursor is.
  var location: DefinitionLocation {
    DefinitionLocation(file: file, line: position.line, column: position.column)
  }

  /// The scalar at the cursor; `nil` at the end.
  var current: Unicode.Scalar? { peek(0) }

  /// The scalar `distance` past the cursor; `nil` past the end.
  func peek(_ distance: Int) -> Unicode.Scalar? {
    offset + distance < scalars.count ? scalars[offset + distance] : nil
  }

  /// Whether the text at the cursor starts with `prefix`.
  func starts(with prefix: String) -> Bool {
    var distance = 0
    for scalar in prefix.unicodeScalars {
      guard peek(distance) == scalar else { return false }
      distance += 1
    }
    return true
  }

  /// Moves past `count` scalars (stopping at the end), counting lines.
  mutating func advance(_ count: Int = 1) {
    for _ in 0..<count {
      guard let scalar = current else { return }
      offset += 1
      position.move(past: scalar)
    }
  }

  /// A syntax error at `location`, or at the cursor.
  func error(_ message: String, at location: DefinitionLocation? = nil) -> DefinitionError {
    DefinitionError(.syntax, at: location ?? self.location, message)
  }
}

/// A line and column in a file's text, moved one Unicode scalar at a time: lines end at LF,
/// CR LF or a lone CR (as XML 1.0 reads them, and the JSON reader counts them), columns count
/// scalars from 1. The one count of every definition reader and check.
struct LinePosition {
  private(set) var line = 1
  private(set) var column = 1
  private var afterCR = false

  /// Moves past `scalar`.
  mutating func move(past scalar: Unicode.Scalar) {
    if scalar == "\r" || (scalar == "\n" && !afterCR) {
      line += 1
      column = 1
    } else if scalar != "\n" {
      column += 1
    }
    afterCR = scalar == "\r"
  }
}
