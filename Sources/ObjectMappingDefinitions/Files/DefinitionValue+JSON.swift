import ObjectMapping
import ObjectMappingDocument

extension DefinitionValue {
  /// The deepest nesting a definition file may have, in both formats. Real files nest a few
  /// levels (an inline `@mappings` adds three); a value is walked by recursion in a few places
  /// (templates, user data), which this bound keeps well inside a 512 KB stack.
  static let maximumDepth = 64

  /// The JSON dialect of definition files: RFC 8259 plus `//` and `/* */` comments, trailing
  /// commas and a leading byte order mark (AppCoreKit's `.mappings` files have comments and
  /// trailing commas), nested at most ``maximumDepth`` levels.
  static let jsonOptions: JSONReadingOptions = {
    var options = JSONReadingOptions.lenient
    options.maximumDepth = maximumDepth
    // A key written twice is a mistake (a property mapped twice, a context defined twice).
    options.rejectsDuplicateKeys = true
    return options
  }()

  /// Reads the JSON text of the definition file `file` with the document layer's reader
  /// (``_LocatedJSON``), keeping where every key and value was written.
  ///
  /// - Throws: A ``DefinitionError/Kind/syntax`` error at the first problem's line and column,
  ///   worded as the JSON reader words it.
  static func readJSON(_ text: String, file: String) throws(DefinitionError) -> DefinitionValue {
    let located: _LocatedJSON
    do {
      located = try _LocatedJSON.read(text, options: jsonOptions)
    } catch {
      throw DefinitionError(json: error, file: file)
    }
    return DefinitionValue(located, file: file)
  }

  /// `located` with its places in `file`.
  init(_ located: _LocatedJSON, file: String) {
    let location = DefinitionLocation(located.location, file: file)
    switch located.kind {
    case .object(let members):
      self.init(
        kind: .object(
          members.map {
            Member(
              key: $0.key, keyLocation: DefinitionLocation($0.keyLocation, file: file),
              value: DefinitionValue($0.value, file: file))
          }), location: location)
    case .array(let elements):
      self.init(kind: .array(elements.map { DefinitionValue($0, file: file) }), location: location)
    case .string(let text): self.init(kind: .string(text), location: location)
    case .number(let text): self.init(kind: .number(text), location: location)
    case .bool(let value): self.init(kind: .bool(value), location: location)
    case .null: self.init(kind: .null, location: location)
    }
  }
}

extension DefinitionLocation {
  /// The place `location` names in `file`.
  init(_ location: TextLocation, file: String) {
    self.init(file: file, line: location.line, column: location.column)
  }
}

extension DefinitionError {
  /// The syntax error a definition file's JSON reader threw, at its place in `file`.
  init(json error: FormatError, file: String) {
    switch error.kind {
    case .syntax(let message, let location):
      self.init(.syntax, at: DefinitionLocation(location, file: file), message)
    case .depthLimitExceeded(let limit, let location):
      self.init(
        .syntax, at: DefinitionLocation(location, file: file),
        "nesting deeper than \(limit) levels")
    case .invalidUTF8(let location):
      self.init(.syntax, at: DefinitionLocation(location, file: file), "invalid UTF-8")
    default:
      self.init(.syntax, at: DefinitionLocation(file: file, line: 1, column: 1), "\(error)")
    }
  }
}
