import Foundation
import ObjectMapping

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension URLSessionTransport {
  /// Sends `request` and returns once the response head arrived; the body is delivered as the
  /// session receives it (see ``HTTPTransport/stream(_:maximumBodySize:)``).
  ///
  /// The transfer runs on a session of its own, with this transport's configuration, whose
  /// delegate never waits for the consumer (on Linux every session's delegate runs on one
  /// shared thread, which a waiting delegate would hold): up to 256 KiB the consumer has not
  /// taken are queued in memory, and what comes after them is written to a temporary file (the
  /// spool) and read back in order, so memory stays bounded whatever the consumer does. The
  /// spool's file is unlinked as soon as it is open and closed when the body ends, fails, is
  /// closed or released. When the consumer lags behind by more than `maximumBodySize` bytes
  /// (memory and spool together), or the spool cannot be written (a full disk), the transfer
  /// is cancelled and the body fails. Releasing the body, cancelling the task or the manager's
  /// deadline cancel the transfer, which closes its connection. Redirects are not followed
  /// here; bodies are decompressed (`gzip`, `deflate`, `br`, `zstd`) as they arrive.
  ///
  /// - Parameters:
  ///   - request: The request.
  ///   - maximumBodySize: The most bytes received and not yet taken by the consumer (at least
  ///     256 KiB): the bound on the spool's disk use. The whole body may be larger.
  /// - Returns: The response, its body read as it arrives.
  /// - Throws: `URLError`: `.cancelled` when the task was cancelled, or the session's error.
  ///   The body fails with `.dataLengthExceedsMaximum` when the consumer lags behind by more
  ///   than `maximumBodySize` bytes, `.cannotCreateFile`, `.cannotWriteToFile` or
  ///   `.cannotOpenFile` when the spool cannot be made, written or read, `.cancelled` once
  ///   closed, or with the session's error.
  public func stream(_ request: TransportRequest, maximumBodySize: Int) async throws(URLError)
    -> StreamedTransportResponse
  {
    if Task.isCancelled { throw URLError(.cancelled) }
    let prepared = try request.urlRequest()
    let configuration = session.configuration
    let transfer = StreamTransfer(limit: maximumBodySize)
    let head = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        transfer.awaitHead(continuation)
        // Making and resuming a task may wait for a session's work queue: never on the
        // cooperative pool.
        _streamCalls.async {
          #if canImport(FoundationNetworking)
            let queue: OperationQueue = InlineOperationQueue()
          #else
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
          #endif
          let session = URLSession(
            configuration: configuration, delegate: StreamDelegate(transfer),
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
private final class StreamDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  // @unchecked: `transfer` is immutable (and Sendable), `answeredChallenge` locked.
  let transfer: StreamTransfer
  /// Whether an authentication challenge ended the transfer (its task's cancellation follows).
  private let answeredChallenge = _Locked(false)

  init(_ transfer: StreamTransfer) {
    self.transfer = transfer
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
    completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    // The manager follows redirects itself.
    transfer.declineRedirect(completionHandler)
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
    _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
    completionHandler: @escaping ChallengeAnswer
  ) {
    #if canImport(FoundationNetworking)
      // As in `URLSessionTransport`'s delegate: the `401` (whose head and body were delivered)
      // is the response; the cancellation that ends the task is not the body's failure.
      if challenge.failureResponse is HTTPURLResponse {
        answeredChallenge.withLock { $0 = true }
        transfer.complete(error: nil)
        // Cancelling the challenge cancels the task: see `StreamTransfer.fail(_:)`.
        _streamCalls.async { completionHandler(.cancelAuthenticationChallenge, nil) }
        return
      }
    #endif
    completionHandler(.performDefaultHandling, nil)
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    if answeredChallenge.withLock({ $0 }) { return }
    transfer.complete(error: error)
  }
}

/// One streamed transfer: the response head for the caller, then the body's chunks queued for
/// the consumer. The delegate never waits: up to ``highWater`` bytes are queued in memory, the
/// rest in a ``Spool`` file, read back in order; past `limit` bytes held in all, the transfer
/// fails with `URLError(.dataLengthExceedsMaximum)`.
final class StreamTransfer: @unchecked Sendable {
  // @unchecked: every `var` is only touched while `lock` is held (and the spool's file only
  // read or written then).
  private let lock = NSLock()
  private var task: URLSessionDataTask?
  private var headContinuation: CheckedContinuation<Result<HTTPURLResponse, URLError>, Never>?
  private var head: HTTPURLResponse?
  private var chunks: [Data] = []
  private var nextChunk = 0
  /// The bytes of `chunks` not taken yet.
  private var queued = 0
  /// The bytes past the in-memory mark, once there were any (in order after `chunks`).
  private var spool: Spool?
  /// The body arrived whole.
  private var completed = false
  private var failure: URLError?
  /// The consumer waiting for a chunk.
  private var reader: CheckedContinuation<Result<Data?, URLError>, Never>?
  /// The most bytes held (in memory and in the spool) before the transfer fails.
  private let limit: Int

  /// The most bytes queued in memory; more go to the spool.
  static let highWater = 256 << 10
  /// The most bytes a read from the spool returns.
  static let spoolChunk = 256 << 10

  /// A transfer that holds at most `limit` bytes the consumer has not taken (at least
  /// ``highWater``).
  init(limit: Int) {
    self.limit = max(limit, Self.highWater)
  }

  private func locked<Result>(_ body: () -> Result) -> Result {
    lock.lock()
    defer { lock.unlock() }
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

  /// Declines a redirect (the manager follows redirects itself), unless the transfer already
  /// failed: its task is cancelled, or about to be, and FoundationNetworking traps when a
  /// redirect callback completes after a cancellation (see `Transfer.declineRedirect(_:)` in
  /// URLSessionTransport.swift). Checked and completed under the lock `fail` sets the failure
  /// under; the completion handler only queues work.
  func declineRedirect(_ completionHandler: @Sendable (URLRequest?) -> Void) {
    locked {
      if failure == nil { completionHandler(nil) }
    }
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
  /// consumer, queued in memory under ``highWater``, or written to the spool; never waits for
  /// the consumer. Past `limit` bytes held, or when the spool cannot be written, the transfer
  /// fails.
  func receive(_ data: Data) {
    lock.lock()
    guard failure == nil, !data.isEmpty else {
      lock.unlock()
      return
    }
    if let reader {
      self.reader = nil
      lock.unlock()
      reader.resume(returning: .success(data))
      return
    }
    let spooled = spool?.count ?? 0
    guard queued + spooled + data.count <= limit else {
      lock.unlock()
      fail(URLError(.dataLengthExceedsMaximum))
      return
    }
    if spooled == 0, queued + data.count <= Self.highWater {
      chunks.append(data)
      queued += data.count
      lock.unlock()
      return
    }
    // Past the mark, or behind bytes already spooled: in order, after them.
    do throws(URLError) {
      if spool == nil { spool = try Spool(capacity: limit) }
      try spool?.write(data)
      lock.unlock()
    } catch {
      lock.unlock()
      fail(error)
    }
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
        lock.lock()
        if let available = take() {
          lock.unlock()
          if case .failure(let error) = available { fail(error) }
          continuation.resume(returning: available)
          return
        }
        if let failure {
          lock.unlock()
          continuation.resume(returning: .failure(failure))
          return
        }
        if completed {
          spool?.close()
          spool = nil
          lock.unlock()
          continuation.resume(returning: .success(nil))
          return
        }
        reader = continuation
        lock.unlock()
      }
    } onCancel: {
      fail(URLError(.cancelled))
    }
    return try result.get()
  }

  /// The first chunk held, from memory, then from the spool; `nil` when none is (called with
  /// `lock` held).
  private func take() -> Result<Data?, URLError>? {
    guard failure == nil else { return nil }
    if nextChunk < chunks.count {
      let chunk = chunks[nextChunk]
      // The queue lets go of a chunk as soon as it is taken, and drops the taken slots now
      // and then: a producer that stays ahead never lets it drain.
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
      return .success(chunk)
    }
    guard let spool, spool.count > 0 else { return nil }
    do throws(URLError) {
      return .success(try spool.read(upTo: Self.spoolChunk))
    } catch {
      return .failure(error)
    }
  }

  /// Ends the transfer with `error` (unless it already ended): lets go of what is held (the
  /// spool's file with it), wakes the consumer, and cancels the task, which closes its
  /// connection.
  func fail(_ error: URLError) {
    lock.lock()
    guard failure == nil else {
      lock.unlock()
      return
    }
    failure = error
    chunks = []
    nextChunk = 0
    queued = 0
    spool?.close()
    spool = nil
    let waitingHead = headContinuation
    let waitingReader = reader
    headContinuation = nil
    reader = nil
    let task = completed ? nil : self.task
    lock.unlock()
    waitingHead?.resume(returning: .failure(error))
    waitingReader?.resume(returning: .failure(error))
    if let task {
      // `cancel()` may wait for the session's work queue, on whose thread the delegate runs.
      _streamCalls.async { task.cancel() }
    }
  }
}

/// The bytes of a streamed body that the consumer lags behind, past the in-memory mark: a
/// temporary file used as a ring of `capacity` bytes, so it never takes more disk than that.
///
/// The file is created with a unique name (``namePrefix`` and a UUID, mode 0600, never
/// following a link) in the temporary directory and unlinked as soon as it is open: it has no
/// name while in use, and its disk space is released when it is closed, or when the process
/// ends however it ends. Used only under its transfer's lock.
final class Spool {
  /// How the spool files' names start.
  static let namePrefix = "ObjectMapping-stream-"

  private var handle: FileHandle?
  private let capacity: Int
  /// Where in the ring the first byte held is.
  private var start = 0
  /// The bytes held.
  private(set) var count = 0
  /// The file's size (what was written to it since it was last emptied).
  private var size = 0

  /// A new, empty spool of `capacity` bytes.
  ///
  /// - Throws: `URLError(.cannotCreateFile)` when no file can be made.
  init(capacity: Int) throws(URLError) {
    self.capacity = max(1, capacity)
    let path = (NSTemporaryDirectory() as NSString).appendingPathComponent(
      Self.namePrefix + UUID().uuidString)
    guard let file = unlinkedNewFile(at: path) else { throw URLError(.cannotCreateFile) }
    handle = file
  }

  deinit {
    close()
  }

  /// Adds `data` after the bytes held (the caller keeps `count` within the capacity).
  ///
  /// - Throws: `URLError(.cannotWriteToFile)` when the file cannot be written (a full disk).
  func write(_ data: Data) throws(URLError) {
    guard let handle, count + data.count <= capacity else { throw URLError(.cannotWriteToFile) }
    let end = (start + count) % capacity
    let first = min(data.count, capacity - end)
    do {
      try handle.seek(toOffset: UInt64(end))
      try handle.write(contentsOf: data.prefix(first))
      if first < data.count {
        try handle.seek(toOffset: 0)
        try handle.write(contentsOf: data.dropFirst(first))
      }
    } catch {
      throw URLError(.cannotWriteToFile)
    }
    count += data.count
    size = max(size, min(capacity, end + data.count))
  }

  /// Takes up to `maximum` of the bytes held, the first first.
  ///
  /// - Throws: `URLError(.cannotOpenFile)` when the file cannot be read back.
  func read(upTo maximum: Int) throws(URLError) -> Data {
    let length = min(maximum, count, capacity - start)
    guard let handle, length > 0 else { return Data() }
    let data: Data
    do {
      try handle.seek(toOffset: UInt64(start))
      data = try handle.read(upToCount: length) ?? Data()
    } catch {
      throw URLError(.cannotOpenFile)
    }
    guard data.count == length else { throw URLError(.cannotOpenFile) }
    start = (start + length) % capacity
    count -= length
    if count == 0 {
      // Drained: the next byte starts the ring again, and the disk is given back.
      start = 0
      if size > Self.keptSize {
        try? handle.truncate(atOffset: 0)
        size = 0
      }
    }
    return data
  }

  /// A drained file smaller than this is kept as it is (no truncation each time the consumer
  /// catches up).
  private static let keptSize = 1 << 20

  /// Closes the file, which releases its disk space; the spool then holds nothing.
  func close() {
    try? handle?.close()
    handle = nil
    count = 0
  }
}
