import Foundation
import ObjectMapping
import ObjectMappingClient
import ObjectMappingTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `manager.elements(_:mapping:)` against a real server on 127.0.0.1: the body mapped as it
/// arrives, with backpressure, the connection closed when the consumer stops, and the
/// manager's redirects, statuses, limits and deadline (issue 40).
// Serialized: on Linux every URLSession shares one work queue (libcurl's thread), and a streamed
// transfer whose consumer lags holds it while its queue is full (see Documentation/Streaming.md,
// "The object manager"); the endless-body tests would hold up the timing of the deadline test.
@Suite("ObjectManager streaming", .serialized)
struct StreamingTests {
  struct Event: Sendable, Equatable {
    var id = 0
    var name = ""
  }

  static let eventMapping = Mapping(Event.init) {
    Attribute("id", \.id)
    Attribute("name", \.name)
  }

  static func event(_ id: Int) -> String { #"{"id": \#(id), "name": "event \#(id) é"}"# }

  /// Counts the bytes a streaming handler wrote.
  final class Counter: @unchecked Sendable {
    // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = 0
    var count: Int { lock.withLock { value } }
    func add(_ count: Int) { lock.withLock { value += count } }
  }

  /// A server that streams an endless array of events, `perChunk` events per write.
  static func endlessServer(counter: Counter, perChunk: Int = 100) throws -> LoopbackServer {
    try LoopbackServer { _ in
      LoopbackServer.Response(
        status: 200, headers: ["Content-Type": "application/json"], length: .none,
        stream: { writer in
          var next = 0
          var first = true
          while true {
            var text = ""
            for _ in 0..<perChunk {
              text += (first ? "[" : ",") + Self.event(next)
              first = false
              next += 1
            }
            let bytes = Array(text.utf8)
            guard writer.write(bytes) else { return }
            counter.add(bytes.count)
          }
        })
    }
  }

  @Test func theBodyIsMappedAsItArrives() async throws {
    let server = try LoopbackServer { _ in
      LoopbackServer.Response(
        status: 200, headers: ["Content-Type": "application/json; charset=utf-8"], length: .none,
        stream: { writer in
          let text = "[" + (0..<50).map(Self.event).joined(separator: ",\n") + "]"
          // Small writes with pauses: elements are split across reads everywhere.
          var bytes = Array(text.utf8)[...]
          while !bytes.isEmpty {
            guard writer.write(Array(bytes.prefix(37))) else { return }
            bytes = bytes.dropFirst(37)
            if bytes.count % 5 == 0 { _ = writer.pause(0.001) }
          }
        })
    }
    defer { server.stop() }
    let manager = ObjectManager(baseURL: server.baseURL)
    let stream = try await manager.elements("/events", mapping: Self.eventMapping)
    #expect(stream.statusCode == 200)
    var events: [Event] = []
    for try await event in stream { events.append(event) }
    #expect(events == (0..<50).map { Event(id: $0, name: "event \($0) é") })
    #expect(stream.summary.isComplete)
    #expect(
      server.requests.first?.headers["accept"] == "application/json, application/x-ndjson;q=0.9")
  }

  @Test func jsonLinesFollowTheContentType() async throws {
    let server = try LoopbackServer { _ in
      LoopbackServer.Response(
        status: 200, headers: ["Content-Type": "application/x-ndjson"],
        body: Array(((0..<5).map(Self.event).joined(separator: "\n") + "\n").utf8))
    }
    defer { server.stop() }
    let manager = ObjectManager(baseURL: server.baseURL)
    var ids: [Int] = []
    for try await event in try await manager.elements("/events", mapping: Self.eventMapping) {
      ids.append(event.id)
    }
    #expect(ids == [0, 1, 2, 3, 4])
  }

