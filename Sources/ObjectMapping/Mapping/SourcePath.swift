/// Where a rule reads in the payload: a key path of object keys, or a special source.
///
/// Written as a string, dots separate keys (`"user.name"`) and `\.` is a literal dot
/// (`"lamp\\.enabled"`); written as an array, each element is one literal key
/// (`["lamp.enabled"]`). A path that cannot be walked to its end (a missing key, `null` or a
/// scalar in the middle) means the value is *absent*.
///
/// A string may also name a special source as RestKit and AppCoreKit did: `"@parent.number"`
/// (``SourcePathConvertible/parent``), `"@root.meta.version"` (RestKit's whole payload,
/// ``SourcePathConvertible/payload``), `"@metadata.response.status"`,
/// `"@metadata.mapping.collectionIndex"` (``SourcePathConvertible/index``) and `"@self"`
/// (``SourcePathConvertible/root``). A payload key that really is one of those names is read
/// with the array form (`["@parent"]`) or a leading `\@` (`"\\@parent"`); other keys starting
/// with `@` (JSON-LD's `"@id"`, `"@type"` and `"@index"`) are ordinary keys. Only a rule's source
/// reads these names: an inverse's output keys (`keeping`, `renaming`, `rootKey`), a route's key
/// path and a compound source's parts are keys, and a `Match` on a special source is a
/// definition problem.
///
/// ```swift
/// Attribute("user.name", \.userName)        // {"user": {"name": "Ann"}}
/// Attribute(["lamp.enabled"], \.lampOn)     // {"lamp.enabled": true}
/// Attribute(.root, \.raw)                   // the whole representation being mapped
/// ```
public struct SourcePath: Sendable, Hashable, CustomStringConvertible {
  enum Storage: Sendable, Hashable {
    case keys([String])
    case root
    case parent([String])
    case payload([String])
    case metadata([String])
    case index
    case compound([SourcePath])
  }

  let storage: Storage
  /// The keys' UTF-8 bytes, compared byte for byte against payload keys.
  let utf8Keys: [[UInt8]]
  /// The key attribute named by a leading placeholder (`"(username).email"` or
  /// `"{username}.email"`), which was removed from the keys: the path reads inside the value of a
  /// nested-dictionary key.
  public private(set) var placeholder: String?

  /// A path of literal keys.
  public init(keys: [String]) {
    storage = .keys(keys)
    utf8Keys = keys.map { Array($0.utf8) }
  }

  /// Parses dotted text: `.` separates keys, `\.` is a literal dot and `\\` a backslash; a
  /// leading special-source name (`@parent`, `@root`, `@payload`, `@metadata`, `@self`) names
  /// that source, and `\@` at the start makes it a plain key.
  public init(_ text: String) {
    let (keys, escapedFirst) = Self.dottedKeys(text)
    if !escapedFirst, let special = Self.special(keys) {
      self = special
    } else {
      self.init(dotted: keys)
    }
  }

  /// A key path of the payload's keys only, with no special-source names: the output key paths
  /// of an inverse (`keeping`, `renaming`, `rootKey`, `adding`), a route's key path, the keys
  /// ``appending(_:)`` adds, the parts of a compound source and a matcher's discriminator, all of
  /// which name keys of a representation.
  init(keyPath text: String) {
    self.init(dotted: Self.dottedKeys(text).keys)
  }

  /// Keys split at unescaped dots, with a leading placeholder (`"(username).email"`) taken out.
  private init(dotted keys: [String]) {
    if let first = keys.first, let name = placeholderName(first) {
      self.init(keys: Array(keys.dropFirst()))
      placeholder = name
    } else {
      self.init(keys: keys)
    }
  }

