#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A read-only view of a ``_Tape`` through unsafe buffers: what the mapping hot path reads.
///
/// Reading through the view costs no reference counting and no bounds checks in release builds
/// (the reader produced the tape, so its indices are in range). A view is valid only inside the
/// ``_Tape/withView(_:)`` call that made it, which keeps the tape alive; a mapping run and the
/// `PayloadValue`s it hands out live inside that call.
///
/// Invariant (what makes the unchecked reads safe): the three buffers are those of one tape,
/// borrowed for the duration of a `withView` call (or of one element's scan, in
/// ``_JSONScanner/scanArrayElements(_:options:_:)``); the entries were written by a reader that
/// validated the whole text, so every container's subtree end is at most `entries.count`, every
/// string or number entry's content lies inside `bytes`, and every index a caller passes was
/// obtained from the view itself (the root 0, a container's members, `next(after:)`). Debug
/// builds assert the index and content bounds on each read.
@safe @usableFromInline package struct _UnsafeTapeView {
  @usableFromInline package let entries: UnsafeBufferPointer<_PackedEntry>
  @usableFromInline package let bytes: UnsafeBufferPointer<UInt8>
  /// The lengths and counts too large for a packed entry (``_Tape/longLengths``).
  /// What the view reads besides its entries and bytes (``_TapeSide``), or `nil` for none.
  @usableFromInline package let side: UnsafePointer<_TapeSide>?

  /// A view of `entries` and `bytes`, with the other memory behind `side` (see
  /// ``with(entries:bytes:longLengths:sharedStrings:_:)``, which makes it).
  @inlinable @inline(__always)
  package init(
    entries: UnsafeBufferPointer<_PackedEntry>, bytes: UnsafeBufferPointer<UInt8>,
    side: UnsafePointer<_TapeSide>? = nil
  ) {
    unsafe self.entries = unsafe entries
    unsafe self.bytes = unsafe bytes
    unsafe self.side = unsafe side
  }

  /// Calls `body` with a view of `entries` and `bytes`, with `longLengths` and `sharedStrings`
  /// behind its ``side`` pointer, valid during the call.
  @inlinable @inline(__always)
  package static func with<Result>(
    entries: UnsafeBufferPointer<_PackedEntry>, bytes: UnsafeBufferPointer<UInt8>,
    longLengths: UnsafeBufferPointer<_LongLength>,
    sharedStrings: UnsafeMutablePointer<_SharedStrings.Slot>? = nil,
    _ body: (_UnsafeTapeView) throws -> Result
  ) rethrows -> Result {
    if unsafe longLengths.isEmpty && sharedStrings == nil {
      return unsafe try body(_UnsafeTapeView(entries: entries, bytes: bytes))
    }
    return unsafe try withUnsafePointer(
      to: _TapeSide(longLengths: longLengths, sharedStrings: sharedStrings)
    ) { side in
      unsafe try body(_UnsafeTapeView(entries: entries, bytes: bytes, side: side))
    }
  }

  /// The lengths and counts too large for a packed entry (``_Tape/longLengths``).
  @inlinable
  package var longLengths: UnsafeBufferPointer<_LongLength> {
    guard let side = unsafe side else { return unsafe UnsafeBufferPointer(start: nil, count: 0) }
    return unsafe side.pointee.longLengths
  }

  /// The table long strings are shared through (``_SharedStrings``): set only for a whole
  /// document read into models (``_Tape/scanInPlace``); `nil` otherwise.
  @inlinable
  package var sharedStrings: UnsafeMutablePointer<_SharedStrings.Slot>? {
    guard let side = unsafe side else { return nil }
    return unsafe side.pointee.sharedStrings
  }

  /// The entry at `index`.
  @inlinable @inline(__always)
  package subscript(index: Int) -> _TapeEntry {
    unsafe assert(index >= 0 && index < entries.count, "tape index out of range")
    let packed = unsafe entries[index]
    var entry = packed.unpacked
    if _slowPath(packed.hasLongLength) { entry.length = unsafe longLengths.length(at: index) }
    return entry
  }

  /// The element or member count of the array or object at `index`.
  @inlinable @inline(__always)
  package func count(at index: Int) -> Int {
    let packed = unsafe entries[index]
    let count = packed.storedLength
    guard _fastPath(count != _PackedEntry.longLength) else {
      return unsafe Int(longLengths.length(at: index))
    }
    return count
  }

  /// The index of the first entry after the value at `index` (its whole subtree).
  @inlinable @inline(__always)
  package func next(after index: Int) -> Int {
    unsafe assert(index >= 0 && index < entries.count, "tape index out of range")
    return unsafe entries[index].next(at: index)
  }

  /// The nesting depth of the value at `index` (0 for a scalar, 1 for an array or object of
  /// scalars, and so on), counted until it reaches `limit`, which is then returned without
  /// scanning further: one pass over the subtree's entries, with a stack as deep as the depth.
  package func nestingDepth(at index: Int, upTo limit: Int) -> Int {
    let end = next(after: index)
    var ends: [Int] = []
    var deepest = 0
    var position = index
    while position < end {
      while let last = ends.last, position >= last { ends.removeLast() }
      let kind = self[position].kind
      if kind == .array || kind == .object {
        ends.append(next(after: position))
        deepest = max(deepest, ends.count)
        if deepest >= limit { return deepest }
      }
      position += 1
    }
    return deepest
  }

  /// The content bytes of a string or number entry.
  @inlinable @inline(__always)
  package func content(of entry: _TapeEntry) -> UnsafeBufferPointer<UInt8> {
    let start = Int(entry.payload)
    unsafe assert(
      start >= 0 && start + Int(entry.length) <= bytes.count, "content outside the bytes")
    return unsafe UnsafeBufferPointer(rebasing: bytes[start..<start + Int(entry.length)])
  }

  /// The decoded string of the string entry at `index`.
  @inlinable @inline(__always)
  package func string(at index: Int) -> String {
    let packed = unsafe entries[index]
    let length = packed.storedLength
    guard !packed.hasFlag && length != _PackedEntry.longLength else {
      return decodedString(at: index)
    }
    let start = packed.storedPayload
    // A string too long to be small allocates: shared with an earlier one of the same bytes
    // when the reading keeps a table (``_SharedStrings``).
    if length > 15, let slots = unsafe sharedStrings {
      return unsafe sharedString(start: start, length: length, slots: slots)
    }
    return unsafe _string(validUTF8: UnsafeBufferPointer(rebasing: bytes[start..<start + length]))
  }

  /// ``string(at:)`` for a string with escapes or a long length.
  @usableFromInline @inline(never)
  package func decodedString(at index: Int) -> String {
    let entry = self[index]
    if entry.flags & _TapeEntry.stringHasEscapes == 0 {
      return unsafe _string(validUTF8: content(of: entry))
    }
    return unsafe _unescapeJSONString(content(of: entry))
  }

  /// The literal text of the number entry at `index` (or the decimal text of an integer entry).
  package func numberText(at index: Int) -> String {
    let entry = self[index]
    if entry.kind == .integer { return String(entry.payload) }
    return unsafe String(decoding: content(of: entry), as: UTF8.self)
  }

  /// The correctly rounded `Double` of a number or integer entry; `nil` for other kinds.
  @inlinable @inline(__always)
  package func doubleValue(at index: Int) -> Double? {
    let entry = self[index]
    switch entry.kind {
    case .integer: return Double(entry.payload)
    case .number: return unsafe _parseDouble(content(of: entry))
    default: return nil
    }
  }

  /// Whether the string entry at `index` is exactly `key` (UTF-8 bytes), without building a
  /// `String` for unescaped keys.
  @inlinable @inline(__always)
  package func stringEquals(at index: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
    let packed = unsafe entries[index]
    if packed.hasFlag || packed.storedLength == _PackedEntry.longLength {
      return unsafe string(at: index).utf8.elementsEqual(key)
    }
    guard packed.storedLength == key.count else { return false }
    guard let keyBase = key.baseAddress, let base = unsafe bytes.baseAddress else { return true }
    return unsafe _bytesEqual(
      UnsafeRawPointer(base + packed.storedPayload), UnsafeRawPointer(keyBase), key.count)
  }

  /// ``member(of:named:)`` for a key held in an array.
  @inlinable
  package func member(of object: Int, named key: [UInt8]) -> Int? {
    unsafe key.withUnsafeBufferPointer { unsafe member(of: object, named: $0) }
  }

  /// ``stringEquals(at:_:)`` for a key held in an array.
  @inlinable
  package func stringEquals(at index: Int, _ key: [UInt8]) -> Bool {
    unsafe key.withUnsafeBufferPointer { unsafe stringEquals(at: index, $0) }
  }

  /// The value index of element `position` (from 0) of the array at `array`; `nil` when
  /// `array` is not an array or is shorter.
  @inlinable
  package func element(of array: Int, at position: Int) -> Int? {
    guard self[array].kind == .array, position >= 0, position < count(at: array) else {
      return nil
    }
    var cursor = array + 1
    for _ in 0..<position { cursor = next(after: cursor) }
    return cursor
  }

  /// The value a path step reaches from `current`: the member named `key`, or, when `current`
  /// is an array and the key is an index (`index`, from `"0"` in `"nested.0.value"`), that
  /// element.
  @inlinable
  package func child(of current: Int, named key: [UInt8], index: Int?) -> Int? {
    if let found = member(of: current, named: key) { return found }
    guard let index else { return nil }
    return element(of: current, at: index)
  }

  /// The value index of the first member of the object at `object` whose key is `key` (a
  /// rule's key bytes); `nil` when absent or when `object` is not an object.
  @inlinable @inline(__always)
  package func member(of object: Int, named key: _UnsafeKeyBytes) -> Int? {
    unsafe member(of: object, named: key.buffer)
  }

  /// The value index of the first member of the object at `object` whose key is the UTF-8 of
  /// `key`; `nil` when absent or when `object` is not an object.
  @inlinable
  package func member(of object: Int, named key: String) -> Int? {
    var key = key
    return key.withUTF8 { unsafe member(of: object, named: $0) }
  }

  /// The content bytes of the string or number entry `entry` as text (a number as written).
  @inlinable
  package func contentText(of entry: _TapeEntry) -> String {
    unsafe String(decoding: content(of: entry), as: UTF8.self)
  }

  /// Whether the digits of the number entry `entry` (its significand) are not all zeros.
  @inline(__always)
  package func hasNonZeroSignificand(_ entry: _TapeEntry) -> Bool {
    unsafe _hasNonZeroSignificand(content(of: entry))
  }

  /// The value index of the first member of the object at `object` whose key is `key`; `nil`
  /// when absent or when `object` is not an object.
  @inlinable
  package func member(of object: Int, named key: UnsafeBufferPointer<UInt8>) -> Int? {
    guard unsafe entries[object].isObject else { return nil }
    var cursor = object + 1
    for _ in 0..<count(at: object) {
      if unsafe stringEquals(at: cursor, key) { return cursor + 1 }
      cursor = next(after: cursor + 1)
    }
    return nil
  }

  /// The value index of the first member of the object at `object` whose key is `key`,
  /// starting the scan where the previous lookup in the same object stopped (`hint`).
  ///
  /// Mappings usually list their rules in the payload's key order, so the member is most often
  /// the next one and a lookup costs one comparison instead of a scan from the object's start.
  /// The result is still the *first* member with that key: when the skipped members might hold
  /// the same key (``_MemberHint/skippedKeys``), or the caller says an earlier lookup used the
  /// same key (`mayRepeat`), the scan starts from the object's start as a plain lookup does.
  @inlinable @inline(__always)
  package func member(
    of object: Int, named key: _UnsafeKeyBytes, hint: inout _MemberHint, mayRepeat: Bool
  ) -> Int? {
    guard unsafe entries[object].isObject else { return nil }
    if mayRepeat || hint.skippedKeys & key.signature != 0 {
      return unsafe member(of: object, named: key.buffer)
    }
    let count = count(at: object)
    // From the hint to the end, remembering the keys passed over.
    var cursor = hint.cursor
    var ordinal = hint.ordinal
    var skipped = hint.skippedKeys
    while ordinal < count {
      let value = cursor + 1
      if unsafe stringEquals(at: cursor, key.buffer) {
        hint = _MemberHint(cursor: next(after: value), ordinal: ordinal + 1, skippedKeys: skipped)
        return value
      }
      unsafe skipped |= _UnsafeKeyBytes.signature(of: entries[cursor], bytes: bytes)
      cursor = next(after: value)
      ordinal += 1
    }
    hint.skippedKeys = skipped
    // Then the members before the hint: the first one found there is the first overall.
    cursor = object + 1
    ordinal = 0
    while ordinal < hint.ordinal {
      let value = cursor + 1
      if unsafe stringEquals(at: cursor, key.buffer) {
        hint.cursor = next(after: value)
        hint.ordinal = ordinal + 1
        return value
      }
      cursor = next(after: value)
      ordinal += 1
    }
    return nil
  }
}

