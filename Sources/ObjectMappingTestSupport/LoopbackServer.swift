import Foundation
import ObjectMapping

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1 for the object manager's tests and the showcase: the
/// test starts it (on a port the system picks), gives it a handler, and stops it.
///
/// Each connection carries one request (`Connection: close`). The handler sees the method, the
/// path with its query, the headers and the body bytes, and answers with a status, headers and a
/// body; a response can be delayed (for cancellation and timeouts) or cut short (a body shorter
/// than its `Content-Length`). Stopping is deterministic: ``stop()`` closes the listening socket,
/// ends delays early and waits for the threads, so `swift test` never waits on it. Reads time out
/// after five seconds, so a client that never sends cannot hold a thread.
public final class LoopbackServer: @unchecked Sendable {
  // @unchecked: the mutable state (`stopping`, `active`, `received`, `abandoned`) is only
  // touched under
  // `lock`; the socket and the handler are set once in `init`.

  /// A request as the server read it.
  public struct Request: Sendable, Equatable {
    /// `GET`, `POST`, …
    public var method: String
    /// The request target: the path and its query (`/articles?page=2`).
    public var target: String
    /// Header fields, names lowercased.
    public var headers: [String: String]
    /// The body bytes.
    public var body: [UInt8]

    /// The path without the query.
    public var path: String { String(target.prefix { $0 != "?" }) }
    /// The body as UTF-8 text.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
  }

  /// A response the handler returns.
  public struct Response: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: [UInt8]
    /// Seconds to wait before answering.
    public var delay: Double
    /// Sends only this many body bytes (then closes), while `Content-Length` says the whole.
    public var truncatedTo: Int?

    public init(
      status: Int = 200, headers: [String: String] = [:], body: [UInt8] = [], delay: Double = 0,
      truncatedTo: Int? = nil
    ) {
      self.status = status
      self.headers = headers
      self.body = body
      self.delay = delay
      self.truncatedTo = truncatedTo
    }

    /// A JSON response.
    public static func json(_ text: String, status: Int = 200, contentType: String? = nil)
      -> Response
    {
      Response(
        status: status, headers: ["Content-Type": contentType ?? "application/json"],
        body: Array(text.utf8))
    }

