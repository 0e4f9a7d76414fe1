import Foundation
import ObjectMapping

/// A persistent object store in a SQLite database file: RestKit's object store, with the
/// mappings as the schema.
///
/// Objects are stored as their mapping's JSON, keyed by entity and identity; reading maps them
/// back through the same mapping. Saves are transactions; fetches query the mapped key paths;
/// class instances are uniqued while they live.
///
/// ```swift
/// let store = try SQLiteStore(path: folder.appendingPathComponent("App.sqlite").path)
/// let articles = StoreEntity("Article", mapping: articleMapping).indexed(by: \.publishedAt)
///
/// try await store.save(loaded, to: articles)                       // one transaction
/// let page = try await store.fetch(
///   articles, where: \.author.name == "Ann", orderBy: [.descending(\.publishedAt)], limit: 20)
/// let one = try await store.fetch(articles, id: 42)                // offline, by identity
/// ```
///
/// Concurrency: the store is `Sendable` and every call is `async`. One connection writes (an
/// actor: saves, deletes and loads run one at a time) and a pool of reading connections serves
/// fetches side by side, beside the writer (SQLite's write-ahead log). Another process may use
/// the same file; it waits for the write lock up to ``Options/busyTimeout``.
public final class SQLiteStore: PersistentStore {
  /// The version of the store's tables; a database with a newer one is refused.
  public static let format = 1

  /// How a store opens its database.
  public struct Options: Sendable {
    /// Open the file read-only: fetches work, saves throw ``StoreError/Kind/readOnly(path:)``.
    /// The file must exist. A file the process cannot write opens read-only too.
    public var readOnly = false
    /// How many reading connections serve fetches side by side (at least 1).
    public var readers = 4
    /// How long a call waits for another process's lock before failing, in seconds.
    public var busyTimeout: TimeInterval = 5
    /// Whether each commit waits until the disk has it (`PRAGMA synchronous = FULL`, the
    /// default): a commit survives a power cut. `false` (`NORMAL`) survives a killed process but
    /// may lose the last commits on a power cut, and commits faster.
    public var syncsEveryCommit = true
    /// The largest the database may grow, in bytes (rounded down to whole pages): a save that
    /// would grow it further fails with ``StoreError/Kind/full(path:reason:)`` and commits
    /// nothing. `nil`: as large as the disk allows.
    public var maximumSize: Int?

    /// The default options.
    public init() {}
  }

  /// The database file.
  public let path: String
  /// Whether saves are refused (opened read-only, or a file that cannot be written).
  public let isReadOnly: Bool

  private let writer: StoreWriter?
  private let readers: ReaderPool
  private let identities = IdentityMap()

  /// Opens the database at `path`, creating it (and its tables) unless read-only.
  ///
  /// ```swift
  /// let store = try SQLiteStore(path: "/path/App.sqlite")
  /// var options = SQLiteStore.Options()
  /// options.readOnly = true
  /// let shipped = try SQLiteStore(path: bundledPath, options: options)
  /// ```
  ///
  /// - Parameters:
  ///   - path: The database file.
  ///   - options: How to open it.
  /// - Throws: ``StoreError``: ``StoreError/Kind/notADatabase(path:)`` for a file that is not a
  ///   SQLite database, ``StoreError/Kind/cannotOpen(path:reason:)`` for a folder that does not
  ///   exist, a path that is a folder or a missing file opened read-only, ``StoreError/Kind/unsupportedFormat(path:format:)``
  ///   for a database of a newer version.
  public init(path: String, options: Options = Options()) throws(StoreError) {
    // SQLite's private databases (an empty path, `:memory:`) are one per connection: the
    // readers would not see what the writer saved.
    guard !path.isEmpty, path != ":memory:" else {
      throw StoreError(
        .cannotOpen(
          path: path, reason: "an object store needs a file path, not \(path.debugDescription)"))
    }
    // SQLite opens a folder read-only and fails only at the first read, with an I/O error.
    let values = try? URL(fileURLWithPath: path).resolvingSymlinksInPath()
      .resourceValues(forKeys: [.isDirectoryKey])
    if values?.isDirectory == true {
      throw StoreError(.cannotOpen(path: path, reason: "it is a folder, not a file"))
    }
    self.path = path
    let milliseconds = (options.busyTimeout * 1000).rounded()
    let settings = ConnectionSettings(
      path: path,
      busyTimeoutMilliseconds: milliseconds.isFinite
        ? Int32(clamping: Int64(max(0, min(milliseconds, 86_400_000)))) : 5000,
      synchronousFull: options.syncsEveryCommit, maximumSize: options.maximumSize)
    writer = options.readOnly ? nil : try StoreWriter.open(settings)
    isReadOnly = writer == nil
    var opened: [StoreReader] = []
    for index in 0..<max(1, options.readers) {
      // A read-only store has read nothing yet: the first reader checks that the file is a
      // store, so that a bad file fails here rather than at the first fetch.
      opened.append(try StoreReader.open(settings, checkingStore: isReadOnly && index == 0))
    }
    readers = ReaderPool(opened)
  }

