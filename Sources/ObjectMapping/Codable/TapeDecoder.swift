import Foundation

/// A coding path as a chain: each node is one key below its parent's path. Values decode with a
/// node (their decoder, or their array's) instead of an array of keys, which is built only when
/// asked for (``codingPath``: an error, a model reading its path): decoding an object costs no
/// array and no copy of its parent's keys.
class PathNode {
  let parent: PathNode?
  /// `nil` for the root value, and for a value read where its parent is (a date's decoder).
  let key: (any CodingKey)?
  /// The number of keys in the path.
  let depth: Int

  init(parent: PathNode?, key: (any CodingKey)?) {
    self.parent = parent
    self.key = key
    depth = (parent?.depth ?? 0) + (key == nil ? 0 : 1)
  }

  /// The node for `key` below `parent`: `parent` itself when there is no key.
  static func node(_ parent: PathNode?, _ key: (any CodingKey)?) -> PathNode? {
    guard let key else { return parent }
    return PathNode(parent: parent, key: key)
  }

  /// The path's keys, from the root.
  var codingPath: [any CodingKey] {
    var keys: [any CodingKey] = []
    keys.reserveCapacity(depth)
    var node: PathNode? = self
    while let current = node {
      if let key = current.key { keys.append(key) }
      node = current.parent
    }
    keys.reverse()
    return keys
  }
}

/// The `Decoder` a model's `init(from:)` receives from ``FastJSONDecoder``: one value of the
/// scanned document. It is its value's node of the coding path (``PathNode``), which its
/// containers and their values point to.
final class TapeDecoder: PathNode, Decoder {
  let reading: CodableReading
  let index: Int

  init(_ reading: CodableReading, index: Int, parent: PathNode?, key: (any CodingKey)?) {
    self.reading = reading
    self.index = index
    super.init(parent: parent, key: key)
  }

  var userInfo: [CodingUserInfoKey: Any] { reading.userInfo }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    reading.checkLifetime()
    let kind = reading.tape[index].kind
    guard kind == .object else {
      if kind == .null {
        throw DecodingError.valueNotFound(
          [String: Any].self,
          DecodingError.Context(
            codingPath: codingPath,
            debugDescription: "Cannot get keyed decoding container -- found null value instead"))
      }
      throw reading.mismatch([String: Any].self, at: index, path: codingPath)
    }
    return KeyedDecodingContainer(
      KeyedTapeContainer<Key>(
        decoder: self,
        keys: reading.convertsKeys ? reading.convertedKeys(of: index, path: self.codingPath) : nil))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    reading.checkLifetime()
    let kind = reading.tape[index].kind
    guard kind == .array else {
      if kind == .null {
        throw DecodingError.valueNotFound(
          [Any].self,
          DecodingError.Context(
            codingPath: codingPath,
            debugDescription: "Cannot get unkeyed decoding container -- found null value instead"))
      }
      throw reading.mismatch([Any].self, at: index, path: codingPath)
    }
    return UnkeyedTapeContainer(decoder: self)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    SingleTapeContainer(decoder: self)
  }
}

