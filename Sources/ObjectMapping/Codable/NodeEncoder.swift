import Foundation

/// An `Encodable` encoder producing a ``Node``: how `Codable` values are written inside mappings
/// and by ``FastJSONEncoder``, with `JSONEncoder`'s strategies.
struct _NodeEncodingSettings: @unchecked Sendable {
  // @unchecked: JSONEncoder's strategy types and `userInfo` are not all marked Sendable; a
  // settings value is never mutated once a coder or a rule holds it.
  var keyEncodingStrategy: JSONEncoder.KeyEncodingStrategy = .useDefaultKeys
  var dateEncodingStrategy: JSONEncoder.DateEncodingStrategy = .deferredToDate
  var dataEncodingStrategy: JSONEncoder.DataEncodingStrategy = .base64
  var nonConformingFloatEncodingStrategy: JSONEncoder.NonConformingFloatEncodingStrategy = .throw
  var userInfo: [CodingUserInfoKey: Any] = [:]

  /// `value` as a node.
  func node(of value: some Encodable) throws -> Node {
    try _NodeEncoder.box(value, settings: self, parent: [], key: nil)
  }
}

/// A container's storage while it is being filled: a class, so nested containers and
/// `superEncoder`s handed out write into their parent. Values encoded whole are kept as finished
/// nodes; only nested containers get boxes of their own.
final class _NodeBox {
  /// A member or element: finished, or a nested container still being filled.
  enum Slot {
    case node(Node)
    case box(_NodeBox)

    var node: Node {
      switch self {
      case .node(let node): return node
      case .box(let box): return box.node
      }
    }
  }

  enum Content {
    case empty
    case value(Node)
    case object([String], [String: Slot])
    case array([Slot])
  }

  var content: Content = .empty

  /// The finished node; an empty box (nothing encoded) is an empty object, as `JSONEncoder`
  /// writes it.
  var node: Node {
    switch content {
    case .empty: return .object([])
    case .value(let node): return node
    case .object(let keys, let members):
      return .object(keys.compactMap { key in members[key].map { Node.Member(key, $0.node) } })
    case .array(let elements): return .array(elements.map(\.node))
    }
  }

  /// Sets the member `key` (a later value for the same key replaces the earlier one).
  func setMember(_ key: String, _ slot: Slot) {
    guard case .object(var keys, var members) = content else {
      content = .object([key], [key: slot])
      return
    }
    // Released from `content` first, so that the collections are changed in place.
    content = .empty
    if members.updateValue(slot, forKey: key) == nil { keys.append(key) }
    content = .object(keys, members)
  }

  /// A nested container's box for the member `key`.
  func memberBox(_ key: String) -> _NodeBox {
    if case .object(_, let members) = content, case .box(let box)? = members[key] { return box }
    let box = _NodeBox()
    setMember(key, .box(box))
    return box
  }

  /// Appends an element.
  func append(_ slot: Slot) {
    guard case .array(var elements) = content else {
      content = .array([slot])
      return
    }
    content = .empty
    elements.append(slot)
    content = .array(elements)
  }

  /// A nested container's box, appended as an element.
  func appendBox() -> _NodeBox {
    let box = _NodeBox()
    append(.box(box))
    return box
  }

  func makeObject() {
    if case .object = content { return }
    content = .object([], [:])
  }

  func makeArray() {
    if case .array = content { return }
    content = .array([])
  }

  var elementCount: Int {
    if case .array(let elements) = content { return elements.count }
    return 0
  }
}

final class _NodeEncoder: Encoder {
  let settings: _NodeEncodingSettings
  let box: _NodeBox
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { settings.userInfo }

  init(settings: _NodeEncodingSettings, box: _NodeBox, path: [any CodingKey]) {
    self.settings = settings
    self.box = box
    codingPath = path
  }

  /// `value` encoded as a node: scalars and the types `JSONEncoder` writes specially directly,
  /// anything else through its `encode(to:)`. The coding path is built only when needed.
  static func box(
    _ value: some Encodable, settings: _NodeEncodingSettings, parent: [any CodingKey],
    key: (any CodingKey)?
  ) throws -> Node {
    if let node = try settings.special(value, path: _path(parent, key)) { return node }
    let box = _NodeBox()
    try value.encode(to: _NodeEncoder(settings: settings, box: box, path: _path(parent, key)))
    return box.node
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    box.makeObject()
    return KeyedEncodingContainer(_KeyedNodeContainer<Key>(encoder: self, box: box))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    box.makeArray()
    return _UnkeyedNodeContainer(encoder: self, box: box)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    _SingleNodeContainer(encoder: self)
  }

  /// `value` as a node, at `key` below this encoder's path.
  func node(of value: some Encodable, key: (any CodingKey)?) throws -> Node {
    try Self.box(value, settings: settings, parent: codingPath, key: key)
  }
}

