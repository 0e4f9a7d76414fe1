import Foundation
import ObjectMapping
import Testing

@testable import ObjectMappingStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("SQLiteStore: faults, on real files")
struct StoreFaultTests {
  @Test func aFileThatIsNotADatabaseIsAClearErrorOnOpen() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.path("notes.txt")
    try Data(String(repeating: "These are notes, not a database.\n", count: 200).utf8)
      .write(to: URL(fileURLWithPath: path))
    #expect(throws: StoreError(.notADatabase(path: path))) { try SQLiteStore(path: path) }
    var readOnly = SQLiteStore.Options()
    readOnly.readOnly = true
    #expect(throws: StoreError(.notADatabase(path: path))) {
      try SQLiteStore(path: path, options: readOnly)
    }
    #expect(
      StoreError(.notADatabase(path: path)).description
        == "\(path) is not a database (or its header is damaged)")
    // Nothing was written to it.
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: path))
        == Data(String(repeating: "These are notes, not a database.\n", count: 200).utf8))
  }

  @Test func aDamagedDatabaseFailsItsReadsWithAClearError() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.path("damaged.sqlite")
    let store = try SQLiteStore(path: path)
    try await store.save(
      (1...2000).map { Fixtures.article($0, String(repeating: "x", count: 200)) },
      to: Fixtures.articles)
    await store.close()
    // Overwrite the pages after the first few with garbage (the schema page stays readable).
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
    let size = try handle.seekToEnd()
    try handle.seek(toOffset: 8192)
    try handle.write(contentsOf: Data(repeating: 0xA5, count: Int(size) - 8192))
    try handle.close()
    do {
      let reopened = try SQLiteStore(path: path)
      do {
        _ = try await reopened.fetch(Fixtures.articles)
        Issue.record("read a damaged database without an error")
      } catch {
        #expect(error.kind == .corrupt(path: path, reason: "database disk image is malformed"))
        #expect(
          error.description
            == "the database \(path) is damaged: database disk image is malformed")
      }
      await reopened.close()
    } catch {
      // Damage SQLite notices on open is as good: a clear error, no crash.
      #expect(error.kind == .corrupt(path: path, reason: "database disk image is malformed"))
    }
  }

  @Test func aFullDatabaseFailsTheSaveAndCommitsNothing() async throws {
    var options = SQLiteStore.Options()
    options.maximumSize = 256 * 1024
    try await withStore(options) { store, folder in
      let earlier = (1...20).map { Fixtures.article($0, "Earlier \($0)") }
      try await store.save(earlier, to: Fixtures.articles)
      let large = (100..<3100).map { Fixtures.article($0, String(repeating: "y", count: 300)) }
      let path = folder.path("store.sqlite")
      await #expect(throws: StoreError(.full(path: path, reason: "database or disk is full"))) {
        try await store.save(large, to: Fixtures.articles)
      }
      #expect(
        StoreError(.full(path: path, reason: "database or disk is full")).description
          == "the database \(path) is full: database or disk is full")
      #expect(try await store.fetch(Fixtures.articles).objects == earlier)
      // The store still works for what fits.
      try await store.save([Fixtures.article(21, "Later")], to: Fixtures.articles)
      #expect(try await store.count(Fixtures.articles) == 21)
    }
  }

  @Test func aStoreOpenedReadOnlyReadsAndRefusesToWrite() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.path("shipped.sqlite")
    let writer = try SQLiteStore(path: path)
    try await writer.save([Fixtures.article(1, "Shipped")], to: Fixtures.articles)
    await writer.close()
    var options = SQLiteStore.Options()
    options.readOnly = true
    let store = try SQLiteStore(path: path, options: options)
    #expect(store.isReadOnly)
    #expect(try await store.fetch(Fixtures.articles).objects == [Fixtures.article(1, "Shipped")])
    await #expect(throws: StoreError(.readOnly(path: path))) {
      try await store.save([Fixtures.article(2, "New")], to: Fixtures.articles)
    }
    await #expect(throws: StoreError(.readOnly(path: path))) {
      try await store.delete(Fixtures.articles, ids: [1])
    }
    #expect(
      StoreError(.readOnly(path: path)).description
        == "the database \(path) is open read-only")
    await store.close()
  }

  @Test(
    "A file the process cannot write opens read-only",
    .enabled(if: geteuid() != 0, "root writes files whatever their permissions"))
  func anUnwritableFileOpensReadOnly() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.path("locked.sqlite")
    let writer = try SQLiteStore(path: path)
    try await writer.save([Fixtures.article(1, "Locked")], to: Fixtures.articles)
    await writer.close()
    try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
    defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path) }
    let store = try SQLiteStore(path: path)
    #expect(store.isReadOnly)
    #expect(try await store.fetch(Fixtures.articles).objects.map(\.id) == [1])
    await #expect(throws: StoreError(.readOnly(path: path))) {
      try await store.save([Fixtures.article(2, "New")], to: Fixtures.articles)
    }
    await store.close()
  }

  @Test func missingFilesAndFoldersAreClearErrors() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let inMissingFolder = folder.path("missing/store.sqlite")
    #expect(
      throws: StoreError(
        .cannotOpen(path: inMissingFolder, reason: "unable to open database file"))
    ) { try SQLiteStore(path: inMissingFolder) }
    var options = SQLiteStore.Options()
    options.readOnly = true
    let missing = folder.path("missing.sqlite")
    #expect(throws: StoreError(.cannotOpen(path: missing, reason: "unable to open database file")))
    {
      try SQLiteStore(path: missing, options: options)
    }
    #expect(
      StoreError(.cannotOpen(path: missing, reason: "unable to open database file")).description
        == "cannot open the database \(missing): unable to open database file")
  }

  @Test func aDatabaseThatIsNotAStoreIsRefusedReadOnly() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.path("other.sqlite")
    let other = try SQLiteConnection(path: path, mode: .readWriteCreate)
    try other.execute("CREATE TABLE people(name TEXT)")
    other.close()
    var options = SQLiteStore.Options()
    options.readOnly = true
    #expect(
      throws: StoreError(.cannotOpen(path: path, reason: "it is a database, not an object store"))
    ) { try SQLiteStore(path: path, options: options) }
  }

  @Test func aDatabaseOfANewerFormatIsRefused() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.path("future.sqlite")
    try await SQLiteStore(path: path).close()
    let connection = try SQLiteConnection(path: path, mode: .readWrite)
    try connection.execute("UPDATE om_meta SET value = 99 WHERE key = 'format'")
    connection.close()
    #expect(throws: StoreError(.unsupportedFormat(path: path, format: 99))) {
      try SQLiteStore(path: path)
    }
    #expect(
      StoreError(.unsupportedFormat(path: path, format: 99)).description
        == "the database \(path) has store format 99, newer than this library's 1; open it with "
        + "a newer version")
  }
}
