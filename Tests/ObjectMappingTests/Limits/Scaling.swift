import Foundation
import Testing

/// Complexity checks, not benchmarks: the same work on payloads of size n, 2n and 4n, timed
/// best-of-`repeats` (sizes interleaved, so a burst of load hits all three), must not grow
/// faster than about 2.5× per doubling: the 4n run may take at most 2.5² = 6.25× the n run.
/// Linear work gives about 4× (less when a fixed cost dominates), quadratic work 16×, so the
/// bound breaks clearly for a quadratic spot while noise on a loaded machine does not reach it.
/// A failed attempt is measured again (up to three attempts): a real quadratic fails every time.
///
/// Set `OBJECT_MAPPING_PRINT_SCALING=1` to print the measured times.
struct Scaling {
  /// The largest allowed ratio between the time at 4n and the time at n.
  static let allowedRatio = 6.25

  /// The three sizes measured: `base`, `2 * base`, `4 * base`.
  static func sizes(_ base: Int) -> [Int] { [base, base * 2, base * 4] }

  /// Measures `work` on the inputs `prepare` builds for each size and records an issue when the
  /// time grows faster than allowed.
  ///
  /// - Parameters:
  ///   - shape: What is measured, for the failure message (`"long strings"`).
  ///   - base: The smallest size n.
  ///   - repeats: The number of timed runs per size; the fastest counts.
  ///   - iterations: How often `work` runs within one timed run (for small inputs).
  ///   - prepare: Builds the input for a size (not timed).
  ///   - work: The work measured.
  static func expectLinear<Input>(
    _ shape: String, base: Int, repeats: Int = 3, iterations: Int = 1,
    sourceLocation: SourceLocation = #_sourceLocation,
    prepare: (Int) throws -> Input, work: (Input) throws -> Void
  ) throws {
    let inputs = try sizes(base).map(prepare)
    var report = ""
    for attempt in 1...3 {
      var best = [Duration](repeating: .seconds(1_000), count: inputs.count)
      let clock = ContinuousClock()
      for _ in 0..<repeats {
        for (index, input) in inputs.enumerated() {
          let elapsed = try clock.measure {
            for _ in 0..<iterations { try work(input) }
          }
          best[index] = min(best[index], elapsed)
        }
      }
      let times = best.map { Double($0.components.attoseconds) / 1e18 + Double($0.components.seconds) }
      let ratio = times[2] / max(times[0], 1e-9)
      report =
        "\(shape): n=\(base): \(milliseconds(times[0])), 2n: \(milliseconds(times[1])), "
        + "4n: \(milliseconds(times[2])), ratio 4n/n \(String(format: "%.2f", ratio)) "
        + "(allowed \(allowedRatio)), attempt \(attempt)"
      if ProcessInfo.processInfo.environment["OBJECT_MAPPING_PRINT_SCALING"] == "1" {
        print(report)
      }
      if ratio <= allowedRatio { return }
    }
    Issue.record("grows faster than linearly: \(report)", sourceLocation: sourceLocation)
  }

  private static func milliseconds(_ seconds: Double) -> String {
    String(format: "%.2f ms", seconds * 1000)
  }
}
