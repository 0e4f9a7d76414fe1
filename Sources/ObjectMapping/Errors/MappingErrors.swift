/// Every problem of one run, together with the results that could still be produced.
///
/// The throwing mapping APIs throw this when anything failed: ``errors`` lists each problem
/// with its path, in payload order, and ``partialResult`` holds what mapped (for a collection,
/// the valid elements in payload order).
///
/// ```swift
/// do {
///   let articles = try articleMapping.mapCollection(data)
/// } catch let failure as MappingErrors {
///   print(failure)                      // one line per problem
///   let valid = failure.partialResult as? [Article]
/// }
/// ```
public struct MappingErrors: Error, Sendable, CustomStringConvertible {
  /// The problems, in the order they were found.
  public var errors: [MappingError]
  /// What could be mapped despite the errors: the valid elements of a collection (`[T]`), or
  /// `nil` when nothing could be produced.
  public var partialResult: (any Sendable)?

  /// Creates a collection of errors with an optional partial result.
  public init(_ errors: [MappingError], partialResult: (any Sendable)? = nil) {
    self.errors = errors
    self.partialResult = partialResult
  }

  /// The partial result as `T` (for a collection, `[Element]`), or `nil` when there is none or
  /// it has another type.
  ///
  /// ```swift
  /// let valid = failure.partialResult(as: [Article].self) ?? []
  /// ```
  public func partialResult<T>(as type: T.Type) -> T? {
    if let boxed = partialResult as? _UncheckedSendableBox<T> { return boxed.value }
    return partialResult as? T
  }

  /// One line per error.
  public var description: String {
    errors.map(\.description).joined(separator: "\n")
  }
}

extension MappingErrors: Equatable {
  /// Two collections are equal when they hold the same errors (partial results are not compared).
  public static func == (lhs: MappingErrors, rhs: MappingErrors) -> Bool {
    lhs.errors == rhs.errors
  }
}
