import Foundation
import ObjectMapping

/// An HTTP/1.1 client of its own for `http` URLs, on the system's sockets, with
/// ``URLSessionTransport`` for every other URL (`https`): the object manager's default transport
/// on Linux.
///
/// FoundationNetworking, which serves `URLSession` on Linux, stops the process on some server
/// responses before any delegate sees them: a `Content-Length` of 2^63 − 1, a connection closed
/// in the middle of the response's header fields, a redirect to a protocol-relative URL whose
/// host it cannot rebuild. Here each is a `URLError`. What it does:
/// - one connection per request (`Connection: close`), connected to each address the host
///   name resolves to in turn;
/// - the request's header fields as given, `Host`, `Content-Length` for a body, `Accept-Encoding:
///   gzip, deflate`, and `Authorization: Basic …` from credentials in the URL (as `URLSession`
///   sends them) unless the request has its own;
/// - a response head of at most ``maximumHeadSize`` bytes (field names are tokens, no obsolete
///   line folding; `1xx` interim responses are skipped, at most 32 of them); a body framed by
///   `Transfer-Encoding: chunked`, by one `Content-Length` (repeated values must agree), or by the
///   end of the connection; `gzip`, `x-gzip` and `deflate` bodies decoded, the size limit
///   counted after decoding;
/// - `.timedOut` after ``idleTimeout`` without data, and `.cancelled` within 50 ms of the task's
///   cancellation (the manager's deadline), the connection closed.
///
/// No redirect is followed (the manager follows them), nothing is cached, no cookie is kept or
/// sent, and no proxy is used (`http_proxy` is not read: give a manager that needs one a
/// ``URLSessionTransport``). Streamed bodies (``stream(_:maximumBodySize:)``) are read from the network only as
/// fast as they are taken; a coded (`gzip`) body is decoded whole, within the limit, before its
/// first chunk. Blocking socket calls run on a thread of their own per transfer, never on the
/// tasks' cooperative threads or dispatch's pool.
public final class SocketTransport: HTTPTransport {
  /// The transport of URLs other than `http` (`https`).
  public let fallback: any HTTPTransport
  /// How long a transfer may go without receiving data (and a connection may take).
  public let idleTimeout: Duration
  /// The most bytes a response's head (status line and header fields, with its interim `1xx`
  /// responses) may have.
  public let maximumHeadSize: Int

  /// A transport.
  ///
  /// - Parameters:
  ///   - fallback: The transport of URLs other than `http`.
  ///   - idleTimeout: How long a transfer may go without data.
  ///   - maximumHeadSize: The most bytes of a response's head.
  public init(
    fallback: any HTTPTransport = URLSessionTransport(), idleTimeout: Duration = .seconds(60),
    maximumHeadSize: Int = 256 * 1024
  ) {
    self.fallback = fallback
    self.idleTimeout = idleTimeout
    self.maximumHeadSize = maximumHeadSize
  }

  /// Sends `request` and returns the response with its whole body.
  ///
  /// - Parameters:
  ///   - request: The method, URL, header fields and body.
  ///   - maximumBodySize: The most body bytes to accept, counted after decoding.
  /// - Returns: The status, header fields, body and URL.
  /// - Throws: `URLError`: `.dataLengthExceedsMaximum` past the limit (or when the response
  ///   announces more), `.cancelled`, `.timedOut`, `.badServerResponse` for a response that is
  ///   not HTTP/1.x, `.networkConnectionLost` for one cut short, `.cannotDecodeContentData`
  ///   for a coded body that does not decode, `.cannotConnectToHost`, `.cannotFindHost`.
  public func send(_ request: TransportRequest, maximumBodySize: Int) async throws(URLError)
    -> TransportResponse
  {
    guard Self.handles(request.url) else {
      return try await fallback.send(request, maximumBodySize: maximumBodySize)
    }
    let exchange = Exchange(request, transport: self)
    return try await exchange.run { exchange throws(URLError) in
      let head = try exchange.openAndReadHead(maximumBodySize: maximumBodySize)
      let body = try exchange.wholeBody(of: head, maximumBodySize: maximumBodySize)
      return TransportResponse(
        statusCode: head.statusCode, headers: head.headers, body: Data(body), url: request.url)
    }
  }

