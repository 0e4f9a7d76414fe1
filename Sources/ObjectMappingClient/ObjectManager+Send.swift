import Foundation
import ObjectMapping

extension ObjectManager {
  /// Sends one request to `path` under ``baseURL`` and returns its response when its status is
  /// in 200–299.
  ///
  /// ```swift
  /// let response = try await manager.send(
  ///   .post, "/echo", body: RequestBody(data: Data("hi".utf8), contentType: "text/plain"))
  /// ```
  ///
  /// The URL is built from components, never by pasting text: the path (percent-encoded, as the
  /// router makes it; characters a path cannot hold are encoded, existing `%XX` escapes kept) is
  /// appended to ``baseURL``'s path — `https://h/api/v1` and `/articles/1` give
  /// `https://h/api/v1/articles/1`, with or without the base's trailing `/` — its `.` and `..`
  /// segments are resolved, and the result must still be under the base URL (same scheme, host
  /// and port, the base path as a prefix). A path's own query (`/search?q=x`) comes first, then
  /// `query`'s items, each encoded once.
  ///
  /// - Parameters:
  ///   - method: The HTTP method.
  ///   - path: The path under ``baseURL`` (a leading `/` is optional); never an absolute URL.
  ///   - query: Query items; an object's are written with ``options``.
  ///   - body: The body and its content type.
  ///   - headers: Header fields for this request; they win over ``headers`` of the same name in
  ///     any capitalisation.
  ///   - limits: Limits for this request, when not ``limits``.
  /// - Returns: The response.
  /// - Throws: ``ObjectManagerError``: the status with its messages, a request that could not be
  ///   made (nothing was sent), or what kept it from completing.
  public func send(
    _ method: HTTPMethod, _ path: String, query: Query = [:], body: RequestBody? = nil,
    headers: HeaderFields = [:], limits: RequestLimits? = nil
  ) async throws(ObjectManagerError) -> Response {
    let url = try requestURL(path: path, query: query)
    return try await perform(method, url, body: body, headers: headers, limits: limits)
  }

  /// Sends one request to an absolute `url`, which need not be under ``baseURL`` (a pagination
  /// `Link`, a URL the server returned), and returns its response when its status is in
  /// 200–299.
  ///
  /// ``headers`` (the manager's) are sent only when `url` has ``baseURL``'s origin; `headers`
  /// (this request's) always are.
  ///
  /// - Parameters:
  ///   - method: The HTTP method.
  ///   - url: An `http` or `https` URL with a host.
  ///   - body: The body and its content type.
  ///   - headers: Header fields for this request.
  ///   - limits: Limits for this request, when not ``limits``.
  /// - Returns: The response.
  /// - Throws: ``ObjectManagerError``.
  public func send(
    _ method: HTTPMethod, url: URL, body: RequestBody? = nil, headers: HeaderFields = [:],
    limits: RequestLimits? = nil
  ) async throws(ObjectManagerError) -> Response {
    guard Self.origin(of: url) != nil,
      var components = URLComponents(url: url, resolvingAgainstBaseURL: true)
    else {
      throw .invalidPath(url.absoluteString, reason: "it is not an http or https URL with a host")
    }
    components.fragment = nil
    guard let target = components.url else {
      throw .invalidPath(url.absoluteString, reason: "it is not a valid URL")
    }
    return try await perform(method, target, body: body, headers: headers, limits: limits)
  }

  // MARK: The request target

  /// The route of ``router`` that the path of `url` under the base URL (with its query)
  /// matches, or `nil` (another origin or base path, or no route).
  func route(of url: URL, method: HTTPMethod) -> Router.Match? {
    guard let origin = Self.origin(of: url), origin == Self.origin(of: baseURL),
      let requested = URLComponents(url: url, resolvingAgainstBaseURL: true),
      let base = URLComponents(url: baseURL, resolvingAgainstBaseURL: true)
    else { return nil }
    var basePath = base.percentEncodedPath
    if basePath.hasSuffix("/") { basePath.removeLast() }
    let fullPath = requested.percentEncodedPath
    guard fullPath.hasPrefix(basePath) else { return nil }
    var path = String(fullPath.dropFirst(basePath.count))
    guard path.isEmpty || path.hasPrefix("/") else { return nil }
    if path.isEmpty { path = "/" }
    if let query = requested.percentEncodedQuery { path += "?" + query }
    return router.match(path, method: method)
  }

