import Foundation
import ObjectMapping
import ObjectMappingClient
import ObjectMappingTestSupport
import Testing

/// Errors and conveniences of the object manager (issue 33): error text bounded and localized,
/// an empty body to a provider `get`, responses mapped like the manager maps, a root key both
/// ways, and a pluggable transport.
@Suite("ObjectManager conveniences")
struct ConveniencesTests {
  struct Article: Equatable, Sendable {
    var id = 0
    var title = ""
  }

  static let articleMapping = Mapping(Article.init) {
    Attribute("id", \.id)
    Attribute("title", \.title)
  }

  // MARK: Errors

  @Test func serverErrorTextIsBoundedAndTheMessagesKept() async throws {
    let messages = (0..<100_000).map { #""message number \#($0)""# }.joined(separator: ",")
    let server = try LoopbackServer { _ in
      .json(#"{"errors": [\#(messages)]}"#, status: 422)
    }
    defer { server.stop() }
    let manager = ObjectManager(baseURL: server.baseURL, limits: .loopback)
    let error = await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.get("/x", mapping: Self.articleMapping)
    }
    guard case .status(let failure)? = error else {
      Issue.record("expected status, got \(String(describing: error))")
      return
    }
    #expect(failure.statusCode == 422 && failure.messages.count == 100_000)
    #expect(failure.messages.last?.message == "message number 99999")
    #expect(failure.description.hasPrefix("message number 0, message number 1, "))
    #expect(failure.description.hasSuffix("message number 99, … and 99,900 more messages"))
    #expect(failure.description.utf8.count < 3_000)
    #expect(error?.description == "status 422: " + failure.description)
    #expect(error?.localizedDescription == error?.description)
  }

  @Test func aLongMessageIsShortenedAndEscaped() {
    let failure = HTTPFailure(
      statusCode: 500,
      messages: [
        ErrorMessage(message: String(repeating: "a", count: 5_000) + "\u{1B}[31m"),
        ErrorMessage(message: "line\nbreak"),
      ])
    #expect(
      failure.description
        == String(repeating: "a", count: 450) + "…(4,110 more bytes)…"
        + String(repeating: "a", count: 440) + "\\u001B[31m, line\\nbreak")
    #expect(HTTPFailure(statusCode: 503, messages: []).description == "status 503")
    let error = ObjectManagerError.status(HTTPFailure(statusCode: 503, messages: []))
    #expect(error.localizedDescription == "status 503")
    #expect((error as any Error).localizedDescription == "status 503")
  }

  // MARK: Empty bodies and mapping responses