    /// A response that echoes the request: `{"method", "target", "contentType", "body"}`.
    public static func echo(_ request: Request, status: Int = 200) -> Response {
      let echo: Node = [
        "method": .string(request.method), "target": .string(request.target),
        "contentType": .string(request.headers["content-type"] ?? ""),
        "accept": .string(request.headers["accept"] ?? ""),
        "custom": .string(request.headers["x-custom"] ?? ""),
        "body": .string(request.bodyText),
      ]
      return .json((try? echo.jsonString()) ?? "{}", status: status)
    }
  }

  /// The port the server listens on.
  public let port: UInt16
  /// `http://127.0.0.1:<port>/`.
  public var baseURL: URL {
    URL(string: "http://127.0.0.1:\(port)/") ?? URL(fileURLWithPath: "/")
  }

  private let listener: Int32
  private let handler: @Sendable (Request) -> Response
  private let lock = NSLock()
  private var stopping = false
  private var active = 0
  private var received: [Request] = []
  private var abandoned = 0
  private let acceptLoopEnded = DispatchSemaphore(value: 0)

  /// Starts a server answering with `handler`.
  ///
  /// - Throws: `POSIXError` when no socket can be opened on 127.0.0.1.
  public init(handler: @escaping @Sendable (Request) -> Response) throws {
    self.handler = handler
    #if canImport(Darwin)
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #else
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #endif
    guard fd >= 0 else { throw POSIXError(.EIO) }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(fd, 64) == 0 else {
      close(fd)
      throw POSIXError(.EADDRINUSE)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard named == 0 else {
      close(fd)
      throw POSIXError(.EIO)
    }
    listener = fd
    port = UInt16(bigEndian: address.sin_port)
    let thread = Thread { [self] in acceptLoop() }
    thread.start()
  }

  deinit {
    stop()
  }

  /// The requests received so far, in order.
  public var requests: [Request] {
    lock.withLock { received }
  }

  /// How many delayed responses were never sent because the client closed the connection
  /// first (a cancelled request, a client timeout).
  public var abandonedRequests: Int {
    lock.withLock { abandoned }
  }

  /// Whether the client closed `connection` (it is readable and has no more bytes).
  private static func peerClosed(_ connection: Int32) -> Bool {
    var descriptor = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
    guard poll(&descriptor, 1, 0) > 0 else { return false }
    var byte: UInt8 = 0
    return recv(connection, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)) <= 0
  }

  /// Stops accepting, ends delayed responses early and waits (up to five seconds) for the
  /// connections being served. Safe to call more than once.
  public func stop() {
    let first = lock.withLock {
      defer { stopping = true }
      return !stopping
    }
    guard first else { return }
    _ = acceptLoopEnded.wait(timeout: .now() + 5)
    close(listener)
    let deadline = Date().addingTimeInterval(5)
    while lock.withLock({ active }) > 0, Date() < deadline { usleep(2_000) }
  }

  private var isStopping: Bool { lock.withLock { stopping } }

  private func acceptLoop() {
    defer { acceptLoopEnded.signal() }
    while !isStopping {
      var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, 20) > 0 else { continue }
      let connection = accept(listener, nil, nil)
      guard connection >= 0 else { continue }
      lock.withLock { active += 1 }
      let thread = Thread { [self] in
        serve(connection)
        close(connection)
        lock.withLock { active -= 1 }
      }
      thread.start()
    }
  }

  private func serve(_ connection: Int32) {
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(
      connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    guard let request = readRequest(connection) else { return }
    lock.withLock { received.append(request) }
    let response = handler(request)
    var waited = 0.0
    while waited < response.delay, !isStopping {
      usleep(5_000)
      waited += 0.005
      if Self.peerClosed(connection) {
        lock.withLock { abandoned += 1 }
        return
      }
    }
    guard !isStopping || response.delay == 0 else { return }
    write(response, to: connection)
  }

  /// Reads the head and, by `Content-Length`, the body; `nil` when the client sent nothing
  /// readable.
  private func readRequest(_ connection: Int32) -> Request? {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16_384)
    let separator: [UInt8] = Array("\r\n\r\n".utf8)
    var headEnd: Int?
    while headEnd == nil {
      let count = recv(connection, &chunk, chunk.count, 0)
      guard count > 0 else { return nil }
      bytes += chunk[0..<count]
      headEnd = Self.find(separator, in: bytes)
      if bytes.count > 1 << 20 { return nil }
    }
    guard let headEnd else { return nil }
    let head = String(decoding: bytes[0..<headEnd], as: UTF8.self)
    var lines = head.components(separatedBy: "\r\n")
    let requestLine = lines.removeFirst().split(separator: " ")
    guard requestLine.count >= 2 else { return nil }
    var headers: [String: String] = [:]
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] =
        line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    let length = Int(headers["content-length"] ?? "0") ?? 0
    var body = Array(bytes[(headEnd + 4)...])
    while body.count < length {
      let count = recv(connection, &chunk, min(chunk.count, length - body.count), 0)
      guard count > 0 else { return nil }
      body += chunk[0..<count]
    }
    return Request(
      method: String(requestLine[0]), target: String(requestLine[1]), headers: headers,
      body: body)
  }

  private func write(_ response: Response, to connection: Int32) {
    var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
    head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n"
    for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) {
      head += "\(name): \(value)\r\n"
    }
    head += "\r\n"
    let sentBody = response.truncatedTo.map { Array(response.body.prefix($0)) } ?? response.body
    var bytes = Array(head.utf8) + sentBody
    var offset = 0
    while offset < bytes.count {
      let sent = bytes.withUnsafeMutableBytes { buffer in
        send(
          connection, buffer.baseAddress.map { $0 + offset }, buffer.count - offset, Self.noSignal)
      }
      guard sent > 0 else { return }
      offset += sent
    }
  }

  #if canImport(Darwin)
    private static let noSignal: Int32 = 0
  #else
    private static let noSignal = Int32(MSG_NOSIGNAL)
  #endif

  private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    for start in 0...(haystack.count - needle.count)
    where haystack[start..<start + needle.count].elementsEqual(needle) {
      return start
    }
    return nil
  }

  private static func reason(_ status: Int) -> String {
    switch status {
    case 200: "OK"
    case 201: "Created"
    case 204: "No Content"
    case 400: "Bad Request"
    case 404: "Not Found"
    case 422: "Unprocessable Entity"
    case 500: "Internal Server Error"
    default: "Status"
    }
  }
}
