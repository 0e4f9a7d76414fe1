import Foundation
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
