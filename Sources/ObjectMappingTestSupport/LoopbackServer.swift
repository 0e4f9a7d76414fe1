import Foundation
import ObjectMapping

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1 for tests of code that uses the object manager (this
/// package's own, and yours): a test starts it on a port the system picks, gives it a handler,
/// reads what it received, and stops it.
///
/// ```swift
/// let server = try LoopbackServer { request in
///   request.method == "POST" ? .json(#"{"id": 42}"#, status: 201) : .echo(request)
/// }
/// defer { server.stop() }
/// let manager = ObjectManager(baseURL: server.baseURL, router: router)
/// _ = try await manager.post(draft, mapping: articleMapping)
/// server.requests.last?.bodyText     // what the manager sent
/// ```
///
/// Each connection carries one request (`Connection: close`). The handler sees the method, the
/// target, the header fields and the body bytes, and answers with a ``Response``; responses can
/// also misbehave the ways servers do: arrive late (`delay`), stop short of their
/// `Content-Length` (`truncatedTo`), announce a wrong length or none (`length`), redirect
/// (``Response/redirect(to:status:)``), come gzip-compressed (``Gzip``), carry huge header
/// fields (`additionalHeaders`), or stream a body slowly or without end (`stream`, which learns
/// when the client hangs up). ``abandonedRequests`` counts the responses the client walked away
/// from.
///
/// Stopping is deterministic: ``stop()`` closes the listening socket, ends delays and streams
/// early and waits for the threads, so `swift test` never waits on it. Reads time out after
/// five seconds, so a client that never sends cannot hold a thread.
public final class LoopbackServer: @unchecked Sendable {
  // @unchecked: the mutable state (`stopping`, `active`, `received`, `abandoned`) is only
  // touched under `lock`; the socket and the handler are set once in `init`.

  /// A request as the server read it.
  public struct Request: Sendable, Equatable {
    /// `GET`, `POST`, …
    public var method: String
    /// The request target: the path and its query, as sent (`/articles?page=2`).
    public var target: String
    /// Header fields, names lowercased (a repeated name keeps its last value; see ``fields``).
    public var headers: [String: String]
    /// Every header field as sent, in order, names as written.
    public var fields: [Field]
    /// The body bytes.
    public var body: [UInt8]

    /// One header field as sent.
    public struct Field: Sendable, Equatable {
      /// The name, as written.
      public var name: String
      /// The value.
      public var value: String
    }

    /// The path without the query.
    public var path: String { String(target.prefix { $0 != "?" }) }
    /// The body as UTF-8 text.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
  }

  /// How a response announces its body's length.
  public enum Length: Sendable, Equatable {
    /// `Content-Length` of the body (or of `truncatedTo`'s whole body).
    case automatic
    /// No `Content-Length`: the body ends when the server closes the connection.
    case none
    /// This `Content-Length`, whatever the body is.
    case announced(Int)
  }

  /// Writes a streamed body; each call reports whether the client is still reading.
  public struct BodyWriter: Sendable {
    let send: @Sendable ([UInt8]) -> Bool
    let wait: @Sendable (Double) -> Bool

    /// Sends `bytes` now.
    ///
    /// - Parameter bytes: The next part of the body.
    /// - Returns: `false` when the client closed the connection (or the server is stopping):
    ///   stop writing.
    public func write(_ bytes: [UInt8]) -> Bool { send(bytes) }

    /// Waits `seconds` (a slow server).
    ///
    /// - Parameter seconds: The pause.
    /// - Returns: `false` when the client closed the connection meanwhile (or the server is
    ///   stopping).
    public func pause(_ seconds: Double) -> Bool { wait(seconds) }
  }

  /// A response the handler returns.
  public struct Response: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields (`Content-Length` and `Connection` are added unless ``length`` says
    /// otherwise).
    public var headers: [String: String]
    /// More header fields, in order; names may repeat (huge or many fields).
    public var additionalHeaders: [(name: String, value: String)]
    /// The body.
    public var body: [UInt8]
    /// Seconds to wait before answering.
    public var delay: Double
    /// Sends only this many body bytes (then closes), while `Content-Length` says the whole.
    public var truncatedTo: Int?
    /// How the body's length is announced.
    public var length: Length
    /// Writes the body after the head instead of ``body``, for slow, endless or huge bodies;
    /// the connection closes when it returns.
    public var stream: (@Sendable (BodyWriter) -> Void)?
    /// Bytes sent as the whole response instead of a head and body made from the other
    /// properties (a head cut short, a malformed status line, odd framing); the connection then
    /// closes.
    public var raw: [UInt8]?

    /// A response.
    ///
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: Header fields.
    ///   - body: The body.
    ///   - delay: Seconds to wait before answering.
    ///   - truncatedTo: The number of body bytes actually sent, when fewer than announced.
    ///   - length: How the length is announced.
    ///   - additionalHeaders: More header fields, in order.
    ///   - stream: Writes the body incrementally instead of `body`.
    public init(
      status: Int = 200, headers: [String: String] = [:], body: [UInt8] = [], delay: Double = 0,
      truncatedTo: Int? = nil, length: Length = .automatic,
      additionalHeaders: [(name: String, value: String)] = [],
      stream: (@Sendable (BodyWriter) -> Void)? = nil
    ) {
      self.status = status
      self.headers = headers
      self.body = body
      self.delay = delay
      self.truncatedTo = truncatedTo
      self.length = length
      self.additionalHeaders = additionalHeaders
      self.stream = stream
    }

    /// A JSON response.
    ///
    /// - Parameters:
    ///   - text: The JSON text.
    ///   - status: The status code.
    ///   - contentType: The `Content-Type` (`application/json` by default).
    /// - Returns: The response.
    public static func json(_ text: String, status: Int = 200, contentType: String? = nil)
      -> Response
    {
      Response(
        status: status, headers: ["Content-Type": contentType ?? "application/json"],
        body: Array(text.utf8))
    }

    /// `bytes` as the whole response, status line and all, then the connection closes.
    ///
    /// - Parameter bytes: What the server writes.
    /// - Returns: The response.
    public static func raw(_ bytes: [UInt8]) -> Response {
      var response = Response()
      response.raw = bytes
      return response
    }

    /// `text`'s UTF-8 as the whole response, as the byte form writes it.
    ///
    /// - Parameter text: What the server writes (`"HTTP/1.1 200 OK\r\n"`).
    /// - Returns: The response.
    public static func raw(_ text: String) -> Response {
      raw(Array(text.utf8))
    }

    /// A redirect to `location`.
    ///
    /// - Parameters:
    ///   - location: The `Location` field (absolute or relative).
    ///   - status: 301, 302, 303, 307 or 308.
    /// - Returns: The response.
    public static func redirect(to location: String, status: Int = 302) -> Response {
      Response(status: status, headers: ["Location": location])
    }

    /// A response that echoes the request: `{"method", "target", "contentType", "accept",
    /// "custom", "authorization", "body"}`.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - status: The status code.
    /// - Returns: The response.
    public static func echo(_ request: Request, status: Int = 200) -> Response {
      let echo: Node = [
        "method": .string(request.method), "target": .string(request.target),
        "contentType": .string(request.headers["content-type"] ?? ""),
        "accept": .string(request.headers["accept"] ?? ""),
        "custom": .string(request.headers["x-custom"] ?? ""),
        "authorization": .string(request.headers["authorization"] ?? ""),
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
  /// The connections being served, so ``stop()`` can end them.
  private var connections: Set<Int32> = []
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

  /// Stops accepting, ends delayed and streamed responses early, shuts the connections being
  /// served down and waits (up to five seconds) for their threads. Safe to call more than once.
  public func stop() {
    let first = lock.withLock {
      defer { stopping = true }
      return !stopping
    }
    guard first else { return }
    _ = acceptLoopEnded.wait(timeout: .now() + 5)
    close(listener)
    // A thread blocked sending to a client that stopped reading returns at once.
    lock.withLock {
      for connection in connections { shutdown(connection, Int32(SHUT_RDWR)) }
    }
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
      lock.withLock {
        active += 1
        connections.insert(connection)
      }
      let thread = Thread { [self] in
        serve(connection)
        lock.withLock {
          connections.remove(connection)
          close(connection)
          active -= 1
        }
      }
      thread.start()
    }
  }

  private func serve(_ connection: Int32) {
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(
      connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    // A client that stops reading cannot hold a thread either.
    setsockopt(
      connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    guard let request = readRequest(connection) else { return }
    lock.withLock { received.append(request) }
    let response = handler(request)
    if response.stream != nil {
      // A streamed body's reader may pause on purpose (backpressure) and, on a loaded
      // two-core machine, be starved of a core for longer than 5 seconds: such a write timed
      // out and ended the body early now and then. A streamed body's writes wait as long as a
      // request may take (60 seconds); `stop()` still ends them.
      var writeTimeout = timeval(tv_sec: 60, tv_usec: 0)
      setsockopt(
        connection, SOL_SOCKET, SO_SNDTIMEO, &writeTimeout,
        socklen_t(MemoryLayout<timeval>.size))
    }
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

  /// Sends all of `bytes`; `false` when the client is gone.
  private func sendAll(_ bytes: [UInt8], to connection: Int32) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes.withUnsafeBytes { buffer in
        send(
          connection, buffer.baseAddress.map { $0 + offset }, buffer.count - offset, Self.noSignal)
      }
      guard sent > 0 else { return false }
      offset += sent
    }
    return true
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
    var fields: [Request.Field] = []
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      headers[line[..<colon].lowercased()] = value
      fields.append(Request.Field(name: String(line[..<colon]), value: value))
    }
    if headers["expect"]?.lowercased() == "100-continue" {
      _ = sendAll(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), to: connection)
    }
    let length = min(Int(headers["content-length"] ?? "0") ?? 0, 64 << 20)
    var body = Array(bytes[(headEnd + 4)...])
    while body.count < length {
      let count = recv(connection, &chunk, min(chunk.count, length - body.count), 0)
      guard count > 0 else { return nil }
      body += chunk[0..<count]
    }
    return Request(
      method: String(requestLine[0]), target: String(requestLine[1]), headers: headers,
      fields: fields, body: body)
  }

  private func write(_ response: Response, to connection: Int32) {
    if let raw = response.raw {
      _ = sendAll(raw, to: connection)
      return
    }
    var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
    switch response.length {
    case .automatic: head += "Content-Length: \(response.body.count)\r\n"
    case .none: break
    case .announced(let length): head += "Content-Length: \(length)\r\n"
    }
    head += "Connection: close\r\n"
    for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) {
      head += "\(name): \(value)\r\n"
    }
    for (name, value) in response.additionalHeaders {
      head += "\(name): \(value)\r\n"
    }
    head += "\r\n"
    guard let stream = response.stream else {
      let sentBody = response.truncatedTo.map { Array(response.body.prefix($0)) } ?? response.body
      _ = sendAll(Array(head.utf8) + sentBody, to: connection)
      return
    }
    guard sendAll(Array(head.utf8), to: connection) else {
      lock.withLock { abandoned += 1 }
      return
    }
    let gone = Flag()
    let writer = BodyWriter(
      send: { [self] bytes in
        guard !gone.isSet, !isStopping else { return false }
        guard sendAll(bytes, to: connection) else {
          gone.set()
          lock.withLock { abandoned += 1 }
          return false
        }
        return true
      },
      wait: { [self] seconds in
        var waited = 0.0
        while waited < seconds {
          guard !gone.isSet, !isStopping else { return false }
          if Self.peerClosed(connection) {
            gone.set()
            lock.withLock { abandoned += 1 }
            return false
          }
          usleep(5_000)
          waited += 0.005
        }
        return true
      })
    stream(writer)
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
    case 301: "Moved Permanently"
    case 302: "Found"
    case 303: "See Other"
    case 307: "Temporary Redirect"
    case 308: "Permanent Redirect"
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

/// A flag set once, read from several threads.
private final class Flag: @unchecked Sendable {
  // @unchecked: `value` is only touched under `lock`.
  private let lock = NSLock()
  private var value = false

  var isSet: Bool { lock.withLock { value } }

  func set() { lock.withLock { value = true } }
}
