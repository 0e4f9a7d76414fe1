import Foundation

/// A coding key made from a string or an index (paths, `superDecoder`, custom key strategies);
/// an index's text is made only when asked for.
struct AnyCodingKey: CodingKey {
  private let name: String?
  let intValue: Int?

  var stringValue: String { name ?? "Index \(intValue ?? 0)" }

  init(stringValue: String) {
    name = stringValue
    intValue = nil
  }

  init(intValue: Int) {
    name = nil
    self.intValue = intValue
  }

  static let `super` = AnyCodingKey(stringValue: "super")
}

/// An array element's coding key: its index (named `Index 3`, as `JSONDecoder` and
/// `JSONEncoder` name it), small enough to be stored in an existential without an allocation.
struct IndexKey: CodingKey {
  let index: Int
  init(_ index: Int) { self.index = index }
  init?(intValue: Int) { index = intValue }
  init?(stringValue: String) { nil }
  var intValue: Int? { index }
  var stringValue: String { "Index \(index)" }
}

/// The coding key of a member of a `[String: V]`: its key, and, when `integerKeys` is set and
/// the key reads as an integer, that integer too (as the standard library's dictionary key,
/// which `JSONDecoder` uses without a key strategy, has it).
struct DictionaryKey: CodingKey {
  let stringValue: String
  let intValue: Int?

  init(_ name: String, integerKeys: Bool) {
    stringValue = name
    intValue = integerKeys ? Int(name) : nil
  }

  init(stringValue: String) {
    self.stringValue = stringValue
    intValue = nil
  }

  init?(intValue: Int) {
    stringValue = "\(intValue)"
    self.intValue = intValue
  }
}

/// The coding path of an element of nested arrays (at most three levels below `key`), kept as
/// indexes and built only when an error needs it.
struct ArrayPath {
  let parent: PathNode?
  let key: (any CodingKey)?
  private var indexes: (Int, Int, Int) = (0, 0, 0)
  private var depth = 0

  init(parent: PathNode?, key: (any CodingKey)?) {
    self.parent = parent
    self.key = key
  }

  /// The path one level down, at element `index`.
  func appending(_ index: Int) -> ArrayPath {
    var path = self
    switch depth {
    case 0: path.indexes.0 = index
    case 1: path.indexes.1 = index
    default: path.indexes.2 = index
    }
    path.depth = Swift.min(depth + 1, 3)
    return path
  }

  /// The coding path.
  var path: [any CodingKey] {
    let all = [indexes.0, indexes.1, indexes.2].prefix(depth).map { IndexKey($0) as any CodingKey }
    return childCodingPath(parent, key) + all
  }

  /// The coding path as a node (for a decoder made to report an error).
  var node: PathNode? {
    var node = PathNode.node(parent, key)
    for index in [indexes.0, indexes.1, indexes.2].prefix(depth) {
      node = PathNode(parent: node, key: IndexKey(index))
    }
    return node
  }
}

/// `parent` and `key`, the coding path of a value.
func childCodingPath(_ parent: [any CodingKey], _ key: (any CodingKey)?) -> [any CodingKey] {
  guard let key else { return parent }
  return parent + [key]
}

/// `parent`'s path and `key`, the coding path of a value.
func childCodingPath(_ parent: PathNode?, _ key: (any CodingKey)?) -> [any CodingKey] {
  var path = parent?.codingPath ?? []
  if let key { path.append(key) }
  return path
}
