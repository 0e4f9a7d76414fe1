/// One problem found while reading, mapping or serializing a payload.
///
/// Every error carries the path to the failing value as a JSON Pointer (RFC 6901, `""` for the
/// whole document) and a ``Kind`` that says what was expected and what was found. Its
/// ``description`` is one stable line that tests may compare in full:
///
/// ```
/// /articles/3/price: expected a number, found "12abc"
/// syntax error at line 2, column 9 (byte 17): expected ',' or '}' after an object member, found 'x'
/// ```
public struct MappingError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The JSON Pointer (RFC 6901) of the failing value; `""` is the whole document.
  public var path: String
  /// What went wrong.
  public var kind: Kind
  /// The error your code threw, when this one comes from it: a transform's or a custom
  /// conversion's (``Kind/transformFailed(raw:message:)``), a validator's
  /// (``Kind/validationFailed(message:)``). Match on it to handle your own errors:
  ///
  /// ```swift
  /// if let mine = error.errors.first?.underlyingError as? PriceError { ... }
  /// ```
  ///
  /// It takes no part in `==`, which compares ``path`` and ``kind``.
  public var underlyingError: (any Error)?

  /// Creates an error at `path`.
  public init(path: String = "", _ kind: Kind, underlyingError: (any Error)? = nil) {
    self.path = path
    self.kind = kind
    self.underlyingError = underlyingError
  }

  /// Whether two errors have the same path and kind (their ``underlyingError``s are not
  /// compared: errors are not `Equatable` in general).
  public static func == (lhs: MappingError, rhs: MappingError) -> Bool {
    lhs.path == rhs.path && lhs.kind == rhs.kind
  }

  /// The kinds of problem a payload, a mapping or a value can have.
  ///
  /// New kinds may be added in later releases (a new reader, a new rule), so a `switch` over
  /// kinds ends with `default:`; the kinds of the document layer are one case, ``format(_:)``,
  /// that wraps the reader's or writer's own ``FormatError/Kind`` unchanged:
  ///
  /// ```swift
  /// switch error.kind {
  /// case .missingRequiredKey: askForIt(error.path)
  /// case .format(.syntax(_, let location)): highlight(location)
  /// case .format: showTheText(error.description)
  /// default: log(error.description)
  /// }
  /// ```
  public enum Kind: Sendable, Equatable {
    /// A reader or a writer of the document layer found the problem: the payload is not valid
    /// in its format (``FormatError/Kind/syntax(message:location:)``, invalid UTF-8, nesting
    /// past the depth limit, a `.decimal` node that is not a JSON number) or a value cannot be
    /// written (a non-finite number). Its text is the ``FormatError``'s.
    case format(FormatError.Kind)
    /// A required key is absent (or `null` where `null` is not allowed).
    case missingRequiredKey
    /// The value has the wrong shape: `expected` and `found` are short descriptions.
    case typeMismatch(expected: String, found: String)
    /// The value has the right shape but cannot be converted: `raw` is the value as written.
    case conversionFailed(expected: String, raw: String, reason: String?)
    /// Your code (a transform's closure, a custom ``MappableValue`` conversion) threw an error
    /// of its own for the value `raw`: `message` is the error's description, the error itself
    /// is ``MappingError/underlyingError``.
    case transformFailed(raw: String, message: String)
    /// A validator rejected the object: its message.
    case validationFailed(message: String)
    /// A dynamic mapping found no case for the value: `reason` says what it looked at.
    case declined(reason: String)
    /// Two values serialize to the same key.
    case duplicateKey(key: String, otherPath: String)
    /// A class graph refers back to an object that is being serialized.
    case cycle(type: String)
    /// A key that the mapping does not know, while unknown keys are rejected.
    case unknownKey
    /// The mapping reads payload keys, but the object has none of them (RestKit's "unmappable
    /// representation", usually the wrong mapping or key path): `keys` are the object's keys,
    /// none for `{}`.
    case unmappableRepresentation(keys: [String])
    /// A value cannot be serialized in the requested format: `reason` says why.
    case notRepresentable(reason: String)
    /// A mistake in a mapping's definition, reported to the developer.
    case invalidDefinition(message: String)
    /// No reader or writer is registered for the content type.
    case unsupportedContentType(String)
    /// No route of a mapper found mappable content (nothing at their key paths, or only
    /// unmappable representations): the key paths searched, sorted, and, when the payload is
    /// an object, its top-level keys (RestKit's error 1001).
    case nothingFound(searched: [String], topLevelKeys: [String]?)
    /// The payload nests deeper than the thread's stack can map: `depth` is how many keys and
    /// indexes the path where mapping stopped has. The recursion ends with this error instead of overflowing the
    /// stack (which would end the process); map on a thread with a larger stack, or lower
    /// ``JSONReadingOptions/maximumDepth`` (Documentation/Limits.md, "Depth and the stack").
    case stackExhausted(depth: Int)
  }

  /// The error as one line: the path (when not the whole document), then what went wrong.
  ///
  /// The line is safe to print or log whatever the payload held: text from the payload is
  /// escaped (control characters, line separators and bidirectional overrides as `\n` or
  /// `\u001B`) and shortened (a key or value past 160 bytes keeps 50 bytes at each end:
  /// `"aaaa…(999,900 more bytes)…zzzz"`; free text past 1,000 bytes keeps 450). The fields
  /// themselves — ``path`` and the ``Kind``'s values — stay exact.
  public var description: String {
    path.isEmpty ? kind.description : "\(MessageText.pointer(path)): \(kind.description)"
  }
}