  /// The URL of `path` and `query` under the base URL.
  func requestURL(path: String, query: Query) throws(ObjectManagerError) -> URL {
    guard Self.origin(of: baseURL) != nil,
      var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true)
    else {
      throw .invalidPath(
        baseURL.withoutCredentials,
        reason: "the base URL is not an http or https URL with a host")
    }
    if Self.startsWithScheme(path) {
      throw .invalidPath(
        path,
        reason: "an absolute URL is not a path under the base URL; send(_:url:) requests one "
          + "explicitly")
    }
    let questionMark = path.firstIndex(of: "?")
    let rawPath = questionMark.map { path[..<$0] } ?? path[...]
    let relative = _percentEncoded(
      String(rawPath.drop { $0 == "/" }), keeping: .path, keepingEscapes: true)
    let basePath = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
    let prefix = basePath.hasSuffix("/") ? basePath : basePath + "/"
    if let disguised = Self.disguisedDotSegment(in: relative) {
      throw .invalidPath(
        path,
        reason: "the segment \(MessageText.quoted(String(disguised))) may be read as a dot "
          + "segment by the server, which would leave the path it names")
    }
    let full = Self.removingDotSegments(relative.isEmpty ? basePath : prefix + relative)

    var queries: [String] = []
    if let baseQuery = components.percentEncodedQuery, !baseQuery.isEmpty {
      queries.append(baseQuery)
    }
    if let questionMark {
      let own = path[path.index(after: questionMark)...]
      if !own.isEmpty {
        queries.append(_percentEncoded(String(own), keeping: .query, keepingEscapes: true))
      }
    }
    let items: [Query.Item]
    do {
      items = try query.items(with: options)
    } catch {
      throw .query(error)
    }
    if !items.isEmpty { queries.append(Query.encode(items)) }

