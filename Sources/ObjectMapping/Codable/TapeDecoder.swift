import Foundation

/// A coding path as a chain: each node is one key below its parent's path. Values decode with a
/// node (their decoder, or their array's) instead of an array of keys, which is built only when
/// asked for (``codingPath``: an error, a model reading its path): decoding an object costs no
/// array and no copy of its parent's keys.
class _PathNode {
  let parent: _PathNode?
  /// `nil` for the root value, and for a value read where its parent is (a date's decoder).
  let key: (any CodingKey)?
  /// The number of keys in the path.
  let depth: Int

  init(parent: _PathNode?, key: (any CodingKey)?) {
    self.parent = parent
    self.key = key
    depth = (parent?.depth ?? 0) + (key == nil ? 0 : 1)
  }

  /// The node for `key` below `parent`: `parent` itself when there is no key.
  static func node(_ parent: _PathNode?, _ key: (any CodingKey)?) -> _PathNode? {
    guard let key else { return parent }
    return _PathNode(parent: parent, key: key)
  }

  /// The path's keys, from the root.
  var codingPath: [any CodingKey] {
    var keys: [any CodingKey] = []
    keys.reserveCapacity(depth)
    var node: _PathNode? = self
    while let current = node {
      if let key = current.key { keys.append(key) }
      node = current.parent
    }
    keys.reverse()
    return keys
  }
}

/// The `Decoder` a model's `init(from:)` receives from ``FastJSONDecoder``: one value of the
/// scanned document. It is its value's node of the coding path (``_PathNode``), which its
/// containers and their values point to.
final class _TapeDecoder: _PathNode, Decoder {
  let reading: _CodableReading
  let index: Int
  /// Whether the key strategy applies to this value's keys: not for a `[String: V]`, whose keys
  /// are data (as `JSONDecoder` decodes them).
  let convertsKeys: Bool

  init(
    _ reading: _CodableReading, index: Int, parent: _PathNode?, key: (any CodingKey)?,
    convertsKeys: Bool = true
  ) {
    self.reading = reading
    self.index = index
    self.convertsKeys = convertsKeys
    super.init(parent: parent, key: key)
  }

  var userInfo: [CodingUserInfoKey: Any] { reading.userInfo }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    reading.checkLifetime()
    guard reading.tape[index].kind == .object else {
      throw _mismatch([String: Any].self, at: index, path: codingPath, reading: reading)
    }
    return KeyedDecodingContainer(
      _KeyedTapeContainer<Key>(
        decoder: self,
        keys: convertsKeys ? reading.convertedKeys(of: index, path: self.codingPath) : nil))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    reading.checkLifetime()
    guard reading.tape[index].kind == .array else {
      throw _mismatch([Any].self, at: index, path: codingPath, reading: reading)
    }
    return _UnkeyedTapeContainer(decoder: self)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    _SingleTapeContainer(decoder: self)
  }
}

/// A type mismatch for the value at `index`: what was found there.
private func _mismatch(
  _ type: Any.Type, at index: Int, path: [any CodingKey], reading: _CodableReading
) -> DecodingError {
  let found = reading.withPayload(at: index) { $0.rawDescription }
  if reading.tape[index].kind == .null {
    return .valueNotFound(
      type, DecodingError.Context(codingPath: path, debugDescription: "found null"))
  }
  let expected = type == [Any].self ? "an array" : "an object"
  return .typeMismatch(
    type,
    DecodingError.Context(
      codingPath: path, debugDescription: found,
      underlyingError: ConversionFailure.typeMismatch(
        expected: expected, found: _kindDescription(reading.tape[index].kind))))
}

private func _kindDescription(_ kind: _TapeKind) -> String {
  switch kind {
  case .null: "null"
  case .true, .false: "a boolean"
  case .integer, .number: "a number"
  case .string: "a string"
  case .array: "an array"
  case .object: "an object"
  }
}

