import Foundation
import ObjectMapping
import Testing

@testable import ObjectMappingStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Complexity checks, not benchmarks (as ObjectMappingTests' Scaling): the work at n, 2n and 4n
/// rows, timed in the CPU time of the calling thread, best of three. The store's calls run on
/// its actors' threads, so the measured work is the same statements and mapping run here,
/// synchronously, on the database the store wrote. Under a sanitizer (OBJECT_MAPPING_SANITIZER)
/// the results are still checked and the timing is skipped.
@Suite("SQLiteStore: scaling", .serialized)
struct StoreScalingTests {
  static let timed = ProcessInfo.processInfo.environment["OBJECT_MAPPING_SANITIZER"] == nil

  static func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// Databases of n, 2n and 4n articles.
  static func databases(_ folder: TemporaryFolder, base: Int) async throws -> [String] {
    var paths: [String] = []
    for size in [base, base * 2, base * 4] {
      let path = folder.path("scale-\(size).sqlite")
      let store = try SQLiteStore(path: path)
      try await store.save(
        (0..<size).map { Fixtures.article($0, "Article \($0)", day: $0 % 365) },
        to: Fixtures.articles)
      await store.close()
      paths.append(path)
    }
    return paths
  }

  /// The fetch of `sql` on `path`, as the store's reader runs it: rows read and mapped.
  static func fetch(_ sql: _SQL, on connection: SQLiteConnection) throws -> [Article] {
    let statement = try connection.prepare(sql.text)
    try statement.bind(sql.values)
    var articles: [Article] = []
    while try statement.step() {
      articles.append(
        try Fixtures.articles.object(
          fromPayload: statement.textBytes(at: 2), id: statement.string(at: 0)))
    }
    return articles
  }

  /// Best-of-three CPU seconds of `work` on each connection.
  static func times(_ connections: [SQLiteConnection], _ work: (SQLiteConnection) throws -> Void)
    throws -> [Double]
  {
    var times = [Double](repeating: .infinity, count: connections.count)
    for _ in 0..<3 {
      for (index, connection) in connections.enumerated() {
        let start = threadCPUSeconds()
        try work(connection)
        times[index] = min(times[index], threadCPUSeconds() - start)
      }
    }
    return times
  }

  @Test func fetchingTimeIsLinearInTheRowsFetched() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let paths = try await Self.databases(folder, base: 2_000)
    let connections = try paths.map { try SQLiteConnection(path: $0, mode: .readOnly) }
    let all = try StoreSQL.select(
      entity: "Article", condition: nil, order: [], limit: nil, offset: 0)
    for (connection, size) in zip(connections, [2_000, 4_000, 8_000]) {
      #expect(try Self.fetch(all, on: connection).count == size)
    }
    guard Self.timed else { return }
    var ratio = 0.0
    for _ in 0..<3 {
      let times = try Self.times(connections) { _ = try Self.fetch(all, on: $0) }
      ratio = times[2] / max(times[0], 1e-9)
      if ratio <= 6.25 { break }
    }
    #expect(ratio <= 6.25, "fetching 4n rows took \(ratio)× the time of n rows")
  }

  @Test func anIndexedFetchOfAFewRowsDoesNotGrowWithTheDatabase() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let paths = try await Self.databases(folder, base: 5_000)
    // The store creates the declared indexes on its first save.
    let connections = try paths.map { try SQLiteConnection(path: $0, mode: .readOnly) }
    let ordering = try StoreOrder<Article>.descending(\.publishedAt).resolved(
      for: Fixtures.articles)
    let page = try StoreSQL.select(
      entity: "Article", condition: .equal(["author", "name"], .string("Ann")),
      order: [ordering], limit: 10, offset: 0)
    for connection in connections {
      #expect(try Self.fetch(page, on: connection).count == 10)
    }
    guard Self.timed else { return }
    var ratio = 0.0
    for _ in 0..<3 {
      let times = try Self.times(connections) { connection in
        for _ in 0..<20 { _ = try Self.fetch(page, on: connection) }
      }
      ratio = times[2] / max(times[0], 1e-9)
      // Reading every row would take about 4×; an index read takes about the same time.
      if ratio <= 2 { break }
    }
    #expect(ratio <= 2, "a 10-row page of a 4n database took \(ratio)× the time of n")
  }
}
