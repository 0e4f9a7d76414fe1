import Foundation
import ObjectMapping

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension ObjectManager {
  /// The elements of the response at `path`, mapped as its body arrives: a feed, an export, a
  /// large page, in memory bounded by the largest element.
  ///
  /// ```swift
  /// let feed = try await manager.elements("/events", mapping: eventMapping)
  /// for try await event in feed {
  ///   show(event)                       // each event as soon as its bytes arrived
  /// }
  /// let page = try await manager.elements(
  ///   "/articles", mapping: articleMapping, as: .array(at: "data"))
  /// for try await article in page { index(article) }
  /// let next = page.summary.envelope?["next"]   // once the body was read to its end
  /// ```
  ///
  /// The call sends the request, follows redirects with ``redirects`` and returns once a
  /// response with a status in 200–299 has its head: a status outside it is
  /// ``ObjectManagerError/status(_:)`` with the messages of its body (read within
  /// ``RequestLimits/maximumResponseSize``), as for every request. The body is read as it
  /// arrives, each element held to ``RequestLimits/maximumElementSize`` instead of a limit on
  /// the whole body; the request's deadline (``RequestLimits/timeout``) covers the body too, so
  /// give a long download a longer one: past it, the next call is
  /// ``ObjectManagerError/timedOut(after:)``, whatever elements were already mapped. A `204` or
  /// a body of length 0 is ``ObjectManagerError/emptyBody(status:)``, as for `getCollection`
  /// (for JSON Lines, no elements). Stopping early (`break`, a cancelled task) closes the
  /// connection. ``SocketTransport`` (the default on Linux) reads from the network only as
  /// fast as the loop takes elements. What arrived and the loop has not taken yet is held by a
  /// transport that cannot wait, at most ``RequestLimits/maximumResponseSize`` bytes:
  /// ``URLSessionTransport`` keeps 256 KiB in memory and the rest in a temporary file, and a
  /// loop that falls further behind ends with ``ObjectManagerError/consumerFellBehind(limit:)``.
  ///
  /// Elements are mapped with the manager's ``options`` and the response's metadata, as
  /// `getCollection` maps them. The layout, when `nil`, follows the response's `Content-Type`:
  /// JSON Lines for `application/x-ndjson`, `application/jsonl` and their aliases, a top-level
  /// JSON array otherwise.
  ///
  /// - Parameters:
  ///   - path: The path under ``baseURL``.
  ///   - query: Query items.
  ///   - mapping: Maps each element.
  ///   - layout: Where the elements are, or `nil` to follow the `Content-Type`.
  ///   - onElementFailure: What an element that does not map does to the stream.
  ///   - headers: Header fields for this request.
  ///   - limits: Limits for this request, when not ``limits``.
  /// - Returns: The elements, read as they are iterated, with the response's status and
  ///   header fields.
  /// - Throws: ``ObjectManagerError`` for the request (the stream's own errors are thrown as
  ///   it is read).
  public func elements<M: MappingProtocol>(
    _ path: String, query: Query = [:], mapping: M, as layout: StreamLayout? = nil,
    onElementFailure: ElementFailurePolicy = .fail, headers: HeaderFields = [:],
    limits: RequestLimits? = nil
  ) async throws(ObjectManagerError) -> ElementStream<M.Object> {
    let url = try requestURL(path: path, query: query)
    let limits = limits ?? self.limits
    let deadline = ContinuousClock.now.advanced(by: limits.timeout)
    let transport = self.transport
    let maximum = limits.maximumResponseSize
    let accept =
      layout?.isJSONLines == true
      ? "application/x-ndjson, application/jsonl;q=0.9, application/json;q=0.5"
      : "application/json, application/x-ndjson;q=0.9"
    let response = try await exchange(
      .get, url, body: nil, headers: headers, accept: accept, limits: limits, deadline: deadline,
      send: { request throws(URLError) in
        try await transport.stream(request, maximumBodySize: maximum)
      },
      head: { ($0.statusCode, $0.headers, $0.url) })
    let contentType = response.headers["Content-Type"]
    guard (200..<300).contains(response.statusCode) else {
      let body = try await Self.wholeBody(response.body, limit: maximum, deadline: deadline, limits)
      _ = try finish(
        TransportResponse(
          statusCode: response.statusCode, headers: response.headers, body: body,
          url: response.url), method: .get, requestURL: url)
      throw .status(HTTPFailure(statusCode: response.statusCode, messages: []))
    }
    let resolved = layout ?? StreamLayout.forContentType(contentType, fallback: .array)
    // No body (204, or a length of 0) holds no JSON array: `.emptyBody`, as `getCollection`
    // says, not a syntax error at byte 0. JSON Lines of no line are no elements.
    if !resolved.isJSONLines,
      response.statusCode == 204
        || response.headers["Content-Length"]?.trimmingCharacters(in: .whitespaces) == "0"
    {
      response.body.close()
      throw .emptyBody(status: response.statusCode)
    }
    if !resolved.isJSONLines, let contentType, !Self.isJSON(contentType) {
      throw .unsupportedContentType(contentType, status: response.statusCode)
    }
    let mappingOptions = Response(
      statusCode: response.statusCode, headers: response.headers, body: Data(), url: response.url,
      requestURL: url, method: .get, formats: formats, options: options,
      route: route(of: url, method: .get)
    ).mappingOptions(at: resolved.keyPath)
    let elements = mapping.elements(
      of: response.body, as: resolved,
      options: StreamOptions(
        maximumElementSize: limits.maximumElementSize, onElementFailure: onElementFailure),
      with: mappingOptions)
    return ElementStream(
      elements: elements,
      deadline: StreamDeadline(deadline, timeout: limits.timeout, body: response.body),
      statusCode: response.statusCode, headers: response.headers, url: response.url,
      backlogLimit: maximum)
  }

  /// Whether a `Content-Type` names JSON (`application/json`, `text/json`, `…+json`).
  private static func isJSON(_ contentType: String) -> Bool {
    let type =
      contentType.split(separator: ";", maxSplits: 1).first.map {
        $0.trimmingCharacters(in: .whitespaces).lowercased()
      } ?? ""
    return type == "application/json" || type == "text/json" || type.hasSuffix("+json")
  }

  /// The whole of `body`, within `limit` bytes and `deadline`.
  private static func wholeBody(
    _ body: TransportBody, limit: Int, deadline: ContinuousClock.Instant, _ limits: RequestLimits
  ) async throws(ObjectManagerError) -> Data {
    let timeout = limits.timeout
    let read = await _race(deadline: deadline) { () -> Result<Data, ObjectManagerError> in
      var data = Data()
      do throws(URLError) {
        for try await chunk in body {
          guard data.count + chunk.count <= limit else {
            return .failure(.responseTooLarge(limit: limit))
          }
          data.append(chunk)
        }
      } catch {
        return .failure(Self.error(for: error, limit: limit))
      }
      return .success(data)
    } timedOut: {
      .timedOut(after: timeout)
    }
    return try read.get()
  }
}