/// The members of one object.
struct _KeyedTapeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  /// The object's decoder: its tape index and its node of the coding path.
  let decoder: _TapeDecoder
  /// The decoder's reading, held here too: read per member without going through the decoder.
  let reading: _CodableReading
  let object: Int
  let keys: _ConvertedKeys?

  init(decoder: _TapeDecoder, keys: _ConvertedKeys?) {
    self.decoder = decoder
    reading = decoder.reading
    object = decoder.index
    self.keys = keys
  }

  var codingPath: [any CodingKey] { decoder.codingPath }

  var allKeys: [Key] {
    reading.checkLifetime()
    if let keys { return keys.names.compactMap { Key(stringValue: $0) } }
    var result: [Key] = []
    var cursor = object + 1
    for _ in 0..<reading.tape.count(at: object) {
      if let key = Key(stringValue: reading.tape.string(at: cursor)) { result.append(key) }
      cursor = reading.tape.next(after: cursor + 1)
    }
    return result
  }

  func contains(_ key: Key) -> Bool {
    reading.checkLifetime()
    return reading.member(of: object, key: key, keys: keys, depth: decoder.depth) != nil
  }

  @inline(__always)
  private func valueIndex(_ key: Key) throws -> Int {
    reading.checkLifetime()
    guard let index = reading.member(of: object, key: key, keys: keys, depth: decoder.depth)
    else {
      throw DecodingError.keyNotFound(
        key,
        DecodingError.Context(
          codingPath: codingPath,
          debugDescription: "No value associated with key \(key.stringValue)."))
    }
    return index
  }

  func decodeNil(forKey key: Key) throws -> Bool {
    reading.tape[try valueIndex(key)].kind == .null
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try reading.readScalar(Bool.self, at: try valueIndex(key), path: codingPath + [key])
  }
  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try reading.readScalar(String.self, at: try valueIndex(key), path: codingPath + [key])
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try reading.readFloatingPoint(Double.self, at: try valueIndex(key), path: codingPath + [key])
  }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try reading.readFloatingPoint(Float.self, at: try valueIndex(key), path: codingPath + [key])
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    try reading.readScalar(Int.self, at: try valueIndex(key), path: codingPath + [key])
  }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
    try reading.readScalar(Int8.self, at: try valueIndex(key), path: codingPath + [key])
  }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
    try reading.readScalar(Int16.self, at: try valueIndex(key), path: codingPath + [key])
  }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
    try reading.readScalar(Int32.self, at: try valueIndex(key), path: codingPath + [key])
  }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    try reading.readScalar(Int64.self, at: try valueIndex(key), path: codingPath + [key])
  }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
    try reading.readScalar(UInt.self, at: try valueIndex(key), path: codingPath + [key])
  }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
    try reading.readScalar(UInt8.self, at: try valueIndex(key), path: codingPath + [key])
  }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    try reading.readScalar(UInt16.self, at: try valueIndex(key), path: codingPath + [key])
  }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    try reading.readScalar(UInt32.self, at: try valueIndex(key), path: codingPath + [key])
  }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    try reading.readScalar(UInt64.self, at: try valueIndex(key), path: codingPath + [key])
  }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try reading.readValue(T.self, at: try valueIndex(key), parent: decoder, key: key)
  }

  /// `nil` when the key is absent or `null`, without building a coding path.
  @inline(__always)
  private func presentIndex(_ key: Key) -> Int? {
    reading.checkLifetime()
    guard let index = reading.member(of: object, key: key, keys: keys, depth: decoder.depth),
      reading.tape[index].kind != .null
    else { return nil }
    return index
  }

  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    guard let index = presentIndex(key) else { return nil }
    return try reading.readScalar(Bool.self, at: index, path: codingPath + [key])
  }
  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    guard let index = presentIndex(key) else { return nil }
    return try reading.readScalar(String.self, at: index, path: codingPath + [key])
  }
  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
    guard let index = presentIndex(key) else { return nil }
    return try reading.readFloatingPoint(Double.self, at: index, path: codingPath + [key])
  }
  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
    guard let index = presentIndex(key) else { return nil }
    return try reading.readScalar(Int.self, at: index, path: codingPath + [key])
  }
  func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
    guard let index = presentIndex(key) else { return nil }
    return try reading.readScalar(Int64.self, at: index, path: codingPath + [key])
  }
  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    guard let index = presentIndex(key) else { return nil }
    return try reading.readValue(T.self, at: index, parent: decoder, key: key)
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try _TapeDecoder(reading, index: try valueIndex(key), parent: decoder, key: key)
      .container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try _TapeDecoder(reading, index: try valueIndex(key), parent: decoder, key: key)
      .unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    try superDecoder(key: _AnyCodingKey.super)
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    try superDecoder(key: key)
  }

  private func superDecoder(key: some CodingKey) throws -> any Decoder {
    reading.checkLifetime()
    var name = key.stringValue
    let found =
      keys.map { $0.index[name] }
      ?? name.withUTF8 { reading.tape.member(of: object, named: $0) }
    guard let index = found else {
      throw DecodingError.keyNotFound(
        key, DecodingError.Context(codingPath: codingPath, debugDescription: "No super value."))
    }
    return _TapeDecoder(reading, index: index, parent: decoder, key: key)
  }
}

/// The elements of one array, read in order.
struct _UnkeyedTapeContainer: UnkeyedDecodingContainer {
  /// The array's decoder: its reading and its node of the coding path.
  let decoder: _TapeDecoder
  let count: Int?
  private(set) var currentIndex = 0
  /// The tape index of the next element.
  private var cursor: Int

  var reading: _CodableReading { decoder.reading }
  var codingPath: [any CodingKey] { decoder.codingPath }

  init(decoder: _TapeDecoder) {
    self.decoder = decoder
    count = decoder.reading.tape.count(at: decoder.index)
    cursor = decoder.index + 1
  }

  var isAtEnd: Bool { currentIndex >= (count ?? 0) }

