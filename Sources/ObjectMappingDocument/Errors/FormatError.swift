/// A problem found while reading or writing a payload format: JSON text, form URL-encoded text,
/// or Foundation objects.
///
/// Readers and writers of ``Node`` throw this error; they know nothing of mappings. Mapping a
/// payload wraps it into a `MappingError` with the same path and the same text, so an error reads
/// alike whether it came from `Node(jsonData:)` or from a mapping's `map(_:)`. Its
/// ``description`` is one stable line that tests may compare in full:
///
/// ```swift
/// do {
///   _ = try Node(jsonString: #"{"id": 1,}"#)
/// } catch let error as FormatError {
///   error.description
///   // syntax error at line 1, column 10 (byte 9): expected a string key after ',' in an
///   // object, found '}'
/// }
/// ```
public struct FormatError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The JSON Pointer (RFC 6901) of the failing value; `""` is the whole document (every
  /// syntax error but a duplicate key's).
  public var path: String
  /// What went wrong.
  public var kind: Kind

  /// Creates an error at `path`.
  ///
  /// ```swift
  /// let error = FormatError(path: "/values/2", .nonFiniteNumber(value: "nan"))
  /// error.description  // /values/2: cannot write the non-finite number nan
  /// ```
  ///
  /// - Parameters:
  ///   - path: The JSON Pointer of the failing value (`""`: the whole document).
  ///   - kind: What went wrong.
  public init(path: String = "", _ kind: Kind) {
    self.path = path
    self.kind = kind
  }

  /// The kinds of problem a reader or a writer finds.
  public enum Kind: Sendable, Equatable {
    /// The text is not valid in its format: `message` says what was expected and found.
    case syntax(message: String, location: TextLocation)
    /// Arrays and objects nest deeper than the reader's limit. `location` has line 0 when the
    /// input is not text (``Node/init(foundation:maximumDepth:)``): the path says where.
    case depthLimitExceeded(limit: Int, location: TextLocation)
    /// The bytes are not valid UTF-8.
    case invalidUTF8(location: TextLocation)
    /// A `Double` that is NaN or infinite cannot be written: `value` is its description.
    case nonFiniteNumber(value: String)
    /// A ``Node/decimal(_:)-enum.case`` whose text is not a JSON number was read as a number: `text` is
    /// the decimal's text.
    case invalidNumber(text: String)
    /// A value cannot be written in the requested format: `reason` says why.
    case notRepresentable(reason: String)
  }

  /// The error as one line: the path (when not the whole document), then what went wrong.
  ///
  /// Text from the payload is escaped and shortened as in every error of the library (control
  /// characters as `\n` or `\u001B`; a value past 160 bytes keeps 50 bytes at each end).
  public var description: String {
    path.isEmpty ? kind.description : "\(MessageText.pointer(path)): \(kind.description)"
  }
}

extension FormatError.Kind: CustomStringConvertible {
  /// What went wrong, in one line, without the path.
  public var description: String {
    switch self {
    case .syntax(let message, let location):
      return "syntax error at \(location): \(MessageText.message(message))"
    case .depthLimitExceeded(let limit, let location):
      guard location.line > 0 else { return "nesting deeper than \(limit) levels" }
      return "nesting deeper than \(limit) levels at \(location)"
    case .invalidUTF8(let location):
      return "invalid UTF-8 at \(location)"
    case .nonFiniteNumber(let value):
      return "cannot write the non-finite number \(MessageText.value(value))"
    case .invalidNumber(let text):
      return "cannot convert \(MessageText.value(_decimalForMessage(text))) to a number: "
        + "not a JSON number"
    case .notRepresentable(let reason):
      return "cannot serialize: \(MessageText.message(reason))"
    }
  }
}
