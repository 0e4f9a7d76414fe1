import ObjectMapping

/// A stored row as read: its identity, the generation that wrote it, and its payload.
struct StoredRow: Sendable {
  let id: String
  let generation: Int64
  let payload: [UInt8]
}

/// How a connection is set up.
struct ConnectionSettings: Sendable {
  let path: String
  let busyTimeoutMilliseconds: Int32
  let synchronousFull: Bool
  let maximumSize: Int?
}

/// `error` as a ``StoreError`` about the database at `path`.
func _storeError(_ error: SQLiteError, path: String) -> StoreError {
  if error.isNotADatabase { return StoreError(.notADatabase(path: path)) }
  if error.isCorrupt { return StoreError(.corrupt(path: path, reason: error.message)) }
  if error.isFull { return StoreError(.full(path: path, reason: error.message)) }
  if error.isReadOnly { return StoreError(.readOnly(path: path)) }
  if error.isBusy { return StoreError(.busy(path: path, reason: error.message)) }
  if error.isCannotOpen { return StoreError(.cannotOpen(path: path, reason: error.message)) }
  return StoreError(.sqlite(path: path, code: error.code, message: error.message))
}

/// The one connection that writes: every save, delete, load and schema change goes through it,
/// one at a time, each a transaction.
actor StoreWriter {
  private let connection: SQLiteConnection
  private let path: String
  /// Compiled statements, by SQL text.
  private var statements: [String: SQLiteStatement] = [:]
  /// The indexes known to exist.
  private var ensuredIndexes: Set<String> = []

  /// Opens (creating) the database for writing; `nil` when the file can only be read (SQLite
  /// opened it read-only: no permission to write it).
  static func open(_ settings: ConnectionSettings) throws(StoreError) -> StoreWriter? {
    let connection: SQLiteConnection
    do {
      connection = try SQLiteConnection(path: settings.path, mode: .readWriteCreate)
    } catch {
      throw _storeError(error, path: settings.path)
    }
    do {
      connection.setBusyTimeout(milliseconds: settings.busyTimeoutMilliseconds)
      // Reading the header: a file that is not a database fails here, before anything is
      // written to it.
      try connection.execute("SELECT count(*) FROM sqlite_schema")
      if connection.isReadOnly { return nil }
      // Another program's database is refused before anything is written to it (the store's
      // tables, the WAL journal mode), as a read-only store refuses it: a database with tables
      // is a store only when it has the store's two.
      let tables = try Self.integer(
        "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' "
          + "ESCAPE '\\'", on: connection)
      let storeTables = try Self.integer(
        "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name IN "
          + "('om_meta', 'om_objects')", on: connection)
      guard tables == 0 || storeTables == 2 else {
        throw StoreError(
          .cannotOpen(path: settings.path, reason: "it is a database, not an object store"))
      }
      try connection.execute("PRAGMA journal_mode = WAL")
      try connection.execute(
        "PRAGMA synchronous = \(settings.synchronousFull ? "FULL" : "NORMAL")")
      if let maximumSize = settings.maximumSize {
        // The page size is fixed by the first write; a new database uses the default.
        let pageSize = try Self.integer("PRAGMA page_size", on: connection)
        let pages = max(1, Int64(maximumSize) / max(pageSize, 1))
        try connection.execute("PRAGMA max_page_count = \(pages)")
      }
      try connection.execute("BEGIN IMMEDIATE")
      do {
        try connection.execute(StoreSQL.schema)
        try connection.execute("COMMIT")
      } catch {
        if connection.isInTransaction { try? connection.execute("ROLLBACK") }
        throw error
      }
      let format = try Self.integer(StoreSQL.format, on: connection)
      guard format <= SQLiteStore.format else {
        throw StoreError(.unsupportedFormat(path: settings.path, format: Int(format)))
      }
    } catch let error as SQLiteError {
      throw _storeError(error, path: settings.path)
    } catch let error as StoreError {
      throw error
    } catch {
      throw StoreError(.sqlite(path: settings.path, code: -1, message: "\(error)"))
    }
    return StoreWriter(connection: connection, path: settings.path)
  }

  private init(connection: SQLiteConnection, path: String) {
    self.connection = connection
    self.path = path
  }

  private static func integer(_ sql: String, on connection: SQLiteConnection)
    throws(SQLiteError) -> Int64
  {
    let statement = try connection.prepare(sql)
    guard try statement.step() else { return 0 }
    return statement.int64(at: 0)
  }

  private func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
    if let cached = statements[sql] {
      cached.reset()
      return cached
    }
    let statement = try connection.prepare(sql)
    statements[sql] = statement
    return statement
  }

  /// Runs `body` in a write transaction: committed when it returns, rolled back when it (or the
  /// commit) throws.
  private func transaction<Result>(_ body: () throws(SQLiteError) -> Result)
    throws(StoreError) -> Result
  {
    do {
      try connection.execute("BEGIN IMMEDIATE")
      let result = try body()
      try connection.execute("COMMIT")
      return result
    } catch {
      if connection.isInTransaction { try? connection.execute("ROLLBACK") }
      throw _storeError(error, path: path)
    }
  }

  /// The next generation, inside a transaction.
  ///
  /// The file is another program's to change: a counter that is not one integer row below
  /// `Int64.max` (missing, duplicated, text, at its end) is a damaged file, not a generation that
  /// wraps or repeats (orphans are found by generation).
  private func nextGeneration() throws(SQLiteError) -> Int64 {
    let statement = try statement(StoreSQL.nextGeneration)
    defer { statement.reset() }
    guard try statement.step() else {
      throw .corrupt(
        "the generation counter in om_meta is missing, not an integer, or at its end")
    }
    let generation = statement.int64(at: 0)
    guard try !statement.step() else {
      throw .corrupt("om_meta holds the generation counter twice")
    }
    return generation
  }

  /// Creates the indexes of `entity` that are not known to exist.
  func ensureIndexes(entity: String, indexes: [[[String]]]) throws(StoreError) {
    let missing = indexes.filter {
      !ensuredIndexes.contains(StoreSQL.indexName(entity: entity, paths: $0))
    }
    guard !missing.isEmpty else { return }
    try transaction { () throws(SQLiteError) in
      for paths in missing {
        try connection.execute(StoreSQL.createIndex(entity: entity, paths: paths))
      }
    }
    for paths in missing {
      ensuredIndexes.insert(StoreSQL.indexName(entity: entity, paths: paths))
    }
  }

  /// Upserts `rows` in one transaction; returns the generation they were written with.
  func save(entity: String, rows: [(id: String, payload: [UInt8])]) throws(StoreError) -> Int64 {
    try transaction { () throws(SQLiteError) in
      let generation = try nextGeneration()
      try upsert(entity: entity, rows: rows, generation: generation)
      return generation
    }
  }

  private func upsert(entity: String, rows: [(id: String, payload: [UInt8])], generation: Int64)
    throws(SQLiteError)
  {
    let upsert = try statement(StoreSQL.upsert)
    for row in rows {
      upsert.reset()
      try upsert.bind(entity, at: 1)
      try upsert.bind(row.id, at: 2)
      try upsert.bind(generation, at: 3)
      try upsert.bindText(row.payload, at: 4)
      _ = try upsert.step()
    }
  }

  /// Deletes the rows with these identities in one transaction; returns how many existed.
  func delete(entity: String, ids: [String]) throws(StoreError) -> Int {
    try transaction { () throws(SQLiteError) in
      try deleteRows(entity: entity, ids: ids)
    }
  }

  private func deleteRows(entity: String, ids: [String]) throws(SQLiteError) -> Int {
    let delete = try statement(StoreSQL.deleteOne)
    var deleted = 0
    for id in ids {
      delete.reset()
      try delete.bind(entity, at: 1)
      try delete.bind(id, at: 2)
      _ = try delete.step()
      deleted += connection.changes
    }
    return deleted
  }

  /// A load: upserts `rows`, then reads the rows `scope` selects that `rows` does not list (the
  /// orphans) and deletes them when `removes`; one transaction.
  func load(
    entity: String, rows: [(id: String, payload: [UInt8])], scope: _SQL?, removes: Bool
  ) throws(StoreError) -> (generation: Int64, orphans: [StoredRow]) {
    try transaction { () throws(SQLiteError) in
      let generation = try nextGeneration()
      try upsert(entity: entity, rows: rows, generation: generation)
      guard let scope else { return (generation, []) }
      // Rows written by this load carry its generation: the others in scope are orphans.
      let select = try connection.prepare(scope.text)
      try select.bind(scope.values)
      var orphans: [StoredRow] = []
      while try select.step() {
        let rowGeneration = select.int64(at: 1)
        guard rowGeneration != generation else { continue }
        orphans.append(
          StoredRow(
            id: select.string(at: 0), generation: rowGeneration,
            payload: select.textBytes(at: 2)))
      }
      if removes { _ = try deleteRows(entity: entity, ids: orphans.map(\.id)) }
      return (generation, orphans)
    }
  }

  /// Rewrites and deletes rows of a migration in one transaction.
  func rewrite(entity: String, rows: [(id: String, payload: [UInt8])], deleting ids: [String])
    throws(StoreError) -> Int64
  {
    try transaction { () throws(SQLiteError) in
      let generation = try nextGeneration()
      try upsert(entity: entity, rows: rows, generation: generation)
      _ = try deleteRows(entity: entity, ids: ids)
      return generation
    }
  }

  /// Closes the connection (checkpointing the write-ahead log).
  func close() {
    statements.removeAll()
    connection.close()
  }
}

