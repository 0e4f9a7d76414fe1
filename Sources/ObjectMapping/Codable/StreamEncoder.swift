import Foundation

/// An `Encodable` encoder that writes JSON straight into a `_JSONWriter`, with no value tree in
/// between: how ``FastJSONEncoder`` and `Codable` attribute values write JSON.
///
/// Codable has no "container finished" event, so containers are written as a stack: a value's
/// own container opens when its `encode(to:)` asks for it and closes when that call returns; a
/// nested container closes when its parent is written to again. Every use that a stream cannot
/// write in order — writing to a container that was already closed (or reading its
/// `codingPath` or `count`, which closing forgot), a `superEncoder`, a key written twice in one
/// object (`JSONEncoder` keeps the later value, or amends the earlier one through a nested
/// container), a second value through one single-value container, an error that the value's
/// own code caught and went on from, nesting deeper than 512 levels — sets
/// ``abandoned``. The caller then discards the output and encodes the value again through the
/// `Node`-building encoder, which handles all of them as `JSONEncoder` does. The synthesized
/// conformances and the standard library's collections never abandon.
///
/// Paths are `JSONEncoder`'s: an encoder's `codingPath` is its value's (a nested container made
/// from it does not change it), a container's is its own.
final class StreamEncoder: UncheckedExclusiveState<StreamEncoderState>, Encoder {
  /// An open container.
  struct Frame {
    let id: Int
    let isObject: Bool
    /// Elements written (arrays).
    var count = 0
    /// Where this object's keys start in ``writtenKeys``.
    let keyStart: Int
    /// One bit per written key's hash: most new keys are told unique without a scan.
    var keyBits: UInt64 = 0
    /// The length of ``path`` when the container opened, restored when it closes.
    let pathCount: Int
  }

  // Exclusivity: the encoder is reached only through its own methods and its containers, one
  // call at a time on one thread (Codable coders are not shared across threads), and no method
  // hands out an `inout` access to its state that outlives the call; checking every access at
  // run time costs a fifth of the encoding time. So the state lives in `state`
  // (``UncheckedExclusiveState``), and these properties forward to it.
  var writer: _JSONWriter {
    @inline(__always) get { state.writer }
    @inline(__always) _modify { yield &state.writer }
  }
  let settings: NodeEncodingSettings
  /// How keys are converted (decided once, not per key).
  private let keyMode: KeyMode
  /// Whether the output must be discarded and the value encoded through the `Node` encoder.
  private(set) var abandoned: Bool {
    @inline(__always) get { state.abandoned }
    @inline(__always) _modify { yield &state.abandoned }
  }
  /// Whether a use the stream cannot follow was met (``abandon()``), as opposed to an error
  /// the value itself threw: only then is the value encoded again.
  private(set) var cannotStream: Bool {
    @inline(__always) get { state.cannotStream }
    @inline(__always) _modify { yield &state.cannotStream }
  }

  private var frames: [Frame] {
    @inline(__always) get { state.frames }
    @inline(__always) _modify { yield &state.frames }
  }
  /// The innermost open container's id (0: none).
  private var topID: Int {
    @inline(__always) get { state.topID }
    @inline(__always) _modify { yield &state.topID }
  }
  private var lastID: Int {
    @inline(__always) get { state.lastID }
    @inline(__always) _modify { yield &state.lastID }
  }
  /// The hashes of the keys written into the open objects, innermost last.
  private var writtenKeys: [UInt64] {
    @inline(__always) get { state.writtenKeys }
    @inline(__always) _modify { yield &state.writtenKeys }
  }
  /// The key hashes of large open objects (by container id), where a scan would be quadratic.
  private var largeObjectKeys: [Int: Set<UInt64>] {
    @inline(__always) get { state.largeObjectKeys }
    @inline(__always) _modify { yield &state.largeObjectKeys }
  }
  /// The coding path of what is being written: the value's keys and nested containers' keys.
  private var path: [any CodingKey] {
    @inline(__always) get { state.path }
    @inline(__always) _modify { yield &state.path }
  }
  /// The length of the coding path of the value being encoded (the encoder's `codingPath`).
  private var valuePathCount: Int {
    @inline(__always) get { state.valuePathCount }
    @inline(__always) _modify { yield &state.valuePathCount }
  }
  /// The first frame of the value being encoded, and whether it has written anything yet.
  private var valueBase: Int {
    @inline(__always) get { state.valueBase }
    @inline(__always) _modify { yield &state.valueBase }
  }
  private var valueStarted: Bool {
    @inline(__always) get { state.valueStarted }
    @inline(__always) _modify { yield &state.valueStarted }
  }
  private var snakeCaseKeys: [String: String] {
    @inline(__always) get { state.snakeCaseKeys }
    @inline(__always) _modify { yield &state.snakeCaseKeys }
  }
  /// Whether the call that made the stream returned: a container or encoder kept past it
  /// writes into a scratch document that nothing reads (``detach(_:isObject:)``).
  var finished: Bool {
    @inline(__always) get { state.finished }
    @inline(__always) _modify { yield &state.finished }
  }

