import Foundation
import ObjectMapping

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Loads, sends and maps objects over HTTP (RestKit's object manager, AppCoreKit's requests):
/// name a base URL, routes and mappings once, then get, post, put, patch and delete typed
/// objects.
///
/// ```swift
/// var router = Router()
/// router.add(Article.self, "/articles/:id") { ["id": "\($0.id)"] }
/// router.add(Article.self, .post, "/articles")
/// let manager = ObjectManager(baseURL: api, router: router)
///
/// let articles = try await manager.getCollection("/articles", mapping: articleMapping)
/// let created = try await manager.post(draft, mapping: articleMapping)   // body by the inverse
/// try await manager.delete(created, mapping: articleMapping)
/// ```
///
/// Bodies are written by the mapping's inverse in ``requestFormat`` (JSON or form; per request
/// with `format:`); responses are read by their `Content-Type` through ``formats`` and mapped
/// back onto a copy of the sent object (a class instance is updated in place only when the whole
/// response maps: a failed request leaves it unchanged). A status outside 200–299 is
/// ``ObjectManagerError/status(_:)`` with the messages of its body. Every method is `async` and
/// follows task cancellation.
public final class ObjectManager: Sendable {
  /// The URL paths are resolved against.
  public let baseURL: URL
  /// Paths of objects and named routes.
  public let router: Router
  /// The session requests go through.
  public let session: URLSession
  /// The format request bodies are written in (default JSON).
  public let requestFormat: PayloadFormat
  /// The formats responses are read with, by `Content-Type`.
  public let formats: FormatRegistry
  /// Header fields sent with every request (`Authorization`, …).
  public let headers: [String: String]
  /// The routes responses of ``get(_:query:headers:)`` are mapped with.
  public let provider: MappingProvider?
  /// The options every response is mapped and every request body written with, each response's
  /// ``Response/metadata`` added: a client's key convention (`MappingOptions(keys:
  /// .snakeCase)`), coercion, date formats, groups, nil policy.
  public let options: MappingOptions

  /// Creates a manager.
  ///
  /// - Parameters:
  ///   - baseURL: The URL paths are resolved against (`https://api.example.com/v1/`).
  ///   - router: The routes of objects and names.
  ///   - session: The session (default `URLSession.shared`); configure timeouts and caching on
  ///     it.
  ///   - requestFormat: The format of request bodies (default JSON).
  ///   - formats: The formats responses are read with (default JSON and form bodies).
  ///   - headers: Header fields for every request.
  ///   - provider: The routes for ``get(_:query:headers:)``.
  ///   - options: The options for every response's mapping and request body
  ///     (`MappingOptions(keys: .snakeCase)` for an API whose keys are snake_case, with mappings
  ///     whose rules leave the key out).
  public init(
    baseURL: URL, router: Router = Router(), session: URLSession = .shared,
    requestFormat: PayloadFormat = .json, formats: FormatRegistry = .standard,
    headers: [String: String] = [:], provider: MappingProvider? = nil,
    options: MappingOptions = .none
  ) {
    self.options = options
    self.baseURL = baseURL
    self.router = router
    self.session = session
    self.requestFormat = requestFormat
    self.formats = formats
    self.headers = headers
    self.provider = provider
  }

  // MARK: Loading

  /// The object at `path`, mapped with `mapping`.
  public func get<M: MappingProtocol>(
    _ path: String, query: Query = [:], mapping: M, headers: [String: String] = [:]
  ) async throws(ObjectManagerError) -> M.Object {
    let response = try await send(.get, path, query: query, headers: headers)
    return try response.map { input, options throws(MappingErrors) in
      try mapping.map(input, with: options)
    }
  }

  /// The array at `path`, each element mapped with `mapping`.
  public func getCollection<M: MappingProtocol>(
    _ path: String, query: Query = [:], mapping: M, headers: [String: String] = [:]
  ) async throws(ObjectManagerError) -> [M.Object] {
    let response = try await send(.get, path, query: query, headers: headers)
    return try response.map { input, options throws(MappingErrors) in
      try mapping.mapCollection(input, with: options)
    }
  }

  /// The response at `path`, mapped through ``provider``'s routes.
  public func get(_ path: String, query: Query = [:], headers: [String: String] = [:])
    async throws(ObjectManagerError) -> MappingResult
  {
    guard let provider else { throw .noRoute("GET \(path): the manager has no mapping provider") }
    let response = try await send(.get, path, query: query, headers: headers)
    let mapper = Mapper(provider)
    return try response.map { input, options throws(MappingErrors) in
      try mapper.map(input, with: options)
    }
  }

