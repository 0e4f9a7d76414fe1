import Foundation
import ObjectMapping
import ObjectMappingStore
import Testing

/// A mapping changed after rows were stored: version 1 wrote the title as "headline".
@Suite("SQLiteStore: schema changes")
struct StoreMigrationTests {
  struct Post: Equatable, Sendable {
    var id = 0
    var title = ""
  }

  static let version1 = Mapping(Post.init) {
    Attribute("id", \.id)
    Attribute("headline", \.title)
  }.identified(by: \.id)

  static let version2 = Mapping(Post.init) {
    Attribute("id", \.id)
    Attribute("title", \.title)
  }.identified(by: \.id)

  static let oldPosts = StoreEntity("Post", mapping: version1)
  static let posts = StoreEntity("Post", mapping: version2)

  func withOldRows(_ body: (SQLiteStore) async throws -> Void) async throws {
    try await withStore { store, _ in
      try await store.save(
        [Post(id: 1, title: "One"), Post(id: 2, title: "Two")], to: Self.oldPosts)
      try await store.save([Post(id: 3, title: "Three")], to: Self.posts)
      try await body(store)
    }
  }

  static let missingTitle = MappingErrors([
    MappingError(path: "/title", .missingRequiredKey)
  ])

  @Test func rowsThatNoLongerMapAreReportedWithEntityAndIdentity() async throws {
    try await withOldRows { store in
      let fetched = try await store.fetch(Self.posts)
      #expect(fetched.objects == [Post(id: 3, title: "Three")])
      #expect(
        fetched.unmappable == [
          UnmappableRow(entity: "Post", id: "1", errors: Self.missingTitle),
          UnmappableRow(entity: "Post", id: "2", errors: Self.missingTitle),
        ])
      #expect(fetched.unmappable[0].description == "Post 1: /title: required value is missing")
      #expect(try await store.unmappableRows(Self.posts).map(\.id) == ["1", "2"])
      #expect(
        StoreFetchError.unmappable(
          UnmappableRow(entity: "Post", id: "2", errors: Self.missingTitle)
        ).description == "Post 2: /title: required value is missing")
      await #expect(
        throws: StoreFetchError.unmappable(
          UnmappableRow(entity: "Post", id: "2", errors: Self.missingTitle))
      ) {
        try await store.fetch(Self.posts, id: 2)
      }
    }
  }

  @Test func oldRowsAreRemappedWithTheMappingTheyWereWrittenWith() async throws {
    try await withOldRows { store in
      let migration = try await store.migrate(Self.posts, from: Self.version1)
      #expect(migration.rewritten == ["1", "2"])
      #expect(migration.unmappable.isEmpty && migration.deleted.isEmpty)
      let fetched = try await store.fetch(Self.posts)
      #expect(fetched.unmappable.isEmpty)
      #expect(
        fetched.objects == [
          Post(id: 1, title: "One"), Post(id: 2, title: "Two"), Post(id: 3, title: "Three"),
        ])
    }
  }

  @Test func oldPayloadsAreRewrittenByATransform() async throws {
    try await withOldRows { store in
      let migration = try await store.migrate(Self.posts) { payload in
        guard case .object(var members) = payload else { return }
        for index in members.indices where members[index].key == "headline" {
          members[index].key = "title"
        }
        payload = .object(members)
      }
      #expect(migration.rewritten == ["1", "2"])
      #expect(try await store.fetch(Self.posts).objects.map(\.title) == ["One", "Two", "Three"])
    }
  }

  @Test func rowsNeitherMappingReadsAreLeftAndReportedOrDeleted() async throws {
    try await withOldRows { store in
      let unrelated = StoreEntity(
        "Post",
        mapping: Mapping(Post.init) {
          Attribute("id", \.id)
          Attribute("name", \.title)
        }.identified(by: \.id))
      let migration = try await store.migrate(Self.posts, from: unrelated.mapping)
      #expect(migration.rewritten.isEmpty)
      #expect(migration.unmappable.map(\.id) == ["1", "2"])
      #expect(try await store.count(Self.posts) == 3)
      let deleted = try await store.deleteUnmappable(Self.posts)
      #expect(
        deleted == [
          UnmappableRow(entity: "Post", id: "1", errors: Self.missingTitle),
          UnmappableRow(entity: "Post", id: "2", errors: Self.missingTitle),
        ])
      let fetched = try await store.fetch(Self.posts)
      #expect(fetched.objects == [Post(id: 3, title: "Three")] && fetched.unmappable.isEmpty)
    }
  }
}
