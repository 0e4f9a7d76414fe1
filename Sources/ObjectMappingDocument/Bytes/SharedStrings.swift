/// The long strings made while one document is read into models, kept so that a string whose
/// bytes repeat shares the storage of the first one instead of allocating its own.
///
/// A payload repeats many of its long values (twitter.json: the same profile image addresses,
/// `source` links, creation dates and retweeted texts; about half of its 2,300 strings longer
/// than 15 bytes, which a small string cannot hold), and making each a native `String` costs an
/// allocation, a copy and, when the model is released, a deallocation (about 500 instructions).
/// A repeated one costs a retain. The table is direct-mapped: a fixed number of slots, each
/// holding the last string made whose bytes hash there (its offset and length in the
/// document, and the string). A lookup hashes the first, middle and last eight bytes and the
/// length, and compares the whole bytes on a match, so a string is shared only with one of
/// equal bytes; a miss replaces the slot. Memory is bounded (the slots, and at most one string
/// per slot kept alive until the reading ends) and each lookup costs at most one comparison of
/// the string's bytes, so hostile input (many distinct strings, or strings made to collide)
/// costs time linear in its size, as copying them does.
///
/// Invariant (what makes the unchecked reads safe): a table is made for one document's bytes
/// and used only with views of those bytes (``_UnsafeTapeView/sharedStrings``, set only by the
/// whole-document scan, ``_Tape/scanInPlace``), during that scan's `body`, on its thread;
/// offsets and lengths in the slots are those of string entries of that document, so the
/// comparisons read inside its bytes. Streamed elements and views built from other bytes have
/// no table.
@safe @usableFromInline package struct _SharedStrings {
  /// One slot: the string last made for bytes hashing here, and where those bytes are.
  @usableFromInline package struct Slot {
    @usableFromInline var start: Int
    /// `-1`: empty.
    @usableFromInline var length: Int
    @usableFromInline var string: String

    @inlinable init(start: Int, length: Int, string: String) {
      self.start = start
      self.length = length
      self.string = string
    }
  }

  /// The number of slots (a power of two): for twitter.json, 256 slots share 1,126 of the
  /// 1,206 long strings that repeat an earlier one (1,180 with 1,024 slots).
  @usableFromInline static let slotCount = 1 << slotBits
  @usableFromInline static let slotBits = 8
  /// Documents shorter than this get no table: its slots would cost more than the few long
  /// strings such a document can repeat.
  package static let minimumDocumentSize = 4096

  @usableFromInline let slots: UnsafeMutablePointer<Slot>

  /// Calls `body` with a table for a document of `size` bytes (`nil` for a small one),
  /// released after the call.
  package static func with<Result>(
    documentSize size: Int, _ body: (UnsafeMutablePointer<Slot>?) -> Result
  ) -> Result {
    guard size >= minimumDocumentSize else { return body(nil) }
    let slots = UnsafeMutablePointer<Slot>.allocate(capacity: slotCount)
    unsafe slots.initialize(repeating: Slot(start: 0, length: -1, string: ""), count: slotCount)
    defer {
      unsafe slots.deinitialize(count: slotCount)
      unsafe slots.deallocate()
    }
    return unsafe body(slots)
  }
}

extension _UnsafeTapeView {
  /// The string of the `length` bytes at `start` (a string entry without escapes, longer than
  /// 15 bytes), shared with an earlier string of the same bytes through `slots` (see
  /// ``_SharedStrings``).
  @usableFromInline @inline(never)
  package func sharedString(
    start: Int, length: Int, slots: UnsafeMutablePointer<_SharedStrings.Slot>
  ) -> String {
    unsafe assert(length >= 16 && start >= 0 && start + length <= bytes.count)
    guard let base = unsafe bytes.baseAddress else { return "" }
    let text = unsafe UnsafeRawPointer(base + start)
    // The first, middle and last eight bytes (in bounds: `length` is at least 16), mixed: URLs
    // share their first bytes and often their last, and differ in the middle.
    let first = unsafe text.loadUnaligned(as: UInt64.self)
    let middle = unsafe text.loadUnaligned(fromByteOffset: length &>> 1 &- 4, as: UInt64.self)
    let last = unsafe text.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self)
    var mixed = first &* 0x9E37_79B9_7F4A_7C15
    mixed = (mixed ^ middle) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ last ^ UInt64(truncatingIfNeeded: length)) &* 0x94D0_49BB_1331_11EB
    let slot = unsafe slots + Int(truncatingIfNeeded: mixed >> (64 - _SharedStrings.slotBits))
    if unsafe slot.pointee.length == length {
      let earlier = unsafe slot.pointee.start
      if unsafe earlier == start || _bytesEqual(UnsafeRawPointer(base + earlier), text, length) {
        return unsafe slot.pointee.string
      }
    }
    let string = unsafe _string(validUTF8: UnsafeBufferPointer(start: base + start, count: length))
    unsafe slot.pointee = _SharedStrings.Slot(start: start, length: length, string: string)
    return string
  }
}

/// What a ``_UnsafeTapeView`` reads besides its entries and bytes, behind one pointer: the view
/// is copied into every value a mapping reads (`PayloadValue`), so it stays five words, and the
/// rarely read parts cost a load when they are read.
@safe @usableFromInline package struct _TapeSide {
  /// The lengths and counts too large for a packed entry (``_Tape/longLengths``).
  @usableFromInline let longLengths: UnsafeBufferPointer<_LongLength>
  /// See ``_UnsafeTapeView/sharedStrings``.
  @usableFromInline let sharedStrings: UnsafeMutablePointer<_SharedStrings.Slot>?

  @inlinable
  package init(
    longLengths: UnsafeBufferPointer<_LongLength>,
    sharedStrings: UnsafeMutablePointer<_SharedStrings.Slot>?
  ) {
    unsafe self.longLengths = unsafe longLengths
    unsafe self.sharedStrings = unsafe sharedStrings
  }
}
