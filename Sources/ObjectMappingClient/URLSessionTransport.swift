import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The default ``HTTPTransport``: `URLSession` (FoundationNetworking on Linux), streaming each
/// body through a delegate so the size limit holds while the bytes arrive.
///
/// ```swift
/// let configuration = URLSessionTransport.defaultConfiguration()
/// configuration.httpAdditionalHeaders = ["User-Agent": "Notes/2.0"]
/// let manager = ObjectManager(
///   baseURL: api, transport: URLSessionTransport(configuration: configuration))
/// ```
///
/// - **Redirects** are never followed here: the session's delegate refuses them and the manager
///   decides with its ``RedirectPolicy``.
/// - **Size.** Bytes are counted as the session delivers them, after the transparent
///   decompression of `gzip`, `deflate`, `br` and `zstd` bodies, and the transfer is cancelled
///   at the limit; a response whose `Content-Length` (of an unencoded body) is over the limit is
///   refused before its body. On Linux the delegate runs on the session's own thread, so no
///   decompressed data queues up behind a slow consumer; FoundationNetworking cannot interrupt
///   libcurl in the middle of a read, so what libcurl has already received is decompressed and
///   dropped (time, not memory) before the connection closes.
/// - **Cancellation** of the calling task cancels the data task, which closes its connection.
/// - **What stays out**: ``defaultConfiguration()`` is ephemeral, with no cookie store, no
///   cache and no credential store, so nothing is added to a request that the manager did not
///   put there.
///
/// Known gaps (FoundationNetworking on Linux): the body of a 301, 302, 303, 307 or 308 response
/// is kept by URLSession itself until it ends, before any delegate sees a byte, so such a body is
/// bounded by the manager's deadline, not by the size limit; and a session runs all its
/// transfers on one thread, so while libcurl drops the rest of an oversized body the other
/// requests of the same transport wait. Give a client of untrusted servers a transport of its
/// own.
public final class URLSessionTransport: HTTPTransport {
  /// A transport with ``defaultConfiguration()`` that managers can share (each manager made
  /// without a transport has one of its own).
  public static let shared = URLSessionTransport()

  let session: URLSession
  private let delegate: TransportDelegate

  /// A transport on a session of its own with `configuration`.
  ///
  /// - Parameter configuration: The session's configuration (timeouts, proxies, additional
  ///   headers); ``defaultConfiguration()`` by default. Cookies and credentials it stores are
  ///   sent by URLSession on its own, also after a redirect the manager follows: keep them out
  ///   unless the manager talks to one origin.
  public init(configuration: URLSessionConfiguration = URLSessionTransport.defaultConfiguration()) {
    let delegate = TransportDelegate()
    self.delegate = delegate
    #if canImport(FoundationNetworking)
      let queue: OperationQueue = InlineOperationQueue()
    #else
      let queue = OperationQueue()
      queue.maxConcurrentOperationCount = 1
    #endif
    session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
  }

  deinit {
    session.finishTasksAndInvalidate()
  }

  /// An ephemeral configuration without cookies, cache or credential store; requests time out
  /// after 60 seconds without data (the manager's deadline bounds the whole request).
  ///
  /// - Returns: A new configuration to adjust.
  public static func defaultConfiguration() -> URLSessionConfiguration {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpCookieAcceptPolicy = .never
    configuration.httpShouldSetCookies = false
    configuration.httpCookieStorage = nil
    configuration.urlCache = nil
    configuration.urlCredentialStorage = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.timeoutIntervalForRequest = 60
    return configuration
  }

  /// Sends `request` on the session; see ``HTTPTransport/send(_:maximumBodySize:)``.
  ///
  /// - Parameters:
  ///   - request: The request.
  ///   - maximumBodySize: The most body bytes to accept, after decompression.
  /// - Returns: The response.
  /// - Throws: `URLError`: `.dataLengthExceedsMaximum`, `.cancelled`, or the session's error.
  public func send(_ request: TransportRequest, maximumBodySize: Int) async throws(URLError)
    -> TransportResponse
  {
    if Task.isCancelled { throw URLError(.cancelled) }
    let prepared = try request.urlRequest()
    let transfer = Transfer(limit: maximumBodySize, expectsBody: request.method != .head)
    let (session, delegate) = (self.session, self.delegate)
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        // Making and resuming a task waits for the session's work queue on Linux, which can be
        // busy for a while (decompressing an oversized body): never on the cooperative pool.
        _sessionCalls.async {
          let task = session.dataTask(with: prepared)
          delegate.register(transfer, for: task)
          transfer.start(task, continuation)
        }
      }
    } onCancel: {
      transfer.fail(URLError(.cancelled))
    }
    delegate.unregister(transfer)
    return try result.get()
  }
}