  /// `object` loaded again from its route: the response is mapped onto a copy of it.
  public func reload<M: MappingProtocol>(
    _ object: M.Object, mapping: M, path: String? = nil, headers: [String: String] = [:]
  ) async throws(ObjectManagerError) -> M.Object {
    try await request(
      .get, object, mapping: mapping, path: path, sendsBody: false, headers: headers)
  }

  // MARK: Sending

  /// Creates `object`: its body written by `mapping`'s inverse, the response mapped back onto a
  /// copy of it (server-assigned ids, timestamps).
  ///
  /// - Parameters:
  ///   - object: The object to send.
  ///   - mapping: Writes the body and reads the response.
  ///   - path: The path, when not the router's for `object` and `POST`.
  ///   - format: The body's format, when not ``requestFormat``.
  ///   - headers: Header fields for this request.
  /// - Returns: The object as the server answered it (unchanged for an empty response).
  public func post<M: MappingProtocol>(
    _ object: M.Object, mapping: M, path: String? = nil, format: PayloadFormat? = nil,
    headers: [String: String] = [:]
  ) async throws(ObjectManagerError) -> M.Object {
    try await request(.post, object, mapping: mapping, path: path, format: format, headers: headers)
  }

  /// Replaces `object` (``post(_:mapping:path:format:headers:)`` with `PUT`).
  public func put<M: MappingProtocol>(
    _ object: M.Object, mapping: M, path: String? = nil, format: PayloadFormat? = nil,
    headers: [String: String] = [:]
  ) async throws(ObjectManagerError) -> M.Object {
    try await request(.put, object, mapping: mapping, path: path, format: format, headers: headers)
  }

  /// Updates `object` (``post(_:mapping:path:format:headers:)`` with `PATCH`).
  public func patch<M: MappingProtocol>(
    _ object: M.Object, mapping: M, path: String? = nil, format: PayloadFormat? = nil,
    headers: [String: String] = [:]
  ) async throws(ObjectManagerError) -> M.Object {
    try await request(
      .patch, object, mapping: mapping, path: path, format: format, headers: headers)
  }

  /// Deletes `object` at its route (no body is sent; the response body is ignored).
  public func delete<Object>(
    _ object: Object, path: String? = nil, headers: [String: String] = [:]
  ) async throws(ObjectManagerError) {
    let resolved: String
    if let path {
      resolved = path
    } else {
      resolved = try router.path(for: object, method: .delete)
    }
    _ = try await send(.delete, resolved, headers: headers)
  }

  private func request<M: MappingProtocol>(
    _ method: HTTPMethod, _ object: M.Object, mapping: M, path: String?, sendsBody: Bool = true,
    format: PayloadFormat? = nil, headers: [String: String]
  ) async throws(ObjectManagerError) -> M.Object {
    let resolved: String
    if let path { resolved = path } else { resolved = try router.path(for: object, method: method) }
    var body: (Data, String)?
    if sendsBody {
      let format = format ?? requestFormat
      do {
        body = (try mapping.serialize(object, as: format, with: options), format.contentType)
      } catch {
        throw .requestBody(error)
      }
    }
    let response = try await send(method, resolved, body: body, headers: headers)
    guard !response.body.isEmpty else { return object }
    var updated = object
    try response.map { input, options throws(MappingErrors) in
      try mapping.map(input, onto: &updated, with: options)
    }
    return updated
  }

  // MARK: The request

  /// A response with a status in 200–299.
  public struct Response: Sendable {
    /// The status code.
    public var statusCode: Int
    /// The header fields, names as the server sent them.
    public var headers: [String: String]
    /// The body.
    public var body: Data
    /// The URL that answered.
    public var url: URL?
    /// The URL requested.
    public var requestURL: URL?
    /// The request's method.
    public var method: HTTPMethod
    let formats: FormatRegistry
    /// The manager's options, which mapping this response uses with its ``metadata``.
    let options: MappingOptions

    /// The response's `Content-Type`, if any.
    public var contentType: String? {
      headers.first { $0.key.lowercased() == "content-type" }?.value
    }

