/// A mistake in a definition file, with where it was written.
///
/// Loading reports every mistake in a set of files together (``DefinitionErrors``), each with
/// its `file:line:column`:
///
/// ```
/// Tweets.mappings:12:7: unknown property "imageURL" of TweetModel (known: identifier, imageUrl, message, name, user)
/// ```
public struct DefinitionError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What kind of mistake it is.
  public enum Kind: String, Sendable, Hashable {
    /// The file is not well-formed JSON or property list XML, or not UTF-8 text (at the first
    /// byte that is not; a binary property list or a UTF-16 file is named as such).
    case syntax
    /// A file could not be read: missing or unreadable.
    case missingFile
    /// An `@import` that leads back to a file importing it.
    case importCycle
    /// An `@import` that leads out of the folder of the file given to the catalog (`..`, an
    /// absolute path, a symbolic link pointing out), under ``DefinitionImportPolicy/insideFolder``.
    case importOutsideFolder
    /// An `@inherits` template or a `__parent__` that leads back to the definition itself.
    case inheritanceCycle
    /// A set of files larger than the loader accepts: templates that expand to more than a
    /// million entries, or definitions that refer to each other through relationships more
    /// than 256 levels deep.
    case tooLarge
    /// A keyword (`@keyPth`, a CSMapper key) the format does not have.
    case unknownKeyword
    /// A property the type's ``PropertyTable`` does not list.
    case unknownProperty
    /// A property the table lists as read-only.
    case readOnlyProperty
    /// A `@class`, `type` or `__parent__` naming no registered type or file.
    case unknownClass
    /// An `@mappings`, `@inherits` or `__parent__` naming no context.
    case unknownContext
    /// A transform or mapper name the ``TransformRegistry`` does not have.
    case unknownTransform
    /// A value of the wrong type: a default the property cannot hold, a transform producing
    /// another type, a class that is not the property's element type.
    case typeMismatch
    /// A keyword's value has the wrong shape (`"@optional": "maybe"`).
    case invalidValue
    /// The mapping built from the definition has a problem of its own (two rules writing one
    /// property, a one-way rule in a round-trip mapping).
    case invalidMapping
  }

  /// What kind of mistake it is.
  public var kind: Kind
  /// Where it was written; `nil` only for a file that could not be read at all and was named by
  /// no `@import`.
  public var location: DefinitionLocation?
  /// The mistake in words aimed at the developer.
  public var message: String

  /// Creates an error.
  public init(_ kind: Kind, at location: DefinitionLocation?, _ message: String) {
    self.kind = kind
    self.location = location
    self.message = message
  }

  /// `file:line:column: message`.
  public var description: String {
    guard let location else { return message }
    return "\(location): \(message)"
  }
}

/// Every mistake found in a set of definition files, in file order.
public struct DefinitionErrors: Error, Sendable, CustomStringConvertible {
  /// The mistakes, at least one.
  public var errors: [DefinitionError]

  /// Creates the error from its mistakes.
  public init(_ errors: [DefinitionError]) {
    self.errors = errors
  }

  /// One mistake per line.
  public var description: String {
    errors.map(\.description).joined(separator: "\n")
  }
}

extension [DefinitionError] {
  /// The string `value` holds; otherwise records `message` as an `invalidValue` error at the
  /// value and returns `nil`.
  mutating func string(in value: DefinitionValue, _ message: @autoclosure () -> String)
    -> String?
  {
    if let text = value.string { return text }
    append(DefinitionError(.invalidValue, at: value.location, message()))
    return nil
  }
}
