import Foundation
import ObjectMapping
import ObjectMappingClient
import ObjectMappingStore
import ObjectMappingTestSupport
import Testing

/// The object manager loading into a SQLite store from the loopback server (issue 39): one
/// transaction per load, nothing changed by a failed one, elements mapped onto what is stored,
/// orphans in scope only, concurrent loads that insert once.
@Suite("ObjectManager into SQLiteStore")
struct StoreClientLoadTests {
  /// A server answering each path with a response its test sets.
  final class Responses: @unchecked Sendable {
    // @unchecked: `responses` is only touched under `lock`.
    private let lock = NSLock()
    private var responses: [String: LoopbackServer.Response] = [:]

    subscript(path: String) -> LoopbackServer.Response? {
      get { lock.withLock { responses[path] } }
      set { lock.withLock { responses[path] = newValue } }
    }
  }

  struct Comment: Equatable, Sendable {
    var id = 0
    var articleID = 0
    var text = ""
    var likes = 0
  }

  static let commentMapping = Mapping(Comment.init) {
    Attribute("id", \.id)
    Attribute("article_id", \.articleID)
    Attribute("text", \.text)
    Attribute("likes", \.likes, default: 0)
  }.identified(by: \.id)

  static let comments = StoreEntity("Comment", mapping: commentMapping).indexed(by: \.articleID)

  static func serve(_ responses: Responses) throws -> (LoopbackServer, ObjectManager) {
    let server = try LoopbackServer { request in
      responses[request.path] ?? .json("[]")
    }
    return (server, manager(server))
  }

  /// A manager for `server` whose requests may wait ten minutes: in a full `swift test` on two
  /// cores, the long synchronous scaling suites can hold both threads of Swift's cooperative pool
  /// for over a minute, and the manager's 60-second timeout (a task racing the request) then wins
  /// against a response that arrived long before. The timeout's behaviour is tested in the
  /// client's own suites.
  static func manager(_ server: LoopbackServer) -> ObjectManager {
    ObjectManager(baseURL: server.baseURL, limits: RequestLimits(timeout: .seconds(600)))
  }

  static func comment(_ id: Int, _ text: String, article: Int = 7, likes: Int = 0) -> Comment {
    Comment(id: id, articleID: article, text: text, likes: likes)
  }