    /// What mappings read through ``SourcePath/metadata`` while this response is mapped:
    ///
    /// ```json
    /// {"request": {"url": "https://…/articles?page=2", "method": "GET"},
    ///  "response": {"url": "…", "status": 200, "headers": {"content-type": "…", "etag": "…"}}}
    /// ```
    ///
    /// Header names are lowercased.
    public var metadata: Node {
      var headerMembers: [Node.Member] = []
      for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
        headerMembers.append(Node.Member(name.lowercased(), .string(value)))
      }
      return [
        "request": [
          "url": .string(requestURL?.absoluteString ?? ""), "method": .string(method.rawValue),
        ],
        "response": [
          "url": .string(url?.absoluteString ?? ""), "status": .integer(Int64(statusCode)),
          "headers": .object(headerMembers),
        ],
      ]
    }

    /// The options this response is mapped with: the manager's, and the response's
    /// ``metadata``.
    var mappingOptions: MappingOptions {
      var options = options
      options.metadata = metadata
      return options
    }

    /// `body` mapped by `map`, with the format its `Content-Type` names (JSON when it has none)
    /// and the response's ``metadata``.
    func map<Result>(_ map: (MappingInput, MappingOptions) throws(MappingErrors) -> Result)
      throws(ObjectManagerError) -> Result
    {
      guard !body.isEmpty else { throw .emptyBody(status: statusCode) }
      let type = contentType ?? "application/json"
      guard formats.format(forContentType: type) != nil else {
        throw .unsupportedContentType(type, status: statusCode)
      }
      do {
        return try map(
          MappingInput.payload(body, contentType: type, formats: formats), mappingOptions)
      } catch {
        throw .mapping(error, status: statusCode)
      }
    }
  }

  /// Sends one request and returns its response when its status is in 200–299.
  ///
  /// - Parameters:
  ///   - method: The HTTP method.
  ///   - path: The path, resolved against ``baseURL`` (a leading `/` is relative to it too).
  ///   - query: Query items.
  ///   - body: The body and its content type.
  ///   - headers: Header fields for this request (over ``headers``).
  /// - Throws: ``ObjectManagerError``: the status with its messages, or what kept the request
  ///   from completing.
  public func send(
    _ method: HTTPMethod, _ path: String, query: Query = [:], body: (Data, String)? = nil,
    headers: [String: String] = [:]
  ) async throws(ObjectManagerError) -> Response {
    guard !Task.isCancelled else { throw .cancelled }
    var request = URLRequest(url: url(path, query: query))
    request.httpMethod = method.rawValue
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    for (name, value) in self.headers.merging(headers, uniquingKeysWith: { $1 }) {
      request.setValue(value, forHTTPHeaderField: name)
    }
    if let (data, contentType) = body {
      request.httpBody = data
      request.setValue(contentType, forHTTPHeaderField: "Content-Type")
    }
    let data: Data
    let urlResponse: URLResponse
    do {
      (data, urlResponse) = try await Self.load(request, with: session)
    } catch let error as URLError {
      switch error.code {
      case .cancelled: throw .cancelled
      case .timedOut: throw .timedOut(error)
      default: throw .transport(error)
      }
    } catch is CancellationError {
      throw .cancelled
    } catch {
      throw .transport(URLError(.unknown, userInfo: [NSUnderlyingErrorKey: error]))
    }
    if Task.isCancelled { throw .cancelled }
    guard let http = urlResponse as? HTTPURLResponse else {
      throw .transport(URLError(.badServerResponse))
    }
    var fields: [String: String] = [:]
    for (name, value) in http.allHeaderFields {
      fields["\(name)"] = "\(value)"
    }
    let response = Response(
      statusCode: http.statusCode, headers: fields, body: data, url: http.url,
      requestURL: request.url, method: method, formats: formats, options: options)
    guard (200..<300).contains(http.statusCode) else {
      throw .status(
        HTTPFailure(
          statusCode: http.statusCode,
          messages: Self.errorMessages(
            in: data, contentType: response.contentType, formats: formats),
          body: data, contentType: response.contentType, headers: fields))
    }
    return response
  }

  /// The data task for `request`, cancelled when the calling task is: `URLSession`'s own
  /// `data(for:)` does not stop a transfer on cancellation on every platform
  /// (FoundationNetworking lets it run to its end).
  private static func load(_ request: URLRequest, with session: URLSession) async throws -> (
    Data, URLResponse
  ) {
    let handle = _DataTaskHandle()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let task = session.dataTask(with: request) { data, response, error in
          if let error {
            continuation.resume(throwing: error)
          } else if let response {
            continuation.resume(returning: (data ?? Data(), response))
          } else {
            continuation.resume(throwing: URLError(.badServerResponse))
          }
        }
        handle.start(task)
      }
    } onCancel: {
      handle.cancel()
    }
  }

  private func url(_ path: String, query: Query) -> URL {
    var relative = path.hasPrefix("/") ? String(path.dropFirst()) : path
    if !query.isEmpty { relative += (relative.contains("?") ? "&" : "?") + query.encoded }
    return URL(string: relative, relativeTo: baseURL)?.absoluteURL ?? baseURL
  }

  // MARK: Error bodies

  /// The messages of an error body, in the shapes APIs use:
  ///
  /// - RestKit's `{"error": "…"}` and `{"errors": ["…", …]}` (strings or objects with a
  ///   `message`);
  /// - RFC 9457 problem details (`application/problem+json`): `title` and `detail`, and the
  ///   `errors` extension;
  /// - GitHub's `{"message": "Validation Failed", "errors": [{"resource", "field", "code"}]}`:
  ///   the message, then one message per error (its own `message`, or
  ///   `"<resource>.<field> <code>"`).
  ///
  /// Each ``ErrorMessage`` keeps the node it was read from. A body no format reads, or of
  /// another shape, gives no messages (the body stays in ``HTTPFailure/body``).
  public static func errorMessages(
    in body: Data, contentType: String?, formats: FormatRegistry = .standard
  ) -> [ErrorMessage] {
    guard !body.isEmpty,
      let node = try? formats.read(body, contentType: contentType ?? "application/json")
    else { return [] }
    var messages: [ErrorMessage] = []
    func add(_ value: Node?) {
      guard let value else { return }
      switch value {
      case .string(let text):
        messages.append(ErrorMessage(message: text, representation: value))
      case .object:
        if case .string(let text)? = value["message"] {
          messages.append(ErrorMessage(message: text, representation: value))
        } else if case .string(let text)? = value["detail"] ?? value["title"] {
          messages.append(ErrorMessage(message: text, representation: value))
        } else {
          let parts = ["resource", "field"].compactMap { key -> String? in
            if case .string(let text)? = value[key] { return text }
            return nil
          }
          var text = parts.joined(separator: ".")
          if case .string(let code)? = value["code"] { text += text.isEmpty ? code : " \(code)" }
          if !text.isEmpty { messages.append(ErrorMessage(message: text, representation: value)) }
        }
      case .array(let elements):
        for element in elements { add(element) }
      default:
        break
      }
    }
    add(node["error"])
    if case .string? = node["title"] { add(node["title"]) }
    if case .string? = node["detail"] { add(node["detail"]) }
    if case .string? = node["message"] { add(node["message"]) }
    add(node["errors"])
    return messages
  }
}

