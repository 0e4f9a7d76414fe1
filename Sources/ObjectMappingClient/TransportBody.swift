import Foundation
import ObjectMapping

extension HTTPTransport {
  /// Sends `request` with ``send(_:maximumBodySize:)`` and delivers its whole body as one
  /// chunk: how a transport that does not stream serves a streamed request.
  ///
  /// - Parameters:
  ///   - request: The request.
  ///   - maximumBodySize: The most body bytes the whole body may have.
  /// - Returns: The response, its body in one chunk.
  /// - Throws: `URLError`, as ``send(_:maximumBodySize:)`` does.
  public func stream(_ request: TransportRequest, maximumBodySize: Int) async throws(URLError)
    -> StreamedTransportResponse
  {
    let response = try await send(request, maximumBodySize: maximumBodySize)
    return StreamedTransportResponse(
      statusCode: response.statusCode, headers: response.headers, url: response.url,
      body: TransportBody(response.body))
  }
}

/// A response whose body is read as it arrives: what
/// ``HTTPTransport/stream(_:maximumBodySize:)`` returns.
public struct StreamedTransportResponse: Sendable {
  /// The status code.
  public var statusCode: Int
  /// The header fields.
  public var headers: HeaderFields
  /// The URL that answered.
  public var url: URL
  /// The body, decompressed, to read once.
  public var body: TransportBody

  /// A response.
  ///
  /// - Parameters:
  ///   - statusCode: The status code.
  ///   - headers: The header fields.
  ///   - url: The URL that answered (the request's).
  ///   - body: The body.
  public init(statusCode: Int, headers: HeaderFields = [:], url: URL, body: TransportBody) {
    self.statusCode = statusCode
    self.headers = headers
    self.url = url
    self.body = body
  }
}

/// The body of a streamed response: its chunks, read once, as they are asked for.
///
/// ```swift
/// // A transport on another HTTP client streams its body through two closures:
/// let body = TransportBody(
///   next: { () throws(URLError) in try await connection.nextChunk() },  // nil at the end
///   close: { connection.cancel() })
/// ```
///
/// The body is closed (`close` is called, once) when it is released before its end: the
/// consumer stopped early, the manager's deadline passed, the task was cancelled. A body that
/// was read to its end or failed is not closed again.
public struct TransportBody: AsyncSequence, Sendable {
  /// A chunk of the body.
  public typealias Element = Data
  /// A transfer that failed (`.cancelled` once closed, `.networkConnectionLost`, …).
  public typealias Failure = URLError

  let reader: BodyReader

  /// A body read through `next`, which returns the next chunk (`nil` at the end) and is called
  /// again only after it returned, and closed through `close`.
  ///
  /// - Parameters:
  ///   - next: Returns the next chunk, waiting for it; `nil` at the end of the body.
  ///   - close: Stops the transfer and closes its connection; called at most once, when the
  ///     body is released (or closed by the manager) before its end.
  public init(
    next: @escaping @Sendable () async throws(URLError) -> Data?,
    close: @escaping @Sendable () -> Void
  ) {
    reader = BodyReader(next: next, close: close)
  }

  /// A body that is all here: one chunk (none when `data` is empty).
  ///
  /// - Parameter data: The whole body.
  public init(_ data: Data) {
    let chunk = _Locked<Data?>(data.isEmpty ? nil : data)
    reader = BodyReader(next: { chunk.withLock { $0.take() } }, close: {})
  }

  /// An iterator over the chunks. The body is read once: releasing the iterator before the
  /// body's end closes it.
  public func makeAsyncIterator() -> Iterator {
    Iterator(iteration: BodyIteration(reader))
  }

  /// Closes the body now: the transfer stops and a pending or later read fails with
  /// `URLError(.cancelled)`.
  func close() {
    reader.close()
  }

  /// Reads the body's chunks.
  public struct Iterator: AsyncIteratorProtocol {
    let iteration: BodyIteration

    /// The next chunk, or `nil` at the end of the body.
    ///
    /// - Returns: A chunk.
    /// - Throws: `URLError`: the transfer failed, or was closed (`.cancelled`).
    public mutating func next() async throws(URLError) -> Data? {
      try await iteration.reader.next()
    }
  }
}

/// One iteration of a body: closes it when released (a consumer that stopped early).
final class BodyIteration: Sendable {
  let reader: BodyReader

  init(_ reader: BodyReader) {
    self.reader = reader
  }

  deinit {
    reader.close()
  }
}

/// The state of a body: closed when released before its end.
final class BodyReader: Sendable {
  private let read: @Sendable () async throws(URLError) -> Data?
  private let closeTransfer: @Sendable () -> Void
  /// `.open`, `.ended` (read to its end or failed) or `.closed`.
  private let state = _Locked(State.open)

  enum State {
    case open, ended, closed
  }

  init(
    next: @escaping @Sendable () async throws(URLError) -> Data?,
    close: @escaping @Sendable () -> Void
  ) {
    read = next
    closeTransfer = close
  }

  deinit {
    close()
  }

  func next() async throws(URLError) -> Data? {
    switch state.withLock({ $0 }) {
    case .closed: throw URLError(.cancelled)
    case .ended: return nil
    case .open: break
    }
    do {
      guard let chunk = try await read() else {
        state.withLock { if case .open = $0 { $0 = .ended } }
        return nil
      }
      return chunk
    } catch {
      state.withLock { if case .open = $0 { $0 = .ended } }
      throw error
    }
  }

  /// Closes the transfer, unless it ended or was closed.
  func close() {
    let closes: Bool = state.withLock {
      guard case .open = $0 else { return false }
      $0 = .closed
      return true
    }
    if closes { closeTransfer() }
  }
}