/// Whether the `count` bytes at `left` and at `right` are equal: `memcmp` for the short keys
/// of a mapping, inlined, without the call (a key is compared about 9,500 times per decode of
/// twitter.json). Reads only inside both ranges: whole words, then the last word again
/// overlapping the previous one.
@inlinable @inline(__always)
package func _bytesEqual(_ left: UnsafeRawPointer, _ right: UnsafeRawPointer, _ count: Int) -> Bool
{
  if count >= 8 {
    var offset = 0
    while offset &+ 8 < count {
      guard
        unsafe left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
          == right.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      else { return false }
      offset &+= 8
    }
    let last = count &- 8
    return unsafe left.loadUnaligned(fromByteOffset: last, as: UInt64.self)
      == right.loadUnaligned(fromByteOffset: last, as: UInt64.self)
  }
  if count >= 4 {
    let last = count &- 4
    return unsafe left.loadUnaligned(as: UInt32.self) == right.loadUnaligned(as: UInt32.self)
      && left.loadUnaligned(fromByteOffset: last, as: UInt32.self)
        == right.loadUnaligned(fromByteOffset: last, as: UInt32.self)
  }
  var offset = 0
  while offset < count {
    guard
      unsafe left.load(fromByteOffset: offset, as: UInt8.self)
        == right.load(fromByteOffset: offset, as: UInt8.self)
    else { return false }
    offset &+= 1
  }
  return true
}