extension MappingError.Kind: CustomStringConvertible {
  /// What went wrong, in one line, without the path; escaped and shortened as
  /// ``MappingError/description`` says.
  public var description: String {
    switch self {
    case .format(let kind):
      return kind.description
    case .missingRequiredKey:
      return "required value is missing"
    case .typeMismatch(let expected, let found):
      return "expected \(MessageText.message(expected)), found \(MessageText.value(found))"
    case .conversionFailed(let expected, let raw, let reason):
      let text = "cannot convert \(MessageText.value(raw)) to \(MessageText.message(expected))"
      guard let reason else { return text }
      return text + ": " + MessageText.message(reason)
    case .transformFailed(let raw, let message):
      return "the transform failed on \(MessageText.value(raw)): \(MessageText.message(message))"
    case .validationFailed(let message):
      return "validation failed: \(MessageText.message(message))"
    case .declined(let reason):
      return "no mapping matches: \(MessageText.message(reason))"
    case .duplicateKey(let key, let otherPath):
      return
        "duplicate key \(MessageText.quoted(key)) (also written at \(MessageText.pointer(otherPath)))"
    case .cycle(let type):
      return "cycle: this \(MessageText.message(type)) refers back to an object being serialized"
    case .unknownKey:
      return "unknown key"
    case .unmappableRepresentation(let keys):
      guard !keys.isEmpty else {
        return "unmappable representation: the object is empty"
      }
      let shown = keys.prefix(10).map { MessageText.quoted($0) }.joined(separator: ", ")
      let more = keys.count > 10 ? " and \(keys.count - 10) more" : ""
      return "unmappable representation: the mapping reads none of the keys \(shown)\(more)"
    case .notRepresentable(let reason):
      return "cannot serialize: \(MessageText.message(reason))"
    case .invalidDefinition(let message):
      return "invalid mapping definition: \(MessageText.message(message))"
    case .unsupportedContentType(let type):
      return "no reader or writer for the content type \(MessageText.quoted(type))"
    case .nothingFound(let searched, let keys):
      return nothingFoundDescription(searched: searched, topLevelKeys: keys)
    case .stackExhausted(let depth):
      return "the payload nests too deep for this thread's stack (\(depth) path components "
        + "here): map on a thread with a larger stack, or lower JSONReadingOptions.maximumDepth"
    }
  }
}

extension MappingError {
  /// The mapping error for a problem a reader or a writer found: the same path and the same
  /// text (a ``FormatError`` renders exactly as the `MappingError` it becomes).
  init(_ error: FormatError) {
    self.init(path: error.path, .format(error.kind))
  }
}
