import Foundation
import ObjectMapping
import ObjectMappingClient
import ObjectMappingTestSupport
import Testing

/// Redirects between two real servers on 127.0.0.1 (two ports: two origins) (issue 33): the
/// policy decides, credentials never reach another origin, 307/308 keep the method and body.
@Suite("ObjectManager redirects")
struct RedirectTests {
  /// `origin` redirects `/start` (with `status`) to `location` (built from `other`); `other`
  /// and `origin`'s `/target` echo what they received.
  static func servers(
    status: Int = 302, location: @escaping @Sendable (URL, URL) -> String
  ) throws -> (origin: LoopbackServer, other: LoopbackServer) {
    let other = try LoopbackServer { .echo($0) }
    let origin = try LoopbackServer(handler: { [other] request in
      switch request.path {
      case "/start":
        .redirect(to: location(other.baseURL, URL(fileURLWithPath: "/")), status: status)
      case "/loop": .redirect(to: "/loop", status: status)
      default: .echo(request)
      }
    })
    return (origin, other)
  }

  static func manager(
    _ server: LoopbackServer, redirects: RedirectPolicy = .sameOrigin
  ) -> ObjectManager {
    ObjectManager(
      baseURL: server.baseURL,
      headers: ["Authorization": "Bearer secret", "Cookie": "session=1", "X-Custom": "manager"],
      redirects: redirects, limits: .loopback)
  }

  struct Echo: Sendable, Equatable {
    var method = ""
    var target = ""
    var body = ""
    var authorization = ""
    var custom = ""
    var contentType = ""
  }

  static let echoMapping = Mapping(Echo.init) {
    Attribute("method", \.method)
    Attribute("target", \.target)
    Attribute("body", \.body)
    Attribute("authorization", \.authorization)
    Attribute("custom", \.custom)
    Attribute("contentType", \.contentType)
  }