  /// Sends `request` and returns the response once its head arrived, with its body read from
  /// the network as it is taken.
  ///
  /// - Parameters:
  ///   - request: The method, URL, header fields and body.
  ///   - maximumBodySize: For a coded (`gzip`) body, the most bytes it may decode to; a plain
  ///     body streams without a limit of its own (the reader bounds each element).
  /// - Returns: The status, header fields, URL and body.
  /// - Throws: `URLError`, as ``send(_:maximumBodySize:)`` does.
  public func stream(_ request: TransportRequest, maximumBodySize: Int) async throws(URLError)
    -> StreamedTransportResponse
  {
    guard Self.handles(request.url) else {
      return try await fallback.stream(request, maximumBodySize: maximumBodySize)
    }
    let exchange = Exchange(request, transport: self)
    // A plain body streams whatever its announced length: the limit bounds what is held, and
    // this transport holds nothing ahead of the reader.
    let head = try await exchange.run { exchange throws(URLError) in
      try exchange.openAndReadHead(maximumBodySize: .max)
    }
    let body: TransportBody
    if head.codings.isEmpty {
      body = TransportBody(
        next: { () throws(URLError) in
          try await exchange.run { exchange throws(URLError) in
            try exchange.nextStreamedBytes(of: head, maximum: 64 * 1024).map { Data($0) }
          }
        },
        close: { exchange.cancellation.cancel() })
    } else {
      // A coded body is decoded whole (within the limit), then delivered in one chunk.
      let decoded = try await exchange.run { exchange throws(URLError) in
        try exchange.wholeBody(of: head, maximumBodySize: maximumBodySize)
      }
      body = TransportBody(Data(decoded))
    }
    return StreamedTransportResponse(
      statusCode: head.statusCode, headers: head.headers, url: request.url, body: body)
  }

  /// The most coded bytes held before decoding when the limit is smaller: a coded body may be
  /// larger than what it decodes to.
  static let codedBodyLimit = 1 << 20

  /// Whether the transport sends `url` itself: `http` with a host.
  static func handles(_ url: URL) -> Bool {
    guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
      return false
    }
    return components.scheme?.lowercased() == "http" && !(components.host ?? "").isEmpty
  }

  static func decode(
    _ body: [UInt8], _ codings: [String], limit: Int, cancellation: SocketCancellation
  ) throws(URLError) -> [UInt8] {
    guard !codings.isEmpty, !body.isEmpty else { return body }
    do {
      return try Inflate.decode(
        body, codings: codings, limit: limit, cancelled: { cancellation.isCancelled })
    } catch {
      switch error {
      case .tooLarge: throw URLError(.dataLengthExceedsMaximum)
      case .cancelled: throw URLError(.cancelled)
      case .invalid: throw URLError(.cannotDecodeContentData)
      }
    }
  }
}

/// A response's head, as read.
struct ResponseHead: Sendable {
  var statusCode: Int
  var headers: HeaderFields
  /// How the body ends.
  var framing: Framing
  /// The content codings to undo, in the order they were applied (known ones only).
  var codings: [String]

  enum Framing: Sendable {
    case none
    case length(Int)
    case chunked
    case untilClose
  }
}

/// One request and its response on one connection; its blocking calls run on threads of their
/// own, one call at a time.
final class Exchange: Sendable {
  let request: TransportRequest
  let idleTimeout: Duration
  let maximumHeadSize: Int
  let cancellation = SocketCancellation()
  /// The connection, the bytes received and not yet used, and the body's progress.
  private let state = _Locked<State>(State())

  struct State: Sendable {
    var socket: Socket?
    /// Received bytes; those before ``start`` are used.
    var buffer: [UInt8] = []
    var start = 0
    var remaining = 0
    var chunkPhase = ChunkPhase.size
    var ended = false
    /// An error met while taking bytes that had already arrived, after others were taken in
    /// the same read: thrown by the next read, so that those bytes are delivered first.
    var deferredError: URLError?

    /// Marks the bytes before `end` used; drops them once they are half the buffer, so that
    /// each byte is moved at most once on average (a head of many short lines stays linear).
    mutating func consume(upTo end: Int) {
      start = end
      if start == buffer.count {
        buffer.removeAll(keepingCapacity: true)
        start = 0
      } else if start > buffer.count / 2 {
        buffer.removeFirst(start)
        start = 0
      }
    }
  }

  enum ChunkPhase: Sendable {
    case size
    case data
    case trailers
  }

