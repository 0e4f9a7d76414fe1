import Foundation
import ObjectMapping
import ObjectMappingClient
import ObjectMappingTestSupport
import Testing

/// The samples of `Documentation/ObjectManager.md`, compiled and run against a loopback server
/// (the guide's `https://api.example.com` is the server here). Keep them in step with the guide.
@Suite("Object manager guide samples")
struct GuideSampleTests {
  struct Article: Equatable, Sendable {
    var id = 0
    var title = ""
  }

  static let articleMapping = Mapping(Article.init) {
    Attribute("id", \.id)
    Attribute("title", \.title)
  }

  /// A small articles API: lists, creates, updates and deletes, and pages with `Link`.
  static func articlesAPI() throws -> LoopbackServer {
    try LoopbackServer { request in
      switch (request.method, request.path) {
      case ("GET", "/v1/articles"):
        let page = Int(request.target.split(separator: "=").last ?? "") ?? 1
        return LoopbackServer.Response(
          status: 200,
          headers: [
            "Content-Type": "application/json",
            "Link": "</v1/articles?page=\(page + 1)>; rel=\"next\"",
          ],
          body: Array(#"[{"id": \#(page), "title": "Page \#(page)"}]"#.utf8))
      case ("GET", _): return .json(#"{"id": 1, "title": "One"}"#)
      case ("POST", _): return .json(#"{"id": 42}"#, status: 201)
      case ("DELETE", _): return LoopbackServer.Response(status: 204)
      default: return .json(#"{"id": 42}"#)
      }
    }
  }

  struct Photo: Sendable {
    var id = 3
  }

  @Test func routes() throws {
    let article = Article(id: 12, title: "T")
    // From "Routes".
    var router = Router()
    try router.add(Article.self, "/articles/:id") { ["id": "\($0.id)"] }  // every method
    try router.add(Article.self, .post, "/articles")  // POST has its own
    try router.add(Photo.self, [.get, .head], "/photos/:id") { ["id": "\($0.id)"] }  // a set
    try router.add(named: "comments", "/articles/:articleID/comments")

    #expect(try router.path(for: article, method: .put) == "/articles/12")
    #expect(try router.path(named: "comments", ["articleID": "12"]) == "/articles/12/comments")
    #expect(try router.path(for: Photo(), method: .head) == "/photos/3")
    #expect(throws: ObjectManagerError.self) { try router.path(for: Photo(), method: .post) }
    let match = try #require(router.match("/articles/12/comments?page=2&sort=new"))
    #expect(match.parameters == ["articleID": "12"])
    #expect(match.arguments == ["articleID": "12", "page": "2", "sort": "new"])
  }

  @Test func requestsAndAPager() async throws {
    let server = try Self.articlesAPI()
    defer { server.stop() }
    let token = "t"
    let articleMapping = Self.articleMapping
    let draft = Article(title: "Draft")
    var router = Router()
    try router.add(Article.self, "/articles/:id") { ["id": "\($0.id)"] }
    try router.add(Article.self, .post, "/articles")
    // From "Requests" (the base URL is the loopback server's).
    let manager = ObjectManager(
      baseURL: try #require(URL(string: "http://127.0.0.1:\(server.port)/v1")), router: router,
      headers: ["Authorization": "Bearer \(token)"], limits: .loopback)

    let article = try await manager.get("/articles/1", mapping: articleMapping)
    let page = try await manager.getCollection(
      "/articles", query: ["page": "2"], mapping: articleMapping)

    let created = try await manager.post(draft, mapping: articleMapping)  // POST /articles
    let saved = try await manager.put(created, mapping: articleMapping)  // PUT /articles/42
    let patched = try await manager.patch(saved, mapping: articleMapping, format: .formURLEncoded)
    try await manager.delete(patched)  // DELETE /articles/42

    #expect(article == Article(id: 1, title: "One") && page == [Article(id: 2, title: "Page 2")])
    #expect(created.id == 42 && patched.id == 42)
    #expect(
      server.requests.map { "\($0.method) \($0.target)" } == [
        "GET /v1/articles/1", "GET /v1/articles?page=2", "POST /v1/articles",
        "PUT /v1/articles/42", "PATCH /v1/articles/42", "DELETE /v1/articles/42",
      ])

    // From "Mapping a response yourself".
    func nextURL(in link: String) -> URL? {
      guard let start = link.firstIndex(of: "<"), let end = link.firstIndex(of: ">") else {
        return nil
      }
      return URL(string: String(link[link.index(after: start)..<end]), relativeTo: manager.baseURL)
    }
    let response = try await manager.send(.get, "/articles", query: ["page": "2"])
    let articles = try response.mapCollection(articleMapping)
    var more: [Article] = []
    if let link = response.headers["Link"], let next = nextURL(in: link) {
      let nextPage = try await manager.send(.get, url: next)  // an absolute URL, said explicitly
      more = try nextPage.mapCollection(articleMapping)
    }
    #expect(articles.map(\.id) == [2] && more.map(\.id) == [3])
  }

  @Test func errors() async throws {
    struct Issue: Sendable {
      var title = ""
    }
    let issueMapping = Mapping(Issue.init) { Attribute("title", \.title) }
    let server = try LoopbackServer { _ in
      .json(
        #"{"message": "Validation Failed", "errors": [{"resource": "Issue", "field": "title", "code": "missing_field"}]}"#,
        status: 422)
    }
    defer { server.stop() }
    let manager = ObjectManager(baseURL: server.baseURL, limits: .loopback)
    let issue = Issue()
    var messages: [String] = []
    // From "Errors".
    do {
      _ = try await manager.post(issue, mapping: issueMapping, path: "/issues")
    } catch {
      if case .status(let failure) = error, failure.statusCode == 422 {
        messages = failure.messages.map(\.message)
      }
    }
    #expect(messages == ["Validation Failed", "Issue.title missing_field"])
  }

  @Test func anErrorTypeOfYourOwn() async throws {
    // From "Errors": an error type of your own in the provider's error routes.
    struct APIError: Sendable, CustomStringConvertible {
      var message = ""
      var code = 0
      var description: String { "\(message) (\(code))" }
    }
    let apiErrorMapping = Mapping(APIError.init) {
      Attribute("msg", \.message)
      Attribute("code", \.code)
    }
    let server = try LoopbackServer { _ in
      .json(#"{"error": {"msg": "This is the error message", "code": 12345}}"#, status: 422)
    }
    defer { server.stop() }
    struct Item: Sendable { var id = 0 }
    let itemMapping = Mapping(Item.init) { Attribute("id", \.id) }
    let provider = MappingProvider(errorRoutes: [Route("error", apiErrorMapping)]) {
      Route("item", itemMapping)
    }
    let manager = ObjectManager(baseURL: server.baseURL, provider: provider, limits: .loopback)
    let error = await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.get("/articles/1")
    }
    guard case .status(let failure)? = error else {
      Issue.record("expected a status failure, got \(String(describing: error))")
      return
    }
    #expect(failure.description == "This is the error message (12345)")
    // The objects themselves, as RestKit's error kept them.
    let objects = failure.objects(APIError.self)
    #expect(objects.map(\.code) == [12345])
    #expect(objects.map(\.message) == ["This is the error message"])
  }

  @Test func optionsAndMetadata() async throws {
    struct Issue: Sendable {
      var issueNumber = 0
      var createdAt = ""
    }
    struct Listing: Sendable {
      var names: [String] = []
      var status = 0
      var etag = ""
      var url = ""
    }
    let server = try LoopbackServer { request in
      request.method == "POST"
        ? .json(request.bodyText)
        : LoopbackServer.Response(
          status: 200, headers: ["Content-Type": "application/json", "ETag": "v1"],
          body: Array(#"{"issue_number": 7, "created_at": "2024", "names": ["a"]}"#.utf8))
    }
    defer { server.stop() }
    var router = Router()
    try router.add(Issue.self, .post, "/issues")
    // From "Options for every request".
    let issueMapping = Mapping(Issue.init) {
      Attribute(\.issueNumber)  // "issue_number" through this manager
      Attribute(\.createdAt)  // "created_at"
    }
    let github = ObjectManager(
      baseURL: server.baseURL, router: router, options: MappingOptions(keys: .snakeCase),
      limits: .loopback)
    let issue = try await github.get("/issues/7", mapping: issueMapping)
    _ = try await github.post(issue, mapping: issueMapping)  // {"issue_number":7,"created_at":…}
    #expect(server.requests.last?.bodyText == #"{"issue_number":7,"created_at":"2024"}"#)

    // From "Metadata in mappings".
    let listingMapping = Mapping(Listing.init) {
      Attribute("names", \.names)
      Attribute(SourcePath.metadata.appending("response.status"), \.status)
      Attribute(SourcePath.metadata.appending("response.headers.etag"), \.etag)
      Attribute(SourcePath.metadata.appending("request.url"), \.url)
    }
    let listing = try await ObjectManager(baseURL: server.baseURL, limits: .loopback).get(
      "/list", mapping: listingMapping)
    #expect(listing.names == ["a"] && listing.status == 200 && listing.etag == "v1")
  }

  final class Note {
    var id = 0
    var text = ""
  }

  static let noteMapping = Mapping(Note.init) {
    Attribute("id", \.id)
    Attribute("text", \.text)
  }.identified(by: \.id)

  // From "One instance per record" (a main-actor model; `Note` is not `Sendable`).
  @MainActor final class NotesModel {
    let store = InMemoryObjectStore()
    var notes: [Note] = []

    func refresh(with manager: ObjectManager) async throws {
      let load = try await manager.getCollection(
        "/notes", mapping: noteMapping, store: store, orphans: .remove)
      notes = load.objects  // the same instances as before, updated
      _ = load.orphans  // stored notes the server no longer lists
    }
  }

  @MainActor @Test func oneInstancePerRecord() async throws {
    let server = try LoopbackServer { _ in .json(#"[{"id": 1, "text": "one"}]"#) }
    defer { server.stop() }
    let model = NotesModel()
    let manager = ObjectManager(baseURL: server.baseURL, limits: .loopback)
    try await model.refresh(with: manager)
    let first = try #require(model.notes.first)
    try await model.refresh(with: manager)
    #expect(model.notes.first === first)
  }

  // From "Another HTTP client".
  struct CannedTransport: HTTPTransport {
    func send(_ request: TransportRequest, maximumBodySize: Int)
      async throws(URLError) -> TransportResponse
    {
      TransportResponse(
        statusCode: 200, headers: ["Content-Type": "application/json"],
        body: Data(#"{"id": 1, "title": "Canned"}"#.utf8), url: request.url)
    }
  }

  @Test func anotherHTTPClient() async throws {
    let api = try #require(URL(string: "https://api.example.com/v1"))
    let articleMapping = Self.articleMapping
    let offline = ObjectManager(baseURL: api, transport: CannedTransport(), limits: .loopback)
    let canned = try await offline.get("/articles/1", mapping: articleMapping)
    #expect(canned == Article(id: 1, title: "Canned"))
  }

  @Test func testingAgainstAServer() async throws {
    var router = Router()
    try router.add(Article.self, .post, "/articles")
    // From "Testing against a server".
    let server = try LoopbackServer { request in
      request.method == "POST" ? .json(#"{"id": 42}"#, status: 201) : .echo(request)
    }
    defer { server.stop() }
    let local = ObjectManager(baseURL: server.baseURL, router: router, limits: .loopback)
    // server.requests: every request's method, target, header fields and body bytes
    let created = try await local.post(Article(title: "x"), mapping: Self.articleMapping)
    #expect(created.id == 42 && server.requests.first?.path == "/articles")
  }
}