/// Query items: from a dictionary literal (`["page": "2"]`), or from an object written by a
/// mapping's inverse as form items (`Query(filter, mapping: filterMapping)`).
public struct Query: Sendable, ExpressibleByDictionaryLiteral, Equatable {
  /// The query string, percent-encoded, without the `?`.
  public let encoded: String

  /// Items from a dictionary, in key order.
  public init(_ items: [String: String]) {
    encoded = items.sorted { $0.key < $1.key }.map {
      "\(Self.escape($0.key))=\(Self.escape($0.value))"
    }.joined(separator: "&")
  }

  public init(dictionaryLiteral elements: (String, String)...) {
    self.init(Dictionary(elements, uniquingKeysWith: { $1 }))
  }

  /// `object`'s members as form items (`filter[state]=open&page=2`).
  ///
  /// - Throws: ``MappingErrors`` when the mapping cannot write the object.
  public init<M: MappingProtocol>(_ object: M.Object, mapping: M) throws(MappingErrors) {
    encoded = String(decoding: try mapping.serialize(object, as: .formURLEncoded), as: UTF8.self)
  }

  /// Whether there are no items.
  public var isEmpty: Bool { encoded.isEmpty }

  private static func escape(_ text: String) -> String {
    _percentEscape(text, keeping: "-._~")
  }
}

/// A data task and whether its request was cancelled, for a cancellation that may come before
/// the task exists.
private final class _DataTaskHandle: @unchecked Sendable {
  // @unchecked: `task` and `cancelled` are only touched under `lock`.
  private let lock = NSLock()
  private var task: URLSessionDataTask?
  private var cancelled = false

  /// Resumes `task`, or cancels it when the request was cancelled already.
  func start(_ task: URLSessionDataTask) {
    let cancelNow = lock.withLock {
      self.task = task
      return cancelled
    }
    task.resume()
    if cancelNow { task.cancel() }
  }

  func cancel() {
    let task = lock.withLock {
      cancelled = true
      return self.task
    }
    task?.cancel()
  }
}