    components.percentEncodedPath = full
    components.percentEncodedQuery = queries.isEmpty ? nil : queries.joined(separator: "&")
    components.fragment = nil
    guard let url = components.url else {
      throw .invalidPath(path, reason: "it does not make a valid URL")
    }
    guard full == basePath || full.hasPrefix(prefix),
      Self.origin(of: url) == Self.origin(of: baseURL)
    else { throw .outsideBaseURL(url, base: baseURL) }
    return url
  }

  /// Whether `path` begins like an absolute URL (`https://…`, `//host`-less schemes such as
  /// `urn:` stay paths).
  private static func startsWithScheme(_ path: String) -> Bool {
    guard let colon = path.firstIndex(of: ":"), path[colon...].hasPrefix("://") else {
      return false
    }
    let scheme = path[..<colon].unicodeScalars
    func isLetter(_ scalar: Unicode.Scalar) -> Bool {
      ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }
    guard let first = scheme.first, isLetter(first) else { return false }
    return scheme.allSatisfy {
      isLetter($0) || ("0"..."9").contains($0) || $0 == "+" || $0 == "-" || $0 == "."
    }
  }

  /// `path` (absolute, percent-encoded) with its `.` and `..` segments resolved (RFC 3986
  /// section 5.2.4): `/a/b/../c` is `/a/c`, and `..` never goes above `/`.
  static func removingDotSegments(_ path: String) -> String {
    let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
    var output: [Substring] = []
    for (offset, segment) in segments.enumerated() {
      let isLast = offset == segments.count - 1
      switch segment {
      case ".":
        if isLast { output.append("") }
      case "..":
        if !output.isEmpty { output.removeLast() }
        if isLast { output.append("") }
      default:
        output.append(segment)
      }
    }
    return "/" + output.joined(separator: "/")
  }

  /// The first segment of `path` (percent-encoded) that servers may read as holding a `.` or
  /// `..` segment though it is not literally one: `%2E%2E`, `.%2e` (RFC 3986 section 6.2.2.2
  /// decodes `%2E`, and servers that decode before resolving serve the parent), `..%2Fadmin`
  /// or `..%5Cadmin` (a route value `../admin` or `..\admin`: servers that decode `%2F`, or
  /// read `\` as `/`, before resolving go up) or `..;x` and `..%3Bx` (Tomcat drops a segment's
  /// `;` parameters); `nil` when there is none.
  static func disguisedDotSegment(in path: String) -> Substring? {
    path.split(separator: "/").first { segment in
      // A literal `.` or `..` is resolved by the manager itself.
      guard segment != "." && segment != ".." else { return false }
      var decoded = String(segment)
      for (escape, character) in [
        ("%2e", "."), ("%2f", "/"), ("%5c", "/"), ("\\", "/"), ("%3b", ";"),
      ] {
        decoded = decoded.replacingOccurrences(
          of: escape, with: character, options: .caseInsensitive)
      }
      return decoded.split(separator: "/", omittingEmptySubsequences: false).contains { piece in
        let name = piece.prefix { $0 != ";" }
        return name == "." || name == ".."
      }
    }
  }

  /// A URL's origin (lowercased scheme and host, and port), or `nil` when it is not an `http`
  /// or `https` URL with a host — or its host holds a control character once percent-decoded
  /// (`127.0.0.1%00.trusted.example`, which a resolver reads as `127.0.0.1`), or it names a
  /// port no `Int` holds (``Foundation/URLComponents/port(default:)``).
  static func origin(of url: URL) -> String? {
    guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
      let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
      let host = components.host?.lowercased(), !host.isEmpty,
      !host.holdsControl,
      let port = components.port(default: scheme == "https" ? 443 : 80)
    else { return nil }
    return "\(scheme)://\(host):\(port)"
  }

  // MARK: Sending, redirects and limits

  /// Sends the request, follows redirects with ``redirects``, and checks the status.
  private func perform(
    _ method: HTTPMethod, _ url: URL, body: RequestBody?, headers requestHeaders: HeaderFields,
    limits requestLimits: RequestLimits?
  ) async throws(ObjectManagerError) -> Response {
    let limits = requestLimits ?? self.limits
    let transport = self.transport
    let maximum = limits.maximumResponseSize
    let response = try await exchange(
      method, url, body: body, headers: requestHeaders, limits: limits,
      deadline: ContinuousClock.now.advanced(by: limits.timeout),
      send: { request throws(URLError) in
        try await transport.send(request, maximumBodySize: maximum)
      },
      head: { ($0.statusCode, $0.headers, $0.url) },
      check: { response throws(ObjectManagerError) in
        guard response.body.count <= maximum else { throw .responseTooLarge(limit: maximum) }
      })
    return try finish(response, method: method, requestURL: url)
  }

  /// Sends one request with `send` (the transport's `send`, or its streaming `stream`) and
  /// follows redirects with ``redirects``, each response raced against `deadline`; returns the
  /// last response, whatever its status. `check` vets each response before its status is
  /// looked at (the size limit); `head` reads its status, header fields and URL. A redirect's
  /// response is dropped (a streamed body closes its connection then).
  func exchange<Reply: Sendable>(
    _ method: HTTPMethod, _ url: URL, body: RequestBody?, headers requestHeaders: HeaderFields,
    accept: String = "application/json", limits: RequestLimits,
    deadline: ContinuousClock.Instant,
    send: @escaping @Sendable (TransportRequest) async throws(URLError) -> Reply,
    head: (Reply) -> (statusCode: Int, headers: HeaderFields, url: URL),
    check: (Reply) throws(ObjectManagerError) -> Void = { _ in }
  ) async throws(ObjectManagerError) -> Reply {
    if Task.isCancelled { throw .cancelled }
    for field in self.headers.fields + requestHeaders.fields {
      if let problem = HeaderFields.problem(name: field.name, value: field.value) {
        throw .invalidHeader(name: field.name, reason: problem)
      }
    }
    if let body, let problem = HeaderFields.problem(name: "Content-Type", value: body.contentType) {
      throw .invalidHeader(name: "Content-Type", reason: problem)
    }
    guard let firstOrigin = Self.origin(of: url) else {
      throw .invalidPath(url.absoluteString, reason: "it is not an http or https URL with a host")
    }
    var defaults: HeaderFields = ["Accept": accept]
    if let body { defaults["Content-Type"] = body.contentType }
    var fields = defaults
    if firstOrigin == Self.origin(of: baseURL) { fields = fields.merging(self.headers) }
    fields = fields.merging(requestHeaders)

    var request = TransportRequest(method: method, url: url, headers: fields, body: body?.data)
    var stripped = false
    var redirectCount = 0
    while true {
      let sent = request
      let maximum = limits.maximumResponseSize
      let timeout = limits.timeout
      let received = await _race(deadline: deadline) {
        () -> Result<Reply, ObjectManagerError> in
        do throws(URLError) {
          return .success(try await send(sent))
        } catch {
          return .failure(Self.error(for: error, limit: maximum))
        }
      } timedOut: {
        .timedOut(after: timeout)
      }
      let response = try received.get()
      try check(response)
      let (statusCode, responseHeaders, responseURL) = head(response)

      guard [301, 302, 303, 307, 308].contains(statusCode),
        let location = responseHeaders["Location"]
      else {
        return response
      }
      guard redirects.scope != .never else {
        throw .redirectRefused(
          location: location, status: statusCode, reason: .policyForbidsRedirects)
      }
      guard let next = URL(string: location, relativeTo: responseURL)?.absoluteURL,
        let nextOrigin = Self.origin(of: next)
      else {
        throw .redirectRefused(
          location: location, status: statusCode, reason: .unsupportedLocation)
      }
      let leavesOrigin = nextOrigin != firstOrigin
      if leavesOrigin, redirects.scope == .sameOrigin {
        throw .redirectRefused(
          location: next.withoutCredentials, status: statusCode, reason: .otherOrigin)
      }
      guard redirectCount < redirects.maximumCount else {
        // A relative location takes the base URL's user name and password: not in an error.
        throw .redirectRefused(
          location: next.withoutCredentials, status: statusCode,
          reason: .tooManyRedirects(limit: redirects.maximumCount))
      }
      redirectCount += 1

      var nextMethod = request.method
      var nextBody = request.body
      switch statusCode {
      case 303 where nextMethod != .head && nextMethod != .get,
        301 where nextMethod == .post, 302 where nextMethod == .post:
        nextMethod = .get
        nextBody = nil
      default:
        break
      }
      if leavesOrigin { stripped = true }
      var nextFields = stripped ? defaults : fields
      if nextBody == nil { nextFields["Content-Type"] = nil }
      var components = URLComponents(url: next, resolvingAgainstBaseURL: true)
      components?.fragment = nil
      request = TransportRequest(
        method: nextMethod, url: components?.url ?? next, headers: nextFields, body: nextBody)
    }
  }

  /// The response, when its status is in 200–299.
  func finish(_ response: TransportResponse, method: HTTPMethod, requestURL: URL)
    throws(ObjectManagerError) -> Response
  {
    let mapped = Response(
      statusCode: response.statusCode, headers: response.headers, body: response.body,
      url: response.url, requestURL: requestURL, method: method, formats: formats,
      options: options, route: route(of: requestURL, method: method))
    guard (200..<300).contains(response.statusCode) else {
      let mappedError = providerError(mapped)
      let messages =
        mappedError.map { $0.messages.map { ErrorMessage(message: $0) } }
        ?? Self.errorMessages(in: response.body, contentType: mapped.contentType, formats: formats)
      throw .status(
        HTTPFailure(
          statusCode: response.statusCode, messages: messages, body: response.body,
          contentType: mapped.contentType, headers: response.headers,
          objects: mappedError?.objects ?? []))
    }
    return mapped
  }

  /// A failed response's body as the ``provider``'s error routes of your own types read it
  /// (RestKit's error descriptors with an error class of its own): the objects and each one's
  /// description, as ``MappingResult/asError()`` gives them; `nil` when the provider has no
  /// such route or they map nothing (the body's messages are then read by their shape).
  private func providerError(_ response: Response) -> MappingResultError? {
    guard let routes = provider?.customErrorRoutes, !routes.isEmpty, !response.body.isEmpty,
      let input = try? response.input(at: nil),
      let result = try? Mapper(MappingProvider(routes: [], errorRoutes: routes), formats: formats)
        .map(input, with: response.mappingOptions)
    else { return nil }
    return result.asError()
  }

  /// The manager's error for a transport's.
  static func error(for error: URLError, limit: Int) -> ObjectManagerError {
    switch error.code {
    case .cancelled: .cancelled
    case .timedOut: .timedOut(after: nil)
    case .dataLengthExceedsMaximum: .responseTooLarge(limit: limit)
    default: .transport(error)
    }
  }
}

