/// What a ``Mapper`` produced from one payload: the objects per route, every error and every
/// diagnostic (RestKit's `RKObjectMappingResult`).
///
/// ```swift
/// let result = try Mapper(provider).map(data)
/// let products = result.all(Product.self)                  // typed, in payload order
/// let first = result.first(Category.self, at: "categories")
/// if let serverError = result.asError() { throw serverError }
/// for problem in result.errors { print(problem) }          // /products/1/price: expected …
/// ```
///
/// Objects are kept in route order, then payload order. A route whose value was an array (or
/// whose key path crossed one) contributes a collection, even of zero or one element; any other
/// route contributes one object. A route that found nothing, or whose single object failed,
/// contributes nothing; the failure is in ``errors``.
///
/// A result holds your model objects, which need not be `Sendable`, so the result is not
/// `Sendable` either; a result of a payload and no target is a region of its own, so the
/// compiler lets you hand it to another task or actor once. ``asError()`` makes a `Sendable`
/// error.
public struct MappingResult {
  struct Entry {
    var keyPath: String
    var routeName: String?
    var objects: [Any]
    var isCollection: Bool
    var sendable: (@Sendable (Any) -> (any Sendable)?)?
  }

  let entries: [Entry]
  /// Every problem of the run, each with its path, in the order found (at most the run's
  /// ``MappingOptions/errorLimit``). Mapping errors of individual objects do not stop the run
  /// (RestKit): the objects that failed are left out.
  public let errors: [MappingError]
  /// What the run noticed that is not an error: skipped `null` or failed elements, declined
  /// elements, ignored values (at most the run's ``MappingOptions/errorLimit``).
  public let diagnostics: [MappingDiagnostic]
  /// How many more errors the run found past its ``MappingOptions/errorLimit``: counted, not kept.
  public let omittedErrorCount: Int
  /// How many more diagnostics the run noticed past its ``MappingOptions/errorLimit``.
  public let omittedDiagnosticCount: Int
  /// The trace, when the mapper was made with `trace: true`; `nil` otherwise.
  public let trace: [MappingTraceEvent]?

  init(entries: [Entry], run: MappingRun) {
    self.entries = entries
    errors = run.errors.kept
    diagnostics = run.diagnostics.kept
    omittedErrorCount = run.errors.omittedCount
    omittedDiagnosticCount = run.diagnostics.omittedCount
    trace = run.trace
  }

  /// Whether no object was mapped.
  public var isEmpty: Bool { entries.allSatisfy(\.objects.isEmpty) }

  /// The number of objects mapped, over every route.
  public var count: Int { entries.reduce(0) { $0 + $1.objects.count } }

  /// The key paths that produced results, in route order (`""` is the whole payload).
  public var keyPaths: [String] {
    var result: [String] = []
    for entry in entries where !result.contains(entry.keyPath) { result.append(entry.keyPath) }
    return result
  }

  /// The first object of ``asCollection()``, or `nil` when nothing was mapped.
  public func asObject() -> Any? {
    entries.lazy.compactMap(\.objects.first).first
  }

  /// Every object, flattened: route order, then payload order.
  public func asCollection() -> [Any] {
    entries.flatMap(\.objects)
  }

  /// The objects by key path: the object itself when one route mapped one object there, an
  /// array (`[Any]`, possibly empty) when the value was a collection or several routes share
  /// the key path. The whole payload's key is `""`.
  public func asDictionary() -> [String: Any] {
    var grouped: [String: [Entry]] = [:]
    for entry in entries { grouped[entry.keyPath, default: []].append(entry) }
    return grouped.mapValues { group -> Any in
      if group.count == 1, let only = group.first, !only.isCollection,
        let object = only.objects.first
      {
        return object
      }
      return group.flatMap(\.objects)
    }
  }

  /// The objects turned into one error (RestKit's `asError`): its description joins each
  /// object's description with `", "`, and it keeps the objects.
  ///
  /// ```swift
  /// // {"errors": ["error1", "error2"]}
  /// result.asError()?.description            // "error1, error2"
  /// result.asError()?.objects(ErrorMessage.self).count   // 2
  /// ```
  ///
  /// Every object is described (``ErrorMessage`` by its message, other types by
  /// `String(describing:)`); the error keeps the objects whose model type is `Sendable`, since
  /// an error must be.
  ///
  /// - Returns: The error, or `nil` when nothing was mapped.
  public func asError() -> MappingResultError? {
    var descriptions: [String] = []
    var kept: [any Sendable] = []
    for entry in entries {
      for object in entry.objects {
        descriptions.append(String(describing: object))
        if let view = entry.sendable?(object) { kept.append(view) }
      }
    }
    guard !descriptions.isEmpty else { return nil }
    return MappingResultError(messages: descriptions, objects: kept)
  }

  /// The first object of type `T`, in route order then payload order.
  ///
  /// - Parameters:
  ///   - type: The model type.
  ///   - keyPath: Only objects mapped at this key path; `nil` for every route.
  public func first<T>(_ type: T.Type, at keyPath: String? = nil) -> T? {
    for entry in entries where keyPath == nil || entry.keyPath == keyPath {
      for object in entry.objects {
        if let typed = object as? T { return typed }
      }
    }
    return nil
  }

  /// Every object of type `T`, in route order then payload order.
  ///
  /// - Parameters:
  ///   - type: The model type.
  ///   - keyPath: Only objects mapped at this key path; `nil` for every route.
  public func all<T>(_ type: T.Type, at keyPath: String? = nil) -> [T] {
    var result: [T] = []
    for entry in entries where keyPath == nil || entry.keyPath == keyPath {
      for object in entry.objects {
        if let typed = object as? T { result.append(typed) }
      }
    }
    return result
  }

  /// Every object mapped at `keyPath`, in route order then payload order.
  public func objects(at keyPath: String) -> [Any] {
    entries.filter { $0.keyPath == keyPath }.flatMap(\.objects)
  }

  /// Every object mapped by the route registered under `name`, in payload order.
  public func objects(named name: String) -> [Any] {
    entries.filter { $0.routeName == name }.flatMap(\.objects)
  }
}

/// A result holds model objects that need not be `Sendable`; the compiler checks each hand-off
/// of a result instead (region-based isolation).
@available(*, unavailable)
extension MappingResult: Sendable {}