/// The elements of a streamed response, mapped as its body arrives: what
/// ``ObjectManager/elements(_:query:mapping:as:onElementFailure:headers:limits:)`` returns.
///
/// Iterate it once. Errors end it as ``ObjectManagerError``: `.mapping` for a syntax error or
/// an element that does not map (with its path, `/1234/author`), `.timedOut` at the request's
/// deadline, `.transport` for a connection that failed (or a temporary file that could not be
/// written), `.consumerFellBehind` when the loop lagged behind the network by more than
/// ``RequestLimits/maximumResponseSize``, `.cancelled` for a cancelled task. Releasing the iterator before the end closes the connection.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
public struct ElementStream<Object>: AsyncSequence {
  /// A mapped element.
  public typealias Element = Object
  /// What ended the stream.
  public typealias Failure = ObjectManagerError

  let elements: StreamedElements<Object, TransportBody>
  let deadline: StreamDeadline
  /// The response's status code.
  public let statusCode: Int
  /// The response's header fields (`Link` for the next page, …).
  public let headers: HeaderFields
  /// The URL that answered (after any redirect).
  public let url: URL
  /// The most bytes the transport holds ahead of the consumer (the request's
  /// ``RequestLimits/maximumResponseSize``).
  let backlogLimit: Int

  init(
    elements: StreamedElements<Object, TransportBody>, deadline: StreamDeadline,
    statusCode: Int, headers: HeaderFields, url: URL, backlogLimit: Int
  ) {
    self.elements = elements
    self.deadline = deadline
    self.statusCode = statusCode
    self.headers = headers
    self.url = url
    self.backlogLimit = backlogLimit
  }

