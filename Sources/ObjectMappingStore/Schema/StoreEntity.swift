import Foundation
import ObjectMapping

/// A kind of object a persistent store keeps: a name, the mapping that is its schema, and the
/// key paths to index.
///
/// An object is stored as its mapping's own JSON serialization, keyed by the entity's name and
/// the object's identity (the mapping's ``Mapping/identified(by:)``), and read back through the
/// same mapping, with its validation and its errors. No second definition of the model exists:
/// a property the mapping writes can be queried, one it does not write cannot.
///
/// ```swift
/// let articles = StoreEntity("Article", mapping: articleMapping)   // identified(by: \.id)
///   .indexed(by: \.publishedAt)
///   .indexed(by: \.author.name)
///
/// try await store.save([article], to: articles)
/// let recent = try await store.fetch(
///   articles, where: \.author.name == "Ann", orderBy: [.descending(\.publishedAt)], limit: 20)
/// ```
///
/// The name is what the database records, so choose one that survives renaming the Swift type
/// (RestKit's entity names did the same). Two entities with the same name share their rows.
public struct StoreEntity<Object: Sendable>: Sendable {
  /// The name rows of this entity are stored under.
  public let name: String
  /// The mapping: the schema of the stored payload.
  public let mapping: any MappingProtocol<Object>
  /// The indexes declared with ``indexed(by:)-(KeyPath<Object,Value>&Sendable)``.
  public private(set) var indexes: [StoreIndex] = []
  /// Key paths given to ``indexed(by:)`` that the mapping does not write (reported by every
  /// call that uses the entity, so a misspelt index never silently scans).
  private(set) var indexProblems: [String] = []

  /// Creates an entity.
  ///
  /// - Parameters:
  ///   - name: The name its rows are stored under (`"Article"`).
  ///   - mapping: The mapping objects are written and read with; it must be
  ///     ``Mapping/identified(by:)``.
  public init(_ name: String, mapping: some MappingProtocol<Object>) {
    self.name = name
    self.mapping = mapping
  }

  /// The same entity with an index on the payload key `keyPath` is written to: queries and
  /// orderings on it are answered from the index instead of reading every row.
  ///
  /// ```swift
  /// let articles = StoreEntity("Article", mapping: articleMapping).indexed(by: \.publishedAt)
  /// ```
  ///
  /// A key path the mapping does not write is an error of every call that uses the entity
  /// (``StoreError/Kind/unknownKeyPath(entity:keyPath:)``).
  ///
  /// - Parameter keyPath: A property an ``Attribute`` writes, of the model or of a to-one
  ///   relationship's child (`\.author.name`).
  /// - Returns: The entity with the index.
  public func indexed<Value>(by keyPath: KeyPath<Object, Value> & Sendable) -> Self {
    indexed(by: [keyPath])
  }

  /// The same entity with one index over several key paths, in order (a compound index: a
  /// query on the first, or the first and the second, … uses it).
  ///
  /// ```swift
  /// let events = StoreEntity("Event", mapping: eventMapping).indexed(by: [\.venue, \.start])
  /// ```
  ///
  /// - Parameter keyPaths: Properties attributes write, as for ``indexed(by:)-(KeyPath<Object,Value>&Sendable)``.
  /// - Returns: The entity with the index.
  public func indexed(by keyPaths: [PartialKeyPath<Object> & Sendable]) -> Self {
    var copy = self
    var paths: [[String]] = []
    for keyPath in keyPaths {
      if let path = mapping._storePath(keyPath) {
        paths.append(path)
      } else {
        copy.indexProblems.append(_describe(keyPath))
      }
    }
    if !paths.isEmpty, paths.count == keyPaths.count {
      copy.indexes.append(StoreIndex(paths: paths))
    }
    return copy
  }

  // MARK: What stores use

  /// The identity of `object` as the text the store keys it by (`"42"`).
  ///
  /// - Throws: ``StoreError`` when the mapping has no identity, or the object's is `nil`.
  public func identity(of object: Object) throws(StoreError) -> String {
    try checkIdentified()
    guard let id = mapping._storeIdentity(of: object) else {
      throw StoreError(.missingIdentity(entity: name))
    }
    let text = Self.text(of: id)
    // SQLite's JSON functions end a string at a NUL: `"T\0"` would be found as `"T"`.
    guard !text.contains("\0") else {
      throw StoreError(
        .unwritableValue(
          entity: name, keyPath: "identity",
          errors: MappingErrors([
            MappingError(
              .notRepresentable(
                reason: "the identity \(text.debugDescription) holds a NUL character, which "
                  + "SQLite's JSON functions end a string at"))
          ])))
    }
    return text
  }

