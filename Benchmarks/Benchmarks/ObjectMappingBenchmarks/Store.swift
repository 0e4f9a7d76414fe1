import Benchmark
import BenchmarkSQLite
import Foundation
import ObjectMapping
import ObjectMappingStore

// The persistent store (issue 39) against its physical floor and against Foundation, in one run:
//
// - `Store.save_100000.ObjectMapping`: `store.save(performances, to: entity)`, 100,000 citm
//   performances in one transaction, into a new database (the measured part is the save alone).
// - `Store.save_100000.PreparedInsert`: the same JSON texts (encoded before measuring) inserted
//   into the same table, with the same indexes, by one prepared statement in one transaction:
//   the floor.
// - `Store.fetch_100000.ObjectMapping`: `store.fetch(entity)`: the 100,000 rows read and mapped.
// - `Store.fetch_100000.JSONDecoder`: the same rows read with one prepared statement and each
//   decoded with `JSONDecoder` into the same struct.
// - `Store.fetch_<N>_of_100000.ObjectMapping`: an indexed query returning N rows of the same
//   database (N = 25,000, 50,000): time per row fetched, and peak memory, against the full fetch;
//   `Store.fetch_1000_of_1000.ObjectMapping` and `Store.fetch_1000_of_100000.ObjectMapping`
//   fetch 1,000 rows from databases of 1,000 and 100,000 rows: peak memory follows the rows
//   fetched, not the database.
//
// Databases are built in setup, 5,000 objects per save, under the system's temporary folder.

func registerStoreBenchmarks() {
  let configuration = Benchmark.Configuration(
    metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident],
    timeUnits: .milliseconds,
    warmupIterations: 1,
    maxDuration: .seconds(10),
    maxIterations: 5
  )

  Benchmark("Store.save_100000.ObjectMapping", configuration: configuration) {
    benchmark, performances in
    let path = StoreCorpus.freshPath("save")
    defer { StoreCorpus.remove(path) }
    let store = try SQLiteStore(path: path)
    try await store.save([], to: StoreCorpus.entity)  // the tables and indexes
    benchmark.startMeasurement()
    try await store.save(performances, to: StoreCorpus.entity)
    benchmark.stopMeasurement()
    await store.close()
  } setup: {
    try StoreCorpus.performances(100_000)
  }

  Benchmark("Store.save_100000.PreparedInsert", configuration: configuration) {
    benchmark, texts in
    let path = StoreCorpus.freshPath("insert")
    defer { StoreCorpus.remove(path) }
    let store = try SQLiteStore(path: path)
    try await store.save([], to: StoreCorpus.entity)
    await store.close()
    let database = try RawDatabase(path: path)
    benchmark.startMeasurement()
    try database.insert(texts, entity: StoreCorpus.entity.name)
    benchmark.stopMeasurement()
    database.close()
  } setup: {
    try StoreCorpus.performances(100_000).map { performance in
      (id: "\(performance.id)", json: Array(try CitmMappings.performance.serialize(performance)))
    }
  }

  Benchmark("Store.fetch_100000.ObjectMapping", configuration: configuration) { benchmark, store in
    let fetched = try await store.fetch(StoreCorpus.entity)
    precondition(fetched.objects.count == 100_000 && fetched.unmappable.isEmpty)
    blackHole(fetched)
  } setup: {
    try await StoreCorpus.openDatabase(rows: 100_000)
  }

  Benchmark("Store.fetch_100000.JSONDecoder", configuration: configuration) { benchmark, path in
    let database = try RawDatabase(path: path)
    let decoder = JSONDecoder()
    var performances: [CitmPerformance] = []
    try database.select(entity: StoreCorpus.entity.name) { bytes in
      performances.append(try decoder.decode(CitmPerformance.self, from: Data(bytes)))
    }
    database.close()
    precondition(performances.count == 100_000)
    blackHole(performances)
  } setup: {
    let store = try await StoreCorpus.openDatabase(rows: 100_000)
    await store.close()
    return StoreCorpus.databasePath(rows: 100_000)
  }

  for count in [1_000, 25_000, 50_000] {
    Benchmark("Store.fetch_\(count)_of_100000.ObjectMapping", configuration: configuration) {
      benchmark, store in
      let fetched = try await store.fetch(
        StoreCorpus.entity, where: \.id < count, orderBy: [.ascending(\.id)])
      precondition(fetched.objects.count == count)
      blackHole(fetched)
    } setup: {
      try await StoreCorpus.openDatabase(rows: 100_000)
    }
  }

  Benchmark("Store.fetch_1000_of_1000.ObjectMapping", configuration: configuration) {
    benchmark, store in
    let fetched = try await store.fetch(
      StoreCorpus.entity, where: \.id < 1_000, orderBy: [.ascending(\.id)])
    precondition(fetched.objects.count == 1_000)
    blackHole(fetched)
  } setup: {
    try await StoreCorpus.openDatabase(rows: 1_000)
  }
}

