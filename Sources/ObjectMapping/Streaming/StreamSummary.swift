import Foundation

/// What a stream of elements has read so far, and once it ends, what it left: the members
/// around a streamed array (for pagination), the skipped elements and the diagnostics.
///
/// ```swift
/// let page = articleMapping.elements(of: body, as: .array(at: "data"))
/// for try await article in page { show(article) }
/// if case .string(let next)? = page.summary.envelope?["next"] { load(next) }
/// ```
public struct StreamSummary: Sendable, Equatable {
  /// The elements read: delivered and skipped.
  public var elementCount = 0
  /// The elements left out under ``ElementFailurePolicy/skip``.
  public var skippedCount = 0
  /// What the mapping noticed besides errors, each at its path: skipped elements (with their
  /// errors), elements a dynamic mapping declined, rejected values; at most the
  /// ``MappingOptions/errorLimit`` the stream was made with.
  public var diagnostics: [MappingDiagnostic] = []
  /// How many more diagnostics were noticed past the limit.
  public var omittedDiagnosticCount = 0
  /// For ``StreamLayout/array(at:)``, once the payload was read to its end: the document
  /// without the array's elements (`{"data": [], "next": "…"}`); `nil` before, and for the
  /// other layouts.
  public var envelope: Node?
  /// Whether the payload was read to its end without error.
  public var isComplete = false

  /// An empty summary.
  public init() {}
}

/// The summary a stream's iterations write and its sequence reads (``StreamedElements/summary``).
final class StreamSummaryBox: Sendable {
  private let state = _Locked(StreamSummary())

  var value: StreamSummary { state.withLock { $0 } }

  func update(_ summary: StreamSummary) { state.withLock { $0 = summary } }
}

/// A ``Locked`` value held by reference, for state that closures share (a body's chunk, a
/// deadline's watch): `Sendable` as the compiler checks it, with no lock of its own.
package final class _Locked<Value: Sendable>: Sendable {
  private let state: Locked<Value>

  package init(_ value: Value) { state = Locked(value) }

  package func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
    state.withLock { body(&$0) }
  }
}
