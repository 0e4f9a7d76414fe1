import Foundation
import ObjectMapping

/// Loads, sends and maps objects over HTTP (RestKit's object manager, AppCoreKit's requests):
/// name a base URL, routes and mappings once, then get, post, put, patch and delete typed
/// objects.
///
/// ```swift
/// var router = Router()
/// try router.add(Article.self, "/articles/:id") { ["id": "\($0.id)"] }
/// try router.add(Article.self, .post, "/articles")
/// let manager = ObjectManager(baseURL: api, router: router)
///
/// let articles = try await manager.getCollection("/articles", mapping: articleMapping)
/// let created = try await manager.post(draft, mapping: articleMapping)   // body by the inverse
/// try await manager.delete(created)                                       // DELETE /articles/42
/// ```
///
/// Bodies are written by the mapping's inverse in ``requestFormat`` (JSON or form; per request
/// with `format:`); responses are read by their `Content-Type` through ``formats`` and mapped
/// back onto a copy of the sent object (a class instance is updated in place only when the whole
/// response maps: a failed request leaves it unchanged). A status outside 200–299 is
/// ``ObjectManagerError/status(_:)`` with the messages of its body. Every method is `async` and
/// follows task cancellation.
///
/// The manager is safe on a hostile network (see "Security and limits" in the guide): every
/// request stays under ``baseURL``, route values cannot leave their path segment or add query
/// items, header fields are checked before anything is sent, redirects follow
/// ``redirects`` and never carry credentials to another origin, and ``limits`` bound each
/// response's size and each request's time whatever the server does.
///
/// Methods that map onto an object you pass (`post`, `put`, `patch`, `reload`, the store-backed
/// `getCollection`) run their mapping in the caller's isolation (`nonisolated(nonsending)`), so
/// a main-actor model is updated on the main actor; methods that make new objects map on the
/// global executor and return them as `sending`.
public final class ObjectManager: Sendable {
  /// The URL every request is under: its scheme, host and port, and its path as a prefix.
  public let baseURL: URL
  /// Paths of objects and named routes.
  public let router: Router
  /// What sends requests (one of the manager's own by default: ``defaultTransport()``).
  public let transport: any HTTPTransport
  /// The format request bodies are written in (default JSON).
  public let requestFormat: PayloadFormat
  /// The formats responses are read with, by `Content-Type`.
  public let formats: FormatRegistry
  /// Header fields sent with every request to ``baseURL``'s origin (`Authorization`, …); never
  /// to another origin.
  public let headers: HeaderFields
  /// The routes responses of ``get(_:query:headers:limits:)`` are mapped with.
  public let provider: MappingProvider?
  /// The options every response is mapped and every request body and query object written with,
  /// each response's ``Response/metadata`` added: a client's key convention
  /// (`MappingOptions(keys: .snakeCase)`), coercion, date formats, groups, nil policy.
  public let options: MappingOptions
  /// Which redirects are followed (``RedirectPolicy/sameOrigin`` by default).
  public let redirects: RedirectPolicy
  /// The size and time limits of every request (``RequestLimits/standard`` by default; per
  /// request with `limits:`).
  public let limits: RequestLimits

  /// Creates a manager.
  ///
  /// - Parameters:
  ///   - baseURL: The URL every request is under (`https://api.example.com/v1`): a path is
  ///     appended to it, so its last segment is kept with or without a trailing `/`.
  ///   - router: The routes of objects and names.
  ///   - transport: What sends requests; by default one of this manager's own, so a hostile
  ///     server one manager talks to cannot hold up another manager's requests
  ///     (``defaultTransport()``).
  ///   - requestFormat: The format of request bodies (default JSON).
  ///   - formats: The formats responses are read with (default JSON and form bodies).
  ///   - headers: Header fields for every request to the base URL's origin.
  ///   - provider: The routes for ``get(_:query:headers:limits:)``.
  ///   - options: The options for every response's mapping, request body and query object
  ///     (`MappingOptions(keys: .snakeCase)` for an API whose keys are snake_case, with
  ///     mappings whose rules leave the key out).
  ///   - redirects: Which redirects are followed (default ``RedirectPolicy/sameOrigin``).
  ///   - limits: The response size and request time limits (default 64 MiB, 60 seconds).
  public init(
    baseURL: URL, router: Router = Router(),
    transport: any HTTPTransport = ObjectManager.defaultTransport(),
    requestFormat: PayloadFormat = .json, formats: FormatRegistry = .standard,
    headers: HeaderFields = [:], provider: MappingProvider? = nil,
    options: MappingOptions = .none, redirects: RedirectPolicy = .sameOrigin,
    limits: RequestLimits = .standard
  ) {
    self.baseURL = baseURL
    self.router = router
    self.transport = transport
    self.requestFormat = requestFormat
    self.formats = formats
    self.headers = headers
    self.provider = provider
    self.options = options
    self.redirects = redirects
    self.limits = limits
  }

