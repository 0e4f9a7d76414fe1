import ObjectMappingTestSupport
import Testing

/// The complexity checks of `ObjectMappingTestSupport`'s `Scaling`, recorded as issues.
extension Scaling {
  /// ``Scaling/measure(_:base:repeats:iterations:allowedRatio:prepare:work:)``, recording an
  /// issue at the caller when the time grows faster than allowed.
  static func expectLinear<Input>(
    _ shape: String, base: Int, repeats: Int = 3, iterations: Int = 1,
    allowedRatio: Double = Scaling.allowedRatio,
    sourceLocation: SourceLocation = #_sourceLocation,
    prepare: (Int) throws -> Input, work: (Input) throws -> Void
  ) async throws {
    if let report = try await measure(
      shape, base: base, repeats: repeats, iterations: iterations, allowedRatio: allowedRatio,
      prepare: prepare, work: work)
    {
      Issue.record("grows faster than linearly: \(report)", sourceLocation: sourceLocation)
    }
  }
}