  /// The keys of dotted `text`, and whether its first character was escaped (`\@parent`).
  private static func dottedKeys(_ text: String) -> (keys: [String], escapedFirst: Bool) {
    var keys: [String] = []
    var current = ""
    var escaping = false
    for character in text {
      if escaping {
        current.append(character)
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else if character == "." {
        keys.append(current)
        current = ""
      } else {
        current.append(character)
      }
    }
    if escaping { current.append("\\") }
    keys.append(current)
    return (keys, text.hasPrefix("\\"))
  }

  /// The first keys that name a special source (``special(_:)``).
  private static let specialNames: Set<String> = [
    "@self", "@parent", "@root", "@payload", "@metadata",
  ]

  /// RestKit's and AppCoreKit's names of the special sources, written as a string's first key:
  /// `@self` (``SourcePathConvertible/root``; `@self.name` is the key `name` of it), `@parent`,
  /// and `@root` (RestKit's whole payload, ``SourcePathConvertible/payload``; also `@payload`),
  /// each with keys inside it after a dot, and `@metadata.…` (RestKit's
  /// `@metadata.mapping.collectionIndex` is ``SourcePathConvertible/index``). `nil` for any other
  /// first key: JSON-LD's `@id`, `@type` and `@index` are ordinary keys.
  private static func special(_ keys: [String]) -> SourcePath? {
    guard let first = keys.first, specialNames.contains(first) else { return nil }
    let inside = Array(keys.dropFirst())
    switch first {
    case "@self": return inside.isEmpty ? .rootPath : SourcePath(dotted: inside)
    case "@parent": return SourcePath(storage: .parent(inside))
    case "@metadata" where inside == ["mapping", "collectionIndex"]: return .indexPath
    case "@metadata": return SourcePath(storage: .metadata(inside))
    default: return SourcePath(storage: .payload(inside))
    }
  }

  private init(storage: Storage) {
    self.storage = storage
    utf8Keys = []
  }

  /// The path behind ``SourcePathConvertible/root``.
  static let rootPath = SourcePath(storage: .root)

  /// The path behind ``SourcePathConvertible/parent``.
  static let parentPath = SourcePath(storage: .parent([]))

  /// The path behind ``SourcePathConvertible/payload``.
  static let payloadPath = SourcePath(storage: .payload([]))

  /// The path behind ``SourcePathConvertible/metadata``.
  static let metadataPath = SourcePath(storage: .metadata([]))

  /// This path followed by the dotted keys of `path`: for ``SourcePathConvertible/parent`` and
  /// ``SourcePathConvertible/payload``, a key path inside that representation (RestKit's
  /// `@parent.name`, `@root.meta`).
  public func appending(_ path: String) -> SourcePath {
    let more = SourcePath(keyPath: path).keys
    switch storage {
    case .keys(let keys): return SourcePath(keys: keys + more)
    case .parent(let keys): return SourcePath(storage: .parent(keys + more))
    case .payload(let keys): return SourcePath(storage: .payload(keys + more))
    case .metadata(let keys): return SourcePath(storage: .metadata(keys + more))
    case .root: return SourcePath(keys: more)
    case .index, .compound: return self
    }
  }

  /// For `.parent` and `.payload`, the path inside that representation.
  var relativeKeys: [String] {
    switch storage {
    case .parent(let keys), .payload(let keys), .metadata(let keys): return keys
    default: return []
    }
  }

  /// The path behind ``SourcePathConvertible/index``.
  static let indexPath = SourcePath(storage: .index)

  /// Several paths read together into one value (see ``Attribute/init(sources:_:_:)``).
  init(compound parts: [SourcePath]) {
    self.init(storage: .compound(parts))
  }

  /// The paths of a compound source, `[]` otherwise.
  var parts: [SourcePath] {
    if case .compound(let parts) = storage { return parts }
    return []
  }

  /// The keys, or `[]` for a special source.
  public var keys: [String] {
    if case .keys(let keys) = storage { return keys }
    return []
  }

  /// Whether the path is a key path, with a dot in RestKit's spelling: more than one key
  /// (`"nested.city"`), or a special source with keys (`"@parent.id"`, `"@metadata.page"`).
  var isKeyPath: Bool {
    switch storage {
    case .keys(let keys): keys.count > 1
    case .parent(let keys), .payload(let keys), .metadata(let keys): !keys.isEmpty
    case .root, .index, .compound: false
    }
  }

  /// Whether this path reads a special source rather than payload keys.
  var isSpecial: Bool {
    if case .keys = storage { return false }
    return true
  }

  /// The dotted form, with literal dots escaped (`lamp\.enabled`) and a first key named like a
  /// special source escaped (`\@parent`), or a special source's name (`@self`,
  /// `@parent.number`, `@payload.meta`, `@metadata.…`, and `@index` for the position, which is
  /// for messages only); each reads back as the same path.
  public var description: String {
    switch storage {
    case .root: return "@self"
    case .parent(let keys): return (["@parent"] + keys).joined(separator: ".")
    case .payload(let keys): return (["@payload"] + keys).joined(separator: ".")
    case .metadata(let keys): return (["@metadata"] + keys).joined(separator: ".")
    case .index: return "@index"
    case .compound(let parts): return parts.map(\.description).joined(separator: "+")
    case .keys(let keys):
      let text = keys.map {
        $0.replacingAll("\\", with: "\\\\").replacingAll(".", with: "\\.")
      }.joined(separator: ".")
      // A first key named like a special source is escaped, so that the text reads back as
      // this path (`\@parent`).
      if let first = keys.first, Self.specialNames.contains(first) { return "\\" + text }
      return text
    }
  }

  var pathComponents: [_PathComponent] { keys.map { .key($0) } }

  /// The tape index of the value this path reaches from the object at `index`, or `nil` when
  /// absent (a plain scan, for matchers; mapping rules use their compiled sources).
  func resolve(in tape: _UnsafeTapeView, from index: Int) -> Int? {
    guard case .keys = storage else { return index }
    var current = index
    for key in utf8Keys {
      guard let found = tape.child(of: current, named: key, index: decimalArrayIndex(key)) else {
        return nil
      }
      current = found
    }
    return current
  }
}

/// The name inside a placeholder segment, `(name)` or `{name}`; `nil` for an ordinary key.
private func placeholderName(_ segment: String) -> String? {
  guard segment.count > 2, let first = segment.first, let last = segment.last else { return nil }
  guard (first == "(" && last == ")") || (first == "{" && last == "}") else { return nil }
  return String(segment.dropFirst().dropLast())
}

extension String {
  fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
    var result = ""
    for character in self {
      if character == target { result += replacement } else { result.append(character) }
    }
    return result
  }
}

