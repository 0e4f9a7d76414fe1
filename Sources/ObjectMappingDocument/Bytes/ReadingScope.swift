#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which reading of a scanned document is in progress on this thread: how a value that borrows
/// the document (the mapping layer's `PayloadValue`) tells that it is still valid.
///
/// A reading begins (``begin()``) when a mapping run starts and ends (``end(restoring:)``) when
/// it finishes; each gets a token no other reading, on any thread, ever had. A borrowed value
/// records the token of the reading that made it, and checks ``isCurrent(_:)`` before it reads
/// the document: after its reading ended (the document may be freed), on another thread, or in
/// a later element of a streamed array, the check fails instead of reading freed or foreign
/// memory.
///
/// Invariant (what makes the checks sound): tokens are unique (a thread takes a 24-bit ordinal
/// once, under a lock, and counts its readings in the low 40 bits), and the current token is
/// thread-local, so only the thread running a reading can see it as current. Readings nest:
/// ``end(restoring:)`` puts back the token that was current when the reading began.
package enum _ReadingScope {
  /// The thread-local token of the current reading (0: none), stored as a pointer's bits.
  private static let currentKey = makeKey()
  /// The thread-local token the next reading on this thread takes (0: not assigned yet).
  private static let nextKey = makeKey()
  /// Guards ``nextOrdinal``; never freed (it lives as long as the process).
  nonisolated(unsafe) private static let ordinalLock: UnsafeMutablePointer<pthread_mutex_t> = {
    let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    unsafe lock.initialize(to: pthread_mutex_t())
    unsafe pthread_mutex_init(lock, nil)
    return unsafe lock
  }()
  /// The ordinal the next thread to read takes. Guarded by ``ordinalLock``.
  nonisolated(unsafe) private static var nextOrdinal: UInt64 = 1

  private static let counterBits: UInt64 = 40

  private static func makeKey() -> pthread_key_t {
    var key = pthread_key_t()
    let status = unsafe pthread_key_create(&key, nil)
    precondition(status == 0, "cannot create a thread-local key (pthread_key_create: \(status))")
    return key
  }

  private static func load(_ key: pthread_key_t) -> UInt64 {
    unsafe UInt64(UInt(bitPattern: pthread_getspecific(key)))
  }

  private static func store(_ value: UInt64, _ key: pthread_key_t) {
    unsafe pthread_setspecific(key, UnsafeRawPointer(bitPattern: UInt(value)))
  }

  /// Begins a reading on this thread: returns its token, and the token to restore when it ends.
  package static func begin() -> (token: UInt64, previous: UInt64) {
    let previous = load(currentKey)
    var token = load(nextKey)
    if token == 0 || token & ((1 << counterBits) - 1) == 0 {
      // First reading on this thread, or its counter wrapped: a fresh ordinal.
      unsafe pthread_mutex_lock(ordinalLock)
      let ordinal = unsafe nextOrdinal
      unsafe nextOrdinal += 1
      unsafe pthread_mutex_unlock(ordinalLock)
      token = (ordinal << counterBits) | 1
    }
    store(token &+ 1, nextKey)
    store(token, currentKey)
    return (token, previous)
  }

  /// Replaces the current reading by a new one (the next element of a streamed array): the
  /// values of the replaced reading stop being valid. Returns the new token.
  package static func renew() -> UInt64 {
    begin().token
  }

  /// Ends the current reading, making `previous` current again.
  package static func end(restoring previous: UInt64) {
    store(previous, currentKey)
  }

  /// Whether the reading with `token` was begun on this thread (current or not).
  package static func began(onThisThread token: UInt64) -> Bool {
    token != 0 && token >> counterBits == load(nextKey) >> counterBits
  }

  /// Whether the reading with `token` is the one in progress on this thread.
  @inline(__always)
  package static func isCurrent(_ token: UInt64) -> Bool {
    token != 0 && load(currentKey) == token
  }
}
