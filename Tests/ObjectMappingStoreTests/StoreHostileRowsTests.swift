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
}