  @Test func anArrayUnderAKeyWithItsEnvelopeAfterARedirect() async throws {
    let server = try LoopbackServer { request in
      if request.path == "/old" { return .redirect(to: "/articles?page=1", status: 301) }
      return .json(#"{"data": [\#(Self.event(1)), \#(Self.event(2))], "next": "/articles?page=2"}"#)
    }
    defer { server.stop() }
    let manager = ObjectManager(baseURL: server.baseURL)
    let page = try await manager.elements(
      "/old", mapping: Self.eventMapping, as: .array(at: "data"))
    var ids: [Int] = []
    for try await event in page { ids.append(event.id) }
    #expect(ids == [1, 2])
    #expect(page.summary.envelope?["next"] == "/articles?page=2")
    #expect(page.url.path == "/articles")
  }

  @Test func aStatusOutsideTwoHundredsIsAnErrorWithItsMessages() async throws {
    let server = try LoopbackServer { _ in
      .json(#"{"errors": ["Slow down", "Try later"]}"#, status: 422)
    }
    defer { server.stop() }
    let manager = ObjectManager(baseURL: server.baseURL)
    do {
      _ = try await manager.elements("/events", mapping: Self.eventMapping)
      Issue.record("expected an error")
    } catch {
      #expect("\(error)" == "status 422: Slow down, Try later")
    }
  }

  @Test func anElementThatDoesNotMapEndsTheStreamWithItsPath() async throws {
    let server = try LoopbackServer { _ in
      .json("[\(Self.event(0)), {\"id\": \"x\", \"name\": \"bad\"}, \(Self.event(2))]")
    }
    defer { server.stop() }
    let manager = ObjectManager(baseURL: server.baseURL)
    var ids: [Int] = []
    do {
      for try await event in try await manager.elements("/events", mapping: Self.eventMapping) {
        ids.append(event.id)
      }
      Issue.record("expected an error")
    } catch {
      #expect(
        "\(error)"
          == #"the response (status 200) could not be mapped: /1/id: cannot convert "x" to an integer"#
      )
    }
    #expect(ids == [0])
    // Skipped, the stream goes on.
    let skipping = try await manager.elements(
      "/events", mapping: Self.eventMapping, onElementFailure: .skip)
    ids = []
    for try await event in skipping { ids.append(event.id) }
    #expect(ids == [0, 2])
    #expect(skipping.summary.skippedCount == 1)
  }

  @Test func anElementLargerThanTheLimitEndsTheStream() async throws {
    let big = #"{"id": 1, "name": ""# + String(repeating: "x", count: 10_000) + #""}"#
    let server = try LoopbackServer { _ in .json("[\(Self.event(0)), \(big)]") }
    defer { server.stop() }
    let manager = ObjectManager(
      baseURL: server.baseURL, limits: RequestLimits(maximumElementSize: 1_000))
    var ids: [Int] = []
    do {
      for try await event in try await manager.elements("/events", mapping: Self.eventMapping) {
        ids.append(event.id)
      }
      Issue.record("expected an error")
    } catch {
      #expect(
        "\(error)"
          == "the response (status 200) could not be mapped: /1: syntax error at line 1, column "
          + "34 (byte 34): the element is larger than the element size limit of 1,000 bytes")
    }
    #expect(ids == [0])
  }

  @Test func aContentTypeThatIsNotJSONIsRefused() async throws {
    let server = try LoopbackServer { _ in
      LoopbackServer.Response(
        status: 200, headers: ["Content-Type": "text/csv"], body: Array("a,b".utf8))
    }
    defer { server.stop() }
    let manager = ObjectManager(baseURL: server.baseURL)
    do {
      _ = try await manager.elements("/events", mapping: Self.eventMapping)
      Issue.record("expected an error")
    } catch {
      #expect(
        "\(error)" == #"no format reads the response's content type "text/csv" (status 200)"#)
    }
  }

  // MARK: Backpressure, closing, deadline

  /// Whether the tests that leave a streamed transfer unread for a while run: on Linux such a
  /// transfer holds FoundationNetworking's one work queue, and another test's `resume()` on
  /// Swift's cooperative threads then waits for it, which can stall every async test of the
  /// process until the transfer times out (Documentation/Streaming.md, "The object manager").
  /// There they run in a process of their own (`.ci/run` sets `OBJECT_MAPPING_LAG_TESTS=1`).
  static var lagTestsRun: Bool {
    #if canImport(FoundationNetworking)
      ProcessInfo.processInfo.environment["OBJECT_MAPPING_LAG_TESTS"] == "1"
    #else
      true
    #endif
  }