  // MARK: Writing

  /// Saves `objects` in one transaction: each is written as its mapping's JSON under its
  /// identity, replacing a stored row with that identity. All or nothing.
  ///
  /// ```swift
  /// try await store.save([first, second], to: articles)
  /// ```
  ///
  /// Saved class instances become the live instances of their identities (fetching them again
  /// gives them while they are alive). Of several objects with one identity, the last wins.
  ///
  /// - Parameters:
  ///   - objects: The objects to save.
  ///   - entity: Their entity.
  /// - Throws: ``StoreError``: an object the mapping cannot serialize or without identity (before
  ///   anything is written), a read-only store, a full disk or size limit; nothing is saved.
  public func save<Object>(_ objects: [Object], to entity: StoreEntity<Object>)
    async throws(StoreError)
  {
    let writer = try writable()
    let rows = try encode(objects, entity)
    try await writer.ensureIndexes(entity: entity.name, indexes: entity.indexes.map(\.paths))
    let generation = try await writer.save(entity: entity.name, rows: rows)
    if Self.isClass(Object.self) {
      await identities.saved(
        zip(rows, objects).map { (id: $0.id, object: $1) }, generation: generation,
        entity: entity.name)
    }
  }

  /// Deletes the objects with these identities in one transaction.
  ///
  /// ```swift
  /// try await store.delete(articles, ids: [7, 8])
  /// ```
  ///
  /// - Parameters:
  ///   - entity: Their entity.
  ///   - ids: The identities (values of the property the mapping is identified by).
  /// - Returns: How many were stored.
  /// - Throws: ``StoreError``; nothing is deleted.
  @discardableResult
  public func delete<Object, ID: Hashable & Sendable>(_ entity: StoreEntity<Object>, ids: [ID])
    async throws(StoreError) -> Int
  {
    let writer = try writable()
    let texts = ids.map(StoreEntity<Object>.identityText)
    let deleted = try await writer.delete(entity: entity.name, ids: texts)
    await identities.remove(texts, entity: entity.name)
    return deleted
  }

  /// A load in one transaction: saves `objects`, then reports (and with
  /// ``OrphanRule/remove(in:)`` deletes) the stored objects in the rule's scope that `objects`
  /// does not list. A load that throws changes nothing.
  ///
  /// ```swift
  /// let result = try await store.load(fromServer, into: articles, orphans: .remove())
  /// result.orphans   // the articles the server no longer lists, now deleted
  /// ```
  ///
  /// - Parameters:
  ///   - objects: The objects of the response.
  ///   - entity: Their entity.
  ///   - orphans: Which stored objects the response speaks for, and whether those it does not
  ///     list are removed; `nil`: none.
  /// - Returns: The objects, the orphans (mapped from their rows) and orphan rows that do not map.
  /// - Throws: ``StoreError``; nothing is saved or removed.
  @discardableResult
  public func load<Object>(
    _ objects: [Object], into entity: StoreEntity<Object>, orphans: OrphanRule<Object>?
  ) async throws(StoreError) -> StoreLoad<Object> {
    let writer = try writable()
    let rows = try encode(objects, entity)
    var scope: _SQL?
    if let orphans {
      scope = try sql(entity, where: orphans.scope, orderBy: [], limit: nil, offset: 0)
    }
    try await writer.ensureIndexes(entity: entity.name, indexes: entity.indexes.map(\.paths))
    let (generation, orphanRows) = try await writer.load(
      entity: entity.name, rows: rows, scope: scope, removes: orphans?.removes ?? false)
    if Self.isClass(Object.self) {
      await identities.saved(
        zip(rows, objects).map { (id: $0.id, object: $1) }, generation: generation,
        entity: entity.name)
    }
    let mapped = await mapRows(orphanRows, entity: entity)
    if orphans?.removes == true {
      await identities.remove(orphanRows.map(\.id), entity: entity.name)
    }
    return StoreLoad(objects: objects, orphans: mapped.objects, unmappable: mapped.unmappable)
  }

