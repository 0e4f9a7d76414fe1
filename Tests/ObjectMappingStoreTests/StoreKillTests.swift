import Foundation
import ObjectMapping
import Testing

@testable import ObjectMappingStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Durability: a process killed (SIGKILL, which no code can catch) in the middle of a large
/// save. The save runs in a child process (Swift Testing's exit test starts this test binary
/// again and runs the closure there); a thread of the child kills it once the save is writing
/// its pages, at an arbitrary point of the transaction.
@Suite("SQLiteStore: a killed save")
struct StoreKillTests {
  /// Articles of the large save: enough to write tens of megabytes of pages.
  static let largeSave = 40_000

  @Test func aSaveKilledHalfwayLeavesAllOrNothingAndEveryEarlierCommit() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.path("killed.sqlite")
    let earlier = (1...500).map { Fixtures.article($0, "Earlier \($0)") }
    let store = try SQLiteStore(path: path)
    try await store.save(earlier, to: Fixtures.articles)
    try await store.save([Fixtures.article(501, "Earlier too")], to: Fixtures.articles)
    await store.close()

    await #expect(processExitsWith: .signal(SIGKILL)) { [path = path as String] in
      let store = try SQLiteStore(path: path)
      let wal = path + "-wal"
      let thread = Thread {
        // Once the save has written a megabyte of pages to the log, die at once.
        while (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
          < 1 << 20
        {
          usleep(200)
        }
        kill(getpid(), SIGKILL)
      }
      thread.start()
      let large = (1_000..<(1_000 + StoreKillTests.largeSave)).map {
        Fixtures.article($0, String(repeating: "z", count: 400))
      }
      try await store.save(large, to: Fixtures.articles)
      // Committed before the thread saw the log grow (never seen so far): die all the same, with
      // the whole save committed, which the parent accepts too.
      kill(getpid(), SIGKILL)
    }

    let reopened = try SQLiteStore(path: path)
    let stored = try await reopened.fetch(Fixtures.articles, orderBy: [.ascending(\.id)])
    #expect(stored.unmappable.isEmpty)
    let count = stored.objects.count
    #expect(count == 501 || count == 501 + Self.largeSave, "\(count) articles")
    #expect(Array(stored.objects.prefix(500)) == earlier)
    #expect(stored.objects[500] == Fixtures.article(501, "Earlier too"))
    await reopened.close()
    let check = try SQLiteConnection(path: path, mode: .readOnly)
    let integrity = try check.prepare("PRAGMA integrity_check")
    #expect(try integrity.step())
    #expect(integrity.string(at: 0) == "ok")
  }
}