  @Test(.enabled(if: lagTestsRun, "run alone: OBJECT_MAPPING_LAG_TESTS=1"))
  func theServerIsReadOnlyAsFastAsElementsAreTaken() async throws {
    let counter = Counter()
    let server = try Self.endlessServer(counter: counter)
    defer { server.stop() }
    let manager = ObjectManager(
      baseURL: server.baseURL, limits: RequestLimits(timeout: .seconds(30)))
    do {
      var iterator = try await manager.elements("/events", mapping: Self.eventMapping)
        .makeAsyncIterator()
      for expected in 0..<10 {
        #expect(try await iterator.next()?.id == expected)
      }
      // The consumer pauses: the server can only fill the sockets' buffers and the transfer's
      // queue (256 KiB), not go on writing the endless body.
      try await Task.sleep(for: .milliseconds(500))
      let afterPause = counter.count
      try await Task.sleep(for: .milliseconds(500))
      #expect(counter.count - afterPause < 1 << 20, "kept writing while nobody read")
      #expect(counter.count < 64 << 20, "wrote \(counter.count) bytes")
      #expect(try await iterator.next()?.id == 10)
    }
    // The iterator is released: the connection closes (and the server's writer stops).
    #expect(try await Self.eventually { server.abandonedRequests == 1 })
  }

  @Test(.enabled(if: lagTestsRun, "run alone: OBJECT_MAPPING_LAG_TESTS=1"))
  func aLaggingStreamDoesNotHoldUpOtherRequests() async throws {
    let counter = Counter()
    let streaming = try Self.endlessServer(counter: counter)
    defer { streaming.stop() }
    let other = try LoopbackServer { _ in .json(Self.event(7)) }
    defer { other.stop() }
    let streamingManager = ObjectManager(
      baseURL: streaming.baseURL, limits: RequestLimits(timeout: .seconds(60)))
    let otherManager = ObjectManager(
      baseURL: other.baseURL, limits: RequestLimits(timeout: .seconds(3)))
    var iterator = try await streamingManager.elements("/events", mapping: Self.eventMapping)
      .makeAsyncIterator()
    #expect(try await iterator.next()?.id == 0)
    // The consumer lags until the transfer's queue is full and the server stops writing.
    var previous = -1
    while counter.count != previous {
      previous = counter.count
      try await Task.sleep(for: .milliseconds(300))
    }
    // While it lags, an ordinary request on another manager (and session) should be served;
    // held up, it times out behind the stream, which is not read again before it returns. On
    // Linux it is held up: swift-corelibs-foundation runs every session on one work queue,
    // which the waiting delegate holds, and `suspend()` cannot replace the wait there (see
    // Documentation/Streaming.md, "The object manager"). When that is fixed, this known issue
    // is no longer recorded: then drop `withKnownIssue` and `.serialized`. It is intermittent
    // because on a loaded machine the lag loop above can end before the queue is full, and the
    // request is then served.
    try await withKnownIssue(
      "a lagging streamed transfer holds FoundationNetworking's work queue", isIntermittent: true
    ) {
      let event = try await otherManager.get("/event", mapping: Self.eventMapping)
      #expect(event == Event(id: 7, name: "event 7 é"))
    } when: {
      #if canImport(FoundationNetworking)
        true
      #else
        false
      #endif
    }
    #expect(counter.count - previous < 1 << 20, "kept writing while nobody read")
    #expect(try await iterator.next()?.id == 1)
  }

  @Test func stoppingEarlyClosesTheConnection() async throws {
    let counter = Counter()
    let server = try Self.endlessServer(counter: counter)
    defer { server.stop() }
    let manager = ObjectManager(baseURL: server.baseURL)
    var taken = 0
    for try await _ in try await manager.elements("/events", mapping: Self.eventMapping) {
      taken += 1
      if taken == 3 { break }
    }
    #expect(try await Self.eventually { server.abandonedRequests == 1 })
  }

  @Test func aCancelledTaskClosesTheConnection() async throws {
    let counter = Counter()
    let server = try Self.endlessServer(counter: counter)
    defer { server.stop() }
    let manager = ObjectManager(baseURL: server.baseURL)
    let task = Task {
      var taken = 0
      for try await _ in try await manager.elements("/events", mapping: Self.eventMapping) {
        taken += 1
        if taken == 5 { withUnsafeCurrentTask { $0?.cancel() } }
      }
    }
    let outcome = await task.result
    #expect(throws: ObjectManagerError.self) { try outcome.get() }
    #expect(try await Self.eventually { server.abandonedRequests == 1 })
  }