extension _NodeEncodingSettings {
  /// The node of a scalar, a date, data, a URL or a decimal; `nil` for other types. The types
  /// are told apart by their metadata (no dynamic cast per value).
  @inline(__always)
  func special<T: Encodable>(_ value: T, path: @autoclosure () -> [any CodingKey]) throws
    -> Node?
  {
    if let value = _sameType(value, as: String.self) { return .string(value) }
    if let value = _sameType(value, as: Int.self) { return .integer(Int64(value)) }
    if let value = _sameType(value, as: Double.self) { return try float(value, path: path()) }
    if let value = _sameType(value, as: Bool.self) { return .bool(value) }
    if let value = _sameType(value, as: Int64.self) { return .integer(value) }
    return try specialRare(value, path: path())
  }

  /// ``special(_:path:)`` for the less common types.
  private func specialRare<T: Encodable>(_ value: T, path: @autoclosure () -> [any CodingKey])
    throws -> Node?
  {
    if let value = _sameType(value, as: Float.self) {
      return try float(Double(value), path: path())
    }
    if let value = _sameType(value, as: Date.self) { return try date(value, path: path()) }
    if let value = _sameType(value, as: Data.self) { return try data(value, path: path()) }
    if let value = _sameType(value, as: URL.self) { return .string(value.absoluteString) }
    if let value = _sameType(value, as: Decimal.self) { return .decimal("\(value)") }
    if let value = _sameType(value, as: Int8.self) { return .integer(Int64(value)) }
    if let value = _sameType(value, as: Int16.self) { return .integer(Int64(value)) }
    if let value = _sameType(value, as: Int32.self) { return .integer(Int64(value)) }
    if let value = _sameType(value, as: UInt8.self) { return .integer(Int64(value)) }
    if let value = _sameType(value, as: UInt16.self) { return .integer(Int64(value)) }
    if let value = _sameType(value, as: UInt32.self) { return .integer(Int64(value)) }
    if let value = _sameType(value, as: UInt.self) { return Self.unsigned(UInt64(value)) }
    if let value = _sameType(value, as: UInt64.self) { return Self.unsigned(value) }
    return nil
  }

  private static func unsigned(_ value: UInt64) -> Node {
    if let exact = Int64(exactly: value) { return .integer(exact) }
    return .decimal("\(value)")
  }

  func float(_ value: Double, path: [any CodingKey]) throws -> Node {
    guard !value.isFinite else { return .double(value) }
    guard
      case .convertToString(let positive, let negative, let nan) =
        nonConformingFloatEncodingStrategy
    else {
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: path, debugDescription: "Unable to encode \(value) directly in JSON."))
    }
    return .string(value.isNaN ? nan : value > 0 ? positive : negative)
  }

  func date(_ value: Date, path: [any CodingKey]) throws -> Node {
    switch dateEncodingStrategy {
    case .deferredToDate:
      return .double(value.timeIntervalSinceReferenceDate)
    case .secondsSince1970:
      return .double(value.timeIntervalSince1970)
    case .millisecondsSince1970:
      return .double(value.timeIntervalSince1970 * 1000)
    case .iso8601:
      return .string(try _ISO8601.format(value, unitsPerSecond: 1))
    case .custom(let closure):
      let box = _NodeBox()
      try closure(value, _NodeEncoder(settings: self, box: box, path: path))
      return box.node
    @unknown default:
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: path,
          debugDescription: "this date encoding strategy is not supported; use .custom"))
    }
  }

  func data(_ value: Data, path: [any CodingKey]) throws -> Node {
    switch dataEncodingStrategy {
    case .base64:
      return .string(value.base64EncodedString())
    case .deferredToData:
      return .array(value.map { .integer(Int64($0)) })
    case .custom(let closure):
      let box = _NodeBox()
      try closure(value, _NodeEncoder(settings: self, box: box, path: path))
      return box.node
    @unknown default:
      return .string(value.base64EncodedString())
    }
  }

  /// The output key for `key` under the key strategy.
  func outputKey(_ key: some CodingKey, path: [any CodingKey]) -> String {
    switch keyEncodingStrategy {
    case .useDefaultKeys: return key.stringValue
    case .convertToSnakeCase: return _convertToSnakeCase(key.stringValue)
    case .custom(let closure): return closure(path + [key]).stringValue
    @unknown default: return key.stringValue
    }
  }
}

