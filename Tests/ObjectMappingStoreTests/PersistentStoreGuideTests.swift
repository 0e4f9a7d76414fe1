import Foundation
import ObjectMapping
import ObjectMappingClient
import ObjectMappingStore
import ObjectMappingTestSupport
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

  @Test func loadingFromTheServer() async throws {
    let body = Array(try Fixtures.articleMapping.serializeCollection([Fixtures.article(1, "A")]))
    let server = try LoopbackServer { request in
      switch request.path {
      case "/articles":
        LoopbackServer.Response(headers: ["Content-Type": "application/json"], body: body)
      default:
        .json(#"{"data": {"comments": [{"id": 1, "article_id": 7, "text": "hi"}]}}"#)
      }
    }
    defer { server.stop() }
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let databasePath = folder.path("App.sqlite")
    let articleMapping = Fixtures.articleMapping
    let comments = StoreClientLoadTests.comments

    let manager = StoreClientLoadTests.manager(server)  // ObjectManager(baseURL:), patient
    let store = try SQLiteStore(path: databasePath)
    let articles = StoreEntity("Article", mapping: articleMapping)  // identified(by: \.id)

    let load = try await manager.getCollection(
      "/articles", entity: articles, store: store, orphans: .remove())
    #expect(load.objects == [Fixtures.article(1, "A")] && load.orphans.isEmpty)

    try await manager.getCollection(
      "/articles/7/comments", entity: comments, rootKey: "data.comments", store: store,
      orphans: .remove(in: \.articleID == 7))
    #expect(try await store.fetch(comments, id: 1)?.text == "hi")

    do {
      try await manager.getCollection("/articles", entity: articles, store: store)
    } catch .manager(let error) {
      Issue.record("the request, the status, the body or the mapping: \(error)")
    } catch .store(let error) {
      Issue.record("the database: \(error)")
    }
    await store.close()
  }

  /// The RestKit migration guide's `primaryKeyAttribute` sample.
  @Test func restKitPrimaryKeyAttribute() async throws {
    struct Article: Equatable, Sendable {
      var articleID = 0
      var title = ""
    }
    let server = try LoopbackServer { _ in
      .json(#"[{"id": 42, "title": "Answer"}, {"id": 7, "title": "Seven"}]"#)
    }
    defer { server.stop() }
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let databasePath = folder.path("MyApp.sqlite")
    let manager = StoreClientLoadTests.manager(server)  // ObjectManager(baseURL:), patient

    let articleMapping = Mapping(Article.init) {
      Attribute("id", \.articleID)
      Attribute("title", \.title)
    }.identified(by: \.articleID)
    let articles = StoreEntity("Article", mapping: articleMapping)
    let store = try SQLiteStore(path: databasePath)
    let load = try await manager.getCollection(
      "/articles", entity: articles, store: store, orphans: .remove())
    // Offline, later:
    let first = try await store.fetch(articles, id: 42)
    #expect(load.objects.count == 2)
    #expect(first == Article(articleID: 42, title: "Answer"))
    await store.close()
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
