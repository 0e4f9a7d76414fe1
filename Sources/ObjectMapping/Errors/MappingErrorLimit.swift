/// How many errors, and how many diagnostics, one mapping run collects.
///
/// A hostile payload can fail a million times (`[1, 1, 1, …]` against a collection of objects).
/// A run keeps the first ``default`` errors (1,000) with their paths and only counts the rest,
/// without building them, so memory and time stay bounded by the limit, not by the payload.
/// Diagnostics are kept the same way. What was left out is counted exactly:
///
/// ```
/// /0: expected an object, found 1
/// …
/// /999: expected an object, found 1
/// … and 999,000 more errors (beyond the error limit of a run; see MappingErrorLimit)
/// ```
///
/// (``MappingErrors/omittedCount``, ``MappingReport/omittedErrorCount``,
/// ``MappedCollection/omittedErrorCount`` and ``MappingResult/omittedErrorCount`` hold the
/// counts.) The limit never changes whether a payload maps: a run with errors past the limit
/// fails exactly as it would with all of them kept.
///
/// Change it for the calls made inside a scope (the value is task-local, so concurrent calls
/// elsewhere keep their own):
///
/// ```swift
/// let report = MappingErrorLimit.withLimit(10) { articleMapping.report(json) }
/// try MappingErrorLimit.withLimit(.max) { try articleMapping.mapCollection(json) }  // keep all
/// ```
public enum MappingErrorLimit {
  /// The limit when none is set: 1,000 errors and 1,000 diagnostics per run.
  public static let `default` = 1_000

  @TaskLocal static var scoped: Int = MappingErrorLimit.default

  /// The limit a run started now collects up to.
  public static var current: Int { scoped }

  /// Runs `body` with runs that collect up to `limit` errors and `limit` diagnostics.
  ///
  /// ```swift
  /// do {
  ///   try MappingErrorLimit.withLimit(1) { try articleMapping.mapCollection(json) }
  /// } catch let error as MappingErrors {
  ///   error.errors.count   // 1
  ///   error.omittedCount   // every other error, counted
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - limit: How many errors (and diagnostics) each run keeps; `0` keeps none and only
  ///     counts them. Negative values count as `0`.
  ///   - body: The work whose mapping runs use the limit.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  public static func withLimit<Result, Failure: Error>(
    _ limit: Int, _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let outcome: Swift.Result<Result, Failure> = $scoped.withValue(max(0, limit)) {
      do throws(Failure) {
        return .success(try body())
      } catch {
        return .failure(error)
      }
    }
    return try outcome.get()
  }
}