extension TransportRequest {
  /// The request as URLSession takes it; `URLError(.badURL)` for a field that would split the
  /// request (a CR or LF in a value, a name that is not a token), which the manager refuses
  /// before, for a caller of the transport itself.
  func urlRequest() throws(URLError) -> URLRequest {
    guard fieldsCanBeWritten else { throw URLError(.badURL) }
    var urlRequest = URLRequest(url: url)
    urlRequest.httpMethod = method.rawValue
    for field in headers {
      urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
    }
    urlRequest.httpBody = body
    return urlRequest
  }
}

/// How a session delegate answers an authentication challenge.
typealias ChallengeAnswer =
  @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) ->
  Void

/// Where the transport calls URLSession methods that may wait for a session's work queue.
private let _sessionCalls = DispatchQueue(
  label: "ObjectMappingClient.URLSessionTransport", attributes: .concurrent)

#if canImport(FoundationNetworking)
  /// Runs each delegate callback at once, on the thread that delivers it (the session's work
  /// queue, libcurl's thread): the body is counted as libcurl produces it, so decompressed
  /// chunks never pile up in a queue faster than they are consumed. The delegate never blocks
  /// and never calls back into the session synchronously (it cancels tasks from another queue),
  /// so running on that thread cannot deadlock.
  final class InlineOperationQueue: OperationQueue, @unchecked Sendable {
    // @unchecked: no state of its own; OperationQueue's is unused.
    override func addOperation(_ block: @escaping @Sendable () -> Void) {
      block()
    }
  }
#endif

/// The session's delegate: routes each task's callbacks to its ``Transfer``.
private final class TransportDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  // @unchecked: `transfers` is only touched under `lock`.
  private let lock = NSLock()
  private var transfers: [Int: Transfer] = [:]

  func register(_ transfer: Transfer, for task: URLSessionTask) {
    lock.withLock {
      transfer.identifier = task.taskIdentifier
      transfers[task.taskIdentifier] = transfer
    }
  }

  func unregister(_ transfer: Transfer) {
    lock.withLock {
      guard let identifier = transfer.identifier else { return }
      transfers.removeValue(forKey: identifier)
    }
  }

  private func transfer(of task: URLSessionTask) -> Transfer? {
    lock.withLock { transfers[task.taskIdentifier] }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
    completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    // The manager follows redirects itself. A transfer no longer registered has ended: see
    // `Transfer.declineRedirect(_:)` for why its callback is left uncompleted.
    transfer(of: task)?.declineRedirect(completionHandler)
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
    completionHandler: @escaping ChallengeAnswer
  ) {
    #if canImport(FoundationNetworking)
      // FoundationNetworking asks once a `401` with a `Basic` challenge has arrived whole; its
      // default handling without a stored credential neither retries nor ends the task, which
      // waited for the deadline. The manager answers no challenge: the `401` is the response.
      if challenge.failureResponse is HTTPURLResponse, let transfer = transfer(of: task) {
        transfer.complete(response: challenge.failureResponse, error: nil)
        // Cancelling the challenge cancels the task, which waits for the session's work queue,
        // on whose thread callbacks run.
        _sessionCalls.async { completionHandler(.cancelAuthenticationChallenge, nil) }
        return
      }
    #endif
    completionHandler(.performDefaultHandling, nil)
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    let accepted = transfer(of: dataTask)?.receive(response) ?? true
    completionHandler(accepted ? .allow : .cancel)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    transfer(of: dataTask)?.append(data)
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    transfer(of: task)?.complete(response: task.response, error: error)
  }
}

/// One request in flight: its body so far, and the continuation that ends it (exactly once).
private final class Transfer: @unchecked Sendable {
  // @unchecked: every `var` is only touched under `lock`, but `identifier`, which only the
  // delegate touches, under its own lock.
  private let lock = NSLock()
  private var task: URLSessionDataTask?
  private let limit: Int
  private let expectsBody: Bool
  private var continuation: CheckedContinuation<Result<TransportResponse, URLError>, Never>?
  private var outcome: Result<TransportResponse, URLError>?
  private var response: HTTPURLResponse?
  private var body = Data()
  /// The task's identifier in the session's delegate.
  var identifier: Int?

