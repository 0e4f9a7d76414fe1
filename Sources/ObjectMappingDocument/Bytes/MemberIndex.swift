/// A hash index of one object's members by their keys' bytes: the first member of each key, as
/// a scan finds it. What a `Decodable` reads a large object through when the payload drives its
/// lookups (`for key in container.allKeys { … }`, a `[Int: V]`, dynamic keys).
///
/// ``_UnsafeTapeView/member(of:named:hint:mayRepeat:)`` finds a model's keys in payload order
/// in one comparison each, but it falls back to a scan from the object's start whenever the
/// key's one-bit signature (its length and first byte) was seen before in the object; keys
/// such as `k0` … `k99999` share a few signatures, so n payload-driven lookups cost n²/2
/// comparisons (200,000 keys: 19 s). The index costs one pass over the members and one slot per
/// member; a lookup hashes the key and compares one or two members.
///
/// Keys are hashed with the standard library's `Hasher`, seeded per process, so a payload
/// cannot choose keys that collide. Keys compare as their decoded UTF-8 bytes, as the scan
/// compares them (``_UnsafeTapeView/stringEquals(at:_:)``). The index holds tape positions only:
/// it stays valid for any view of the same tape (or a copy of it).
@safe package final class _MemberIndex {
  /// Open addressing: the value index + 1 of the first member whose key hashes here (or
  /// further, after collisions); 0 for an empty slot. Immutable once built (no exclusivity
  /// checks on reads).
  private let slots: [Int]
  private let mask: Int

  /// The index of the members of the object at `object` in `tape`.
  package init(tape: _UnsafeTapeView, object: Int) {
    let count = tape.count(at: object)
    var capacity = 4
    while capacity < count * 2 { capacity <<= 1 }
    var slots = [Int](repeating: 0, count: capacity)
    mask = capacity - 1
    var cursor = object + 1
    for _ in 0..<count {
      Self.insert(keyAt: cursor, into: &slots, mask: mask, tape: tape)
      cursor = tape.next(after: cursor + 1)
    }
    self.slots = slots
  }

  /// Adds the member whose key is at `key`, unless an earlier member has the same key.
  private static func insert(
    keyAt key: Int, into slots: inout [Int], mask: Int, tape: _UnsafeTapeView
  ) {
    unsafe tape.withKeyBytes(at: key) { bytes in
      var slot = unsafe hash(bytes) & mask
      while slots[slot] != 0 {
        // A repeated key: the first member stays.
        if unsafe tape.stringEquals(at: slots[slot] - 2, bytes) { return }
        slot = (slot + 1) & mask
      }
      slots[slot] = key + 2
    }
  }

  /// The value index of the first member whose key is `key`; `nil` when there is none.
  package func value(named key: _UnsafeKeyBytes, in tape: _UnsafeTapeView) -> Int? {
    var slot = unsafe Self.hash(key.buffer) & mask
    while slots[slot] != 0 {
      let value = slots[slot] - 1
      if unsafe tape.stringEquals(at: value - 1, key.buffer) { return value }
      slot = (slot + 1) & mask
    }
    return nil
  }

  private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var hasher = Hasher()
    unsafe hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
    return hasher.finalize()
  }
}

extension _UnsafeTapeView {
  /// Calls `body` with the decoded UTF-8 bytes of the string entry at `index` (a key): its
  /// bytes in the document when it has no escapes, else those of its decoded text.
  package func withKeyBytes<Result>(
    at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result {
    let packed = unsafe entries[index]
    if !packed.hasFlag && packed.storedLength != _PackedEntry.longLength {
      return unsafe body(content(of: self[index]))
    }
    var text = string(at: index)
    return text.withUTF8 { unsafe body($0) }
  }
}
