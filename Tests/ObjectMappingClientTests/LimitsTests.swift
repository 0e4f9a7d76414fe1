import Foundation
import ObjectMapping
import ObjectMappingClient
import ObjectMappingTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Bounded memory and time whatever the server does, against a real server on 127.0.0.1
/// (issue 33). Limits are small here (1 MiB, one second) so the mechanisms run fast.
@Suite("ObjectManager limits")
struct LimitsTests {
  static let megabyte = 1 << 20

  struct Blob: Sendable {
    var id = 0
  }

  static let blobMapping = Mapping(Blob.init) { Attribute("id", \.id) }

  /// The process's resident memory in bytes (Linux), or `nil` when it says nothing: elsewhere,
  /// and under a sanitizer (`OBJECT_MAPPING_SANITIZER`), whose shadow memory and quarantine of
  /// freed blocks (AddressSanitizer keeps 256 MB) grow with every allocation.
  static func residentBytes() -> Int? {
    guard ProcessInfo.processInfo.environment["OBJECT_MAPPING_SANITIZER"] == nil else {
      return nil
    }
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
      return nil
    }
    let fields = statm.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    #if canImport(Glibc)
      return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    #else
      return pages * 4096
    #endif
  }

  /// Waits (up to `seconds`) until `condition` holds.
  static func eventually(_ seconds: Double = 5, _ condition: () -> Bool) async throws -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while !condition() {
      guard Date() < end else { return false }
      try await Task.sleep(for: .milliseconds(20))
    }
    return true
  }

  static func expectTooLarge(
    _ error: ObjectManagerError?, limit: Int = megabyte,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard case .responseTooLarge(limit)? = error else {
      Issue.record(
        "expected responseTooLarge(\(limit)), got \(String(describing: error))",
        sourceLocation: sourceLocation)
      return
    }
    #expect(
      error?.description == "the response is larger than the limit of 1,048,576 bytes",
      sourceLocation: sourceLocation)
  }

  // MARK: Size

  @Test func aBodyPastTheLimitEndsTheTransferAndClosesTheConnection() async throws {
    // An endless body without a Content-Length, in 64 KiB writes, until the client hangs up:
    // the test ends only because the connection is closed.
    let server = try LoopbackServer { _ in
      LoopbackServer.Response(
        status: 200, headers: ["Content-Type": "application/json"], length: .none,
        stream: { writer in
          let chunk = [UInt8](repeating: UInt8(ascii: " "), count: 65_536)
          while writer.write(chunk) {}
        })
    }
    defer { server.stop() }
    let manager = ObjectManager(
      baseURL: server.baseURL,
      limits: RequestLimits(maximumResponseSize: Self.megabyte, timeout: .seconds(600)))
    let error = await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.get("/big", mapping: Self.blobMapping)
    }
    Self.expectTooLarge(error)
    #expect(try await Self.eventually { server.abandonedRequests == 1 })
  }

  @Test func anAnnouncedLengthPastTheLimitIsRefusedBeforeTheBody() async throws {
    let server = try LoopbackServer { _ in
      LoopbackServer.Response(
        status: 200, length: .announced(1 << 30),
        stream: { writer in
          let chunk = [UInt8](repeating: 0, count: 65_536)
          while writer.write(chunk) {}
        })
    }
    defer { server.stop() }
    let manager = ObjectManager(
      baseURL: server.baseURL,
      limits: RequestLimits(maximumResponseSize: Self.megabyte, timeout: .seconds(600)))
    let error = await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.send(.get, "/gigabyte")
    }
    Self.expectTooLarge(error)
    #expect(try await Self.eventually { server.abandonedRequests == 1 })
  }

  @Test func decompressedBytesAreCountedAndAGzipBombStaysBounded() async throws {
    // 50 MB of zeros in 315 KB: under the limit compressed, far over it inflated.
    let small = Gzip.zeros(count: 50_000_000)
    // 500 MB in 3.1 MB, the issue's bomb.
    let bomb = Gzip.zeros(count: 500_000_000)
    #expect(small.count < Self.megabyte / 3 && bomb.count > 3_000_000 && bomb.count < 3_300_000)
    let server = try LoopbackServer { request in
      LoopbackServer.Response(
        status: 200,
        headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"],
        body: request.path == "/small" ? small : bomb)
    }
    defer { server.stop() }
    let manager = ObjectManager(
      baseURL: server.baseURL,
      limits: RequestLimits(maximumResponseSize: Self.megabyte, timeout: .seconds(600)))
    let smallError = await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.send(.get, "/small")
    }
    Self.expectTooLarge(smallError)
    let bombError = await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.send(.get, "/bomb")
    }
    Self.expectTooLarge(bombError)
  }

  // MARK: Resident memory, in a child process

  // Resident memory is the process's: measured beside hundreds of parallel tests it says nothing
  // about one request (a parallel suite once added 223 MB to a measurement). Each of these runs
  // alone in a child process (an exit test), which fails with a message on standard error.

  /// Runs `scenario` and fails the child process when resident memory grows past `bound`.
  static func boundedScenario(
    bound: Int, _ scenario: @Sendable () async throws -> Void
  ) async throws {
    let before = residentBytes()
    try await scenario()
    if let before, let after = residentBytes(), after - before >= bound {
      FileHandle.standardError.write(Data("grew \((after - before) >> 20) MiB\n".utf8))
      exit(1)
    }
  }

  @Test func anAnnouncedGigabyteKeepsResidentMemoryNearTheLimit() async {
    await #expect(processExitsWith: .success) {
      try await LimitsTests.boundedScenario(bound: 64 * LimitsTests.megabyte) {
        let server = try LoopbackServer { _ in
          LoopbackServer.Response(
            status: 200, length: .announced(1 << 30),
            stream: { writer in
              let chunk = [UInt8](repeating: 0, count: 65_536)
              while writer.write(chunk) {}
            })
        }
        defer { server.stop() }
        let manager = ObjectManager(
          baseURL: server.baseURL,
          limits: RequestLimits(maximumResponseSize: LimitsTests.megabyte, timeout: .seconds(600)))
        do {
          _ = try await manager.send(.get, "/gigabyte")
          exit(2)
        } catch let error as ObjectManagerError {
          guard case .responseTooLarge = error else { exit(3) }
        }
      }
    }
  }

  @Test func aGzipBombKeepsResidentMemoryNearTheLimit() async {
    await #expect(processExitsWith: .success) {
      try await LimitsTests.boundedScenario(bound: 100 * LimitsTests.megabyte) {
        // 500 MB of zeros in 3.1 MB, the issue's bomb: without the streaming count the whole
        // inflated body would be held (+1.1 GB before issue 33).
        let bomb = Gzip.zeros(count: 500_000_000)
        let server = try LoopbackServer { _ in
          LoopbackServer.Response(
            status: 200,
            headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"],
            body: bomb)
        }
        defer { server.stop() }
        let manager = ObjectManager(
          baseURL: server.baseURL,
          limits: RequestLimits(maximumResponseSize: LimitsTests.megabyte, timeout: .seconds(600)))
        do {
          _ = try await manager.send(.get, "/bomb")
          exit(2)
        } catch let error as ObjectManagerError {
          guard case .responseTooLarge = error else { exit(3) }
        }
      }
    }
  }

  @Test func aGzipBodyUnderTheLimitIsDecompressedAndMapped() async throws {
    let json = Array(#"{"id": 7, "padding": "\#(String(repeating: "x", count: 100_000))"}"#.utf8)
    let server = try LoopbackServer { _ in
      LoopbackServer.Response(
        status: 200, headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"],
        body: Gzip.stored(json))
    }
    defer { server.stop() }
    let manager = ObjectManager(
      baseURL: server.baseURL,
      limits: RequestLimits(maximumResponseSize: Self.megabyte, timeout: .seconds(600)))
    #expect(try await manager.get("/blob", mapping: Self.blobMapping).id == 7)
  }

  @Test func aRequestCanRaiseOrLowerTheManagersLimit() async throws {
    let body = Array(
      #"{"id": 1, "padding": "\#(String(repeating: "x", count: 2 * Self.megabyte))"}"#.utf8)
    let server = try LoopbackServer { _ in
      LoopbackServer.Response(
        status: 200, headers: ["Content-Type": "application/json"], body: body)
    }
    defer { server.stop() }
    let manager = ObjectManager(
      baseURL: server.baseURL,
      limits: RequestLimits(maximumResponseSize: Self.megabyte, timeout: .seconds(600)))
    await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.get("/blob", mapping: Self.blobMapping)
    }
    let raised = try await manager.get(
      "/blob", mapping: Self.blobMapping,
      limits: RequestLimits(maximumResponseSize: 4 * Self.megabyte, timeout: .seconds(600)))
    #expect(raised.id == 1)
    #expect(manager.limits.maximumResponseSize == Self.megabyte)
    #expect(RequestLimits.standard.maximumResponseSize == 64 * Self.megabyte)
    #expect(RequestLimits.standard.timeout == .seconds(60))
  }

  @Test func aHeadRequestIgnoresTheAnnouncedLength() async throws {
    let server = try LoopbackServer { _ in
      LoopbackServer.Response(status: 200, headers: ["X-Size": "huge"], length: .announced(1 << 30))
    }
    defer { server.stop() }
    let manager = ObjectManager(
      baseURL: server.baseURL,
      limits: RequestLimits(maximumResponseSize: Self.megabyte, timeout: .seconds(600)))
    let response = try await manager.send(.head, "/file")
    #expect(response.statusCode == 200 && response.body.isEmpty)
    #expect(response.headers["x-size"] == "huge")
    #expect(server.requests.first?.method == "HEAD")
  }

  // MARK: Time

  @Test func aTricklingServerIsAbandonedAtTheDeadline() async throws {
    let server = try LoopbackServer { _ in
      LoopbackServer.Response(
        status: 200, headers: ["Content-Type": "application/json"],
        length: .announced(1_000_000),
        stream: { writer in
          // A byte every 300 ms until the client hangs up: the request can end only at the
          // manager's deadline.
          while writer.write([UInt8(ascii: " ")]), writer.pause(0.3) {}
        })
    }
    defer { server.stop() }
    let manager = ObjectManager(
      baseURL: server.baseURL, limits: RequestLimits(timeout: .seconds(1)))
    let clock = ContinuousClock()
    let started = clock.now
    let error = await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.get("/slow", mapping: Self.blobMapping)
    }
    let elapsed = clock.now - started
    guard case .timedOut(after: .seconds(1))? = error else {
      Issue.record("expected timedOut(after: 1 s), got \(String(describing: error))")
      return
    }
    #expect(error?.description == "the request timed out after 1.0 seconds")
    // No upper bound: the server never ends the body, so only the deadline ends the request,
    // and a wall-clock bound would measure the wait for a thread behind parallel tests.
    #expect(elapsed >= .milliseconds(900))
    // The connection was closed: the server notices at its next byte.
    #expect(try await Self.eventually { server.abandonedRequests == 1 })
  }

  @Test func theDeadlineCoversRedirectsToo() async throws {
    let server = try LoopbackServer { request in
      request.path == "/hop"
        ? LoopbackServer.Response(status: 302, headers: ["Location": "/hop"], delay: 0.3)
        : .json("{}")
    }
    defer { server.stop() }
    let manager = ObjectManager(
      baseURL: server.baseURL, redirects: .sameOrigin(maximumCount: 10_000),
      limits: RequestLimits(timeout: .seconds(1)))
    let error = await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.send(.get, "/hop")
    }
    guard case .timedOut? = error else {
      Issue.record("expected timedOut, got \(String(describing: error))")
      return
    }
    // A deadline per hop would follow 10,000 redirects of 0.3 s; one for the whole request
    // stops after a few (a loose bound: hops wait for threads behind parallel tests too).
    #expect(server.requests.count < 100)
  }

  // MARK: Headers and lengths

  @Test func hugeHeadersAreBoundedByTheTransport() async throws {
    let server = try LoopbackServer { request in
      let count = Int(request.path.dropFirst()) ?? 0
      return LoopbackServer.Response(
        status: 200, headers: ["Content-Type": "application/json"], body: Array("{}".utf8),
        additionalHeaders: (0..<count).map {
          (name: "X-Field-\($0)", value: String(repeating: "v", count: 1_000))
        })
    }
    defer { server.stop() }
    let manager = ObjectManager(baseURL: server.baseURL, limits: .loopback)
    let fine = try await manager.send(.get, "/100")
    #expect(fine.headers["x-field-99"]?.count == 1_000)
    // 3,000 fields of 1 KB: libcurl stops reading headers past 300 KB in all.
    let error = await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.send(.get, "/3000")
    }
    guard case .transport? = error else {
      Issue.record("expected transport, got \(String(describing: error))")
      return
    }
  }

  @Test func aContentLengthShorterThanTheBodyCutsTheBody() async throws {
    let server = try LoopbackServer { _ in
      LoopbackServer.Response(
        status: 200, headers: ["Content-Type": "application/json"],
        body: Array(#"{"id": 1}"#.utf8), length: .announced(3))
    }
    defer { server.stop() }
    let manager = ObjectManager(baseURL: server.baseURL, limits: .loopback)
    let error = await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.get("/short", mapping: Self.blobMapping)
    }
    guard case .mapping(let errors, 200)? = error else {
      Issue.record("expected a mapping error, got \(String(describing: error))")
      return
    }
    #expect(errors.description.contains("syntax error at line 1, column 4"))
  }
}