/// The members of one object.
struct KeyedTapeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  /// The object's decoder: its tape index and its node of the coding path.
  let decoder: TapeDecoder
  /// The decoder's reading, held here too: read per member without going through the decoder.
  let reading: CodableReading
  let object: Int
  let keys: ConvertedKeys?

  init(decoder: TapeDecoder, keys: ConvertedKeys?) {
    self.decoder = decoder
    reading = decoder.reading
    object = decoder.index
    self.keys = keys
  }

  var codingPath: [any CodingKey] { decoder.codingPath }

  /// The keys of the members (under the key strategy), each once: the first of members whose
  /// keys are equal strings, in the payload's order.
  var allKeys: [Key] {
    reading.checkLifetime()
    if let keys { return keys.names.compactMap { Key(stringValue: $0) } }
    var result: [Key] = []
    var seen: Set<String> = []
    var cursor = object + 1
    for _ in 0..<reading.tape.count(at: object) {
      let name = reading.tape.string(at: cursor)
      if seen.insert(name).inserted, let key = Key(stringValue: name) { result.append(key) }
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
      throw keyNotFoundError(key, path: codingPath)
    }
    return index
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

  func decodeNil(forKey key: Key) throws -> Bool {
    reading.tape[try valueIndex(key)].kind == .null
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try reading.readBool(at: try valueIndex(key), path: codingPath + [key])
  }
  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try reading.readString(at: try valueIndex(key), path: codingPath + [key])
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try reading.readFloat(Double.self, at: try valueIndex(key), path: codingPath + [key])
  }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try reading.readFloat(Float.self, at: try valueIndex(key), path: codingPath + [key])
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    try integer(Int.self, key)
  }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
    try integer(Int8.self, key)
  }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
    try integer(Int16.self, key)
  }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
    try integer(Int32.self, key)
  }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    try integer(Int64.self, key)
  }
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 {
    try integer(Int128.self, key)
  }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
    try integer(UInt.self, key)
  }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
    try integer(UInt8.self, key)
  }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    try integer(UInt16.self, key)
  }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    try integer(UInt32.self, key)
  }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    try integer(UInt64.self, key)
  }
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 {
    try integer(UInt128.self, key)
  }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    guard let index = lookUp(key) else { throw keyNotFoundError(key, path: codingPath) }
    return try reading.readValue(type, at: index, parent: decoder, key: key)
  }

  /// The member `key`'s tape index (lifetime checked), out of line: the generic members call
  /// it once per level of a recursive model, whose frames must stay small (512 levels in a
  /// 512 KB stack); the lookup's own frame is then not on the stack during the recursion.
  @inline(never)
  private func lookUp(_ key: Key) -> Int? {
    reading.checkLifetime()
    return reading.member(of: object, key: key, keys: keys, depth: decoder.depth)
  }

  @inline(__always)
  private func integer<T: FixedWidthInteger>(_ type: T.Type, _ key: Key) throws -> T {
    try reading.readInteger(T.self, at: try valueIndex(key), path: codingPath + [key])
  }

  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    guard let index = presentIndex(key) else { return nil }
    return try reading.readBool(at: index, path: codingPath + [key])
  }
  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    guard let index = presentIndex(key) else { return nil }
    return try reading.readString(at: index, path: codingPath + [key])
  }
  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
    guard let index = presentIndex(key) else { return nil }
    return try reading.readFloat(Double.self, at: index, path: codingPath + [key])
  }
  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
    guard let index = presentIndex(key) else { return nil }
    return try reading.readInteger(Int.self, at: index, path: codingPath + [key])
  }
  func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
    guard let index = presentIndex(key) else { return nil }
    return try reading.readInteger(Int64.self, at: index, path: codingPath + [key])
  }
  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    guard let index = lookUp(key), reading.tape[index].kind != .null else { return nil }
    return try reading.readValue(type, at: index, parent: decoder, key: key)
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try TapeDecoder(reading, index: try valueIndex(key), parent: decoder, key: key)
      .container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try TapeDecoder(reading, index: try valueIndex(key), parent: decoder, key: key)
      .unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    superDecoder(key: AnyCodingKey.super)
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    superDecoder(key: key)
  }

  /// The decoder of the member `key`, or of `null` when there is none (as `JSONDecoder` gives
  /// it: the super value of a type written without one decodes as absent).
  private func superDecoder(key: some CodingKey) -> any Decoder {
    reading.checkLifetime()
    guard let index = reading.member(of: object, key: key, keys: keys, depth: decoder.depth) else {
      return TapeDecoder(
        CodableReading.null(options: reading.options), index: 0, parent: decoder, key: key)
    }
    return TapeDecoder(reading, index: index, parent: decoder, key: key)
  }
}

