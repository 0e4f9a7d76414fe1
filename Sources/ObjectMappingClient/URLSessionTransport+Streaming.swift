import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension URLSessionTransport {
  /// Sends `request` and returns once the response head arrived; the body is delivered as the
  /// session receives it, with backpressure (see ``HTTPTransport/stream(_:maximumBodySize:)``).
  ///
  /// The transfer runs on a session of its own, with this transport's configuration: while the
  /// consumer does not take the body, the session's delegate waits once 256 KiB are queued,
  /// which stops the session reading from the connection (TCP then slows the server down), and
  /// a shared session would hold up every other transfer. Releasing the body, cancelling the
  /// task or the manager's deadline cancel the transfer, which closes its connection.
  /// Redirects are not followed here; bodies are decompressed (`gzip`, `deflate`, `br`,
  /// `zstd`) as they arrive. A consumer that stops taking the body for longer than the
  /// configuration's `timeoutIntervalForRequest` may see the transfer time out.
  ///
  /// - Parameters:
  ///   - request: The request.
  ///   - maximumBodySize: Not used: the body is never held whole.
  /// - Returns: The response, its body read as it arrives.
  /// - Throws: `URLError`: `.cancelled` when the task was cancelled, or the session's error.
  public func stream(_ request: TransportRequest, maximumBodySize: Int) async throws(URLError)
    -> StreamedTransportResponse
  {
    if Task.isCancelled { throw URLError(.cancelled) }
    var urlRequest = URLRequest(url: request.url)
    urlRequest.httpMethod = request.method.rawValue
    for field in request.headers {
      urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
    }
    urlRequest.httpBody = request.body
    let prepared = urlRequest
    let configuration = session.configuration
    let transfer = _StreamTransfer()
    let head = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        transfer.awaitHead(continuation)
        // Making and resuming a task may wait for a session's work queue: never on the
        // cooperative pool.
        _streamCalls.async {
          #if canImport(FoundationNetworking)
            let queue: OperationQueue = _InlineOperationQueue()
          #else
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
          #endif
          let session = URLSession(
            configuration: configuration, delegate: _StreamDelegate(transfer),
            delegateQueue: queue)
          transfer.start(session.dataTask(with: prepared))
          // The session ends with its one task (and lets go of its delegate).
          session.finishTasksAndInvalidate()
        }
      }
    } onCancel: {
      transfer.fail(URLError(.cancelled))
    }
    let response = try head.get()
    guard let url = response.url else { throw URLError(.badServerResponse) }
    return StreamedTransportResponse(
      statusCode: response.statusCode, headers: _headerFields(of: response), url: url,
      body: TransportBody(
        next: { () throws(URLError) in try await transfer.next() },
        close: { transfer.fail(URLError(.cancelled)) }))
  }
}

/// Where streamed transfers call URLSession methods that may wait for a session's work queue.
private let _streamCalls = DispatchQueue(
  label: "ObjectMappingClient.URLSessionTransport.stream", attributes: .concurrent)

/// A streamed transfer's session delegate.
private final class _StreamDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  // @unchecked: `transfer` is immutable (and Sendable).
  let transfer: _StreamTransfer

  init(_ transfer: _StreamTransfer) {
    self.transfer = transfer
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
    completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    // The manager follows redirects itself.
    completionHandler(nil)
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    completionHandler(transfer.receive(response) ? .allow : .cancel)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    transfer.receive(data)
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    transfer.complete(error: error)
  }
}

/// One streamed transfer: the response head for the caller, then the body's chunks queued for
/// the consumer, at most ``highWater`` bytes of them: past that the delegate's thread waits.
final class _StreamTransfer: @unchecked Sendable {
  // @unchecked: every `var` is only touched while `condition` (the lock) is held.
  private let condition = NSCondition()
  private var task: URLSessionDataTask?
  private var headContinuation: CheckedContinuation<Result<HTTPURLResponse, URLError>, Never>?
  private var head: HTTPURLResponse?
  private var chunks: [Data] = []
  private var nextChunk = 0
  private var queued = 0
  /// The body arrived whole.
  private var completed = false
  private var failure: URLError?
  /// The consumer waiting for a chunk.
  private var reader: CheckedContinuation<Result<Data?, URLError>, Never>?

  /// The most bytes queued before the delegate waits for the consumer.
  static let highWater = 256 << 10

  private func locked<Result>(_ body: () -> Result) -> Result {
    condition.lock()
    defer { condition.unlock() }
    return body()
  }