  /// The deepest nesting `JSONEncoder` writes.
  static let maximumDepth = 512

  private enum KeyMode {
    case same
    case snakeCase
    case strategy
  }

  init(settings: NodeEncodingSettings, writer: _JSONWriter) {
    self.settings = settings
    switch settings.keyEncodingStrategy {
    case .useDefaultKeys: keyMode = .same
    case .convertToSnakeCase: keyMode = .snakeCase
    default: keyMode = .strategy
    }
    super.init(state: StreamEncoderState(writer: writer))
  }

  var codingPath: [any CodingKey] { Array(path.prefix(valuePathCount)) }
  var userInfo: [CodingUserInfoKey: Any] { settings.userInfo }

  /// The coding path of a container whose path had `count` keys.
  func codingPath(count: Int) -> [any CodingKey] { Array(path.prefix(count)) }

  /// Gives up on streaming; writes through containers after this are ignored.
  @discardableResult
  func abandon() -> StreamAbandoned {
    failed()
    cannotStream = true
    return StreamAbandoned()
  }

  /// Marks the output as to be discarded: after an error, or a use the stream cannot follow.
  /// No container is current any more, so every later write through a container throws
  /// (``enterSlow(_:)``) instead of writing into a document left mid-member (a key without its
  /// value), and closing containers writes nothing (``close()``).
  func failed() {
    abandoned = true
    topID = 0
  }

  /// Runs `body`, a write that may throw after part of it was written (a non-finite number
  /// under `.throw`, a `Decimal.nan`, a node): the output is discarded when it throws, since
  /// the value's own code may catch the error and go on.
  private func failing<Result>(_ body: () throws -> Result) throws -> Result {
    do {
      return try body()
    } catch {
      failed()
      throw error
    }
  }

  // MARK: Encoder

