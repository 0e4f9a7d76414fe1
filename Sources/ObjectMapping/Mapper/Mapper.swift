import Foundation

/// Maps a whole payload with a ``MappingProvider``: every route whose key path is found maps
/// its value, and everything is collected in a ``MappingResult`` (RestKit's `RKObjectMapper`).
///
/// ```swift
/// let provider = MappingProvider {
///   Route("articles", articleMapping)
///   Route("people", personMapping)
/// }
/// let mapper = Mapper(provider)
/// let result = try mapper.map(jsonData)   // throws only when the payload cannot be read
/// let articles = result.all(Article.self)
/// ```
///
/// Mapping never throws for the payload's content: objects that fail are left out and their
/// errors are in ``MappingResult/errors``. When no route finds anything, ``MappingResult/errors``
/// holds one ``MappingError/Kind/nothingFound(searched:topLevelKeys:)`` error listing the key
/// paths searched and the payload's top-level keys. An empty payload (`{}` or `[]`) is success
/// with no objects.
///
/// A mapper holds no mutable state: use one from any number of tasks at once.
public struct Mapper: Sendable {
  /// The routes and named mappings.
  public let provider: MappingProvider
  /// The formats ``map(_:contentType:)`` reads.
  public let formats: FormatRegistry
  /// Whether results carry a trace (``MappingResult/trace``).
  public let isTracing: Bool

  /// Creates a mapper.
  ///
  /// - Parameters:
  ///   - provider: The routes.
  ///   - formats: The formats ``map(_:contentType:)`` reads; ``FormatRegistry/standard`` by
  ///     default.
  ///   - trace: Whether to record a trace of the run in ``MappingResult/trace``: each route
  ///     matched, each required key missing, and what the mappings report (dynamic cases chosen
  ///     or declined, rejected values), each with its path. Off by default, and free when off.
  public init(
    _ provider: MappingProvider, formats: FormatRegistry = .standard, trace: Bool = false
  ) {
    self.provider = provider
    self.formats = formats
    self.isTracing = trace
  }

  /// Maps a JSON payload.
  ///
  /// The bytes are scanned once into a flat index that the mappings read lazily.
  ///
  /// - Parameters:
  ///   - data: UTF-8 JSON.
  ///   - options: Reader options (depth limit, lenient dialect).
  /// - Returns: The objects, errors and diagnostics of the run.
  /// - Throws: ``MappingError`` when the payload is not valid JSON (with line and column).
  public func map(_ data: Data, options: JSONReadingOptions = .strict) throws(MappingError)
    -> sending MappingResult
  {
    try _Tape.scanning(json: data, options: options) { _map(view: $0) }
  }

  /// Maps a JSON text. See ``map(_:options:)-(Data,_)``.
  public func map(_ json: String, options: JSONReadingOptions = .strict) throws(MappingError)
    -> sending MappingResult
  {
    try _Tape.scanning(json: json, options: options) { _map(view: $0) }
  }

  /// Maps a payload already read into a ``Node``.
  ///
  /// - Throws: ``MappingError`` when the node cannot be indexed (a non-finite double).
  public func map(_ node: Node) throws(MappingError) -> sending MappingResult {
    let tape: _Tape
    do { tape = try _Tape(node: node) } catch { throw MappingError(error) }
    return _map(tape: tape)
  }

  /// Maps a payload already parsed by `JSONSerialization` or `PropertyListSerialization`.
  ///
  /// - Throws: ``MappingError`` when the value holds something that is not a payload value.
  @_disfavoredOverload
  public func map(_ foundation: Any) throws(MappingError) -> sending MappingResult {
    let node: Node
    do {
      node = try Node(foundation: foundation)
    } catch let error as FormatError {
      throw MappingError(error)
    } catch {
      throw MappingError(.notRepresentable(reason: "\(error)"))
    }
    return try map(node)
  }

  /// Maps a JSON payload onto an existing object (RestKit's target object): a single object
  /// reached by a route whose model type is the target's is mapped onto it — only the keys
  /// present are written, transactionally (see ``MappingProtocol/map(_:onto:)-(Node,_)``). A
  /// target that no single-object route can take (a collection payload, another type) is
  /// ignored, with a ``MappingDiagnostic/Kind/targetIgnored(reason:)`` diagnostic.
  ///
  /// ```swift
  /// let result = try Mapper(provider).map(json, target: article)   // a class: updated in place
  /// let updated = result.first(Article.self)                        // a struct: the updated copy
  /// ```
  public func map(_ json: String, target: Any, options: JSONReadingOptions = .strict)
    throws(MappingError) -> MappingResult
  {
    try _Tape.scanning(json: json, options: options) { _map(view: $0, target: target) }
  }

  /// ``map(_:target:options:)-(String,_,_)`` for JSON bytes.
  public func map(_ data: Data, target: Any, options: JSONReadingOptions = .strict)
    throws(MappingError) -> MappingResult
  {
    try _Tape.scanning(json: data, options: options) { _map(view: $0, target: target) }
  }

  /// Maps a payload in the format its `Content-Type` names, read with ``formats``.
  ///
  /// ```swift
  /// let result = try mapper.map(body, contentType: "application/json; charset=utf-8")
  /// ```
  ///
  /// - Parameters:
  ///   - data: The payload bytes.
  ///   - contentType: A `Content-Type` header value; parameters and case are ignored.
  /// - Throws: ``MappingError`` `.unsupportedContentType` when no format reads it, or the
  ///   format's error for malformed input.
  public func map(_ data: Data, contentType: String) throws(MappingError)
    -> sending MappingResult
  {
    guard let format = formats.format(forContentType: contentType) else {
      throw MappingError(.unsupportedContentType(contentType))
    }
    if case .json(_, let reading) = format.kind {
      return try map(data, options: reading)
    }
    return try map(format.read(data))
  }
}