  @Test func anEmptyBodyToAProviderGetIsAnEmptyResult() async throws {
    let server = try LoopbackServer { request in
      request.path == "/none"
        ? LoopbackServer.Response(status: 204) : LoopbackServer.Response(status: 200)
    }
    defer { server.stop() }
    let manager = ObjectManager(
      baseURL: server.baseURL,
      provider: MappingProvider { Route("articles", Self.articleMapping) }, limits: .loopback)
    for path in ["/empty", "/none"] {
      let result = try await manager.get(path)
      #expect(result.isEmpty && result.errors.isEmpty, "\(path): \(result.errors)")
    }
    // A mapping get still needs a body.
    let error = await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.get("/empty", mapping: Self.articleMapping)
    }
    #expect(error?.description == "the response (status 200) has no body")
  }

  @Test func aResponseMapsWithTheManagersOptionsAndMetadata() async throws {
    struct Page: Sendable {
      var itemCount = 0
      var next = ""
    }
    let pageMapping = Mapping(Page.init) {
      Attribute(\.itemCount)
      Attribute(SourcePath.metadata.appending("response.headers.link"), \.next).decodeOnly()
    }
    let server = try LoopbackServer { _ in
      LoopbackServer.Response(
        status: 200, headers: ["Content-Type": "application/json", "Link": "</p/2>; rel=\"next\""],
        body: Array(#"{"item_count": 3, "data": {"items": [{"id": 1, "title": "a"}]}}"#.utf8))
    }
    defer { server.stop() }
    let manager = ObjectManager(
      baseURL: server.baseURL, options: MappingOptions(keys: .snakeCase), limits: .loopback)
    let response = try await manager.send(.get, "/p/1")
    let page = try response.map(pageMapping)
    #expect(page.itemCount == 3 && page.next == "</p/2>; rel=\"next\"")
    #expect(response.headers["LINK"] == "</p/2>; rel=\"next\"")
    let items = try response.mapCollection(Self.articleMapping, at: "data.items")
    #expect(items == [Article(id: 1, title: "a")])
    #expect(response.mappingOptions.keys != nil)
    let missing = #expect(throws: ObjectManagerError.self) {
      _ = try response.map(Self.articleMapping, at: "data.nope")
    }
    #expect(
      missing?.description
        == #"the response (status 200) could not be mapped: nothing to map: no route found mappable content at "data.nope"; the payload's top-level keys are "item_count", "data""#
    )
  }

  /// RestKit's metadata key paths (`@metadata.HTTP.request.URL`, `HTTP.request.method`,
  /// `HTTP.response.URL`, `HTTP.response.headers.<Name>`) read what the library's own names read.
  /// (The server writes `ETag`; Foundation's transport reports it as `Etag`.)
  @Test func restKitMetadataKeyPathsReadTheSameFacts() async throws {
    struct Seen: Equatable, Sendable {
      var url = ""
      var method = ""
      var responseURL = ""
      var etag = ""
      var vary = ""
    }
    let restKit = Mapping(Seen.init) {
      Attribute("@metadata.HTTP.request.URL", \.url)
      Attribute("@metadata.HTTP.request.method", \.method)
      Attribute("@metadata.HTTP.response.URL", \.responseURL)
      // Header names as the transport reports them (Foundation's URLSession writes `Etag`).
      Attribute("@metadata.HTTP.response.headers.Etag", \.etag)
      Attribute("@metadata.HTTP.response.headers.Vary", \.vary)
    }
    let ours = Mapping(Seen.init) {
      Attribute(SourcePath.metadata.appending("request.url"), \.url)
      Attribute(SourcePath.metadata.appending("request.method"), \.method)
      Attribute(SourcePath.metadata.appending("response.url"), \.responseURL)
      Attribute(SourcePath.metadata.appending("response.headers.etag"), \.etag)
      Attribute(SourcePath.metadata.appending("response.headers.vary"), \.vary)
    }
    let server = try LoopbackServer { _ in
      LoopbackServer.Response(
        status: 200,
        headers: ["Content-Type": "application/json", "ETag": "\"v7\"", "Vary": "Accept"],
        body: Array("{}".utf8))
    }
    defer { server.stop() }
    let manager = ObjectManager(baseURL: server.baseURL, limits: .loopback)
    let response = try await manager.send(.get, "/things?page=2")
    let seen = try response.map(restKit)
    #expect(seen == (try response.map(ours)))
    #expect(seen.method == "GET" && seen.etag == "\"v7\"" && seen.vary == "Accept")
    #expect(seen.url.hasSuffix("/things?page=2") && seen.responseURL == seen.url)
  }

  /// A response mapped through a provider's routes reads the response's metadata too (a mapper
  /// dropped it before), with RestKit's `mapping.rootKeyPath`, and the metadata of the
  /// manager's own options stays beside the response's facts; `rootKey` calls read their key
  /// path as the route's.
  @Test func routedAndRootKeyedMappingsReadTheResponseMetadata() async throws {
    struct Seen: Equatable, Sendable {
      var id = 0
      var etag = ""
      var rootKeyPath: String?
      var client = ""
    }
    let seenMapping = Mapping(Seen.init) {
      Attribute("id", \.id)
      Attribute("@metadata.HTTP.response.headers.Etag", \.etag)
      Attribute("@metadata.mapping.rootKeyPath", \.rootKeyPath)
      Attribute("@metadata.client", \.client)
    }
    let server = try LoopbackServer { _ in
      LoopbackServer.Response(
        status: 200, headers: ["Content-Type": "application/json", "ETag": "\"v2\""],
        body: Array(#"{"data": {"items": [{"id": 1}, {"id": 2}]}, "id": 3}"#.utf8))
    }
    defer { server.stop() }
    let manager = ObjectManager(
      baseURL: server.baseURL, options: MappingOptions(metadata: ["client": "ios"]),
      limits: .loopback)
    let response = try await manager.send(.get, "/things")
    let result = try response.map(
      MappingProvider {
        Route("data.items", seenMapping)
        Route("", seenMapping, name: "whole")
      })
    #expect(result.errors.isEmpty)
    #expect(
      result.all(Seen.self, at: "data.items") == [
        Seen(id: 1, etag: "\"v2\"", rootKeyPath: "data.items", client: "ios"),
        Seen(id: 2, etag: "\"v2\"", rootKeyPath: "data.items", client: "ios"),
      ])
    #expect(
      result.all(Seen.self, at: "")
        == [Seen(id: 3, etag: "\"v2\"", rootKeyPath: nil, client: "ios")])
    // The same facts through `rootKey` and through the response's own verbs.
    let items = try await manager.getCollection(
      "/things", mapping: seenMapping, rootKey: "data.items")
    #expect(items == result.all(Seen.self, at: "data.items"))
    #expect(try response.map(seenMapping) == result.all(Seen.self, at: "").first)
    #expect(response.mappingOptions.metadata?["client"] == "ios")
  }

  /// RestKit's `@metadata.routing.parameters`: a response whose requested path matched a route
  /// of the manager's router carries the route's parameters (the same as `router.match`).
  @Test func aRoutedResponseCarriesItsRouteParameters() async throws {
    struct Comment: Equatable, Sendable {
      var id = 0
      var articleID = ""
    }
    let commentMapping = Mapping(Comment.init) {
      Attribute("id", \.id)
      Attribute("@metadata.routing.parameters.articleID", \.articleID)
    }
    var router = Router()
    try router.add(named: "comments", .get, "/articles/:articleID/comments")
    let server = try LoopbackServer { _ in .json(#"[{"id": 1}, {"id": 2}]"#) }
    defer { server.stop() }
    let base = server.baseURL.appendingPathComponent("v1")
    let manager = ObjectManager(baseURL: base, router: router, limits: .loopback)
    let comments = try await manager.getCollection(
      "/articles/a%20b/comments?page=2", mapping: commentMapping)
    #expect(comments == [Comment(id: 1, articleID: "a b"), Comment(id: 2, articleID: "a b")])
    let response = try await manager.send(.get, "/articles/12/comments")
    #expect(response.route == router.match("/articles/12/comments", method: .get))
    #expect(
      response.metadata["routing"] == ["parameters": ["articleID": "12"], "route": "comments"])
    // A path no route matches has no routing metadata (the attribute is then missing).
    let unrouted = try await manager.send(.get, "/elsewhere")
    #expect(unrouted.route == nil && unrouted.metadata["routing"] == nil)
    await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.getCollection("/elsewhere", mapping: commentMapping)
    }
  }

  @Test func aRootKeyWrapsTheBodyAndLocatesTheResponse() async throws {
    let server = try LoopbackServer { request in
      let sent = (try? Node(jsonString: request.bodyText)) ?? .null
      let title: Node = sent["article"]?["title"] ?? "Got"
      let answer: Node = ["article": ["id": 42, "title": title], "meta": ["took": 1]]
      return .json((try? answer.jsonString()) ?? "{}", status: request.method == "POST" ? 201 : 200)
    }
    defer { server.stop() }
    var router = Router()
    try router.add(Article.self, .post, "/articles")
    try router.add(Article.self, "/articles/:id") { ["id": "\($0.id)"] }
    let manager = ObjectManager(baseURL: server.baseURL, router: router, limits: .loopback)
    let created = try await manager.post(
      Article(title: "Hello"), mapping: Self.articleMapping, rootKey: "article")
    #expect(created == Article(id: 42, title: "Hello"))
    #expect(server.requests.last?.bodyText == #"{"article":{"id":0,"title":"Hello"}}"#)
    let put = try await manager.put(created, mapping: Self.articleMapping, rootKey: "article")
    #expect(put == created && server.requests.last?.method == "PUT")
    let patched = try await manager.patch(
      Article(id: 42, title: "Bye"), mapping: Self.articleMapping, rootKey: "article")
    #expect(patched.title == "Bye" && server.requests.last?.path == "/articles/42")
    let fetched = try await manager.get(
      "/articles/42", mapping: Self.articleMapping, rootKey: "article")
    #expect(fetched == Article(id: 42, title: "Got"))
    let reloaded = try await manager.reload(
      Article(id: 42, title: "Old"), mapping: Self.articleMapping, rootKey: "article")
    #expect(reloaded.title == "Got" && server.requests.last?.method == "GET")
  }

  // MARK: A pluggable transport

  /// A test double: answers from a table and records what it was asked.
  final class RecordingTransport: HTTPTransport, @unchecked Sendable {
    // @unchecked: `sent` is only touched under `lock`.
    private let lock = NSLock()
    private var sent: [TransportRequest] = []
    let answer: @Sendable (TransportRequest) -> TransportResponse

    init(answer: @escaping @Sendable (TransportRequest) -> TransportResponse) {
      self.answer = answer
    }

    var requests: [TransportRequest] { lock.withLock { sent } }

    func send(_ request: TransportRequest, maximumBodySize: Int) async throws(URLError)
      -> TransportResponse
    {
      lock.withLock { sent.append(request) }
      let response = answer(request)
      guard response.body.count <= maximumBodySize else {
        throw URLError(.dataLengthExceedsMaximum)
      }
      return response
    }
  }

  @Test func anotherTransportPlugsInAndTheManagerKeepsItsGuarantees() async throws {
    let api = try #require(URL(string: "https://api.example.com/v1"))
    let transport = RecordingTransport { request in
      switch request.url.path {
      case "/v1/moved":
        TransportResponse(
          statusCode: 307, headers: ["Location": "https://cdn.example.net/a"], url: request.url)
      case "/v1/huge":
        TransportResponse(statusCode: 200, body: Data(count: 2_000), url: request.url)
      default:
        TransportResponse(
          statusCode: 200, headers: ["Content-Type": "application/json"],
          body: Data(#"{"id": 1, "title": "From the double"}"#.utf8), url: request.url)
      }
    }
    let manager = ObjectManager(
      baseURL: api, transport: transport, headers: ["Authorization": "Bearer t"],
      limits: RequestLimits(maximumResponseSize: 1_000, timeout: .seconds(600)))
    let article = try await manager.get("/articles/1", mapping: Self.articleMapping)
    #expect(article == Article(id: 1, title: "From the double"))
    let first = try #require(transport.requests.first)
    #expect(first.url.absoluteString == "https://api.example.com/v1/articles/1")
    #expect(
      first.headers["authorization"] == "Bearer t" && first.headers["Accept"] == "application/json")
    // The manager's redirect policy and limits apply whatever the transport.
    let moved = await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.send(.get, "/moved")
    }
    guard case .redirectRefused("https://cdn.example.net/a", 307, .otherOrigin)? = moved else {
      Issue.record("expected redirectRefused, got \(String(describing: moved))")
      return
    }
    let huge = await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.send(.get, "/huge")
    }
    guard case .responseTooLarge(limit: 1_000)? = huge else {
      Issue.record("expected responseTooLarge, got \(String(describing: huge))")
      return
    }
  }

  /// A transport that answers only after an hour and ignores cancellation: the deadline still
  /// holds. (The test can end only through the deadline, so it needs no bound of its own on the
  /// time taken: a wall-clock bound would measure how long the test waited behind hundreds of
  /// parallel tests for a thread, not the deadline.)
  struct StuckTransport: HTTPTransport {
    func send(_ request: TransportRequest, maximumBodySize: Int) async throws(URLError)
      -> TransportResponse
    {
      await withCheckedContinuation { continuation in
        DispatchQueue.global().asyncAfter(deadline: .now() + 3_600) { continuation.resume() }
      }
      throw URLError(.networkConnectionLost)
    }
  }

  @Test func theDeadlineHoldsEvenForATransportThatIgnoresCancellation() async throws {
    let manager = ObjectManager(
      baseURL: try #require(URL(string: "https://api.example.com")), transport: StuckTransport(),
      limits: RequestLimits(timeout: .milliseconds(300)))
    let clock = ContinuousClock()
    let started = clock.now
    let error = await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.send(.get, "/x")
    }
    guard case .timedOut(after: .milliseconds(300))? = error else {
      Issue.record("expected timedOut, got \(String(describing: error))")
      return
    }
    #expect(clock.now - started >= .milliseconds(300))
  }
}