  // A value's containers have the value's path (not the path as it is now: a nested container
  // of the value's may be open when it asks for its container again).

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(
      StreamKeyedContainer<Key>(
        stream: self, id: valueContainer(isObject: true), pathCount: valuePathCount))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    StreamUnkeyedContainer(
      stream: self, id: valueContainer(isObject: false), pathCount: valuePathCount)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    StreamSingleContainer(stream: self, pathCount: valuePathCount)
  }

  /// The id of the current value's own container: opened now, or the one it opened before (a
  /// second `container(keyedBy:)` call writes into the same object, a second
  /// `unkeyedContainer()` appends to the same array). 0 (never open) when the
  /// value already wrote something else.
  private func valueContainer(isObject: Bool) -> Int {
    guard valueStarted else {
      valueStarted = true
      return open(isObject: isObject, pathKey: nil)
    }
    if frames.count > valueBase, frames[valueBase].isObject == isObject {
      return frames[valueBase].id
    }
    _ = abandon()
    return 0
  }

  // MARK: Containers

  /// Opens a container, after its key (if nested) was written.
  func open(isObject: Bool, pathKey: (any CodingKey)?) -> Int {
    let pathCount = path.count
    if let pathKey { path.append(pathKey) }
    if frames.count >= Self.maximumDepth { abandon() }
    if isObject { writer.beginObject() } else { writer.beginArray() }
    lastID += 1
    frames.append(
      Frame(id: lastID, isObject: isObject, keyStart: writtenKeys.count, pathCount: pathCount))
    topID = abandoned ? 0 : lastID
    return lastID
  }

  private func close() {
    let frame = frames.removeLast()
    if frame.isObject {
      writtenKeys.removeLast(writtenKeys.count - frame.keyStart)
      if frame.keyBits == .max { largeObjectKeys[frame.id] = nil }
    }
    // One element at a time: `removeLast(_:)` goes through the generic `replaceSubrange`.
    while path.count > frame.pathCount { path.removeLast() }
    // Abandoned output is discarded, and may stop mid-member: nothing more is written into it.
    guard !abandoned else { return }
    if frame.isObject { writer.endObject() } else { writer.endArray() }
    topID = frames.last?.id ?? 0
  }

  /// Makes container `id` (an object or an array, as `isObject` says) the innermost open one,
  /// closing the nested containers of the current value above it; throws (and abandons) when
  /// `id` is no longer open, or, after the call returned, writes into a scratch document.
  @inline(__always)
  func enter(_ id: Int, isObject: Bool) throws(StreamAbandoned) {
    if id == topID, id != 0 { return }
    try enterSlow(id, isObject: isObject)
  }

  private func enterSlow(_ id: Int, isObject: Bool) throws(StreamAbandoned) {
    var index = frames.count - 1
    while index >= valueBase, frames[index].id != id { index -= 1 }
    guard id != 0, index >= valueBase, !abandoned else {
      if finished { return detach(id, isObject: isObject) }
      throw abandon()
    }
    while frames.count > index + 1 { close() }
  }

  /// A write through a container (or a single-value container, `id` `nil`) kept past the call
  /// that made it: it goes into a new scratch document that holds that container alone and that
  /// nothing reads, as `JSONEncoder` writes such values into storage it already took its output
  /// from. (A value that cannot be written still throws its error, as there.)
  private func detach(_ id: Int?, isObject: Bool) {
    var scratch = StreamEncoderState(writer: _JSONWriter(capacity: 0))
    scratch.finished = true
    scratch.lastID = lastID
    scratch.valueStarted = true
    if let id {
      if isObject { scratch.writer.beginObject() } else { scratch.writer.beginArray() }
      scratch.frames = [Frame(id: id, isObject: isObject, keyStart: 0, pathCount: 0)]
      scratch.topID = id
    }
    state = scratch
  }

  /// Writes the key of a member of object `id`.
  @inline(__always)
  func key(_ key: some CodingKey, in id: Int, pathCount: Int) throws(StreamAbandoned) {
    try enter(id, isObject: true)
    // A key written twice makes the output useless, so the check can follow the write.
    try checkUnique(writer.hashedKey(outputKey(key, pathCount: pathCount)))
  }

  /// Opens the current value's object, for members written by ``rawMember(_:_:in:)``.
  func openValueObject() -> Int { valueContainer(isObject: true) }

  /// Writes a member of object `id` with its key as it is, whatever the key strategy (a
  /// `[String: V]`'s); `pathKey` is its key on the coding path (by default `key`'s text).
  func rawMember<V: Encodable>(
    _ key: String, _ value: V, in id: Int, pathKey: (any CodingKey)? = nil
  ) throws {
    try enter(id, isObject: true)
    try checkUnique(writer.hashedKey(key))
    try self.value(value, pathKey: pathKey ?? AnyCodingKey(stringValue: key))
  }

  /// Counts an element of array `id`, returning its index.
  @inline(__always)
  func element(in id: Int) throws(StreamAbandoned) -> Int {
    try enter(id, isObject: false)
    let last = frames.count - 1
    let index = frames[last].count
    frames[last].count = index + 1
    return index
  }

  /// Opens a container nested in object `parent` at `key`; 0 (never open) when `parent` is
  /// closed.
  func openNested(in parent: Int, key: some CodingKey, pathCount: Int, isObject: Bool) -> Int {
    do {
      try self.key(key, in: parent, pathCount: pathCount)
      return open(isObject: isObject, pathKey: key)
    } catch {
      return 0
    }
  }

  /// Opens a container nested in array `parent` as its next element; 0 when `parent` is closed.
  func openNestedElement(in parent: Int, isObject: Bool) -> Int {
    do {
      let index = try element(in: parent)
      return open(isObject: isObject, pathKey: IndexKey(index))
    } catch {
      return 0
    }
  }

  /// An encoder for a super value at `path`: its contents come later than a stream can place
  /// them, so the value is encoded again through the `Node` encoder.
  func superEncoder(path: [any CodingKey]) -> any Encoder {
    abandon()
    return NodeEncoder(settings: settings, box: NodeBox(), path: path)
  }

  /// The number of elements written to array `id`. A closed container's count is gone: the
  /// stream gives up (see ``codingPath(ofContainer:count:)``).
  func count(of id: Int) -> Int {
    if let frame = frames.last(where: { $0.id == id }) { return frame.count }
    abandon()
    return 0
  }

  /// The coding path of container `id`, whose path had `count` keys. Its keys stay in ``path``
  /// while it is open; once it is closed (its parent written to again, its value done) they
  /// may have been replaced, so the stream gives up and the value is encoded again through the
  /// `Node` encoder, whose containers keep their own paths (the answer given now is discarded
  /// with the output). Not on the writing path: only a model's own code reads it.
  func codingPath(ofContainer id: Int, count: Int) -> [any CodingKey] {
    if id != topID || id == 0, !frames.contains(where: { $0.id == id }) { abandon() }
    return codingPath(count: count)
  }

  private func outputKey(_ key: some CodingKey, pathCount: Int) -> String {
    switch keyMode {
    case .same:
      return key.stringValue
    case .snakeCase:
      let name = key.stringValue
      if let converted = snakeCaseKeys[name] { return converted }
      let converted = snakeCased(name)
      snakeCaseKeys[name] = converted
      return converted
    case .strategy:
      return settings.outputKey(key, path: codingPath(count: pathCount))
    }
  }

  /// Abandons on a key already written into the innermost object. Keys are compared by a
  /// 64-bit hash of their bytes (`_JSONWriter.hashedKey(_:)`); the frame's bit set rules most
  /// new keys out without a scan.
  @inline(__always)
  private func checkUnique(_ hash: UInt64) throws(StreamAbandoned) {
    let last = frames.count - 1
    let bit: UInt64 = 1 << (hash >> 58)
    let bits = frames[last].keyBits
    if bits & bit == 0 {
      frames[last].keyBits = bits | bit
      writtenKeys.append(hash)
      return
    }
    try checkUniqueSlow(hash, frame: last)
  }

  private func checkUniqueSlow(_ hash: UInt64, frame last: Int) throws(StreamAbandoned) {
    let frame = frames[last]
    if frame.keyBits == .max {
      // A large object: its key hashes are kept in a set.
      guard largeObjectKeys[frame.id, default: []].insert(hash).inserted else { throw abandon() }
      return
    }
    // Equal hashes are taken as equal keys: a false alarm only costs a re-encode. (Indexes, not
    // a slice: a slice would share the array's buffer and make the append below copy it.)
    var index = frame.keyStart
    while index < writtenKeys.count {
      if writtenKeys[index] == hash { throw abandon() }
      index += 1
    }
    let count = writtenKeys.count - frame.keyStart
    if count < 64 {
      writtenKeys.append(hash)
    } else {
      largeObjectKeys[frame.id] = Set(writtenKeys[frame.keyStart...]).union([hash])
      writtenKeys.removeLast(count)
      frames[last].keyBits = .max
    }
  }

  // MARK: Values

  /// Writes a value: scalars and the types `JSONEncoder` writes specially directly, anything
  /// else through its `encode(to:)`, with `pathKey` on the coding path.
  @inline(__always)
  func value<T: Encodable>(_ value: T, pathKey: @autoclosure () -> (any CodingKey)?) throws {
    if let string = sameType(value, as: String.self) { return writer.string(string) }
    if let integer = sameType(value, as: Int.self) { return writer.int64(Int64(integer)) }
    if let double = sameType(value, as: Double.self) { return try self.double(double, pathKey()) }
    if let bool = sameType(value, as: Bool.self) { return writer.bool(bool) }
    try otherValue(value, pathKey: pathKey())
  }

  /// ``value(_:pathKey:)`` for the other types. Not inlined: it is on the stack once per
  /// level of a recursive model, which must fit 512 levels in a 512 KB stack.
  @inline(never)
  private func otherValue<T: Encodable>(_ value: T, pathKey: (any CodingKey)?) throws {
    if NodeEncodingSettings.writesSpecially(T.self) {
      return try specialValue(value, pathKey: pathKey)
    }
    try encoded(value, pathKey: pathKey)
  }

  /// Writes the member `key` of object `id` (a container at path length `pathCount`) with
  /// `value`: ``key(_:in:pathCount:)`` and ``value(_:pathKey:)`` in one frame, the one a
  /// keyed container's generic `encode` and `encodeIfPresent` call once per level of a
  /// recursive model.
  @inline(never)
  func member<T: Encodable>(_ value: T, key: any CodingKey, in id: Int, pathCount: Int) throws {
    try self.key(key, in: id, pathCount: pathCount)
    if let string = sameType(value, as: String.self) { return writer.string(string) }
    if let integer = sameType(value, as: Int.self) { return writer.int64(Int64(integer)) }
    if let double = sameType(value, as: Double.self) { return try self.double(double, key) }
    if let bool = sameType(value, as: Bool.self) { return writer.bool(bool) }
    if NodeEncodingSettings.writesSpecially(T.self) {
      return try specialValue(value, pathKey: key)
    }
    try encoded(value, pathKey: key)
  }

  /// Writes `value` through its `encode(to:)`, as a value of its own (``nested``, without its
  /// closure: one frame less per level of a recursive model). A `[String: V]`, and an
  /// `[Int: V]` without a key strategy, are written member by member here
  /// (``StreamedDictionary``) rather than through the standard library's
  /// `Dictionary.encode(to:)` and a keyed container: those frames took a recursion through
  /// `[String: Self]` past a 512 KB stack at the default depth limit.
  ///
  /// More than ``maximumDepth`` values' `encode(to:)` calls inside each other throw ``TooDeep``
  /// (the too-deep error): a reference cycle, or a chain of single-value containers, which
  /// opens no container the depth limit would count, ends there instead of overflowing the
  /// stack.
  @inline(__always)
  private func encoded<T: Encodable>(_ value: T, pathKey: (any CodingKey)?) throws {
    guard state.valueDepth <= Self.maximumDepth else { throw TooDeep() }
    state.valueDepth += 1
    defer { state.valueDepth -= 1 }
    let saved = enterValue(pathKey)
    do {
      if let dictionary = streamedDictionary(T.self), keyMode == .same || dictionary.hasStringKeys {
        try dictionary.streamMembers(of: value, to: self, keysConverted: keyMode != .same)
      } else {
        try value.encode(to: self)
      }
    } catch {
      failed()
      throw error
    }
    try leaveValue(saved, topLevel: false)
  }

  /// `T` as a dictionary type the stream writes itself, or `nil` (looked up once per type and
  /// kept for the next calls, ``StreamedDictionaries``).
  @inline(__always)
  private func streamedDictionary<T>(_ type: T.Type) -> (any StreamedDictionary.Type)? {
    if let known = state.dictionaryTypes[T.self] { return known }
    return lookUpStreamedDictionary(T.self)
  }

  @inline(never)
  private func lookUpStreamedDictionary<T>(_ type: T.Type) -> (any StreamedDictionary.Type)? {
    if !state.loadedConformances {
      state.loadedConformances = true
      state.dictionaryTypes = StreamedDictionaries.shared.value
      if let known = state.dictionaryTypes[T.self] { return known }
    }
    let found = T.self as? any StreamedDictionary.Type
    state.dictionaryTypes[T.self] = .some(found)
    state.learnedConformances = true
    return found
  }

  /// Keeps what this stream learned of dictionary types for the next calls.
  func keepLearnedConformances() {
    guard state.learnedConformances else { return }
    let types = state.dictionaryTypes
    StreamedDictionaries.shared.withLock { $0 = types }
  }

  /// A scalar of another width, a date, data, a URL, a decimal or a node.
  @inline(never)
  private func specialValue<T: Encodable>(_ value: T, pathKey: (any CodingKey)?) throws {
    func key() -> [any CodingKey] { path + (pathKey.map { [$0] } ?? []) }
    if let integer = sameType(value, as: Int64.self) { return writer.int64(integer) }
    if let float = sameType(value, as: Float.self) {
      guard float.isFinite else {
        return try failing { try node(settings.nonFinite(float, path: key())) }
      }
      return writer.encoderNumber(float)
    }
    if let url = sameType(value, as: URL.self) { return writer.string(url.absoluteString) }
    if let decimal = sameType(value, as: Decimal.self) {
      guard !decimal.isNaN else {
        failed()
        throw NodeEncodingSettings.nanDecimal(key())
      }
      return writer.numberText(decimal.description)
    }
    if let node = sameType(value, as: Node.self) { return try self.node(node) }
    if let date = sameType(value, as: Date.self) { return try self.date(date, pathKey: pathKey) }
    if let data = sameType(value, as: Data.self) { return try self.data(data, pathKey: pathKey) }
    if let integer = sameType(value, as: Int32.self) { return writer.int64(Int64(integer)) }
    if let integer = sameType(value, as: Int16.self) { return writer.int64(Int64(integer)) }
    if let integer = sameType(value, as: Int8.self) { return writer.int64(Int64(integer)) }
    if let integer = sameType(value, as: UInt8.self) { return writer.int64(Int64(integer)) }
    if let integer = sameType(value, as: UInt16.self) { return writer.int64(Int64(integer)) }
    if let integer = sameType(value, as: UInt32.self) { return writer.int64(Int64(integer)) }
    if let integer = sameType(value, as: UInt.self) { return writer.uint64(UInt64(integer)) }
    if let integer = sameType(value, as: UInt64.self) { return writer.uint64(integer) }
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
      if let integer = sameType(value, as: Int128.self) {
        return writer.numberText(integer.description)
      }
      if let integer = sameType(value, as: UInt128.self) {
        return writer.numberText(integer.description)
      }
    }
    try nested(pathKey) { try value.encode(to: self) }
  }

  private func date(_ date: Date, pathKey: (any CodingKey)?) throws {
    switch settings.dateEncodingStrategy {
    case .deferredToDate:
      try double(date.timeIntervalSinceReferenceDate, pathKey)
    case .secondsSince1970:
      try double(
        settings.finiteDateNumber(
          date.timeIntervalSince1970, path: path + (pathKey.map { [$0] } ?? [])),
        pathKey)
    case .millisecondsSince1970:
      try double(
        settings.finiteDateNumber(
          1000 * date.timeIntervalSince1970, path: path + (pathKey.map { [$0] } ?? [])),
        pathKey)
    case .iso8601:
      writer.string(ISO8601Coding.string(from: date))
    case .custom(let closure):
      // What the closure writes is the date's value; nothing written is `{}`.
      try nested(pathKey) { try closure(date, self) }
    @unknown default:
      try node(settings.date(date, path: path + (pathKey.map { [$0] } ?? [])))
    }
  }

  private func data(_ data: Data, pathKey: (any CodingKey)?) throws {
    switch settings.dataEncodingStrategy {
    case .base64:
      writer.string(data.base64EncodedString())
    case .deferredToData:
      try nested(pathKey) { try data.encode(to: self) }
    case .custom(let closure):
      try nested(pathKey) { try closure(data, self) }
    @unknown default:
      try node(settings.data(data, path: path + (pathKey.map { [$0] } ?? [])))
    }
  }

  /// Runs `body`, the `encode(to:)` of one value, as a value of its own: what it opens is
  /// closed when it returns, and a value that writes nothing is `{}` (as `JSONEncoder` writes
  /// it), or, at the top level, `JSONEncoder`'s error.
  func nested(_ pathKey: (any CodingKey)?, topLevel: Bool = false, _ body: () throws -> Void)
    throws
  {
    let saved = enterValue(pathKey)
    do {
      try body()
    } catch {
      // The value's own code may catch this and go on; the output would then hold half a value.
      failed()
      throw error
    }
    try leaveValue(saved, topLevel: topLevel)
  }

  /// What a value's encoding changes and ``leaveValue(_:topLevel:)`` puts back.
  struct SavedValue {
    let base: Int
    let started: Bool
    let valuePathCount: Int
    let pathCount: Int
  }

  /// Begins the encoding of a value at `pathKey`: a value of its own (see ``nested``).
  @inline(__always)
  private func enterValue(_ pathKey: (any CodingKey)?) -> SavedValue {
    let saved = SavedValue(
      base: valueBase, started: valueStarted, valuePathCount: valuePathCount,
      pathCount: path.count)
    if let pathKey { path.append(pathKey) }
    valuePathCount = path.count
    valueBase = frames.count
    valueStarted = false
    return saved
  }

  /// Ends the value begun by ``enterValue(_:)``: closes what it opened, writes `{}` for a
  /// value that wrote nothing (an error at the top level).
  @inline(__always)
  private func leaveValue(_ saved: SavedValue, topLevel: Bool) throws {
    if !valueStarted {
      guard !topLevel else { throw StreamWroteNothing() }
      if !abandoned {
        writer.beginObject()
        writer.endObject()
      }
    }
    while frames.count > valueBase { close() }
    while path.count > saved.pathCount { path.removeLast() }
    valueBase = saved.base
    valueStarted = saved.started
    valuePathCount = saved.valuePathCount
  }

  /// Marks the current value as written through a single-value container.
  func singleValue() throws(StreamAbandoned) {
    guard !valueStarted, frames.count == valueBase, !abandoned else {
      if finished { return detach(nil, isObject: false) }
      throw abandon()
    }
    valueStarted = true
  }

  /// Writes `node` as the current value (a ``Node``'s `encode(to:)`).
  func writeNode(_ node: Node) throws {
    try singleValue()
    try self.node(node)
  }

  func double(_ value: Double, _ pathKey: (any CodingKey)?) throws {
    guard value.isFinite else {
      return try failing {
        try node(settings.nonFinite(value, path: path + (pathKey.map { [$0] } ?? [])))
      }
    }
    writer.encoderNumber(value)
  }

  func float(_ value: Float, _ pathKey: (any CodingKey)?) throws {
    guard value.isFinite else {
      return try failing {
        try node(settings.nonFinite(value, path: path + (pathKey.map { [$0] } ?? [])))
      }
    }
    writer.encoderNumber(value)
  }

  /// Writes `node` as the encoder writes values (see ``CoderNodeWriter``), nested in the
  /// open containers.
  private func node(_ node: Node) throws {
    try failing {
      try CoderNodeWriter(settings: settings, sortedKeys: false, path: path, depth: frames.count)
        .write(node, to: &writer)
    }
  }
}