  static let firstBody = #"""
    [{"id": 1, "article_id": 7, "text": "first", "likes": 2},
     {"id": 2, "article_id": 7, "text": "second"}]
    """#

  /// Opens a store at `path`, loads `firstBody` into it, and gives the store.
  static func seeded(_ manager: ObjectManager, _ responses: Responses, path: String)
    async throws -> SQLiteStore
  {
    responses["/comments"] = .json(firstBody)
    let store = try SQLiteStore(path: path)
    try await manager.getCollection("/comments", entity: comments, store: store)
    return store
  }

  @Test func aLoadIsSavedAndReadableAfterReopeningTheFile() async throws {
    let responses = Responses()
    let (server, manager) = try Self.serve(responses)
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    responses["/wrapped"] = .json(#"{"data": {"comments": \#(Self.firstBody)}}"#)
    let store = try SQLiteStore(path: folder.path("comments.sqlite"))
    let load = try await manager.getCollection(
      "/wrapped", entity: Self.comments, rootKey: "data.comments", store: store)
    #expect(load.objects == [Self.comment(1, "first", likes: 2), Self.comment(2, "second")])
    await store.close()
    server.stop()

    var options = SQLiteStore.Options()
    options.readOnly = true
    let offline = try SQLiteStore(path: folder.path("comments.sqlite"), options: options)
    let read = try await offline.fetch(Self.comments, where: \.articleID == 7)
    #expect(read.objects == [Self.comment(1, "first", likes: 2), Self.comment(2, "second")])
    #expect(read.unmappable.isEmpty)
    await offline.close()
  }

  @Test func aServerErrorATruncatedBodyOrAFailingElementChangesNothing() async throws {
    let responses = Responses()
    let (server, manager) = try Self.serve(responses)
    defer { server.stop() }
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let store = try await Self.seeded(manager, responses, path: folder.path("c.sqlite"))
    let before = [Self.comment(1, "first", likes: 2), Self.comment(2, "second")]
    let replacing =
      #"[{"id": 1, "article_id": 7, "text": "changed"}, {"id": 3, "article_id": 7, "text": "new"}]"#

    responses["/comments"] = .json(replacing, status: 500)
    let failed = await #expect(throws: StoreLoadError.self) {
      try await manager.getCollection(
        "/comments", entity: Self.comments, store: store, orphans: .remove())
    }
    #expect(failed?.description == "status 500")
    guard case .manager(.status(let failure))? = failed else {
      Issue.record("a 500 is a status error, not \(String(describing: failed))")
      return
    }
    #expect(failure.statusCode == 500)

    responses["/comments"] = LoopbackServer.Response(
      headers: ["Content-Type": "application/json"], body: Array(replacing.utf8), truncatedTo: 30)
    let truncated = await #expect(throws: StoreLoadError.self) {
      try await manager.getCollection(
        "/comments", entity: Self.comments, store: store, orphans: .remove())
    }
    // The transport's text is the platform's (curl's here); the case is the contract.
    guard case .manager(.transport)? = truncated else {
      Issue.record("a truncated body is a transport error, not \(String(describing: truncated))")
      return
    }

    // Element 1 inserts, element 0 updates, element 2 fails in the middle of the array.
    responses["/comments"] = .json(
      #"[{"id": 1, "article_id": 7, "text": "changed"}, {"id": 3, "article_id": 7, "text": "new"}, {"id": 4, "article_id": 7, "text": ["no"]}, {"id": 5, "article_id": 7, "text": "late"}]"#
    )
    let mapping = await #expect(throws: StoreLoadError.self) {
      try await manager.getCollection(
        "/comments", entity: Self.comments, store: store, orphans: .remove())
    }
    #expect(
      mapping?.description
        == "the response (status 200) could not be mapped: /2/text: expected a string, found an array"
    )
    #expect(try await store.fetch(Self.comments).objects == before)
    await store.close()
  }

  @Test func elementsAreMappedOntoTheStoredObjects() async throws {
    let responses = Responses()
    let (server, manager) = try Self.serve(responses)
    defer { server.stop() }
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let store = try await Self.seeded(manager, responses, path: folder.path("c.sqlite"))
    // Comment 1 leaves "likes" out: its stored 2 stays. Comment 3 appears twice: one object,
    // its elements applied in order.
    responses["/comments"] = .json(
      #"[{"id": 1, "article_id": 7, "text": "edited"}, {"id": 3, "article_id": 7, "text": "new", "likes": 5}, {"id": 3, "article_id": 7, "text": "newer"}]"#
    )
    let load = try await manager.getCollection("/comments", entity: Self.comments, store: store)
    let three = Self.comment(3, "newer", likes: 5)
    #expect(load.objects == [Self.comment(1, "edited", likes: 2), three, three])
    #expect(
      try await store.fetch(Self.comments).objects
        == [Self.comment(1, "edited", likes: 2), Self.comment(2, "second"), three])
    await store.close()
  }

  @Test func orphansAreRemovedInTheLoadsScopeOnly() async throws {
    let responses = Responses()
    let (server, manager) = try Self.serve(responses)
    defer { server.stop() }
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let store = try SQLiteStore(path: folder.path("c.sqlite"))
    try await store.save(
      [
        Self.comment(1, "a", article: 7), Self.comment(2, "b", article: 7),
        Self.comment(3, "c", article: 8), Self.comment(4, "d", article: 8),
      ], to: Self.comments)
    // The comments of article 7 no longer list 1; article 8's are outside the scope.
    responses["/articles/7/comments"] = .json(#"[{"id": 2, "article_id": 7, "text": "b"}]"#)
    let reported = try await manager.getCollection(
      "/articles/7/comments", entity: Self.comments, store: store,
      orphans: .report(in: \.articleID == 7))
    #expect(reported.orphans == [Self.comment(1, "a", article: 7)])
    #expect(try await store.count(Self.comments) == 4)
    let removed = try await manager.getCollection(
      "/articles/7/comments", entity: Self.comments, store: store,
      orphans: .remove(in: \.articleID == 7))
    #expect(removed.objects == [Self.comment(2, "b", article: 7)])
    #expect(removed.orphans == [Self.comment(1, "a", article: 7)])
    #expect(try await store.fetch(Self.comments).objects.map(\.id) == [2, 3, 4])
    // Without a rule, nothing is an orphan.
    responses["/articles/8/comments"] = .json(#"[{"id": 4, "article_id": 8, "text": "d"}]"#)
    let plain = try await manager.getCollection(
      "/articles/8/comments", entity: Self.comments, store: store)
    #expect(plain.orphans.isEmpty)
    #expect(try await store.fetch(Self.comments).objects.map(\.id) == [2, 3, 4])
    await store.close()
  }

  @Test func classElementsAreMappedOntoTheLiveInstances() async throws {
    let responses = Responses()
    let (server, manager) = try Self.serve(responses)
    defer { server.stop() }
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let store = try SQLiteStore(path: folder.path("n.sqlite"))
    let held = Fixtures.note(1, "one")
    try await store.save([held], to: Fixtures.notes)
    responses["/notes"] = .json(#"[{"id": 1, "text": "one, edited"}, {"id": 2, "text": "two"}]"#)
    let load = try await manager.getCollection("/notes", entity: Fixtures.notes, store: store)
    #expect(load.objects.count == 2)
    #expect(load.objects[0] === held)
    #expect(held.text == "one, edited")
    #expect(try await store.fetch(Fixtures.notes, id: 2) === load.objects[1])
    await store.close()
  }

  @Test func aDatabaseFailureLeavesTheLiveInstancesAsTheyWere() async throws {
    let responses = Responses()
    let (server, manager) = try Self.serve(responses)
    defer { server.stop() }
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let writable = try SQLiteStore(path: folder.path("n.sqlite"))
    try await writable.save([Fixtures.note(1, "one")], to: Fixtures.notes)
    await writable.close()
    var options = SQLiteStore.Options()
    options.readOnly = true
    let store = try SQLiteStore(path: folder.path("n.sqlite"), options: options)
    let held = try #require(try await store.fetch(Fixtures.notes, id: 1))
    responses["/notes"] = .json(#"[{"id": 1, "text": "one, edited"}]"#)
    let error = await #expect(throws: StoreLoadError.self) {
      try await manager.getCollection("/notes", entity: Fixtures.notes, store: store)
    }
    #expect(
      error?.description
        == "the database \(folder.path("n.sqlite")) is open read-only")
    #expect(held.text == "one")
    #expect(try await store.fetch(Fixtures.notes, id: 1) === held)
    await store.close()
  }

  /// Holds each request until a second one arrived (or a second passed), so that two loads get
  /// their responses at the same moment and race to insert.
  final class Pairs: @unchecked Sendable {
    // @unchecked: `waiting` is only touched under `lock`; the semaphores are thread-safe.
    private let lock = NSLock()
    private var waiting: DispatchSemaphore?

    func meet() {
      let partner: DispatchSemaphore? = lock.withLock {
        if let waiting {
          self.waiting = nil
          return waiting
        }
        waiting = DispatchSemaphore(value: 0)
        return nil
      }
      if let partner {
        partner.signal()
      } else if let mine = lock.withLock({ waiting }) {
        _ = mine.wait(timeout: .now() + 1)
      }
    }
  }

  @Test func twoConcurrentLoadsOfTheSameIdentitiesInsertThemOnce() async throws {
    let pairs = Pairs()
    let body =
      "[" + (1...300).map { #"{"id": \#($0), "text": "n\#($0)"}"# }.joined(separator: ",")
      + "]"
    let server = try LoopbackServer { _ in
      pairs.meet()
      return .json(body)
    }
    defer { server.stop() }
    let manager = Self.manager(server)
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let store = try SQLiteStore(path: folder.path("n.sqlite"))
    for round in 0..<3 {
      try await store.delete(Fixtures.notes, ids: Array(1...300))
      async let first = manager.getCollection("/notes", entity: Fixtures.notes, store: store)
      async let second = manager.getCollection("/notes", entity: Fixtures.notes, store: store)
      let (a, b) = try await (first, second)
      #expect(a.objects.count == 300, "round \(round)")
      #expect(zip(a.objects, b.objects).allSatisfy { $0 === $1 }, "round \(round)")
      #expect(try await store.count(Fixtures.notes) == 300)
      let fetched = try await store.fetch(Fixtures.notes).objects
      #expect(zip(fetched, a.objects).allSatisfy { $0 === $1 }, "round \(round)")
    }
    await store.close()
  }

  @Test func anElementWithoutIdentityIsNewAndNotSaved() async throws {
    let responses = Responses()
    let (server, manager) = try Self.serve(responses)
    defer { server.stop() }
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let store = try SQLiteStore(path: folder.path("d.sqlite"))
    responses["/drafts"] = .json(#"[{"id": 1, "text": "kept"}, {"text": "no id"}]"#)
    let load = try await manager.getCollection("/drafts", entity: Self.drafts, store: store)
    #expect(load.objects == [Draft(id: 1, text: "kept"), Draft(id: nil, text: "no id")])
    #expect(try await store.fetch(Self.drafts).objects == [Draft(id: 1, text: "kept")])
    await store.close()
  }

  /// The same loads into `store`: what each gives and what is stored after each.
  static func loads(_ store: some PersistentStore, _ manager: ObjectManager) async throws
    -> [[Comment]]
  {
    var results: [[Comment]] = []
    for path in ["/one", "/two", "/two", "/three"] {
      let load = try await manager.getCollection(
        path, entity: comments, store: store, orphans: .remove(in: \.articleID == 7))
      results += [load.objects, load.orphans, try await store.fetch(comments).objects]
    }
    return results
  }

  @Test func theManagerLoadsIntoAnyPersistentStoreAlike() async throws {
    let responses = Responses()
    responses["/one"] = .json(Self.firstBody)
    responses["/two"] = .json(
      #"[{"id": 2, "article_id": 7, "text": "second, edited"}, {"id": 9, "article_id": 8, "text": "other"}]"#
    )
    responses["/three"] = .json(#"[{"id": 3, "article_id": 7, "text": "third", "likes": 1}]"#)
    let (server, manager) = try Self.serve(responses)
    defer { server.stop() }
    let memory = try await Self.loads(MemoryStore(), manager)
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let store = try SQLiteStore(path: folder.path("c.sqlite"))
    let sqlite = try await Self.loads(store, manager)
    await store.close()
    #expect(memory == sqlite)
    let one = Self.comment(1, "first", likes: 2)
    let two = Self.comment(2, "second, edited")
    let nine = Self.comment(9, "other", article: 8)
    let three = Self.comment(3, "third", likes: 1)
    #expect(
      sqlite == [
        [one, Self.comment(2, "second")], [], [one, Self.comment(2, "second")],
        [two, nine], [one], [two, nine],
        [two, nine], [], [two, nine],
        [three], [two], [nine, three],
      ])
  }

  @Test func aRowThatNoLongerMapsIsReplacedByTheResponsesElement() async throws {
    typealias Post = StoreMigrationTests.Post
    let responses = Responses()
    responses["/posts"] = .json(#"[{"id": 1, "title": "One, from the server"}]"#)
    let (server, manager) = try Self.serve(responses)
    defer { server.stop() }
    try await withStore { store, _ in
      // Rows 1 and 2 were saved with the old mapping ("headline"): today's cannot read them.
      try await store.save(
        [Post(id: 1, title: "One"), Post(id: 2, title: "Two")], to: StoreMigrationTests.oldPosts)
      let load = try await manager.getCollection(
        "/posts", entity: StoreMigrationTests.posts, store: store)
      #expect(load.objects == [Post(id: 1, title: "One, from the server")])
      let fetched = try await store.fetch(StoreMigrationTests.posts)
      #expect(fetched.objects == [Post(id: 1, title: "One, from the server")])
      #expect(
        fetched.unmappable.map(\.description) == ["Post 2: /title: required value is missing"])
    }
  }

  /// The manager's `MappingOptions.errorLimit` limits a load's errors across all its elements
  /// (they were capped at 1,000 whatever the options); nothing is saved.
  @Test func aLoadsErrorsAcrossItsElementsKeepTheManagersLimit() async throws {
    let responses = Responses()
    responses["/comments"] = .json(
      #"[{"id": 1, "article_id": "x"}, {"id": 2, "article_id": "y"}, {"id": 3, "article_id": "z"}]"#
    )
    let server = try LoopbackServer { request in responses[request.path] ?? .json("[]") }
    defer { server.stop() }
    let manager = ObjectManager(
      baseURL: server.baseURL, options: MappingOptions(errorLimit: 2),
      limits: RequestLimits(timeout: .seconds(600)))
    try await withStore { store, _ in
      let failed = await #expect(throws: StoreLoadError.self) {
        try await manager.getCollection("/comments", entity: Self.comments, store: store)
      }
      guard case .manager(.mapping(let errors, _))? = failed else {
        Issue.record("expected a mapping error, not \(String(describing: failed))")
        return
      }
      #expect(errors.errors.map(\.path) == ["/0/article_id", "/0/text"])
      #expect(errors.omittedCount == 4)
      let saved = try await store.fetch(Self.comments)
      #expect(saved.objects.isEmpty)
    }
  }

  struct Draft: Equatable, Sendable {
    var id: Int?
    var text = ""
  }

  static let drafts = StoreEntity(
    "Draft",
    mapping: Mapping(Draft.init) {
      Attribute("id", \.id)
      Attribute("text", \.text)
    }.identified(by: \.id))
}
