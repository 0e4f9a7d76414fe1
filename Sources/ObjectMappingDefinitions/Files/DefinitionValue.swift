import ObjectMapping

/// A place in a definition file: the file's name and a 1-based line and column.
public struct DefinitionLocation: Sendable, Hashable, CustomStringConvertible {
  /// The file's name as it was given (a path, a URL's last component, or the name of a string).
  public var file: String
  /// The line, from 1.
  public var line: Int
  /// The column, from 1, counted in Unicode scalars.
  public var column: Int

  /// Creates a location.
  public init(file: String, line: Int, column: Int) {
    self.file = file
    self.line = line
    self.column = column
  }

  /// `file:line:column`, the form editors and compilers print.
  public var description: String { "\(file):\(line):\(column)" }
}

/// A value read from a definition file, with where it was written: what the loaders check and
/// report against. Objects keep their members in file order.
struct DefinitionValue: Sendable {
  enum Kind: Sendable {
    case object([Member])
    case array([DefinitionValue])
    case string(String)
    /// A number as written (`12`, `-1.5e3`); converted by the rule that reads it.
    case number(String)
    case bool(Bool)
    case null
  }

  /// A member of an object: its key, where the key was written, and its value.
  struct Member: Sendable {
    var key: String
    var keyLocation: DefinitionLocation
    var value: DefinitionValue
  }

  let kind: Kind
  var location: DefinitionLocation
  /// How many values this one holds, itself included (an array of 2,000 numbers weighs
  /// 2,001): what inheriting it costs, since each context that inherits a template's value
  /// converts all of it (``AppCoreKitDefinitions``'s expansion budget counts it).
  let weight: Int

  init(kind: Kind, location: DefinitionLocation) {
    self.kind = kind
    self.location = location
    switch kind {
    case .object(let members): weight = members.reduce(1) { $0 &+ $1.value.weight }
    case .array(let elements): weight = elements.reduce(1) { $0 &+ $1.weight }
    case .string, .number, .bool, .null: weight = 1
    }
  }

  /// The members of an object; `nil` for other kinds.
  var members: [Member]? {
    if case .object(let members) = kind { return members }
    return nil
  }

  /// The elements of an array, or the value itself: for keywords that take one name or an
  /// array of them (`@import`, `@inherits`, `__parent__`, `groups`).
  var oneOrMany: [DefinitionValue] {
    if case .array(let elements) = kind { return elements }
    return [self]
  }

  /// The string of a string value; `nil` for other kinds.
  var string: String? {
    if case .string(let text) = kind { return text }
    return nil
  }

  /// How messages name this value's kind.
  var kindDescription: String {
    switch kind {
    case .object: return "an object"
    case .array: return "an array"
    case .string: return "a string"
    case .number: return "a number"
    case .bool: return "a boolean"
    case .null: return "null"
    }
  }

  /// A flag written as a boolean, a number (`1`, `0`) or a word (`"YES"`, `"true"`); `nil` when
  /// the value is none of these.
  var flag: Bool? {
    switch kind {
    case .bool(let value): return value
    case .number(let text): return Double(text).map { $0 != 0 }
    case .string(let text):
      switch text.lowercased() {
      case "1", "true", "yes", "y", "on": return true
      case "0", "false", "no", "n", "off": return false
      default: return nil
      }
    default: return nil
    }
  }

  /// The value as a document node, for defaults and transform user data.
  var node: Node {
    switch kind {
    case .object(let members):
      return .object(members.map { Node.Member($0.key, $0.value.node) })
    case .array(let elements): return .array(elements.map(\.node))
    case .string(let text): return .string(text)
    case .number(let text):
      if let integer = Int64(text) { return .integer(integer) }
      return .decimal(text)
    case .bool(let value): return .bool(value)
    case .null: return .null
    }
  }
}