/// Thrown (and recorded) when a value cannot be streamed; see ``StreamEncoder``.
struct StreamAbandoned: Error {}

/// Thrown when the top-level value wrote nothing (the `Node` encoder gives the error).
struct StreamWroteNothing: Error {}

/// `[String: V]`, whose members the encoders write with their keys as they are.
protocol StringKeyedEncodable {
  func writeMembers(to encoder: NodeEncoder) throws
}

extension Dictionary: StringKeyedEncodable where Key == String, Value: Encodable {
  func writeMembers(to encoder: NodeEncoder) throws {
    encoder.box.makeObject()
    for (key, value) in self {
      encoder.box.setMember(
        key, .node(try encoder.node(of: value, key: AnyCodingKey(stringValue: key))))
    }
  }
}

/// `[String: V]` and `[Int: V]`, whose members the stream writes itself
/// (``StreamEncoder/encoded(_:pathKey:)``) with `JSONEncoder`'s output and coding paths.
///
/// Without a key strategy `JSONEncoder` writes both through the standard library's
/// `Dictionary.encode(to:)`, whose coding keys have the integer value their text reads as
/// (`keysConverted: false`). With one it writes a `[String: V]`'s keys as they are, with coding
/// keys that have no integer value (`keysConverted: true`), and converts an `[Int: V]`'s keys:
/// the stream leaves that case to the dictionary's own `encode(to:)`.
protocol StreamedDictionary: SendableMetatype {
  /// Whether the keys are `String`s.
  static var hasStringKeys: Bool { get }
  /// Writes `value` (of this type) as an object: the members in the dictionary's order.
  static func streamMembers<T>(of value: T, to stream: StreamEncoder, keysConverted: Bool) throws
}

