import Foundation
import ObjectMapping
import ObjectMappingTestSupport
import Testing

@testable import ObjectMappingClient

/// The socket transport (the default on Linux): responses that stop a process inside
/// FoundationNetworking are typed errors here, bodies are framed and decoded as HTTP/1.1 says,
/// and a streamed body is read only as fast as it is taken.
@Suite("SocketTransport: hostile heads, framing, decoding, backpressure")
struct SocketTransportTests {
  struct Item: Equatable, Sendable {
    var id = 0
  }

  static let item = Mapping(Item.init) { Attribute("id", \.id) }

  static func manager(_ server: LoopbackServer) -> ObjectManager {
    ObjectManager(baseURL: server.baseURL, transport: SocketTransport(), limits: .loopback)
  }

  /// The error a request to `server` ends with, or `nil`.
  static func failure(
    _ server: LoopbackServer, limits: RequestLimits = .loopback, path: String = "/x"
  ) async -> ObjectManagerError? {
    let manager = ObjectManager(
      baseURL: server.baseURL, transport: SocketTransport(), limits: limits)
    do {
      _ = try await manager.send(.get, path)
      return nil
    } catch {
      return error
    }
  }

  @Test(
    .timeLimit(.minutes(1)),
    arguments: [
      "HTTP/1.1 200 OK\r\n", "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n",
      "HTTP/1.1 302 Found\r\nLocation: /next\r\n", "HTTP/1.1 200 O", "", "HTTP/1.1 200 OK\r\nX: ",
    ])
  func aHeadCutShortIsATransportError(raw: String) async throws {
    // FoundationNetworking stops the process here ("Transfer completed, but there's no
    // response").
    let server = try LoopbackServer { _ in .raw(raw) }
    defer { server.stop() }
    guard case .transport? = await Self.failure(server) else {
      Issue.record("no transport error for \(raw.debugDescription)")
      return
    }
  }

  @Test(
    .timeLimit(.minutes(1)),
    arguments: ["9223372036854775807", "99999999999999999999999", "9223372036854775808"])
  func anEnormousContentLengthIsTooLarge(length: String) async throws {
    // FoundationNetworking traps converting libcurl's Double of 2^63 - 1 to Int64.
    let server = try LoopbackServer { _ in
      .raw("HTTP/1.1 200 OK\r\nContent-Length: \(length)\r\n\r\n{}")
    }
    defer { server.stop() }
    guard case .responseTooLarge? = await Self.failure(server) else {
      Issue.record("no responseTooLarge for \(length)")
      return
    }
  }

  @Test(.timeLimit(.minutes(1)), arguments: ["//[::1]:1/x", "//ev%20il/x", "//evil.invalid/x"])
  func aProtocolRelativeRedirectIsRefused(location: String) async throws {
    // FoundationNetworking builds the next request itself and traps on `//[::1]:1/x`.
    let server = try LoopbackServer { _ in .redirect(to: location) }
    defer { server.stop() }
    let failure = await Self.failure(server)
    guard case .redirectRefused(_, 302, .otherOrigin)? = failure else {
      Issue.record("\(location): \(String(describing: failure))")
      return
    }
  }

  /// A caller of the transport itself: a host that holds a control character once
  /// percent-decoded is `.badURL` and nothing is sent (the resolver would read it up to a NUL
  /// and the rest would go into the `Host` field).
  @Test(
    .timeLimit(.minutes(1)),
    arguments: [
      "127.0.0.1%00.trusted.example", "127.0.0.1%00%0D%0AX-Injected%3A%20yes%0D%0A",
      "127.0.0.1%09", "127.0.0.1%7F",
    ])
  func aHostWithAControlCharacterIsABadURL(host: String) async throws {
    let server = try LoopbackServer { .echo($0) }
    defer { server.stop() }
    let url = try #require(URL(string: "http://\(host):\(server.port)/x"))
    do {
      _ = try await SocketTransport().send(
        TransportRequest(method: .get, url: url, headers: [:], body: nil),
        maximumBodySize: 1 << 20)
      Issue.record("\(host): sent")
    } catch {
      #expect(error.code == .badURL, "\(host)")
    }
    #expect(server.requests.isEmpty, "\(host)")
  }