/// Where the next key lookup in one object starts, and a summary of the keys passed over.
@usableFromInline package struct _MemberHint {
  /// The tape index of the next member's key entry.
  @usableFromInline package var cursor: Int
  /// The position of that member in the object (0-based).
  @usableFromInline package var ordinal: Int
  /// The union of ``_UnsafeKeyBytes/signature`` of every member key passed over without a match
  /// (all bits for a key with escapes, whose raw bytes are not its UTF-8).
  @usableFromInline package var skippedKeys: UInt64

  /// The hint for a fresh lookup in the object at `object`.
  @inlinable @inline(__always)
  package init(object: Int) {
    cursor = object + 1
    ordinal = 0
    skippedKeys = 0
  }

  @inlinable @inline(__always)
  package init(cursor: Int, ordinal: Int, skippedKeys: UInt64) {
    self.cursor = cursor
    self.ordinal = ordinal
    self.skippedKeys = skippedKeys
  }
}

/// The UTF-8 bytes of one key of a rule, compared byte for byte against payload keys: a view
/// into a ``_KeyStorage``, which owns the bytes.
///
/// Invariant: a key view is used only while the storage that made it is alive; every holder
/// keeps that storage in a stored property next to its views (`CompiledSource`), so the bytes
/// live exactly as long as the views. The view itself owns nothing and frees nothing.
@safe @usableFromInline package struct _UnsafeKeyBytes: @unchecked Sendable {
  // @unchecked: a view of immutable bytes (written once by `_KeyStorage.init`).
  @usableFromInline package let buffer: UnsafeBufferPointer<UInt8>
  /// One bit chosen by the key's length and first byte: keys with different signatures differ.
  @usableFromInline package let signature: UInt64

  /// A view of `buffer`, which must stay valid while the view is used.
  @inlinable
  package init(_ buffer: UnsafeBufferPointer<UInt8>) {
    unsafe self.buffer = unsafe buffer
    signature = unsafe _UnsafeKeyBytes.signature(length: buffer.count, first: buffer.first ?? 0)
  }

  @inlinable @inline(__always)
  package static func signature(length: Int, first: UInt8) -> UInt64 {
    1 << UInt64((length &* 7 &+ Int(first)) & 63)
  }

  /// The signature of the key entry `entry`; all bits when it has escapes or a long length.
  @inlinable @inline(__always)
  package static func signature(of entry: _PackedEntry, bytes: UnsafeBufferPointer<UInt8>) -> UInt64
  {
    let length = entry.storedLength
    guard !entry.hasFlag && length != _PackedEntry.longLength else { return ~0 }
    return unsafe signature(length: length, first: length == 0 ? 0 : bytes[entry.storedPayload])
  }
}