/// One connection that reads; the store keeps several, so reads run side by side with each other
/// and with the writer (WAL mode).
actor StoreReader {
  private let connection: SQLiteConnection
  private let path: String

  /// Opens a reading connection; with `checkingStore`, checks that the file is a database with
  /// the store's tables, of a format this library reads.
  static func open(_ settings: ConnectionSettings, checkingStore: Bool) throws(StoreError)
    -> StoreReader
  {
    let connection: SQLiteConnection
    do {
      connection = try SQLiteConnection(path: settings.path, mode: .readOnly)
      connection.setBusyTimeout(milliseconds: settings.busyTimeoutMilliseconds)
    } catch {
      throw _storeError(error, path: settings.path)
    }
    if checkingStore { try check(connection, path: settings.path) }
    return StoreReader(connection: connection, path: settings.path)
  }

  private init(connection: SQLiteConnection, path: String) {
    self.connection = connection
    self.path = path
  }

  private static func check(_ connection: SQLiteConnection, path: String) throws(StoreError) {
    do {
      let tables = try connection.prepare(
        "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name IN "
          + "('om_meta', 'om_objects')")
      guard try tables.step(), tables.int64(at: 0) == 2 else {
        throw StoreError(.cannotOpen(path: path, reason: "it is a database, not an object store"))
      }
      let format = try connection.prepare(StoreSQL.format)
      if try format.step(), format.int64(at: 0) > Int64(SQLiteStore.format) {
        throw StoreError(.unsupportedFormat(path: path, format: Int(format.int64(at: 0))))
      }
    } catch let error as SQLiteError {
      throw _storeError(error, path: path)
    } catch let error as StoreError {
      throw error
    } catch {
      throw StoreError(.sqlite(path: path, code: -1, message: "\(error)"))
    }
  }

  /// Runs `sql` and passes each row (identity, generation, payload) to `transform`, here, while
  /// the next row is not yet read: memory holds the results, not the rows.
  func read<Result: Sendable>(
    _ sql: _SQL, _ transform: @Sendable (StoredRow) -> Result
  ) throws(StoreError) -> [Result] {
    do {
      let statement = try connection.prepare(sql.text)
      try statement.bind(sql.values)
      var results: [Result] = []
      while try statement.step() {
        let row = StoredRow(
          id: statement.string(at: 0), generation: statement.int64(at: 1),
          payload: statement.textBytes(at: 2))
        results.append(transform(row))
      }
      return results
    } catch {
      throw _storeError(error, path: path)
    }
  }

  /// Runs a query returning one integer.
  func integer(_ sql: _SQL) throws(StoreError) -> Int64 {
    do {
      let statement = try connection.prepare(sql.text)
      try statement.bind(sql.values)
      guard try statement.step() else { return 0 }
      return statement.int64(at: 0)
    } catch {
      throw _storeError(error, path: path)
    }
  }

  /// Runs a query returning text rows (the first column).
  func texts(_ sql: _SQL) throws(StoreError) -> [String] {
    do {
      let statement = try connection.prepare(sql.text)
      try statement.bind(sql.values)
      var texts: [String] = []
      while try statement.step() { texts.append(statement.string(at: 0)) }
      return texts
    } catch {
      throw _storeError(error, path: path)
    }
  }

  func close() {
    connection.close()
  }
}