/// `.keyNotFound` for `key` (`JSONDecoder`'s text).
private func keyNotFoundError(_ key: some CodingKey, path: [any CodingKey]) -> DecodingError {
  .keyNotFound(
    key,
    DecodingError.Context(
      codingPath: path,
      debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
}

/// The elements of one array, read in order. A read that fails leaves the container where it
/// was (as `JSONDecoder`'s does): the same element can be read again as another type.
struct UnkeyedTapeContainer: UnkeyedDecodingContainer {
  /// The array's decoder: its reading and its node of the coding path.
  let decoder: TapeDecoder
  let count: Int?
  private(set) var currentIndex = 0
  /// The tape index of the next element.
  private var cursor: Int

  var reading: CodableReading { decoder.reading }
  var codingPath: [any CodingKey] { decoder.codingPath }

  init(decoder: TapeDecoder) {
    self.decoder = decoder
    count = decoder.reading.tape.count(at: decoder.index)
    cursor = decoder.index + 1
  }

  var isAtEnd: Bool { currentIndex >= (count ?? 0) }

  /// The next element's tape index; `.valueNotFound` with `message` at the end (the text
  /// `JSONDecoder` gives).
  @inline(__always)
  private func next(_ type: Any.Type, message: String = "Unkeyed container is at end.") throws
    -> Int
  {
    reading.checkLifetime()
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        type,
        DecodingError.Context(
          codingPath: codingPath + [IndexKey(currentIndex)], debugDescription: message))
    }
    return cursor
  }

  /// Moves past the element just read.
  @inline(__always)
  private mutating func advance() {
    cursor = reading.tape.next(after: cursor)
    currentIndex += 1
  }

  mutating func decodeNil() throws -> Bool {
    let index = try next(Never.self)
    guard reading.tape[index].kind == .null else { return false }
    advance()
    return true
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool {
    let value = try reading.readBool(at: try next(type), path: elementPath)
    advance()
    return value
  }
  mutating func decode(_ type: String.Type) throws -> String {
    let value = try reading.readString(at: try next(type), path: elementPath)
    advance()
    return value
  }
  mutating func decode(_ type: Double.Type) throws -> Double {
    let value = try reading.readFloat(Double.self, at: try next(type), path: elementPath)
    advance()
    return value
  }
  mutating func decode(_ type: Float.Type) throws -> Float {
    let value = try reading.readFloat(Float.self, at: try next(type), path: elementPath)
    advance()
    return value
  }
  mutating func decode(_ type: Int.Type) throws -> Int { try integer(Int.self) }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(Int8.self) }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(Int16.self) }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(Int32.self) }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(Int64.self) }
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func decode(_ type: Int128.Type) throws -> Int128 { try integer(Int128.self) }
  mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(UInt.self) }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(UInt8.self) }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(UInt16.self) }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(UInt32.self) }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(UInt64.self) }
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try integer(UInt128.self) }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let index = try next(type)
    let value = try reading.readValue(
      type, at: index, parent: decoder, key: IndexKey(currentIndex))
    advance()
    return value
  }

  /// `JSONDecoder`'s: `nil` at the end or for `null`, and the container moves on either way
  /// (past its end too).
  mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
    guard let index = presentIndex() else { return nil }
    let value = try reading.readValue(
      type, at: index, parent: decoder, key: IndexKey(currentIndex))
    advance()
    return value
  }
  mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? {
    guard let index = presentIndex() else { return nil }
    let value = try reading.readBool(at: index, path: elementPath)
    advance()
    return value
  }
  mutating func decodeIfPresent(_ type: String.Type) throws -> String? {
    guard let index = presentIndex() else { return nil }
    let value = try reading.readString(at: index, path: elementPath)
    advance()
    return value
  }
  mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? {
    guard let index = presentIndex() else { return nil }
    let value = try reading.readFloat(Double.self, at: index, path: elementPath)
    advance()
    return value
  }
  mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? {
    guard let index = presentIndex() else { return nil }
    let value = try reading.readFloat(Float.self, at: index, path: elementPath)
    advance()
    return value
  }
  mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? { try integerIfPresent(type) }
  mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? { try integerIfPresent(type) }
  mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? {
    try integerIfPresent(type)
  }
  mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? {
    try integerIfPresent(type)
  }
  mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? {
    try integerIfPresent(type)
  }
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func decodeIfPresent(_ type: Int128.Type) throws -> Int128? {
    try integerIfPresent(type)
  }
  mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? { try integerIfPresent(type) }
  mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? {
    try integerIfPresent(type)
  }
  mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? {
    try integerIfPresent(type)
  }
  mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? {
    try integerIfPresent(type)
  }
  mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? {
    try integerIfPresent(type)
  }
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func decodeIfPresent(_ type: UInt128.Type) throws -> UInt128? {
    try integerIfPresent(type)
  }

  private mutating func integerIfPresent<T: FixedWidthInteger>(_ type: T.Type) throws -> T? {
    guard let index = presentIndex() else { return nil }
    let value = try reading.readInteger(T.self, at: index, path: elementPath)
    advance()
    return value
  }

  /// The next element's tape index when it is there and not `null`; otherwise moves on (past
  /// the end too, as `JSONDecoder`'s container does) and returns `nil`.
  private mutating func presentIndex() -> Int? {
    reading.checkLifetime()
    guard !isAtEnd, reading.tape[cursor].kind != .null else {
      if !isAtEnd { cursor = reading.tape.next(after: cursor) }
      currentIndex += 1
      return nil
    }
    return cursor
  }

  @inline(__always)
  private mutating func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
    let value = try reading.readInteger(T.self, at: try next(type), path: elementPath)
    advance()
    return value
  }

  /// The coding path of the next element (built for an error).
  private var elementPath: [any CodingKey] { codingPath + [IndexKey(currentIndex)] }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let index = try next(KeyedDecodingContainer<NestedKey>.self)
    let container = try TapeDecoder(
      reading, index: index, parent: decoder, key: IndexKey(currentIndex)
    ).container(keyedBy: type)
    advance()
    return container
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let index = try next((any UnkeyedDecodingContainer).self)
    let container = try TapeDecoder(
      reading, index: index, parent: decoder, key: IndexKey(currentIndex)
    ).unkeyedContainer()
    advance()
    return container
  }

  mutating func superDecoder() throws -> any Decoder {
    let index = try next(
      (any Decoder).self, message: "Cannot get superDecoder() -- unkeyed container is at end.")
    let element = TapeDecoder(reading, index: index, parent: decoder, key: IndexKey(currentIndex))
    advance()
    return element
  }
}