/// The bytes of a path's keys, in one allocation made when a mapping is built and freed with
/// the storage: what the ``_UnsafeKeyBytes`` views of a compiled source read.
@safe package final class _KeyStorage: @unchecked Sendable {
  // @unchecked: the bytes are written once in `init` and only read afterwards.
  private let storage: UnsafeMutableBufferPointer<UInt8>
  /// One view per key, in order, valid while this storage is alive.
  package let keys: [_UnsafeKeyBytes]

  package init(_ keys: [[UInt8]]) {
    let total = keys.reduce(0) { $0 + $1.count }
    unsafe storage = .allocate(capacity: max(total, 1))
    var views: [_UnsafeKeyBytes] = []
    views.reserveCapacity(keys.count)
    var offset = 0
    for key in keys {
      let slice = unsafe UnsafeMutableBufferPointer(rebasing: storage[offset..<offset + key.count])
      _ = unsafe slice.initialize(from: key)
      unsafe views.append(_UnsafeKeyBytes(UnsafeBufferPointer(slice)))
      offset += key.count
    }
    self.keys = views
  }

  deinit {
    unsafe storage.deallocate()
  }
}

extension _Tape {
  /// Calls `body` with a view of this tape, valid during the call.
  @inlinable @inline(__always)
  package func withView<Result>(_ body: (_UnsafeTapeView) throws -> Result) rethrows -> Result {
    unsafe try entries.withUnsafeBufferPointer { entries in
      unsafe try bytes.withUnsafeBufferPointer { bytes in
        unsafe try longLengths.withUnsafeBufferPointer { longLengths in
          unsafe try _UnsafeTapeView.with(
            entries: entries, bytes: bytes, longLengths: longLengths, body)
        }
      }
    }
  }
}