  /// The next element's index and position, advancing past it.
  @inline(__always)
  private mutating func next(_ type: Any.Type) throws -> (index: Int, key: _AnyCodingKey) {
    reading.checkLifetime()
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        type,
        DecodingError.Context(
          codingPath: codingPath + [_AnyCodingKey(intValue: currentIndex)],
          debugDescription: "Unkeyed container is at end."))
    }
    let element = (cursor, _AnyCodingKey(intValue: currentIndex))
    cursor = reading.tape.next(after: cursor)
    currentIndex += 1
    return element
  }

  mutating func decodeNil() throws -> Bool {
    reading.checkLifetime()
    guard !isAtEnd, reading.tape[cursor].kind == .null else { return false }
    cursor = reading.tape.next(after: cursor)
    currentIndex += 1
    return true
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool {
    let (index, key) = try next(type)
    return try reading.readScalar(Bool.self, at: index, path: codingPath + [key])
  }
  mutating func decode(_ type: String.Type) throws -> String {
    let (index, key) = try next(type)
    return try reading.readScalar(String.self, at: index, path: codingPath + [key])
  }
  mutating func decode(_ type: Double.Type) throws -> Double {
    let (index, key) = try next(type)
    return try reading.readFloatingPoint(Double.self, at: index, path: codingPath + [key])
  }
  mutating func decode(_ type: Float.Type) throws -> Float {
    let (index, key) = try next(type)
    return try reading.readFloatingPoint(Float.self, at: index, path: codingPath + [key])
  }
  mutating func decode(_ type: Int.Type) throws -> Int {
    let (index, key) = try next(type)
    return try reading.readScalar(Int.self, at: index, path: codingPath + [key])
  }
  mutating func decode(_ type: Int64.Type) throws -> Int64 {
    let (index, key) = try next(type)
    return try reading.readScalar(Int64.self, at: index, path: codingPath + [key])
  }
  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let (index, key) = try next(type)
    return try reading.readValue(T.self, at: index, parent: decoder, key: key)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let (index, key) = try next([String: Any].self)
    return try _TapeDecoder(reading, index: index, parent: decoder, key: key)
      .container(keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let (index, key) = try next([Any].self)
    return try _TapeDecoder(reading, index: index, parent: decoder, key: key).unkeyedContainer()
  }

  mutating func superDecoder() throws -> any Decoder {
    let (index, key) = try next(Any.self)
    return _TapeDecoder(reading, index: index, parent: decoder, key: key)
  }
}

/// One value.
struct _SingleTapeContainer: SingleValueDecodingContainer {
  let decoder: _TapeDecoder
  var reading: _CodableReading { decoder.reading }
  var index: Int { decoder.index }
  var codingPath: [any CodingKey] { decoder.codingPath }

  func decodeNil() -> Bool {
    reading.checkLifetime()
    return reading.tape[index].kind == .null
  }

  func decode(_ type: Bool.Type) throws -> Bool {
    try reading.scalar(Bool.self, at: index, path: codingPath)
  }
  func decode(_ type: String.Type) throws -> String {
    try reading.scalar(String.self, at: index, path: codingPath)
  }
  func decode(_ type: Double.Type) throws -> Double {
    try reading.floatingPoint(Double.self, at: index, path: codingPath)
  }
  func decode(_ type: Float.Type) throws -> Float {
    try reading.floatingPoint(Float.self, at: index, path: codingPath)
  }
  func decode(_ type: Int.Type) throws -> Int {
    try reading.scalar(Int.self, at: index, path: codingPath)
  }
  func decode(_ type: Int8.Type) throws -> Int8 {
    try reading.scalar(Int8.self, at: index, path: codingPath)
  }
  func decode(_ type: Int16.Type) throws -> Int16 {
    try reading.scalar(Int16.self, at: index, path: codingPath)
  }
  func decode(_ type: Int32.Type) throws -> Int32 {
    try reading.scalar(Int32.self, at: index, path: codingPath)
  }
  func decode(_ type: Int64.Type) throws -> Int64 {
    try reading.scalar(Int64.self, at: index, path: codingPath)
  }
  func decode(_ type: UInt.Type) throws -> UInt {
    try reading.scalar(UInt.self, at: index, path: codingPath)
  }
  func decode(_ type: UInt8.Type) throws -> UInt8 {
    try reading.scalar(UInt8.self, at: index, path: codingPath)
  }
  func decode(_ type: UInt16.Type) throws -> UInt16 {
    try reading.scalar(UInt16.self, at: index, path: codingPath)
  }
  func decode(_ type: UInt32.Type) throws -> UInt32 {
    try reading.scalar(UInt32.self, at: index, path: codingPath)
  }
  func decode(_ type: UInt64.Type) throws -> UInt64 {
    try reading.scalar(UInt64.self, at: index, path: codingPath)
  }
  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try reading.decode(T.self, at: index, parent: decoder.parent, key: decoder.key)
  }
}
