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
/// open. Reading blocks the calling thread for one chunk at a time (a local file's read is
/// short); the next chunk is read only when the consumer asks for more elements.
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
      try file.read()
    }
  }
}

/// A file opened on first read and closed at the end, on an error, or when the last iterator
/// holding it is released.
private final class OpenFile {
  private let url: URL
  private let chunkSize: Int
  private var handle: FileHandle?
  private var finished = false

  init(url: URL, chunkSize: Int) {
    self.url = url
    self.chunkSize = chunkSize
  }

  deinit { close() }

  func read() throws -> Data? {
    guard !finished else { return nil }
    do {
      let handle = try self.handle ?? FileHandle(forReadingFrom: url)
      self.handle = handle
      guard let chunk = try handle.read(upToCount: chunkSize), !chunk.isEmpty else {
        close()
        return nil
      }
      return chunk
    } catch {
      close()
      throw error
    }
  }

  private func close() {
    finished = true
    try? handle?.close()
    handle = nil
  }
}