/// Runs `operation` in a task of its own and returns its result — or `timedOut()` at
/// `deadline`, or `.cancelled` when the calling task is cancelled, whichever comes first. The
/// losing tasks are cancelled at once (a transport's cancellation closes its connection); the
/// caller never waits for an operation that ignores cancellation.
func _race<Value: Sendable>(
  deadline: ContinuousClock.Instant,
  _ operation: @escaping @Sendable () async -> Result<Value, ObjectManagerError>,
  timedOut: @escaping @Sendable () -> ObjectManagerError
) async -> Result<Value, ObjectManagerError> {
  let race = Race<Value>()
  return await withTaskCancellationHandler {
    await withCheckedContinuation { continuation in
      race.start(continuation)
      race.add(Task { race.finish(await operation()) })
      race.add(
        Task {
          try? await Task.sleep(until: deadline, clock: .continuous)
          if !Task.isCancelled { race.finish(.failure(timedOut())) }
        })
    }
  } onCancel: {
    race.finish(.failure(.cancelled))
  }
}

/// The state of a ``_race(deadline:_:timedOut:)``: the first result wins.
private final class Race<Value: Sendable>: Sendable {
  private struct State {
    var continuation: CheckedContinuation<Result<Value, ObjectManagerError>, Never>?
    var outcome: Result<Value, ObjectManagerError>?
    var tasks: [Task<Void, Never>] = []
  }
  private let state = Locked(State())