  // MARK: Reading

  /// The objects matching `predicate`, ordered, at most `limit` after skipping `offset`.
  ///
  /// ```swift
  /// let page = try await store.fetch(
  ///   articles, where: \.author.name == "Ann", orderBy: [.descending(\.publishedAt)],
  ///   limit: 20, offset: 0)
  /// ```
  ///
  /// Rows that do not map with today's mapping are in the result's ``StoreFetch/unmappable``;
  /// a limit counts them too.
  ///
  /// - Parameters:
  ///   - entity: The entity.
  ///   - predicate: The condition; `nil` for every object.
  ///   - order: Ordering keys; ties (and no keys) in the order identities were first saved,
  ///     reversed after a descending first key.
  ///   - limit: At most this many rows; `nil` for all.
  ///   - offset: How many matching rows to skip.
  /// - Returns: The objects and the rows that did not map.
  /// - Throws: ``StoreError`` for a key path the mapping does not write, a value it cannot
  ///   write, or the database.
  public func fetch<Object>(
    _ entity: StoreEntity<Object>, where predicate: StorePredicate<Object>?,
    orderBy order: [StoreOrder<Object>], limit: Int?, offset: Int
  ) async throws(StoreError) -> StoreFetch<Object> {
    let sql = try sql(entity, where: predicate, orderBy: order, limit: limit, offset: offset)
    try await ensureIndexes(entity)
    return try await run(sql, entity: entity)
  }

  /// The objects with these identities, in the order of `ids`; identities not stored are left
  /// out.
  ///
  /// ```swift
  /// let some = try await store.fetch(articles, ids: [3, 1, 2])
  /// ```
  ///
  /// - Parameters:
  ///   - entity: The entity.
  ///   - ids: The identities.
  /// - Returns: The objects and the rows that did not map.
  /// - Throws: ``StoreError`` for the database.
  public func fetch<Object, ID: Hashable & Sendable>(_ entity: StoreEntity<Object>, ids: [ID])
    async throws(StoreError) -> StoreFetch<Object>
  {
    try entity.checkIdentified()
    // No identity holds a NUL (saving refuses it), and SQLite's JSON functions end a string
    // there: `"T\0"` would find `"T"`.
    let texts = ids.map(StoreEntity<Object>.identityText).filter { !$0.contains("\0") }
    let list = (try? Node.array(texts.map(Node.string)).jsonString()) ?? "[]"
    let sql = _SQL(
      text:
        "SELECT id, generation, payload FROM om_objects WHERE entity = "
        + StoreSQL.literal(entity.name) + " AND id IN (SELECT value FROM json_each(?1))",
      values: [.text(list)])
    let found = try await run(sql, entity: entity, keepingIDs: true)
    // Identities compare by bytes, as SQLite compares them (not by canonical equivalence).
    var byID: [IdentityKey: Int] = [:]
    for (offset, id) in found.ids.enumerated() { byID[IdentityKey(id)] = offset }
    var objects: [Object] = []
    var unmappable: [UnmappableRow] = []
    let failed = Dictionary(found.result.unmappable.map { (IdentityKey($0.id), $0) }) {
      first, _ in first
    }
    var seen: Set<IdentityKey> = []
    for id in texts.map(IdentityKey.init) where seen.insert(id).inserted {
      if let index = byID[id] {
        objects.append(found.objects[index])
      } else if let row = failed[id] {
        unmappable.append(row)
      }
    }
    return StoreFetch(objects: objects, unmappable: unmappable)
  }

