import Foundation
import ObjectMapping
import ObjectMappingClient
import ObjectMappingTestSupport
import ShowcaseKit
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The object manager against a real HTTP/1.1 server on 127.0.0.1 that each test starts and
/// stops: every verb, bodies byte for byte, responses mapped back onto the sent object, error
/// statuses and their messages, and every way a request can fail (issue 18).
@Suite("ObjectManager")
struct ObjectManagerTests {
  struct Article: Equatable, Sendable {
    var id = 0
    var title = ""
    var tags: [String] = []
    var updatedAt: String?
  }

  final class Note: @unchecked Sendable {
    // @unchecked: each test uses its own instance on one task.
    var id = 0
    var text = ""
  }

  static let articleMapping = Mapping(Article.init) {
    Attribute("id", \.id)
    Attribute("title", \.title)
    Attribute("tags", \.tags, default: [])
    Attribute("updated_at", \.updatedAt)
  }

  static let noteMapping = Mapping(Note.init) {
    Attribute("id", \.id)
    Attribute("text", \.text)
  }

  static func router() throws -> Router {
    var router = Router()
    try router.add(Article.self, "/articles/:id") { ["id": "\($0.id)"] }
    try router.add(Article.self, .post, "/articles")
    try router.add(Note.self, "/notes/:id") { ["id": "\($0.id)"] }
    return router
  }

  /// A server answering with `handler`, and a manager pointed at it.
  static func serve(
    headers: HeaderFields = [:], limits: RequestLimits = .loopback,
    _ handler: @escaping @Sendable (LoopbackServer.Request) -> LoopbackServer.Response
  ) throws -> (LoopbackServer, ObjectManager) {
    let server = try LoopbackServer(handler: handler)
    let provider = MappingProvider { Route("articles", articleMapping) }
    let manager = ObjectManager(
      baseURL: server.baseURL, router: try router(), headers: headers, provider: provider,
      limits: limits)
    return (server, manager)
  }

  // MARK: Verbs

