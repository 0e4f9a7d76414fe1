import Foundation
import ObjectMapping
import ObjectMappingStore
import Testing

/// The samples of Documentation/PersistentStore.md, compiled and run.
@Suite("Persistent store guide samples")
struct PersistentStoreGuideTests {
  @Test func setUpEntitiesSavingAndQuerying() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let store = try SQLiteStore(path: folder.url.appendingPathComponent("App.sqlite").path)
    let articleMapping = Fixtures.articleMapping
    let articles = StoreEntity("Article", mapping: articleMapping)
      .indexed(by: \.publishedAt)
      .indexed(by: \.author.name)
    let first = Fixtures.article(1, "First", day: 1, author: "Ann")
    let second = Fixtures.article(2, "Second", state: .draft, day: 2, author: "Ann")
    try await store.save([first, second], to: articles)
    try await store.delete(articles, ids: [7, 8])

    let page = try await store.fetch(
      articles, where: \.author.name == "Ann" && \.state == .published,
      orderBy: [.descending(\.publishedAt)], limit: 20)
    #expect(page.objects == [first] && page.unmappable.isEmpty)

    let one = try await store.fetch(articles, id: 1)
    let some = try await store.fetch(articles, ids: [2, 1])
    let count = try await store.count(articles, where: \.state == .draft)
    #expect(one == first && some.objects == [second, first] && count == 1)

    let responseBody = try articleMapping.serializeCollection([second])
    let loaded = try articleMapping.mapCollection(responseBody)
    try await store.load(loaded, into: articles, orphans: .remove())
    let recent = try await store.fetch(articles, orderBy: [.descending(\.publishedAt)], limit: 20)
    #expect(recent.objects == [second])
    try await store.load(
      loaded, into: articles, orphans: .remove(in: \.author.name == "Ann"))
    try await store.load(loaded, into: articles, orphans: .report())
    await store.close()

    var options = SQLiteStore.Options()
    options.readOnly = true
    let shipped = try SQLiteStore(path: folder.path("App.sqlite"), options: options)
    #expect(shipped.isReadOnly)
    await shipped.close()
  }

  @Test func theIdentityMap() async throws {
    try await withStore { store, _ in
      let notes = Fixtures.notes
      try await store.save([Fixtures.note(1, "one")], to: notes)
      let note = try await store.fetch(notes, id: 1)
      let again = try await store.fetch(notes, id: 1)
      #expect(note === again)
    }
  }

  @Test func migrations() async throws {
    typealias Post = StoreMigrationTests.Post
    let postMappingV1 = StoreMigrationTests.version1
    let posts = StoreMigrationTests.posts
    try await withStore { store, _ in
      try await store.save([Post(id: 1, title: "One")], to: StoreMigrationTests.oldPosts)
      let stale = try await store.unmappableRows(posts)
      #expect(stale.map(\.description) == ["Post 1: /title: required value is missing"])
      let report = try await store.migrate(posts, from: postMappingV1)
      #expect(report.rewritten == ["1"] && report.unmappable.isEmpty)
      try await store.migrate(posts) { payload in
        guard case .object(var members) = payload else { return }
        for index in members.indices where members[index].key == "headline" {
          members[index].key = "title"
        }
        payload = .object(members)
      }
      let dropped = try await store.deleteUnmappable(posts)
      #expect(dropped.isEmpty)
    }
  }
}