  /// How many objects of `entity` match `predicate` (rows that do not map included).
  ///
  /// - Parameters:
  ///   - entity: The entity.
  ///   - predicate: The condition; `nil` for every object.
  /// - Returns: The number of matching rows.
  /// - Throws: ``StoreError``.
  public func count<Object>(
    _ entity: StoreEntity<Object>, where predicate: StorePredicate<Object>? = nil
  )
    async throws(StoreError) -> Int
  {
    var sql = try sql(entity, where: predicate, orderBy: [], limit: nil, offset: 0)
    // The fetch's own columns, at its start, become a constant: only there (an entity's name
    // or a key in the condition may spell the same words).
    let columns = "SELECT id, generation, payload "
    guard sql.text.hasPrefix(columns) else {
      throw StoreError(.sqlite(path: path, code: -1, message: "unexpected query: \(sql.text)"))
    }
    sql.text = "SELECT count(*) FROM (SELECT 1 " + sql.text.dropFirst(columns.count) + ")"
    let reader = await readers.checkOut()
    do {
      let count = try await reader.integer(sql)
      await readers.checkIn(reader)
      return Int(count)
    } catch {
      await readers.checkIn(reader)
      throw error
    }
  }

  /// Closes the connections. Calls after it fail; the store closes itself when released too.
  public func close() async {
    // Readers first: the writer, closing last, checkpoints the write-ahead log into the file.
    await readers.closeAll()
    await writer?.close()
  }

  // MARK: Internals

  /// The writer, for a migration (in another file).
  func writableForMigration() throws(StoreError) -> StoreWriter { try writable() }

  /// Forgets live instances of rows a migration changed.
  func forget(_ ids: [String], entity: String) async {
    await identities.remove(ids, entity: entity)
  }

  private func writable() throws(StoreError) -> StoreWriter {
    guard let writer else { throw StoreError(.readOnly(path: path)) }
    return writer
  }

  private static func isClass(_ type: Any.Type) -> Bool { type is AnyObject.Type }

  /// Each object's identity and payload, in order; throws before anything is written.
  private func encode<Object>(_ objects: [Object], _ entity: StoreEntity<Object>)
    throws(StoreError) -> [(id: String, payload: [UInt8])]
  {
    try entity.checkIdentified()
    var rows: [(id: String, payload: [UInt8])] = []
    rows.reserveCapacity(objects.count)
    for object in objects {
      rows.append((try entity.identity(of: object), try entity.payload(of: object)))
    }
    return rows
  }

  /// The `SELECT` for a fetch of `entity`.
  private func sql<Object>(
    _ entity: StoreEntity<Object>, where predicate: StorePredicate<Object>?,
    orderBy order: [StoreOrder<Object>], limit: Int?, offset: Int
  ) throws(StoreError) -> _SQL {
    try entity.checkIdentified()
    let condition = try predicate?.resolved(for: entity)
    var orderings: [StoreOrdering] = []
    for key in order { orderings.append(try key.resolved(for: entity)) }
    do {
      return try StoreSQL.select(
        entity: entity.name, condition: condition, order: orderings, limit: limit, offset: offset)
    } catch {
      guard error.isUnsupported else {
        throw StoreError(.unknownKeyPath(entity: entity.name, keyPath: error.message))
      }
      throw StoreError(.unsupportedQuery(entity: entity.name, reason: error.message))
    }
  }

  /// Creates the entity's indexes before its first fetch (not on a read-only store).
  private func ensureIndexes<Object>(_ entity: StoreEntity<Object>) async throws(StoreError) {
    guard let writer, !entity.indexes.isEmpty else { return }
    try await writer.ensureIndexes(entity: entity.name, indexes: entity.indexes.map(\.paths))
  }

  private func run<Object>(_ sql: _SQL, entity: StoreEntity<Object>) async throws(StoreError)
    -> StoreFetch<Object>
  {
    try await run(sql, entity: entity, keepingIDs: false).result
  }

  /// Runs a fetch: reads the rows on a pooled connection, mapping struct rows as they are read,
  /// and class rows through the identity map.
  private func run<Object>(_ sql: _SQL, entity: StoreEntity<Object>, keepingIDs: Bool)
    async throws(StoreError) -> (result: StoreFetch<Object>, ids: [String], objects: [Object])
  {
    let reader = await readers.checkOut()
    let outcomes: [RowOutcome<Object>]
    do {
      if Self.isClass(Object.self) {
        outcomes = try await reader.read(sql) { .row($0) }
      } else {
        outcomes = try await reader.read(sql) { row in
          do throws(UnmappableRow) {
            return .object(row.id, try entity.object(fromPayload: row.payload, id: row.id))
          } catch {
            return .failed(error)
          }
        }
      }
    } catch {
      await readers.checkIn(reader)
      throw error
    }
    await readers.checkIn(reader)
    let resolved = await resolve(outcomes, entity: entity)
    let result = StoreFetch(objects: resolved.objects, unmappable: resolved.unmappable)
    return (result, keepingIDs ? resolved.ids : [], resolved.objects)
  }

