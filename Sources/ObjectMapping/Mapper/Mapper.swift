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
/// errors are in ``MappingResult/errors``. An object under a route that is an unmappable
/// representation (its mapping reads keys, and it has none of them: the case where
/// `map(_:with:)` throws ``MappingError/Kind/unmappableRepresentation(keys:)``) is left out
/// with a ``MappingDiagnostic/Kind/unmappableRepresentation(keys:)`` diagnostic, as RestKit
/// dropped it. When no route finds mappable content at all (nothing at their key paths, or only
/// unmappable objects), ``MappingResult/errors`` holds one
/// ``MappingError/Kind/nothingFound(searched:topLevelKeys:)`` error listing the key paths
/// searched, sorted, and the payload's top-level keys. An empty payload (`{}` or `[]`) is
/// success with no objects.
///
/// A target object (``map(_:target:with:)``) of another type than every route's single object
/// is a type-mismatch error at that object, naming both types.
///
/// A mapper holds no mutable state: use one from any number of tasks at once.
public struct Mapper: Sendable {
  /// The routes and named mappings.
  public let provider: MappingProvider
  /// The formats a `.payload(_:contentType:formats:)` input without a registry of
  /// its own is read with.
  public let formats: FormatRegistry
  /// Whether results carry a trace (``MappingResult/trace``).
  public let isTracing: Bool
  /// Whether a target object takes the one element of a single-element array a route reaches
  /// (off by default, as in RestKit: a target is never taken from a collection).
  public let mapsSingleElementArraysOntoTarget: Bool
  /// The options every call of this mapper maps with; a call's own options win field by field
  /// (``MappingOptions/restKitCompatible`` for a mapper migrated from RestKit).
  public let options: MappingOptions

  /// Creates a mapper.
  ///
  /// - Parameters:
  ///   - provider: The routes.
  ///   - formats: The formats a `.payload(data, contentType: type)` input is read with;
  ///     ``FormatRegistry/standard`` by default.
  ///   - trace: Whether to record a trace of the run in ``MappingResult/trace``: each route
  ///     matched, each required key missing, and what the mappings report (dynamic cases chosen
  ///     or declined, rejected values), each with its path. Off by default, and free when off.
  ///   - mapsSingleElementArraysOntoTarget: Whether ``map(_:target:with:)`` maps the one element
  ///     of a single-element array onto the target (`[{"id": 7, …}]` for a PUT of one object,
  ///     which RestKit users asked for). Off by default, as in RestKit: a target is taken only
  ///     by a single object.
  ///   - options: The options every call maps with, under the call's own (a compatibility
  ///     preset such as ``MappingOptions/restKitCompatible``).
  public init(
    _ provider: MappingProvider, formats: FormatRegistry = .standard, trace: Bool = false,
    mapsSingleElementArraysOntoTarget: Bool = false, options: MappingOptions = .none
  ) {
    self.options = options
    self.provider = provider
    self.formats = formats
    self.isTracing = trace
    self.mapsSingleElementArraysOntoTarget = mapsSingleElementArraysOntoTarget
  }

  /// Maps a payload: every route whose key path is found maps its value; with a `target`,
  /// the one object a route reaches is mapped onto it (RestKit's target object).
  ///
  /// JSON is scanned once into a flat index that the mappings read lazily.
  ///
  /// ```swift
  /// let result = try mapper.map(jsonData)
  /// let strict = try mapper.map(jsonData, with: MappingOptions(coercion: .strict))
  /// let posted = try mapper.map(.payload(body, contentType: "application/json; charset=utf-8"))
  /// let saved = try mapper.map(response, target: article)   // a class: updated in place
  /// let updated = saved.first(Article.self)                 // a struct: the updated copy
  /// ```
  ///
  /// A `.payload(_:contentType:formats:)` input without a registry of its own is
  /// read with the mapper's ``formats``.
  ///
  /// A target is taken by a single object reached by a route whose model type is the
  /// target's: only the keys present are written, transactionally (see `map(_:onto:with:)`).
  /// A target that no single-object route can take (a collection payload, another type) is
  /// ignored, with a ``MappingDiagnostic/Kind/targetIgnored(reason:)`` diagnostic. A class
  /// target is updated in place or not at all: when the route's mapping would make a new
  /// instance instead (a dynamic case of another class), the value fails with an error at its
  /// path and the target is left as it was.
  ///
  /// The result holds only what the run made (and the target), so a result of a payload and
  /// no target can be sent to another task: the compiler checks it, as for any value whose
  /// region is the call's own.
  ///
  /// - Parameters:
  ///   - input: The payload: `Data`, `[UInt8]` or `String` (JSON), a `Node`, a Foundation
  ///     `[String: Any]` or `[[String: Any]]`, or any ``MappingInput``.
  ///   - target: The object to update, or `nil` (the default) to map new objects only.
  ///   - options: Settings for this call, reaching every route's mapping and its children
  ///     unless they set their own.
  /// - Returns: The objects, errors and diagnostics of the run; the updated target is among
  ///   the objects.
  /// - Throws: ``MappingErrors`` when the payload cannot be read (a syntax error with its
  ///   line and column, an unsupported content type); mapping problems are in
  ///   ``MappingResult/errors``, unless the options set
  ///   ``MappingOptions/failOnObjectErrors``: then a run with errors throws them.
  public func map(
    _ input: some MappingInputConvertible, target: Any? = nil,
    with options: MappingOptions = .none
  ) throws(MappingErrors) -> MappingResult {
    let result = try input.mappingInput.withView(formats: formats) {
      mapResult(view: $0, target: target, options: options)
    }
    if options.failOnObjectErrors ?? self.options.failOnObjectErrors ?? false,
      !result.errors.isEmpty || result.omittedErrorCount > 0
    {
      throw MappingErrors(result.errors, omittedCount: result.omittedErrorCount)
    }
    return result
  }
}