  /// What the iteration read: counts, skipped elements, and at the end the members around a
  /// streamed array.
  public var summary: StreamSummary { elements.summary }

  /// An iterator over the elements.
  public func makeAsyncIterator() -> Iterator {
    Iterator(
      base: elements.makeAsyncIterator(), deadline: deadline, iteration: Iteration(deadline),
      statusCode: statusCode, backlogLimit: backlogLimit)
  }

  /// Reads the body as elements are asked for.
  public struct Iterator: AsyncIteratorProtocol {
    private var base: StreamedElements<Object, TransportBody>.Iterator
    private let deadline: StreamDeadline
    private let iteration: Iteration
    private let statusCode: Int
    private let backlogLimit: Int

    init(
      base: StreamedElements<Object, TransportBody>.Iterator, deadline: StreamDeadline,
      iteration: Iteration, statusCode: Int, backlogLimit: Int
    ) {
      self.base = base
      self.deadline = deadline
      self.iteration = iteration
      self.statusCode = statusCode
      self.backlogLimit = backlogLimit
    }

    /// The next element, or `nil` at the end of the body.
    ///
    /// - Returns: The element.
    /// - Throws: ``ObjectManagerError``.
    public mutating func next() async throws(ObjectManagerError) -> Object? {
      try await next(isolation: nil)
    }

    /// The next element, read in the caller's isolation.
    ///
    /// - Parameter actor: The caller's actor.
    /// - Returns: The element, or `nil` at the end of the body.
    /// - Throws: ``ObjectManagerError``.
    public mutating func next(isolation actor: isolated (any Actor)?)
      async throws(ObjectManagerError) -> Object?
    {
      // The deadline holds for elements already mapped too: at it, the body is closed, and the
      // batch the stream holds (up to 1,024 elements) is not handed out past it.
      if deadline.expired {
        deadline.stop()
        throw .timedOut(after: deadline.timeout)
      }
      do {
        guard let element = try await base.next(isolation: actor) else {
          deadline.stop()
          return nil
        }
        return element
      } catch {
        deadline.stop()
        switch error {
        case let errors as MappingErrors:
          throw .mapping(errors, status: statusCode)
        case let error as URLError:
          if deadline.expired { throw .timedOut(after: deadline.timeout) }
          // A streaming transport stops a transfer whose consumer lags by more than the limit.
          if error.code == .dataLengthExceedsMaximum {
            throw .consumerFellBehind(limit: backlogLimit)
          }
          throw ObjectManager.error(for: error, limit: 0)
        default:
          throw .cancelled
        }
      }
    }
  }

  /// An iteration: stops the deadline's watch when released.
  final class Iteration: Sendable {
    let deadline: StreamDeadline
    init(_ deadline: StreamDeadline) { self.deadline = deadline }
    deinit { deadline.stop() }
  }
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension ElementStream: Sendable where Object: Sendable {}

/// A streamed request's deadline: at it, the body is closed (the transport stops the transfer)
/// and the stream ends with ``ObjectManagerError/timedOut(after:)``.
final class StreamDeadline: Sendable {
  let timeout: Duration
  private let state = _Locked((expired: false, watch: Task<Void, Never>?.none))

  init(_ deadline: ContinuousClock.Instant, timeout: Duration, body: TransportBody) {
    self.timeout = timeout
    let state = self.state
    let watch = Task {
      try? await Task.sleep(until: deadline, clock: .continuous)
      guard !Task.isCancelled else { return }
      state.withLock { $0.expired = true }
      body.close()
    }
    state.withLock { $0.watch = watch }
  }

  /// Whether the deadline passed.
  var expired: Bool { state.withLock { $0.expired } }

  /// Stops watching (the stream ended or was released).
  func stop() {
    state.withLock { $0.watch }?.cancel()
  }

  deinit {
    stop()
  }
}