extension Dictionary: StreamedDictionary where Key: TapeDictionaryKey, Value: Encodable {
  static var hasStringKeys: Bool { Key.self == String.self }

  static func streamMembers<T>(of value: T, to stream: StreamEncoder, keysConverted: Bool) throws {
    let id = stream.openValueObject()
    for (key, member) in identityCast(value, to: Self.self) {
      let text =
        Key.self == String.self
        ? identityCast(key, to: String.self) : String(identityCast(key, to: Int.self))
      try stream.rawMember(
        text, member, in: id,
        pathKey: keysConverted ? nil : DictionaryKey(text, integerKeys: true))
    }
  }
}

extension NodeEncodingSettings {
  /// `value` written into `writer` without a value tree (`true`), or `false` when it has to
  /// go through the `Node` encoder (nothing of it is then left in `writer`), which also gives
  /// any error: how `Codable` values inside mappings are written.
  func stream(_ value: some Encodable, into writer: inout _JSONWriter) -> Bool {
    (try? streaming(into: &writer, describing: value) { try $0.value(value, pathKey: nil) })
      ?? false
  }

  /// The top-level `value` written into `writer` (`true`), or `false` when it has to go
  /// through the `Node` encoder. An error the value threw itself (not one of the stream's
  /// limits) is thrown as it is, and a value whose own code writes nothing is `JSONEncoder`'s
  /// error.
  func streamTopLevel<T: Encodable>(_ value: T, into writer: inout _JSONWriter) throws -> Bool {
    try streaming(into: &writer, describing: value) { stream in
      if Self.writesSpecially(T.self) || Self.isScalar(T.self) {
        try stream.value(value, pathKey: nil)
      } else if stringKeyedDictionary(value) != nil,
        let dictionary = T.self as? any StreamedDictionary.Type
      {
        try stream.nested(nil, topLevel: true) {
          try dictionary.streamMembers(of: value, to: stream, keysConverted: true)
        }
      } else {
        try stream.nested(nil, topLevel: true) { try value.encode(to: stream) }
      }
    }
  }

