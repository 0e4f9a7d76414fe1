import Foundation

/// An `Encodable` encoder that writes JSON straight into a `_JSONWriter`, with no value tree in
/// between: how ``FastJSONEncoder`` and `Codable` attribute values write JSON.
///
/// Codable has no "container finished" event, so containers are written as a stack: a value's
/// own container opens when its `encode(to:)` asks for it and closes when that call returns; a
/// nested container closes when its parent is written to again. Every use that a stream cannot
/// write in order — writing to a container that was already closed, a `superEncoder`, a key
/// written twice in one object (`JSONEncoder` keeps the later value), a second value through
/// one single-value container, or an error that the value's own code caught and went on from —
/// sets ``abandoned``. The caller then discards the output and encodes the value again through
/// the `Node`-building encoder, which handles all of them as `JSONEncoder` does. The synthesized
/// conformances and the standard library's collections never abandon.
final class _StreamEncoder: Encoder {
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
  // run time costs a fifth of the encoding time.
  @exclusivity(unchecked) var writer: _JSONWriter
  let settings: _NodeEncodingSettings
  /// How keys are converted (decided once, not per key).
  private let keyMode: KeyMode
  /// Whether the output must be discarded and the value encoded through the `Node` encoder.
  @exclusivity(unchecked) private(set) var abandoned = false

  @exclusivity(unchecked) private var frames: [Frame] = []
  /// The innermost open container's id (0: none).
  @exclusivity(unchecked) private var topID = 0
  @exclusivity(unchecked) private var lastID = 0
  /// The hashes of the keys written into the open objects, innermost last.
  @exclusivity(unchecked) private var writtenKeys: [UInt64] = []
  /// The key hashes of large open objects (by container id), where a scan would be quadratic.
  @exclusivity(unchecked) private var largeObjectKeys: [Int: Set<UInt64>] = [:]
  /// The coding path of what is being written: the value's keys and nested containers' keys.
  @exclusivity(unchecked) private var path: [any CodingKey] = []
  /// The first frame of the value being encoded, and whether it has written anything yet.
  @exclusivity(unchecked) private var valueBase = 0
  @exclusivity(unchecked) private var valueStarted = false
  @exclusivity(unchecked) private var snakeCaseKeys: [String: String] = [:]

  private enum KeyMode {
    case same
    case snakeCase
    case strategy
  }

  init(settings: _NodeEncodingSettings, writer: _JSONWriter) {
    self.settings = settings
    self.writer = writer
    switch settings.keyEncodingStrategy {
    case .useDefaultKeys: keyMode = .same
    case .convertToSnakeCase: keyMode = .snakeCase
    default: keyMode = .strategy
    }
  }

  var codingPath: [any CodingKey] { path }
  var userInfo: [CodingUserInfoKey: Any] { settings.userInfo }

  /// The coding path of a container whose path had `count` keys.
  func codingPath(count: Int) -> [any CodingKey] { Array(path.prefix(count)) }

  /// Gives up on streaming; writes through containers after this are ignored.
  @discardableResult
  func abandon() -> _StreamAbandoned {
    abandoned = true
    return _StreamAbandoned()
  }

