import Foundation

extension MappingProtocol {
  /// Maps a JSON payload that is one object.
  ///
  /// The bytes are scanned once into a flat index that the mapping reads lazily; no `Node`
  /// tree is built.
  ///
  /// - Parameters:
  ///   - data: UTF-8 JSON.
  ///   - options: Reader options (depth limit, lenient dialect, duplicate keys rejected).
  /// - Returns: The mapped object.
  /// - Throws: ``MappingErrors``: a syntax error with its line and column, or every mapping
  ///   problem of the payload with its path.
  public func map(_ data: Data, options: JSONReadingOptions = .strict) throws(MappingErrors)
    -> Object
  {
    try _Tape.withView(json: data, options: options) { _map(view: $0) }.get()
  }

  /// Maps a JSON text that is one object. See ``map(_:options:)-(Data,_)``.
  public func map(_ json: String, options: JSONReadingOptions = .strict) throws(MappingErrors)
    -> Object
  {
    try _Tape.withView(json: json, options: options) { _map(view: $0) }.get()
  }

  /// Maps an object already parsed by `JSONSerialization` or `PropertyListSerialization`.
  @_disfavoredOverload
  public func map(_ foundation: Any) throws(MappingErrors) -> Object {
    try _map(tape: _Tape.checked(node: _Tape.foundationNode(foundation)))
  }

  /// Maps a JSON payload that is an array of objects (a single object maps as a one-element
  /// array).
  ///
  /// A top-level array is mapped as it is read, an element at a time, so a large payload needs
  /// no index of its own size: memory is the payload plus the objects (a 289 MB array of 1M
  /// articles peaks at 862 MB, objects included). The outcome is the same as mapping a whole
  /// index: the same objects, errors (a syntax error anywhere fails the call) and partial results.
  ///
  /// - Throws: ``MappingErrors`` with every failing element's errors; the valid elements are in
  ///   ``MappingErrors/partialResult(as:)``.
  public func mapCollection(_ data: Data, options: JSONReadingOptions = .strict)
    throws(MappingErrors) -> [Object]
  {
    try _Tape.withBytes(of: data) { _collect(json: $0, options: options) }.flatMap(\.allOrNothing)
      .get()
  }

  /// Maps a JSON text that is an array of objects.
  public func mapCollection(_ json: String, options: JSONReadingOptions = .strict)
    throws(MappingErrors) -> [Object]
  {
    try _Tape.withBytes(of: json) { _collect(json: $0, options: options) }.flatMap(\.allOrNothing)
      .get()
  }

  /// Maps an array already parsed by `JSONSerialization` or `PropertyListSerialization`.
  @_disfavoredOverload
  public func mapCollection(_ foundation: Any) throws(MappingErrors) -> [Object] {
    try _mapCollection(tape: _Tape.checked(node: _Tape.foundationNode(foundation)))
  }
}

extension _Tape {
  /// Scans `data` and calls `body` with a view of the tape that reads the `Data`'s own bytes, so
  /// the payload is not copied; the view is valid during the call.
  static func withView<Result>(
    json data: Data, options: JSONReadingOptions, _ body: (_TapeView) -> Result
  ) throws(MappingErrors) -> Result {
    do {
      return try scanning(json: data, options: options, body)
    } catch {
      throw MappingErrors([error])
    }
  }

  /// ``withView(json:options:_:)-(Data,_,_)`` for a string: a native string's UTF-8 is read in
  /// place.
  static func withView<Result>(
    json string: String, options: JSONReadingOptions, _ body: (_TapeView) -> Result
  ) throws(MappingErrors) -> Result {
    do {
      return try scanning(json: string, options: options, body)
    } catch {
      throw MappingErrors([error])
    }
  }

  /// Scans `data` in place and calls `body` with a view of the tape; the scanner's error is
  /// thrown as it is (the mapper's single-error API).
  static func scanning<Result>(
    json data: Data, options: JSONReadingOptions, _ body: (_TapeView) -> Result
  ) throws(MappingError) -> Result {
    try withBytes(of: data) { scanning($0, options: options, body) }.get()
  }

  /// ``scanning(json:options:_:)-(Data,_,_)`` for a string (bridged strings are made native
  /// first, native ones are read in place).
  static func scanning<Result>(
    json string: String, options: JSONReadingOptions, _ body: (_TapeView) -> Result
  ) throws(MappingError) -> Result {
    try withBytes(of: string) { scanning($0, options: options, body) }.get()
  }

  /// Calls `body` with the bytes of `data`, in place.
  static func withBytes<Result>(of data: Data, _ body: (UnsafeBufferPointer<UInt8>) -> Result)
    -> Result
  {
    data.withUnsafeBytes { body($0.bindMemory(to: UInt8.self)) }
  }

  /// Calls `body` with the UTF-8 of `string`, in place for a native string.
  static func withBytes<Result>(of string: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result)
    -> Result
  {
    var string = string
    return string.withUTF8 { body($0) }
  }

  /// Scans `bytes` and calls `body` with a view of the tape.
  static func scanning<Result>(
    _ bytes: UnsafeBufferPointer<UInt8>, options: JSONReadingOptions,
    _ body: (_TapeView) -> Result
  ) -> Swift.Result<Result, MappingError> {
    let index: (entries: [_PackedEntry], longLengths: [_LongLength])
    do throws(FormatError) {
      index = try _JSONScanner.scan(bytes, options: options)
    } catch {
      return .failure(MappingError(error))
    }
    return .success(
      index.entries.withUnsafeBufferPointer { entries in
        index.longLengths.withUnsafeBufferPointer { longLengths in
          body(_TapeView(entries: entries, bytes: bytes, longLengths: longLengths))
        }
      })
  }

  static func checked(json: [UInt8], options: JSONReadingOptions) throws(MappingErrors) -> _Tape {
    do {
      return try _Tape(json: json, options: options)
    } catch {
      throw MappingErrors([MappingError(error)])
    }
  }

  static func foundationNode(_ value: Any) throws(MappingErrors) -> Node {
    do {
      return try Node(foundation: value)
    } catch let error as FormatError {
      throw MappingErrors([MappingError(error)])
    } catch {
      throw MappingErrors([MappingError(.notRepresentable(reason: "\(error)"))])
    }
  }
}