  /// ``streamTopLevel(_:into:)`` for a value whose encoding is `encode` (a configured one).
  func streamTopLevel<T>(
    _ value: T, into writer: inout _JSONWriter, encode: (any Encoder) throws -> Void
  ) throws -> Bool {
    try streaming(into: &writer, describing: value) { stream in
      try stream.nested(nil, topLevel: true) { try encode(stream) }
    }
  }

  /// Runs `body` with a stream writing into `writer`; see ``streamTopLevel(_:into:)``.
  private func streaming<T>(
    into writer: inout _JSONWriter, describing value: T, _ body: (StreamEncoder) throws -> Void
  ) throws -> Bool {
    let stream = StreamEncoder(settings: self, writer: _JSONWriter(capacity: 0))
    swap(&stream.writer, &writer)
    let start = stream.writer.checkpoint()
    var thrown: (any Error)?
    do {
      try body(stream)
    } catch is StreamWroteNothing {
      // After an error the value caught and went on from, the stream's record of what was
      // written is not to be trusted: the `Node` encoder decides.
      if !stream.abandoned { thrown = Self.wroteNothing(value) }
      stream.abandon()
    } catch is TooDeep {
      thrown = Self.tooDeep(value)
      stream.abandon()
    } catch {
      if !stream.cannotStream { thrown = error }
      stream.abandon()
    }
    if stream.abandoned { stream.writer.rollback(to: start) }
    swap(&stream.writer, &writer)
    stream.finished = true
    stream.keepLearnedConformances()
    if let thrown { throw thrown }
    return !stream.abandoned
  }

