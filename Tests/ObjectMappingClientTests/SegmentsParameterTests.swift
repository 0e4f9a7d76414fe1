import Foundation
import ObjectMapping
import ObjectMappingClient
import ObjectMappingTestSupport
import Testing

/// `{name*}`: the one route parameter that spans path segments (RestKit's reference: "a
/// parameter never spans `/` unless declared as `{path*}`"). Its segments are encoded one by
/// one, it matches back linearly, and it cannot smuggle a dot segment or another host past the
/// object manager.
@Suite("Router: segment-spanning parameters")
struct SegmentsParameterTests {
  struct StoredFile: Sendable {
    var path: String
  }

  @Test func aSegmentsParameterKeepsItsSlashesAndEncodesEachSegment() throws {
    let pattern = try PathPattern("/files/{path*}/raw")
    #expect(pattern.parameterNames == ["path"])
    #expect(
      try pattern.interpolate(["path": "docs/2026/a b?.pdf"])
        == "/files/docs/2026/a%20b%3F.pdf/raw")
    // A one-segment parameter encodes the same `/` (the difference the `*` makes).
    #expect(try PathPattern("/files/{path}/raw").interpolate(["path": "a/b"]) == "/files/a%2Fb/raw")
    // Unescaped routes insert the value as it is.
    #expect(try pattern.interpolate(["path": "a/%41"], escaping: false) == "/files/a/%41/raw")
  }

  @Test(arguments: ["/leading", "trailing/", "doubled//slash", "/"])
  func anEmptySegmentIsAnError(value: String) throws {
    let pattern = try PathPattern("/files/{path*}")
    let error = #expect(throws: ObjectManagerError.self) {
      try pattern.interpolate(["path": value])
    }
    guard case .invalidPath(let shown, let reason)? = error else {
      Issue.record("expected invalidPath, got \(String(describing: error))")
      return
    }
    #expect(shown == value)
    #expect(reason.contains("empty segment"))
    let missing = #expect(throws: ObjectManagerError.self) {
      try pattern.interpolate(["path": ""])
    }
    #expect(missing?.description.contains("the path parameter 'path'") == true)
  }

  @Test(arguments: [
    ("/files/{path*}", "/files/a", ["path": "a"]),
    ("/files/{path*}", "/files/a/b/c", ["path": "a/b/c"]),
    ("/files/{path*}/raw", "/files/a/raw/b/raw", ["path": "a/raw/b"]),
    ("/files/{path*}/raw/:rev", "/files/a/b/raw/7", ["path": "a/b", "rev": "7"]),
    ("/files/{path*}.json", "/files/a.json/b.json", ["path": "a.json/b"]),
    ("/files/{path*}.json", "/files/a/b%20c.json", ["path": "a/b c"]),
    ("/:bucket/{key*}", "/photos/2026/11/cat.jpg", ["bucket": "photos", "key": "2026/11/cat.jpg"]),
    ("/files/{path*}?rev=:rev", "/files/a/b?rev=3", ["path": "a/b", "rev": "3"]),
  ])
  func aSegmentsParameterMatchesWholeSegments(
    pattern: String, path: String, expected: [String: String]
  ) throws {
    #expect(try PathPattern(pattern).match(path) == expected)
  }

  @Test(arguments: [
    ("/files/{path*}", "/files/"),
    ("/files/{path*}", "/files"),
    ("/files/{path*}/raw", "/files/raw"),
    ("/files/{path*}/raw", "/files/a/b"),
    ("/files/{path*}/raw/:rev", "/files/a/raw/"),
    ("/files/{path*}.json", "/files/a/b.txt"),
    ("/files/{path*}.json", "/files/a.json/b"),
  ])
  func aPathWithoutTheSegmentsDoesNotMatch(pattern: String, path: String) throws {
    #expect(try PathPattern(pattern).match(path) == nil)
  }

  @Test(arguments: [
    (
      "/a/{x*}/b/{y*}",
      #"invalid route pattern "/a/{x*}/b/{y*}" at position 11: '{x*}' already spans segments; a pattern has one such parameter at most"#
    ),
    (
      "/s?q={x*}",
      #"invalid route pattern "/s?q={x*}" at position 6: '{x*}' spans path segments; a query value cannot hold one"#
    ),
    (
      "/a/(x*)",
      #"invalid route pattern "/a/(x*)" at position 6: '*' cannot appear in the parameter name after '('; a name is letters, digits, '_' and '.' (write '\(' for a literal '(')"#
    ),
    (
      "/a/{x*y}",
      #"invalid route pattern "/a/{x*y}" at position 6: '*' cannot appear in the parameter name after '{'; a name is letters, digits, '_' and '.' (write '\{' for a literal '{')"#
    ),
    ("/a/{*}", #"invalid route pattern "/a/{*}" at position 4: '{}' names no parameter"#),
    (
      "/a/{x*}{y}",
      #"invalid route pattern "/a/{x*}{y}" at position 8: the parameters 'x' and 'y' must be separated by literal text"#
    ),
  ])
  func aMisusedSegmentsParameterIsAnErrorAtRegistration(pattern: String, message: String) {
    #expect(throws: RouterError.self) { try PathPattern(pattern) }
    do {
      _ = try PathPattern(pattern)
    } catch {
      #expect(error.description == message)
    }
  }

  /// A path of many segments that each almost end the value: the value ends where the rest
  /// of the pattern's `/`s say, found in one pass from the end (no retrying of every `raw/`,
  /// which would make a hostile response URL quadratic).
  @Test func aLongPathOfDecoySegmentsMatchesInOnePass() throws {
    let pattern = try PathPattern("/files/{path*}/raw/:rev")
    let path = "/files/" + String(repeating: "raw/", count: 20_000) + "x/raw/1"
    let values = try #require(pattern.match(path))
    #expect(values["rev"] == "1")
    #expect(values["path"] == String(repeating: "raw/", count: 20_000) + "x")
    #expect(pattern.match(path + "/") == nil)
  }

  /// Matching and making a path grow linearly with its segments (CPU time, by doubling): a
  /// hostile response URL or deep-link value cannot make either quadratic.
  @Test func matchingAndMakingGrowLinearlyWithTheSegments() async throws {
    let pattern = try PathPattern("/files/{path*}/raw/:rev")
    try await Scaling.expectLinear(
      "matching {path*} over n decoy segments", base: 10_000,
      prepare: { "/files/" + String(repeating: "raw/", count: $0) + "x/raw/1" },
      work: { path in #expect(pattern.match(path)?["rev"] == "1") })
    var router = Router()
    try router.add(StoredFile.self, "/files/{path*}") { ["path": $0.path] }
    try await Scaling.expectLinear(
      "making {path*} from n segments", base: 10_000,
      prepare: { StoredFile(path: Array(repeating: "a b", count: $0).joined(separator: "/")) },
      work: { file in _ = try router.path(for: file, method: .delete) })
  }

  /// End to end: the object manager sends what the router made, under the base path, and
  /// still refuses a value that walks out of it.
  @Test func theObjectManagerSendsSegmentsAndRefusesDotSegments() async throws {
    var router = Router()
    try router.add(StoredFile.self, "/files/{path*}") { ["path": $0.path] }
    let server = try LoopbackServer { _ in LoopbackServer.Response(status: 204) }
    defer { server.stop() }
    let base = try #require(URL(string: "http://127.0.0.1:\(server.port)/api"))
    let manager = ObjectManager(baseURL: base, router: router, limits: .loopback)
    try await manager.delete(StoredFile(path: "docs/2026/a b.pdf"))
    for path in ["../secret", "docs/../../secret", "./x", "a/..", "//evil.example/x"] {
      await #expect(throws: ObjectManagerError.self, "\(path)") {
        try await manager.delete(StoredFile(path: path))
      }
    }
    #expect(server.requests.map(\.target) == ["/api/files/docs/2026/a%20b.pdf"])
  }
}