  init(_ request: TransportRequest, transport: SocketTransport) {
    self.request = request
    idleTimeout = transport.idleTimeout
    maximumHeadSize = transport.maximumHeadSize
  }

  /// Runs `work` on a thread of its own; the task's cancellation cancels the connection.
  ///
  /// A thread, not a dispatch queue: a blocked transfer holds its thread for as long as the
  /// server makes it wait, and a few hundred of them on dispatch's pool would stall every other
  /// queue of the process.
  func run<Result: Sendable>(_ work: @escaping @Sendable (Exchange) throws(URLError) -> Result)
    async throws(URLError) -> Result
  {
    let outcome: Swift.Result<Result, URLError> = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let thread = Thread {
          do throws(URLError) {
            continuation.resume(returning: .success(try work(self)))
          } catch {
            continuation.resume(returning: .failure(error))
          }
        }
        thread.name = "ObjectMappingClient.SocketTransport"
        thread.start()
      }
    } onCancel: {
      cancellation.cancel()
    }
    if case .failure(let error) = outcome, error.code != .cancelled, Task.isCancelled {
      throw URLError(.cancelled)
    }
    return try outcome.get()
  }

  private var socket: Socket {
    get throws(URLError) {
      guard let socket = state.withLock({ $0.socket }) else { throw URLError(.cancelled) }
      return socket
    }
  }

  // MARK: The request and the head

  /// Connects, writes the request and reads the response's head.
  ///
  /// A request that cannot be written as HTTP/1.1 is `URLError(.badURL)` before anything is
  /// sent: a field name that is not a token, or a value with CR, LF, NUL or another control
  /// character (the manager refuses those first, as ``ObjectManagerError/invalidHeader(name:reason:)``;
  /// this keeps a caller of the transport itself from splitting the request), or a target with
  /// a space or a control character. So is a host that holds one once percent-decoded
  /// (`127.0.0.1%00%0D%0AX:%20y`): the resolver would read it up to the NUL and connect to
  /// `127.0.0.1` while the `Host` field carried the rest, a host other than the one checked and
  /// fields nobody sent. So is a port outside 1…65535, or one no `Int` holds, which
  /// `URLComponents` reads as no port: port 80 is not the one the URL names.
  func openAndReadHead(maximumBodySize: Int) throws(URLError) -> ResponseHead {
    guard let components = URLComponents(url: request.url, resolvingAgainstBaseURL: true),
      var host = components.host, !host.isEmpty,
      !host.holdsSpaceOrControl,
      request.fieldsCanBeWritten,
      !(components.percentEncodedPath + (components.percentEncodedQuery ?? "")).holdsSpaceOrControl
    else { throw URLError(.badURL) }
    if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    guard let port = components.port(default: 80), (1...65_535).contains(port) else {
      throw URLError(.badURL)
    }
    let socket = try Socket.connect(
      host: host, port: port, idleTimeout: idleTimeout, cancellation: cancellation)
    state.withLock { $0.socket = socket }
    do {
      try socket.write(requestBytes(components: components, host: host, port: port))
    } catch  where error.code == .networkConnectionLost {
      // A server may answer before it read the whole body (a `413`) and close: its answer,
      // when it arrived, is the response.
      do {
        return try readHead(maximumBodySize: maximumBodySize)
      } catch {
        throw URLError(.networkConnectionLost)
      }
    }
    return try readHead(maximumBodySize: maximumBodySize)
  }

  /// The request's head and body.
  private func requestBytes(components: URLComponents, host: String, port: Int) -> [UInt8] {
    var target = components.percentEncodedPath
    if target.isEmpty { target = "/" }
    if let query = components.percentEncodedQuery { target += "?" + query }
    let shownHost = host.contains(":") ? "[\(host)]" : host
    var head = "\(request.method.rawValue) \(target) HTTP/1.1\r\n"
    head += "Host: \(shownHost)\(port == 80 ? "" : ":\(port)")\r\n"
    let reserved: Set<String> = ["host", "content-length", "connection", "transfer-encoding"]
    var named: Set<String> = []
    for field in request.headers where !reserved.contains(field.name.lowercased()) {
      head += "\(field.name): \(field.value)\r\n"
      named.insert(field.name.lowercased())
    }
    if !named.contains("authorization"), let user = components.user {
      let credentials = Data("\(user):\(components.password ?? "")".utf8).base64EncodedString()
      head += "Authorization: Basic \(credentials)\r\n"
    }
    if !named.contains("accept-encoding") { head += "Accept-Encoding: gzip, deflate\r\n" }
    let body = request.body.map { [UInt8]($0) }
    if let body {
      head += "Content-Length: \(body.count)\r\n"
    } else if [.post, .put, .patch].contains(request.method) {
      head += "Content-Length: 0\r\n"
    }
    head += "Connection: close\r\n\r\n"
    return Array(head.utf8) + (body ?? [])
  }

  /// Reads heads until one that is not an interim (`1xx`) response.
  private func readHead(maximumBodySize: Int) throws(URLError) -> ResponseHead {
    var used = 0
    for _ in 0..<33 {
      // Every byte counts towards the limit, the blank lines tolerated before each interim
      // response's status line included.
      let (lines, size) = try headLines(limit: maximumHeadSize - used)
      used += size
      let statusCode = try Self.statusCode(lines[0])
      if (100..<200).contains(statusCode) {
        // 101 switches protocols, which was not asked for.
        guard statusCode != 101 else { throw .malformedResponse("101 Switching Protocols") }
        continue
      }
      var headers = HeaderFields()
      for line in lines.dropFirst() {
        let (name, value) = try Self.field(line)
        headers.append(value, for: name)
      }
      let head = try Self.head(
        statusCode: statusCode, headers: headers, method: request.method,
        maximumBodySize: maximumBodySize)
      if case .length(let length) = head.framing { state.withLock { $0.remaining = length } }
      return head
    }
    throw .malformedResponse("more than 32 interim (1xx) responses")
  }

  /// The lines of the next head (its blank line left out), at most `limit` bytes, and the bytes
  /// it took (blank lines before it included).
  private func headLines(limit: Int) throws(URLError) -> (lines: [[UInt8]], size: Int) {
    var lines: [[UInt8]] = []
    var size = 0
    while true {
      let line = try readLine(limit: limit - size, of: "the response head")
      size += line.count + 2
      if line.isEmpty {
        // Blank lines before a status line are tolerated (RFC 9112 section 2.2).
        if lines.isEmpty { continue }
        return (lines, size)
      }
      if !lines.isEmpty, line[0] == 0x20 || line[0] == 0x09 {
        throw .malformedResponse("a header field folded over two lines")
      }
      lines.append(line)
    }
  }

  /// The next line (CRLF or LF ended, without it), at most `limit` bytes of `part` (for the
  /// error).
  private func readLine(limit: Int, of part: String) throws(URLError) -> [UInt8] {
    // How far the line was searched, from the buffer's start: each byte is looked at once.
    var searched = 0
    while true {
      let found: [UInt8]? = state.withLock { state in
        let from = state.start + searched
        guard let end = state.buffer[from...].firstIndex(of: 0x0A) else { return nil }
        var line = Array(state.buffer[state.start..<end])
        state.consume(upTo: end + 1)
        if line.last == 0x0D { line.removeLast() }
        return line
      }
      if let found {
        guard found.count <= limit else { throw .lineTooLong(part, limit: limit) }
        return found
      }
      searched = state.withLock { $0.buffer.count - $0.start }
      guard searched <= limit else { throw .lineTooLong(part, limit: limit) }
      let more = try socket.read(maximum: 16 * 1024)
      guard !more.isEmpty else { throw URLError(.networkConnectionLost) }
      state.withLock { $0.buffer += more }
    }
  }

  /// The status code of a status line (`HTTP/1.1 200 OK`).
  static func statusCode(_ line: [UInt8]) throws(URLError) -> Int {
    let prefix = Array("HTTP/1.".utf8)
    guard line.count >= 12, Array(line[..<7]) == prefix, line[7] == 0x30 || line[7] == 0x31,
      line[8] == 0x20, line.count == 12 || line[12] == 0x20
    else { throw .malformedResponse("a status line that is not HTTP/1.0 or HTTP/1.1") }
    var code = 0
    for byte in line[9..<12] {
      guard (0x30...0x39).contains(byte) else {
        throw .malformedResponse("a status code that is not three digits")
      }
      code = code * 10 + Int(byte - 0x30)
    }
    guard (100...599).contains(code) else {
      throw .malformedResponse("the status code \(code), outside 100–599")
    }
    return code
  }

  /// A header field's name and value (the value's bytes read as UTF-8, or as ISO 8859-1 when
  /// they are not UTF-8, its surrounding white space removed); the name as `URLSession`
  /// reports it.
  static func field(_ line: [UInt8]) throws(URLError) -> (String, String) {
    guard let colon = line.firstIndex(of: 0x3A), colon > 0,
      line[..<colon].allSatisfy(isTokenByte)
    else { throw .malformedResponse("a header line that is not a field name, a colon and a value") }
    var value = line[(colon + 1)...]
    while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
    while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
    guard !value.contains(where: { $0 == 0 || $0 == 0x0D || $0 == 0x0A }) else {
      throw .malformedResponse("a header field value with a NUL or a bare CR")
    }
    // Names as URLSession reports them (`HTTPURLResponse`'s rule, Darwin's too): capitalized
    // (`ETag` → `Etag`) except `X-` names, kept as sent, and `WWW-Authenticate`; so that a
    // mapping's `@metadata.HTTP.response.headers.Etag` reads alike on both transports.
    let sent = String(decoding: line[..<colon], as: UTF8.self)
    let name =
      if sent.hasPrefix("x-") || sent.hasPrefix("X-") {
        sent
      } else if sent.lowercased() == "www-authenticate" {
        "WWW-Authenticate"
      } else {
        sent.capitalized
      }
    // UTF-8 when the bytes are (as URLSession reads them: a `Location: /é` sent as UTF-8 is
    // `/%C3%A9`), ISO 8859-1 otherwise.
    let text =
      String(validating: value, as: UTF8.self)
      ?? String(String.UnicodeScalarView(value.map { Unicode.Scalar($0) }))
    return (name, text)
  }

  /// `text` without the spaces and tabs around it: HTTP's optional white space, not Unicode's
  /// (a no-break space, `0xA0` read as ISO 8859-1, is not white space in a field).
  static func trimmingWhiteSpace(_ text: Substring) -> String {
    let isWhiteSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = text.firstIndex(where: { !isWhiteSpace($0) }),
      let last = text.lastIndex(where: { !isWhiteSpace($0) })
    else { return "" }
    return String(text[first...last])
  }

  private static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
    default: return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
  }

  /// The head of a final response: how its body is framed and coded.
  static func head(
    statusCode: Int, headers: HeaderFields, method: HTTPMethod, maximumBodySize: Int
  ) throws(URLError) -> ResponseHead {
    // Every coding but identity: one the transport cannot decode (`br`) makes a body that is
    // not empty an error, as URLSession's is.
    let codings = headers.values(for: "Content-Encoding")
      .flatMap { $0.split(separator: ",") }
      .map { Self.trimmingWhiteSpace($0).lowercased() }
      .filter { !$0.isEmpty && $0 != "identity" }
    var head = ResponseHead(
      statusCode: statusCode, headers: headers, framing: .untilClose, codings: codings)
    if method == .head || statusCode == 204 || statusCode == 304 {
      head.framing = .none
      return head
    }
    let transferCodings = headers.values(for: "Transfer-Encoding")
      .flatMap { $0.split(separator: ",") }
      .map { Self.trimmingWhiteSpace($0).lowercased() }
      .filter { !$0.isEmpty && $0 != "identity" }
    if !transferCodings.isEmpty {
      // Only chunked is understood; a length beside it is ignored (RFC 9112 section 6.3).
      guard transferCodings == ["chunked"] else {
        throw .malformedResponse("a Transfer-Encoding other than chunked")
      }
      head.framing = .chunked
      return head
    }
    let lengths = headers.values(for: "Content-Length")
      .flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
      .map { Self.trimmingWhiteSpace($0) }
    if let first = lengths.first {
      guard lengths.allSatisfy({ $0 == first }), !first.isEmpty,
        first.utf8.allSatisfy({ (0x30...0x39).contains($0) })
      else { throw .malformedResponse("Content-Length values that disagree or are not numbers") }
      // A length past Int's range, or past the limit for a plain body, is too large.
      guard let length = Int(first) else { throw URLError(.dataLengthExceedsMaximum) }
      if codings.isEmpty, length > maximumBodySize { throw URLError(.dataLengthExceedsMaximum) }
      head.framing = .length(length)
      if length == 0 { head.framing = .none }
    }
    return head
  }

  // MARK: The body

  /// The next bytes of the body (at most `maximum`, more for a chunk that arrived whole), or
  /// `nil` at its end.
  func nextBodyBytes(of head: ResponseHead, maximum: Int) throws(URLError) -> [UInt8]? {
    if state.withLock({ $0.ended }) { return nil }
    switch head.framing {
    case .none:
      return finish()
    case .untilClose:
      let bytes = try available(maximum: maximum, endOK: true)
      return bytes.isEmpty ? finish() : bytes
    case .length:
      // `remaining` was set to the length when the head was read.
      let remaining = state.withLock { $0.remaining }
      guard remaining > 0 else { return finish() }
      let bytes = try available(maximum: min(maximum, remaining), endOK: false)
      state.withLock { $0.remaining -= bytes.count }
      return bytes
    case .chunked:
      return try nextChunkBytes(maximum: maximum)
    }
  }

  /// The next bytes of a streamed body: what ``nextBodyBytes(of:maximum:)`` gives, waiting for
  /// the network only for the first of them, then whatever more already arrived, up to
  /// `maximum`. Each call runs on a thread of its own, so a server that sends a body in tiny
  /// chunks (100,000 chunks of one byte) costs one call per buffer read, not one per chunk.
  func nextStreamedBytes(of head: ResponseHead, maximum: Int) throws(URLError) -> [UInt8]? {
    if let deferred = state.withLock({ $0.deferredError }) { throw deferred }
    guard var bytes = try nextBodyBytes(of: head, maximum: maximum) else { return nil }
    while bytes.count < maximum, canReadWithoutWaiting(head) {
      do throws(URLError) {
        guard let more = try nextBodyBytes(of: head, maximum: maximum - bytes.count) else {
          break
        }
        bytes += more
      } catch {
        state.withLock { $0.deferredError = error }
        break
      }
    }
    return bytes
  }

  /// Whether the body's next bytes (or its end) can be read from what already arrived, without
  /// waiting for the network: for a chunked body, the rest of the chunk's data, or the line
  /// ending it, the next size line and at least a byte of its data (the trailers whole, after
  /// the last chunk).
  private func canReadWithoutWaiting(_ head: ResponseHead) -> Bool {
    state.withLock { state in
      let buffered = state.buffer[state.start...]
      guard !state.ended, !buffered.isEmpty else { return false }
      guard case .chunked = head.framing else { return true }
      switch state.chunkPhase {
      case .data where state.remaining > 0:
        return true
      case .data:
        guard let end = buffered.firstIndex(of: 0x0A) else { return false }
        return Self.chunkIsBuffered(buffered[(end + 1)...])
      case .size:
        return Self.chunkIsBuffered(buffered)
      case .trailers:
        return Self.trailersAreBuffered(buffered)
      }
    }
  }

  /// Whether `bytes` start with a whole size line followed by a byte of the chunk's data, or,
  /// for the last chunk (size 0), by the whole trailers. A line that is no size is "buffered":
  /// reading it fails at once.
  static func chunkIsBuffered(_ bytes: ArraySlice<UInt8>) -> Bool {
    guard let end = bytes.firstIndex(of: 0x0A) else { return false }
    var line = bytes[..<end]
    if line.last == 0x0D { line.removeLast() }
    guard let size = chunkSize(line) else { return true }
    let rest = bytes[(end + 1)...]
    return size == 0 ? trailersAreBuffered(rest) : !rest.isEmpty
  }

  /// The size a chunk's size line (without its line ending) gives, or `nil` when the line is no
  /// size: hex digits (at most 15 once leading zeros are dropped), then only white space and an
  /// extension (`;name=value`, RFC 9112 section 7.1.1): `2 3` is not a size. The one grammar
  /// of the reading and of its look-ahead, ``chunkIsBuffered(_:)``.
  static func chunkSize(_ line: ArraySlice<UInt8>) -> Int? {
    let written = line.prefix { $0 != 0x3B && $0 != 0x20 && $0 != 0x09 }
    let digits = written.drop { $0 == 0x30 }
    let rest = line[written.endIndex...].drop { $0 == 0x20 || $0 == 0x09 }
    guard !written.isEmpty, digits.count <= 15, rest.isEmpty || rest.first == 0x3B else {
      return nil
    }
    var size = 0
    for byte in digits {
      guard let digit = hexDigit(byte) else { return nil }
      size = size * 16 + digit
    }
    return size
  }

  /// Whether `bytes` hold the end of the trailers: a blank line.
  static func trailersAreBuffered(_ bytes: ArraySlice<UInt8>) -> Bool {
    var start = bytes.startIndex
    while let end = bytes[start...].firstIndex(of: 0x0A) {
      if end == start || (end == start + 1 && bytes[start] == 0x0D) { return true }
      start = end + 1
    }
    return false
  }

  /// The whole body, decoded: at most `maximumBodySize` bytes after decoding, and, for a coded
  /// body, at most that many (1 MiB when the limit is smaller) before it.
  func wholeBody(of head: ResponseHead, maximumBodySize: Int) throws(URLError) -> [UInt8] {
    let held =
      head.codings.isEmpty
      ? maximumBodySize : max(maximumBodySize, SocketTransport.codedBodyLimit)
    var body: [UInt8] = []
    while let chunk = try nextBodyBytes(of: head, maximum: 64 * 1024) {
      guard body.count + chunk.count <= held else { throw URLError(.dataLengthExceedsMaximum) }
      body += chunk
    }
    return try SocketTransport.decode(
      body, head.codings, limit: maximumBodySize, cancellation: cancellation)
  }

  /// Ends the body: `nil`, and later calls return `nil` too.
  private func finish() -> [UInt8]? {
    state.withLock { $0.ended = true }
    return nil
  }

  /// Bytes already received, or read now: at most `maximum`; empty at the end of the
  /// connection when `endOK` (else that is `.networkConnectionLost`).
  private func available(maximum: Int, endOK: Bool) throws(URLError) -> [UInt8] {
    let buffered: [UInt8] = state.withLock { state in
      let end = state.start + min(maximum, state.buffer.count - state.start)
      let bytes = Array(state.buffer[state.start..<end])
      state.consume(upTo: end)
      return bytes
    }
    if !buffered.isEmpty { return buffered }
    let bytes = try socket.read(maximum: maximum)
    if bytes.isEmpty, !endOK { throw URLError(.networkConnectionLost) }
    return bytes
  }

  private func nextChunkBytes(maximum: Int) throws(URLError) -> [UInt8]? {
    while true {
      let phase = state.withLock { $0.chunkPhase }
      switch phase {
      case .size:
        let line = try readLine(limit: 4096, of: "a chunk's size line")
        guard let size = Self.chunkSize(line[...]) else {
          throw .malformedResponse("a chunk size that is not a hexadecimal number")
        }
        state.withLock {
          $0.remaining = size
          $0.chunkPhase = size == 0 ? .trailers : .data
        }
      case .data:
        let remaining = state.withLock { $0.remaining }
        if remaining == 0 {
          guard try readLine(limit: 2, of: "the end of a chunk").isEmpty else {
            throw .malformedResponse("a chunk longer than its size")
          }
          state.withLock { $0.chunkPhase = .size }
          continue
        }
        let bytes = try available(maximum: min(maximum, remaining), endOK: false)
        state.withLock { $0.remaining -= bytes.count }
        return bytes
      case .trailers:
        var size = 0
        while true {
          let line = try readLine(limit: maximumHeadSize - size, of: "the trailer fields")
          size += line.count + 2
          if line.isEmpty { return finish() }
        }
      }
    }
  }

  private static func hexDigit(_ byte: UInt8) -> Int? {
    switch byte {
    case 0x30...0x39: return Int(byte - 0x30)
    case 0x41...0x46: return Int(byte - 0x41 + 10)
    case 0x61...0x66: return Int(byte - 0x61 + 10)
    default: return nil
    }
  }
}

extension URLError {
  /// `.badServerResponse` saying what was wrong with the response: its description is what
  /// ``ObjectManagerError/transport(_:)`` shows (`the request failed: the server's response is
  /// malformed: a chunk size that is not a hexadecimal number (URLError -1011)`).
  static func malformedResponse(_ reason: String) -> URLError {
    URLError(
      .badServerResponse,
      userInfo: [NSLocalizedDescriptionKey: "the server's response is malformed: \(reason)"])
  }

  /// `.badServerResponse` for a line of `part` longer than `limit` bytes.
  static func lineTooLong(_ part: String, limit: Int) -> URLError {
    malformedResponse("a line of \(part) longer than \(max(limit, 0)) bytes")
  }
}