/// The store benchmarks' objects and databases.
enum StoreCorpus {
  static let entity = StoreEntity(
    "Performance", mapping: CitmMappings.performance.identified(by: \.id)
  )
  .indexed(by: \.id)
  .indexed(by: \.eventId)

  /// `count` citm-like performances: the corpus's 243 performances over and over, each with an
  /// identity of its own (0, 1, …).
  static func performances(_ count: Int) throws -> [CitmPerformance] {
    let catalog = try CitmMappings.catalog.map(try Corpus.citmCatalog.data())
    let originals = catalog.performances
    return (0..<count).map { index in
      var performance = originals[index % originals.count]
      performance.id = index
      return performance
    }
  }

  static func freshPath(_ name: String) -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("object-mapping-store-bench-\(name)-\(UUID().uuidString).sqlite").path
    remove(path)
    return path
  }

  static func remove(_ path: String) {
    for suffix in ["", "-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: path + suffix)
    }
  }

  static func databasePath(rows: Int) -> String {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("object-mapping-store-bench-\(rows).sqlite").path
  }

  /// The database of `rows` performances (built once, 5,000 per save, and kept for the next
  /// run), opened.
  static func openDatabase(rows: Int) async throws -> SQLiteStore {
    let path = databasePath(rows: rows)
    var store = try SQLiteStore(path: path)
    if try await store.count(entity) != rows {
      await store.close()
      remove(path)
      store = try SQLiteStore(path: path)
      let catalog = try CitmMappings.catalog.map(try Corpus.citmCatalog.data())
      var start = 0
      while start < rows {
        let batch = (start..<min(rows, start + 5_000)).map { index in
          var performance = catalog.performances[index % catalog.performances.count]
          performance.id = index
          return performance
        }
        try await store.save(batch, to: entity)
        start += 5_000
      }
    }
    return store
  }
}

/// A raw SQLite connection for the baselines: one prepared statement per operation.
final class RawDatabase {
  private var handle: OpaquePointer?

  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  init(path: String) throws {
    guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else {
      throw Failure(description: "cannot open \(path)")
    }
    // The store's settings for its writer.
    try execute("PRAGMA journal_mode = WAL")
    try execute("PRAGMA synchronous = FULL")
  }

  func close() {
    sqlite3_close_v2(handle)
    handle = nil
  }

  func execute(_ sql: String) throws {
    guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
      throw Failure(description: String(cString: sqlite3_errmsg(handle)))
    }
  }

  private func prepare(_ sql: String) throws -> OpaquePointer? {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
      throw Failure(description: String(cString: sqlite3_errmsg(handle)))
    }
    return statement
  }

  /// Inserts the texts in one transaction with one prepared statement.
  func insert(_ rows: [(id: String, json: [UInt8])], entity: String) throws {
    let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    try execute("BEGIN IMMEDIATE")
    let statement = try prepare(
      "INSERT INTO om_objects(entity, id, generation, payload) VALUES(?1, ?2, 1, ?3)")
    defer { sqlite3_finalize(statement) }
    for row in rows {
      sqlite3_reset(statement)
      sqlite3_bind_text(statement, 1, entity, -1, transient)
      sqlite3_bind_text(statement, 2, row.id, -1, transient)
      row.json.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) {
          _ = sqlite3_bind_text64(
            statement, 3, $0.baseAddress, UInt64($0.count), transient, UInt8(SQLITE_UTF8))
        }
      }
      guard sqlite3_step(statement) == SQLITE_DONE else {
        throw Failure(description: String(cString: sqlite3_errmsg(handle)))
      }
    }
    try execute("COMMIT")
  }

  /// Reads the payloads of `entity`, in stored order, passing each one's bytes to `body`.
  func select(entity: String, _ body: ([UInt8]) throws -> Void) throws {
    let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    let statement = try prepare(
      "SELECT payload FROM om_objects WHERE entity = ?1 ORDER BY rowid")
    defer { sqlite3_finalize(statement) }
    sqlite3_bind_text(statement, 1, entity, -1, transient)
    while sqlite3_step(statement) == SQLITE_ROW {
      let count = Int(sqlite3_column_bytes(statement, 0))
      guard let text = sqlite3_column_text(statement, 0) else { continue }
      try body(Array(UnsafeBufferPointer(start: text, count: count)))
    }
  }
}
