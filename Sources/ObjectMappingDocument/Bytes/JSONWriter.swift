import struct Foundation.Data

/// A streaming JSON writer that appends UTF-8 straight into a byte buffer.
///
/// The writer knows nothing of ``Node`` or of mappings: callers drive it with events
/// (`beginObject()`, `key(_:)`, a value, …, `endObject()`) and it takes care of separators,
/// indentation and escaping. It is the one place JSON text is produced, used both by
/// ``Node/jsonBytes(options:)`` and by the serialization layer, which writes objects without
/// building a `Node` first.
///
/// ```swift
/// var writer = _JSONWriter(pretty: false)
/// writer.beginObject()
/// writer.key("id")
/// writer.int64(7)
/// writer.key("tags")
/// writer.beginArray()
/// writer.string("a/b")
/// writer.endArray()
/// writer.endObject()
/// writer.bytes  // {"id":7,"tags":["a/b"]}
/// ```
///
/// Output rules:
/// - **Compact** (the default): no whitespace at all.
/// - **Pretty**: every array element and object member on its own line, indented by two spaces
///   per level, `"key": value` (one space after the colon, none before), empty containers as
///   `[]` and `{}`, no trailing newline. This is `JSONSerialization`'s `.prettyPrinted` layout
///   with two-space indentation and without the space before the colon.
/// - **Escaping** is minimal: only `"`, `\` and control characters below U+0020 are escaped
///   (`\n \r \t \b \f` in their short forms, the others as `\u00XX` with lowercase hex).
///   `/` is not escaped (unless ``escapesSlashes`` is set) and non-ASCII text is written as raw
///   UTF-8. ``encoderLayout`` gives pretty output `JSONEncoder`'s spacing instead.
/// - **Numbers**: integers in decimal; doubles in the shortest form that reads back to the same
///   value (Swift's own `description`, e.g. `0.1`, `1e-05`, `-0.0`, `1e+20`); non-finite doubles
///   are an error; ``numberText(_:)`` writes literal number text (exact decimals) unchanged.
///
/// Invariant (what makes the pointer copies safe): ``storage`` always holds at least ``count``
/// bytes, and every copy into it first makes the room past ``count`` this writer's (see
/// ``room(for:)``) and grows it to fit (`count + added <= storage.capacity`, asserted in debug
/// builds); sources are borrowed buffers read within their call.
///
/// The caller is responsible for producing a well-formed event sequence (one top-level value, a
/// key before every object member, balanced begin/end); debug builds assert it.
@safe package struct _JSONWriter {
  /// The output: the first ``count`` bytes are written, the rest is room to grow into.
  /// Appends copy into this room through a pointer (one uniqueness check, no `Array` append
  /// machinery per key or string); taking a checkpoint back only resets ``count``.
  private var storage: _ByteBuffer
  /// The number of bytes written.
  package private(set) var count = 0
  /// Whether output is pretty-printed (see the type's documentation for the layout).
  package let isPretty: Bool
  /// Whether `/` is written `\/`, as `JSONEncoder` writes it unless told
  /// `.withoutEscapingSlashes` (the `Codable` encoder sets it; the library's own output leaves
  /// `/` alone).
  package var escapesSlashes = false
  /// Whether pretty output takes `JSONEncoder`'s layout: `"key" : value` (a space on both
  /// sides of the colon) and an empty container as its brackets around an empty line.
  package var encoderLayout = false
  /// The number of open containers.
  package private(set) var depth = 0
  /// Whether the innermost open container (or the top level) already holds a value, so the
  /// next one needs a comma.
  private var hasValueInContainer = false
  /// Whether a key was just written, so the next value follows it directly.
  private var afterKey = false
  #if DEBUG
    /// Open containers, `true` for objects, to check the event sequence in debug builds.
    private var openObjects: [Bool] = []
  #endif

  /// Creates a writer with an empty buffer.
  ///
  /// - Parameters:
  ///   - pretty: Whether to pretty-print (two-space indentation, `"key": value`).
  ///   - capacity: The number of bytes to reserve up front.
  package init(pretty: Bool = false, capacity: Int = 1024) {
    self.isPretty = pretty
    // Memory is only reserved: pages are touched as the output reaches them.
    unsafe storage = unsafe _ByteBuffer(capacity: capacity)
  }

  /// The UTF-8 bytes written so far (a copy).
  package var bytes: [UInt8] { unsafe withBytes { unsafe Array($0) } }

  /// The bytes written so far as text (a copy).
  package var text: String { unsafe withBytes { unsafe String(decoding: $0, as: UTF8.self) } }

  /// The bytes written so far as `Data` (a copy).
  package var data: Data { unsafe withBytes { unsafe Data($0) } }

  /// Calls `body` with the bytes written so far, in place.
  package func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
    -> Result
  {
    unsafe try withExtendedLifetime(storage) {
      unsafe try body(UnsafeBufferPointer(start: storage.base, count: count))
    }
  }

  /// The bytes written (a copy); the writer is empty afterwards.
  package mutating func takeBytes() -> [UInt8] {
    let taken = bytes
    count = 0
    claimEnd()
    return taken
  }

  /// The bytes written as `Data`, taking the writer's block when it is not shared (no copy
  /// for large outputs); the writer is empty afterwards.
  package mutating func takeData() -> Data {
    let taken: Data
    if unsafe isKnownUniquelyReferenced(&storage) {
      taken = unsafe storage.takeData(count: count)
    } else {
      taken = unsafe withBytes { unsafe Data($0) }
    }
    count = 0
    claimEnd()
    return taken
  }

  // MARK: Storage

  /// Where the next `added` bytes go: the end of the output, in storage this writer may write
  /// past its ``count`` (it is the storage's ``_ByteBuffer/end`` holder) with room for them.
  /// Call ``advance(by:)`` with the number of bytes written there.
  ///
  /// Ownership of the room past the output is tracked by the storage's `end` rather than by a
  /// uniqueness check per write (a runtime call): copies of a writer share storage, and only
  /// the one whose `count` equals `end` may write in place (it moves `end` along); any other
  /// copies the bytes first. Every writer sharing a storage has `count <= end`, so writing at
  /// `end` and past it never changes bytes another writer holds.
  @inline(__always)
  private mutating func room(for added: Int) -> UnsafeMutablePointer<UInt8> {
    if unsafe storage.end != count || storage.capacity &- count < added { makeRoom(for: added) }
    unsafe assert(count + added <= storage.capacity, "the writer's room holds the bytes")
    return unsafe storage.base + count
  }

  /// Counts `written` bytes put in the ``room(for:)`` just asked for.
  @inline(__always)
  private mutating func advance(by written: Int) {
    count &+= written
    unsafe storage.end = count
  }

  /// After ``count`` went down (rollback, taking the bytes): claims the room past it when this
  /// writer alone holds the storage; a shared storage is copied at the next write instead.
  private mutating func claimEnd() {
    if unsafe isKnownUniquelyReferenced(&storage) { unsafe storage.end = count }
  }

  /// Appends one byte.
  @inline(__always)
  private mutating func append(_ byte: UInt8) {
    unsafe room(for: 1).pointee = byte
    advance(by: 1)
  }

  /// Appends `source`'s bytes.
  @inline(__always)
  private mutating func append(contentsOf source: UnsafeBufferPointer<UInt8>) {
    guard let from = source.baseAddress else { return }
    let added = source.count
    unsafe _JSONWriter.copy(from, count: added, to: room(for: added))
    advance(by: added)
  }

  /// Copies `count` bytes; 4 to 32 bytes (keys, short strings) as two overlapping words (or
  /// 16-byte vectors) each way rather than a call to `memcpy`.
  @inline(__always)
  private static func copy(
    _ source: UnsafePointer<UInt8>, count: Int, to destination: UnsafeMutablePointer<UInt8>
  ) {
    let from = unsafe UnsafeRawPointer(source)
    let to = UnsafeMutableRawPointer(destination)
    if count > 16 && count <= 32 {
      let head = unsafe from.loadUnaligned(as: SIMD16<UInt8>.self)
      let tail = unsafe from.loadUnaligned(fromByteOffset: count &- 16, as: SIMD16<UInt8>.self)
      unsafe to.storeBytes(of: head, as: SIMD16<UInt8>.self)
      unsafe to.storeBytes(of: tail, toByteOffset: count &- 16, as: SIMD16<UInt8>.self)
    } else if count >= 8 && count <= 16 {
      let head = unsafe from.loadUnaligned(as: UInt64.self)
      let tail = unsafe from.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
      unsafe to.storeBytes(of: head, as: UInt64.self)
      unsafe to.storeBytes(of: tail, toByteOffset: count &- 8, as: UInt64.self)
    } else if count >= 4 && count < 8 {
      let head = unsafe from.loadUnaligned(as: UInt32.self)
      let tail = unsafe from.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
      unsafe to.storeBytes(of: head, as: UInt32.self)
      unsafe to.storeBytes(of: tail, toByteOffset: count &- 4, as: UInt32.self)
    } else {
      unsafe destination.update(from: source, count: count)
    }
  }

  /// Makes the storage this writer's to write past ``count`` (a copied writer copies its
  /// bytes before its first write) and large enough for `added` more bytes.
  @inline(never)
  private mutating func makeRoom(for added: Int) {
    if unsafe storage.end != count {
      unsafe storage = unsafe storage.copy(count: count)
    }
    if unsafe storage.capacity &- count < added {
      unsafe storage.grow(toAtLeast: count + added, keeping: count)
    }
  }

  // MARK: Containers

  /// Opens an object (`{`); write members as `key(_:)` followed by one value each.
  package mutating func beginObject() {
    beginValue()
    append(UInt8(ascii: "{"))
    openContainer(isObject: true)
  }

  /// Closes the innermost object (`}`).
  package mutating func endObject() {
    closeContainer(isObject: true)
    append(UInt8(ascii: "}"))
  }

  /// Opens an array (`[`).
  package mutating func beginArray() {
    beginValue()
    append(UInt8(ascii: "["))
    openContainer(isObject: false)
  }

  /// Closes the innermost array (`]`).
  package mutating func endArray() {
    closeContainer(isObject: false)
    append(UInt8(ascii: "]"))
  }

  // MARK: Keys

  /// Writes an object member's key (escaped as needed) and the colon.
  package mutating func key(_ key: String) {
    beginKey()
    appendQuoted(key)
    endKey()
  }

  /// ``key(_:)``, returning a 64-bit hash of the key's UTF-8 bytes: equal keys have equal
  /// hashes, and distinct keys almost never do (how the Codable encoder finds a key written twice
  /// into one object without keeping the keys).
  package mutating func hashedKey(_ key: String) -> UInt64 {
    beginKey()
    append(UInt8(ascii: "\""))
    var hash = unsafe key.utf8.withContiguousStorageIfAvailable { bytes in
      unsafe appendEscaped(bytes)
      return unsafe Self.hash(bytes)
    }
    if hash == nil {
      var copy = key
      copy.makeContiguousUTF8()
      hash = unsafe copy.utf8.withContiguousStorageIfAvailable { bytes in
        unsafe appendEscaped(bytes)
        return unsafe Self.hash(bytes)
      }
    }
    append(UInt8(ascii: "\""))
    endKey()
    return hash ?? 0
  }

  /// A 64-bit hash of `bytes`, 8 bytes at a time (multiply-xorshift mixing).
  private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(bytes.count)
    var index = 0
    let count = bytes.count
    if let base = bytes.baseAddress {
      let raw = unsafe UnsafeRawPointer(base)
      while index + 8 <= count {
        hash =
          unsafe (hash ^ raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* multiplier
        hash ^= hash >> 29
        index += 8
      }
    }
    var tail: UInt64 = 0
    while index < count {
      tail = unsafe tail << 8 | UInt64(bytes[index])
      index += 1
    }
    hash = (hash ^ tail) &* multiplier
    return hash ^ (hash >> 32)
  }

  /// Writes an object member's key given as raw (unescaped) UTF-8 bytes, and the colon.
  package mutating func key(utf8: UnsafeBufferPointer<UInt8>) {
    beginKey()
    append(UInt8(ascii: "\""))
    unsafe appendEscaped(utf8)
    append(UInt8(ascii: "\""))
    endKey()
  }

  /// Writes an object member's key whose bytes are already escaped (as produced once by
  /// ``escapedUTF8(_:)``, for keys written many times), and the colon. The bytes are copied
  /// without being scanned.
  package mutating func key(escapedUTF8: UnsafeBufferPointer<UInt8>) {
    beginKey()
    append(UInt8(ascii: "\""))
    unsafe append(contentsOf: escapedUTF8)
    append(UInt8(ascii: "\""))
    endKey()
  }

  /// ``key(escapedUTF8:)`` for bytes held in an array.
  package mutating func key(escapedUTF8 bytes: [UInt8]) {
    unsafe bytes.withUnsafeBufferPointer { unsafe key(escapedUTF8: $0) }
  }

  /// ``key(framed:)`` for bytes held in an array.
  package mutating func key(framed bytes: [UInt8]) {
    unsafe bytes.withUnsafeBufferPointer { unsafe key(framed: $0) }
  }

  /// Writes a key already framed as `"key":` (quoted, escaped, with the colon), as
  /// `OutputKey` (mapping layer) prepares once per plan; compact output only.
  package mutating func key(framed: UnsafeBufferPointer<UInt8>) {
    assert(!isPretty, "framed keys carry the compact colon")
    #if DEBUG
      assert(openObjects.last == true && !afterKey, "keys are only written inside objects")
    #endif
    guard let from = framed.baseAddress else {
      beginKey()
      afterKey = true
      return
    }
    // The comma and the key in one room: the comma is written always and counted only when
    // the object already has a member.
    let comma = hasValueInContainer ? 1 : 0
    let destination = unsafe room(for: framed.count &+ 1)
    unsafe destination.pointee = UInt8(ascii: ",")
    unsafe _JSONWriter.copy(from, count: framed.count, to: destination + comma)
    advance(by: framed.count &+ comma)
    hasValueInContainer = true
    afterKey = true
  }

  /// The escaped UTF-8 content (without quotes) of `text`, for ``key(escapedUTF8:)``.
  package static func escapedUTF8(_ text: String) -> [UInt8] {
    var writer = _JSONWriter(capacity: text.utf8.count + 8)
    writer.appendQuoted(text)
    return unsafe writer.withBytes { unsafe Array($0.dropFirst().dropLast()) }
  }

  // MARK: Scalars

  /// Writes a string value, escaped as needed.
  package mutating func string(_ value: String) {
    beginValue()
    appendQuoted(value)
  }

  /// Writes a string value given as raw (unescaped) UTF-8 bytes.
  package mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
    beginValue()
    append(UInt8(ascii: "\""))
    unsafe appendEscaped(utf8)
    append(UInt8(ascii: "\""))
  }

  /// Writes a signed integer in decimal.
  package mutating func int64(_ value: Int64) {
    beginValue()
    if value < 0 {
      append(UInt8(ascii: "-"))
      appendDecimal(value.magnitude)
    } else {
      appendDecimal(UInt64(value))
    }
  }

  /// Writes an unsigned integer in decimal.
  package mutating func uint64(_ value: UInt64) {
    beginValue()
    appendDecimal(value)
  }

  /// Writes a double in the shortest form that reads back to the same value (the text of its
  /// `description`, written by ``_ShortestDecimal``).
  ///
  /// - Throws: ``FormatError`` `.nonFiniteNumber` (with an empty path) for NaN and infinities,
  ///   which JSON cannot represent. Nothing is written in that case.
  package mutating func double(_ value: Double) throws(FormatError) {
    guard value.isFinite else {
      throw FormatError(.nonFiniteNumber(value: value.description))
    }
    beginValue()
    appendShortest(value)
  }

  /// ``double(_:)``, with the choice of `description`'s `.0` after a whole number in digits.
  ///
  /// - Parameters:
  ///   - pointZero: Whether a whole number in digits ends in `.0` (`100.0`, `-0.0`), as
  ///     ``double(_:)`` writes it; without it the text is `JSONEncoder`'s (`100`, `-0`, and
  ///     otherwise the same: `1e+16`, `9.5e+15`).
  /// - Throws: ``FormatError`` `.nonFiniteNumber` for NaN and infinities; nothing is written.
  package mutating func double(_ value: Double, pointZero: Bool) throws(FormatError) {
    guard value.isFinite else {
      throw FormatError(.nonFiniteNumber(value: value.description))
    }
    beginValue()
    advance(by: unsafe _ShortestDecimal.write(value, to: roomForNumber(), pointZero: pointZero))
  }

  /// Writes a float in the shortest form that reads back to the same `Float` (`0.1`, not the
  /// `0.10000000149011612` of its `Double` expansion): the text of `Float.description`.
  ///
  /// - Parameters:
  ///   - pointZero: Whether a whole number in digits ends in `.0` (`100.0`); without it the
  ///     text is `JSONEncoder`'s (`100`).
  /// - Throws: ``FormatError`` `.nonFiniteNumber` (with an empty path) for NaN and infinities,
  ///   which JSON cannot represent. Nothing is written in that case.
  package mutating func float(_ value: Float, pointZero: Bool = true) throws(FormatError) {
    guard value.isFinite else {
      throw FormatError(.nonFiniteNumber(value: value.description))
    }
    beginValue()
    advance(by: unsafe _ShortestDecimal.write(value, to: roomForNumber(), pointZero: pointZero))
  }

  /// Writes number text as is: the caller guarantees it is a valid JSON number (the exact
  /// literal text of a ``Node/decimal(_:)-enum.case``, which `Node._writeJSON` checks with
  /// `_isJSONNumber` first; only descriptions write other text, such as `nan`).
  package mutating func numberText(_ text: String) {
    beginValue()
    appendRaw(text)
  }

  /// Writes the text of a ``Node/DecimalText`` as is: the caller guarantees it is a valid JSON
  /// number, as for ``numberText(_:)-(String)``. A packed text is written straight from its
  /// digits, with no `String` in between.
  package mutating func numberText(_ number: Node.DecimalText) {
    switch number.storage {
    case .packed(let significand, let layout):
      beginValue()
      let written = unsafe Node.DecimalText.write(
        significand: significand, layout: layout,
        to: room(for: Node.DecimalText.maximumPackedLength))
      advance(by: written)
    case .text(let text):
      numberText(text)
    case .float(let value):
      numberText(value.description)
    }
  }

  /// Writes number text given as UTF-8 bytes, as is (see ``numberText(_:)``).
  package mutating func numberText(utf8: UnsafeBufferPointer<UInt8>) {
    beginValue()
    unsafe append(contentsOf: utf8)
  }

  /// Writes `true` or `false`.
  package mutating func bool(_ value: Bool) {
    beginValue()
    appendLiteral(value ? "true" : "false")
  }

  /// Writes `null`.
  package mutating func null() {
    beginValue()
    appendLiteral("null")
  }

  // MARK: Checkpoints

  /// The writer's state at one moment, to undo what was written after it.
  package struct Checkpoint {
    fileprivate let count: Int
    fileprivate let depth: Int
    fileprivate let hasValueInContainer: Bool
    fileprivate let afterKey: Bool
    #if DEBUG
      fileprivate let openObjects: [Bool]
    #endif
  }

  /// The current state, for ``rollback(to:)``.
  package func checkpoint() -> Checkpoint {
    #if DEBUG
      Checkpoint(
        count: count, depth: depth, hasValueInContainer: hasValueInContainer,
        afterKey: afterKey, openObjects: openObjects)
    #else
      Checkpoint(
        count: count, depth: depth, hasValueInContainer: hasValueInContainer,
        afterKey: afterKey)
    #endif
  }

  /// Forgets everything written since `checkpoint`, including containers opened after it.
  package mutating func rollback(to checkpoint: Checkpoint) {
    count = checkpoint.count
    depth = checkpoint.depth
    hasValueInContainer = checkpoint.hasValueInContainer
    afterKey = checkpoint.afterKey
    #if DEBUG
      openObjects = checkpoint.openObjects
    #endif
    claimEnd()
  }

  // MARK: Layout

  /// Writes what goes before any value: nothing after a key; otherwise a comma when the
  /// container already has a value, then (pretty) a newline and the indentation.
  @inline(__always)
  private mutating func beginValue() {
    if afterKey {
      afterKey = false
      return
    }
    if depth == 0 {
      assert(!hasValueInContainer, "a JSON document has exactly one top-level value")
      hasValueInContainer = true
      return
    }
    #if DEBUG
      assert(openObjects.last == false, "object members need a key before their value")
    #endif
    separate()
  }

  @inline(__always)
  private mutating func beginKey() {
    #if DEBUG
      assert(openObjects.last == true && !afterKey, "keys are only written inside objects")
    #endif
    separate()
  }

  @inline(__always)
  private mutating func endKey() {
    if isPretty {
      if encoderLayout { append(UInt8(ascii: " ")) }
      append(UInt8(ascii: ":"))
      append(UInt8(ascii: " "))
    } else {
      append(UInt8(ascii: ":"))
    }
    afterKey = true
  }

  @inline(__always)
  private mutating func separate() {
    if hasValueInContainer { append(UInt8(ascii: ",")) }
    hasValueInContainer = true
    if isPretty { appendNewlineAndIndent() }
  }

  @inline(__always)
  private mutating func openContainer(isObject: Bool) {
    depth += 1
    hasValueInContainer = false
    #if DEBUG
      openObjects.append(isObject)
    #endif
  }

  @inline(__always)
  private mutating func closeContainer(isObject: Bool) {
    #if DEBUG
      assert(openObjects.popLast() == isObject && !afterKey, "unbalanced JSON containers")
    #endif
    depth -= 1
    if isPretty && encoderLayout && !hasValueInContainer {
      append(UInt8(ascii: "\n"))
      appendNewlineAndIndent()
    } else if isPretty && hasValueInContainer {
      appendNewlineAndIndent()
    }
    hasValueInContainer = true
  }

  private mutating func appendNewlineAndIndent() {
    append(UInt8(ascii: "\n"))
    var remaining = depth * 2
    while remaining > 0 {
      let chunk = min(remaining, _JSONWriter.spaces.count)
      unsafe _JSONWriter.spaces.withUnsafeBufferPointer {
        unsafe append(contentsOf: UnsafeBufferPointer(rebasing: $0[0..<chunk]))
      }
      remaining -= chunk
    }
  }

  // MARK: Text

  /// Appends `text` between quotes, escaped.
  private mutating func appendQuoted(_ text: String) {
    append(UInt8(ascii: "\""))
    let done: Void? = unsafe text.utf8.withContiguousStorageIfAvailable { unsafe appendEscaped($0) }
    if done == nil {
      var copy = text
      copy.makeContiguousUTF8()
      unsafe copy.utf8.withContiguousStorageIfAvailable { unsafe appendEscaped($0) }
    }
    append(UInt8(ascii: "\""))
  }

  /// Appends a literal's bytes (no array of them to retain per call).
  @inline(__always)
  private mutating func appendLiteral(_ literal: StaticString) {
    unsafe append(
      contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
  }

  /// Appends `text`'s UTF-8 bytes unchanged.
  private mutating func appendRaw(_ text: String) {
    let done: Void? = unsafe text.utf8.withContiguousStorageIfAvailable {
      unsafe append(contentsOf: $0)
    }
    if done == nil {
      var copy = text
      copy.makeContiguousUTF8()
      unsafe copy.utf8.withContiguousStorageIfAvailable { unsafe append(contentsOf: $0) }
    }
  }

  /// Appends `utf8` with the characters JSON requires escaped; clean runs are copied whole.
  private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
    guard let base = utf8.baseAddress else { return }
    let raw = unsafe UnsafeRawPointer(base)
    var runStart = 0
    var index = 0
    let count = utf8.count
    while index < count {
      // Skip 8 bytes at a time while none needs escaping (no control character, `"` or `\`,
      // nor `/` when slashes are escaped). The word tests are exact yes/no answers (bit tricks
      // from "Bit Twiddling Hacks"): a word that answers yes is gone through byte by byte, up
      // to the byte to escape, and the word loop resumes after it.
      while index + 8 <= count {
        let word = unsafe raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        if _needsEscaping(word) || (escapesSlashes && _hasSlash(word)) { break }
        index += 8
      }
      // Fewer than 8 bytes left: test the last 8 bytes as one word (it overlaps bytes already
      // found clean) instead of going through the tail byte by byte.
      if index < count && count >= 8 && count &- index < 8 {
        let word = unsafe raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        if !(_needsEscaping(word) || (escapesSlashes && _hasSlash(word))) {
          index = count
          break
        }
      }
      while index < count {
        let byte = unsafe utf8[index]
        if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
          && (byte != UInt8(ascii: "/") || !escapesSlashes)
        {
          index += 1
          continue
        }
        if runStart < index {
          unsafe append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
        }
        appendEscape(for: byte)
        index += 1
        runStart = index
        break
      }
    }
    if runStart < count {
      unsafe append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<count]))
    }
  }

  /// Whether any byte of `word` is below 0x20, `"` or `\\`.
  @inline(__always)
  private func _needsEscaping(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let control = (word &- ones &* 0x20) & ~word & highs
    let quote = word ^ (ones &* 0x22)
    let backslash = word ^ (ones &* 0x5C)
    let quoteZero = (quote &- ones) & ~quote & highs
    let backslashZero = (backslash &- ones) & ~backslash & highs
    return (control | quoteZero | backslashZero) != 0
  }

  /// Whether any byte of `word` is `/`.
  @inline(__always)
  private func _hasSlash(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let slash = word ^ (ones &* 0x2F)
    return (slash &- ones) & ~slash & (ones &* 0x80) != 0
  }

  private mutating func appendEscape(for byte: UInt8) {
    append(UInt8(ascii: "\\"))
    switch byte {
    case UInt8(ascii: "/"): append(UInt8(ascii: "/"))
    case UInt8(ascii: "\""): append(UInt8(ascii: "\""))
    case UInt8(ascii: "\\"): append(UInt8(ascii: "\\"))
    case 0x0A: append(UInt8(ascii: "n"))
    case 0x0D: append(UInt8(ascii: "r"))
    case 0x09: append(UInt8(ascii: "t"))
    case 0x08: append(UInt8(ascii: "b"))
    case 0x0C: append(UInt8(ascii: "f"))
    default:
      append(UInt8(ascii: "u"))
      append(UInt8(ascii: "0"))
      append(UInt8(ascii: "0"))
      append(_JSONWriter.hexDigits[Int(byte >> 4)])
      append(_JSONWriter.hexDigits[Int(byte & 0x0F)])
    }
  }

  // MARK: Numbers

  /// Appends the decimal digits of `value`.
  private mutating func appendDecimal(_ value: UInt64) {
    if value < 10 {
      append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
      return
    }
    unsafe withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var remaining = value
      var start = 20
      while remaining >= 100 {
        let pair = Int(remaining % 100) &* 2
        remaining /= 100
        start &-= 2
        unsafe digits[start] = _JSONWriter.digitPairs[pair]
        unsafe digits[start &+ 1] = _JSONWriter.digitPairs[pair &+ 1]
      }
      if remaining >= 10 {
        let pair = Int(remaining) &* 2
        start &-= 2
        unsafe digits[start] = _JSONWriter.digitPairs[pair]
        unsafe digits[start &+ 1] = _JSONWriter.digitPairs[pair &+ 1]
      } else {
        start &-= 1
        unsafe digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining)
      }
      unsafe append(contentsOf: UnsafeBufferPointer(rebasing: digits[start..<20]))
    }
  }

  /// Appends the shortest round-trip text of a finite double, written in place.
  @inline(__always)
  private mutating func appendShortest(_ value: Double) {
    advance(by: unsafe _ShortestDecimal.write(value, to: roomForNumber()))
  }

  /// Where a floating-point number's text goes: the end of the output, with room for
  /// ``_ShortestDecimal/maximumLength`` bytes, in storage this writer holds uniquely.
  @inline(__always)
  private mutating func roomForNumber() -> UnsafeMutablePointer<UInt8> {
    unsafe room(for: _ShortestDecimal.maximumLength)
  }

  // MARK: Constants

  private static let spaces: [UInt8] = Array(repeating: UInt8(ascii: " "), count: 64)
  private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
  /// `"00" "01" … "99"`, two bytes per number.
  private static let digitPairs: [UInt8] = {
    var table: [UInt8] = []
    table.reserveCapacity(200)
    for value in 0..<100 {
      table.append(UInt8(ascii: "0") + UInt8(value / 10))
      table.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
    return table
  }()
}

/// Appends the shortest round-trip text of a `Double` (the text of its `description`) to
/// `bytes`, without a `String` (see ``_ShortestDecimal``). The form encoder uses it, so every
/// format prints doubles alike.
package func _appendShortestText(of value: Double, to bytes: inout [UInt8]) {
  unsafe withUnsafeTemporaryAllocation(of: UInt8.self, capacity: _ShortestDecimal.maximumLength) {
    buffer in
    guard let base = buffer.baseAddress else { return }
    let count = unsafe _ShortestDecimal.write(value, to: base)
    unsafe bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
  }
}

/// Appends the shortest round-trip text of a `Float` (the text of its `description`: `0.1`, not
/// the `0.10000000149011612` of its `Double` expansion) to `bytes`, without a `String`.
package func _appendShortestText(of value: Float, to bytes: inout [UInt8]) {
  unsafe withUnsafeTemporaryAllocation(of: UInt8.self, capacity: _ShortestDecimal.maximumLength) {
    buffer in
    guard let base = buffer.baseAddress else { return }
    let count = unsafe _ShortestDecimal.write(value, to: base)
    unsafe bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
  }
}
