/// A sequence of single bytes read as chunks: how a stream of elements reads
/// `URLSession.AsyncBytes`, `FileHandle.AsyncBytes` or any sequence of `UInt8`.
///
/// ```swift
/// let (bytes, _) = try await URLSession.shared.bytes(from: feedURL)
/// for try await event in eventMapping.elements(of: bytes, as: .jsonLines) { … }
/// // the same as eventMapping.elements(of: ByteChunks(bytes), as: .jsonLines)
/// ```
///
/// A chunk holds up to 4 KiB, and ends early after a byte that can end a JSON element (`}`,
/// `]`, `,`, `"` or a line feed), so an element is read as soon as its last byte arrived, even
/// from a source that pauses there. A source of chunks (`Data`, `[UInt8]`) is faster: each
/// byte here costs a call of the source's iterator.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
public struct ByteChunks<Base: AsyncSequence>: AsyncSequence where Base.Element == UInt8 {
  /// A chunk of the source's bytes.
  public typealias Element = [UInt8]
  /// The source's error.
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base

  /// Chunks of `base`'s bytes.
  ///
  /// - Parameter base: The bytes.
  @inlinable
  public init(_ base: Base) {
    self.base = base
  }

  /// An iterator over the chunks.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator())
  }

  /// Gathers the source's bytes into chunks.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator

    @inlinable
    init(base: Base.AsyncIterator) {
      self.base = base
    }

    /// The next chunk, or `nil` at the end of the source.
    ///
    /// - Returns: Up to 4 KiB of bytes.
    /// - Throws: The source's error.
    @inlinable
    public mutating func next() async throws(Base.Failure) -> [UInt8]? {
      try await next(isolation: nil)
    }

    /// The next chunk, read in the caller's isolation (inlined into the caller's module, where
    /// the source's iterator is a concrete type: a byte costs a specialized call).
    ///
    /// - Parameter actor: The caller's actor.
    /// - Returns: Up to 4 KiB of bytes, or `nil` at the end of the source.
    /// - Throws: The source's error.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Base.Failure)
      -> [UInt8]?
    {
      var chunk: [UInt8] = []
      while chunk.count < 4_096, let byte = try await base.next(isolation: actor) {
        chunk.append(byte)
        // `}` `]` `,` `"` and a line feed can end an element.
        if byte == 0x7D || byte == 0x5D || byte == 0x2C || byte == 0x22 || byte == 0x0A { break }
      }
      return chunk.isEmpty ? nil : chunk
    }
  }
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension ByteChunks: Sendable where Base: Sendable {}
