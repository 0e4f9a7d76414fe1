import Foundation

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension InverseMapping {
  /// The JSON of a sequence of objects, written as the objects arrive: a JSON array, an array
  /// under a key path, or JSON Lines, in chunks of bytes, in memory bounded by one chunk.
  ///
  /// ```swift
  /// let export = FileHandle(forWritingAtPath: path)
  /// try await articleMapping.inverted()
  ///   .serializedChunks(of: articles, as: .jsonLines)
  ///   .write(to: export)
  /// ```
  ///
  /// Each object is written as ``serialize(_:as:merging:with:)`` writes it (with this inverse's
  /// root key, if any); the layout puts them in `[…]`, in `{"data": […]}` for
  /// `.array(at: "data")`, or one per line (`\n` after each). Reading the bytes back with the
  /// same layout and the mapping gives the same objects. Objects are taken from `objects` only
  /// as chunks are asked for: a chunk holds about `chunkSize` bytes, so a consumer that writes
  /// to a slow file or an upload body is never outrun.
  ///
  /// - Parameters:
  ///   - objects: Any asynchronous sequence of objects.
  ///   - layout: How the objects are laid out (``StreamLayout/array`` by default).
  ///   - chunkSize: About how many bytes a chunk holds (64 KiB by default; 1 for a chunk per
  ///     object, as soon as it arrives).
  ///   - options: Settings for every object, as for ``serialize(_:as:merging:with:)``.
  /// - Returns: The chunks, written as they are iterated.
  public func serializedChunks<Objects: AsyncSequence>(
    of objects: Objects, as layout: StreamLayout = .array, chunkSize: Int = 1 << 16,
    with options: MappingOptions = .none
  ) -> SerializedChunks<Objects> where Objects.Element == Object {
    SerializedChunks(
      objects: objects, inverse: self, layout: layout, chunkSize: chunkSize, options: options)
  }
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension MappingProtocol {
  /// The JSON of a sequence of objects, written as they arrive, by this mapping's inverse; see
  /// ``InverseMapping/serializedChunks(of:as:chunkSize:with:)``.
  ///
  /// ```swift
  /// for try await chunk in articleMapping.serializedChunks(of: articles, as: .jsonLines) {
  ///   try upload.send(chunk)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - objects: Any asynchronous sequence of objects.
  ///   - layout: How the objects are laid out (``StreamLayout/array`` by default).
  ///   - chunkSize: About how many bytes a chunk holds (64 KiB by default).
  ///   - options: Settings for every object.
  /// - Returns: The chunks, written as they are iterated.
  public func serializedChunks<Objects: AsyncSequence>(
    of objects: Objects, as layout: StreamLayout = .array, chunkSize: Int = 1 << 16,
    with options: MappingOptions = .none
  ) -> SerializedChunks<Objects> where Objects.Element == Object {
    _plan.inverse.serializedChunks(
      of: objects, as: layout, chunkSize: chunkSize, with: options)
  }
}

/// The JSON of a sequence of objects, in chunks of bytes written as the objects arrive: what
/// `serializedChunks(of:as:chunkSize:with:)` returns.
///
/// Errors end the sequence: ``MappingErrors`` for an object that cannot be written, at its path
/// (`/12/price`, `/data/12/price`), or the source's own error. Stopping early releases the
/// source's iterator. A source of chunks for anything that takes bytes as they come: a file
/// (``write(to:)``), a streaming HTTP client's request body, another stream.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
public struct SerializedChunks<Objects: AsyncSequence>: AsyncSequence {
  /// A chunk of JSON.
  public typealias Element = Data
  /// ``MappingErrors``, or the source's error.
  public typealias Failure = any Error

  let objects: Objects
  let inverse: InverseMapping<Objects.Element>
  let layout: StreamLayout
  let chunkSize: Int
  let options: MappingOptions

  init(
    objects: Objects, inverse: InverseMapping<Objects.Element>, layout: StreamLayout,
    chunkSize: Int, options: MappingOptions
  ) {
    self.objects = objects
    self.inverse = inverse
    self.layout = layout
    self.chunkSize = Swift.max(1, chunkSize)
    self.options = options
  }

  /// An iterator that writes the objects from the start of the source.
  public func makeAsyncIterator() -> Iterator {
    Iterator(
      objects: objects.makeAsyncIterator(), inverse: inverse, layout: layout,
      chunkSize: chunkSize, options: options)
  }

  /// Writes every chunk to `handle`, in order, as they are made.
  ///
  /// ```swift
  /// try Data().write(to: URL(fileURLWithPath: path))  // an empty file
  /// let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
  /// defer { try? handle.close() }
  /// try await articleMapping.serializedChunks(of: articles).write(to: handle)
  /// ```
  ///
  /// - Parameter handle: A file (or pipe) open for writing.
  /// - Throws: An error of the objects or of the source, or the file's.
  public func write(to handle: FileHandle) async throws {
    for try await chunk in self {
      try handle.write(contentsOf: chunk)
    }
  }

  /// Writes the objects a chunk at a time.
  public struct Iterator: AsyncIteratorProtocol {
    private var objects: Objects.AsyncIterator?
    private let inverse: InverseMapping<Objects.Element>
    private let layout: StreamLayout
    private let chunkSize: Int
    private let options: MappingOptions
    private let path: [_PathComponent]
    private var count = 0
    private var started = false

    init(
      objects: Objects.AsyncIterator, inverse: InverseMapping<Objects.Element>,
      layout: StreamLayout, chunkSize: Int, options: MappingOptions
    ) {
      self.objects = objects
      self.inverse = inverse
      self.layout = layout
      self.chunkSize = chunkSize
      self.options = options
      path = (layout.keys ?? []).map { .key($0) }
    }

    /// The next chunk, or `nil` when every object was written.
    ///
    /// - Returns: About `chunkSize` bytes of JSON (the last chunk may be smaller).
    /// - Throws: ``MappingErrors`` for an object that cannot be written, or the source's error.
    public mutating func next() async throws -> Data? {
      try await next(isolation: nil)
    }

    /// The next chunk, written in the caller's isolation.
    ///
    /// - Parameter actor: The caller's actor.
    /// - Returns: About `chunkSize` bytes of JSON, or `nil` at the end.
    /// - Throws: As ``next()``.
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error)
      -> Data?
    {
      guard var source = objects.take() else { return nil }
      var chunk = Data()
      chunk.reserveCapacity(Swift.min(chunkSize, 1 << 16) + 256)
      if !started {
        started = true
        chunk.append(contentsOf: Self.opening(of: layout))
      }
      var written = 0
      while chunk.count < chunkSize || written == 0 {
        guard let object = try await source.next(isolation: actor) else {
          chunk.append(contentsOf: Self.closing(of: layout))
          return chunk.isEmpty ? nil : chunk
        }
        let json: Data
        do {
          json = try inverse.serialize(object, as: .json, with: options)
        } catch {
          throw prefixingPath(error, with: path + [.index(count)])
        }
        if layout.isJSONLines {
          chunk.append(json)
          chunk.append(0x0A)
        } else {
          if count > 0 { chunk.append(UInt8(ascii: ",")) }
          chunk.append(json)
        }
        count += 1
        written += 1
      }
      objects = source
      return chunk
    }

    /// `{"a":{"b":[` for `.array(at: "a.b")`, `[` for `.array`, nothing for JSON Lines.
    private static func opening(of layout: StreamLayout) -> [UInt8] {
      guard let keys = layout.keys else { return [] }
      var bytes: [UInt8] = []
      for key in keys {
        bytes.append(UInt8(ascii: "{"))
        bytes += (try? Node.string(key).jsonData()).map(Array.init) ?? Array("\"\"".utf8)
        bytes.append(UInt8(ascii: ":"))
      }
      bytes.append(UInt8(ascii: "["))
      return bytes
    }

    /// What closes ``opening(of:)``.
    private static func closing(of layout: StreamLayout) -> [UInt8] {
      guard let keys = layout.keys else { return [] }
      return [UInt8(ascii: "]")] + Array(repeating: UInt8(ascii: "}"), count: keys.count)
    }
  }
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension SerializedChunks: Sendable where Objects: Sendable {}
