import ObjectMapping

/// Why a persistent store call failed. Nothing was written by a call that throws one.
///
/// ```swift
/// do {
///   try await store.save(articles, to: articleEntity)
/// } catch {
///   print(error)   // the database is full: database or disk is full (/tmp/app.sqlite)
/// }
/// ```
///
/// The rendered text (``description``) names the file, the entity, the identity or the key path
/// concerned.
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong.
  public enum Kind: Sendable, Equatable {
    /// The file could not be opened (a missing folder, no permission, a missing file opened
    /// read-only).
    case cannotOpen(path: String, reason: String)
    /// The file is not a SQLite database (or its header is damaged).
    case notADatabase(path: String)
    /// The database is damaged: a page SQLite read is inconsistent.
    case corrupt(path: String, reason: String)
    /// The database was written by a newer version of this library (its format number).
    case unsupportedFormat(path: String, format: Int)
    /// The store was opened read-only, or the file cannot be written.
    case readOnly(path: String)
    /// The disk is full, or the database reached its ``SQLiteStore/Options/maximumSize``.
    case full(path: String, reason: String)
    /// Another connection held a lock longer than the busy timeout.
    case busy(path: String, reason: String)
    /// The entity's mapping has no ``Mapping/identified(by:)``, so objects have no key.
    case notIdentified(entity: String)
    /// An object's identity is `nil`.
    case missingIdentity(entity: String)
    /// The entity's mapping has definition problems (see ``Mapping/validate()``).
    case invalidMapping(entity: String, errors: MappingErrors)
    /// A key path in a query, an ordering or an index that the entity's mapping does not write.
    case unknownKeyPath(entity: String, keyPath: String)
    /// A query value the mapping cannot write (a transform refused it).
    case unwritableValue(entity: String, keyPath: String, errors: MappingErrors)
    /// An object could not be serialized with its entity's mapping.
    case unserializable(entity: String, errors: MappingErrors)
    /// A query the store refuses to run, and why: a predicate nested deeper than 32 levels or
    /// holding more than 4,096 conditions (see ``StorePredicate``), more values than SQLite
    /// binds in one statement, or a negative limit or offset.
    case unsupportedQuery(entity: String, reason: String)
    /// Any other failure SQLite reported, with its extended result code.
    case sqlite(path: String, code: Int32, message: String)
  }

  /// What went wrong.
  public let kind: Kind

  /// Creates an error of `kind`.
  public init(_ kind: Kind) {
    self.kind = kind
  }

  /// One line for people: `Article: \Article.body is not written by the mapping; query, order or
  /// index a property an Attribute writes`.
  public var description: String {
    switch kind {
    case .cannotOpen(let path, let reason):
      return "cannot open the database \(path): \(reason)"
    case .notADatabase(let path):
      return "\(path) is not a database (or its header is damaged)"
    case .corrupt(let path, let reason):
      return "the database \(path) is damaged: \(reason)"
    case .unsupportedFormat(let path, let format):
      return
        "the database \(path) has store format \(format), newer than this library's "
        + "\(SQLiteStore.format); open it with a newer version"
    case .readOnly(let path):
      return "the database \(path) is open read-only"
    case .full(let path, let reason):
      return "the database \(path) is full: \(reason)"
    case .busy(let path, let reason):
      return "the database \(path) is locked by another connection: \(reason)"
    case .notIdentified(let entity):
      return
        "\(entity): the mapping has no identity; add .identified(by:) with the property that "
        + "keys its objects"
    case .missingIdentity(let entity):
      return "\(entity): an object's identity is nil, so it has no key to be stored under"
    case .invalidMapping(let entity, let errors):
      return "\(entity): the mapping is invalid: \(errors)"
    case .unknownKeyPath(let entity, let keyPath):
      return
        "\(entity): \(keyPath) is not written by the mapping; query, order or index a property "
        + "an Attribute writes (through a to-one relationship: \\.author.name, or "
        + "\\.author!.name when it is optional)"
    case .unwritableValue(let entity, let keyPath, let errors):
      return "\(entity): the value compared with \(keyPath) cannot be written: \(errors)"
    case .unserializable(let entity, let errors):
      return "\(entity): cannot serialize an object: \(errors)"
    case .unsupportedQuery(let entity, let reason):
      return "\(entity): the query cannot run: \(reason)"
    case .sqlite(let path, let code, let message):
      return "SQLite error \(code) on \(path): \(message)"
    }
  }
}

/// A stored row that does not map with today's mapping: its entity, its identity and the
/// mapping errors. Fetches report such rows beside the objects instead of dropping them (see
/// ``StoreFetch/unmappable``); remap or delete them with ``SQLiteStore/migrate(_:from:)`` and
/// ``SQLiteStore/deleteUnmappable(_:)``.
///
/// ```swift
/// let result = try await store.fetch(articles)
/// for row in result.unmappable {
///   print(row)   // Article 7: /title: required value is missing
/// }
/// ```
public struct UnmappableRow: Error, Sendable, Equatable, CustomStringConvertible {
  /// The entity's name.
  public let entity: String
  /// The row's identity (its key).
  public let id: String
  /// Why it does not map, each error with its path in the stored payload.
  public let errors: MappingErrors

  /// Creates a report.
  public init(entity: String, id: String, errors: MappingErrors) {
    self.entity = entity
    self.id = id
    self.errors = errors
  }

  /// `Article 7: /title: required value is missing`.
  public var description: String { "\(entity) \(id): \(errors)" }
}
