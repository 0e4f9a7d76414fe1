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
struct _Tape: Sendable {
  /// The entries, in document order. Entry 0 is the root value.
  var entries: [_TapeEntry]
  /// The bytes that string and number entries point into: the JSON source, or storage written by
  /// a tape builder (unescaped text).
  var bytes: [UInt8]
}

/// The kind of one tape entry.
enum _TapeKind: UInt8, Sendable {
  case null
  case `true`
  case `false`
  /// An integer that fits `Int64`; the value is in ``_TapeEntry/payload``.
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

/// One entry of a ``_Tape``: 16 bytes.
struct _TapeEntry: Sendable, Equatable {
  /// The entry's kind.
  var kind: _TapeKind
  /// Per-kind flags: ``stringHasEscapes`` on strings, ``numberIsIntegral`` on numbers.
  var flags: UInt8
  /// Strings and numbers: the byte length of the content. Arrays: element count. Objects:
  /// member count.
  var length: UInt32
  /// Integers: the value. Strings and numbers: the byte offset of the content in
  /// ``_Tape/bytes``. Arrays and objects: the index of the first entry after the subtree.
  var payload: Int64

  /// On a string: the content holds JSON escapes (`\n`, `\u00e9`) and must be decoded.
  /// Without it the content bytes are the string's UTF-8, already validated.
  static let stringHasEscapes: UInt8 = 1
  /// On a number: the literal has no fraction and no exponent (an integer beyond `Int64`, or
  /// `-0`).
  static let numberIsIntegral: UInt8 = 2

  init(kind: _TapeKind, flags: UInt8 = 0, length: UInt32 = 0, payload: Int64 = 0) {
    self.kind = kind
    self.flags = flags
    self.length = length
    self.payload = payload
  }
}