  /// A port no `Int` holds, which `URLComponents` reads as no port at all, is `.badURL`, not
  /// port 80 (where the request went before); so is one past 65535.
  @Test(.timeLimit(.minutes(1)), arguments: ["99999999999999999999", "65536", "0"])
  func aPortOutOfRangeIsABadURL(port: String) async throws {
    let url = try #require(URL(string: "http://127.0.0.1:\(port)/x"))
    await #expect(throws: URLError(.badURL)) {
      _ = try await SocketTransport().send(
        TransportRequest(method: .get, url: url, headers: [:], body: nil),
        maximumBodySize: 1 << 20)
    }
  }

  @Test(
    .timeLimit(.minutes(1)),
    arguments: [
      "HTTP/1.1 99999 Big\r\n\r\n", "HTTP/1.1 000 Zero\r\n\r\n", "HTTP/2 200\r\n\r\n",
      "<html>hello</html>", "HTTP/1.1 101 Switching Protocols\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
      "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n{}",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n{}",
      "HTTP/1.1 200 OK\r\n folded: value\r\n\r\n{}",
      "HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n{}",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\n",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{}",
      "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n{}",
    ])
  func aMalformedResponseIsATransportError(raw: String) async throws {
    let server = try LoopbackServer { _ in .raw(raw) }
    defer { server.stop() }
    guard case .transport? = await Self.failure(server) else {
      Issue.record("no transport error for \(raw.debugDescription)")
      return
    }
  }

  @Test(.timeLimit(.minutes(1)))
  func framingsAndInterimResponsesAreRead() async throws {
    let responses = [
      // Chunked, with extensions, a chunk split across writes and trailers.
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "3;ext=1\r\n{\"i\r\n6\r\nd\": 1}\r\n0\r\nX-Trailer: t\r\n\r\n",
      // Interim responses, then the end of the connection ends the body.
      "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n"
        + "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{\"id\": 1}",
      // LF line ends, a repeated equal length.
      "HTTP/1.1 200 OK\nContent-Type: application/json\nContent-Length: 9, 9\n\n{\"id\": 1}",
    ]
    for raw in responses {
      let server = try LoopbackServer { _ in .raw(raw) }
      defer { server.stop() }
      #expect(try await Self.manager(server).get("/x", mapping: Self.item) == Item(id: 1))
    }
  }

  @Test(.timeLimit(.minutes(1)))
  func headAndNoContentResponsesHaveNoBody() async throws {
    let server = try LoopbackServer { request in
      request.method == "HEAD"
        ? .raw("HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n")
        : .raw("HTTP/1.1 204 No Content\r\nContent-Length: 3\r\n\r\n")
    }
    defer { server.stop() }
    let head = try await Self.manager(server).send(.head, "/x")
    #expect(head.statusCode == 200 && head.body.isEmpty)
    let none = try await Self.manager(server).send(.delete, "/x")
    #expect(none.statusCode == 204 && none.body.isEmpty)
  }

  /// zlib data of a JSON document with dynamic Huffman codes (Python's `zlib.compress`).
  static let zlibItems: [UInt8] = [
    0x78, 0xda, 0x75, 0xd4, 0xbb, 0x6e, 0x42, 0x31, 0x10, 0x84, 0xe1, 0x57, 0xb1, 0x5c, 0x53,
    0x30, 0x33, 0x5c, 0xf3, 0x2a, 0x11, 0x45, 0xa4, 0x9c, 0x28, 0x47, 0x02, 0x52, 0x70, 0x3a,
    0xc4, 0xbb, 0x07, 0x21, 0xaa, 0x1d, 0x4f, 0x65, 0x4b, 0xfe, 0x2b, 0x7f, 0xda, 0xbd, 0xf7,
    0x79, 0x99, 0x2e, 0xb7, 0xfe, 0xd1, 0x3e, 0xef, 0x7d, 0xfe, 0x7e, 0x9e, 0xeb, 0x55, 0xeb,
    0xd7, 0xaf, 0xcb, 0xf4, 0xbc, 0xbe, 0xde, 0xda, 0xba, 0xfd, 0xfd, 0xb4, 0xe5, 0x77, 0x6a,
    0xe7, 0xf9, 0xb6, 0xf4, 0xc7, 0xea, 0xdd, 0xa1, 0x76, 0x18, 0x77, 0xac, 0x1d, 0xc7, 0x9d,
    0x6a, 0xa7, 0x71, 0xb7, 0xa9, 0xdd, 0x66, 0xdc, 0x6d, 0x6b, 0xb7, 0x1d, 0x77, 0xbb, 0xda,
    0xed, 0xc6, 0xdd, 0xbe, 0x76, 0xfb, 0x71, 0x77, 0xa8, 0xdd, 0x61, 0xdc, 0x1d, 0x6b, 0x77,
    0x0c, 0xff, 0x6c, 0x20, 0x48, 0x22, 0x4e, 0x12, 0x4c, 0x60, 0x28, 0x08, 0x2a, 0x30, 0x16,
    0x04, 0x17, 0x18, 0x0c, 0x82, 0x0c, 0x8c, 0x06, 0xc1, 0x06, 0x86, 0x83, 0xa0, 0x03, 0xe3,
    0x41, 0xf0, 0x81, 0x01, 0x21, 0x08, 0xc1, 0x88, 0x10, 0x8c, 0x68, 0x46, 0x0c, 0x46, 0x34,
    0x23, 0xa6, 0xb9, 0xf1, 0xc1, 0x09, 0x46, 0x34, 0x23, 0x06, 0x23, 0x9a, 0x11, 0x83, 0x11,
    0xcd, 0x88, 0xc1, 0x88, 0x66, 0xc4, 0x60, 0x44, 0x33, 0x62, 0x30, 0xa2, 0x19, 0x31, 0x18,
    0xd1, 0x8c, 0x18, 0x8c, 0x64, 0x46, 0x0a, 0x46, 0x32, 0x23, 0x05, 0x23, 0x99, 0x91, 0xd2,
    0x76, 0xf3, 0xf5, 0x16, 0x8c, 0x64, 0x46, 0x0a, 0x46, 0x32, 0x23, 0x05, 0x23, 0x99, 0x91,
    0x82, 0x91, 0xcc, 0x48, 0xc1, 0x48, 0x66, 0xa4, 0x60, 0x24, 0x33, 0x52, 0x31, 0x3a, 0x3d,
    0xfe, 0x01, 0x33, 0xaf, 0xe7, 0x4c,
  ]

  @Test(.timeLimit(.minutes(1)))
  func codedBodiesAreDecoded() async throws {
    let json = Array(#"{"id": 7}"#.utf8)
    let bodies: [(String, [UInt8])] = [
      ("gzip", Gzip.stored(json)),
      ("x-gzip", Gzip.stored(json)),
      // Two members, then bytes that start no member (ignored, as libcurl does).
      ("gzip", Gzip.stored(Array(json[..<4])) + Gzip.stored(Array(json[4...])) + [0, 0]),
      ("gzip, gzip", Gzip.stored(Gzip.stored(json))),
    ]
    for (coding, body) in bodies {
      let server = try LoopbackServer { _ in
        LoopbackServer.Response(
          status: 200, headers: ["Content-Type": "application/json", "Content-Encoding": coding],
          body: body)
      }
      defer { server.stop() }
      #expect(try await Self.manager(server).get("/x", mapping: Self.item) == Item(id: 7))
    }
    struct Items: Equatable, Sendable {
      var items: [Item] = []
    }
    let items = Mapping(Items.init) { Relationship("items", \.items, Self.item) }
    let server = try LoopbackServer { _ in
      LoopbackServer.Response(
        status: 200, headers: ["Content-Type": "application/json", "Content-Encoding": "deflate"],
        body: Self.zlibItems)
    }
    defer { server.stop() }
    let decoded = try await Self.manager(server).get("/x", mapping: items)
    #expect(decoded.items.map(\.id) == Array(0..<40))
  }

  @Test(.timeLimit(.minutes(1)))
  func aBadOrHugeCodedBodyIsAnError() async throws {
    var corrupt = Gzip.stored(Array(#"{"id": 7}"#.utf8))
    corrupt[corrupt.count - 6] ^= 0xFF  // the CRC-32
    let cases: [[UInt8]] = [
      corrupt, Array("not gzip at all".utf8), Array(Gzip.stored([1]).prefix(12)),
    ]
    for body in cases {
      let server = try LoopbackServer { _ in
        LoopbackServer.Response(status: 200, headers: ["Content-Encoding": "gzip"], body: body)
      }
      defer { server.stop() }
      guard case .transport(let error)? = await Self.failure(server) else {
        Issue.record("no transport error")
        continue
      }
      #expect(error.code == .cannotDecodeContentData)
    }
    // A bomb: 50 MB of zeros in 320 KB, stopped at the 1 MiB limit.
    let bomb = Gzip.zeros(count: 50_000_000)
    let server = try LoopbackServer { _ in
      LoopbackServer.Response(status: 200, headers: ["Content-Encoding": "gzip"], body: bomb)
    }
    defer { server.stop() }
    let limits = RequestLimits(maximumResponseSize: 1 << 20, timeout: .seconds(60))
    guard case .responseTooLarge? = await Self.failure(server, limits: limits) else {
      Issue.record("the bomb was not stopped")
      return
    }
  }

  @Test(.timeLimit(.minutes(1)))
  func theRequestCarriesItsFieldsAndNothingElse() async throws {
    let server = try LoopbackServer { .echo($0) }
    defer { server.stop() }
    let manager = ObjectManager(
      baseURL: server.baseURL, transport: SocketTransport(), headers: ["X-Client": "tests"],
      limits: .loopback)
    _ = try await manager.send(
      .post, "/things?a=1",
      body: RequestBody(data: Data("{}".utf8), contentType: "application/json"))
    let request = try #require(server.requests.first)
    #expect(request.method == "POST" && request.target == "/things?a=1")
    #expect(request.headers["host"] == "127.0.0.1:\(server.port)")
    #expect(request.headers["x-client"] == "tests")
    #expect(request.headers["content-length"] == "2" && request.bodyText == "{}")
    #expect(request.headers["connection"] == "close")
    #expect(request.headers["cookie"] == nil)
  }

  /// A streamed body is read only as fast as it is taken: while the consumer pauses, the server
  /// can write no more than the sockets' buffers hold, and the transfer goes on afterwards.
  @Test(.timeLimit(.minutes(3)))
  func aStreamedBodyIsReadAsItIsTaken() async throws {
    let counter = StreamingTests.Counter()
    let server = try StreamingTests.endlessServer(counter: counter)
    defer { server.stop() }
    let manager = ObjectManager(
      baseURL: server.baseURL, transport: SocketTransport(),
      limits: RequestLimits(maximumResponseSize: 1 << 20, timeout: .seconds(60)))
    var iterator = try await manager.elements("/events", mapping: StreamingTests.eventMapping)
      .makeAsyncIterator()
    for expected in 0..<10 {
      #expect(try await iterator.next()?.id == expected)
    }
    // While the consumer pauses, the server's writes stop once the sockets' buffers are full
    // (a second without a byte, however slow the machine), far short of the endless body.
    var held = counter.count
    var stable = false
    for _ in 0..<60 {
      try await Task.sleep(for: .seconds(1))
      let now = counter.count
      if now == held {
        stable = true
        break
      }
      held = now
    }
    #expect(stable, "the server kept writing: \(held) bytes")
    #expect(held < 16 << 20, "wrote \(held) bytes")
    // The consumer goes on past the 1 MiB that URLSessionTransport would have held for it.
    var next = 10
    while next < 100_000, let event = try await iterator.next() {
      #expect(event.id == next)
      next += 1
    }
    #expect(next == 100_000)
  }

  @Test func otherSchemesGoToTheFallback() async throws {
    final class Recorder: HTTPTransport, @unchecked Sendable {
      // @unchecked: `urls` is only touched under `lock`.
      private let lock = NSLock()
      private var urls: [URL] = []
      var seen: [URL] { lock.withLock { urls } }
      func send(_ request: TransportRequest, maximumBodySize: Int) async throws(URLError)
        -> TransportResponse
      {
        lock.withLock { urls.append(request.url) }
        return TransportResponse(statusCode: 204, url: request.url)
      }
    }
    let recorder = Recorder()
    let url = try #require(URL(string: "https://api.example.invalid/v1/things"))
    let transport = SocketTransport(fallback: recorder)
    let response = try await transport.send(
      TransportRequest(method: .get, url: url), maximumBodySize: 1 << 20)
    #expect(response.statusCode == 204 && recorder.seen == [url])
  }

  @Test(
    .timeLimit(.minutes(1)),
    arguments: [
      ["X-Token": "a\r\nX-Injected: 1"], ["X-Token": "a\nb"], ["X-Token": "a\u{0}b"],
      ["X Token": "a"], ["X-Token:": "a"], ["": "a"],
    ] as [HeaderFields])
  func aFieldThatWouldSplitTheRequestIsRefusedBeforeSending(headers: HeaderFields) async throws {
    // The manager refuses these first; a caller of either transport itself gets `.badURL`,
    // and nothing reaches the server (no second request smuggled in a value).
    let server = try LoopbackServer { _ in .json("{}") }
    defer { server.stop() }
    let transports: [any HTTPTransport] = [SocketTransport(), URLSessionTransport()]
    for transport in transports {
      let refused = TransportRequest(method: .get, url: server.baseURL, headers: headers)
      await #expect(throws: URLError(.badURL)) {
        _ = try await transport.send(refused, maximumBodySize: 1 << 20)
      }
      await #expect(throws: URLError(.badURL)) {
        _ = try await transport.stream(refused, maximumBodySize: 1 << 20)
      }
      let fine = try await transport.send(
        TransportRequest(method: .get, url: server.baseURL, headers: ["X-Token": "a\tb"]),
        maximumBodySize: 1 << 20)
      #expect(fine.statusCode == 200)
    }
    #expect(server.requests.count == 2)
  }

  // MARK: Found by a second probe of the transport (session 24)

  @Test func zlibsChecksumIsCheckedWhenItIsThere() throws {
    let content = Array(#"{"id": 7}"#.utf8)
    let good: [UInt8] = [
      0x78, 0x9C, 0xAB, 0x56, 0xCA, 0x4C, 0x51, 0xB2, 0x52, 0x30, 0xAF, 0x05, 0x00, 0x0D, 0x80,
      0x02, 0x9B,
    ]
    #expect(try Inflate.inflateZlib(good, limit: 1 << 20) == content)
    #expect(Inflate.adler32(content) == 0x0D80_029B)
    var corrupt = good
    corrupt[corrupt.count - 1] = 0x64
    #expect(throws: Inflate.Failure.invalid) { try Inflate.inflateZlib(corrupt, limit: 1 << 20) }
    // Without its checksum the stream is accepted, as zlib in libcurl accepts it.
    #expect(try Inflate.inflateZlib(Array(good.dropLast(4)), limit: 1 << 20) == content)
    // Adler-32's sums wrap past 5,552 bytes: a long content's checksum is zlib's.
    #expect(Inflate.adler32([UInt8](repeating: 0xFF, count: 100_000)) == 0x149A_302C)
  }

  @Test func gzipsReservedFlagsAndHeaderChecksumAreChecked() throws {
    let content = Array(#"{"id": 7}"#.utf8)
    let member = Gzip.stored(content)
    var reserved = member
    reserved[3] |= 0x20
    #expect(throws: Inflate.Failure.invalid) { try Inflate.gunzip(reserved, limit: 1 << 20) }
    // FHCRC: the low half of the CRC-32 of the header's ten bytes, after them.
    var header = Array(member[..<10])
    header[3] |= 0x02
    let crc = Inflate.crc32(header[...]) & 0xFFFF
    let withCRC = header + [UInt8(crc & 0xFF), UInt8(crc >> 8)] + member[10...]
    #expect(try Inflate.gunzip(withCRC, limit: 1 << 20) == content)
    var wrongCRC = withCRC
    wrongCRC[10] ^= 0xFF
    #expect(throws: Inflate.Failure.invalid) { try Inflate.gunzip(wrongCRC, limit: 1 << 20) }
  }

  @Test func atMostFiveContentCodings() throws {
    // Each layer may cost the limit's worth of work: 200 stored layers around 8 MiB took a
    // minute of CPU for a 32 KB body.
    let content = Array(#"{"id": 7}"#.utf8)
    var layered = content
    for _ in 0..<6 { layered = Gzip.stored(layered) }
    #expect(
      throws: Inflate.Failure.invalid,
      performing: {
        try Inflate.decode(layered, codings: Array(repeating: "gzip", count: 6), limit: 1 << 20)
      })
    let five = try Inflate.decode(
      Array(layered.dropFirst(0)), codings: Array(repeating: "gzip", count: 5), limit: 1 << 20)
    #expect(five == Gzip.stored(content))
  }

  @Test(.timeLimit(.minutes(1)))
  func blankLinesBeforeInterimResponsesCountTowardsTheHeadLimit() async throws {
    // 32 interim responses each after 10,000 blank lines: 640 KB of head, past 256 KiB.
    let interim = String(repeating: "\r\n", count: 10_000) + "HTTP/1.1 100 Continue\r\n\r\n"
    let server = try LoopbackServer { _ in
      .raw(String(repeating: interim, count: 32) + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}")
    }
    defer { server.stop() }
    let error = await #expect(throws: URLError.self) {
      _ = try await SocketTransport().send(
        TransportRequest(method: .get, url: server.baseURL), maximumBodySize: 1 << 20)
    }
    #expect(error?.code == .badServerResponse)
    #expect(
      error?.localizedDescription.hasPrefix(
        "the server's response is malformed: a line of the response head longer than") == true,
      "\(String(describing: error?.localizedDescription))")
  }

  @Test func theLookAheadReadsChunkSizesWithTheReadersGrammar() {
    // One grammar serves the reading and the look-ahead of a streamed body: a line the reader
    // refuses counts as buffered (reading it fails at once), a size counts only with its data.
    let sizes: [(String, Int?)] = [
      ("2", 2), ("0a", 10), ("000000000000000000001F", 31), ("2 \t;x=1", 2), ("2;x", 2),
      ("2 3", nil), ("zz", nil), ("", nil), ("1234567890abcdef", nil), (" 2", nil),
    ]
    for (line, size) in sizes {
      #expect(Exchange.chunkSize(ArraySlice(line.utf8)) == size, "\(line)")
      let withData = ArraySlice((line + "\r\nxy").utf8)
      let withoutData = ArraySlice((line + "\r\n").utf8)
      #expect(Exchange.chunkIsBuffered(withData) == (size != 0), "\(line)")
      #expect(Exchange.chunkIsBuffered(withoutData) == (size == nil), "\(line)")
    }
    #expect(Exchange.chunkIsBuffered(ArraySlice("0\r\n\r\n".utf8)))
    #expect(!Exchange.chunkIsBuffered(ArraySlice("2".utf8)))
  }

  @Test(
    .timeLimit(.minutes(1)),
    arguments: [
      "Transfer-Encoding: chunked\r\n\r\n2 3\r\n{}\r\n0\r\n\r\n",
      "Transfer-Encoding: chunked\r\n\r\n2 zz\r\n{}\r\n0\r\n\r\n",
      "Content-Length: 2\u{A0}\r\n\r\n{}", "Content-Length: \u{A0}2\r\n\r\n{}",
      "Transfer-Encoding: chunked\u{A0}\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
    ])
  func sizesAndCodingsAreReadAsHTTPWritesThem(rest: String) async throws {
    // Only spaces and tabs are white space, and only an extension may follow a chunk's size.
    let server = try LoopbackServer { _ in .raw("HTTP/1.1 200 OK\r\n" + rest) }
    defer { server.stop() }
    let error = await #expect(throws: URLError.self) {
      _ = try await SocketTransport().send(
        TransportRequest(method: .get, url: server.baseURL), maximumBodySize: 1 << 20)
    }
    #expect(error?.code == .badServerResponse)
    let reason =
      rest.hasPrefix("Content-Length")
      ? "Content-Length values that disagree or are not numbers"
      : rest.contains("chunked\u{A0}")
        ? "a Transfer-Encoding other than chunked"
        : "a chunk size that is not a hexadecimal number"
    #expect(error?.localizedDescription == "the server's response is malformed: " + reason)
    let fine = try LoopbackServer { _ in
      .raw("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2 \t;x=1\r\n{}\r\n0\r\n\r\n")
    }
    defer { fine.stop() }
    let response = try await SocketTransport().send(
      TransportRequest(method: .get, url: fine.baseURL), maximumBodySize: 1 << 20)
    #expect(response.body == Data("{}".utf8))
  }

  @Test(.timeLimit(.minutes(1)))
  func fieldValuesAreReadAsUTF8LikeURLSessionReadsThem() async throws {
    // A `Location` sent as UTF-8 is followed to its UTF-8 path on both transports.
    let server = try LoopbackServer { request in
      request.path == "/start"
        ? .raw(
          "HTTP/1.1 302 Found\r\nLocation: /\u{E9}\r\nX-Name: Zo\u{EB}\r\nContent-Length: 0\r\n\r\n"
        )
        : .json(#"{"id": 1}"#)
    }
    defer { server.stop() }
    let transports: [any HTTPTransport] = [SocketTransport(), URLSessionTransport()]
    for transport in transports {
      let manager = ObjectManager(baseURL: server.baseURL, transport: transport, limits: .loopback)
      _ = try await manager.send(.get, "/start")
    }
    #expect(server.requests.map(\.path) == ["/start", "/%C3%A9", "/start", "/%C3%A9"])
    let head = try await SocketTransport().send(
      TransportRequest(method: .get, url: server.baseURL.appending(path: "start")),
      maximumBodySize: 1 << 20)
    #expect(head.headers["X-Name"] == "Zo\u{EB}")
  }

  @Test(.timeLimit(.minutes(1)))
  func aBodyOfTinyChunksStreamsInFewReads() async throws {
    // Each read of a streamed body runs on a thread of its own: 100,000 chunks of one byte took
    // 3.5 s of CPU read one by one. What already arrived is taken together.
    let count = 100_000
    let chunks = String(repeating: "1\r\nx\r\n", count: count)
    let server = try LoopbackServer { _ in
      .raw("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks + "0\r\n\r\n")
    }
    defer { server.stop() }
    let response = try await SocketTransport().stream(
      TransportRequest(method: .get, url: server.baseURL), maximumBodySize: 1 << 20)
    var reads = 0
    var body = Data()
    for try await chunk in response.body {
      reads += 1
      body += chunk
    }
    #expect(body == Data(repeating: UInt8(ascii: "x"), count: count))
    #expect(reads < count / 100, "\(reads) reads")
  }

  @Test(
    .timeLimit(.minutes(1)),
    arguments: ["5\r\nhello\r\n", "5\r\nhello\r\n2\r\n", "5\r\nhello\r\n0\r\n"])
  func aPausedChunkedStreamDeliversWhatArrived(sent: String) async throws {
    // The server sends a chunk (and maybe the start of the next) and waits: what arrived is
    // delivered at once, not held while the next read waits for the network.
    let release = StreamingTests.Counter()
    let server = try LoopbackServer { _ in
      LoopbackServer.Response(
        headers: ["Transfer-Encoding": "chunked"], length: .none,
        stream: { writer in
          _ = writer.write(Array(sent.utf8))
          while release.count == 0 { _ = writer.pause(0.01) }
          let rest =
            sent.hasSuffix("2\r\n")
            ? "ab\r\n0\r\n\r\n" : sent.hasSuffix("0\r\n") ? "\r\n" : "0\r\n\r\n"
          _ = writer.write(Array(rest.utf8))
        })
    }
    defer { server.stop() }
    let response = try await SocketTransport().stream(
      TransportRequest(method: .get, url: server.baseURL), maximumBodySize: 1 << 20)
    var iterator = response.body.makeAsyncIterator()
    let first = try await iterator.next()
    #expect(first == Data("hello".utf8))
    release.add(1)
    var rest = Data()
    while let chunk = try await iterator.next() { rest += chunk }
    #expect(rest == Data((sent.hasSuffix("2\r\n") ? "ab" : "").utf8))
  }

  @Test(.timeLimit(.minutes(1)))
  func bytesTakenBeforeAMalformedChunkAreDeliveredFirst() async throws {
    let server = try LoopbackServer { _ in
      .raw("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n2\r\nab\r\nzz\r\n")
    }
    defer { server.stop() }
    let response = try await SocketTransport().stream(
      TransportRequest(method: .get, url: server.baseURL), maximumBodySize: 1 << 20)
    var iterator = response.body.makeAsyncIterator()
    #expect(try await iterator.next() == Data("helloab".utf8))
    let error = await #expect(throws: URLError.self) { _ = try await iterator.next() }
    #expect(error?.code == .badServerResponse)
  }

  /// A malformed response says what was wrong with it, not only "error -1011" (found by a
  /// probe of streamed responses).
  @Test(
    .timeLimit(.minutes(1)),
    arguments: [
      ("HTTP/2 200 OK\r\n\r\n", "a status line that is not HTTP/1.0 or HTTP/1.1"),
      ("HTTP/1.1 999 Odd\r\n\r\n", "the status code 999, outside 100–599"),
      (
        "HTTP/1.1 200 OK\r\nno colon\r\n\r\n",
        "a header line that is not a field name, a colon and a value"
      ),
      ("HTTP/1.1 101 Switching Protocols\r\n\r\n", "101 Switching Protocols"),
      (
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}xx\r\n0\r\n\r\n",
        "a chunk longer than its size"
      ),
    ])
  func aMalformedResponseSaysWhatWasWrong(response: String, reason: String) async throws {
    let server = try LoopbackServer { _ in .raw(response) }
    defer { server.stop() }
    let manager = ObjectManager(
      baseURL: server.baseURL, transport: SocketTransport(), limits: .loopback)
    do {
      _ = try await manager.get("/", mapping: Self.item)
      Issue.record("expected an error")
    } catch {
      #expect(
        "\(error)"
          == "the request failed: the server's response is malformed: \(reason) (URLError -1011)")
    }
  }

  // MARK: Found by a probe of the transport (session 23)

  @Test(.timeLimit(.minutes(1)))
  func theLimitCountsEveryGzipMemberTogether() async throws {
    // Eight members of 1 MiB each: each alone is within the limit, together they are not.
    let body = Array(repeating: Gzip.zeros(count: 1 << 20), count: 8).flatMap { $0 }
    let server = try LoopbackServer { _ in
      LoopbackServer.Response(status: 200, headers: ["Content-Encoding": "gzip"], body: body)
    }
    defer { server.stop() }
    let limits = RequestLimits(maximumResponseSize: 1 << 20, timeout: .seconds(60))
    guard case .responseTooLarge? = await Self.failure(server, limits: limits) else {
      Issue.record("eight members passed the limit")
      return
    }
  }

  @Test(.timeLimit(.minutes(1)))
  func anEmptyCodedBodyIsEmpty() async throws {
    let raws = [
      "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 0\r\n\r\n",
      "HTTP/1.1 304 Not Modified\r\nContent-Encoding: gzip\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Encoding: deflate\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      "HTTP/1.1 200 OK\r\nContent-Encoding: br\r\nContent-Length: 0\r\n\r\n",
    ]
    for raw in raws {
      let server = try LoopbackServer { _ in .raw(raw) }
      defer { server.stop() }
      let response = try await SocketTransport().send(
        TransportRequest(method: .get, url: server.baseURL), maximumBodySize: 1 << 20)
      #expect(response.body.isEmpty, "\(raw.debugDescription)")
    }
    // A HEAD of a coded resource announces a length it does not send.
    let head = try LoopbackServer { _ in
      .raw("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 1234\r\n\r\n")
    }
    defer { head.stop() }
    #expect(try await Self.manager(head).send(.head, "/x").body.isEmpty)
  }

  @Test(.timeLimit(.minutes(1)))
  func aCodingTheTransportCannotReadIsAnError() async throws {
    let server = try LoopbackServer { _ in
      .raw(
        "HTTP/1.1 200 OK\r\nContent-Encoding: br\r\nContent-Length: 4\r\n\r\n\u{1}\u{2}\u{3}\u{4}")
    }
    defer { server.stop() }
    guard case .transport(let error)? = await Self.failure(server) else {
      Issue.record("a br body was returned as it is")
      return
    }
    #expect(error.code == .cannotDecodeContentData)
  }

  @Test(.timeLimit(.minutes(1)))
  func fieldNamesAreReportedAsURLSessionReportsThem() async throws {
    let server = try LoopbackServer { _ in
      .raw(
        "HTTP/1.1 200 OK\r\nETag: \"v1\"\r\ncontent-type: text/plain\r\nx-lower-case: 1\r\n"
          + "www-authenticate: Basic\r\nContent-Length: 0\r\n\r\n")
    }
    defer { server.stop() }
    let response = try await SocketTransport().send(
      TransportRequest(method: .get, url: server.baseURL), maximumBodySize: 1 << 20)
    #expect(
      response.headers.fields.map(\.name) == [
        "Etag", "Content-Type", "x-lower-case", "WWW-Authenticate", "Content-Length",
      ])
  }

  @Test(.timeLimit(.minutes(1)))
  func chunkSizesMayHaveLeadingZeros() async throws {
    let server = try LoopbackServer { _ in
      .raw(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
          + "0000000000000009\r\n{\"id\": 3}\r\n0\r\n\r\n")
    }
    defer { server.stop() }
    #expect(try await Self.manager(server).get("/x", mapping: Self.item) == Item(id: 3))
  }

  /// A server that answers before it read the whole body (here after 64 MiB of 72) and closes:
  /// its answer is the response, not a lost connection.
  @Test(.timeLimit(.minutes(1)))
  func anEarlyAnswerToAnUploadIsTheResponse() async throws {
    let server = try LoopbackServer { _ in .json(#"{"error": "too large"}"#, status: 413) }
    defer { server.stop() }
    let body = RequestBody(data: Data(count: 72 << 20), contentType: "application/octet-stream")
    do {
      _ = try await Self.manager(server).send(.post, "/upload", body: body)
      Issue.record("no error")
    } catch {
      guard case .status(let failure) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(failure.statusCode == 413)
    }
  }

  /// Decoding asks whether the transfer was cancelled every 64 KiB of output, and stops when
  /// it was: a 60 MiB bomb within a 64 MiB limit is not decoded to its end after the task was
  /// cancelled. (Asked of the decoder itself: a test that cancels a transfer after a delay
  /// depends on how busy the machine is.)
  @Test func decodingStopsWhenTheTransferIsCancelled() throws {
    let bomb = Gzip.zeros(count: 60 << 20)
    var asked = 0
    #expect(throws: Inflate.Failure.cancelled) {
      _ = try Inflate.decode(
        bomb, codings: ["gzip"], limit: 64 << 20,
        cancelled: {
          asked += 1
          return asked > 4
        })
    }
    // Four checks passed (the block's start, then each 64 KiB): about 256 KiB was decoded.
    #expect(asked == 5)
    // Not cancelled, a smaller one decodes to its end, asked once per 64 KiB.
    var checks = 0
    let whole = try Inflate.decode(
      Gzip.zeros(count: 4 << 20), codings: ["gzip"], limit: 64 << 20,
      cancelled: {
        checks += 1
        return false
      })
    #expect(whole.count == 4 << 20 && checks > 60)
  }

  /// A streamed body is not limited by its announced length: the limit bounds what a transport
  /// holds ahead of the reader, and this one holds nothing.
  @Test(.timeLimit(.minutes(1)))
  func aStreamedBodyLongerThanTheLimitIsRead() async throws {
    let text = "[" + (0..<40_000).map(StreamingTests.event).joined(separator: ",") + "]"
    let server = try LoopbackServer { _ in .json(text) }
    defer { server.stop() }
    let manager = ObjectManager(
      baseURL: server.baseURL, transport: SocketTransport(),
      limits: RequestLimits(maximumResponseSize: 256 << 10, timeout: .seconds(60)))
    var count = 0
    for try await event in try await manager.elements("/e", mapping: StreamingTests.eventMapping) {
      #expect(event.id == count)
      count += 1
    }
    #expect(count == 40_000 && text.utf8.count > 1 << 20)
    // Loaded whole, the same body is over the limit.
    await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.getCollection("/e", mapping: StreamingTests.eventMapping)
    }
  }
}
