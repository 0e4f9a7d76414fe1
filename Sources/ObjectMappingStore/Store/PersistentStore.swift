import ObjectMapping

/// The contract of a persistent object store: what ``SQLiteStore`` does, and what a store of
/// your own (Core Data, SwiftData, a server database, an in-memory fake for tests) implements
/// to stand in for it.
///
/// Every call takes a ``StoreEntity``: its name and the identity of each object
/// (``StoreEntity/identity(of:)``) key the rows, ``StoreEntity/payload(of:)`` is what to keep,
/// ``StoreEntity/object(fromPayload:id:)`` reads it back, and predicates and orderings resolve to
/// payload keys (``StorePredicate/resolved(for:)``, ``StoreOrder/resolved(for:)``), so a store
/// needs no knowledge of the model:
///
/// ```swift
/// actor MemoryStore: PersistentStore {
///   var rows: [String: [String: [UInt8]]] = [:]   // entity → identity → payload
///
///   func save<Object>(_ objects: [Object], to entity: StoreEntity<Object>)
///     async throws(StoreError)
///   {
///     var written = rows[entity.name, default: [:]]
///     for object in objects {   // all before any is kept: all or nothing
///       written[try entity.identity(of: object)] = try entity.payload(of: object)
///     }
///     rows[entity.name] = written
///   }
///   // fetch: resolve the predicate, test each payload (as a Node) against the condition …
/// }
/// ```
///
/// The rules every store keeps (``SQLiteStore`` is tested against each):
/// - A call that throws changed nothing: ``save(_:to:)``, ``delete(_:ids:)`` and
///   ``load(_:into:orphans:)`` are transactions.
/// - Saving an identity that is stored replaces its row (an upsert); the last of several
///   objects with one identity in a call wins.
/// - A stored row that does not map with the entity's mapping is reported in the result's
///   `unmappable` with its identity, never dropped.
/// - A key path the mapping does not write is an error, never a full scan in silence.
/// - Without an ordering, objects come back in the order their identities were first saved.
/// - Class instances: while one fetched or saved is alive, fetching its identity again gives the
///   same instance (an identity map); structs are values.
public protocol PersistentStore: Sendable {
  /// Saves `objects` (inserting new identities, replacing stored ones), all or nothing.
  ///
  /// - Throws: ``StoreError``; then nothing was saved.
  func save<Object>(_ objects: [Object], to entity: StoreEntity<Object>) async throws(StoreError)

  /// Deletes the objects with these identities, all or nothing; returns how many were stored.
  ///
  /// - Throws: ``StoreError``; then nothing was deleted.
  @discardableResult
  func delete<Object, ID: Hashable & Sendable>(_ entity: StoreEntity<Object>, ids: [ID])
    async throws(StoreError) -> Int

  /// The objects matching `predicate` (all when `nil`), ordered, at most `limit` after skipping
  /// `offset`.
  ///
  /// - Throws: ``StoreError`` for a key path the mapping does not write, or the database.
  func fetch<Object>(
    _ entity: StoreEntity<Object>, where predicate: StorePredicate<Object>?,
    orderBy order: [StoreOrder<Object>], limit: Int?, offset: Int
  ) async throws(StoreError) -> StoreFetch<Object>

  /// The objects with these identities, in the order of `ids`; identities not stored are left
  /// out.
  ///
  /// - Throws: ``StoreError`` for the database.
  func fetch<Object, ID: Hashable & Sendable>(_ entity: StoreEntity<Object>, ids: [ID])
    async throws(StoreError) -> StoreFetch<Object>

  /// A load from a server, in one transaction: saves `objects`, then finds the stored objects
  /// in the orphan scope that `objects` no longer lists and reports or removes them
  /// (RestKit's fetch-request blocks). A failed load changes nothing.
  ///
  /// - Throws: ``StoreError``; then nothing was saved or removed.
  @discardableResult
  func load<Object>(
    _ objects: [Object], into entity: StoreEntity<Object>, orphans: OrphanRule<Object>?
  ) async throws(StoreError) -> StoreLoad<Object>
}

