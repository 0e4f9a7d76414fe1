import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Complexity checks, not benchmarks, for this package's test targets: the same work on inputs of
/// size n, 2n and 4n, timed in the CPU time of the calling thread (time spent waiting for a core on
/// a loaded machine does not count), best of `repeats` (sizes interleaved, so a burst of load hits
/// all three), must not grow faster than about 2.5× per doubling: the 4n run may take at most
/// 2.5² = 6.25× the n run. Linear work gives about 4× (less when a fixed cost dominates),
/// quadratic work 16×, so the bound breaks clearly for a quadratic spot while noise on a loaded
/// machine does not reach it. A failed attempt is measured again (up to three attempts): a real
/// quadratic fails every time.
///
/// Each test target records the failure with its own testing library (`Scaling.expectLinear`
/// in its support folder), so this target does not link one. `package`: not part of the
/// `ObjectMappingTestSupport` product's API.
///
/// Set `OBJECT_MAPPING_PRINT_SCALING=1` to print the measured times. Under a sanitizer
/// (`OBJECT_MAPPING_SANITIZER`, whose instrumentation changes what is timed) the work runs once
/// per size and nothing is timed.
package enum Scaling {
  /// The largest allowed ratio between the time at 4n and the time at n.
  package static let allowedRatio = 6.25

  /// The bound for shapes whose size is a nesting depth: deep recursion touches a stack that
  /// outgrows the CPU caches (a debug build's frames are large), so each level costs a little
  /// more than the one before; measured 5–7 for deep writing and serializing. Quadratic work
  /// still gives 16.
  package static let deepRatio = 10.0

  /// Whether the tests run under a sanitizer (`OBJECT_MAPPING_SANITIZER` is set).
  package static var isSanitized: Bool {
    ProcessInfo.processInfo.environment["OBJECT_MAPPING_SANITIZER"] != nil
  }

  /// The three sizes measured: `base`, `2 * base`, `4 * base`.
  package static func sizes(_ base: Int) -> [Int] { [base, base * 2, base * 4] }

  /// Measures `work` on the inputs `prepare` builds for each size.
  ///
  /// - Parameters:
  ///   - shape: What is measured, for the report (`"long strings"`).
  ///   - base: The smallest size n.
  ///   - repeats: The number of timed runs per size; the fastest counts.
  ///   - iterations: How often `work` runs within one timed run (for small inputs).
  ///   - allowedRatio: The bound for the 4n/n ratio; ``allowedRatio`` unless a shape has a
  ///     reason to differ (``deepRatio``).
  ///   - prepare: Builds the input for a size (not timed).
  ///   - work: The work measured.
  /// - Returns: `nil` when the time grows no faster than allowed, else the last attempt's
  ///   report (sizes, times and ratio), for the failure message.
  package static func measure<Input>(
    _ shape: String, base: Int, repeats: Int = 3, iterations: Int = 1,
    allowedRatio: Double = Scaling.allowedRatio,
    prepare: (Int) throws -> Input, work: (Input) throws -> Void
  ) async throws -> String? {
    let inputs = try sizes(base).map(prepare)
    if isSanitized {
      for input in inputs { try work(input) }
      return nil
    }
    var report = ""
    for attempt in 1...3 {
      var times = [Double](repeating: .infinity, count: inputs.count)
      for _ in 0..<repeats {
        for (index, input) in inputs.enumerated() {
          let start = threadCPUSeconds()
          for _ in 0..<iterations { try work(input) }
          times[index] = min(times[index], threadCPUSeconds() - start)
          // Lets the jobs queued behind this test run (two cooperative threads on a 2-core
          // machine: a client test's response waits here otherwise, long enough to time out).
          await Task.yield()
        }
      }
      let ratio = times[2] / max(times[0], 1e-9)
      report =
        "\(shape): n=\(base): \(milliseconds(times[0])), 2n: \(milliseconds(times[1])), "
        + "4n: \(milliseconds(times[2])), ratio 4n/n \(String(format: "%.2f", ratio)) "
        + "(allowed \(allowedRatio)), attempt \(attempt)"
      if ProcessInfo.processInfo.environment["OBJECT_MAPPING_PRINT_SCALING"] == "1" {
        print(report)
      }
      if ratio <= allowedRatio { return nil }
    }
    return report
  }

  /// The CPU time the calling thread has used, in seconds.
  package static func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  private static func milliseconds(_ seconds: Double) -> String {
    String(format: "%.2f ms", seconds * 1000)
  }
}