  /// Whether `T` is one of the four scalars the stream writes itself.
  static func isScalar<T>(_ type: T.Type) -> Bool {
    T.self == String.self || T.self == Int.self || T.self == Double.self || T.self == Bool.self
  }
}

struct StreamKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let stream: StreamEncoder
  let id: Int
  let pathCount: Int
  var codingPath: [any CodingKey] { stream.codingPath(ofContainer: id, count: pathCount) }

  private func key(_ key: Key) throws(StreamAbandoned) {
    try stream.key(key, in: id, pathCount: pathCount)
  }

  mutating func encodeNil(forKey key: Key) throws {
    try self.key(key)
    stream.writer.null()
  }

  mutating func encode(_ value: Bool, forKey key: Key) throws {
    try self.key(key)
    stream.writer.bool(value)
  }

  mutating func encode(_ value: String, forKey key: Key) throws {
    try self.key(key)
    stream.writer.string(value)
  }

  mutating func encode(_ value: Double, forKey key: Key) throws {
    try self.key(key)
    try stream.double(value, key)
  }

  mutating func encode(_ value: Float, forKey key: Key) throws {
    try self.key(key)
    try stream.float(value, key)
  }

  mutating func encode(_ value: Int, forKey key: Key) throws {
    try self.key(key)
    stream.writer.int64(Int64(value))
  }

  mutating func encode(_ value: Int64, forKey key: Key) throws {
    try self.key(key)
    stream.writer.int64(value)
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func encode(_ value: Int128, forKey key: Key) throws {
    try self.key(key)
    stream.writer.numberText(value.description)
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func encode(_ value: UInt128, forKey key: Key) throws {
    try self.key(key)
    stream.writer.numberText(value.description)
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try stream.member(value, key: key, in: id, pathCount: pathCount)
  }

  // `encodeIfPresent` written here rather than through the protocol's default (which calls
  // `encode` from a frame of its own): one frame less per level of a recursive model.
  mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
    guard let value else { return }
    try stream.member(value, key: key, in: id, pathCount: pathCount)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let id = stream.openNested(in: self.id, key: key, pathCount: pathCount, isObject: true)
    return KeyedEncodingContainer(
      StreamKeyedContainer<NestedKey>(stream: stream, id: id, pathCount: pathCount + 1))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let id = stream.openNested(in: self.id, key: key, pathCount: pathCount, isObject: false)
    return StreamUnkeyedContainer(stream: stream, id: id, pathCount: pathCount + 1)
  }

  mutating func superEncoder() -> any Encoder {
    stream.superEncoder(path: codingPath + [AnyCodingKey.super])
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    stream.superEncoder(path: codingPath + [key])
  }
}

