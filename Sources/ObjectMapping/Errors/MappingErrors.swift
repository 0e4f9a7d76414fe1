/// Every problem of one run, together with the results that could still be produced.
///
/// The throwing mapping APIs throw this when anything failed: ``errors`` lists each problem
/// with its path, in payload order, and ``partialResult(as:)`` gives what mapped (for a
/// collection, the valid elements in payload order).
///
/// ```swift
/// do {
///   let articles = try articleMapping.mapCollection(data)
/// } catch let failure {                // typed throws: a MappingErrors
///   print(failure)                      // one line per problem
///   let valid = failure.partialResult(as: [Article].self)
/// }
/// ```
public struct MappingErrors: Error, Sendable, CustomStringConvertible {
  /// The problems, in the order they were found (at most the run's ``MappingOptions/errorLimit``).
  public var errors: [MappingError]
  /// How many more problems the run found past its ``MappingOptions/errorLimit``: counted exactly, but
  /// not kept.
  public var omittedCount: Int
  /// What could be mapped despite the errors: the valid elements of a collection (`[T]`) of a
  /// `Sendable` model, or `nil` when nothing could be produced or the model is not `Sendable`
  /// (the error may travel to another task; a model that is not `Sendable` may not). Read it
  /// typed with ``partialResult(as:)``.
  public var partialResult: (any Sendable)?

  /// Creates a collection of errors with an optional partial result.
  ///
  /// ```swift
  /// let failure = MappingErrors([MappingError(path: "/id", .missingRequiredKey)])
  /// failure.description   // "/id: required value is missing"
  /// ```
  ///
  /// - Parameters:
  ///   - errors: The problems kept.
  ///   - partialResult: What could be mapped despite them.
  ///   - omittedCount: How many more problems were found but not kept.
  public init(
    _ errors: [MappingError], partialResult: (any Sendable)? = nil, omittedCount: Int = 0
  ) {
    self.errors = errors
    self.partialResult = partialResult
    self.omittedCount = omittedCount
  }

  /// The errors a run kept, with the count of those it left out.
  init(_ list: CappedList<MappingError>, partialResult: (any Sendable)? = nil) {
    self.init(list.kept, partialResult: partialResult, omittedCount: list.omittedCount)
  }

  /// The partial result as `T` (for a collection, `[Element]`), or `nil` when there is none or
  /// it has another type.
  ///
  /// ```swift
  /// let valid = failure.partialResult(as: [Article].self) ?? []
  /// ```
  public func partialResult<T: Sendable>(as type: T.Type) -> T? {
    partialResult as? T
  }

  /// One line per error, then, when errors were left out, a line that counts them:
  ///
  /// ```
  /// /0: expected an object, found 1
  /// … and 999,999 more errors (beyond the error limit of a run; see MappingOptions.errorLimit)
  /// ```
  public var description: String {
    var lines = errors.map(\.description)
    if let more = MessageText.omittedLine(omittedCount, of: "error") { lines.append(more) }
    return lines.joined(separator: "\n")
  }
}

extension MappingErrors: Equatable {
  /// Two collections are equal when they hold the same errors and left out as many (partial
  /// results are not compared).
  public static func == (lhs: MappingErrors, rhs: MappingErrors) -> Bool {
    lhs.errors == rhs.errors && lhs.omittedCount == rhs.omittedCount
  }
}