  /// The objects of rows read from the database (orphans of a load).
  private func mapRows<Object>(_ rows: [StoredRow], entity: StoreEntity<Object>) async
    -> StoreFetch<Object>
  {
    let outcomes: [RowOutcome<Object>] =
      Self.isClass(Object.self)
      ? rows.map { .row($0) }
      : rows.map { row in
        do throws(UnmappableRow) {
          return .object(row.id, try entity.object(fromPayload: row.payload, id: row.id))
        } catch {
          return .failed(error)
        }
      }
    let resolved = await resolve(outcomes, entity: entity)
    return StoreFetch(objects: resolved.objects, unmappable: resolved.unmappable)
  }

  /// Turns outcomes into objects: struct rows are mapped already; class rows become the live
  /// instance of their identity when one is alive (refreshed if the row is newer), else a new
  /// one, registered.
  private func resolve<Object>(_ outcomes: [RowOutcome<Object>], entity: StoreEntity<Object>)
    async -> (objects: [Object], ids: [String], unmappable: [UnmappableRow])
  {
    var objects: [Object] = []
    var ids: [String] = []
    var unmappable: [UnmappableRow] = []
    objects.reserveCapacity(outcomes.count)
    guard Self.isClass(Object.self) else {
      for outcome in outcomes {
        switch outcome {
        case .object(let id, let object):
          objects.append(object)
          ids.append(id)
        case .failed(let row): unmappable.append(row)
        case .row: break
        }
      }
      return (objects, ids, unmappable)
    }
    let rows = outcomes.compactMap { outcome -> StoredRow? in
      if case .row(let row) = outcome { return row }
      return nil
    }
    let found = await identities.lookup(
      rows.map { (id: $0.id, generation: $0.generation) }, entity: entity.name, as: Object.self)
    // New instances are mapped here, outside the identity map, then registered together.
    var fresh: [(id: String, generation: Int64, object: Object)] = []
    var slots: [_Slot<Object>] = []
    for (row, lookup) in zip(rows, found) {
      switch lookup {
      case .current(let object):
        slots.append(.ready(row.id, object))
      case .stale:
        switch await identities.refresh(row, entity: entity) {
        case .success(let object)?: slots.append(.ready(row.id, object))
        case .failure(let error)?: slots.append(.failed(error))
        case nil:
          slots.append(Self.mapFresh(row, entity: entity, into: &fresh))
        }
      case .none:
        slots.append(Self.mapFresh(row, entity: entity, into: &fresh))
      }
    }
    let registered = await identities.register(fresh, entity: entity.name)
    for slot in slots {
      switch slot {
      case .ready(let id, let object):
        objects.append(object)
        ids.append(id)
      case .fresh(let id, let index):
        objects.append(registered[index])
        ids.append(id)
      case .failed(let row):
        unmappable.append(row)
      }
    }
    return (objects, ids, unmappable)
  }

  private static func mapFresh<Object>(
    _ row: StoredRow, entity: StoreEntity<Object>,
    into fresh: inout [(id: String, generation: Int64, object: Object)]
  ) -> _Slot<Object> {
    do throws(UnmappableRow) {
      let object = try entity.object(fromPayload: row.payload, id: row.id)
      fresh.append((row.id, row.generation, object))
      return .fresh(row.id, fresh.count - 1)
    } catch {
      return .failed(error)
    }
  }
}

/// A row read by a fetch: mapped (structs), failed, or left for the identity map (classes).
enum RowOutcome<Object: Sendable>: Sendable {
  case object(String, Object)
  case failed(UnmappableRow)
  case row(StoredRow)
}

/// Where a class row's object comes from.
private enum _Slot<Object> {
  case ready(String, Object)
  case fresh(String, Int)
  case failed(UnmappableRow)
}