  /// The transport a manager made without one uses: on Linux a ``SocketTransport`` (an HTTP/1.1
  /// client of its own for `http` URLs, with a ``URLSessionTransport`` for `https`), since
  /// FoundationNetworking stops the process on some hostile responses; elsewhere a
  /// ``URLSessionTransport``. Each call makes a new one.
  ///
  /// - Returns: A transport of its own.
  public static func defaultTransport() -> any HTTPTransport {
    #if canImport(Darwin)
      URLSessionTransport()
    #else
      SocketTransport()
    #endif
  }

  // MARK: Loading

  /// The object at `path`, mapped with `mapping`.
  ///
  /// ```swift
  /// let article = try await manager.get("/articles/1", mapping: articleMapping)
  /// let wrapped = try await manager.get("/articles/1", mapping: articleMapping, rootKey: "article")
  /// ```
  ///
  /// - Parameters:
  ///   - path: The path under ``baseURL`` (percent-encoded; a leading `/` is optional).
  ///   - query: Query items.
  ///   - mapping: Maps the response.
  ///   - rootKey: A key path the object is under (`"data.article"`), or `nil`.
  ///   - headers: Header fields for this request (over ``headers``).
  ///   - limits: Limits for this request, when not ``limits``.
  /// - Returns: The mapped object.
  /// - Throws: ``ObjectManagerError``.
  public func get<M: MappingProtocol>(
    _ path: String, query: Query = [:], mapping: M, rootKey: String? = nil,
    headers: HeaderFields = [:], limits: RequestLimits? = nil
  ) async throws(ObjectManagerError) -> sending M.Object {
    let response = try await send(.get, path, query: query, headers: headers, limits: limits)
    return try response.map(mapping, at: rootKey)
  }

  /// The array at `path`, each element mapped with `mapping` (a single object is a collection
  /// of one).
  ///
  /// - Parameters:
  ///   - path: The path under ``baseURL``.
  ///   - query: Query items.
  ///   - mapping: Maps each element.
  ///   - rootKey: A key path the array is under (`"articles"`), or `nil`.
  ///   - headers: Header fields for this request.
  ///   - limits: Limits for this request, when not ``limits``.
  /// - Returns: The mapped objects, in payload order.
  /// - Throws: ``ObjectManagerError``.
  public func getCollection<M: MappingProtocol>(
    _ path: String, query: Query = [:], mapping: M, rootKey: String? = nil,
    headers: HeaderFields = [:], limits: RequestLimits? = nil
  ) async throws(ObjectManagerError) -> sending [M.Object] {
    let response = try await send(.get, path, query: query, headers: headers, limits: limits)
    return try response.mapCollection(mapping, at: rootKey)
  }

  /// The response at `path`, mapped through ``provider``'s routes (a 200 or 204 with an empty
  /// body is an empty result, as RestKit gave).
  ///
  /// - Parameters:
  ///   - path: The path under ``baseURL``.
  ///   - query: Query items.
  ///   - headers: Header fields for this request.
  ///   - limits: Limits for this request, when not ``limits``.
  /// - Returns: The objects of every route that found its key path.
  /// - Throws: ``ObjectManagerError``; ``ObjectManagerError/noRoute(_:)`` without a provider.
  public func get(
    _ path: String, query: Query = [:], headers: HeaderFields = [:],
    limits: RequestLimits? = nil
  ) async throws(ObjectManagerError) -> sending MappingResult {
    guard let provider else {
      throw .noRoute("GET \(path): the manager has no mapping provider")
    }
    let response = try await send(.get, path, query: query, headers: headers, limits: limits)
    return try response.map(provider)
  }

  /// `object` loaded again from its route: the response is mapped onto a copy of it (a class
  /// instance in place, only when the whole response maps).
  ///
  /// - Parameters:
  ///   - object: The object to reload.
  ///   - mapping: Maps the response onto it.
  ///   - path: The path, when not the router's for `object` and `GET`.
  ///   - rootKey: A key path the response's object is under, or `nil`.
  ///   - headers: Header fields for this request.
  ///   - limits: Limits for this request, when not ``limits``.
  /// - Returns: The object as the server has it.
  /// - Throws: ``ObjectManagerError``; the object is unchanged.
  nonisolated(nonsending)
    public func reload<M: MappingProtocol>(
      _ object: M.Object, mapping: M, path: String? = nil, rootKey: String? = nil,
      headers: HeaderFields = [:], limits: RequestLimits? = nil
    ) async throws(ObjectManagerError) -> M.Object
  {
    try await request(
      .get, object, mapping: mapping, path: path, sendsBody: false, format: nil,
      rootKey: rootKey, headers: headers, limits: limits)
  }

  // MARK: Sending