struct StreamUnkeyedContainer: UnkeyedEncodingContainer {
  let stream: StreamEncoder
  let id: Int
  let pathCount: Int
  var codingPath: [any CodingKey] { stream.codingPath(ofContainer: id, count: pathCount) }
  var count: Int { stream.count(of: id) }

  mutating func encodeNil() throws {
    _ = try stream.element(in: id)
    stream.writer.null()
  }

  mutating func encode(_ value: Bool) throws {
    _ = try stream.element(in: id)
    stream.writer.bool(value)
  }

  mutating func encode(_ value: String) throws {
    _ = try stream.element(in: id)
    stream.writer.string(value)
  }

  mutating func encode(_ value: Double) throws {
    let index = try stream.element(in: id)
    try stream.double(value, IndexKey(index))
  }

  mutating func encode(_ value: Float) throws {
    let index = try stream.element(in: id)
    try stream.float(value, IndexKey(index))
  }

  mutating func encode(_ value: Int) throws {
    _ = try stream.element(in: id)
    stream.writer.int64(Int64(value))
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func encode(_ value: Int128) throws {
    _ = try stream.element(in: id)
    stream.writer.numberText(value.description)
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func encode(_ value: UInt128) throws {
    _ = try stream.element(in: id)
    stream.writer.numberText(value.description)
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let index = try stream.element(in: id)
    try stream.value(value, pathKey: IndexKey(index))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    let id = stream.openNestedElement(in: self.id, isObject: true)
    return KeyedEncodingContainer(
      StreamKeyedContainer<NestedKey>(stream: stream, id: id, pathCount: pathCount + 1))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let id = stream.openNestedElement(in: self.id, isObject: false)
    return StreamUnkeyedContainer(stream: stream, id: id, pathCount: pathCount + 1)
  }

  mutating func superEncoder() -> any Encoder {
    stream.superEncoder(path: codingPath + [IndexKey(count)])
  }
}

struct StreamSingleContainer: SingleValueEncodingContainer {
  let stream: StreamEncoder
  let pathCount: Int
  var codingPath: [any CodingKey] { stream.codingPath(count: pathCount) }

  mutating func encodeNil() throws {
    try stream.singleValue()
    stream.writer.null()
  }

  mutating func encode(_ value: Bool) throws {
    try stream.singleValue()
    stream.writer.bool(value)
  }

  mutating func encode(_ value: String) throws {
    try stream.singleValue()
    stream.writer.string(value)
  }

  mutating func encode(_ value: Double) throws {
    try stream.singleValue()
    try stream.double(value, nil)
  }

  mutating func encode(_ value: Float) throws {
    try stream.singleValue()
    try stream.float(value, nil)
  }

  mutating func encode(_ value: Int) throws {
    try stream.singleValue()
    stream.writer.int64(Int64(value))
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func encode(_ value: Int128) throws {
    try stream.singleValue()
    stream.writer.numberText(value.description)
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func encode(_ value: UInt128) throws {
    try stream.singleValue()
    stream.writer.numberText(value.description)
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    try stream.singleValue()
    try stream.value(value, pathKey: nil)
  }
}

/// The mutable state of a ``StreamEncoder`` (see its properties of the same names), kept
/// without dynamic exclusivity checks (``UncheckedExclusiveState``).
struct StreamEncoderState {
  var writer: _JSONWriter
  var abandoned = false
  var cannotStream = false
  var frames: [StreamEncoder.Frame] = []
  var topID = 0
  var lastID = 0
  var writtenKeys: [UInt64] = []
  var largeObjectKeys: [Int: Set<UInt64>] = [:]
  var path: [any CodingKey] = []
  var valuePathCount = 0
  var valueBase = 0
  var valueStarted = false
  /// How many values' `encode(to:)` hold the one being encoded (``StreamEncoder/encoded``).
  var valueDepth = 0
  var snakeCaseKeys: [String: String] = [:]
  var finished = false
  /// The dictionary types met so far (``StreamedDictionaries``, loaded at the first miss).
  var dictionaryTypes = TypeCache<any StreamedDictionary.Type>()
  var loadedConformances = false
  var learnedConformances = false
}

/// The answers of the streams' dictionary lookups (``StreamEncoder/streamedDictionary(_:)``),
/// kept for the next calls as ``KnownConformances`` keeps the decoder's: the runtime's answer
/// for a type that is not a dictionary costs thousands of instructions each time.
enum StreamedDictionaries {
  static let shared = Locked(TypeCache<any StreamedDictionary.Type>())
}