  init(limit: Int, expectsBody: Bool) {
    self.limit = max(0, limit)
    self.expectsBody = expectsBody
  }

  /// Starts `task`, or ends at once when the request was cancelled before.
  func start(
    _ task: URLSessionDataTask,
    _ continuation: CheckedContinuation<Result<TransportResponse, URLError>, Never>
  ) {
    let finished: Result<TransportResponse, URLError>? = lock.withLock {
      self.task = task
      if outcome == nil { self.continuation = continuation }
      return outcome
    }
    if let finished {
      continuation.resume(returning: finished)
      task.cancel()
    } else {
      task.resume()
    }
  }

  /// Declines a redirect (the manager follows redirects itself), unless the transfer already
  /// ended.
  ///
  /// FoundationNetworking completes a redirect callback on the task's work queue and traps
  /// ("Received callback for HTTP redirection, but we're not waiting for it") when a
  /// cancellation reached the task first. An ended transfer has cancelled its task, or is about
  /// to, so its callback is left uncompleted and the cancellation ends the task. The check and
  /// the completion happen under the lock that `finish` sets the outcome under: the completion
  /// is queued either before the cancellation is requested or not at all. (The completion
  /// handler only queues work, so calling it under the lock cannot wait.)
  func declineRedirect(_ completionHandler: @Sendable (URLRequest?) -> Void) {
    lock.withLock {
      if outcome == nil { completionHandler(nil) }
    }
  }

  /// Keeps the response head; `false` when its announced length is over the limit.
  func receive(_ response: URLResponse) -> Bool {
    guard let http = response as? HTTPURLResponse else { return true }
    lock.withLock { self.response = http }
    let encoding = http.value(forHTTPHeaderField: "Content-Encoding")?.lowercased()
    if expectsBody, encoding == nil || encoding == "identity",
      http.expectedContentLength > Int64(limit)
    {
      fail(URLError(.dataLengthExceedsMaximum))
      return false
    }
    return true
  }

  /// Adds a chunk of the body, or ends the transfer when it passes the limit.
  func append(_ data: Data) {
    let over: Bool = lock.withLock {
      guard outcome == nil else { return false }
      guard body.count + data.count <= limit else { return true }
      body.append(data)
      return false
    }
    if over { fail(URLError(.dataLengthExceedsMaximum)) }
  }

  /// Ends the transfer with the task's outcome.
  func complete(response taskResponse: URLResponse?, error: (any Error)?) {
    if let error {
      fail(error as? URLError ?? URLError(.unknown, userInfo: [NSUnderlyingErrorKey: error]))
      return
    }
    let result: Result<TransportResponse, URLError> = lock.withLock {
      guard let http = response ?? (taskResponse as? HTTPURLResponse), let url = http.url else {
        return .failure(URLError(.badServerResponse))
      }
      return .success(
        TransportResponse(
          statusCode: http.statusCode, headers: _headerFields(of: http), body: body, url: url))
    }
    finish(result, cancelling: false)
  }

  /// Ends the transfer with `error` and cancels the task.
  func fail(_ error: URLError) {
    finish(.failure(error), cancelling: true)
  }

  private func finish(_ result: Result<TransportResponse, URLError>, cancelling: Bool) {
    let ended:
      (CheckedContinuation<Result<TransportResponse, URLError>, Never>?, URLSessionDataTask?)? =
        lock.withLock {
          guard outcome == nil else { return nil }
          outcome = result
          body = Data()
          defer { continuation = nil }
          return (continuation, task)
        }
    guard let (continuation, task) = ended else { return }
    continuation?.resume(returning: result)
    if cancelling, let task {
      // `cancel()` may wait for the session's work queue, on whose thread callbacks run.
      _sessionCalls.async { task.cancel() }
    }
  }

}

/// A response's header fields, sorted by name (URLSession does not keep their order).
func _headerFields(of response: HTTPURLResponse) -> HeaderFields {
  HeaderFields(
    response.allHeaderFields.map { HeaderFields.Field(name: "\($0.key)", value: "\($0.value)") }
      .sorted { $0.name.lowercased() < $1.name.lowercased() })
}
