import Foundation
import ObjectMapping
import Testing

/// What a test source saw: how many chunks were taken, and whether its iterator was released
/// (what closes a real source).
final class SourceProbe: @unchecked Sendable {
  // @unchecked: both counters are only touched under `lock`.
  private let lock = NSLock()
  private var pulledCount = 0
  private var releasedCount = 0

  var pulled: Int { lock.withLock { pulledCount } }
  var released: Bool { lock.withLock { releasedCount > 0 } }

  func pull() { lock.withLock { pulledCount += 1 } }
  func release() { lock.withLock { releasedCount += 1 } }
}

/// Releases the probe when the iterator holding it is gone.
final class ReleaseToken: @unchecked Sendable {
  // @unchecked: immutable.
  let probe: SourceProbe
  init(_ probe: SourceProbe) { self.probe = probe }
  deinit { probe.release() }
}

/// A source of chunks made on demand (`chunk(i)` is the i-th chunk, `nil` at the end), which
/// records what it was asked for: finite payloads split at given sizes, or endless ones.
struct ProbedChunks: AsyncSequence, Sendable {
  typealias Element = [UInt8]
  typealias Failure = Never

  let probe = SourceProbe()
  let chunk: @Sendable (Int) -> [UInt8]?

  /// `bytes` in chunks of `size` bytes.
  init(_ bytes: [UInt8], size: Int) {
    let size = Swift.max(1, size)
    chunk = { index in
      let start = index * size
      guard start < bytes.count else { return nil }
      return Array(bytes[start..<Swift.min(bytes.count, start + size)])
    }
  }

  /// `bytes` split at the sizes given in turn (cycled).
  init(_ bytes: [UInt8], sizes: [Int]) {
    var starts = [0]
    var turn = 0
    while let last = starts.last, last < bytes.count {
      starts.append(last + Swift.max(1, sizes[turn % sizes.count]))
      turn += 1
    }
    let boundaries = starts
    chunk = { index in
      guard index + 1 < boundaries.count else { return nil }
      return Array(bytes[boundaries[index]..<Swift.min(bytes.count, boundaries[index + 1])])
    }
  }

  /// Chunks made by `make`.
  init(_ make: @escaping @Sendable (Int) -> [UInt8]?) {
    chunk = make
  }

  func makeAsyncIterator() -> Iterator {
    Iterator(chunk: chunk, token: ReleaseToken(probe))
  }

  struct Iterator: AsyncIteratorProtocol {
    let chunk: @Sendable (Int) -> [UInt8]?
    let token: ReleaseToken
    var index = 0

    mutating func next() async -> [UInt8]? {
      token.probe.pull()
      defer { index += 1 }
      return chunk(index)
    }
  }
}

/// A source of single bytes.
struct ProbedBytes: AsyncSequence, Sendable {
  typealias Element = UInt8
  typealias Failure = Never
  let bytes: [UInt8]
  let probe = SourceProbe()

  func makeAsyncIterator() -> Iterator { Iterator(bytes: bytes, token: ReleaseToken(probe)) }

  struct Iterator: AsyncIteratorProtocol {
    let bytes: [UInt8]
    let token: ReleaseToken
    var index = 0

    mutating func next() async -> UInt8? {
      guard index < bytes.count else { return nil }
      token.probe.pull()
      defer { index += 1 }
      return bytes[index]
    }
  }
}

/// A source whose chunks fail after `count` chunks with `error`.
struct FailingChunks: AsyncSequence, Sendable {
  typealias Element = [UInt8]
  let chunks: [[UInt8]]
  let error: URLError

  func makeAsyncIterator() -> Iterator { Iterator(chunks: chunks, error: error) }

  struct Iterator: AsyncIteratorProtocol {
    let chunks: [[UInt8]]
    let error: URLError
    var index = 0

    mutating func next() async throws(URLError) -> [UInt8]? {
      guard index < chunks.count else { throw error }
      defer { index += 1 }
      return chunks[index]
    }
  }
}

/// Collects a stream's elements, or its elements and error.
func collect<S: AsyncSequence>(_ stream: S) async -> (elements: [S.Element], error: (any Error)?) {
  var elements: [S.Element] = []
  do {
    for try await element in stream { elements.append(element) }
    return (elements, nil)
  } catch {
    return (elements, error)
  }
}