  // MARK: Encoder

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(
      _StreamKeyedContainer<Key>(
        stream: self, id: valueContainer(isObject: true), pathCount: path.count))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    _StreamUnkeyedContainer(
      stream: self, id: valueContainer(isObject: false), pathCount: path.count)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    _StreamSingleContainer(stream: self, pathCount: path.count)
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
    if isObject { writer.beginObject() } else { writer.beginArray() }
    lastID += 1
    frames.append(
      Frame(id: lastID, isObject: isObject, keyStart: writtenKeys.count, pathCount: pathCount))
    topID = lastID
    return lastID
  }

  private func close() {
    let frame = frames.removeLast()
    if frame.isObject {
      writtenKeys.removeLast(writtenKeys.count - frame.keyStart)
      if frame.keyBits == .max { largeObjectKeys[frame.id] = nil }
      writer.endObject()
    } else {
      writer.endArray()
    }
    path.removeLast(path.count - frame.pathCount)
    topID = frames.last?.id ?? 0
  }

  /// Makes container `id` the innermost open one, closing the nested containers of the current
  /// value above it; throws (and abandons) when `id` is no longer open.
  @inline(__always)
  func enter(_ id: Int) throws(_StreamAbandoned) {
    if id == topID, id != 0 { return }
    try enterSlow(id)
  }

  private func enterSlow(_ id: Int) throws(_StreamAbandoned) {
    var index = frames.count - 1
    while index >= valueBase, frames[index].id != id { index -= 1 }
    guard id != 0, index >= valueBase, !abandoned else { throw abandon() }
    while frames.count > index + 1 { close() }
  }

  /// Writes the key of a member of object `id`.
  @inline(__always)
  func key(_ key: some CodingKey, in id: Int, pathCount: Int) throws(_StreamAbandoned) {
    try enter(id)
    // A key written twice makes the output useless, so the check can follow the write.
    try checkUnique(writer.hashedKey(outputKey(key, pathCount: pathCount)))
  }

  /// Counts an element of array `id`, returning its index.
  @inline(__always)
  func element(in id: Int) throws(_StreamAbandoned) -> Int {
    try enter(id)
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
      return open(isObject: isObject, pathKey: _IndexKey(index))
    } catch {
      return 0
    }
  }

  /// An encoder for a super value: its contents come later than a stream can place them, so
  /// the value is encoded again through the `Node` encoder.
  func superEncoder(path: [any CodingKey]) -> any Encoder {
    abandon()
    return _NodeEncoder(settings: settings, box: _NodeBox(), path: path)
  }

  /// The number of elements written to array `id`.
  func count(of id: Int) -> Int {
    frames.last { $0.id == id }?.count ?? 0
  }

  private func outputKey(_ key: some CodingKey, pathCount: Int) -> String {
    switch keyMode {
    case .same:
      return key.stringValue
    case .snakeCase:
      let name = key.stringValue
      if let converted = snakeCaseKeys[name] { return converted }
      let converted = _convertToSnakeCase(name)
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
  private func checkUnique(_ hash: UInt64) throws(_StreamAbandoned) {
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

  private func checkUniqueSlow(_ hash: UInt64, frame last: Int) throws(_StreamAbandoned) {
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
    if let string = _sameType(value, as: String.self) { return writer.string(string) }
    if let integer = _sameType(value, as: Int.self) { return writer.int64(Int64(integer)) }
    if let double = _sameType(value, as: Double.self) { return try self.double(double, pathKey()) }
    if let bool = _sameType(value, as: Bool.self) { return writer.bool(bool) }
    try rareValue(value, pathKey: pathKey())
  }

  private func rareValue<T: Encodable>(_ value: T, pathKey: (any CodingKey)?) throws {
    if let integer = _sameType(value, as: Int64.self) { return writer.int64(integer) }
    if let float = _sameType(value, as: Float.self) { return try double(Double(float), pathKey) }
    if let url = _sameType(value, as: URL.self) { return writer.string(url.absoluteString) }
    if let decimal = _sameType(value, as: Decimal.self) {
      return writer.numberText("\(decimal)")
    }
    if let node = _sameType(value, as: Node.self) { return try self.node(node) }
    if let date = _sameType(value, as: Date.self) {
      return try self.node(try settings.date(date, path: path + (pathKey.map { [$0] } ?? [])))
    }
    if let data = _sameType(value, as: Data.self) {
      return try self.node(try settings.data(data, path: path + (pathKey.map { [$0] } ?? [])))
    }
    if let integer = _sameType(value, as: Int32.self) { return writer.int64(Int64(integer)) }
    if let integer = _sameType(value, as: Int16.self) { return writer.int64(Int64(integer)) }
    if let integer = _sameType(value, as: Int8.self) { return writer.int64(Int64(integer)) }
    if let integer = _sameType(value, as: UInt8.self) { return writer.int64(Int64(integer)) }
    if let integer = _sameType(value, as: UInt16.self) { return writer.int64(Int64(integer)) }
    if let integer = _sameType(value, as: UInt32.self) { return writer.int64(Int64(integer)) }
    if let integer = _sameType(value, as: UInt.self) { return writer.uint64(UInt64(integer)) }
    if let integer = _sameType(value, as: UInt64.self) { return writer.uint64(integer) }
    try nested(pathKey) { try value.encode(to: self) }
  }

  /// Runs `body`, the `encode(to:)` of one value, as a value of its own: what it opens is
  /// closed when it returns, and a value that writes nothing is `{}` (as `JSONEncoder` writes
  /// it).
  func nested(_ pathKey: (any CodingKey)?, _ body: () throws -> Void) throws {
    let savedBase = valueBase
    let savedStarted = valueStarted
    let pathCount = path.count
    if let pathKey { path.append(pathKey) }
    valueBase = frames.count
    valueStarted = false
    do {
      try body()
    } catch {
      // The value's own code may catch this and go on; the output would then hold half a value.
      abandoned = true
      throw error
    }
    if !valueStarted {
      writer.beginObject()
      writer.endObject()
    }
    while frames.count > valueBase { close() }
    path.removeLast(path.count - pathCount)
    valueBase = savedBase
    valueStarted = savedStarted
  }

  /// Marks the current value as written through a single-value container.
  func singleValue() throws(_StreamAbandoned) {
    guard !valueStarted, frames.count == valueBase, !abandoned else { throw abandon() }
    valueStarted = true
  }

  func double(_ value: Double, _ pathKey: (any CodingKey)?) throws {
    guard value.isFinite else {
      return try node(settings.float(value, path: path + (pathKey.map { [$0] } ?? [])))
    }
    do {
      try writer.double(value)
    } catch {
      throw abandon()
    }
  }

  private func node(_ node: Node) throws {
    do {
      try node._writeJSON(to: &writer, sortedKeys: false, nonFinite: .error)
    } catch {
      throw abandon()
    }
  }
}

/// Thrown (and recorded) when a value cannot be streamed; see ``_StreamEncoder``.
struct _StreamAbandoned: Error {}

extension _NodeEncodingSettings {
  /// `value` written into `writer` without a value tree, or `false` when it has to go through
  /// the `Node` encoder (nothing of it is then left in `writer`).
  func stream(_ value: some Encodable, into writer: inout _JSONWriter) -> Bool {
    let stream = _StreamEncoder(
      settings: self, writer: _JSONWriter(pretty: writer.isPretty, capacity: 0))
    swap(&stream.writer, &writer)
    let start = stream.writer.checkpoint()
    do {
      try stream.value(value, pathKey: nil)
    } catch {
      stream.abandon()
    }
    if stream.abandoned { stream.writer.rollback(to: start) }
    swap(&stream.writer, &writer)
    return !stream.abandoned
  }
}

struct _StreamKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let stream: _StreamEncoder
  let id: Int
  let pathCount: Int
  var codingPath: [any CodingKey] { stream.codingPath(count: pathCount) }

  private func key(_ key: Key) throws(_StreamAbandoned) {
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

  mutating func encode(_ value: Int, forKey key: Key) throws {
    try self.key(key)
    stream.writer.int64(Int64(value))
  }

  mutating func encode(_ value: Int64, forKey key: Key) throws {
    try self.key(key)
    stream.writer.int64(value)
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try self.key(key)
    try stream.value(value, pathKey: key)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let id = stream.openNested(in: self.id, key: key, pathCount: pathCount, isObject: true)
    return KeyedEncodingContainer(
      _StreamKeyedContainer<NestedKey>(stream: stream, id: id, pathCount: pathCount + 1))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let id = stream.openNested(in: self.id, key: key, pathCount: pathCount, isObject: false)
    return _StreamUnkeyedContainer(stream: stream, id: id, pathCount: pathCount + 1)
  }

  mutating func superEncoder() -> any Encoder {
    stream.superEncoder(path: codingPath)
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    stream.superEncoder(path: codingPath)
  }
}

struct _StreamUnkeyedContainer: UnkeyedEncodingContainer {
  let stream: _StreamEncoder
  let id: Int
  let pathCount: Int
  var codingPath: [any CodingKey] { stream.codingPath(count: pathCount) }
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
    try stream.double(value, _IndexKey(index))
  }

  mutating func encode(_ value: Int) throws {
    _ = try stream.element(in: id)
    stream.writer.int64(Int64(value))
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let index = try stream.element(in: id)
    try stream.value(value, pathKey: _IndexKey(index))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    let id = stream.openNestedElement(in: self.id, isObject: true)
    return KeyedEncodingContainer(
      _StreamKeyedContainer<NestedKey>(stream: stream, id: id, pathCount: pathCount + 1))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let id = stream.openNestedElement(in: self.id, isObject: false)
    return _StreamUnkeyedContainer(stream: stream, id: id, pathCount: pathCount + 1)
  }

  mutating func superEncoder() -> any Encoder {
    stream.superEncoder(path: codingPath)
  }
}

struct _StreamSingleContainer: SingleValueEncodingContainer {
  let stream: _StreamEncoder
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

  mutating func encode(_ value: Int) throws {
    try stream.singleValue()
    stream.writer.int64(Int64(value))
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    try stream.singleValue()
    try stream.value(value, pathKey: nil)
  }
}