/// `JSONEncoder`'s `convertToSnakeCase`: `createdAt` -> `created_at`, `URLString` ->
/// `url_string`; leading and trailing underscores are kept.
func _convertToSnakeCase(_ key: String) -> String {
  guard !key.isEmpty else { return key }
  var words: [Range<String.Index>] = []
  var wordStart = key.startIndex
  var searchRange = key.index(after: wordStart)..<key.endIndex
  while let upper = key.rangeOfCharacter(from: .uppercaseLetters, options: [], range: searchRange) {
    let untilUpper = wordStart..<upper.lowerBound
    words.append(untilUpper)
    searchRange = upper.lowerBound..<searchRange.upperBound
    guard let lower = key.rangeOfCharacter(from: .lowercaseLetters, options: [], range: searchRange)
    else {
      wordStart = searchRange.lowerBound
      break
    }
    let nextCharacterAfterCapital = key.index(after: upper.lowerBound)
    if lower.lowerBound == nextCharacterAfterCapital {
      wordStart = upper.lowerBound
    } else {
      let beforeLowerIndex = key.index(before: lower.lowerBound)
      words.append(upper.lowerBound..<beforeLowerIndex)
      wordStart = beforeLowerIndex
    }
    searchRange = lower.upperBound..<searchRange.upperBound
  }
  words.append(wordStart..<searchRange.upperBound)
  return words.map { key[$0].lowercased() }.joined(separator: "_")
}

struct _KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let encoder: _NodeEncoder
  let box: _NodeBox
  var codingPath: [any CodingKey] { encoder.codingPath }

  private func outputKey(_ key: Key) -> String {
    encoder.settings.outputKey(key, path: codingPath)
  }

  private func member(_ key: Key) -> _NodeBox { box.memberBox(outputKey(key)) }

  mutating func encodeNil(forKey key: Key) throws { box.setMember(outputKey(key), .node(.null)) }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    box.setMember(outputKey(key), .node(try encoder.node(of: value, key: key)))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    _NodeEncoder(settings: encoder.settings, box: member(key), path: codingPath + [key])
      .container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    _NodeEncoder(settings: encoder.settings, box: member(key), path: codingPath + [key])
      .unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    _NodeEncoder(
      settings: encoder.settings, box: box.memberBox("super"),
      path: codingPath + [_AnyCodingKey.super]
    )
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    _NodeEncoder(settings: encoder.settings, box: member(key), path: codingPath + [key])
  }
}

struct _UnkeyedNodeContainer: UnkeyedEncodingContainer {
  let encoder: _NodeEncoder
  let box: _NodeBox
  var codingPath: [any CodingKey] { encoder.codingPath }
  var count: Int { box.elementCount }

  mutating func encodeNil() throws { box.append(.node(.null)) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    box.append(.node(try encoder.node(of: value, key: _IndexKey(count))))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    let path = codingPath + [_IndexKey(count)]
    return _NodeEncoder(settings: encoder.settings, box: box.appendBox(), path: path)
      .container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let path = codingPath + [_IndexKey(count)]
    return _NodeEncoder(settings: encoder.settings, box: box.appendBox(), path: path)
      .unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    let path = codingPath + [_IndexKey(count)]
    return _NodeEncoder(settings: encoder.settings, box: box.appendBox(), path: path)
  }
}

struct _SingleNodeContainer: SingleValueEncodingContainer {
  let encoder: _NodeEncoder
  var codingPath: [any CodingKey] { encoder.codingPath }

  mutating func encodeNil() throws { encoder.box.content = .value(.null) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    encoder.box.content = .value(try encoder.node(of: value, key: nil))
  }
}

// MARK: Node as Codable

extension Node: Codable {
  /// Reads any value from any decoder (`JSONDecoder`, ``FastJSONDecoder``, a property list
  /// decoder): a `Node` property of a `Codable` model holds whatever the payload has there.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int64.self) {
      self = .integer(value)
    } else if let value = try? container.decode(Double.self) {
      self = .double(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([Node].self) {
      self = .array(value)
    } else {
      let members = try decoder.container(keyedBy: _AnyCodingKey.self)
      self = .object(
        try members.allKeys.map {
          Node.Member($0.stringValue, try members.decode(Node.self, forKey: $0))
        })
    }
  }

  /// Writes the node to any encoder (numbers as numbers, a decimal's exact text as a `Decimal`).
  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    case .bool(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .integer(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .double(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .decimal(let text):
      var container = encoder.singleValueContainer()
      if let encoder = encoder as? _NodeEncoder {
        encoder.box.content = .value(.decimal(text))
      } else if let value = Decimal(string: text) {
        try container.encode(value)
      } else {
        try container.encode(text)
      }
    case .string(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .array(let elements):
      var container = encoder.unkeyedContainer()
      for element in elements { try container.encode(element) }
    case .object(let members):
      var container = encoder.container(keyedBy: _AnyCodingKey.self)
      for member in members {
        try container.encode(member.value, forKey: _AnyCodingKey(stringValue: member.key))
      }
    }
  }
}
