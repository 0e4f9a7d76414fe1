import struct Foundation.Data

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The growable byte storage behind ``_JSONWriter``: one `malloc` block that grows with
/// `realloc`, and is handed to `Data` without a copy when the writing is done.
///
/// An `Array` grows by allocating a new buffer, copying the bytes and (for the writer's zeroed
/// room) filling the rest; `realloc` extends a block in place when it can, and large blocks are
/// remapped by the kernel rather than copied. Twitter's 470 KB of output used to be copied
/// about ten times while growing and once more into `Data`.
///
/// Invariant (what makes the writer's pointer copies safe): `base` points to `capacity` bytes
/// (`capacity >= 16`) that this object owns and frees in `deinit`, or that it gave away to a
/// `Data` (``takeData(count:)``), after which it owns an empty block again. Bytes past the
/// writer's `count` are uninitialized and never read. Copies of a writer share the object;
/// only the one whose `count` equals ``end`` writes into it past its bytes (moving `end`), the
/// others copy it before writing, so `_JSONWriter` keeps value semantics.
@unsafe package final class _ByteBuffer {
  // Both are read for every append: run-time exclusivity checks on them doubled the cost of
  // writing JSON. They are safe to skip because only the writer that holds this object uniquely
  // mutates them (it copies a shared buffer first), and a writer is not shared between threads
  // (`_JSONWriter` is not `Sendable`).

  /// The first byte of the block.
  @exclusivity(unchecked) package private(set) var base: UnsafeMutablePointer<UInt8>
  /// The number of bytes the block holds.
  @exclusivity(unchecked) package private(set) var capacity: Int
  /// The output length of the one writer allowed to write into this block past its bytes
  /// (see `_JSONWriter.room(for:)`); every writer holding the block has at most this many bytes.
  @exclusivity(unchecked) package var end = 0

  /// A block of at least `capacity` bytes (16 at least).
  package init(capacity: Int) {
    let size = Swift.max(capacity, 16)
    unsafe self.base = unsafe _ByteBuffer.allocate(size)
    unsafe self.capacity = size
  }

  deinit { unsafe free(base) }

  /// A new block of `bytes` bytes; stops the program when memory is exhausted, as growing an
  /// `Array` does.
  private static func allocate(_ bytes: Int) -> UnsafeMutablePointer<UInt8> {
    guard let raw = unsafe malloc(bytes) else { _outOfMemory(bytes) }
    return unsafe raw.bindMemory(to: UInt8.self, capacity: bytes)
  }

  /// Grows the block to at least `minimum` bytes, keeping its first `count` bytes.
  package func grow(toAtLeast minimum: Int, keeping count: Int) {
    unsafe assert(count <= capacity, "the bytes kept are inside the block")
    // Doubles (adding at most 16 MB at a time), so the total copying is linear in the output.
    let size = unsafe Swift.max(minimum, capacity + Swift.min(capacity, 1 << 24))
    guard let raw = unsafe realloc(base, size) else { _outOfMemory(size) }
    unsafe base = unsafe raw.bindMemory(to: UInt8.self, capacity: size)
    unsafe capacity = size
  }

  /// A copy of the first `count` bytes, in a block of the same capacity.
  package func copy(count: Int) -> _ByteBuffer {
    let copy = unsafe _ByteBuffer(capacity: capacity)
    unsafe copy.base.update(from: base, count: count)
    unsafe copy.end = count
    return unsafe copy
  }

  /// The first `count` bytes as `Data` that takes over the block (no copy); the buffer owns an
  /// empty block afterwards.
  package func takeData(count: Int) -> Data {
    // Small outputs are copied: `Data` keeps up to 14 bytes inline, and a block much larger
    // than its bytes would hold memory the caller cannot see.
    guard count > 4096, unsafe count >= capacity / 2 else {
      return unsafe Data(UnsafeBufferPointer(start: base, count: count))
    }
    let taken = unsafe base
    unsafe base = unsafe _ByteBuffer.allocate(16)
    unsafe capacity = 16
    unsafe end = 0
    return unsafe Data(bytesNoCopy: taken, count: count, deallocator: .free)
  }
}

/// Stops the program: `bytes` bytes could not be allocated.
private func _outOfMemory(_ bytes: Int) -> Never {
  preconditionFailure("out of memory: could not allocate \(bytes) bytes for JSON output")
}