  @Test func sameOriginRedirectsAreFollowedWithTheirFields() async throws {
    let (origin, other) = try Self.servers { _, _ in "/target?x=1" }
    defer {
      origin.stop()
      other.stop()
    }
    let echo = try await Self.manager(origin).get("/start", mapping: Self.echoMapping)
    #expect(
      echo
        == Echo(
          method: "GET", target: "/target?x=1", authorization: "Bearer secret",
          custom: "manager"))
    #expect(origin.requests.map(\.target) == ["/start", "/target?x=1"])
  }

  @Test func aRedirectToAnotherOriginIsRefusedByDefaultNamingTheLocation() async throws {
    let (origin, other) = try Self.servers { other, _ in
      other.appendingPathComponent("steal").absoluteString
    }
    defer {
      origin.stop()
      other.stop()
    }
    let error = await #expect(throws: ObjectManagerError.self) {
      _ = try await Self.manager(origin).get("/start", mapping: Self.echoMapping)
    }
    let location = "http://127.0.0.1:\(other.port)/steal"
    guard case .redirectRefused(location, 302, .otherOrigin)? = error else {
      Issue.record("expected redirectRefused, got \(String(describing: error))")
      return
    }
    #expect(
      error?.description
        == "the redirect (status 302) to \"\(location)\" was not followed: it leaves the origin "
        + "and the redirect policy is sameOrigin")
    #expect(other.requests.isEmpty)
  }

  @Test func aCrossOriginRedirectCarriesNoCredentialsOrAddedFields() async throws {
    let (origin, other) = try Self.servers(status: 307) { other, _ in
      other.appendingPathComponent("elsewhere").absoluteString
    }
    defer {
      origin.stop()
      other.stop()
    }
    let manager = Self.manager(origin, redirects: .any)
    let response = try await manager.send(
      .post, "/start",
      body: RequestBody(data: Data(#"{"a":1}"#.utf8), contentType: "application/json"),
      headers: ["X-Request": "request", "authorization": "Bearer per-request"])
    #expect(response.url.absoluteString == "http://127.0.0.1:\(other.port)/elsewhere")
    #expect(response.requestURL.absoluteString == "http://127.0.0.1:\(origin.port)/start")
    let received = try #require(other.requests.first)
    #expect(received.method == "POST" && received.bodyText == #"{"a":1}"#)
    #expect(
      Set(received.headers.keys).isDisjoint(with: [
        "authorization", "cookie", "x-custom", "x-request",
      ]))
    #expect(received.headers["content-type"] == "application/json")
    #expect(received.headers["accept"] == "application/json")
    // The first hop had them all.
    let first = try #require(origin.requests.first)
    #expect(first.headers["authorization"] == "Bearer per-request")
    #expect(first.headers["cookie"] == "session=1" && first.headers["x-request"] == "request")
  }

  @Test(arguments: [307, 308])
  func temporaryAndPermanentRedirectsResendTheMethodAndBody(status: Int) async throws {
    let (origin, other) = try Self.servers(status: status) { _, _ in "/target" }
    defer {
      origin.stop()
      other.stop()
    }
    let manager = Self.manager(origin)
    for method in [HTTPMethod.post, .put, .patch, .delete] {
      let response = try await manager.send(
        method, "/start", body: RequestBody(data: Data("payload".utf8), contentType: "text/plain"))
      let echo = try response.map(Self.echoMapping)
      #expect(echo.method == method.rawValue && echo.body == "payload" && echo.target == "/target")
      #expect(echo.contentType == "text/plain")
    }
  }

  @Test(arguments: [
    (301, "POST", "GET"), (302, "POST", "GET"), (303, "POST", "GET"),
    (303, "PUT", "GET"), (303, "HEAD", "HEAD"), (301, "PUT", "PUT"), (302, "DELETE", "DELETE"),
  ])
  func otherRedirectsFollowTheUsualMethodRules(status: Int, sent: String, followed: String)
    async throws
  {
    let (origin, other) = try Self.servers(status: status) { _, _ in "/target" }
    defer {
      origin.stop()
      other.stop()
    }
    let method = try #require(HTTPMethod(rawValue: sent))
    _ = try await Self.manager(origin).send(
      method, "/start",
      body: method == .head
        ? nil : RequestBody(data: Data("payload".utf8), contentType: "text/plain"))
    let final = try #require(origin.requests.last)
    #expect(final.path == "/target" && final.method == followed)
    let keepsBody = followed == sent && method != .head
    #expect(final.bodyText == (keepsBody ? "payload" : ""))
    #expect(final.headers["content-type"] == (keepsBody ? "text/plain" : nil))
  }

  @Test func theMaximumCountAndTheNeverPolicyAreTypedErrors() async throws {
    let (origin, other) = try Self.servers { _, _ in "/target" }
    defer {
      origin.stop()
      other.stop()
    }
    let loop = await #expect(throws: ObjectManagerError.self) {
      _ = try await Self.manager(origin, redirects: .sameOrigin(maximumCount: 3)).send(
        .get, "/loop")
    }
    guard case .redirectRefused(_, 302, .tooManyRedirects(limit: 3))? = loop else {
      Issue.record("expected tooManyRedirects, got \(String(describing: loop))")
      return
    }
    #expect(origin.requests.count == 4)
    let never = await #expect(throws: ObjectManagerError.self) {
      _ = try await Self.manager(origin, redirects: .never).send(.get, "/start")
    }
    #expect(
      never?.description
        == #"the redirect (status 302) to "/target" was not followed: the redirect policy is never"#
    )
    #expect(origin.requests.count == 5)
  }

  @Test func aLocationThatIsNotHTTPIsRefused() async throws {
    let (origin, other) = try Self.servers { _, _ in "file:///etc/passwd" }
    defer {
      origin.stop()
      other.stop()
    }
    let error = await #expect(throws: ObjectManagerError.self) {
      _ = try await Self.manager(origin, redirects: .any).send(.get, "/start")
    }
    guard case .redirectRefused("file:///etc/passwd", 302, .unsupportedLocation)? = error else {
      Issue.record("expected unsupportedLocation, got \(String(describing: error))")
      return
    }
  }

  /// A host that holds a NUL, CR, LF or another control character once percent-decoded is no
  /// host: the resolver
  /// reads `127.0.0.1%00…` up to the NUL, so the request went to `127.0.0.1` whatever the rest
  /// said (`127.0.0.1%00.trusted.example`), and the rest went into the `Host` field (with
  /// `%0D%0A`, fields of the server's choosing).
  @Test func aHostWithAControlCharacterIsNoHost() async throws {
    for host in [
      "127.0.0.1%00.trusted.example", "127.0.0.1%00%0D%0AX-Injected%3A%20yes%0D%0A",
      "127.0.0.1%0D%0AX-Injected%3A%20yes", "127.0.0.1%09",
    ] {
      let server = try LoopbackServer { request in
        let port = request.headers["host"]?.split(separator: ":").last ?? ""
        return request.path == "/start"
          ? .redirect(to: "http://\(host):\(port)/x") : .echo(request)
      }
      defer { server.stop() }
      let error = await #expect(throws: ObjectManagerError.self) {
        _ = try await Self.manager(server, redirects: .any).send(.get, "/start")
      }
      guard case .redirectRefused(_, 302, .unsupportedLocation)? = error else {
        Issue.record("\(host): expected unsupportedLocation, got \(String(describing: error))")
        continue
      }
      let explicit = try #require(URL(string: "http://\(host):\(server.port)/x"))
      let refused = await #expect(throws: ObjectManagerError.self) {
        _ = try await Self.manager(server).send(
          .get, url: explicit, headers: ["Authorization": "Bearer for-trusted"])
      }
      guard case .invalidPath? = refused else {
        Issue.record("\(host): expected invalidPath, got \(String(describing: refused))")
        continue
      }
      #expect(server.requests.map(\.path) == ["/start"], "\(host)")
    }
  }

  /// A port no `Int` holds reads as no port in `URLComponents`; the manager took the scheme's
  /// default for it (port 80), so such a `Location` was followed to a port it does not name.
  @Test func aPortNoIntHoldsIsRefused() async throws {
    let server = try LoopbackServer { request in
      request.path == "/start"
        ? .redirect(to: "http://127.0.0.1:99999999999999999999/x") : .echo(request)
    }
    defer { server.stop() }
    let error = await #expect(throws: ObjectManagerError.self) {
      _ = try await Self.manager(server, redirects: .any).send(.get, "/start")
    }
    guard case .redirectRefused(_, 302, .unsupportedLocation)? = error else {
      Issue.record("expected unsupportedLocation, got \(String(describing: error))")
      return
    }
    let explicit = try #require(URL(string: "http://127.0.0.1:99999999999999999999/x"))
    let refused = await #expect(throws: ObjectManagerError.self) {
      _ = try await Self.manager(server).send(
        .get, url: explicit, headers: ["Authorization": "Bearer secret"])
    }
    guard case .invalidPath? = refused else {
      Issue.record("expected invalidPath, got \(String(describing: refused))")
      return
    }
    #expect(server.requests.map(\.path) == ["/start"])
  }

  @Test func aRedirectWithoutLocationIsTheResponseItself() async throws {
    let server = try LoopbackServer { _ in .json(#"{"error": "moved"}"#, status: 302) }
    defer { server.stop() }
    let error = await #expect(throws: ObjectManagerError.self) {
      _ = try await Self.manager(server).send(.get, "/x")
    }
    // (FoundationNetworking drops the body of a 3xx it does not redirect: no messages here.)
    guard case .status(let failure)? = error else {
      Issue.record("expected status, got \(String(describing: error))")
      return
    }
    #expect(failure.statusCode == 302 && server.requests.count == 1)
  }
}
