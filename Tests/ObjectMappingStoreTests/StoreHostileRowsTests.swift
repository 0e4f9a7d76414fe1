import Foundation
import ObjectMapping
import Testing

@testable import ObjectMappingStore

/// The database file is input from outside: rows another program wrote, or damaged ones, are
/// reported with their identity and never crash a fetch.
@Suite("SQLiteStore: hostile rows")
struct StoreHostileRowsTests {
  /// An entity without indexes: with a declared index, SQLite itself refuses rows whose payload
  /// is not JSON (the index's `json_extract` fails).
  static let raw = StoreEntity("Raw", mapping: Fixtures.articleMapping)

  @Test func rowsThatAreNotTheMappingsJSONAreReported() async throws {
    try await withStore { store, folder in
      try await store.save([Fixtures.article(1, "Fine")], to: Self.raw)
      let raw = try SQLiteConnection(path: folder.path("store.sqlite"), mode: .readWrite)
      let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
      try raw.execute(
        """
        INSERT INTO om_objects(entity, id, generation, payload) VALUES
          ('Raw', 'text', 1, 'not json'),
          ('Raw', 'cut', 1, '{"id": 3, "title": "Cut'),
          ('Raw', 'deep', 1, '\(deep)'),
          ('Raw', 'bytes', 1, CAST(x'7b22696422ff3a317d' AS TEXT)),
          ('Raw', 'blob', 1, x'00ff00ff'),
          ('Raw', 'number', 1, 42),
          ('Raw', 'wrong', 1, '{"id": "seven", "title": 7}')
        """)
      raw.close()
      let fetched = try await store.fetch(Self.raw)
      #expect(fetched.objects == [Fixtures.article(1, "Fine")])
      #expect(
        fetched.unmappable.map(\.id) == ["text", "cut", "deep", "bytes", "blob", "number", "wrong"])
      #expect(
        fetched.unmappable[0].description
          == "Raw text: syntax error at line 1, column 2 (byte 1): expected 'null', found 'o'")
      #expect(
        fetched.unmappable[5].description
          == "Raw number: expected an object, found 42")
      // Queries over such rows are safe too (json_extract of text that is not JSON is an error
      // SQLite reports, not a crash).
      let path = folder.path("store.sqlite")
      await #expect(throws: StoreError(.sqlite(path: path, code: 1, message: "malformed JSON"))) {
        try await store.fetch(Self.raw, where: \.title == "Fine")
      }
      #expect(
        StoreError(.sqlite(path: path, code: 1, message: "malformed JSON")).description
          == "SQLite error 1 on \(path): malformed JSON")
      // And they can be deleted by the documented way.
      let deleted = try await store.deleteUnmappable(Self.raw)
      #expect(deleted.count == 7)
      #expect(try await store.fetch(Self.raw, where: \.title == "Fine").objects.count == 1)
    }
  }

  // MARK: Found by a probe with hostile files and values (session 24)

  struct Thing: Equatable, Sendable {
    var id = ""
    var value = ""
  }

  static func things(_ key: String = "value", entity: String = "Thing") -> StoreEntity<Thing> {
    StoreEntity(
      entity,
      mapping: Mapping(Thing.init) {
        Attribute("id", \.id)
        Attribute([key], \.value)
      }.identified(by: \.id))
  }

  @Test(arguments: ["a\\b", "a\nb", "\u{7}", "a\u{1F}b", "say \"hi\""])
  func aKeyJSONEscapesIsRefusedInQueries(key: String) async throws {
    // SQLite compares a JSON path's label with the key as the JSON spells it: the query
    // matched nothing, silently.
    try await withStore { store, _ in
      let entity = Self.things(key)
      try await store.save([Thing(id: "1", value: "x"), Thing(id: "2", value: "y")], to: entity)
      let error = await #expect(throws: StoreError.self) {
        try await store.fetch(entity, where: \.value == "x")
      }
      guard case .unknownKeyPath(_, let message)? = error?.kind else {
        Issue.record("\(String(describing: error))")
        return
      }
      #expect(message.contains("cannot be named in SQLite's JSON paths"))
      // Saving and fetching by identity still work.
      #expect(try await store.fetch(entity, ids: ["1"]).objects == [Thing(id: "1", value: "x")])
    }
  }

  @Test func aNULIsRefusedWhereSQLiteWouldEndTheStringThere() async throws {
    try await withStore { store, _ in
      let entity = Self.things()
      try await store.save([Thing(id: "T", value: "v")], to: entity)
      // An identity with a NUL would be found as its prefix.
      await #expect(throws: StoreError.self) {
        try await store.save([Thing(id: "T\0", value: "w")], to: entity)
      }
      #expect(try await store.fetch(entity, ids: ["T\0"]).objects.isEmpty)
      #expect(try await store.fetch(entity, ids: ["T"]).objects == [Thing(id: "T", value: "v")])
      // A value with a NUL in a query would compare as its prefix.
      await #expect(throws: StoreError.self) {
        try await store.fetch(entity, where: \.value == "v\0x")
      }
      // An entity named with a NUL could be saved and never read.
      await #expect(throws: StoreError.self) {
        try await store.save([Thing(id: "1", value: "v")], to: Self.things(entity: "a\0b"))
      }
      #expect(try await store.fetch(entity).objects == [Thing(id: "T", value: "v")])
    }
  }

  struct Reading: Equatable, Sendable {
    var id = 0.0
    var value = ""
  }

  @Test func minusZeroAndZeroAreOneIdentity() async throws {
    // Swift's `-0.0 == 0.0` (with one hash): they were two rows, found by the sign they were
    // written with.
    let mapping = Mapping(Reading.init) {
      Attribute("id", \.id)
      Attribute("value", \.value)
    }.identified(by: \.id)
    let entity = StoreEntity("Reading", mapping: mapping)
    #expect(StoreEntity<Reading>.identityText(-0.0) == StoreEntity<Reading>.identityText(0.0))
    #expect(StoreEntity<Reading>.identityText(-1.5) == "-1.5")
    try await withStore { store, _ in
      try await store.save([Reading(id: -0.0, value: "first")], to: entity)
      try await store.save([Reading(id: 0.0, value: "second")], to: entity)
      let all = try await store.fetch(entity).objects
      #expect(all.map(\.value) == ["second"])
      #expect(try await store.fetch(entity, ids: [-0.0]).objects.map(\.value) == ["second"])
    }
  }

  @Test(arguments: [false, true])
  func aFolderIsRefusedWhenTheStoreOpens(readOnly: Bool) throws {
    // Read-only, SQLite opened a folder and failed only at the first read, with an I/O error.
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    var options = SQLiteStore.Options()
    options.readOnly = readOnly
    #expect(
      throws: StoreError(.cannotOpen(path: folder.url.path, reason: "it is a folder, not a file"))
    ) {
      try SQLiteStore(path: folder.url.path, options: options)
    }
    let link = folder.path("link.sqlite")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder.url.path)
    #expect(throws: StoreError(.cannotOpen(path: link, reason: "it is a folder, not a file"))) {
      try SQLiteStore(path: link, options: options)
    }
  }

  @Test func anotherProgramsDatabaseIsRefusedAndLeftAsItWas() async throws {
    // It was opened, given the store's tables and switched to WAL for good; a read-only store
    // refused it.
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.path("theirs.sqlite")
    let theirs = try SQLiteConnection(path: path, mode: .readWriteCreate)
    try theirs.execute("CREATE TABLE people(name TEXT); INSERT INTO people VALUES ('Ann')")
    theirs.close()
    #expect(
      throws: StoreError(.cannotOpen(path: path, reason: "it is a database, not an object store"))
    ) {
      try SQLiteStore(path: path)
    }
    let after = try SQLiteConnection(path: path, mode: .readWrite)
    let tables = try after.prepare(
      "SELECT group_concat(name) FROM sqlite_schema WHERE type = 'table'")
    #expect(try tables.step() && tables.string(at: 0) == "people")
    let journal = try after.prepare("PRAGMA journal_mode")
    #expect(try journal.step() && journal.string(at: 0) == "delete")
    after.close()
    // An empty database (a zero-byte file) still becomes a store.
    let empty = folder.path("empty.sqlite")
    #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
    let store = try SQLiteStore(path: empty)
    try await store.save([Thing(id: "1", value: "v")], to: Self.things())
    await store.close()
  }

  @Test(arguments: ["", ":memory:"])
  func aPrivateDatabaseIsNotAStore(path: String) {
    // Each connection gets its own private database: a save went to the writer's, and every
    // fetch failed ("no such table: om_objects").
    #expect(
      throws: StoreError(
        .cannotOpen(
          path: path, reason: "an object store needs a file path, not \(path.debugDescription)"))
    ) {
      try SQLiteStore(path: path)
    }
  }
}
