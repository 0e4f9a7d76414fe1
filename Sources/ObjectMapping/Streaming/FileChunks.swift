import Foundation

/// The bytes of a file, read in chunks as they are asked for: a source for
/// `mapping.elements(of:as:options:with:)` that holds one chunk at a time.
///
/// ```swift
/// let url = URL(fileURLWithPath: "/exports/articles.jsonl")
/// for try await article in articleMapping.elements(of: FileChunks(url), as: .jsonLines) {
///   try index(article)
/// }
/// ```
///
/// The file is opened when iteration starts and closed when it ends: at the end of the file,
/// on an error, or as soon as the iterator is released (a loop that stops early with `break`, a
/// thrown error or a cancelled task), so a consumer that stops reading never keeps the file
/// open. Each chunk is read on a dispatch queue, never on the task's own (cooperative) thread:
/// a named pipe with no writer blocks in `open` until one comes, and a device such as
/// `/dev/zero` never ends, and neither holds one of the few threads every task shares. A
/// cancelled task's wait ends at once with `CancellationError`, whatever the read is still
/// waiting for. The next chunk is read only when the consumer asks for more elements.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
public struct FileChunks: AsyncSequence, Sendable {
  /// A chunk of the file's bytes.
  public typealias Element = Data
  /// A file that cannot be opened or read (`CocoaError`).
  public typealias Failure = any Error

  /// The file.
  public let url: URL
  /// The most bytes a chunk holds.
  public let chunkSize: Int

  /// The chunks of the file at `url`.
  ///
  /// - Parameters:
  ///   - url: A file URL.
  ///   - chunkSize: The most bytes a chunk holds (64 KiB by default).
  public init(_ url: URL, chunkSize: Int = 1 << 16) {
    self.url = url
    self.chunkSize = Swift.max(1, chunkSize)
  }

  /// An iterator that opens the file.
  public func makeAsyncIterator() -> Iterator {
    Iterator(url: url, chunkSize: chunkSize)
  }

  /// Reads the file a chunk at a time; closes it when done or released.
  public struct Iterator: AsyncIteratorProtocol {
    private let file: OpenFile

    init(url: URL, chunkSize: Int) {
      file = OpenFile(url: url, chunkSize: chunkSize)
    }

    /// The next chunk, or `nil` at the end of the file.
    ///
    /// - Returns: Up to `chunkSize` bytes.
    /// - Throws: `CocoaError` when the file cannot be opened or read.
    public mutating func next() async throws -> Data? {
      try await file.readOffThread()
    }
  }
}

/// A file opened on first read and closed at the end, on an error, or when the last iterator
/// holding it is released; read on ``queue``, one chunk at a time.
private final class OpenFile: Sendable {
  /// Where chunks are read: blocking reads wait there, not on the cooperative pool.
  static let queue = DispatchQueue(label: "ObjectMapping.FileChunks", attributes: .concurrent)

  private struct State: Sendable {
    var handle: FileHandle?
    var finished = false
  }

  private let url: URL
  private let chunkSize: Int
  private let state = Locked(State())

  init(url: URL, chunkSize: Int) {
    self.url = url
    self.chunkSize = chunkSize
  }

  deinit { close() }

  /// ``read()`` on ``queue``; a cancelled task stops waiting for it at once.
  func readOffThread() async throws -> Data? {
    try Task.checkCancellation()
    let waiting = Locked<CheckedContinuation<Data?, any Error>?>(nil)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        waiting.withLock { $0 = continuation }
        // Cancelled between the check above and now: the handler found no continuation.
        if Task.isCancelled {
          waiting.withLock { $0.take() }?.resume(throwing: CancellationError())
          return
        }
        Self.queue.async {
          let result = Result { try self.read() }
          waiting.withLock { $0.take() }?.resume(with: result)
        }
      }
    } onCancel: {
      waiting.withLock { $0.take() }?.resume(throwing: CancellationError())
    }
  }

  private func read() throws -> Data? {
    try state.withLock { state throws -> Data? in
      guard !state.finished else { return nil }
      do {
        let handle = try state.handle ?? FileHandle(forReadingFrom: url)
        state.handle = handle
        guard let chunk = try handle.read(upToCount: chunkSize), !chunk.isEmpty else {
          Self.close(&state)
          return nil
        }
        return chunk
      } catch {
        Self.close(&state)
        throw error
      }
    }
  }

  private func close() {
    state.withLock { Self.close(&$0) }
  }

  private static func close(_ state: inout State) {
    state.finished = true
    try? state.handle?.close()
    state.handle = nil
  }
}