/// Anything that names a ``SourcePath``: a `String` (dotted), an array of literal keys, or a
/// `SourcePath` itself.
public protocol SourcePathConvertible {
  /// The path this value names.
  var sourcePath: SourcePath { get }
}

extension SourcePath: SourcePathConvertible {
  /// The path itself.
  public var sourcePath: SourcePath { self }
}

extension String: SourcePathConvertible {
  /// The dotted path this string spells.
  public var sourcePath: SourcePath { SourcePath(self) }
}

extension Array: SourcePathConvertible where Element == String {
  /// The path of these literal keys.
  public var sourcePath: SourcePath { SourcePath(keys: self) }
}

extension SourcePathConvertible where Self == SourcePath {
  /// The representation being mapped itself (AppCoreKit's `@self`); read-only, so the inverse
  /// skips rules that read it.
  public static var root: SourcePath { SourcePath.rootPath }

  /// The representation of the object that holds the one being mapped (the parent object of a
  /// relationship's child); absent at the top level. Read-only.
  ///
  /// ```swift
  /// Attribute(.parent, \.owner)                              // the parent as a Node
  /// Attribute(SourcePath.parent.appending("name"), \.ownerName)   // a key inside the parent
  /// ```
  public static var parent: SourcePath { SourcePath.parentPath }

  /// The whole payload being mapped, whatever object is being mapped. Read-only.
  ///
  /// ```swift
  /// Attribute(SourcePath.payload.appending("meta.version"), \.apiVersion)
  /// ```
  public static var payload: SourcePath { SourcePath.payloadPath }

  /// The call's metadata (``MappingOptions/metadata``; RestKit's `@metadata`), then keys inside
  /// it with ``SourcePath/appending(_:)``: the object manager's requests carry the URL, method, status and
  /// headers (`SourcePath.metadata.appending("response.status")`). Read-only: the inverse
  /// writes nothing for it. Absent when the call has no metadata.
  public static var metadata: SourcePath { SourcePath.metadataPath }

  /// The position of the object in its collection (RestKit's
  /// `@metadata.mapping.collectionIndex`): elements of a to-many relationship or of a top-level
  /// collection read `0`, `1`, …; anything else (a to-one child, a single object) reads it as
  /// absent. Read-only.
  public static var index: SourcePath { SourcePath.indexPath }
}
