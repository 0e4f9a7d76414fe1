import Foundation
import ObjectMapping
import ObjectMappingStore
import Testing

@Suite("SQLiteStore: concurrency")
struct StoreConcurrencyTests {
  /// Writers save batches while readers fetch: every fetch sees whole transactions only, and
  /// every batch is there at the end.
  @Test func concurrentSavesAndFetchesSeeWholeTransactions() async throws {
    let batch = 50
    let writers = 6
    let batchesPerWriter = 4
    try await withStore { store, _ in
      try await withThrowingTaskGroup(of: [Int].self) { group in
        for writer in 0..<writers {
          group.addTask {
            for round in 0..<batchesPerWriter {
              let first = (writer * batchesPerWriter + round) * batch
              try await store.save(
                (first..<first + batch).map { Fixtures.article($0, "w\(writer) r\(round)") },
                to: Fixtures.articles)
            }
            return []
          }
        }
        for _ in 0..<6 {
          group.addTask {
            var counts: [Int] = []
            for _ in 0..<5 {
              counts.append(try await store.fetch(Fixtures.articles).objects.count)
            }
            return counts
          }
        }
        for try await counts in group {
          for count in counts { #expect(count % batch == 0, "a fetch saw \(count) articles") }
        }
      }
      #expect(try await store.count(Fixtures.articles) == batch * writers * batchesPerWriter)
    }
  }

  /// More fetches at once than the store has readers: they wait for one and all finish.
  @Test func moreFetchesThanReadersAllFinish() async throws {
    var options = SQLiteStore.Options()
    options.readers = 2
    try await withStore(options) { store, _ in
      try await store.save((1...20).map { Fixtures.article($0, "A\($0)") }, to: Fixtures.articles)
      let total = try await withThrowingTaskGroup(of: Int.self) { group in
        for index in 0..<32 {
          group.addTask {
            try await store.fetch(Fixtures.articles, where: \.id == index % 20 + 1).objects.count
          }
        }
        return try await group.reduce(0, +)
      }
      #expect(total == 32)
    }
  }
}
