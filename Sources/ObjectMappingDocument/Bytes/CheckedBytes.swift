/// The scanner's input, read by index: every read asserts `0 <= index < count`, in debug builds
/// and in the fuzzers' optimized build (`Scripts/fuzz.sh` keeps the debug checks on, so a fuzzed
/// input that makes the scanner read past its end stops at the read); in release builds a read
/// is one load, as through the pointer it wraps.
///
/// `@unsafe`: it checks bounds, not lifetime. It is made from the buffer a scan borrows and
/// lives only as long as the scanner that holds it (``_JSONScanner``'s invariant).
@unsafe @usableFromInline package struct _CheckedBytes {
  /// The first byte.
  @usableFromInline package let start: UnsafePointer<UInt8>
  /// How many bytes may be read.
  @usableFromInline package let count: Int

  /// The `count` bytes at `start`, which the caller keeps alive while this is used.
  @inlinable @inline(__always)
  package init(start: UnsafePointer<UInt8>, count: Int) {
    unsafe self.start = unsafe start
    unsafe self.count = count
  }

  /// The byte at `index` (asserted inside the input in debug and fuzz builds).
  @inlinable @inline(__always)
  package subscript(index: Int) -> UInt8 {
    unsafe assert(index >= 0 && index < count, "the scanner read outside its input")
    return unsafe start[index]
  }

  /// The address of the byte at `offset`, for the reads of several bytes at once (a word, a
  /// `memcmp`, a string's bytes), each of which checks its own length; `offset` may be `count`
  /// (the end).
  @inlinable @inline(__always)
  package static func + (bytes: _CheckedBytes, offset: Int) -> UnsafePointer<UInt8> {
    unsafe assert(offset >= 0 && offset <= bytes.count, "an address outside the input")
    return unsafe bytes.start + offset
  }
}