/// One value.
struct SingleTapeContainer: SingleValueDecodingContainer {
  let decoder: TapeDecoder
  var reading: CodableReading { decoder.reading }
  var index: Int { decoder.index }
  var codingPath: [any CodingKey] { decoder.codingPath }

  func decodeNil() -> Bool {
    reading.checkLifetime()
    return reading.tape[index].kind == .null
  }

  func decode(_ type: Bool.Type) throws -> Bool {
    reading.checkLifetime()
    return try reading.readBool(at: index, path: codingPath)
  }
  func decode(_ type: String.Type) throws -> String {
    reading.checkLifetime()
    return try reading.readString(at: index, path: codingPath)
  }
  func decode(_ type: Double.Type) throws -> Double {
    reading.checkLifetime()
    return try reading.readFloat(Double.self, at: index, path: codingPath)
  }
  func decode(_ type: Float.Type) throws -> Float {
    reading.checkLifetime()
    return try reading.readFloat(Float.self, at: index, path: codingPath)
  }
  func decode(_ type: Int.Type) throws -> Int { try integer(Int.self) }
  func decode(_ type: Int8.Type) throws -> Int8 { try integer(Int8.self) }
  func decode(_ type: Int16.Type) throws -> Int16 { try integer(Int16.self) }
  func decode(_ type: Int32.Type) throws -> Int32 { try integer(Int32.self) }
  func decode(_ type: Int64.Type) throws -> Int64 { try integer(Int64.self) }
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  func decode(_ type: Int128.Type) throws -> Int128 { try integer(Int128.self) }
  func decode(_ type: UInt.Type) throws -> UInt { try integer(UInt.self) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(UInt8.self) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(UInt16.self) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(UInt32.self) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(UInt64.self) }
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  func decode(_ type: UInt128.Type) throws -> UInt128 { try integer(UInt128.self) }
  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try reading.decode(type, at: index, parent: decoder.parent, key: decoder.key)
  }

  private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
    reading.checkLifetime()
    return try reading.readInteger(T.self, at: index, path: codingPath)
  }
}
