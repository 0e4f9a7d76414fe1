import ObjectMapping
import Testing

/// A custom value that (wrongly) keeps the `PayloadValue` it was given.
struct KeptPayload: MappableValue {
  var payload: PayloadValue?
  var kindWhileMapping: PayloadValue.Kind?
  var nestedWhileMapping: Int?

  init() {}

  init(payload: PayloadValue) throws {
    self.payload = payload
    kindWhileMapping = payload.kind
    // A mapping run inside init(payload:) (a nested reading) ends before the outer value is
    // used again: the outer value stays valid.
    nestedWhileMapping = try KeptPayload.inner.map(#"{"n": 5}"#).n
    _ = payload.kind
    KeptPayload.previous.withLock { $0 = payload }
  }

  func payloadNode() throws -> Node { .null }

  struct Inner: Sendable { var n = 0 }
  static let inner = Mapping(Inner.init) { Attribute("n", \.n) }

  /// The value the previous `init(payload:)` kept (for the streamed-element check).
  static let previous = Locked<PayloadValue?>(nil)
}

/// A minimal lock for test state shared across calls.
final class Locked<Value>: @unchecked Sendable {
  private var value: Value
  private let lock = NSLockLike()
  init(_ value: Value) { self.value = value }
  func withLock<R>(_ body: (inout Value) -> R) -> R {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A pthread mutex, so the test needs no Foundation.
final class NSLockLike: @unchecked Sendable {
  private var mutex = pthread_mutex_t()
  init() { pthread_mutex_init(&mutex, nil) }
  deinit { pthread_mutex_destroy(&mutex) }
  func lock() { pthread_mutex_lock(&mutex) }
  func unlock() { pthread_mutex_unlock(&mutex) }
}

struct Holder: @unchecked Sendable {
  var kept = KeptPayload()
}

let holderMapping = Mapping(Holder.init) {
  Attribute("k", \.kept)
}

/// A `PayloadValue` cannot be used outside the mapping call that made it (issue 22): inside
/// `init(payload:)` it works, nested mappings included; afterwards, and in the next element of a
/// streamed collection, using it stops the program with a clear message instead of reading
/// freed or foreign memory.
@Suite("PayloadValue lifetime")
struct PayloadValueLifetimeTests {
  @Test("Inside init(payload:) the value reads the payload, around a nested mapping too")
  func validInsideItsCall() throws {
    let holder = try holderMapping.map(#"{"k": [1, 2]}"#)
    #expect(holder.kept.kindWhileMapping == .array)
    #expect(holder.kept.nestedWhileMapping == 5)
  }

  @Test("Using a kept value after map returned stops the program")
  func usedAfterTheCall() async {
    await #expect(processExitsWith: .failure) {
      let holder = try holderMapping.map(#"{"k": "text"}"#)
      _ = holder.kept.payload?.kind
    }
  }

  @Test("Using the previous element's value in a streamed collection stops the program")
  func usedInTheNextElement() async {
    await #expect(processExitsWith: .failure) {
      struct Peeker: MappableValue {
        init(payload: PayloadValue) throws {
          // The previous element's value: its element was mapped and its bytes moved on.
          if let earlier = KeptPayload.previous.withLock({ $0 }) { _ = earlier.rawDescription }
          KeptPayload.previous.withLock { $0 = payload }
        }
        func payloadNode() throws -> Node { .null }
      }
      struct Row: @unchecked Sendable { var peeker: Peeker? }
      let rows = Mapping(Row.init) { Attribute("p", \.peeker) }
      _ = try rows.mapCollection(#"[{"p": 1}, {"p": 2}]"#)
    }
  }

  @Test("Using a kept value on another thread stops the program")
  func usedOnAnotherThread() async {
    await #expect(processExitsWith: .failure) {
      let holder = try holderMapping.map(#"{"k": 1}"#)
      let box = Locked<PayloadValue?>(holder.kept.payload)
      let task = Task.detached { box.withLock { $0?.isNull } }
      _ = await task.value
    }
  }
}
