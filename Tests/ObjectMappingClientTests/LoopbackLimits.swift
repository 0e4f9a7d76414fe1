import ObjectMappingClient

extension RequestLimits {
  /// The limits of the managers these tests make against a loopback server: the product's
  /// defaults, with a deadline of ten minutes instead of one.
  ///
  /// `swift test` runs every suite of the package in one process, and Swift Testing runs them on
  /// the cooperative thread pool, two threads on a two-core machine. While CPU-bound suites
  /// (the scaling checks, the corpora) hold both threads, a response that has arrived waits its
  /// turn to be read; on a loaded machine that wait passed the default 60 seconds, and requests
  /// that had their answer failed as timed out. The tests of the deadline itself set their own.
  static let loopback = RequestLimits(timeout: .seconds(600))
}