  @Test func getLoadsAnObjectAndACollection() async throws {
    let (server, manager) = try Self.serve { request in
      switch request.path {
      case "/articles/1": .json(#"{"id": 1, "title": "One", "tags": ["a"]}"#)
      default: .json(#"[{"id": 1, "title": "One"}, {"id": 2, "title": "Two"}]"#)
      }
    }
    defer { server.stop() }
    let one = try await manager.get("/articles/1", mapping: Self.articleMapping)
    #expect(one == Article(id: 1, title: "One", tags: ["a"]))
    let all = try await manager.getCollection(
      "/articles", query: ["page": "2", "q": "a b&c"], mapping: Self.articleMapping)
    #expect(all.map(\.id) == [1, 2])
    #expect(server.requests.last?.target == "/articles?page=2&q=a%20b%26c")
    #expect(server.requests.allSatisfy { $0.method == "GET" })
  }

  @Test func postSendsTheInverseAndMapsTheResponseOntoTheObject() async throws {
    let (server, manager) = try Self.serve(headers: ["Authorization": "Bearer t"]) { request in
      .json(#"{"id": 42, "updated_at": "2026-11-24"}"#, status: 201)
    }
    defer { server.stop() }
    let draft = Article(title: "Hello \"world\"", tags: ["x"])
    let created = try await manager.post(
      draft, mapping: Self.articleMapping, headers: ["X-Custom": "1"])
    #expect(
      created == Article(id: 42, title: "Hello \"world\"", tags: ["x"], updatedAt: "2026-11-24"))
    let request = try #require(server.requests.last)
    #expect(request.method == "POST" && request.path == "/articles")
    #expect(request.bodyText == #"{"id":0,"title":"Hello \"world\"","tags":["x"]}"#)
    #expect(request.headers["content-type"] == "application/json")
    #expect(request.headers["authorization"] == "Bearer t")
    #expect(request.headers["x-custom"] == "1")
  }

  @Test func putPatchAndDeleteUseTheObjectsRouteAndFormat() async throws {
    let (server, manager) = try Self.serve { request in
      request.method == "DELETE"
        ? LoopbackServer.Response(status: 204) : .json(#"{"title": "Saved"}"#)
    }
    defer { server.stop() }
    let article = Article(id: 7, title: "a&b = c", tags: [])
    let put = try await manager.put(article, mapping: Self.articleMapping, format: .formURLEncoded)
    #expect(put.title == "Saved" && put.id == 7)
    #expect(server.requests.last?.method == "PUT" && server.requests.last?.path == "/articles/7")
    #expect(server.requests.last?.bodyText == "id=7&title=a%26b+%3D+c")
    #expect(
      server.requests.last?.headers["content-type"] == "application/x-www-form-urlencoded")
    _ = try await manager.patch(article, mapping: Self.articleMapping)
    #expect(server.requests.last?.method == "PATCH")
    try await manager.delete(article)
    #expect(server.requests.last?.method == "DELETE" && server.requests.last?.path == "/articles/7")
    #expect(server.requests.last?.body.isEmpty == true)
  }

  @Test func queryItemsComeFromAnObjectThroughItsMapping() async throws {
    struct Filter: Sendable {
      var state = "open"
      var labels = ["bug", "ui"]
    }
    let filterMapping = Mapping(Filter.init) {
      Attribute("state", \.state)
      Attribute("labels", \.labels)
    }
    let (server, manager) = try Self.serve { _ in .json("[]") }
    defer { server.stop() }
    let query = Query(Filter(), mapping: filterMapping)
    _ = try await manager.getCollection("/articles", query: query, mapping: Self.articleMapping)
    #expect(
      server.requests.last?.target == "/articles?state=open&labels%5B%5D=bug&labels%5B%5D=ui")
  }

  @Test func aProviderMapsTheResponseByKeyPath() async throws {
    let (server, manager) = try Self.serve { _ in
      .json(#"{"articles": [{"id": 3, "title": "T"}]}"#)
    }
    defer { server.stop() }
    let result = try await manager.get("/feed")
    #expect(result.all(Article.self).map(\.id) == [3])
  }

  // MARK: Transactions

  @Test func aFailedResponseLeavesTheSentObjectUnchanged() async throws {
    let (server, manager) = try Self.serve { request in
      request.method == "PUT"
        ? .json(#"{"message": "Validation Failed"}"#, status: 422)
        : .json(#"{"id": 6, "text": {"nested": true}}"#)
    }
    defer { server.stop() }
    let note = Note()
    note.id = 5
    note.text = "before"
    await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.put(note, mapping: Self.noteMapping)
    }
    #expect(note.text == "before")
    // A response that does not map (text is an object) changes nothing either, not even the
    // members that did map (id).
    await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.reload(note, mapping: Self.noteMapping)
    }
    #expect(note.text == "before" && note.id == 5)
  }

  @Test func aSuccessfulResponseUpdatesAClassInstanceInPlace() async throws {
    let (server, manager) = try Self.serve { _ in .json(#"{"text": "after"}"#) }
    defer { server.stop() }
    let note = Note()
    note.id = 9
    let returned = try await manager.patch(note, mapping: Self.noteMapping)
    #expect(returned === note && note.text == "after")
    #expect(server.requests.last?.path == "/notes/9")
  }

  // MARK: Error statuses

  @Test func errorBodiesBecomeMessagesInEveryCommonShape() async throws {
    let (server, manager) = try Self.serve { request in
      switch request.path {
      case "/github":
        .json(
          #"{"message": "Validation Failed", "errors": [{"resource": "Issue", "field": "title", "code": "missing_field"}, {"message": "body is too long"}]}"#,
          status: 422)
      case "/problem":
        .json(
          #"{"type": "about:blank", "title": "Not Found", "detail": "No article 9", "status": 404}"#,
          status: 404, contentType: "application/problem+json")
      case "/restkit":
        .json(#"{"errors": ["first", "second"]}"#, status: 500)
      case "/single":
        .json(#"{"error": "nope"}"#, status: 400)
      default:
        LoopbackServer.Response(
          status: 503, headers: ["Content-Type": "text/plain"], body: Array("down".utf8))
      }
    }
    defer { server.stop() }
    func failure(_ path: String) async -> HTTPFailure? {
      do {
        _ = try await manager.get(path, mapping: Self.articleMapping)
      } catch {
        if case .status(let failure) = error { return failure }
      }
      return nil
    }
    let github = await failure("/github")
    #expect(github?.statusCode == 422)
    #expect(
      github?.messages.map(\.message)
        == ["Validation Failed", "Issue.title missing_field", "body is too long"])
    #expect(github?.messages[1].representation["code"] == .string("missing_field"))
    let problem = await failure("/problem")
    #expect(problem?.messages.map(\.message) == ["Not Found", "No article 9"])
    #expect(problem?.contentType == "application/problem+json")
    #expect(await failure("/restkit")?.messages.map(\.message) == ["first", "second"])
    #expect(await failure("/single")?.description == "nope")
    let down = await failure("/down")
    #expect(down?.messages.isEmpty == true && down?.body == Data("down".utf8))
  }

  // MARK: Failures

  @Test func eachKindOfBadResponseIsItsOwnError() async throws {
    let (server, manager) = try Self.serve { request in
      switch request.path {
      case "/empty": LoopbackServer.Response(status: 200)
      case "/text":
        LoopbackServer.Response(
          status: 200, headers: ["Content-Type": "text/html"], body: Array("<p>".utf8))
      case "/malformed": .json("{\"id\": 1,\n \"title\": }")
      default:
        LoopbackServer.Response(
          status: 200, headers: ["Content-Type": "application/json"],
          body: Array(#"{"id": 1, "title": "long enough"}"#.utf8), truncatedTo: 8)
      }
    }
    defer { server.stop() }
    func error(_ path: String) async -> ObjectManagerError? {
      do {
        _ = try await manager.get(path, mapping: Self.articleMapping)
        return nil
      } catch {
        return error
      }
    }
    guard case .emptyBody(200)? = await error("/empty") else {
      Issue.record("empty body")
      return
    }
    guard case .unsupportedContentType("text/html", 200)? = await error("/text") else {
      Issue.record("content type")
      return
    }
    guard case .mapping(let errors, 200)? = await error("/malformed") else {
      Issue.record("malformed")
      return
    }
    #expect("\(errors)".contains("line 2"))
    guard case .transport? = await error("/truncated") else {
      Issue.record("truncated")
      return
    }
  }

  @Test func aRefusedConnectionIsATransportError() async throws {
    // A stopped server's port is free, so another suite's server (they run in parallel) may be
    // given it before the request is sent: a response from anyone else means the port was
    // reused, and the check is made again on a fresh port.
    var outcomes: [String] = []
    for _ in 0..<3 {
      let server = try LoopbackServer { _ in .json("{}") }
      let url = server.baseURL
      server.stop()
      let manager = ObjectManager(baseURL: url, limits: .loopback)
      do {
        _ = try await manager.send(.get, "/x")
        outcomes.append("a response: the port was reused")
      } catch {
        guard case .transport = error else {
          outcomes.append("\(error)")
          continue
        }
        return
      }
    }
    Issue.record("expected a transport error, got: \(outcomes)")
  }

  @Test func aSlowServerTimesOut() async throws {
    let (server, manager) = try Self.serve(limits: RequestLimits(timeout: .seconds(1))) { _ in
      LoopbackServer.Response(status: 200, body: Array("{}".utf8), delay: 5)
    }
    defer { server.stop() }
    let started = Date()
    defer { #expect(Date().timeIntervalSince(started) > 0.5) }
    do {
      _ = try await manager.get("/slow", mapping: Self.articleMapping)
      Issue.record("expected a timeout")
    } catch {
      guard case .timedOut = error else {
        Issue.record("expected timedOut, got \(error)")
        return
      }
    }
  }

  @Test func cancellingTheTaskCancelsTheRequest() async throws {
    // The server would answer after a minute; the request is cancelled long before. That the
    // transfer itself stopped is seen from the server: the client closed the connection while
    // the response was still pending (no timing, which a loaded machine would blur).
    let (server, manager) = try Self.serve { _ in
      LoopbackServer.Response(status: 200, body: Array("{}".utf8), delay: 60)
    }
    defer { server.stop() }
    let task = Task { () async throws(ObjectManagerError) -> Article in
      try await manager.get("/slow", mapping: Self.articleMapping)
    }
    var started = 0
    while server.requests.isEmpty, started < 1_500 {
      try await Task.sleep(for: .milliseconds(20))
      started += 1
    }
    task.cancel()
    let outcome = await task.result
    guard case .failure(let error) = outcome, case ObjectManagerError.cancelled = error else {
      Issue.record("expected cancelled, got \(outcome)")
      return
    }
    var waited = 0
    while server.abandonedRequests == 0, waited < 1_500 {
      try await Task.sleep(for: .milliseconds(20))
      waited += 1
    }
    #expect(server.abandonedRequests == 1)
  }

}

/// The request and response facts reach mappings as `SourcePath.metadata` (issue 18).
@Suite("ObjectManager metadata")
struct ObjectManagerMetadataTests {
  struct Listing: Sendable {
    var names: [String] = []
    var status = 0
    var method = ""
    var etag = ""
    var url = ""
  }

  @Test func mappingsReadTheRequestAndResponse() async throws {
    let mapping = Mapping(Listing.init) {
      Attribute("names", \.names)
      Attribute(SourcePath.metadata.appending("response.status"), \.status)
      Attribute(SourcePath.metadata.appending("request.method"), \.method)
      Attribute(SourcePath.metadata.appending("response.headers.etag"), \.etag)
      Attribute(SourcePath.metadata.appending("request.url"), \.url)
    }
    let server = try LoopbackServer { _ in
      LoopbackServer.Response(
        status: 200, headers: ["Content-Type": "application/json", "ETag": "v7"],
        body: Array(#"{"names": ["a"]}"#.utf8))
    }
    defer { server.stop() }
    let manager = ObjectManager(baseURL: server.baseURL, limits: .loopback)
    let listing = try await manager.get("/list", query: ["page": "2"], mapping: mapping)
    #expect(listing.names == ["a"] && listing.status == 200 && listing.method == "GET")
    #expect(listing.etag == "v7")
    #expect(listing.url.hasSuffix("/list?page=2"))
  }
}

/// An identity map across loads: the same record loaded twice is one instance, updated;
/// records the server dropped are reported, and removed on request (issue 18).
@Suite("ObjectManager identity")
struct ObjectManagerIdentityTests {
  final class Note: @unchecked Sendable {
    // @unchecked: used by one test task.
    var id = 0
    var text = ""
  }

  static let mapping = Mapping(Note.init) {
    Attribute("id", \.id)
    Attribute("text", \.text)
  }

  final class Payload: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    let lock = NSLock()
    var text = #"[{"id": 1, "text": "one"}, {"id": 2, "text": "two"}]"#
    var current: String { lock.withLock { text } }
  }

  @Test func loadingAgainUpdatesTheSameInstancesAndReportsOrphans() async throws {
    let payload = Payload()
    let server = try LoopbackServer { _ in .json(payload.current) }
    defer { server.stop() }
    let manager = ObjectManager(baseURL: server.baseURL, limits: .loopback)
    let store = InMemoryObjectStore()
    let first = try await manager.getCollection(
      "/notes", mapping: Self.mapping, store: store, identity: { "\($0.id)" })
    #expect(first.objects.map(\.text) == ["one", "two"] && first.orphans.isEmpty)
    payload.lock.withLock {
      payload.text = #"[{"id": 2, "text": "two, edited"}, {"id": 3, "text": "three"}]"#
    }
    let second = try await manager.getCollection(
      "/notes", mapping: Self.mapping, store: store, identity: { "\($0.id)" })
    #expect(second.objects[0] === first.objects[1])
    #expect(first.objects[1].text == "two, edited")
    #expect(second.orphans.map(\.id) == [1])
    #expect(store.ids(of: Note.self) == ["1", "2", "3"])
    let third = try await manager.getCollection(
      "/notes", mapping: Self.mapping, store: store, identity: { "\($0.id)" }, orphans: .remove)
    #expect(third.orphans.map(\.id) == [1])
    #expect(store.ids(of: Note.self) == ["2", "3"])
    #expect(store.object(of: Note.self, id: "3") === second.objects[1])
  }
}

/// The showcase's object manager section runs a whole session against its loopback server.
@Suite("ObjectManager showcase")
struct ObjectManagerShowcaseTests {
  @Test func theSessionListsCreatesUpdatesFailsAndDeletes() async {
    let section = await ObjectManagerShowcase.section(limits: .loopback)
    #expect(
      section.lines == [
        "GET /notes -> 2 notes: Map the timeline, Serialize a form body",
        #"POST /notes with body {"id":0,"title":"Write the guide","done":false}"#,
        #"  -> created #3 "Write the guide""#,
        "PUT /notes/3 -> done: true",
        "POST /notes with an empty title -> status 422:",
        "  Validation Failed",
        "  Note.title missing_field",
        "DELETE /notes/3 -> 2 notes left",
        "GET /notes/export with a 64 KiB limit -> the response is larger than the limit of 65,536 bytes",
      ])
  }
}

/// The test server's echo response reports what it received (issue 18).
@Suite("LoopbackServer")
struct LoopbackServerTests {
  struct Echo: Sendable {
    var method = ""
    var target = ""
    var contentType = ""
    var custom = ""
    var body = ""
  }

  @Test func anEchoReportsTheRequest() async throws {
    let mapping = Mapping(Echo.init) {
      Attribute("method", \.method)
      Attribute("target", \.target)
      Attribute("contentType", \.contentType)
      Attribute("custom", \.custom)
      Attribute("body", \.body)
    }
    let server = try LoopbackServer { .echo($0) }
    defer { server.stop() }
    let manager = ObjectManager(
      baseURL: server.baseURL, headers: ["X-Custom": "yes"], limits: .loopback)
    let response = try await manager.send(
      .post, "/echo", query: ["a": "1"],
      body: RequestBody(data: Data("hello".utf8), contentType: "text/plain"))
    let echo = try mapping.map(response.body)
    #expect(echo.method == "POST" && echo.target == "/echo?a=1")
    #expect(echo.contentType == "text/plain" && echo.custom == "yes" && echo.body == "hello")
    #expect(server.requests.count == 1)
  }
}

/// A manager's options reach every response it maps and every body it writes: a client of a
/// snake_case API declares the convention once, and its mappings leave the keys out (issue 20).
@Suite("ObjectManager options")
struct ObjectManagerOptionsTests {
  struct Issue: Equatable, Sendable {
    var issueNumber = 0
    var createdAt = ""
    var labelNames: [String] = []
    var requestURL = ""
  }

  final class Comment: @unchecked Sendable {
    // @unchecked: each test uses its own instances on one task.
    var commentID = 0
    var bodyText = ""
  }

  static let issueMapping = Mapping(Issue.init) {
    Attribute(\.issueNumber)
    Attribute(\.createdAt)
    Attribute(\.labelNames, default: [])
    Attribute(SourcePath.metadata.appending("request.url"), \.requestURL, default: "")
      .decodeOnly()
  }

  static let commentMapping = Mapping(Comment.init) {
    Attribute(\.commentID)
    Attribute(\.bodyText)
  }

  @Test func aManagersKeyConventionMapsResponsesAndWritesBodies() async throws {
    let server = try LoopbackServer { request in
      switch (request.method, request.path) {
      case ("GET", "/issues/7"):
        .json(#"{"issue_number": 7, "created_at": "2024", "label_names": ["bug"]}"#)
      case ("GET", "/issues"):
        .json(#"[{"issue_number": 1, "created_at": "a"}, {"issue_number": 2, "created_at": "b"}]"#)
      case ("GET", "/comments"):
        .json(#"[{"comment_id": 4, "body_text": "hi"}]"#)
      default:
        // Echo the body: the object as the server stored it.
        .json(request.bodyText)
      }
    }
    defer { server.stop() }
    var router = Router()
    try router.add(Issue.self, .post, "/issues")
    let manager = ObjectManager(
      baseURL: server.baseURL, router: router, options: MappingOptions(keys: .snakeCase),
      limits: .loopback)
    #expect(manager.options.keys != nil)
    let issue = try await manager.get("/issues/7", mapping: Self.issueMapping)
    #expect(issue.issueNumber == 7 && issue.createdAt == "2024" && issue.labelNames == ["bug"])
    // The response's metadata is still there, with the manager's options.
    #expect(issue.requestURL.hasSuffix("/issues/7"))
    let all = try await manager.getCollection("/issues", mapping: Self.issueMapping)
    #expect(all.map(\.issueNumber) == [1, 2])
    let sent = Issue(issueNumber: 9, createdAt: "now", labelNames: ["x"])
    let answered = try await manager.post(sent, mapping: Self.issueMapping)
    #expect(
      server.requests.last?.bodyText
        == #"{"issue_number":9,"created_at":"now","label_names":["x"]}"#)
    #expect(answered.issueNumber == 9 && answered.labelNames == ["x"])
    // The store path maps with them too.
    let store = InMemoryObjectStore()
    let comments = try await ObjectManager(
      baseURL: server.baseURL, options: MappingOptions(keys: .snakeCase), limits: .loopback
    ).getCollection(
      "/comments", mapping: Self.commentMapping, store: store, identity: { "\($0.commentID)" })
    #expect(comments.objects.map(\.bodyText) == ["hi"])
    #expect(store.ids(of: Comment.self) == ["4"])
  }

  @Test func withoutOptionsTheSameMappingsReadThePropertyNames() async throws {
    let server = try LoopbackServer { _ in
      .json(#"{"issueNumber": 3, "createdAt": "c", "issue_number": 99}"#)
    }
    defer { server.stop() }
    let manager = ObjectManager(baseURL: server.baseURL, limits: .loopback)
    let issue = try await manager.get("/issues/3", mapping: Self.issueMapping)
    #expect(issue.issueNumber == 3 && issue.createdAt == "c")
  }
}
