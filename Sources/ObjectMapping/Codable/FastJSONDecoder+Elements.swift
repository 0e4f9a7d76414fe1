import Foundation

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension FastJSONDecoder {
  /// The elements of a payload, decoded as its chunks of bytes arrive: a top-level array, an
  /// array under a key path, or JSON Lines, in memory bounded by the largest element.
  ///
  /// ```swift
  /// let decoder = FastJSONDecoder()
  /// for try await status in decoder.elements(Status.self, of: body, as: .array(at: "statuses")) {
  ///   show(status)
  /// }
  /// ```
  ///
  /// Each element is decoded by this decoder's own `decode(_:from:)`, with its settings (as
  /// they are when the stream is made), from the element's bytes, once the stream reader found
  /// them valid in their place in the payload: the values are those decoding the whole payload
  /// as `[T]` gives. An element's error is reported as ``errorReporting`` says, at its place in
  /// the payload: by default a `DecodingError` whose coding path starts at the payload's root
  /// (`Index 1234`, `user`), with ``ErrorReporting/mappingErrors`` ``MappingErrors`` at
  /// `/1234/user`. A payload that is not the array the layout
  /// names is decoded whole as `[T]` (within the element size limit). The stream reads with
  /// ``StreamOptions/reading``, or this decoder's own `reading` options when it is `nil`.
  ///
  /// - Parameters:
  ///   - type: The type of each element.
  ///   - chunks: Any asynchronous sequence of byte chunks (`Data`, `[UInt8]`, …).
  ///   - layout: Where the elements are (``StreamLayout/array`` by default).
  ///   - options: The element size limit, what a failing element does, the reader's options.
  /// - Returns: The values, read as they are iterated (see ``StreamedElements``).
  public func elements<T: Decodable, Chunks: AsyncSequence>(
    _ type: T.Type, of chunks: Chunks, as layout: StreamLayout = .array,
    options: StreamOptions = .standard
  ) -> StreamedElements<T, Chunks> where Chunks.Element: ContiguousBytes {
    StreamedElements(
      source: chunks, layout: layout, options: options,
      reader: DecodedElements<T>(decoder: DecoderCopy(options: self.options)))
  }

  /// The elements of a payload, decoded as its bytes arrive one at a time, read as
  /// ``ByteChunks``; see ``elements(_:of:as:options:)-(_,Chunks,_,_)``.
  ///
  /// - Parameters:
  ///   - type: The type of each element.
  ///   - bytes: Any asynchronous sequence of bytes (`URLSession.AsyncBytes`, …).
  ///   - layout: Where the elements are.
  ///   - options: The element size limit, what a failing element does, the reader's options.
  /// - Returns: The values, read as they are iterated.
  public func elements<T: Decodable, Bytes: AsyncSequence>(
    _ type: T.Type, of bytes: Bytes, as layout: StreamLayout = .array,
    options: StreamOptions = .standard
  ) -> StreamedElements<T, ByteChunks<Bytes>> where Bytes.Element == UInt8 {
    elements(type, of: ByteChunks(bytes), as: layout, options: options)
  }
}

/// A decoder's settings, copied when the stream is made: changing the decoder afterwards does
/// not change a stream made before.
struct DecoderCopy: Sendable {
  let options: DecodingOptions

  /// `bytes` decoded as `type`, with the copied settings.
  func decode<T: Decodable>(_ type: T.Type, from input: JSONInput) throws -> T {
    try options.decode(from: input) { reading in
      try reading.decode(type, at: 0, parent: nil, key: nil)
    }
  }
}

/// Decodes each element the stream reader finds with `FastJSONDecoder.decode(_:from:)`.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
struct DecodedElements<Value: Decodable>: ElementReading {
  let decoder: DecoderCopy

  var defaultReading: JSONReadingOptions { decoder.options.reading }
  var errorLimit: Int { MappingOptions.defaultErrorLimit }

  func readBatch(_ state: ElementStreamState<Value>) -> _StreamBatchOutcome {
    let skips = state.options.onElementFailure == .skip
    let decoder = self.decoder
    return state.reader.read { item in
      state.summary.elementCount += 1
      let index: Int
      let failure: any Error
      switch item {
      case .element(let position, _, let bytes):
        do {
          state.deliver(try decoder.decode(Value.self, from: .bytes(bytes.array)))
          return true
        } catch {
          index = position
          failure = prefixingPath(error, with: state.elementPath(position))
        }
      case .failedElement(let position, let error):
        index = position
        // A syntax error as the decoder reports one: `.dataCorrupted` (the reader's error,
        // with the element's path and line, underneath), or `MappingErrors` at the element.
        failure = decoder.options.syntaxError(error)
      }
      guard skips else {
        state.fail(failure)
        return false
      }
      state.skip(
        MappingDiagnostic(
          path: _jsonPointer(state.elementPath(index)), .skippedElement(reason: "\(failure)")))
      return true
    }
  }

  func readWhole(_ end: _StreamEnd, _ state: ElementStreamState<Value>) throws {
    let values: [Value]
    switch end {
    case .streamed:
      return
    case .document(let bytes):
      values = try decoder.decode([Value].self, from: .bytes(bytes))
    case .envelope(let document):
      let value = try state.value(atKeyPathIn: document)
      do {
        values = try decoder.decode([Value].self, from: .data(try value.jsonData()))
      } catch {
        throw prefixingPath(error, with: state.arrayPath)
      }
    }
    state.summary.elementCount += values.count
    state.deliver(contentsOf: values)
  }
}

/// `error`, thrown for a value at `path`, with the paths it carries continued from there.
func prefixingPath(_ error: any Error, with path: [_PathComponent]) -> any Error {
  switch error {
  case let errors as MappingErrors:
    let prefix = _jsonPointer(path)
    var prefixed = errors
    prefixed.errors = errors.errors.map {
      MappingError(path: prefix + $0.path, $0.kind, underlyingError: $0.underlyingError)
    }
    return prefixed
  case let error as DecodingError:
    let keys = path.map(StreamCodingKey.init)
    switch error {
    case .typeMismatch(let type, let context):
      return DecodingError.typeMismatch(type, context.prefixed(keys))
    case .valueNotFound(let type, let context):
      return DecodingError.valueNotFound(type, context.prefixed(keys))
    case .keyNotFound(let key, let context):
      return DecodingError.keyNotFound(key, context.prefixed(keys))
    case .dataCorrupted(let context):
      return DecodingError.dataCorrupted(context.prefixed(keys))
    @unknown default:
      return error
    }
  default:
    return error
  }
}

/// The coding key of a streamed element's position or of a key path's key.
struct StreamCodingKey: CodingKey {
  let stringValue: String
  let intValue: Int?

  init(_ component: _PathComponent) {
    switch component {
    case .key(let key):
      stringValue = key
      intValue = nil
    case .index(let index):
      stringValue = "Index \(index)"
      intValue = index
    }
  }

  init?(stringValue: String) {
    self.stringValue = stringValue
    intValue = nil
  }

  init?(intValue: Int) {
    stringValue = "Index \(intValue)"
    self.intValue = intValue
  }
}

extension DecodingError.Context {
  fileprivate func prefixed(_ keys: [StreamCodingKey]) -> DecodingError.Context {
    DecodingError.Context(
      codingPath: keys + codingPath, debugDescription: debugDescription,
      underlyingError: underlyingError)
  }
}
