/// The flat index ("tape") of a scanned document.
///
/// Readers scan bytes once into a contiguous array of entries in document order; mappings read
/// from it lazily: strings are decoded and doubles parsed only when a rule asks for them, and
/// unused subtrees are skipped in one step through ``_TapeEntry/payload``.
///
/// Layout, in document order:
/// - a scalar is one entry;
/// - an array is its entry, then each element's entries;
/// - an object is its entry, then for each member a `.string` key entry followed by the value's
///   entries.
///
/// Entries are stored packed, 8 bytes each (``_PackedEntry``), and read unpacked as
/// ``_TapeEntry`` values. A value takes at least 2 bytes of JSON (`0,`), so the index of a
/// scanned document is at most 4 times its size.
@usableFromInline package struct _Tape: Sendable {
  /// The entries, in document order. Entry 0 is the root value.
  @usableFromInline package var entries: [_PackedEntry]
  /// The bytes that string and number entries point into: the JSON source, or storage written by
  /// a tape builder (unescaped text).
  @usableFromInline package var bytes: [UInt8]
  /// The lengths and counts too large for a packed entry, by entry index (ascending).
  @usableFromInline package var longLengths: [_LongLength]

  package init(entries: [_PackedEntry], bytes: [UInt8], longLengths: [_LongLength] = []) {
    assert(
      zip(longLengths, longLengths.dropFirst()).allSatisfy { $0.index < $1.index },
      "long lengths are sorted by entry index (the view searches them)")
    self.entries = entries
    self.bytes = bytes
    self.longLengths = longLengths
  }

  /// Packs unpacked entries (a tape builder's): integers beyond the packed range are stored as
  /// their decimal text, appended to `bytes`.
  ///
  /// - Throws: `FormatError` when the bytes or the entries exceed the packed limits (256 GiB of
  ///   text, 2³⁸ entries).
  package init(unpacked: [_TapeEntry], bytes: [UInt8]) throws(FormatError) {
    var bytes = bytes
    var packed: [_PackedEntry] = []
    packed.reserveCapacity(unpacked.count)
    var longLengths: [_LongLength] = []
    for (index, entry) in unpacked.enumerated() {
      var entry = entry
      if entry.kind == .integer {
        if let small = _PackedEntry(integer: entry.payload) {
          packed.append(small)
          continue
        }
        let offset = bytes.count
        bytes.append(contentsOf: String(entry.payload).utf8)
        entry = _TapeEntry(
          kind: .number, flags: _TapeEntry.numberIsIntegral,
          length: UInt32(truncatingIfNeeded: bytes.count - offset), payload: Int64(offset))
      }
      guard entry.payload >= 0 && entry.payload <= _PackedEntry.maximumPayload else {
        throw FormatError(
          .notRepresentable(reason: "the document is too large to index (more than 2^38 values)"))
      }
      if Int(entry.length) >= _PackedEntry.longLength {
        longLengths.append(_LongLength(index: index, length: entry.length))
      }
      packed.append(_PackedEntry(entry))
    }
    self.init(entries: packed, bytes: bytes, longLengths: longLengths)
  }
}

/// The kind of one tape entry.
@usableFromInline package enum _TapeKind: UInt8, Sendable {
  case null
  case `true`
  case `false`
  /// An integer in `-2⁶² ..< 2⁶²`; the value is in ``_TapeEntry/payload``. Integers beyond that
  /// range are ``number`` entries flagged ``_TapeEntry/numberIsIntegral``.
  case integer
  /// Any other number; its literal text is at `bytes[payload ..< payload + length]`.
  case number
  /// A string; its content (between the quotes) is at `bytes[payload ..< payload + length]`.
  case string
  /// An array with `length` elements; `payload` is the index of the entry after its subtree.
  case array
  /// An object with `length` members; `payload` is the index of the entry after its subtree.
  case object
}

extension _TapeKind {
  /// The kind whose raw value is `packed` (0–7); a switch rather than `init(rawValue:)`, which
  /// is not inlined and returns an optional.
  @inlinable @inline(__always)
  package init(packed: UInt8) {
    switch packed {
    case 0: self = .null
    case 1: self = .true
    case 2: self = .false
    case 3: self = .integer
    case 4: self = .number
    case 5: self = .string
    case 6: self = .array
    default: self = .object
    }
  }
}

/// One entry of a ``_Tape``, unpacked: what readers get from ``_UnsafeTapeView/subscript(_:)``.
@usableFromInline package struct _TapeEntry: Sendable, Equatable {
  /// The entry's kind.
  @usableFromInline package var kind: _TapeKind
  /// Per-kind flags: ``stringHasEscapes`` on strings, ``numberIsIntegral`` on numbers.
  @usableFromInline package var flags: UInt8
  /// Strings and numbers: the byte length of the content. Arrays: element count. Objects:
  /// member count.
  @usableFromInline package var length: UInt32
  /// Integers: the value. Strings and numbers: the byte offset of the content in
  /// ``_Tape/bytes``. Arrays and objects: the index of the first entry after the subtree.
  @usableFromInline package var payload: Int64

  /// On a string: the content holds JSON escapes (`\n`, `\u00e9`) and must be decoded.
  /// Without it the content bytes are the string's UTF-8, already validated.
  @usableFromInline package static let stringHasEscapes: UInt8 = 1
  /// On a number: the literal has no fraction and no exponent (an integer beyond the range of
  /// ``_TapeKind/integer``, or `-0`).
  @usableFromInline package static let numberIsIntegral: UInt8 = 1

  @inlinable
  package init(kind: _TapeKind, flags: UInt8 = 0, length: UInt32 = 0, payload: Int64 = 0) {
    self.kind = kind
    self.flags = flags
    self.length = length
    self.payload = payload
  }
}