extension PersistentStore {
  /// The objects matching `predicate`, ordered, at most `limit`: ``fetch(_:where:orderBy:limit:offset:)``
  /// with defaults.
  ///
  /// ```swift
  /// let page = try await store.fetch(
  ///   articles, where: \.author.name == "Ann", orderBy: [.descending(\.publishedAt)], limit: 20)
  /// page.objects        // the articles
  /// page.unmappable     // rows today's mapping cannot read, with their identities
  /// ```
  ///
  /// - Parameters:
  ///   - entity: The entity to fetch.
  ///   - predicate: The condition; `nil` for every object.
  ///   - order: The ordering keys; empty for the order identities were first saved in.
  ///   - limit: At most this many objects; `nil` for all.
  ///   - offset: How many matching objects to skip first.
  /// - Returns: The objects and the rows that did not map.
  /// - Throws: ``StoreError``.
  public func fetch<Object>(
    _ entity: StoreEntity<Object>, where predicate: StorePredicate<Object>? = nil,
    orderBy order: [StoreOrder<Object>] = [], limit: Int? = nil, offset: Int = 0
  ) async throws(StoreError) -> StoreFetch<Object> {
    try await fetch(entity, where: predicate, orderBy: order, limit: limit, offset: offset)
  }

  /// The object with identity `id`, or `nil` when none is stored.
  ///
  /// ```swift
  /// let article = try await store.fetch(articles, id: 42)
  /// ```
  ///
  /// - Parameters:
  ///   - entity: The entity to fetch.
  ///   - id: The identity (the value of the property the mapping is identified by).
  /// - Returns: The object (the live instance, for a class), or `nil`.
  /// - Throws: ``StoreFetchError``: the store failed, or the row is stored but does not map
  ///   with today's mapping (``StoreFetchError/unmappable(_:)``, with the mapping errors).
  public func fetch<Object, ID: Hashable & Sendable>(_ entity: StoreEntity<Object>, id: ID)
    async throws(StoreFetchError) -> Object?
  {
    let result: StoreFetch<Object>
    do {
      result = try await fetch(entity, ids: [id])
    } catch {
      throw .store(error)
    }
    if let row = result.unmappable.first { throw .unmappable(row) }
    return result.objects.first
  }
}

/// Why fetching one object failed: the store failed, or its row does not map.
public enum StoreFetchError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The store failed.
  case store(StoreError)
  /// The row is stored but does not map with today's mapping.
  case unmappable(UnmappableRow)

  /// The store's error, or the row's report.
  public var description: String {
    switch self {
    case .store(let error): error.description
    case .unmappable(let row): row.description
    }
  }
}

/// What a fetch gives: the objects, and the stored rows that did not map.
public struct StoreFetch<Object> {
  /// The objects, in order (identity-mapped instances for classes).
  public var objects: [Object]
  /// The rows matching the fetch that today's mapping cannot read, in order, each with its
  /// identity and errors (see ``SQLiteStore/migrate(_:from:)``).
  public var unmappable: [UnmappableRow]

  /// Creates a result.
  public init(objects: [Object], unmappable: [UnmappableRow] = []) {
    self.objects = objects
    self.unmappable = unmappable
  }
}

extension StoreFetch: Sendable where Object: Sendable {}

/// Which stored objects a load no longer lists are orphans, and what happens to them.
///
/// ```swift
/// // The response lists every article: the others are gone from the server.
/// try await store.load(articles, into: articleEntity, orphans: .remove())
/// // The response lists the comments of article 7: only those are in scope.
/// try await store.load(comments, into: commentEntity, orphans: .remove(in: \.articleID == 7))
/// ```
public struct OrphanRule<Object: Sendable>: Sendable {
  /// The stored objects the load speaks for (`nil`: every object of the entity).
  public let scope: StorePredicate<Object>?
  /// Whether orphans are deleted (else only reported).
  public let removes: Bool

  /// Orphans in `scope` are reported in ``StoreLoad/orphans`` and kept.
  ///
  /// - Parameter scope: The stored objects the load speaks for; `nil` for every object.
  /// - Returns: The rule.
  public static func report(in scope: StorePredicate<Object>? = nil) -> Self {
    Self(scope: scope, removes: false)
  }

  /// Orphans in `scope` are reported in ``StoreLoad/orphans`` and deleted, in the load's
  /// transaction.
  ///
  /// - Parameter scope: The stored objects the load speaks for; `nil` for every object.
  /// - Returns: The rule.
  public static func remove(in scope: StorePredicate<Object>? = nil) -> Self {
    Self(scope: scope, removes: true)
  }
}

/// What a load gives.
public struct StoreLoad<Object> {
  /// The loaded objects, in order, as they are now stored (the instances given).
  public var objects: [Object]
  /// The stored objects in the orphan scope that the load did not list, in stored order (the
  /// identity-mapped instances for classes); deleted when the rule removes them.
  public var orphans: [Object]
  /// Orphan rows that do not map with today's mapping (also deleted when the rule removes).
  public var unmappable: [UnmappableRow]

  /// Creates a result.
  public init(objects: [Object], orphans: [Object] = [], unmappable: [UnmappableRow] = []) {
    self.objects = objects
    self.orphans = orphans
    self.unmappable = unmappable
  }
}

extension StoreLoad: Sendable where Object: Sendable {}
