import Foundation
import ObjectMapping
import ObjectMappingClient
import ObjectMappingTestSupport
import Testing

/// Where a request goes, seen from a real server on 127.0.0.1 (issue 33): route values stay in
/// their segment, the URL is built from components under the base URL, queries are encoded
/// once, header fields are checked before anything is sent.
@Suite("ObjectManager request targets")
struct RequestTargetTests {
  struct Item: Sendable {
    var id = ""
  }

  /// A server that answers every request with `{}` and records it, under `basePath`.
  static func serve(
    basePath: String = "/", router: Router = Router(), options: MappingOptions = .none,
    headers: HeaderFields = [:]
  ) throws -> (LoopbackServer, ObjectManager) {
    let server = try LoopbackServer { _ in LoopbackServer.Response(status: 204) }
    let base = try #require(URL(string: "http://127.0.0.1:\(server.port)\(basePath)"))
    return (
      server,
      ObjectManager(
        baseURL: base, router: router, headers: headers, options: options, limits: .loopback)
    )
  }

  @Test(arguments: [
    ("10:30", "/api/items/10%3A30"),
    ("user:1", "/api/items/user%3A1"),
    ("urn:isbn:0451450523", "/api/items/urn%3Aisbn%3A0451450523"),
    ("//evil.example/x", "/api/items/%2F%2Fevil.example%2Fx"),
    ("///evil.example", "/api/items/%2F%2F%2Fevil.example"),
    ("http://evil.example/", "/api/items/http%3A%2F%2Fevil.example%2F"),
    ("a?admin=1#x", "/api/items/a%3Fadmin%3D1%23x"),
  ])
  func aRouteValueStaysInItsSegmentOnTheBaseHost(id: String, target: String) async throws {
    var router = Router()
    try router.add(Item.self, "/items/:id") { ["id": $0.id] }
    let (server, manager) = try Self.serve(basePath: "/api", router: router)
    defer { server.stop() }
    try await manager.delete(Item(id: id))
    #expect(server.requests.map(\.target) == [target])
    #expect(server.requests.first?.method == "DELETE")
  }

  struct RawItem: Sendable {
    var id = ""
  }