/// One entry of a ``_Tape`` as stored: 8 bytes.
///
/// Bit 0 clear: an integer, the other 63 bits its value (`-2⁶² ..< 2⁶²`). Bit 0 set: bits 1–3
/// hold the ``_TapeKind``, bit 4 the kind's flag, bits 5–25 the length or count and bits 26–63
/// the payload (a byte offset or an entry index, below 2³⁸). A length or count of
/// ``longLength`` or more is stored as ``longLength`` and kept in the tape's
/// ``_Tape/longLengths``.
@usableFromInline package struct _PackedEntry: Sendable, Equatable {
  @usableFromInline package var bits: UInt64

  /// The smallest length or count kept outside the entry.
  @usableFromInline package static let longLength = (1 << 21) - 1
  /// The largest payload (byte offset or entry index) an entry holds.
  @usableFromInline package static let maximumPayload: Int64 = (1 << 38) - 1
  /// `bits & containerMask == containerMask` exactly for arrays and objects.
  @usableFromInline package static let containerMask: UInt64 = 0b1101

  @inlinable @inline(__always)
  package init(bits: UInt64) { self.bits = bits }

  /// An integer entry, or `nil` when `value` is outside `-2⁶² ..< 2⁶²`.
  @inlinable @inline(__always)
  package init?(integer value: Int64) {
    guard value >= -(1 << 62) && value < 1 << 62 else { return nil }
    bits = UInt64(bitPattern: value << 1)
  }

  /// A `null`, `true` or `false` entry, or an array or object entry not yet closed.
  @inlinable @inline(__always)
  package init(kind: _TapeKind) {
    bits = UInt64(kind.rawValue) << 1 | 1
  }

  /// A string or number entry; a `length` of ``longLength`` or more is stored as
  /// ``longLength`` (the caller records the real one). `offset` is at most ``maximumPayload``.
  @inlinable @inline(__always)
  package init(kind: _TapeKind, flag: Bool, length: Int, offset: Int) {
    let stored = UInt64(truncatingIfNeeded: Swift.min(length, _PackedEntry.longLength))
    bits =
      UInt64(truncatingIfNeeded: offset) << 26 | stored << 5 | (flag ? 16 : 0)
      | UInt64(kind.rawValue) << 1 | 1
  }

  /// Packs an unpacked entry whose integer fits and whose payload is in range.
  @inlinable
  package init(_ entry: _TapeEntry) {
    if entry.kind == .integer, let packed = _PackedEntry(integer: entry.payload) {
      self = packed
    } else {
      self.init(
        kind: entry.kind, flag: entry.flags != 0, length: Int(entry.length),
        offset: Int(truncatingIfNeeded: entry.payload))
    }
  }

  /// Sets a container's count (capped at ``longLength``) and the index after its subtree.
  @inlinable @inline(__always)
  package mutating func close(count: Int, after: Int) {
    let stored = UInt64(truncatingIfNeeded: Swift.min(count, _PackedEntry.longLength))
    bits = bits & 0x1F | stored << 5 | UInt64(truncatingIfNeeded: after) << 26
  }

  /// The length or count field (``longLength`` when the real one is kept outside).
  @inlinable @inline(__always)
  package var storedLength: Int { Int(truncatingIfNeeded: (bits >> 5) & 0x1F_FFFF) }

  /// The payload field of a non-integer entry: a byte offset or an entry index.
  @inlinable @inline(__always)
  package var storedPayload: Int { Int(truncatingIfNeeded: bits >> 26) }

  /// Whether a string has escapes or a number is integral (``_TapeEntry/flags``).
  @inlinable @inline(__always)
  package var hasFlag: Bool { bits & 16 != 0 }

  /// Whether this is an object entry.
  @inlinable @inline(__always)
  package var isObject: Bool { bits & 0b1111 == 0b1111 }

  /// Whether the length or count is kept in the tape's ``_Tape/longLengths``.
  @inlinable @inline(__always)
  package var hasLongLength: Bool {
    bits & 1 != 0 && (bits >> 5) & 0x1F_FFFF == 0x1F_FFFF
  }

  /// The index after the subtree of an array or object entry at `index`, else `index + 1`.
  @inlinable @inline(__always)
  package func next(at index: Int) -> Int {
    bits & _PackedEntry.containerMask == _PackedEntry.containerMask
      ? Int(truncatingIfNeeded: bits >> 26) : index + 1
  }

  /// The entry unpacked, with a long length read as ``longLength``.
  @inlinable @inline(__always)
  package var unpacked: _TapeEntry {
    if bits & 1 == 0 {
      return _TapeEntry(kind: .integer, payload: Int64(bitPattern: bits) >> 1)
    }
    return _TapeEntry(
      kind: _TapeKind(packed: UInt8(truncatingIfNeeded: bits >> 1) & 7),
      flags: UInt8(truncatingIfNeeded: bits >> 4) & 1,
      length: UInt32(truncatingIfNeeded: (bits >> 5) & 0x1F_FFFF),
      payload: Int64(bitPattern: bits >> 26))
  }
}

/// A length or count too large for a packed entry: the entry's index and its value.
@usableFromInline package struct _LongLength: Sendable, Equatable {
  @usableFromInline package var index: Int
  @usableFromInline package var length: UInt32
}

extension UnsafeBufferPointer<_LongLength> {
  /// The length recorded for the entry at `index` (0 when none is).
  @usableFromInline
  package func length(at index: Int) -> UInt32 {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if unsafe self[middle].index < index { low = middle + 1 } else { high = middle }
    }
    return unsafe low < count && self[low].index == index ? self[low].length : 0
  }
}