  /// Resumes `continuation` with the response head (or the failure) once known.
  func awaitHead(_ continuation: CheckedContinuation<Result<HTTPURLResponse, URLError>, Never>) {
    let known: Result<HTTPURLResponse, URLError>? = locked {
      if let failure { return .failure(failure) }
      if let head { return .success(head) }
      headContinuation = continuation
      return nil
    }
    if let known { continuation.resume(returning: known) }
  }

  /// Starts `task`, unless the transfer already failed.
  func start(_ task: URLSessionDataTask) {
    let failed: Bool = locked {
      self.task = task
      return failure != nil
    }
    if failed { task.cancel() } else { task.resume() }
  }

  /// The response head arrived; `false` when it is not HTTP.
  func receive(_ response: URLResponse) -> Bool {
    guard let http = response as? HTTPURLResponse else {
      fail(URLError(.badServerResponse))
      return false
    }
    let waiting = locked {
      head = http
      defer { headContinuation = nil }
      return headContinuation
    }
    waiting?.resume(returning: .success(http))
    return true
  }

  /// A chunk of the body arrived (on the session's delegate thread): handed to a waiting
  /// consumer, or queued; with ``highWater`` bytes queued, waits until the consumer took them
  /// or the transfer ended.
  func receive(_ data: Data) {
    condition.lock()
    guard failure == nil, !data.isEmpty else {
      condition.unlock()
      return
    }
    if let reader {
      self.reader = nil
      condition.unlock()
      reader.resume(returning: .success(data))
      return
    }
    chunks.append(data)
    queued += data.count
    while queued >= Self.highWater, failure == nil {
      condition.wait()
    }
    condition.unlock()
  }

  /// The transfer ended: with its whole body, or with `error`.
  func complete(error: (any Error)?) {
    if let error {
      fail(error as? URLError ?? URLError(.unknown, userInfo: [NSUnderlyingErrorKey: error]))
      return
    }
    let (noHead, waiting): (Bool, CheckedContinuation<Result<Data?, URLError>, Never>?) = locked {
      completed = true
      guard head != nil else { return (true, nil) }
      defer { reader = nil }
      return (false, reader)
    }
    if noHead {
      fail(URLError(.badServerResponse))
      return
    }
    waiting?.resume(returning: .success(nil))
  }

  /// The next chunk of the body, waiting for it; `nil` at its end.
  func next() async throws(URLError) -> Data? {
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation {
        (continuation: CheckedContinuation<Result<Data?, URLError>, Never>) in
        condition.lock()
        if nextChunk < chunks.count {
          let chunk = chunks[nextChunk]
          // The queue lets go of a chunk as soon as it is taken, and drops the taken slots
          // now and then: a producer that stays ahead never lets it drain.
          chunks[nextChunk] = Data()
          nextChunk += 1
          queued -= chunk.count
          if nextChunk == chunks.count {
            chunks.removeAll(keepingCapacity: true)
            nextChunk = 0
          } else if nextChunk >= 64 {
            chunks.removeFirst(nextChunk)
            nextChunk = 0
          }
          condition.broadcast()
          condition.unlock()
          continuation.resume(returning: .success(chunk))
          return
        }
        if let failure {
          condition.unlock()
          continuation.resume(returning: .failure(failure))
          return
        }
        if completed {
          condition.unlock()
          continuation.resume(returning: .success(nil))
          return
        }
        reader = continuation
        condition.unlock()
      }
    } onCancel: {
      fail(URLError(.cancelled))
    }
    return try result.get()
  }

  /// Ends the transfer with `error` (unless it already ended), wakes the delegate and the
  /// consumer, and cancels the task, which closes its connection.
  func fail(_ error: URLError) {
    condition.lock()
    guard failure == nil else {
      condition.unlock()
      return
    }
    failure = error
    chunks = []
    nextChunk = 0
    queued = 0
    let waitingHead = headContinuation
    let waitingReader = reader
    headContinuation = nil
    reader = nil
    let task = completed ? nil : self.task
    condition.broadcast()
    condition.unlock()
    waitingHead?.resume(returning: .failure(error))
    waitingReader?.resume(returning: .failure(error))
    if let task {
      // `cancel()` may wait for the session's work queue, on whose thread the delegate runs
      // (and may be waiting: it was woken above).
      _streamCalls.async { task.cancel() }
    }
  }
}
