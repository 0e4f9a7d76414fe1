import Foundation

/// How ``MappingProtocol/mapCollection(_:options:with:)`` treats the elements of a collection
/// payload that fail to map.
public struct CollectionOptions: OptionSet, Sendable, Hashable {
  /// The option bits.
  public let rawValue: Int

  /// Creates options from their bits.
  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// Keep the valid elements when some fail, and return the failures in
  /// ``MappedCollection/errors`` instead of throwing them (SPEC §3).
  public static let skippingInvalidElements = CollectionOptions(rawValue: 1 << 0)
}

/// The elements of a collection payload that mapped, with the problems of those that did not
/// (``MappingProtocol/mapCollection(_:options:with:)``).
///
/// ```swift
/// let mapped = try authorMapping.mapCollection(json, options: .skippingInvalidElements)
/// mapped.objects   // the valid authors, in payload order
/// mapped.errors    // ["/1/email: expected a string, found an array"]
/// ```
public struct MappedCollection<Object> {
  /// The mapped elements, in payload order.
  public var objects: [Object]
  /// The errors of the elements that were left out, each with its path (`/3/email`); at most
  /// the run's ``MappingOptions/errorLimit``.
  public var errors: [MappingError]
  /// What the run noticed besides errors (declined elements of a dynamic mapping, rejected
  /// values); at most the run's ``MappingOptions/errorLimit``.
  public var diagnostics: [MappingDiagnostic]
  /// How many more errors the run found past its ``MappingOptions/errorLimit``: counted, not kept.
  public var omittedErrorCount: Int
  /// How many more diagnostics the run noticed past its ``MappingOptions/errorLimit``.
  public var omittedDiagnosticCount: Int

  /// Whether every element mapped.
  public var succeeded: Bool { errors.isEmpty && omittedErrorCount == 0 }
}

extension MappedCollection: Sendable where Object: Sendable {}

extension Collected {
  /// The collection `options` make of these results: every error thrown when an element failed,
  /// unless invalid elements are skipped.
  func collection(options: CollectionOptions) -> Result<MappedCollection<Object>, MappingErrors> {
    guard errors.isEmpty || options.contains(.skippingInvalidElements) else {
      return .failure(MappingErrors(errors))
    }
    return .success(
      MappedCollection(
        objects: objects, errors: errors.kept, diagnostics: diagnostics.kept,
        omittedErrorCount: errors.omittedCount, omittedDiagnosticCount: diagnostics.omittedCount))
  }
}