  /// Creates `object`: its body written by `mapping`'s inverse, the response mapped back onto a
  /// copy of it (server-assigned ids, timestamps).
  ///
  /// ```swift
  /// let created = try await manager.post(draft, mapping: articleMapping, rootKey: "article")
  /// // body {"article": {...}}; the response's object read from "article" too
  /// ```
  ///
  /// - Parameters:
  ///   - object: The object to send.
  ///   - mapping: Writes the body and reads the response.
  ///   - path: The path, when not the router's for `object` and `POST`.
  ///   - format: The body's format, when not ``requestFormat``.
  ///   - rootKey: A key to write the body under and read the response from (RestKit's
  ///     `rootKeyPath`; dotted for a nested response), or `nil`.
  ///   - headers: Header fields for this request.
  ///   - limits: Limits for this request, when not ``limits``.
  /// - Returns: The object as the server answered it (unchanged for an empty response).
  /// - Throws: ``ObjectManagerError``; a class instance is unchanged.
  nonisolated(nonsending)
    public func post<M: MappingProtocol>(
      _ object: M.Object, mapping: M, path: String? = nil, format: PayloadFormat? = nil,
      rootKey: String? = nil, headers: HeaderFields = [:], limits: RequestLimits? = nil
    ) async throws(ObjectManagerError) -> M.Object
  {
    try await request(
      .post, object, mapping: mapping, path: path, sendsBody: true, format: format,
      rootKey: rootKey, headers: headers, limits: limits)
  }

  /// Replaces `object` (``post(_:mapping:path:format:rootKey:headers:limits:)`` with `PUT`).
  ///
  /// - Parameters:
  ///   - object: The object to send.
  ///   - mapping: Writes the body and reads the response.
  ///   - path: The path, when not the router's for `object` and `PUT`.
  ///   - format: The body's format, when not ``requestFormat``.
  ///   - rootKey: A key to write the body under and read the response from, or `nil`.
  ///   - headers: Header fields for this request.
  ///   - limits: Limits for this request, when not ``limits``.
  /// - Returns: The object as the server answered it.
  /// - Throws: ``ObjectManagerError``; a class instance is unchanged.
  nonisolated(nonsending)
    public func put<M: MappingProtocol>(
      _ object: M.Object, mapping: M, path: String? = nil, format: PayloadFormat? = nil,
      rootKey: String? = nil, headers: HeaderFields = [:], limits: RequestLimits? = nil
    ) async throws(ObjectManagerError) -> M.Object
  {
    try await request(
      .put, object, mapping: mapping, path: path, sendsBody: true, format: format,
      rootKey: rootKey, headers: headers, limits: limits)
  }

  /// Updates `object` (``post(_:mapping:path:format:rootKey:headers:limits:)`` with `PATCH`).
  ///
  /// - Parameters:
  ///   - object: The object to send.
  ///   - mapping: Writes the body and reads the response.
  ///   - path: The path, when not the router's for `object` and `PATCH`.
  ///   - format: The body's format, when not ``requestFormat``.
  ///   - rootKey: A key to write the body under and read the response from, or `nil`.
  ///   - headers: Header fields for this request.
  ///   - limits: Limits for this request, when not ``limits``.
  /// - Returns: The object as the server answered it.
  /// - Throws: ``ObjectManagerError``; a class instance is unchanged.
  nonisolated(nonsending)
    public func patch<M: MappingProtocol>(
      _ object: M.Object, mapping: M, path: String? = nil, format: PayloadFormat? = nil,
      rootKey: String? = nil, headers: HeaderFields = [:], limits: RequestLimits? = nil
    ) async throws(ObjectManagerError) -> M.Object
  {
    try await request(
      .patch, object, mapping: mapping, path: path, sendsBody: true, format: format,
      rootKey: rootKey, headers: headers, limits: limits)
  }

  /// Deletes `object` at its route (no body is sent; the response body is ignored).
  ///
  /// ```swift
  /// try await manager.delete(article)        // DELETE /articles/42
  /// ```
  ///
  /// - Parameters:
  ///   - object: The object to delete.
  ///   - path: The path, when not the router's for `object` and `DELETE`.
  ///   - headers: Header fields for this request.
  ///   - limits: Limits for this request, when not ``limits``.
  /// - Throws: ``ObjectManagerError``.
  nonisolated(nonsending)
    public func delete<Object>(
      _ object: Object, path: String? = nil, headers: HeaderFields = [:],
      limits: RequestLimits? = nil
    ) async throws(ObjectManagerError)
  {
    let resolved: String
    if let path {
      resolved = path
    } else {
      resolved = try router.path(for: object, method: .delete)
    }
    _ = try await send(.delete, resolved, headers: headers, limits: limits)
  }

  nonisolated(nonsending)
    private func request<M: MappingProtocol>(
      _ method: HTTPMethod, _ object: M.Object, mapping: M, path: String?, sendsBody: Bool,
      format: PayloadFormat?, rootKey: String?, headers: HeaderFields, limits: RequestLimits?
    ) async throws(ObjectManagerError) -> M.Object
  {
    let resolved: String
    if let path { resolved = path } else { resolved = try router.path(for: object, method: method) }
    var body: RequestBody?
    if sendsBody {
      do {
        body = try mapping.requestBody(
          for: object, as: format ?? requestFormat, rootKey: rootKey, with: options)
      } catch {
        throw .requestBody(error)
      }
    }
    let response = try await send(method, resolved, body: body, headers: headers, limits: limits)
    guard !response.body.isEmpty else { return object }
    var updated = object
    try response.map(mapping, at: rootKey, onto: &updated)
    return updated
  }
}