  /// A dot segment in disguise (`%2E%2E`, `.%2e`, `..;x`) is never sent: servers that decode
  /// before resolving (RFC 3986 §6.2.2.2) or drop `;` parameters would read it as `..` and
  /// serve another resource, maybe outside the base path.
  @Test func segmentsServersMayReadAsDotSegmentsAreNotSent() async throws {
    var router = Router()
    try router.add(Item.self, "/items/:id") { ["id": $0.id] }
    try router.add(RawItem.self, "/raw/:id", escaping: false) { ["id": $0.id] }
    let (server, manager) = try Self.serve(basePath: "/api/v1", router: router)
    defer { server.stop() }
    func refusal(_ body: () async throws -> Void) async -> String? {
      do {
        try await body()
        return nil
      } catch let error as ObjectManagerError {
        guard case .invalidPath = error else { return "\(error)" }
        return "invalidPath"
      } catch {
        return "\(error)"
      }
    }
    // Escaped route values that are dot segments, or hold one behind an encoded `/` or `\`
    // (`../admin` is `..%2Fadmin`: a server that decodes `%2F` before resolving reads
    // `/api/v1/items/../admin`).
    for id in [
      ".", "..", "../admin", "../../../admin", "..\\admin", "a/../../admin", "./x", "..;/admin",
    ] {
      #expect(await refusal { try await manager.delete(Item(id: id)) } == "invalidPath", "\(id)")
    }
    // Unescaped route values and paths written by hand.
    for value in [
      "%2e%2e/%2e%2e/%2e%2e/admin", ".%2E", "%2e.", "%2E", "..;jsessionid=1", ".;x",
      "..%2Fadmin", "%2e%2e%2f%2e%2e%2fadmin", "..%5cadmin", "x%2F..%2F..%2Fadmin", "..;x%2Fy",
    ] {
      #expect(
        await refusal { try await manager.delete(RawItem(id: value)) } == "invalidPath",
        "\(value)")
      #expect(
        await refusal { _ = try await manager.send(.get, "/items/\(value)/x") } == "invalidPath",
        "\(value)")
    }
    #expect(server.requests.isEmpty)
    // Literal dot segments resolve as URLs do, under the base; other segments with `%2e` or
    // `;` are ordinary.
    _ = try await manager.send(.get, "/a/./b/../c")
    _ = try await manager.send(.get, "/file%2ejson/v;1/...")
    try await manager.delete(Item(id: "v1..v2/.../a.b"))
    #expect(
      server.requests.map(\.target) == [
        "/api/v1/a/c", "/api/v1/file%2ejson/v;1/...", "/api/v1/items/v1..v2%2F...%2Fa.b",
      ])
  }

  /// Credentials in the base URL reach the server, never an error's text or the response's
  /// metadata, which mappings read and models may keep.
  @Test func credentialsInTheBaseURLAreNotShown() async throws {
    let server = try LoopbackServer { _ in .json(#"{"id": "1"}"#) }
    defer { server.stop() }
    let base = try #require(URL(string: "http://user:s3cr3t@127.0.0.1:\(server.port)/api"))
    let manager = ObjectManager(baseURL: base, limits: .loopback)
    let response = try await manager.send(.get, "/ok")
    let metadata = try response.metadata.jsonString()
    #expect(!metadata.contains("s3cr3t") && !metadata.contains("user"))
    #expect(metadata.contains("http://***@127.0.0.1:\(server.port)/api/ok"))
    do {
      _ = try await manager.send(.get, "../admin")
      Issue.record("a path outside the base was sent")
    } catch {
      #expect(!error.description.contains("s3cr3t"))
      #expect(error.description.contains("http://***@127.0.0.1"))
    }
    // The transport still sends the credentials to the base URL's own server.
    #expect(server.requests.first?.headers["authorization"] != nil)
    // A relative location takes the base URL's credentials: the refused one is shown without.
    let looping = try LoopbackServer { _ in .raw("HTTP/1.1 302 Found\r\nLocation: /again\r\n\r\n") }
    defer { looping.stop() }
    let loopingBase = try #require(URL(string: "http://user:s3cr3t@127.0.0.1:\(looping.port)/"))
    do {
      _ = try await ObjectManager(baseURL: loopingBase, limits: .loopback).send(.get, "/start")
      Issue.record("a redirect loop ended")
    } catch {
      guard case .redirectRefused(let location, 302, .tooManyRedirects) = error else {
        Issue.record("expected tooManyRedirects, got \(error)")
        return
      }
      #expect(location == "http://***@127.0.0.1:\(looping.port)/again")
    }
  }

  @Test func aBaseURLKeepsItsLastSegmentWithOrWithoutATrailingSlash() async throws {
    for basePath in ["/api/v1", "/api/v1/"] {
      let (server, manager) = try Self.serve(basePath: basePath)
      defer { server.stop() }
      for path in ["/articles/1", "articles/1", "//articles/1", "///articles/1"] {
        _ = try await manager.send(.get, path)
      }
      _ = try await manager.send(.get, "/articles/")
      _ = try await manager.send(.get, "")
      #expect(
        server.requests.map(\.target) == [
          "/api/v1/articles/1", "/api/v1/articles/1", "/api/v1/articles/1", "/api/v1/articles/1",
          "/api/v1/articles/", basePath,
        ])
    }
  }

  @Test func pathsAreEncodedWhereTheyMustBeAndDotSegmentsResolved() async throws {
    let (server, manager) = try Self.serve(basePath: "/api/v1/")
    defer { server.stop() }
    _ = try await manager.send(.get, "/search/a b/é?q=x y&z=1#frag")
    _ = try await manager.send(.get, "/a/./b/../c")
    _ = try await manager.send(.get, "/a%2Fb/100%/{x}")
    #expect(
      server.requests.map(\.target) == [
        "/api/v1/search/a%20b/%C3%A9?q=x%20y&z=1%23frag", "/api/v1/a/c",
        "/api/v1/a%2Fb/100%25/%7Bx%7D",
      ])
  }

  @Test func aPathThatLeavesTheBaseIsRefusedBeforeAnythingIsSent() async throws {
    var router = Router()
    try router.add(Item.self, "/items/:id", escaping: false) { ["id": $0.id] }
    let (server, manager) = try Self.serve(basePath: "/api/v1", router: router)
    defer { server.stop() }
    let escape = await #expect(throws: ObjectManagerError.self) {
      try await manager.delete(Item(id: "../../../admin"))
    }
    guard case .outsideBaseURL(let url, _)? = escape else {
      Issue.record("expected outsideBaseURL, got \(String(describing: escape))")
      return
    }
    #expect(url.path == "/admin")
    #expect(
      escape?.description
        == "the request URL \"http://127.0.0.1:\(server.port)/admin\" is not under the base URL "
        + "\"http://127.0.0.1:\(server.port)/api/v1\"; nothing was sent")
    let sibling = await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.send(.get, "../v2/secrets")
    }
    guard case .outsideBaseURL? = sibling else {
      Issue.record("expected outsideBaseURL, got \(String(describing: sibling))")
      return
    }
    let absolute = await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.send(.get, "https://evil.example/x")
    }
    #expect(
      absolute?.description
        == #"cannot request "https://evil.example/x": an absolute URL is not a path under the base URL; send(_:url:) requests one explicitly"#
    )
    // A value that stays under the base is fine even unescaped.
    try await manager.delete(Item(id: "a/../b"))
    #expect(server.requests.map(\.target) == ["/api/v1/items/b"])
  }

  @Test func anExplicitAbsoluteURLIsAllowedWhereTheCallSaysSo() async throws {
    let other = try LoopbackServer { .echo($0) }
    defer { other.stop() }
    let (server, manager) = try Self.serve(headers: ["Authorization": "Bearer secret"])
    defer { server.stop() }
    let response = try await manager.send(
      .get, url: other.baseURL.appendingPathComponent("page2"), headers: ["X-Custom": "mine"])
    #expect(response.statusCode == 200)
    let request = try #require(other.requests.first)
    #expect(request.target == "/page2")
    // The manager's fields go to its own origin only; the request's own fields always.
    #expect(request.headers["authorization"] == nil && request.headers["x-custom"] == "mine")
    _ = try await manager.send(.get, url: server.baseURL.appendingPathComponent("same"))
    #expect(server.requests.last?.headers["authorization"] == "Bearer secret")
    let file = await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.send(.get, url: URL(fileURLWithPath: "/etc/passwd"))
    }
    #expect(
      file?.description
        == #"cannot request "file:///etc/passwd": it is not an http or https URL with a host"#)
  }

  // MARK: Queries

  @Test func queryItemsAreEncodedOnceWhicheverWayTheQueryIsBuilt() async throws {
    struct Filter: Sendable {
      var labelNames = ["bug", "ui & ux"]
      var sortOrder = "new+old"
      var owner = Owner()
    }
    struct Owner: Sendable {
      var userName = "ann lee"
    }
    let ownerMapping = Mapping(Owner.init) { Attribute(\.userName) }
    let filterMapping = Mapping(Filter.init) {
      Attribute(\.labelNames)
      Attribute(\.sortOrder)
      Relationship(\.owner, ownerMapping)
    }
    let (server, manager) = try Self.serve(options: MappingOptions(keys: .snakeCase))
    defer { server.stop() }
    _ = try await manager.send(.get, "/issues", query: Query(Filter(), mapping: filterMapping))
    _ = try await manager.send(.get, "/issues", query: ["q": "ui & ux", "sort": "new+old"])
    _ = try await manager.send(.get, "/issues?state=open", query: ["page": "2"])
    #expect(
      server.requests.map(\.target) == [
        "/issues?label_names%5B%5D=bug&label_names%5B%5D=ui%20%26%20ux&sort_order=new%2Bold"
          + "&owner%5Buser_name%5D=ann%20lee",
        "/issues?q=ui%20%26%20ux&sort=new%2Bold",
        "/issues?state=open&page=2",
      ])
    // Read back as a server reads a query, the values are exactly what was sent.
    let first = try Node(formURLEncoded: String(server.requests[0].target.dropFirst(8)))
    #expect(first["label_names"] == ["bug", "ui & ux"])
    #expect(first["sort_order"] == "new+old")
    #expect(first["owner"]?["user_name"] == "ann lee")
  }

  @Test func anObjectQueryThatCannotBeWrittenIsAnErrorBeforeSending() async throws {
    struct Bad: Sendable {
      var value = Double.nan
    }
    let badMapping = Mapping(Bad.init) { Attribute("value", \.value) }
    let (server, manager) = try Self.serve()
    defer { server.stop() }
    let error = await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.send(.get, "/x", query: Query(Bad(), mapping: badMapping))
    }
    guard case .query? = error else {
      Issue.record("expected query, got \(String(describing: error))")
      return
    }
    #expect(server.requests.isEmpty)
  }

  // MARK: Header fields

  @Test(arguments: [
    (
      "X-Note", "a\r\nX-Admin: true",
      "the value holds a carriage return (CR), which is not allowed in a field value"
    ),
    ("X-Note", "a\nb", "the value holds a line feed (LF), which is not allowed in a field value"),
    ("X-Note", "a\u{0}b", "the value holds a NUL character, which is not allowed in a field value"),
    ("X-Note", "a\u{7}b", "the value holds U+0007, which is not allowed in a field value"),
    ("X Note", "a", "the name holds ' ', which is not allowed in a field name"),
    ("X-Note:", "a", "the name holds ':', which is not allowed in a field name"),
    ("", "a", "an empty name"),
  ])
  func aFieldThatCannotBeSentIsATypedErrorAndNothingIsSent(
    name: String, value: String, reason: String
  ) async throws {
    let (server, manager) = try Self.serve()
    defer { server.stop() }
    let error = await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.send(
        .get, "/x", headers: HeaderFields([.init(name: name, value: value)]))
    }
    guard case .invalidHeader(let failing, let why)? = error else {
      Issue.record("expected invalidHeader, got \(String(describing: error))")
      return
    }
    #expect(failing == name && why == reason)
    // The manager's own fields are checked the same way.
    let bad = ObjectManager(
      baseURL: server.baseURL, headers: HeaderFields([.init(name: name, value: value)]),
      limits: .loopback)
    await #expect(throws: ObjectManagerError.self) { _ = try await bad.send(.get, "/x") }
    #expect(server.requests.isEmpty)
  }

  @Test func aRequestFieldWinsOverTheManagersInAnyCapitalisation() async throws {
    let server = try LoopbackServer { _ in
      LoopbackServer.Response(
        status: 200, headers: ["Content-Type": "application/json"], body: Array("{}".utf8),
        additionalHeaders: [
          (name: "Etag", value: "\"v7\""), (name: "X-Twice", value: "1"),
          (name: "x-twice", value: "2"),
        ])
    }
    defer { server.stop() }
    for (managerName, requestName) in [
      ("X-Token", "x-token"), ("x-token", "X-TOKEN"), ("X-TOKEN", "X-Token"),
    ] {
      let manager = ObjectManager(
        baseURL: server.baseURL, headers: [managerName: "manager", "Accept-Language": "fr"],
        limits: .loopback)
      let response = try await manager.send(.get, "/x", headers: [requestName: "request"])
      let sent = try #require(server.requests.last)
      let tokens = sent.fields.filter { $0.name.lowercased() == "x-token" }
      #expect(tokens.map(\.value) == ["request"], "\(managerName) vs \(requestName)")
      #expect(sent.headers["accept-language"] == "fr")
      // Response fields are read without regard to case.
      #expect(response.headers["ETag"] == "\"v7\"" && response.headers["etag"] == "\"v7\"")
      #expect(response.headers["CONTENT-TYPE"] == "application/json")
    }
  }
}
