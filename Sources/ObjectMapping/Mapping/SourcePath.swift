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
    /// A key-value-coding collection operator (`comments.@count`).
    case collection(CollectionOperation)
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
  ///
  /// A key that is one of key-value coding's collection operators, after at least one key,
  /// applies it to the collection the keys before it reach (RestKit read them through KVC):
  /// `"comments.@count"`, `"items.@sum.price"`, `"items.@avg.price"`, `"items.@max.price"`,
  /// `"items.@min.price"`, `"authors.@unionOfObjects.name"`,
  /// `"authors.@distinctUnionOfObjects.name"`, `"shelves.@unionOfArrays.title"` and
  /// `"shelves.@distinctUnionOfArrays.title"`. Such a rule only decodes. `\@count` is the
  /// plain key `@count`.
  public init(_ text: String) {
    let (keys, escaped) = _dottedKeys(text)
    if !escaped[0], let special = Self.special(keys, escaped: escaped) {
      self = special
    } else if let operation = CollectionOperation(keys: keys, escaped: escaped),
      escaped[0] || placeholderName(keys[0]) == nil
    {
      self.init(storage: .collection(operation))
    } else {
      self.init(dotted: keys, firstEscaped: escaped[0])
    }
  }

  /// A key path of the payload's keys only, with no special-source names: the output key paths
  /// of an inverse (`keeping`, `renaming`, `rootKey`, `adding`), a route's key path, the keys
  /// ``appending(_:)`` adds, the parts of a compound source and a matcher's discriminator, all of
  /// which name keys of a representation.
  init(keyPath text: String) {
    let (keys, escaped) = _dottedKeys(text)
    self.init(dotted: keys, firstEscaped: escaped[0])
  }

  /// Keys split at unescaped dots, with a leading placeholder (`"(username).email"`) taken out,
  /// unless its first character was escaped (`"\\(usd)"` is the key `(usd)`: RestKit #2520's keys
  /// with parentheses).
  private init(dotted keys: [String], firstEscaped: Bool) {
    if !firstEscaped, let first = keys.first, let name = placeholderName(first) {
      self.init(keys: Array(keys.dropFirst()))
      placeholder = name
    } else {
      self.init(keys: keys)
    }
  }

  /// The first keys that name a special source (``special(_:escaped:)``).
  private static let specialNames: Set<String> = [
    "@self", "@parent", "@root", "@payload", "@metadata",
  ]

  /// RestKit's and AppCoreKit's names of the special sources, written as a string's first key:
  /// `@self` (``SourcePathConvertible/root``; `@self.name` is the key `name` of it), `@parent`,
  /// and `@root` (RestKit's whole payload, ``SourcePathConvertible/payload``; also `@payload`),
  /// each with keys inside it after a dot, and `@metadata.…` (RestKit's
  /// `@metadata.mapping.collectionIndex` is ``SourcePathConvertible/index``). `nil` for any other
  /// first key: JSON-LD's `@id`, `@type` and `@index` are ordinary keys.
  private static func special(_ keys: [String], escaped: [Bool]) -> SourcePath? {
    guard let first = keys.first, specialNames.contains(first) else { return nil }
    let inside = Array(keys.dropFirst())
    switch first {
    case "@self":
      return inside.isEmpty ? .rootPath : SourcePath(dotted: inside, firstEscaped: escaped[1])
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
    case .index, .compound, .collection: return self
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

  /// The most keys a path may have: 512, the nesting ``JSONReadingOptions`` reads by default,
  /// so no payload the defaults accept holds a value deeper. A longer path (a hostile definition
  /// file's `"a.a.a…"`) is a definition problem (``lengthProblem``), and the inverse leaves it
  /// out: writing it would nest objects, and take stack, as deep as it is long.
  static let maximumKeyCount = 512

  /// Why the path is too long to use (more than ``maximumKeyCount`` keys, in any of its parts),
  /// or `nil`.
  var lengthProblem: String? {
    let count: Int
    switch storage {
    case .keys(let keys), .parent(let keys), .payload(let keys), .metadata(let keys):
      count = keys.count
    case .compound(let parts):
      return parts.lazy.compactMap(\.lengthProblem).first
    case .root, .index, .collection:
      count = 0
    }
    guard count > Self.maximumKeyCount else { return nil }
    return Self.lengthProblem(keys: count, shown: description)
  }

  /// The message of a path of `count` keys, more than ``maximumKeyCount``: `shown` is the path's
  /// text, cut short.
  static func lengthProblem(keys count: Int, shown: String) -> String {
    let start = shown.prefix(24)
    return "the key path \"\(start)…\" has \(count) keys; at most \(maximumKeyCount) (the nesting "
      + "JSON is read to by default) can be read or written"
  }

  /// Whether the path is a key path, with a dot in RestKit's spelling: more than one key
  /// (`"nested.city"`), or a special source with keys (`"@parent.id"`, `"@metadata.page"`).
  var isKeyPath: Bool {
    switch storage {
    case .keys(let keys): keys.count > 1
    case .parent(let keys), .payload(let keys), .metadata(let keys): !keys.isEmpty
    case .root, .index, .compound: false
    case .collection: true
    }
  }

  /// For a collection operator (`comments.@count`), the keys of the collection it reads.
  var operatorBase: SourcePath? {
    if case .collection(let operation) = storage { return SourcePath(keys: operation.base) }
    return nil
  }

  /// Why a rule reading this special source has no inverse, for ``InverseOmission``.
  var specialSourceOmission: String {
    if case .collection(let operation) = storage {
      return "a collection operator (\(operation.operator.rawValue)) cannot be inverted"
    }
    return "it reads a special source"
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
    case .collection(let operation):
      return
        ([SourcePath(keys: operation.base).description, operation.operator.rawValue]
        + operation.rest.map { SourcePath(keys: [$0]).description }).joined(separator: ".")
    case .keys(let keys):
      // A first key named like a special source or a placeholder, and a later one named like
      // a collection operator, is escaped, so that the text reads back as this path
      // (`\@parent`, `\(usd)`, `items.\@count`).
      return keys.enumerated().map { offset, key in
        let text = key.replacingAll("\\", with: "\\\\").replacingAll(".", with: "\\.")
        let isReserved =
          offset == 0
          ? Self.specialNames.contains(key) || placeholderName(key) != nil
          : CollectionOperation.Operator(rawValue: key) != nil
        return isReserved ? "\\" + text : text
      }.joined(separator: ".")
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

/// A key-value-coding collection operator in a source path: `base.@operator.rest`
/// (`items.@sum.price`), as RestKit read it through `valueForKeyPath:`.
struct CollectionOperation: Sendable, Hashable {
  enum Operator: String, Sendable, Hashable {
    case count = "@count"
    case sum = "@sum"
    case avg = "@avg"
    case max = "@max"
    case min = "@min"
    case unionOfObjects = "@unionOfObjects"
    case distinctUnionOfObjects = "@distinctUnionOfObjects"
    case unionOfArrays = "@unionOfArrays"
    case distinctUnionOfArrays = "@distinctUnionOfArrays"
  }

  /// The keys that reach the collection.
  let base: [String]
  let `operator`: Operator
  /// The path read in each element (`price`); empty (or `self`) for the element itself.
  let rest: [String]

  /// The operation of `keys` when one of them after the first is an unescaped operator name
  /// (the first such key); `nil` otherwise.
  init?(keys: [String], escaped: [Bool]) {
    guard
      let position = keys.indices.dropFirst().first(where: {
        !escaped[$0] && Operator(rawValue: keys[$0]) != nil
      }), let found = Operator(rawValue: keys[position])
    else { return nil }
    base = Array(keys[..<position])
    self.operator = found
    rest = Array(keys[(position + 1)...])
  }
}
