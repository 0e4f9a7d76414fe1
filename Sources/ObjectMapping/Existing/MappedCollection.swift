import Foundation

/// Options for mapping a collection.
public struct CollectionOptions: OptionSet, Sendable, Hashable {
  /// The option bits.
  public let rawValue: Int

  /// Creates options from their bits.
  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// Keep the valid elements when some fail, and report the failures in
  /// ``MappedCollection/errors`` instead of throwing.
  public static let skippingInvalidElements = CollectionOptions(rawValue: 1 << 0)
}

/// The elements of a collection payload that mapped, with the problems of those that did not.
public struct MappedCollection<Object> {
  /// The mapped elements, in payload order.
  public var objects: [Object]
  /// The errors of the elements that were left out, each with its path (`/3/email`); at most
  /// the run's ``MappingOptions/errorLimit``.
  public var errors: [MappingError]
  /// What the run noticed besides errors (declined elements of a dynamic mapping); at most the
  /// run's ``MappingOptions/errorLimit``.
  public var diagnostics: [MappingDiagnostic]
  /// How many more errors the run found past its ``MappingOptions/errorLimit``: counted, not kept.
  public var omittedErrorCount = 0
  /// How many more diagnostics the run noticed past its ``MappingOptions/errorLimit``.
  public var omittedDiagnosticCount = 0
}

extension MappedCollection: Sendable where Object: Sendable {}

extension _Collected {
  /// The collection `options` make of these results: thrown when an element failed, unless
  /// invalid elements are skipped.
  func collection(options: CollectionOptions) throws(MappingErrors) -> MappedCollection<Object> {
    guard errors.isEmpty || options.contains(.skippingInvalidElements) else {
      throw MappingErrors(errors, partialResult: _partial(objects))
    }
    return MappedCollection(
      objects: objects, errors: errors.kept, diagnostics: diagnostics.kept,
      omittedErrorCount: errors.omittedCount, omittedDiagnosticCount: diagnostics.omittedCount)
  }
}