/// The reading connections: a fetch checks one out, so concurrent fetches each get their own
/// (up to the pool's size; more wait for one to come back).
actor ReaderPool {
  private var idle: [StoreReader]
  private var waiting: [CheckedContinuation<StoreReader, Never>] = []
  /// Set by ``closeAll()``: a reader checked in afterwards (a fetch was using it) is closed
  /// too, so that every call after `close()` fails, as the store promises.
  private var closed = false

  init(_ readers: [StoreReader]) {
    idle = readers
  }

  func checkOut() async -> StoreReader {
    if let reader = idle.popLast() { return reader }
    return await withCheckedContinuation { waiting.append($0) }
  }

  func checkIn(_ reader: StoreReader) async {
    if closed { await reader.close() }
    if waiting.isEmpty {
      idle.append(reader)
    } else {
      waiting.removeFirst().resume(returning: reader)
    }
  }

  /// Closes every idle reader, and each busy one when it is checked in (the store is going
  /// away): a closed reader fails every query.
  func closeAll() async {
    closed = true
    for reader in idle { await reader.close() }
  }
}

/// What a migration does with one row.
enum MigrationDecision: Sendable {
  /// The row maps: leave it.
  case keep
  /// Write this payload instead.
  case rewrite([UInt8])
  /// Delete the row (reported).
  case delete(UnmappableRow)
  /// Leave the row and report it.
  case report(UnmappableRow)
}

