import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Complexity checks for loading definition files, as `ObjectMappingTests`' `Scaling` does them:
/// the same work at sizes n, 2n and 4n, timed in the CPU time of the calling thread, best of
/// `repeats` (sizes interleaved), must not grow faster than about 2.5× per doubling (the 4n run
/// may take at most 6.25× the n run; linear work gives about 4×, quadratic 16×). A failed attempt
/// is measured again, up to three times: a real quadratic fails every time.
///
/// Set `OBJECT_MAPPING_PRINT_SCALING=1` to print the measured times. Under a sanitizer
/// (`OBJECT_MAPPING_SANITIZER`) the work runs once per size and nothing is timed.
enum Scaling {
  static let allowedRatio = 6.25

  static var isSanitized: Bool {
    ProcessInfo.processInfo.environment["OBJECT_MAPPING_SANITIZER"] != nil
  }

  static func expectLinear<Input>(
    _ shape: String, base: Int, repeats: Int = 3,
    sourceLocation: SourceLocation = #_sourceLocation,
    prepare: (Int) throws -> Input, work: (Input) throws -> Void
  ) async throws {
    let inputs = try [base, base * 2, base * 4].map(prepare)
    if isSanitized {
      for input in inputs { try work(input) }
      return
    }
    var report = ""
    for attempt in 1...3 {
      var times = [Double](repeating: .infinity, count: inputs.count)
      for _ in 0..<repeats {
        for (index, input) in inputs.enumerated() {
          let start = threadCPUSeconds()
          try work(input)
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
      if ratio <= allowedRatio { return }
    }
    Issue.record("grows faster than linearly: \(report)", sourceLocation: sourceLocation)
  }

  /// The CPU time the calling thread has used, in seconds.
  static func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  private static func milliseconds(_ seconds: Double) -> String {
    String(format: "%.2f ms", seconds * 1000)
  }
}

/// Runs code on a thread with a small stack: what a definition file can make the loader do
/// must fit the 512 KB of a secondary thread on Apple platforms. Under a sanitizer (its red
/// zones grow every frame) the stack is 4 MB.
enum SmallStack {
  static let size =
    ProcessInfo.processInfo.environment["OBJECT_MAPPING_SANITIZER"] == nil ? 512 << 10 : 4 << 20

  /// Runs `body` on a thread with a stack of ``size`` and returns what it returned.
  static func run<Result: Sendable>(_ body: @escaping @Sendable () -> Result) -> Result {
    let box = Box<Result>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      box.value = body()
      done.signal()
    }
    thread.stackSize = size
    thread.start()
    done.wait()
    guard let value = box.value else { preconditionFailure("the thread returned nothing") }
    return value
  }

  final class Box<Value>: @unchecked Sendable {
    // @unchecked: written by one thread before the semaphore is signalled, read after.
    var value: Value?
  }
}