/// A string of the bytes of a tape's string or number entry without escapes, which are valid
/// UTF-8 (the tape's invariant, ``_TapeEntry/stringHasEscapes``: the scanner validated them, or
/// a tape builder wrote them from a `String`).
///
/// `String(decoding:as:)` validates its bytes again: about 1,000 instructions for a 72-byte
/// string of Japanese text, and 8% of decoding twitter.json to models. Where the standard
/// library has `UTF8Span` (Swift 6.2; macOS 26 and the matching Apple platforms, and Linux),
/// the bytes are copied into the string as known-valid UTF-8 instead. Debug builds (and the
/// fuzzers' build, which keeps the debug checks on) check the invariant.
@inlinable @inline(__always)
package func _string(validUTF8 bytes: UnsafeBufferPointer<UInt8>) -> String {
  unsafe assert(String(validating: bytes, as: UTF8.self) != nil, "tape text is valid UTF-8")
  if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
    return unsafe String(copying: UTF8Span(unchecked: bytes.span))
  }
  return unsafe String(decoding: bytes, as: UTF8.self)
}

extension String {
  /// Calls `body` with a key view of this string's UTF-8 when every byte is ASCII; `nil`
  /// (without calling `body`) otherwise. The view is valid during the call only.
  /// (Inlinable: a generic call across the module boundary looked up metadata per key.)
  @inlinable @inline(__always)
  package mutating func withASCIIKeyBytes<Result>(_ body: (_UnsafeKeyBytes) -> Result) -> Result? {
    withUTF8 { bytes -> Result? in
      var union: UInt8 = 0
      for index in 0..<bytes.count { union |= unsafe bytes[index] }
      guard union < 0x80 else { return nil }
      return unsafe body(_UnsafeKeyBytes(bytes))
    }
  }
}
