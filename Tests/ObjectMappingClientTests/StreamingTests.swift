import Foundation
import ObjectMapping
import ObjectMappingTestSupport
import Testing

@testable import ObjectMappingClient

#if canImport(Glibc)
  import Glibc
#endif

/// `manager.elements(_:mapping:)` against a real server on 127.0.0.1: the body mapped as it
/// arrives, with backpressure, the connection closed when the consumer stops, and the
/// manager's redirects, statuses, limits and deadline (issue 40).
// Serialized: the tests of the spool count the spool files the whole process holds open.
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

  /// A server that streams an endless array of events, `perChunk` events per write, with a
  /// pause of `pause` seconds after each; with `go`, it writes its first `perChunk` events,
  /// then waits until `go` counts something (the consumer took what it needs on time, however
  /// busy the machine is).
  static func endlessServer(
    counter: Counter, perChunk: Int = 100, pause: Double = 0, go: Counter? = nil
  ) throws -> LoopbackServer {
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
            while let go, go.count == 0 {
              guard writer.pause(0.01) else { return }
            }
            if pause > 0, !writer.pause(pause) { return }
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
    let manager = ObjectManager(baseURL: server.baseURL, limits: .loopback)
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
    let manager = ObjectManager(baseURL: server.baseURL, limits: .loopback)
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
    let manager = ObjectManager(baseURL: server.baseURL, limits: .loopback)
    let page = try await manager.elements(
      "/old", mapping: Self.eventMapping, as: .array(at: "data"))
    var ids: [Int] = []
    for try await event in page { ids.append(event.id) }
    #expect(ids == [1, 2])
    #expect(page.summary.envelope?["next"] == "/articles?page=2")
    #expect(page.url.path == "/articles")
    // Each element reads the layout's key path as RestKit's `@metadata.mapping.rootKeyPath`.
    struct Keyed: Sendable {
      var id = 0
      var rootKeyPath: String?
    }
    let keyed = Mapping(Keyed.init) {
      Attribute("id", \.id)
      Attribute("@metadata.mapping.rootKeyPath", \.rootKeyPath)
    }
    var seen: [String?] = []
    for try await element in try await manager.elements(
      "/articles", mapping: keyed, as: .array(at: "data"))
    {
      seen.append(element.rootKeyPath)
    }
    #expect(seen == ["data", "data"])
  }

  @Test func aStatusOutsideTwoHundredsIsAnErrorWithItsMessages() async throws {
    let server = try LoopbackServer { _ in
      .json(#"{"errors": ["Slow down", "Try later"]}"#, status: 422)
    }
    defer { server.stop() }
    let manager = ObjectManager(baseURL: server.baseURL, limits: .loopback)
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
    let manager = ObjectManager(baseURL: server.baseURL, limits: .loopback)
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
      baseURL: server.baseURL,
      limits: RequestLimits(timeout: .seconds(600), maximumElementSize: 1_000))
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
    let manager = ObjectManager(baseURL: server.baseURL, limits: .loopback)
    do {
      _ = try await manager.elements("/events", mapping: Self.eventMapping)
      Issue.record("expected an error")
    } catch {
      #expect(
        "\(error)" == #"no format reads the response's content type "text/csv" (status 200)"#)
    }
  }

  // MARK: Lagging consumers, the spool, closing, deadline

  /// The spool files the process holds open (Linux: the descriptors whose unlinked file's name
  /// starts with the spool's prefix), or `nil` where that cannot be seen.
  static func openSpools() -> Int? {
    #if os(Linux)
      let descriptors =
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
      return descriptors.count { descriptor in
        let target = try? FileManager.default.destinationOfSymbolicLink(
          atPath: "/proc/self/fd/\(descriptor)")
        return target?.contains("/\(spoolPrefix)") == true
      }
    #else
      return nil
    #endif
  }

  /// The files in the temporary directory named as spools are (never any: a spool is unlinked
  /// as soon as it is open).
  static func namedSpools() -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? []
    return names.filter { $0.hasPrefix(spoolPrefix) }
  }

  /// How a spool file's name starts (Documentation/Streaming.md, "The object manager").
  static let spoolPrefix = "ObjectMapping-stream-"

  /// Waits until the transfer writes to a spool: the consumer lags by more than 256 KiB.
  static func spoolIsOpen() async throws -> Bool {
    try await eventually(20) { (openSpools() ?? 1) >= 1 }
  }

  /// Waits until every spool file is closed (and none is left named).
  static func spoolsAreGone() async throws -> Bool {
    try await eventually { (openSpools() ?? 0) == 0 && namedSpools().isEmpty }
  }

  @Test func aConsumerThatFallsBehindByMoreThanTheLimitEndsTheStream() async throws {
    let counter = Counter()
    let go = Counter()
    let server = try Self.endlessServer(counter: counter, go: go)
    defer { server.stop() }
    let limit = 4 << 20
    let manager = ObjectManager(
      baseURL: server.baseURL, transport: URLSessionTransport(),
      limits: RequestLimits(maximumResponseSize: limit, timeout: .seconds(60)))
    var iterator = try await manager.elements("/events", mapping: Self.eventMapping)
      .makeAsyncIterator()
    for expected in 0..<10 {
      #expect(try await iterator.next()?.id == expected)
    }
    // The consumer pauses while the server writes as fast as it can: the transport holds what
    // arrives, 256 KiB in memory and the rest in its spool, until the limit, then stops the
    // transfer and closes the connection (the server stops writing).
    go.add(1)
    #expect(try await Self.eventually(30) { server.abandonedRequests == 1 })
    let written = counter.count
    // What the transfer held, and what the sockets' buffers took.
    #expect(written < limit + (16 << 20), "wrote \(written) bytes")
    #expect(written > limit, "wrote \(written) bytes")
    #expect(try await Self.spoolsAreGone())
    // The elements mapped before the transfer stopped are exact, then the stream fails.
    var next = 10
    do {
      while let event = try await iterator.next() {
        #expect(event == Event(id: next, name: "event \(next) é"))
        next += 1
      }
      Issue.record("expected an error")
    } catch {
      #expect(
        "\(error)"
          == "the stream was stopped: more than 4,194,304 bytes of the response arrived and "
          + "were not read (the consumer fell behind)")
      guard case .consumerFellBehind(limit: limit) = error else {
        Issue.record("unexpected error \(error)")
        return
      }
    }
    #expect(next < 100_000, "took \(next) elements")
    #expect(counter.count == written)
  }

  @Test func aLaggingStreamDoesNotHoldUpOtherRequests() async throws {
    let counter = Counter()
    // Under 1 MB a second: the lag below spools, and stays under the limit (64 MiB) for more
    // than a minute, on a machine however busy.
    let streaming = try Self.endlessServer(counter: counter, pause: 0.005)
    defer { streaming.stop() }
    let other = try LoopbackServer { _ in .json(Self.event(7)) }
    defer { other.stop() }
    let streamingManager = ObjectManager(
      baseURL: streaming.baseURL, transport: URLSessionTransport(),
      limits: RequestLimits(timeout: .seconds(60)))
    let otherManager = ObjectManager(
      baseURL: other.baseURL, transport: URLSessionTransport(),
      limits: RequestLimits(timeout: .seconds(30)))
    do {
      var iterator = try await streamingManager.elements("/events", mapping: Self.eventMapping)
        .makeAsyncIterator()
      #expect(try await iterator.next()?.id == 0)
      // The consumer lags until the transfer spools what it is not taking.
      #expect(try await Self.spoolIsOpen())
      let before = counter.count
      // While it lags, ordinary requests on another manager (and session) are served, several
      // at once (their `resume()` calls start on the cooperative threads).
      let start = ContinuousClock.now
      let events = try await withThrowingTaskGroup(of: Event.self) { group in
        for _ in 0..<4 {
          group.addTask { try await otherManager.get("/event", mapping: Self.eventMapping) }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(events == Array(repeating: Event(id: 7, name: "event 7 é"), count: 4))
      // Held up, they would wait for URLSession's own timeout (60 seconds).
      #expect(ContinuousClock.now - start < .seconds(30))
      // The lagging transfer went on reading meanwhile (into its spool).
      #expect(try await Self.eventually { counter.count > before })
      // Read back from memory and the spool, in order.
      for expected in 1..<20_000 {
        let event = try await iterator.next()
        guard event == Event(id: expected, name: "event \(expected) é") else {
          Issue.record("element \(expected) is \(String(describing: event))")
          break
        }
      }
    }
    // The iterator is released: the connection closes and the spool is gone.
    #expect(try await Self.eventually { streaming.abandonedRequests == 1 })
    #expect(try await Self.spoolsAreGone())
  }

  @Test func aBodySpooledToDiskGivesTheElementsOfTheWholePayload() async throws {
    let padding = String(repeating: "ü", count: 40)
    let text =
      "["
      + (0..<20_000).map { #"{"id": \#($0), "name": "\#(padding) \#($0)"}"# }
      .joined(separator: ",\n") + "]"
    let counter = Counter()
    let server = try LoopbackServer { _ in
      LoopbackServer.Response(
        status: 200, headers: ["Content-Type": "application/json"], length: .none,
        stream: { writer in
          var bytes = Array(text.utf8)[...]
          while !bytes.isEmpty {
            guard writer.write(Array(bytes.prefix(7_001))) else { return }
            counter.add(min(7_001, bytes.count))
            bytes = bytes.dropFirst(7_001)
          }
        })
    }
    defer { server.stop() }
    let manager = ObjectManager(
      baseURL: server.baseURL, transport: URLSessionTransport(), limits: .loopback)
    let whole = try await manager.getCollection("/events", mapping: Self.eventMapping)
    #expect(whole.count == 20_000)
    var iterator = try await manager.elements("/events", mapping: Self.eventMapping)
      .makeAsyncIterator()
    var streamed: [Event] = []
    if let first = try await iterator.next() { streamed.append(first) }
    // The consumer pauses until the server sent the whole body (2 MB, past the 256 KiB held in
    // memory): the rest is in the spool.
    #expect(try await Self.eventually(20) { counter.count == 2 * text.utf8.count })
    #expect(try await Self.spoolIsOpen())
    while let event = try await iterator.next() { streamed.append(event) }
    #expect(streamed == whole)
    #expect(try await Self.spoolsAreGone())
  }

  @Test func stoppingEarlyClosesTheConnectionAndTheSpool() async throws {
    let counter = Counter()
    let server = try Self.endlessServer(counter: counter, pause: 0.005)
    defer { server.stop() }
    let manager = ObjectManager(
      baseURL: server.baseURL, transport: URLSessionTransport(), limits: .loopback)
    var taken = 0
    for try await _ in try await manager.elements("/events", mapping: Self.eventMapping) {
      taken += 1
      if taken == 3 {
        #expect(try await Self.spoolIsOpen())
        break
      }
    }
    #expect(try await Self.eventually { server.abandonedRequests == 1 })
    #expect(try await Self.spoolsAreGone())
  }

  @Test func aCancelledTaskClosesTheConnectionAndTheSpool() async throws {
    let counter = Counter()
    let server = try Self.endlessServer(counter: counter, pause: 0.005)
    defer { server.stop() }
    let manager = ObjectManager(
      baseURL: server.baseURL, transport: URLSessionTransport(), limits: .loopback)
    let task = Task {
      var taken = 0
      for try await _ in try await manager.elements("/events", mapping: Self.eventMapping) {
        taken += 1
        if taken == 5 {
          #expect(try await Self.spoolIsOpen())
          withUnsafeCurrentTask { $0?.cancel() }
        }
      }
    }
    let outcome = await task.result
    #expect(throws: ObjectManagerError.self) { try outcome.get() }
    #expect(try await Self.eventually { server.abandonedRequests == 1 })
    #expect(try await Self.spoolsAreGone())
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

  /// Elements already mapped when the deadline passes are not handed out after it: a batch
  /// of up to 1,024 small elements, taken slowly, ran the loop minutes past a one-second
  /// deadline (found by a probe of streamed responses).
  @Test func theDeadlineHoldsForElementsAlreadyMapped() async throws {
    let server = try LoopbackServer { _ in
      LoopbackServer.Response(
        status: 200, headers: ["Content-Type": "application/json"], length: .none,
        stream: { writer in
          let events = (0..<1_000).map(Self.event).joined(separator: ",")
          guard writer.write(Array("[\(events),".utf8)) else { return }
          _ = writer.pause(30)
        })
    }
    defer { server.stop() }
    let manager = ObjectManager(
      baseURL: server.baseURL, limits: RequestLimits(timeout: .seconds(2)))
    var taken = 0
    let start = ContinuousClock.now
    do {
      for try await _ in try await manager.elements("/events", mapping: Self.eventMapping) {
        taken += 1
        try await Task.sleep(for: .milliseconds(20))  // 1,000 elements take 20 s
      }
      Issue.record("expected a timeout")
    } catch {
      #expect("\(error)" == "the request timed out after 2.0 seconds")
    }
    #expect(taken > 0)
    #expect(
      taken < 1_000, "every element was handed out, the last at \(ContinuousClock.now - start)")
    #expect(ContinuousClock.now - start < .seconds(10))
  }

  /// A `204`, or a body of length 0, is `.emptyBody`, as for `getCollection`, not a syntax
  /// error at byte 0 (found by a probe of streamed responses); JSON Lines of no line are no
  /// elements.
  @Test func noBodyIsEmptyBodyAsForGetCollection() async throws {
    let server = try LoopbackServer { request in
      request.path == "/none"
        ? LoopbackServer.Response(status: 204, headers: [:], body: [])
        : LoopbackServer.Response(
          status: 200, headers: ["Content-Type": "application/json"], body: [])
    }
    defer { server.stop() }
    let manager = ObjectManager(baseURL: server.baseURL, limits: .loopback)
    for (path, status) in [("/none", 204), ("/empty", 200)] {
      do {
        _ = try await manager.elements(path, mapping: Self.eventMapping)
        Issue.record("expected emptyBody for \(path)")
      } catch {
        guard case .emptyBody(let found) = error else {
          Issue.record("expected emptyBody for \(path), got \(error)")
          continue
        }
        #expect(found == status)
      }
      do {
        _ = try await manager.getCollection(path, mapping: Self.eventMapping)
        Issue.record("getCollection mapped no body for \(path)")
      } catch {
        #expect("\(error)" == "\(ObjectManagerError.emptyBody(status: status))")
      }
    }
    var lines = 0
    for try await _ in try await manager.elements(
      "/empty", mapping: Self.eventMapping, as: .jsonLines)
    {
      lines += 1
    }
    #expect(lines == 0)
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

  @Test func theSpoolIsARingThatGivesBytesBackInOrder() throws {
    #expect(Spool.namePrefix == Self.spoolPrefix)
    let spool = try Spool(capacity: 10)
    #expect(Self.namedSpools().isEmpty)
    try spool.write(Data("abcdef".utf8))
    #expect(try spool.read(upTo: 4) == Data("abcd".utf8))
    // "ef" at 4 and 5; "ghijklm" goes to 6…9, then wraps to 0…2.
    try spool.write(Data("ghijklm".utf8))
    #expect(spool.count == 9)
    // Full but one: a write past the capacity fails rather than grow the file.
    #expect(throws: URLError(.cannotWriteToFile)) { try spool.write(Data("no".utf8)) }
    try spool.write(Data("n".utf8))
    var read = Data()
    while spool.count > 0 { read += try spool.read(upTo: 3) }
    #expect(String(decoding: read, as: UTF8.self) == "efghijklmn")
    // Drained, it starts again at the ring's start.
    try spool.write(Data("xyz".utf8))
    #expect(try spool.read(upTo: 100) == Data("xyz".utf8))
    spool.close()
    #expect(spool.count == 0)
    #expect(throws: URLError(.cannotWriteToFile)) { try spool.write(Data("a".utf8)) }
  }

  @Test func aLaggingConsumerKeepsMemoryBounded() async throws {
    let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
      // 200,000 events of about 225 bytes (45 MB), sent as fast as the network takes them while
      // the consumer waits: they go to the spool (on disk), not to memory.
      let padding = String(repeating: "p", count: 200)
      let finished = StreamingTests.Counter()
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
            finished.add(1)
          })
      }
      defer { server.stop() }
      let manager = ObjectManager(
        baseURL: server.baseURL, transport: URLSessionTransport(),
        limits: RequestLimits(timeout: .seconds(120)))
      let before = StreamingTests.residentBytes()
      var iterator = try await manager.elements("/events", mapping: StreamingTests.eventMapping)
        .makeAsyncIterator()
      guard try await iterator.next()?.id == 0 else { exit(2) }
      guard try await StreamingTests.eventually(90, { finished.count == 1 }) else { exit(3) }
      let lagging = StreamingTests.residentBytes()
      var count = 1
      while let event = try await iterator.next() {
        if event.id == count { count += 1 }
      }
      guard count == 200_000 else {
        FileHandle.standardError.write(Data("mapped \(count) events in order\n".utf8))
        exit(2)
      }
      if let before, let lagging {
        FileHandle.standardError.write(
          Data("resident memory grew \((lagging - before) >> 10) KiB while lagging\n".utf8))
        if lagging - before >= 24 << 20 { exit(1) }
      }
    }
    let report = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
    if ProcessInfo.processInfo.environment["OBJECT_MAPPING_PRINT_SCALING"] == "1" { print(report) }
  }

  #if os(Linux)
    @Test func aSpoolThatCannotBeWrittenEndsTheStreamWithItsError() async throws {
      let result = await #expect(
        processExitsWith: .success, observing: [\.standardErrorContent]
      ) {
        // A file size limit of 1 MiB stands in for a full disk: the spool's writes past it fail.
        signal(SIGXFSZ, SIG_IGN)
        var size = rlimit(rlim_cur: 1 << 20, rlim_max: 1 << 20)
        guard setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &size) == 0 else { exit(4) }
        // (An error thrown out of an exit test's body traps the child, which hides it: every
        // `try` is inside the `do`.)
        guard let server = try? StreamingTests.endlessServer(counter: StreamingTests.Counter())
        else { exit(6) }
        defer { server.stop() }
        // A process of its own: no other suite holds its threads, so the default deadline.
        let manager = ObjectManager(baseURL: server.baseURL, transport: URLSessionTransport())
        do {
          var iterator = try await manager.elements(
            "/events", mapping: StreamingTests.eventMapping
          ).makeAsyncIterator()
          // On a loaded machine the spool may fill before the first element is taken, so the
          // error may come with any `next()`, the first included; it must be the spool's.
          guard try await iterator.next()?.id == 0 else { exit(2) }
          guard try await StreamingTests.eventually(30, { server.abandonedRequests == 1 }) else {
            exit(3)
          }
          while try await iterator.next() != nil {}
          exit(5)
        } catch {
          FileHandle.standardError.write(Data("\(error)".utf8))
          guard case .transport(let failure)? = error as? ObjectManagerError,
            failure.code == .cannotWriteToFile
          else {
            exit(1)
          }
          // The transfer was given up: the server saw its connection closed.
          guard
            (try? await StreamingTests.eventually(30, { server.abandonedRequests == 1 })) == true
          else { exit(3) }
          // Checked: leave at once, without tearing down the server and the session's threads
          // under the file size limit. (The child's rare SIGILL on a loaded machine was the first
          // `next()` throwing the spool's error outside the `do`, before this change: an error
          // out of an exit test's body traps; its backtrace showed `swift_errorInMain`.)
          _exit(0)
        }
      }
      let report = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) }
      #expect(
        report
          == "the request failed: The operation could not be completed. (NSURLErrorDomain error "
          + "-3003.) (URLError -3003)")
    }

    @Test func aSpoolThatCannotBeMadeEndsTheStreamWithItsError() async throws {
      let result = await #expect(
        processExitsWith: .success, observing: [\.standardErrorContent]
      ) {
        // A temporary directory that does not exist: no spool can be created. (Only while the
        // transfer lags: the exit test's own machinery needs the real one at the end.)
        let temporary = ProcessInfo.processInfo.environment["TMPDIR"]
        let server = try StreamingTests.endlessServer(
          counter: StreamingTests.Counter(), pause: 0.01)
        defer { server.stop() }
        // A process of its own: no other suite holds its threads, so the default deadline.
        let manager = ObjectManager(baseURL: server.baseURL, transport: URLSessionTransport())
        var iterator = try await manager.elements("/events", mapping: StreamingTests.eventMapping)
          .makeAsyncIterator()
        guard try await iterator.next()?.id == 0 else { exit(2) }
        setenv("TMPDIR", "/nonexistent/ObjectMappingTests", 1)
        guard try await StreamingTests.eventually(30, { server.abandonedRequests == 1 }) else {
          exit(3)
        }
        if let temporary { setenv("TMPDIR", temporary, 1) } else { unsetenv("TMPDIR") }
        do {
          while try await iterator.next() != nil {}
          exit(5)
        } catch {
          FileHandle.standardError.write(Data("\(error)".utf8))
          guard case .transport(let failure)? = error as? ObjectManagerError,
            failure.code == .cannotCreateFile
          else {
            exit(1)
          }
        }
      }
      let report = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) }
      #expect(
        report
          == "the request failed: The operation could not be completed. (NSURLErrorDomain error "
          + "-3000.) (URLError -3000)")
    }
  #endif

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
      baseURL: URL(string: "https://api.example.com")!, transport: CannedTransport(body: body),
      limits: .loopback)
    var ids: [Int] = []
    for try await event in try await manager.elements("/events", mapping: Self.eventMapping) {
      ids.append(event.id)
    }
    #expect(ids == [0, 1, 2])
    // Such a transport holds the whole body: the response size limit applies to it.
    let small = ObjectManager(
      baseURL: URL(string: "https://api.example.com")!, transport: CannedTransport(body: body),
      limits: RequestLimits(maximumResponseSize: 10, timeout: .seconds(600)))
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
