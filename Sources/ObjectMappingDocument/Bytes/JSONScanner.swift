#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Scans JSON bytes into the entries of a ``_Tape`` in one pass.
///
/// The scanner validates everything RFC 8259 requires (grammar, escapes, UTF-8 inside strings)
/// and records where strings and numbers are instead of decoding them: a string entry points at
/// the bytes between its quotes, a number that does not fit `Int64` at its literal text. Only
/// integers that fit `Int64` are computed while scanning.
///
/// It does not recurse: open containers live on an explicit stack, so nesting is bounded only by
/// ``JSONReadingOptions/maximumDepth``. Line and column numbers are computed only when an error
/// is thrown, by rescanning the input up to the error's offset.
///
/// Invariant (what makes the unchecked reads and writes safe): a scanner exists only inside
/// ``scan(_:options:)`` or ``scanArrayElements(_:options:_:)``, which borrow `input` for the
/// call, and every read of `base[i]` is preceded by a check `i < end` (or reads a position
/// already checked, such as a lead byte before its continuation bytes are length-checked).
/// Word-at-a-time reads load 8 bytes only while `index + 8 <= end` (16 while `index + 16 <= end`,
/// 4 for a literal while `position + 4 <= end`), through ``word(at:)``, which asserts it in
/// debug builds (and in the fuzzers' optimized build, which keeps the debug checks on), as the
/// scan position never passing the end is.
///
/// Entries are written through a pointer into storage reserved before the scan (``tape``),
/// not appended to an `Array` (whose capacity and uniqueness checks cost about 20 instructions
/// per entry): each write first checks `entryCount < tape.count`, and when the storage is
/// full the scan stops with ``overflowed`` set and starts again with more (see
/// ``append(_:)``). The storage is borrowed for the scan only, and reads of written entries
/// check `index < entryCount` in debug builds.
@safe package struct _JSONScanner {
  private let input: UnsafeBufferPointer<UInt8>
  /// The input, read through an accessor that asserts every index in debug and fuzz builds.
  private let base: _CheckedBytes
  private let end: Int
  private let options: JSONReadingOptions
  private let allowsComments: Bool
  private var position = 0
  /// The storage entries are written into: its first ``entryCount`` are the entries scanned.
  /// Borrowed from the caller for the scan (see the type's invariant).
  private var tape = unsafe UnsafeMutableBufferPointer<_PackedEntry>(start: nil, count: 0)
  /// The number of entries written.
  private var entryCount = 0
  /// Where a scan with ``PacksNumbers`` writes packed numbers, one for each number entry with a
  /// fraction or an exponent, in document order, until it is full: the first ``numberCount``
  /// are written. Borrowed from the caller for the scan, as ``tape`` is.
  private var numbers = unsafe UnsafeMutableBufferPointer<_PackedNumber>(start: nil, count: 0)
  /// The number of packed numbers written.
  private var numberCount = 0
  /// Set when an entry did not fit ``tape``: the scan stopped, to be run again with more room.
  private var overflowed = false
  /// The lengths and counts too large for a packed entry (``_Tape/longLengths``), in the order
  /// they were found; sorted by ``sortedLongLengths()``.
  private var longLengths: [_LongLength] = []
  /// The nesting depth of the values scanned: 0 for a document, 1 for the elements of a
  /// top-level array scanned one at a time (``scanArrayElements(_:options:_:)``).
  private var baseDepth = 0
  /// The position in the top-level array of the element being scanned one at a time, for the
  /// paths of duplicate-key errors.
  private var elementOffset: Int?
  /// The open containers' frames, kept between values (see ``scanValue(isDocument:_:)``).
  private var frames: [Frame] = []
  /// Under ``JSONReadingOptions/rejectsDuplicateKeys``: for each open object of more than 16
  /// members (by nesting depth), a hash table of its key entries' indexes (-1: empty slot).
  private var keyTables: [[Int]] = []

  private init(
    input: UnsafeBufferPointer<UInt8>, base: UnsafePointer<UInt8>, options: JSONReadingOptions
  ) {
    unsafe self.input = unsafe input
    unsafe self.base = unsafe _CheckedBytes(start: base, count: input.count)
    self.end = input.count
    self.options = options
    self.allowsComments = options.allowsComments
  }

  /// Scans `input`, one complete JSON text, into tape entries.
  ///
  /// - Parameter reserved: The number of entries to reserve before the first attempt (tests
  ///   use a small one to run the scan again with more room); by default the bound below.
  /// - Throws: `FormatError` with path `""`: ``FormatError/Kind/syntax(message:location:)``,
  ///   ``FormatError/Kind/invalidUTF8(location:)`` or
  ///   ``FormatError/Kind/depthLimitExceeded(limit:location:)``; with the object's path for a
  ///   duplicate key under ``JSONReadingOptions/rejectsDuplicateKeys``.
  package static func scan(
    _ input: UnsafeBufferPointer<UInt8>, options: JSONReadingOptions, reserving reserved: Int? = nil
  ) throws(FormatError) -> (entries: [_PackedEntry], longLengths: [_LongLength]) {
    let scanned = unsafe try scan(
      input, options: options, reserving: reserved, packingNumbers: false)
    return (scanned.entries, scanned.longLengths)
  }

  /// Scans `input` as ``scan(_:options:reserving:)`` does, and also packs the numbers with a
  /// fraction or an exponent while their digits are read (``_PackedNumber``), then calls `body`
  /// with a view of the tape and the packed numbers of the first such entries in document order
  /// (all of them unless there are more than one for every 16 bytes): what building a `Node`
  /// needs, without reading each number's digits a second time. Both are valid during the call
  /// only.
  ///
  /// - Throws: `FormatError` for invalid JSON, as ``scan(_:options:reserving:)``; `body` is
  ///   not called then.
  package static func scanPackingNumbers<Result>(
    _ input: UnsafeBufferPointer<UInt8>, options: JSONReadingOptions,
    reserving reserved: Int? = nil,
    _ body: (_UnsafeTapeView, UnsafeBufferPointer<_PackedNumber>) -> Result
  ) throws(FormatError) -> Result {
    let scanned = unsafe try scan(
      input, options: options, reserving: reserved, packingNumbers: true)
    return unsafe scanned.entries.withUnsafeBufferPointer { entries in
      unsafe scanned.longLengths.withUnsafeBufferPointer { longLengths in
        unsafe scanned.numbers.withUnsafeBufferPointer { numbers in
          unsafe _UnsafeTapeView.with(entries: entries, bytes: input, longLengths: longLengths) {
            unsafe body($0, numbers)
          }
        }
      }
    }
  }

  private static func scan(
    _ input: UnsafeBufferPointer<UInt8>, options: JSONReadingOptions, reserving reserved: Int?,
    packingNumbers: Bool
  ) throws(FormatError) -> (
    entries: [_PackedEntry], longLengths: [_LongLength], numbers: [_PackedNumber]
  ) {
    guard let base = input.baseAddress, !input.isEmpty else {
      throw FormatError(
        .syntax(
          message: "expected a value, found end of input",
          location: TextLocation(offset: 0, line: 1, column: 1)))
    }
    unsafe try _JSONScanner(input: input, base: base, options: options).checkSize()
    // Every value but the last takes at least 2 bytes (`0,`), so a document of n bytes has at
    // most n / 2 + 1 entries: reserving that many means the tape never grows (growing copies
    // the whole tape and briefly holds both copies). The reservation costs address space, not
    // memory: the pages past the last entry written are never touched, so they never become
    // resident, and the entries written take at most 4 times the input (8 bytes per 2). Should
    // a document ever have more, the scan runs again with room for one entry per byte, which
    // always suffices (every entry starts at a byte of its own: a quote, a bracket or the first
    // character of a scalar).
    //
    // Packed numbers get room for one for every 16 bytes of input (canada.json has one for
    // every 20); in a denser document the numbers past that room are not packed by the scan,
    // and the node builder packs their bytes as it did before (the same result, with their
    // digits read twice). The room is not reserved at its bound as the tape is (a quarter of
    // the input's bytes, 16 bytes each): memory freed in blocks that large is given back to the
    // system at once and touched again page by page (a page fault each) by the next parse,
    // 1,070 of them a parse of canada.
    var capacity = Swift.max(reserved ?? input.count / 2 + 2, 1)
    while true {
      var scanner = unsafe _JSONScanner(input: input, base: base, options: options)
      var failure: FormatError?
      var numbers: [_PackedNumber] = []
      let entries = unsafe [_PackedEntry](unsafeUninitializedCapacity: capacity) { buffer, count in
        unsafe _adviseHugePages(for: UnsafeMutableRawBufferPointer(buffer))
        unsafe scanner.tape = unsafe buffer
        if packingNumbers {
          numbers = unsafe [_PackedNumber](unsafeUninitializedCapacity: input.count / 16 + 16) {
            numberBuffer, numberCount in
            unsafe scanner.numbers = unsafe numberBuffer
            do throws(FormatError) {
              try scanner.scanDocument(PacksNumbers.self)
            } catch {
              failure = error
            }
            numberCount = scanner.numberCount
            unsafe scanner.numbers = unsafe UnsafeMutableBufferPointer(start: nil, count: 0)
          }
        } else {
          do throws(FormatError) {
            try scanner.scanDocument(KeepsNumberText.self)
          } catch {
            failure = error
          }
        }
        count = scanner.entryCount
        unsafe scanner.tape = unsafe UnsafeMutableBufferPointer(start: nil, count: 0)
      }
      if let failure {
        guard scanner.overflowed, capacity < input.count + 2 else { throw failure }
        capacity = input.count + 2
        continue
      }
      return (entries, scanner.sortedLongLengths(), numbers)
    }
  }

  /// Throws when the input is too large for the packed entries' offsets (256 GiB).
  private func checkSize() throws(FormatError) {
    guard Int64(end) <= _PackedEntry.maximumPayload else {
      throw syntaxError(
        "the document is too large to index: more than \(_PackedEntry.maximumPayload) bytes",
        at: 0)
    }
  }

  /// ``longLengths`` by entry index (containers are recorded when they close, after the long
  /// strings inside them).
  private func sortedLongLengths() -> [_LongLength] {
    var lengths = longLengths
    if lengths.count > 1 { lengths.sort { $0.index < $1.index } }
    return lengths
  }

  // MARK: - Entries

  /// Writes `entry` after the last one, or, when ``tape`` is full, sets ``overflowed`` and
  /// throws so the caller can scan again with more room (the error is never shown).
  @inline(__always)
  private mutating func append(_ entry: _PackedEntry) throws(FormatError) {
    guard unsafe _fastPath(entryCount < tape.count) else { throw tapeIsFull() }
    unsafe tape[entryCount] = entry
    entryCount &+= 1
  }

  /// Writes a packed number after the last one, unless ``numbers`` is full (the node builder
  /// then packs the number's bytes itself).
  @inline(__always)
  private mutating func appendNumber(_ number: _PackedNumber) {
    guard unsafe _fastPath(numberCount < numbers.count) else { return }
    unsafe numbers[numberCount] = number
    numberCount &+= 1
  }

  @inline(never)
  private mutating func tapeIsFull() -> FormatError {
    overflowed = true
    return syntaxError("the index ran out of room", at: position)
  }

  /// The eight input bytes at `index`, which the caller checked are inside the input.
  @inline(__always)
  private func word(at index: Int) -> UInt64 {
    assert(index >= 0 && index <= end &- 8, "a word is loaded only from inside the input")
    return unsafe UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
  }

  /// The two input bytes at `index` as a little-endian integer (the first byte in the low
  /// eight bits), which the caller checked are inside the input.
  @inline(__always)
  private func pair(at index: Int) -> UInt16 {
    assert(index >= 0 && index <= end &- 2, "a pair is loaded only from inside the input")
    return UInt16(
      littleEndian: unsafe UnsafeRawPointer(base + index).loadUnaligned(as: UInt16.self))
  }

  /// The entry written at `index`.
  @inline(__always)
  private func entry(at index: Int) -> _PackedEntry {
    assert(index >= 0 && index < entryCount, "only written entries are read")
    return unsafe tape[index]
  }

  // MARK: - Structure

  /// One open container: the index of its entry and how many values it has so far.
  private struct Frame {
    var container: Int
    var count: Int
    var isObject: Bool
  }

  /// The frames of the open containers: the first ``shallowLevels`` written through a pointer
  /// into scratch memory (pushing to and popping from an `Array` checked its capacity and
  /// uniqueness, a call, for every container), deeper ones in an array.
  ///
  /// Invariant: `shallow` is scratch memory of ``scanValue(isDocument:_:)`` that outlives the
  /// stack, and its first `min(count, shallow.count)` frames are the ones written.
  @unsafe private struct FrameStack {
    /// How many levels live in the scratch memory: 32 frames of 24 bytes. The standard library
    /// puts a temporary allocation of up to 1 KiB on the stack and `malloc`s a larger one,
    /// which would be an allocation per document and per streamed element (64 levels were).
    static let shallowLevels = 32
    let shallow: UnsafeMutableBufferPointer<Frame>
    var deep: [Frame]
    /// The number of frames: the nesting depth.
    private(set) var count = 0

    init(shallow: UnsafeMutableBufferPointer<Frame>, deep: [Frame]) {
      unsafe self.shallow = unsafe shallow
      unsafe self.deep = deep
    }

    var isEmpty: Bool { unsafe count == 0 }

    @inline(__always)
    mutating func push(_ frame: Frame) {
      if unsafe count < shallow.count {
        unsafe shallow[count] = frame
      } else {
        unsafe deep.append(frame)
      }
      unsafe count &+= 1
    }

    @inline(__always)
    mutating func pop() -> Frame {
      unsafe assert(count > 0, "a frame is popped only when one was pushed")
      unsafe count &-= 1
      return unsafe count < shallow.count ? shallow[count] : deep.removeLast()
    }

    /// Every frame, outermost first (for duplicate-key checks and their errors).
    var all: [Frame] {
      unsafe Array(shallow.prefix(Swift.min(count, shallow.count))) + deep
    }
  }

  /// How a scan treats numbers with a fraction or an exponent, chosen at compile time (each scan
  /// is specialized for its own): ``KeepsNumberText`` records where their text is, as the mapping
  /// layer needs; ``PacksNumbers`` also packs them into ``numbers`` while reading their digits,
  /// for building a `Node`. The mapping layer's scan thus has no test for packing at all.
  private protocol NumberHandling {
    /// Whether numbers with a fraction or an exponent are packed into ``numbers``.
    static var packs: Bool { get }
  }

  /// Numbers are recorded as their text only (``NumberHandling``).
  private enum KeepsNumberText: NumberHandling {
    static var packs: Bool { false }
  }

  /// Numbers with a fraction or an exponent are also packed (``NumberHandling``).
  private enum PacksNumbers: NumberHandling {
    static var packs: Bool { true }
  }

  private mutating func scanDocument<Numbers: NumberHandling>(_ numbers: Numbers.Type)
    throws(FormatError)
  {
    try skipByteOrderMark()
    try scanValue(isDocument: true, numbers)
  }

  /// Skips a UTF-8 byte order mark at the start of the input, when the options allow one.
  private mutating func skipByteOrderMark() throws(FormatError) {
    if unsafe end >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF {
      guard options.allowsByteOrderMark else {
        throw syntaxError("expected a value, found a byte order mark (U+FEFF)", at: 0)
      }
      position = 3
    }
  }

  /// Scans one value at `position` into `entries`. For the whole document, nothing but
  /// whitespace may follow it; otherwise scanning stops right after it.
  private mutating func scanValue<Numbers: NumberHandling>(
    isDocument: Bool, _ numbers: Numbers.Type
  ) throws(FormatError) {
    // The frames of the containers that enclose the current one: the first levels in scratch
    // memory on the stack, deeper ones in the scanner's reused array (scanning the elements of
    // a top-level array one at a time calls this once per element).
    var deep: [Frame] = []
    swap(&deep, &frames)
    deep.removeAll(keepingCapacity: true)
    defer { swap(&deep, &frames) }
    unsafe assert(
      MemoryLayout<Frame>.stride * FrameStack.shallowLevels <= 1024,
      "the scratch frames stay small enough for the stack")
    unsafe try withUnsafeTemporaryAllocation(of: Frame.self, capacity: FrameStack.shallowLevels) {
      shallow throws(FormatError) in
      var stack = unsafe FrameStack(shallow: shallow, deep: deep)
      defer { unsafe swap(&deep, &stack.deep) }
      unsafe try scanValue(isDocument: isDocument, stack: &stack, numbers)
    }
  }

  private mutating func scanValue<Numbers: NumberHandling>(
    isDocument: Bool, stack: inout FrameStack, _ numbers: Numbers.Type
  ) throws(FormatError) {
    let maximumDepth = options.maximumDepth - baseDepth
    let allowsTrailingCommas = options.allowsTrailingCommas
    let rejectsDuplicateKeys = options.rejectsDuplicateKeys
    var current = Frame(container: -1, count: 0, isObject: false)

    value: while true {
      try skipWhitespace()
      guard position < end else {
        throw syntaxError("expected a value, found end of input", at: position)
      }
      let byte = unsafe base[position]
      switch byte {
      case _quote:
        try scanString()
      case _minus, _zero..._nine:
        try scanNumber(numbers)
      case UInt8(ascii: "t"):
        try scanLiteral("true", word: 0x6575_7274, kind: .true)
      case UInt8(ascii: "f"):
        try scanLiteral("false", word: 0x736C_6166, kind: .false)
      case UInt8(ascii: "n"):
        try scanLiteral("null", word: 0x6C6C_756E, kind: .null)
      case _openBracket, _openBrace:
        guard unsafe stack.count < maximumDepth else {
          throw FormatError(
            .depthLimitExceeded(limit: options.maximumDepth, location: location(of: position)))
        }
        unsafe stack.push(current)
        let isObject = byte == _openBrace
        current = Frame(container: entryCount, count: 0, isObject: isObject)
        try append(_PackedEntry(kind: isObject ? .object : .array))
        position += 1
        try skipWhitespace()
        if unsafe position < end && base[position] == (isObject ? _closeBrace : _closeBracket) {
          position += 1
          unsafe try close(&current, &stack)
        } else {
          if isObject { try scanKey(afterComma: false) }
          continue value
        }
      default:
        throw syntaxError("expected a value, found \(found(at: position))", at: position)
      }

      // A value is complete: continue the enclosing container, or finish the document.
      while true {
        guard unsafe !stack.isEmpty else {
          if isDocument { try finishDocument() }
          return
        }
        current.count += 1
        try skipWhitespace()
        let closer = current.isObject ? _closeBrace : _closeBracket
        if position < end {
          let byte = unsafe base[position]
          if byte == _comma {
            position += 1
            if allowsTrailingCommas {
              try skipWhitespace()
              if unsafe position < end && base[position] == closer {
                position += 1
                unsafe try close(&current, &stack)
                continue
              }
            }
            if current.isObject {
              try scanKey(afterComma: true)
              if rejectsDuplicateKeys { unsafe try checkKey(of: current, enclosedBy: stack) }
            }
            continue value
          }
          if byte == closer {
            position += 1
            unsafe try close(&current, &stack)
            continue
          }
        }
        let expected =
          current.isObject
          ? "expected ',' or '}' after an object member"
          : "expected ',' or ']' after an array element"
        throw syntaxError("\(expected), found \(found(at: position))", at: position)
      }
    }
  }

  // MARK: - Duplicate keys

  /// Throws when the key just scanned (the last entry) repeats a key of the same object
  /// (`object`, whose `count` members before it are complete); `stack` holds the enclosing
  /// containers, for the error's path.
  ///
  /// Up to 16 members the key is compared with each earlier one; from the 17th on, through an
  /// open-addressing table of key entry indexes for the object's depth, hashed with the
  /// standard library's randomly seeded `Hasher` (so crafted keys cannot make it quadratic).
  private mutating func checkKey(of object: Frame, enclosedBy stack: FrameStack)
    throws(FormatError)
  {
    let key = entryCount - 1
    if object.count < 16 {
      var cursor = object.container + 1
      for _ in 0..<object.count {
        if keysEqual(cursor, key) { throw unsafe duplicateKey(key, first: cursor, in: stack.all) }
        cursor = entry(at: cursor + 1).next(at: cursor + 1)
      }
      return
    }
    let depth = unsafe stack.count
    while keyTables.count <= depth { keyTables.append([]) }
    var table: [Int] = []
    swap(&table, &keyTables[depth])
    defer { swap(&table, &keyTables[depth]) }
    if object.count == 16 || (object.count + 1) * 2 > table.count {
      // A new object (or a full table): the object's keys so far, distinct (checked before).
      let capacity = Swift.max(128, 2 << (Int.bitWidth - (object.count + 1).leadingZeroBitCount))
      table.removeAll(keepingCapacity: true)
      table.append(contentsOf: repeatElement(-1, count: capacity))
      var cursor = object.container + 1
      for _ in 0..<object.count {
        insertKey(cursor, into: &table)
        cursor = entry(at: cursor + 1).next(at: cursor + 1)
      }
    }
    if let first = insertKey(key, into: &table) {
      throw unsafe duplicateKey(key, first: first, in: stack.all)
    }
  }

  /// Inserts the key entry at `key` into `table`, unless it holds an equal key: then returns
  /// that key's entry index.
  @discardableResult
  private func insertKey(_ key: Int, into table: inout [Int]) -> Int? {
    let mask = table.count - 1
    var slot = keyHash(at: key) & mask
    while table[slot] >= 0 {
      if keysEqual(table[slot], key) { return table[slot] }
      slot = (slot + 1) & mask
    }
    table[slot] = key
    return nil
  }

  /// A seeded hash of the decoded text of the key entry at `index`.
  private func keyHash(at index: Int) -> Int {
    var hasher = Hasher()
    let entry = scannedEntry(at: index)
    if entry.flags & _TapeEntry.stringHasEscapes == 0 {
      unsafe hasher.combine(
        bytes: UnsafeRawBufferPointer(start: base + Int(entry.payload), count: Int(entry.length)))
    } else {
      var text = keyText(at: index)
      text.withUTF8 { unsafe hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
    return hasher.finalize()
  }

  /// Whether the key entries at `first` and `second` name the same key.
  @inline(__always)
  private func keysEqual(_ first: Int, _ second: Int) -> Bool {
    let one = entry(at: first)
    let other = entry(at: second)
    if !one.hasFlag && !other.hasFlag && one.storedLength != _PackedEntry.longLength {
      // The common case: two keys without escapes, compared by their bytes.
      let length = one.storedLength
      return unsafe length == other.storedLength
        && (length == 0
          || memcmp(base + one.storedPayload, base + other.storedPayload, length) == 0)
    }
    return keysEqualSlowly(first, second)
  }

  /// ``keysEqual(_:_:)`` for keys with escapes or long lengths.
  @inline(never)
  private func keysEqualSlowly(_ first: Int, _ second: Int) -> Bool {
    let a = scannedEntry(at: first)
    let b = scannedEntry(at: second)
    if a.flags | b.flags == 0 {
      return unsafe a.length == b.length
        && (a.length == 0
          || memcmp(base + Int(a.payload), base + Int(b.payload), Int(a.length)) == 0)
    }
    // Decoded keys compare by their UTF-8 bytes, as lookups and the key hash do (`String ==`
    // would also match canonically equivalent keys, `"é"` and `"e\u0301"`).
    return keyText(at: first).utf8.elementsEqual(keyText(at: second).utf8)
  }

  /// The entry at `index` with its real length (a long one is looked up in ``longLengths``).
  private func scannedEntry(at index: Int) -> _TapeEntry {
    var entry = entry(at: index).unpacked
    if self.entry(at: index).hasLongLength {
      entry.length = longLengths.last { $0.index == index }?.length ?? entry.length
    }
    return entry
  }

  /// The decoded text of the key entry at `index`.
  private func keyText(at index: Int) -> String {
    let entry = scannedEntry(at: index)
    let content = unsafe UnsafeBufferPointer(
      start: base + Int(entry.payload), count: Int(entry.length))
    if entry.flags & _TapeEntry.stringHasEscapes != 0 { return unsafe _unescapeJSONString(content) }
    return unsafe String(decoding: content, as: UTF8.self)
  }

  /// The error for the key entry at `key` repeating the one at `first`, with the path of their
  /// object: each enclosing array's element and each enclosing object's current member.
  private func duplicateKey(_ key: Int, first: Int, in stack: [Frame]) -> FormatError {
    var path: [_PathComponent] = []
    if let elementOffset { path.append(.index(elementOffset)) }
    // `stack[0]` stands for "no container" (the document itself).
    for frame in stack.dropFirst() {
      if frame.isObject {
        var cursor = frame.container + 1
        for _ in 0..<frame.count { cursor = entry(at: cursor + 1).next(at: cursor + 1) }
        path.append(.key(keyText(at: cursor)))
      } else {
        path.append(.index(frame.count))
      }
    }
    let firstLocation = location(of: Int(scannedEntry(at: first).payload) - 1)
    return FormatError(
      path: _jsonPointer(path),
      .syntax(
        message:
          "duplicate key \(MessageText.quoted(keyText(at: key))) (first at line \(firstLocation.line), "
          + "column \(firstLocation.column))",
        location: location(of: Int(scannedEntry(at: key).payload) - 1)))
  }

  /// Checks that nothing but whitespace follows the top-level value.
  private mutating func finishDocument() throws(FormatError) {
    assert(position <= end, "the scan position stays inside the input")
    try skipWhitespace()
    guard position == end else {
      throw syntaxError("trailing characters after the top-level value", at: position)
    }
  }

  // MARK: - Streaming the elements of a top-level array

  /// How ``scanArrayElements(_:options:_:)`` ended.
  package enum ElementScan {
    /// The document is not an array (nothing was scanned or reported).
    case notAnArray
    /// `body` asked to stop; the rest of the document was not read.
    case stopped
    /// Every element was reported and the document is valid.
    case finished
  }

  /// Scans `input`, when it is one top-level array, an element at a time: `body` gets each
  /// element's position in the array, its entries (the element at index 0, its containers'
  /// subtree indexes relative to it) and the byte offset where it ends, before the next element is scanned, so the entries never hold more
  /// than one element. `body` returns `false` to stop. Syntax errors are the ones ``scan(_:options:)``
  /// throws, at the same locations; a syntax error after some elements were reported is still
  /// thrown, so the caller must discard what it made of them.
  package static func scanArrayElements(
    _ input: UnsafeBufferPointer<UInt8>, options: JSONReadingOptions,
    _ body: (_ offset: Int, _ element: _UnsafeTapeView, _ end: Int) -> Bool
  ) throws(FormatError) -> ElementScan {
    guard let base = input.baseAddress, !input.isEmpty else { return .notAnArray }
    var scanner = unsafe _JSONScanner(input: input, base: base, options: options)
    try scanner.checkSize()
    try scanner.skipByteOrderMark()
    try scanner.skipWhitespace()
    guard scanner.position < scanner.end, unsafe base[scanner.position] == _openBracket,
      options.maximumDepth > 0
    else { return .notAnArray }
    scanner.position += 1
    scanner.baseDepth = 1
    try scanner.skipWhitespace()
    if unsafe scanner.position < scanner.end && base[scanner.position] == _closeBracket {
      scanner.position += 1
      try scanner.finishDocument()
      return .finished
    }
    // The entries of one element at a time, reused: zero-filled so the whole storage can be
    // written through a pointer (see the type's invariant), doubled when an element does not
    // fit, and never larger than one entry per byte of the rest of the input.
    var storage = [_PackedEntry](repeating: _PackedEntry(bits: 0), count: 256)
    var offset = 0
    while true {
      let start = scanner.position
      scanner.elementOffset = offset
      while true {
        scanner.longLengths.removeAll(keepingCapacity: true)
        scanner.entryCount = 0
        var failure: FormatError?
        unsafe storage.withUnsafeMutableBufferPointer { buffer in
          unsafe scanner.tape = unsafe buffer
          do throws(FormatError) {
            try scanner.scanValue(isDocument: false, KeepsNumberText.self)
          } catch {
            failure = error
          }
          unsafe scanner.tape = unsafe UnsafeMutableBufferPointer(start: nil, count: 0)
        }
        guard let failure else { break }
        guard scanner.overflowed, storage.count < scanner.end - start + 2 else { throw failure }
        scanner.overflowed = false
        scanner.position = start
        let larger = Swift.min(storage.count * 2, scanner.end - start + 2)
        storage = [_PackedEntry](repeating: _PackedEntry(bits: 0), count: larger)
      }
      let longLengths = scanner.sortedLongLengths()
      let count = scanner.entryCount
      let goesOn = unsafe storage.withUnsafeBufferPointer { entries in
        unsafe longLengths.withUnsafeBufferPointer { longLengths in
          unsafe _UnsafeTapeView.with(
            entries: UnsafeBufferPointer(rebasing: entries[..<count]), bytes: input,
            longLengths: longLengths
          ) { view in
            body(offset, view, scanner.position)
          }
        }
      }
      guard goesOn else { return .stopped }
      offset += 1
      try scanner.skipWhitespace()
      if scanner.position < scanner.end {
        let byte = unsafe base[scanner.position]
        if byte == _comma {
          scanner.position += 1
          if options.allowsTrailingCommas {
            try scanner.skipWhitespace()
            if unsafe scanner.position < scanner.end && base[scanner.position] == _closeBracket {
              scanner.position += 1
              break
            }
          }
          continue
        }
        if byte == _closeBracket {
          scanner.position += 1
          break
        }
      }
      throw scanner.syntaxError(
        "expected ',' or ']' after an array element, found \(scanner.found(at: scanner.position))",
        at: scanner.position)
    }
    try scanner.finishDocument()
    return .finished
  }

  /// Patches the closing container's entry with its count and the index after its subtree,
  /// then makes the enclosing container current.
  @inline(__always)
  private mutating func close(_ current: inout Frame, _ stack: inout FrameStack)
    throws(FormatError)
  {
    guard current.count <= Int(UInt32.max) else {
      let what = current.isObject ? "an object with more than" : "an array with more than"
      throw syntaxError("\(what) \(UInt32.max) values", at: position - 1)
    }
    let after = entryCount
    if current.count >= _PackedEntry.longLength {
      longLengths.append(
        _LongLength(index: current.container, length: UInt32(truncatingIfNeeded: current.count)))
    }
    assert(current.container < entryCount, "a container's entry is written when it opens")
    unsafe tape[current.container].close(count: current.count, after: after)
    current = unsafe stack.pop()
  }

  /// Scans an object member's key and the colon after it; `position` is at the key (or at
  /// whitespace before it).
  private mutating func scanKey(afterComma: Bool) throws(FormatError) {
    try skipWhitespace()
    guard unsafe position < end && base[position] == _quote else {
      let expected =
        afterComma ? "expected a string key after ',' in an object" : "expected a string key or '}'"
      throw syntaxError("\(expected), found \(found(at: position))", at: position)
    }
    try scanString()
    // The common `": ` after a key (pretty-printed input) in one 16-bit comparison; a value's
    // own whitespace check then finds the value directly.
    if position &+ 2 <= end && pair(at: position) == _colonSpace {
      position &+= 2
      return
    }
    if unsafe position < end && base[position] == _colon {
      position &+= 1
      return
    }
    try skipWhitespace()
    guard unsafe position < end && base[position] == _colon else {
      throw syntaxError(
        "expected ':' after an object key, found \(found(at: position))", at: position)
    }
    position += 1
  }

  @inline(__always)
  private mutating func skipWhitespace() throws(FormatError) {
    // Most values follow their delimiter directly.
    if unsafe position < end && base[position] > _space && base[position] != _slash { return }
    try skipWhitespaceRun()
  }

  private mutating func skipWhitespaceRun() throws(FormatError) {
    while position < end {
      let byte = unsafe base[position]
      if byte == _space || byte == _newline || byte == _return || byte == _tab {
        position += 1
        #if _endian(little)
          // Indentation: spaces eight at a time, up to the first other byte.
          while position + 8 <= end {
            let others = word(at: position) ^ 0x2020_2020_2020_2020
            if others != 0 {
              position += others.trailingZeroBitCount >> 3
              break
            }
            position += 8
          }
        #endif
      } else if byte == _slash && allowsComments {
        try skipComment()
      } else {
        return
      }
    }
  }

  /// Skips a `//` or `/* */` comment starting at `position`.
  private mutating func skipComment() throws(FormatError) {
    let start = position
    guard start + 1 < end else {
      throw syntaxError("unexpected end of input after '/'", at: end)
    }
    switch unsafe base[start + 1] {
    case _slash:
      position = start + 2
      while unsafe position < end && base[position] != _newline && base[position] != _return {
        position += 1
      }
    case _star:
      var index = start + 2
      while index + 1 < end {
        if unsafe base[index] == _star && base[index + 1] == _slash {
          position = index + 2
          return
        }
        index += 1
      }
      throw syntaxError("unexpected end of input inside a comment", at: end)
    default:
      throw syntaxError(
        "expected '/' or '*' after '/' to start a comment, found \(found(at: start + 1))",
        at: start + 1)
    }
  }

  // MARK: - Scalars

  /// Scans `true`, `false` or `null` at `position` (whose first byte matched) and appends its
  /// entry. `word` is the literal's first four bytes as a little-endian integer: the common
  /// case is one comparison of a 32-bit load.
  @inline(__always)
  private mutating func scanLiteral(_ literal: StaticString, word: UInt32, kind: _TapeKind)
    throws(FormatError)
  {
    let count = literal.utf8CodeUnitCount
    if position &+ count <= end {
      assert(position >= 0, "the literal is inside the input")
      let loaded = unsafe UInt32(
        littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt32.self))
      // `false` has a fifth byte, checked on its own.
      if unsafe loaded == word && (count == 4 || base[position &+ 4] == UInt8(ascii: "e")) {
        position &+= count
        try append(_PackedEntry(kind: kind))
        return
      }
    }
    try scanLiteralSlowly(literal, kind: kind)
  }

  /// ``scanLiteral(_:word:kind:)`` byte by byte, for the error's position and text.
  @inline(never)
  private mutating func scanLiteralSlowly(_ literal: StaticString, kind: _TapeKind)
    throws(FormatError)
  {
    let count = literal.utf8CodeUnitCount
    let text = unsafe literal.utf8Start
    for offset in 1..<count {
      let index = position + offset
      guard unsafe index < end && base[index] == text[offset] else {
        throw syntaxError("expected '\(literal)', found \(found(at: index))", at: index)
      }
    }
    position += count
    try append(_PackedEntry(kind: kind))
  }

  /// Scans a number at `position` (a digit or `-`) and appends its entry.
  private mutating func scanNumber<Numbers: NumberHandling>(_: Numbers.Type) throws(FormatError) {
    if Numbers.packs { return try scanPackingNumber() }
    let start = position
    var index = position
    let negative = unsafe base[index] == _minus
    if negative {
      index += 1
      guard unsafe index < end && base[index] &- _zero < 10 else {
        throw noDigitAfterMinus(at: index)
      }
    }
    let digitsStart = index
    var magnitude: UInt64 = 0
    if unsafe base[index] == _zero {
      index += 1
      if unsafe index < end && base[index] &- _zero < 10 {
        throw leadingZeros(at: digitsStart)
      }
    } else {
      // At most 19 digits fit a UInt64 without overflow; longer integers are not `.integer`
      // anyway, so the wrapping value is never used.
      while index < end {
        let digit = unsafe base[index] &- _zero
        guard digit < 10 else { break }
        magnitude = magnitude &* 10 &+ UInt64(digit)
        index += 1
      }
    }
    let digitCount = index - digitsStart
    var integral = true
    if unsafe index < end && base[index] == _period {
      integral = false
      index += 1
      guard unsafe index < end && base[index] &- _zero < 10 else {
        throw noFractionDigit(at: index)
      }
      index = skipDigits(from: index + 1)
    }
    if unsafe index < end && base[index] | 0x20 == UInt8(ascii: "e") {
      integral = false
      index += 1
      if unsafe index < end && (base[index] == _plus || base[index] == _minus) { index += 1 }
      guard unsafe index < end && base[index] &- _zero < 10 else {
        throw noExponentDigit(at: index)
      }
      index = skipDigits(from: index + 1)
    }
    position = index
    if integral && digitCount <= 19 {
      // Integers in `-2⁶² ..< 2⁶²` are packed into their entry; `-0` stays a literal (flagged
      // integral), so that as a `Double` it reads as -0.0, the correctly rounded value of its
      // text, and larger integers keep their text.
      let limit: UInt64 = 1 << 62
      if negative && magnitude != 0 && magnitude <= limit {
        try append(_PackedEntry(bits: (0 &- magnitude) << 1))
        return
      }
      if !negative && magnitude < limit {
        try append(_PackedEntry(bits: magnitude << 1))
        return
      }
    }
    try appendText(kind: .number, flag: integral, length: index - start, offset: start)
  }

  /// ``scanNumber(_:)`` under ``PacksNumbers``: scans the number at `position` with the same
  /// checks and errors, and appends the same entry; a number with a fraction or an exponent is
  /// also packed while its digits are read, as `Node.DecimalText.packed(_:)` would pack its
  /// bytes (the same two words, or a layout of 0 when it does not fit), into ``numbers``.
  ///
  /// One function for the whole number, so that the parse to a `Node` pays one call per number
  /// (the integer part is read byte by byte: it is short in numbers with a fraction, and wraps
  /// past 19 digits, when the number does not fit and the value is not used).
  @inline(never)
  private mutating func scanPackingNumber() throws(FormatError) {
    let start = position
    var index = start
    var layout: UInt64 = 0
    if unsafe base[index] == _minus {
      layout = Node.DecimalText.negativeBit
      index &+= 1
      guard unsafe index < end && base[index] &- _zero < 10 else {
        throw noDigitAfterMinus(at: index)
      }
    }
    let digitsStart = index
    var significand: UInt64 = 0
    if unsafe base[index] == _zero {
      index &+= 1
      if unsafe index < end && base[index] &- _zero < 10 {
        throw leadingZeros(at: digitsStart)
      }
    } else {
      while index < end {
        let digit = unsafe base[index] &- _zero
        guard digit < 10 else { break }
        significand = significand &* 10 &+ UInt64(digit)
        index &+= 1
      }
    }
    let integerDigits = index &- digitsStart
    let next: UInt8 = unsafe index < end ? base[index] : 0
    guard next == _period || next | 0x20 == UInt8(ascii: "e") else {
      // An integer: the entry ``scanNumber(_:)`` appends.
      position = index
      if integerDigits <= 19 {
        let limit: UInt64 = 1 << 62
        let negative = layout != 0
        if negative && significand != 0 && significand <= limit {
          return try append(_PackedEntry(bits: (0 &- significand) << 1))
        }
        if !negative && significand < limit {
          return try append(_PackedEntry(bits: significand << 1))
        }
      }
      return try appendText(kind: .number, flag: true, length: index &- start, offset: start)
    }
    var fractionDigits = 0
    if next == _period {
      index &+= 1
      guard unsafe index < end && base[index] &- _zero < 10 else {
        throw noFractionDigit(at: index)
      }
      let fractionStart = index
      // Eight digits a step while eight bytes remain (the digits past the 19th wrap the value,
      // which is then not used), the rest byte by byte.
      while index &+ 8 <= end {
        let word = word(at: index)
        let count = _leadingDigits(word)
        if count == 8 {
          significand = significand &* 100_000_000 &+ _eightDigitsValue(word)
          index &+= 8
          continue
        }
        if count > 0 {
          significand =
            significand &* Node.DecimalText.powerOfTen(count)
            &+ _eightDigitsValue(word &<< UInt64(truncatingIfNeeded: (8 &- count) &* 8))
          index &+= count
        }
        break
      }
      if index &+ 8 > end {
        while index < end {
          let digit = unsafe base[index] &- _zero
          guard digit < 10 else { break }
          significand = significand &* 10 &+ UInt64(digit)
          index &+= 1
        }
      }
      fractionDigits = index &- fractionStart
    }
    var fits = integerDigits &+ fractionDigits <= Node.DecimalText.maximumDigits
    if unsafe index < end && base[index] | 0x20 == UInt8(ascii: "e") {
      layout |= Node.DecimalText.exponentBit
      if unsafe base[index] == UInt8(ascii: "E") { layout |= Node.DecimalText.upperCaseBit }
      index += 1
      if index < end {
        let sign = unsafe base[index]
        if sign == _plus {
          layout |= Node.DecimalText.exponentPlusBits
          index += 1
        } else if sign == _minus {
          layout |= Node.DecimalText.exponentMinusBits
          index += 1
        }
      }
      guard unsafe index < end && base[index] &- _zero < 10 else {
        throw noExponentDigit(at: index)
      }
      let exponentStart = index
      var exponent: UInt64 = 0
      while index < end {
        let digit = unsafe base[index] &- _zero
        guard digit < 10 else { break }
        exponent = exponent &* 10 &+ UInt64(digit)
        index &+= 1
      }
      let exponentDigits = index &- exponentStart
      fits =
        fits && exponentDigits <= Node.DecimalText.maximumExponentDigits
        && exponent <= UInt64(UInt32.max)
      layout |= Node.DecimalText.layoutFields(
        integerDigits: 0, fractionDigits: 0, exponentDigits: exponentDigits, exponent: exponent)
    }
    position = index
    try appendText(kind: .number, flag: false, length: index &- start, offset: start)
    layout |= Node.DecimalText.layoutFields(
      integerDigits: integerDigits, fractionDigits: fractionDigits)
    appendNumber(
      fits
        ? _PackedNumber(significand: significand, layout: layout)
        : _PackedNumber(significand: 0, layout: 0))
  }

  /// The error for a `-` not followed by a digit at `index`, out of line so that the number
  /// scan keeps its registers.
  @inline(never)
  private func noDigitAfterMinus(at index: Int) -> FormatError {
    syntaxError("expected a digit after '-', found \(found(at: index))", at: index)
  }

  /// The error for a number whose integer part, at `index`, starts with a zero and goes on.
  @inline(never)
  private func leadingZeros(at index: Int) -> FormatError {
    syntaxError("leading zeros are not allowed in numbers", at: index)
  }

  /// The error for a decimal point not followed by a digit at `index` (see
  /// ``noDigitAfterMinus(at:)``).
  @inline(never)
  private func noFractionDigit(at index: Int) -> FormatError {
    syntaxError("expected a digit after the decimal point, found \(found(at: index))", at: index)
  }

  /// The error for an exponent without a digit at `index` (see ``noFractionDigit(at:)``).
  @inline(never)
  private func noExponentDigit(at index: Int) -> FormatError {
    syntaxError("expected a digit in the exponent, found \(found(at: index))", at: index)
  }

  /// Appends a string or number entry, recording a long length.
  @inline(__always)
  private mutating func appendText(kind: _TapeKind, flag: Bool, length: Int, offset: Int)
    throws(FormatError)
  {
    var stored = length
    if _slowPath(length >= _PackedEntry.longLength) {
      try recordLongLength(kind: kind, length: length, offset: offset)
      stored = _PackedEntry.longLength
    }
    try append(
      _PackedEntry(
        bits: UInt64(truncatingIfNeeded: offset) << 26 | UInt64(truncatingIfNeeded: stored) << 5
          | (flag ? 16 : 0) | UInt64(kind.rawValue) << 1 | 1))
  }

  /// Records the length of the string or number entry about to be appended, too long for its
  /// packed entry; throws when it is too long for the tape at all.
  @inline(never)
  private mutating func recordLongLength(kind: _TapeKind, length: Int, offset: Int)
    throws(FormatError)
  {
    guard length <= Int(UInt32.max) else {
      if kind == .string {
        throw syntaxError("string too long: more than \(UInt32.max) bytes", at: offset - 1)
      }
      throw syntaxError("number too long: more than \(UInt32.max) bytes", at: offset)
    }
    longLengths.append(_LongLength(index: entryCount, length: UInt32(truncatingIfNeeded: length)))
  }

  /// The index of the first byte at or after `start` that is not an ASCII digit, or `end`;
  /// eight bytes at a time (``_skipDigits(_:_:_:)`` reads only inside `base[..<end]`).
  @inline(__always)
  private func skipDigits(from start: Int) -> Int {
    var index = start
    unsafe _skipDigits(base.start, &index, end)
    return index
  }

  // MARK: - Strings

  /// Scans the string whose opening quote is at `position` and appends its entry; `position`
  /// ends after the closing quote.
  ///
  /// Inlined where strings are scanned, for the common string of plain ASCII (no escape, no
  /// control character, no non-ASCII byte); the others continue in
  /// ``scanRestOfString(from:start:)``, so its registers do not weigh on the plain scan.
  @inline(__always)
  private mutating func scanString() throws(FormatError) {
    let start = position &+ 1
    let index = skipPlainStringBytes(from: start)
    guard unsafe _fastPath(index < end && base[index] == _quote) else {
      return try scanRestOfString(from: index, start: start)
    }
    position = index &+ 1
    try appendText(kind: .string, flag: false, length: index &- start, offset: start)
  }

  /// ``scanString()`` from `index`, the first byte after `start` (the string's first) that is
  /// not plain ASCII.
  @inline(never)
  private mutating func scanRestOfString(from index: Int, start: Int) throws(FormatError) {
    var index = index
    var escaped = false
    while true {
      guard index < end else {
        throw syntaxError("unexpected end of input inside a string", at: end)
      }
      let byte = unsafe base[index]
      if byte == _quote {
        break
      } else if byte == _backslash {
        escaped = true
        index = try scanEscape(at: index)
      } else if byte >= 0x80 {
        index = try skipNonASCII(from: index)
      } else {
        throw syntaxError(
          "unescaped control character \(_unicodeName(UInt32(byte))) in a string", at: index)
      }
      index = skipPlainStringBytes(from: index)
    }
    position = index + 1
    try appendText(kind: .string, flag: escaped, length: index - start, offset: start)
  }

  /// Validates the run of UTF-8 sequences that starts at `start` (a byte from 0x80) and returns
  /// the index of the ASCII byte after it, or `end`.
  ///
  /// Non-ASCII text tends to come in runs, validated here a word at a time where the text is
  /// regular. The common sequences are told apart from one 64-bit load: two three-byte
  /// sequences whose leads are neither E0 nor ED (most CJK text, 6 bytes a step), one such
  /// sequence, or two bytes with a lead from C2 (most other alphabets); those leads need no
  /// range check on their second byte. Anything else, and the last bytes of the input, are
  /// checked one sequence at a time (``_utf8SequenceLength(_:at:end:)``).
  ///
  /// - Throws: ``FormatError/Kind/invalidUTF8(location:)`` at the first ill-formed sequence.
  @inline(__always)
  private func skipNonASCII(from start: Int) throws(FormatError) -> Int {
    var index = start
    // The last index a word can be loaded from.
    let lastWord = end &- 8
    while true {
      if index <= lastWord {
        let word = UInt64(littleEndian: word(at: index))
        if word & 0xC0C0_F0C0_C0F0 == 0x8080_E080_80E0,
          _isPlainThreeByteLead(UInt8(truncatingIfNeeded: word)),
          _isPlainThreeByteLead(UInt8(truncatingIfNeeded: word &>> 24))
        {
          index &+= 6
          continue
        }
        let lead = UInt8(truncatingIfNeeded: word)
        if lead < 0x80 { return index }
        if word & 0xC0_C0F0 == 0x80_80E0, _isPlainThreeByteLead(lead) {
          index &+= 3
          continue
        }
        if word & 0xC0E0 == 0x80C0, lead >= 0xC2 {
          index &+= 2
          continue
        }
      } else if unsafe index >= end || base[index] < 0x80 {
        return index
      }
      guard let length = unsafe _utf8SequenceLength(base, at: index, end: end) else {
        throw FormatError(.invalidUTF8(location: location(of: index)))
      }
      index &+= length
    }
  }

  /// The index of the first byte at or after `start` that is a quote, a backslash, a control
  /// character or non-ASCII, or `end`.
  @inline(__always)
  private func skipPlainStringBytes(from start: Int) -> Int {
    var index = start
    // Eight bytes at a time; on little-endian machines the lowest flagged byte of the mask is
    // the first special byte.
    #if _endian(little)
      // Sixteen bytes a step while two words fit: one test for both masks (twitter.json
      // -0.5% instructions, citm_catalog.json's short keys +0.1%).
      let lastPair = end &- 16
      while index <= lastPair {
        let first = _specialStringBytes(word(at: index))
        let second = _specialStringBytes(word(at: index &+ 8))
        if first | second != 0 {
          return first != 0
            ? index &+ first.trailingZeroBitCount &>> 3
            : index &+ 8 &+ second.trailingZeroBitCount &>> 3
        }
        index &+= 16
      }
    #endif
    let lastWord = end &- 8
    while index <= lastWord {
      let mask = _specialStringBytes(word(at: index))
      if mask != 0 {
        #if _endian(little)
          return index &+ mask.trailingZeroBitCount &>> 3
        #else
          break
        #endif
      }
      index &+= 8
    }
    while index < end {
      let byte = unsafe base[index]
      if byte == _quote || byte == _backslash || byte < 0x20 || byte >= 0x80 { return index }
      index &+= 1
    }
    return index
  }

  /// Validates the escape whose backslash is at `index`; returns the index after it (after both
  /// escapes of a surrogate pair).
  private func scanEscape(at index: Int) throws(FormatError) -> Int {
    guard index + 1 < end else {
      throw syntaxError("unexpected end of input inside a string", at: end)
    }
    switch unsafe base[index + 1] {
    case _quote, _backslash, _slash, UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
      UInt8(ascii: "r"), UInt8(ascii: "t"):
      return index + 2
    case UInt8(ascii: "u"):
      let unit = try hexQuad(at: index + 2)
      if unit & 0xFC00 == 0xD800 {
        if unsafe index + 12 <= end && base[index + 6] == _backslash
          && base[index + 7] == UInt8(ascii: "u"),
          let low = unsafe _hexValue(base, at: index + 8), low & 0xFC00 == 0xDC00
        {
          return index + 12
        }
        try loneSurrogate(at: index)
      } else if unit & 0xFC00 == 0xDC00 {
        try loneSurrogate(at: index)
      }
      return index + 6
    default:
      let escaped = unsafe base[index + 1]
      if escaped > 0x20 && escaped < 0x7F {
        let text = unsafe String(
          decoding: UnsafeBufferPointer(start: base + index, count: 2), as: UTF8.self)
        throw syntaxError("invalid escape '\(text)' in a string", at: index)
      }
      throw syntaxError(
        "invalid escape in a string: '\\' followed by \(found(at: index + 1))", at: index)
    }
  }

  /// The value of the four hex digits at `start`.
  private func hexQuad(at start: Int) throws(FormatError) -> UInt32 {
    for index in start..<start + 4 {
      guard index < end else {
        throw syntaxError("unexpected end of input inside a string", at: end)
      }
      guard unsafe _hexDigit(base[index]) != nil else {
        throw syntaxError(
          "expected 4 hex digits after '\\u', found \(found(at: index))", at: index)
      }
    }
    return unsafe _hexValue(base, at: start) ?? 0
  }

  private func loneSurrogate(at index: Int) throws(FormatError) {
    guard options.loneSurrogates == .reject else { return }
    let text = unsafe String(
      decoding: UnsafeBufferPointer(start: base + index, count: 6), as: UTF8.self)
    throw syntaxError("lone surrogate '\(text)' in a string", at: index)
  }

  // MARK: - Errors

  private func syntaxError(_ message: String, at offset: Int) -> FormatError {
    FormatError(.syntax(message: message, location: location(of: offset)))
  }

  private func location(of offset: Int) -> TextLocation {
    unsafe _JSONScanner.location(of: offset, in: input)
  }

  /// The line and column of `offset` in `input`: `\n`, `\r\n` and `\r` each end a line, columns
  /// count Unicode scalars from 1, and a leading byte order mark is not counted.
  package static func location(of offset: Int, in input: UnsafeBufferPointer<UInt8>) -> TextLocation
  {
    var line = 1
    var column = 1
    var index = 0
    let limit = min(offset, input.count)
    if unsafe limit >= 3 && input[0] == 0xEF && input[1] == 0xBB && input[2] == 0xBF { index = 3 }
    while index < limit {
      let byte = unsafe input[index]
      if byte == _newline {
        line += 1
        column = 1
      } else if byte == _return {
        if unsafe index + 1 < limit && input[index + 1] == _newline { index += 1 }
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
      index += 1
    }
    return TextLocation(offset: offset, line: line, column: column)
  }

  /// What is at `offset`, for an error message: `'x'`, `U+0001`, `'é'`, `byte 0xFF` or
  /// `end of input`.
  private func found(at offset: Int) -> String {
    guard offset < end else { return "end of input" }
    let byte = unsafe base[offset]
    if byte == UInt8(ascii: "'") { return "\"'\"" }
    if byte > 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    if byte < 0x80 { return _unicodeName(UInt32(byte)) }
    guard let length = unsafe _utf8SequenceLength(base, at: offset, end: end),
      let scalar = unsafe String(
        decoding: UnsafeBufferPointer(start: base + offset, count: length), as: UTF8.self
      ).unicodeScalars.first
    else {
      return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }
    switch scalar.properties.generalCategory {
    case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .privateUse,
      .unassigned, .surrogate, .nonspacingMark, .enclosingMark, .spacingMark:
      return _unicodeName(scalar.value)
    default:
      return "'\(scalar)'"
    }
  }
}

extension _Tape {
  /// Scans a JSON text into a tape whose ``bytes`` are the input itself.
  ///
  /// - Throws: `FormatError` with path `""` for invalid JSON (see ``_JSONScanner``).
  package init(json bytes: [UInt8], options: JSONReadingOptions = .strict) throws(FormatError) {
    let index = unsafe try bytes.withUnsafeBufferPointer { buffer throws(FormatError) in
      unsafe try _JSONScanner.scan(buffer, options: options)
    }
    self.init(entries: index.entries, bytes: bytes, longLengths: index.longLengths)
  }
}

// MARK: - Byte helpers

private let _tab = UInt8(ascii: "\t")
private let _newline = UInt8(ascii: "\n")
private let _return = UInt8(ascii: "\r")
private let _space = UInt8(ascii: " ")
private let _quote = UInt8(ascii: "\"")
private let _plus = UInt8(ascii: "+")
private let _comma = UInt8(ascii: ",")
private let _minus = UInt8(ascii: "-")
private let _period = UInt8(ascii: ".")
private let _slash = UInt8(ascii: "/")
private let _star = UInt8(ascii: "*")
private let _zero = UInt8(ascii: "0")
private let _nine = UInt8(ascii: "9")
private let _colon = UInt8(ascii: ":")
/// `": "` as the little-endian 16-bit integer ``_JSONScanner/pair(at:)`` loads.
private let _colonSpace: UInt16 = 0x203A
private let _openBracket = UInt8(ascii: "[")
private let _backslash = UInt8(ascii: "\\")
private let _closeBracket = UInt8(ascii: "]")
private let _openBrace = UInt8(ascii: "{")
private let _closeBrace = UInt8(ascii: "}")

/// The high bit of each byte of `word` that is a quote, a backslash, a control character or
/// part of a multi-byte UTF-8 sequence; zero when there is none.
///
/// A byte is flagged when subtracting borrows into its high bit. A borrow can only start at a
/// truly flagged byte, so the lowest flagged byte (in memory order on little-endian machines)
/// is always exact; bytes with the high bit set are flagged through `word` itself.
@inline(__always)
private func _specialStringBytes(_ word: UInt64) -> UInt64 {
  let ones: UInt64 = 0x0101_0101_0101_0101
  let highBits: UInt64 = 0x8080_8080_8080_8080
  let quotes = word ^ (ones &* 0x22)
  let backslashes = word ^ (ones &* 0x5C)
  let hasQuote = (quotes &- ones) & ~quotes
  let hasBackslash = (backslashes &- ones) & ~backslashes
  let hasControl = (word &- ones &* 0x20) & ~word
  return (hasQuote | hasBackslash | hasControl | word) & highBits
}

/// Whether `lead`, the lead byte of a three-byte UTF-8 sequence (E0–EF), allows any
/// continuation byte second: all but E0 (whose second byte must be A0 or more, or the form is
/// overlong) and ED (whose second byte must be below A0, or it encodes a surrogate).
@inline(__always)
private func _isPlainThreeByteLead(_ lead: UInt8) -> Bool {
  lead != 0xE0 && lead != 0xED
}

/// The length of the well-formed UTF-8 sequence whose lead byte (at least 0x80) is at `index`,
/// or `nil` for an ill-formed one: a stray continuation byte, an overlong form, an encoded
/// surrogate, a scalar above U+10FFFF or a truncated sequence.
@inline(__always)
private func _utf8SequenceLength(_ base: _CheckedBytes, at index: Int, end: Int) -> Int? {
  @inline(__always) func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }
  let lead = unsafe base[index]
  if lead < 0xC2 { return nil }
  if lead < 0xE0 {
    guard index + 1 < end, unsafe isContinuation(base[index + 1]) else { return nil }
    return 2
  }
  if lead < 0xF0 {
    guard index + 2 < end else { return nil }
    let second = unsafe base[index + 1]
    let lower: UInt8 = lead == 0xE0 ? 0xA0 : 0x80
    let upper: UInt8 = lead == 0xED ? 0x9F : 0xBF
    guard second >= lower && second <= upper, unsafe isContinuation(base[index + 2]) else {
      return nil
    }
    return 3
  }
  if lead < 0xF5 {
    guard index + 3 < end else { return nil }
    let second = unsafe base[index + 1]
    let lower: UInt8 = lead == 0xF0 ? 0x90 : 0x80
    let upper: UInt8 = lead == 0xF4 ? 0x8F : 0xBF
    guard second >= lower && second <= upper, unsafe isContinuation(base[index + 2]),
      unsafe isContinuation(base[index + 3])
    else { return nil }
    return 4
  }
  return nil
}

@inline(__always)
private func _hexDigit(_ byte: UInt8) -> UInt32? {
  switch byte {
  case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte &- UInt8(ascii: "0"))
  case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte &- UInt8(ascii: "a") &+ 10)
  case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte &- UInt8(ascii: "A") &+ 10)
  default: return nil
  }
}

/// The value of four hex digits at `index` (which the caller made sure are in bounds), or `nil`
/// when one is not a hex digit.
@inline(__always)
private func _hexValue(_ base: _CheckedBytes, at index: Int) -> UInt32? {
  var value: UInt32 = 0
  for offset in 0..<4 {
    guard let digit = unsafe _hexDigit(base[index + offset]) else { return nil }
    value = value << 4 | digit
  }
  return value
}

/// `U+0001`, `U+FEFF`, `U+1F600`.
private func _unicodeName(_ value: UInt32) -> String {
  let digits = String(value, radix: 16, uppercase: true)
  return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