extension StoreWriter {
  /// Reads every row of `entity` and applies `decide`'s decision to it, in one transaction:
  /// the rows rewritten, deleted and reported.
  func migrate(entity: String, decide: @Sendable (StoredRow) -> MigrationDecision)
    throws(StoreError) -> (rewritten: [String], deleted: [UnmappableRow], left: [UnmappableRow])
  {
    try transaction { () throws(SQLiteError) in
      let select = try connection.prepare(
        "SELECT id, generation, payload FROM om_objects WHERE entity = ?1 ORDER BY rowid")
      try select.bind(entity, at: 1)
      var rewrites: [(id: String, payload: [UInt8])] = []
      var deleted: [UnmappableRow] = []
      var left: [UnmappableRow] = []
      while try select.step() {
        let row = StoredRow(
          id: select.string(at: 0), generation: select.int64(at: 1),
          payload: select.textBytes(at: 2))
        switch decide(row) {
        case .keep: break
        case .rewrite(let payload): rewrites.append((row.id, payload))
        case .delete(let report): deleted.append(report)
        case .report(let report): left.append(report)
        }
      }
      if !rewrites.isEmpty {
        try upsert(entity: entity, rows: rewrites, generation: try nextGeneration())
      }
      _ = try deleteRows(entity: entity, ids: deleted.map(\.id))
      return (rewrites.map(\.id), deleted, left)
    }
  }
}
