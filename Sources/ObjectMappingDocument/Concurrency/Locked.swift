import Synchronization

/// A value shared between threads, read and changed only while holding its lock: the package's
/// one lock-protected state type (the idea of swift-argument-parser's `Mutex.swift`), so no
/// class needs a hand-rolled lock and an `@unchecked Sendable` conformance of its own.
///
/// Built on the standard library's `Mutex`, so the compiler checks it: the state goes in and
/// comes out as `sending` values, and a `Locked` is `Sendable` whatever its state. Like a
/// `Mutex`, it is not copyable: a class holds it in a `let` (no allocation of its own), and the
/// class is then `Sendable` without `@unchecked`.
///
/// ```swift
/// final class Counter: Sendable {
///   private let count = Locked(0)
///   func next() -> Int { count.withLock { $0 += 1; return $0 } }
/// }
/// ```
package struct Locked<State>: ~Copyable, Sendable {
  private let mutex: Mutex<State>
  /// The same section again, for ThreadSanitizer builds only (``SanitizerLock``).
  private let sanitizerLock = SanitizerLock()

  /// A lock around `state`.
  package init(_ state: sending State) {
    mutex = Mutex(state)
  }

  /// Calls `body` with the state, while holding the lock; returns what `body` returns.
  @inline(__always)
  package borrowing func withLock<Result, Failure: Error>(
    _ body: (inout sending State) throws(Failure) -> sending Result
  ) throws(Failure) -> sending Result {
    sanitizerLock.lock()
    defer { sanitizerLock.unlock() }
    return try mutex.withLock(body)
  }
}

extension Locked where State: Sendable {
  /// A copy of the state, read under the lock.
  @inline(__always)
  package var value: State {
    withLock { $0 }
  }
}