  @Test func theDeadlineCoversTheBody() async throws {
    let server = try LoopbackServer { _ in
      LoopbackServer.Response(
        status: 200, headers: ["Content-Type": "application/json"], length: .none,
        stream: { writer in
          guard writer.write(Array("[\(Self.event(0)),".utf8)) else { return }
          _ = writer.pause(30)
        })
    }
    defer { server.stop() }
    // The deadline leaves time for the head and the first element on a loaded machine (the
    // parallel tests); the body's pause outlasts it by far.
    let manager = ObjectManager(
      baseURL: server.baseURL, limits: RequestLimits(timeout: .seconds(2)))
    var ids: [Int] = []
    let start = ContinuousClock.now
    do {
      for try await event in try await manager.elements("/events", mapping: Self.eventMapping) {
        ids.append(event.id)
      }
      Issue.record("expected a timeout")
    } catch {
      #expect("\(error)" == "the request timed out after 2.0 seconds")
    }
    #expect(ids == [0])
    #expect(ContinuousClock.now - start < .seconds(15))
    #expect(try await Self.eventually { server.abandonedRequests == 1 })
  }

  // MARK: Memory, in a child process

  /// The process's resident memory in bytes (Linux), or `nil` under a sanitizer.
  static func residentBytes() -> Int? {
    guard ProcessInfo.processInfo.environment["OBJECT_MAPPING_SANITIZER"] == nil,
      let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
    else { return nil }
    let fields = statm.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    #if canImport(Glibc)
      return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    #else
      return pages * 4096
    #endif
  }

  @Test func aLargeStreamedResponseKeepsMemoryBounded() async throws {
    let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
      // 200,000 events of about 250 bytes (50 MB), mapped as they arrive: neither the body nor
      // the events are held.
      let padding = String(repeating: "p", count: 200)
      let server = try LoopbackServer { _ in
        LoopbackServer.Response(
          status: 200, headers: ["Content-Type": "application/x-ndjson"], length: .none,
          stream: { writer in
            for block in 0..<2_000 {
              var text = ""
              for id in block * 100..<block * 100 + 100 {
                text += #"{"id": \#(id), "name": "\#(padding)"}"# + "\n"
              }
              guard writer.write(Array(text.utf8)) else { return }
            }
          })
      }
      defer { server.stop() }
      let manager = ObjectManager(
        baseURL: server.baseURL, limits: RequestLimits(timeout: .seconds(120)))
      let before = StreamingTests.residentBytes()
      var count = 0
      for try await event in try await manager.elements(
        "/events", mapping: StreamingTests.eventMapping)
      {
        if event.id == count { count += 1 }
      }
      guard count == 200_000 else {
        FileHandle.standardError.write(Data("mapped \(count) events in order\n".utf8))
        exit(2)
      }
      if let before, let after = StreamingTests.residentBytes() {
        FileHandle.standardError.write(
          Data("resident memory grew \((after - before) >> 10) KiB\n".utf8))
        if after - before >= 24 << 20 { exit(1) }
      }
    }
    let report = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
    if ProcessInfo.processInfo.environment["OBJECT_MAPPING_PRINT_SCALING"] == "1" { print(report) }
  }

  // MARK: Transports that do not stream

  /// A transport with only `send`: streams through the protocol's default implementation.
  struct CannedTransport: HTTPTransport {
    let body: String
    func send(_ request: TransportRequest, maximumBodySize: Int) async throws(URLError)
      -> TransportResponse
    {
      guard body.utf8.count <= maximumBodySize else { throw URLError(.dataLengthExceedsMaximum) }
      return TransportResponse(
        statusCode: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8),
        url: request.url)
    }
  }

  @Test func aTransportWithoutStreamingDeliversTheWholeBody() async throws {
    let body = "[" + (0..<3).map(Self.event).joined(separator: ",") + "]"
    let manager = ObjectManager(
      baseURL: URL(string: "https://api.example.com")!, transport: CannedTransport(body: body))
    var ids: [Int] = []
    for try await event in try await manager.elements("/events", mapping: Self.eventMapping) {
      ids.append(event.id)
    }
    #expect(ids == [0, 1, 2])
    // Such a transport holds the whole body: the response size limit applies to it.
    let small = ObjectManager(
      baseURL: URL(string: "https://api.example.com")!, transport: CannedTransport(body: body),
      limits: RequestLimits(maximumResponseSize: 10))
    do {
      _ = try await small.elements("/events", mapping: Self.eventMapping)
      Issue.record("expected an error")
    } catch {
      #expect("\(error)" == "the response is larger than the limit of 10 bytes")
    }
  }

  static func eventually(_ seconds: Double = 5, _ condition: () -> Bool) async throws -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while !condition() {
      guard Date() < end else { return false }
      try await Task.sleep(for: .milliseconds(20))
    }
    return true
  }
}
