import Foundation
import ObjectMapping
import Testing

@testable import ObjectMappingStore

/// Another program's changes to a store's file, and paths SQLite would read as more than a file
/// name (found by a probe of the persistent store: a trigger hung a save for ever or deleted
/// rows; a counter at its end stopped orphan detection; `file:` paths opened private databases).
@Suite("SQLiteStore: hostile files")
struct StoreHostileFileTests {
  /// Runs `sql` on the store's file through a connection of its own (another program).
  static func tamper(_ folder: TemporaryFolder, _ sql: String) throws {
    let raw = try SQLiteConnection(path: folder.path("store.sqlite"), mode: .readWrite)
    try raw.execute(sql)
    raw.close()
  }

  @Test func theFilesTriggersNeverRun() async throws {
    try await withStore { store, folder in
      try await store.save((1...5).map { Fixtures.article($0, "A\($0)") }, to: Fixtures.articles)
      try Self.tamper(
        folder,
        """
        CREATE TRIGGER endless AFTER INSERT ON om_objects BEGIN
          SELECT count(*) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)
            SELECT x FROM c);
        END;
        CREATE TRIGGER wipe AFTER UPDATE ON om_objects BEGIN
          DELETE FROM om_objects WHERE id <> new.id;
        END;
        CREATE TRIGGER wipe2 AFTER INSERT ON om_objects BEGIN
          DELETE FROM om_objects WHERE id <> new.id;
        END;
        """)
      // A store opened on the file now (and the one already open) saves without running them.
      let reopened = try SQLiteStore(path: folder.path("store.sqlite"))
      try await reopened.save([Fixtures.article(6, "A6")], to: Fixtures.articles)
      try await store.save([Fixtures.article(1, "A1, edited")], to: Fixtures.articles)
      #expect(try await reopened.count(Fixtures.articles) == 6)
      #expect(try await store.fetch(Fixtures.articles, id: 1)?.title == "A1, edited")
      await reopened.close()
    }
  }

  @Test func aGenerationCounterAtItsEndOrTwiceIsADamagedFile() async throws {
    try await withStore { store, folder in
      try await store.save([Fixtures.article(1, "A1")], to: Fixtures.articles)
      try Self.tamper(
        folder, "UPDATE om_meta SET value = 9223372036854775807 WHERE key = 'generation'")
      do throws(StoreError) {
        try await store.save([Fixtures.article(2, "A2")], to: Fixtures.articles)
        Issue.record("a counter at its end saved")
      } catch {
        guard case .corrupt(_, let reason) = error.kind else {
          Issue.record("expected a damaged file, got \(error)")
          return
        }
        #expect(reason.contains("generation counter"))
      }
      // Nothing was written, and the file is left as it was.
      #expect(try await store.count(Fixtures.articles) == 1)
    }
    try await withStore { store, folder in
      try await store.save([Fixtures.article(1, "A1")], to: Fixtures.articles)
      // om_meta rebuilt without its primary key, the counter in it twice.
      try Self.tamper(
        folder,
        """
        DROP TABLE om_meta;
        CREATE TABLE om_meta(key TEXT NOT NULL, value INTEGER NOT NULL);
        INSERT INTO om_meta VALUES ('format', 1), ('generation', 5), ('generation', 7);
        """)
      let reopened = try SQLiteStore(path: folder.path("store.sqlite"))
      for _ in 0..<2 {
        do throws(StoreError) {
          try await reopened.save([Fixtures.article(2, "A2")], to: Fixtures.articles)
          Issue.record("a counter held twice saved")
        } catch {
          guard case .corrupt(_, let reason) = error.kind else {
            Issue.record("expected a damaged file, got \(error)")
            continue
          }
          #expect(reason == "om_meta holds the generation counter twice")
        }
      }
      await reopened.close()
    }
  }

  /// A relative path that begins `file:` names a file (in the current directory), not a URI:
  /// SQLite, built to accept URIs, opened `file::memory:` as a private database (every fetch
  /// then failed) and `file:x?mode=memory` without a file.
  @Test(arguments: [":memory:", "x?mode=memory&cache=shared", "plain.sqlite"])
  func aFileURIIsAFilesName(rest: String) async throws {
    let name = "file:store-test-\(UUID().uuidString)-\(rest)"
    let fileManager = FileManager.default
    let here = URL(fileURLWithPath: fileManager.currentDirectoryPath)
    defer {
      for suffix in ["", "-wal", "-shm"] {
        try? fileManager.removeItem(at: here.appendingPathComponent(name + suffix))
      }
    }
    let store = try SQLiteStore(path: name)
    try await store.save([Fixtures.article(1, "A1")], to: Fixtures.articles)
    #expect(try await store.fetch(Fixtures.articles).objects.map(\.title) == ["A1"])
    await store.close()
    // The file has the name given, and another store opened on it finds what was saved.
    let file = here.appendingPathComponent(name).path
    #expect(fileManager.fileExists(atPath: file))
    let again = try SQLiteStore(path: file)
    #expect(try await again.count(Fixtures.articles) == 1)
    await again.close()
  }

  @Test func countIsRightWhateverTheEntityIsCalled() async throws {
    try await withStore { store, _ in
      let odd = StoreEntity("SELECT id, generation, payload", mapping: Fixtures.articleMapping)
      try await store.save([Fixtures.article(1, "A1"), Fixtures.article(2, "A2")], to: odd)
      #expect(try await store.fetch(odd).objects.count == 2)
      #expect(try await store.count(odd) == 2)
    }
  }

  @Test func callsAfterCloseFailEvenWithAReaderBusyDuringIt() async throws {
    try await withStore { store, _ in
      try await store.save(
        (0..<2_000).map { Fixtures.article($0, "A\($0)") }, to: Fixtures.articles)
      // Fetches hold readers while the store closes.
      async let busy = (0..<8).map { _ in Task { try? await store.fetch(Fixtures.articles) } }
      await store.close()
      for task in await busy { _ = await task.value }
      for _ in 0..<8 {
        await #expect(throws: StoreError.self) { try await store.fetch(Fixtures.articles) }
      }
    }
  }
}
