import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// How much of the current thread's stack is left, for the decode engine's guard against
/// recursions deeper than the thread can hold (``MappingRun/hasStackLeft()``): a stack overflow
/// cannot be turned into an error, so the engine stops a recursion with one before it happens.
///
/// Pointer work of one kind only: the address of a local (where the stack is now) and the
/// thread's stack bounds from the system. Nothing is read or written through either: they are
/// compared as numbers.
enum StackSpace {
  /// Where the stack is now: the address of a local of this (inlined) function, in the caller's
  /// frame. Stacks grow down on every platform Swift runs on, so a deeper call has a smaller
  /// address.
  @inline(__always)
  static func here() -> UInt {
    var marker: UInt8 = 0
    return unsafe withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
  }

  /// The current thread's stack: its lowest address (its end: a call below it overflows) and
  /// its highest, or `nil` where the system does not say. One system call, made at most once
  /// per mapping call and only by a recursion that already went deep; the main thread's bounds
  /// (on Linux, a read of the process's memory map) are asked once per process.
  static func bounds() -> (end: UInt, top: UInt)? {
    Thread.isMainThread ? mainThreadBounds : threadBounds()
  }

  /// The main thread's ``bounds()``, which do not change.
  private static let mainThreadBounds: (end: UInt, top: UInt)? = threadBounds()

  /// The calling thread's stack bounds, from the system.
  private static func threadBounds() -> (end: UInt, top: UInt)? {
    #if canImport(Glibc) || canImport(Musl)
      guard let getAttributes = unsafe threadAttributes else { return nil }
      var attributes = pthread_attr_t()
      guard unsafe getAttributes(pthread_self(), &attributes) == 0 else { return nil }
      defer { unsafe _ = pthread_attr_destroy(&attributes) }
      var address: UnsafeMutableRawPointer?
      var size = 0
      guard unsafe pthread_attr_getstack(&attributes, &address, &size) == 0,
        let address = unsafe address, size > 0
      else { return nil }
      let end = UInt(bitPattern: address)
      return (end, end &+ UInt(size))
    #elseif canImport(Darwin)
      let thread = pthread_self()
      let top = unsafe UInt(bitPattern: pthread_get_stackaddr_np(thread))
      let size = UInt(pthread_get_stacksize_np(thread))
      return top > size ? (top - size, top) : nil
    #else
      return nil
    #endif
  }

  #if canImport(Glibc) || canImport(Musl)
    /// `pthread_getattr_np`, the system's way to a running thread's stack bounds: a GNU
    /// extension the C library has but its Swift module does not declare, so it is looked up
    /// by name once (`nil` if the C library lacks it: the guard then stays off).
    private typealias ThreadAttributes =
      @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
    private static let threadAttributes: ThreadAttributes? = {
      guard let program = unsafe dlopen(nil, RTLD_NOW),
        let symbol = unsafe dlsym(program, "pthread_getattr_np")
      else { return nil }
      return unsafe unsafeBitCast(symbol, to: ThreadAttributes.self)
    }()
  #endif
}
