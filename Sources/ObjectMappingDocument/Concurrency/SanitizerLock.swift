#if OBJECT_MAPPING_TSAN
  import Foundation
#endif

/// A lock that exists only in ThreadSanitizer builds, so that the sanitizer sees the ordering the
/// standard library's `Mutex` and `AtomicLazyReference` already give.
///
/// Those two live in the `Synchronization` module, which the toolchain ships uninstrumented, and
/// on Linux a contended `Mutex` hands itself over through a priority-inheritance futex inside the
/// kernel: ThreadSanitizer observes neither, so it reported accesses that the lock orders as races
/// (CI, session 16). `.ci/run` builds its ThreadSanitizer steps with `-DOBJECT_MAPPING_TSAN`; then
/// this is an `NSLock`, whose `pthread` mutex the sanitizer intercepts, taken around the same
/// critical sections (``Locked/withLock(_:)``, the publication of a mapping's plan). In every
/// other build it is an empty value whose calls compile to nothing, so the code that ships is the
/// code the compiler checks, and no sanitizer report needs suppressing.
package struct SanitizerLock: Sendable {
  #if OBJECT_MAPPING_TSAN
    private let mutex = NSLock()
  #endif

  /// A lock (in ThreadSanitizer builds).
  package init() {}

  /// Takes the lock (in ThreadSanitizer builds).
  @inline(__always)
  package func lock() {
    #if OBJECT_MAPPING_TSAN
      mutex.lock()
    #endif
  }

  /// Releases the lock (in ThreadSanitizer builds).
  @inline(__always)
  package func unlock() {
    #if OBJECT_MAPPING_TSAN
      mutex.unlock()
    #endif
  }
}