  func start(_ continuation: CheckedContinuation<Result<Value, ObjectManagerError>, Never>) {
    let decided = state.withLock { state in
      if state.outcome == nil { state.continuation = continuation }
      return state.outcome
    }
    if let decided { continuation.resume(returning: decided) }
  }

  func add(_ task: Task<Void, Never>) {
    let decided = state.withLock { state in
      if state.outcome == nil { state.tasks.append(task) }
      return state.outcome != nil
    }
    if decided { task.cancel() }
  }

  func finish(_ result: Result<Value, ObjectManagerError>) {
    let won:
      (CheckedContinuation<Result<Value, ObjectManagerError>, Never>?, [Task<Void, Never>])? =
        state.withLock { state in
          guard state.outcome == nil else { return nil }
          state.outcome = result
          defer {
            state.continuation = nil
            state.tasks = []
          }
          return (state.continuation, state.tasks)
        }
    guard let (continuation, tasks) = won else { return }
    continuation?.resume(returning: result)
    for task in tasks { task.cancel() }
  }
}

extension StringProtocol {
  /// Whether the text holds a control character (`0x00`–`0x1F`, `0x7F`): a host that does is
  /// no host (a resolver reads it up to a NUL; CR and LF would split the request).
  var holdsControl: Bool {
    utf8.contains { $0 < 0x20 || $0 == 0x7F }
  }

  /// Whether the text holds a space or a control character: a host or a request target that
  /// does cannot be written into a request line or a `Host` field.
  var holdsSpaceOrControl: Bool {
    utf8.contains { $0 <= 0x20 || $0 == 0x7F }
  }
}

extension URLComponents {
  /// The port the URL names, or `defaultPort` when it names none (`http://host/`,
  /// `http://host:/`); `nil` when it names one no `Int` holds (`:99999999999999999999`), which
  /// ``port`` reads as no port at all. Taking the default then would send the request to a port
  /// the URL does not name, so the client refuses such a URL (`invalidPath`, a refused
  /// redirect, `URLError(.badURL)` from the transport).
  func port(default defaultPort: Int) -> Int? {
    if let port { return port }
    if let range = rangeOfPort, !range.isEmpty { return nil }
    return defaultPort
  }
}