  /// `id` as the text the store keys objects by: what ``identity(of:)`` gives for an object
  /// whose identity is `id`.
  public static func identityText(_ id: some Hashable) -> String {
    text(of: AnyHashable(id))
  }

  private static func text(of id: AnyHashable) -> String {
    switch id.base {
    case let text as String: return text
    case let uuid as UUID: return uuid.uuidString
    case let url as URL: return url.absoluteString
    case let number as any BinaryFloatingPoint: return canonical(number)
    default: return "\(id.base)"
    }
  }

  /// A floating-point identity as text, `-0.0` written as `0.0`: the two are one identity in
  /// Swift (equal, with one hash), so they are one object in the store too.
  private static func canonical<Number: BinaryFloatingPoint>(_ number: Number) -> String {
    number.isZero ? "\(Number.zero)" : "\(number)"
  }

  /// `object` as the payload a store keeps: the mapping's compact JSON serialization.
  ///
  /// - Throws: ``StoreError`` when a value cannot be written, with its path.
  public func payload(of object: Object) throws(StoreError) -> [UInt8] {
    do {
      return try mapping._storeJSON(object)
    } catch {
      throw StoreError(.unserializable(entity: name, errors: error))
    }
  }

  /// The object a stored payload describes, mapped with the entity's mapping (its validation
  /// included).
  ///
  /// - Throws: ``UnmappableRow`` naming the entity, the identity and every mapping error.
  public func object(fromPayload payload: [UInt8], id: String) throws(UnmappableRow) -> Object {
    do {
      return try mapping.map(payload)
    } catch {
      throw UnmappableRow(entity: name, id: id, errors: error)
    }
  }

  /// Maps a stored payload onto an existing instance (an identity-mapped class instance being
  /// refreshed); transactional, as ``MappingProtocol/map(_:onto:with:)`` is.
  func map(payload: [UInt8], onto object: inout Object, id: String) throws(UnmappableRow) {
    do {
      try mapping.map(payload, onto: &object)
    } catch {
      throw UnmappableRow(entity: name, id: id, errors: error)
    }
  }

  /// Throws unless the mapping is usable as a schema: identified, without definition problems,
  /// and every index key path written.
  func checkIdentified() throws(StoreError) {
    // Queries name their entity in the SQL text, where a NUL ends it: such an entity's rows
    // could be saved and never read.
    guard !name.contains("\0") else {
      throw StoreError(
        .invalidMapping(
          entity: name,
          errors: MappingErrors([
            MappingError(
              .invalidDefinition(message: "the entity's name holds a NUL character"))
          ])))
    }
    guard mapping._storeIdentityKeyPath != nil else {
      throw StoreError(.notIdentified(entity: name))
    }
    if let keyPath = indexProblems.first {
      throw StoreError(.unknownKeyPath(entity: name, keyPath: keyPath))
    }
    let problems = mapping._storeDefinitionProblems
    guard problems.isEmpty else {
      throw StoreError(
        .invalidMapping(
          entity: name,
          errors: MappingErrors(problems.map { MappingError(.invalidDefinition(message: $0)) })))
    }
  }

  /// The payload keys `keyPath` is written to, or the error naming it.
  func field<Value>(_ keyPath: KeyPath<Object, Value>) throws(StoreError) -> _StoreField<Value> {
    guard let field = mapping._storeField(keyPath) else {
      throw StoreError(.unknownKeyPath(entity: name, keyPath: _describe(keyPath)))
    }
    return field
  }

  /// The payload keys a key path of any value type is written to, or the error naming it.
  func path(_ keyPath: AnyKeyPath) throws(StoreError) -> [String] {
    guard let path = mapping._storePath(keyPath) else {
      throw StoreError(.unknownKeyPath(entity: name, keyPath: _describe(keyPath)))
    }
    return path
  }
}

/// A key path as messages show it (`\Article.author.name`).
func _describe(_ keyPath: AnyKeyPath) -> String {
  var text = String(describing: keyPath)
  // An optional-chaining key path prints a `?` after its last component.
  if text.contains("?."), text.hasSuffix("?") { text.removeLast() }
  // A computed property prints its accessor's address (`<computed 0x55ce… (Int)>`), which
  // changes from run to run: keep its type only.
  while let start = text.range(of: "<computed 0x"),
    let end = text[start.upperBound...].range(of: " (")
  {
    text.replaceSubrange(start.lowerBound..<end.upperBound, with: "<computed (")
  }
  return text
}

/// An index of an entity: the payload key paths it orders rows by, in order.
public struct StoreIndex: Sendable, Equatable {
  /// The payload key paths (`[["author", "name"]]`).
  public let paths: [[String]]
}
