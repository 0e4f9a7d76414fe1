import Foundation

/// A ``FastJSONEncoder``'s settings as its properties set them.
struct EncodingOptions: Sendable {
  var outputFormatting: JSONEncoder.OutputFormatting = []
  var keyEncodingStrategy: JSONEncoder.KeyEncodingStrategy = .useDefaultKeys
  var dateEncodingStrategy: JSONEncoder.DateEncodingStrategy = .deferredToDate
  var dataEncodingStrategy: JSONEncoder.DataEncodingStrategy = .base64
  var nonConformingFloatEncodingStrategy: JSONEncoder.NonConformingFloatEncodingStrategy = .throw
  var errorReporting = FastJSONEncoder.ErrorReporting.encodingError
  var userInfo: [CodingUserInfoKey: any Sendable] = [:]
}

/// A ``FastJSONEncoder``'s settings, as one call reads them: how `Codable` values are written
/// inside mappings and by the encoder, with `JSONEncoder`'s strategies. A class, so that the
/// encoders and containers of a call share one copy (a reference per encoder, not the whole
/// settings per nested value).
final class NodeEncodingSettings: @unchecked Sendable {
  // @unchecked: immutable; `userInfo` is kept as `Encoder.userInfo` hands it out,
  // `[CodingUserInfoKey: Any]`, which is not Sendable.
  let outputFormatting: JSONEncoder.OutputFormatting
  let keyEncodingStrategy: JSONEncoder.KeyEncodingStrategy
  let dateEncodingStrategy: JSONEncoder.DateEncodingStrategy
  let dataEncodingStrategy: JSONEncoder.DataEncodingStrategy
  let nonConformingFloatEncodingStrategy: JSONEncoder.NonConformingFloatEncodingStrategy
  let errorReporting: FastJSONEncoder.ErrorReporting
  /// The user's values as `Encoder.userInfo` gives them.
  let userInfo: [CodingUserInfoKey: Any]

  init(_ options: EncodingOptions = EncodingOptions()) {
    outputFormatting = options.outputFormatting
    keyEncodingStrategy = options.keyEncodingStrategy
    dateEncodingStrategy = options.dateEncodingStrategy
    dataEncodingStrategy = options.dataEncodingStrategy
    nonConformingFloatEncodingStrategy = options.nonConformingFloatEncodingStrategy
    errorReporting = options.errorReporting
    userInfo = options.userInfo.mapValues { $0 as Any }
  }

  /// `value` as a node.
  func node(of value: some Encodable) throws -> Node {
    do {
      return try NodeEncoder.box(value, settings: self, parent: [], key: nil, depth: 0)
    } catch is TooDeep {
      throw Self.tooDeep(value)
    }
  }

  /// `value` as a node, its keyed container leaving out the members whose coding keys are
  /// `skipped` (their values are not encoded): a derived mapping's model, whose overridden
  /// members the overrides write.
  func node(of value: some Encodable, skipping skipped: [String]) throws -> Node {
    guard !skipped.isEmpty else { return try node(of: value) }
    let box = NodeBox()
    do {
      try value.encode(to: NodeEncoder(settings: self, box: box, path: [], skipping: skipped))
      guard !box.tooDeep else { throw TooDeep() }
    } catch is TooDeep {
      throw Self.tooDeep(value)
    }
    return box.node
  }

  /// The top-level `value` as a node: `JSONEncoder`'s error when the value's own code wrote
  /// nothing.
  func topLevelNode<T: Encodable>(_ value: T) throws -> Node {
    if Self.writesSpecially(T.self) || Self.isScalar(T.self) { return try node(of: value) }
    if let dictionary = stringKeyedDictionary(value) {
      do {
        return try dictionary.node(settings: self, path: [])
      } catch is TooDeep {
        throw Self.tooDeep(value)
      }
    }
    return try topLevelNode(value) { try value.encode(to: $0) }
  }

  /// `value` when it is a `[String: V]` and a key strategy is set: a dictionary whose keys
  /// `JSONEncoder` writes as they are, at the top level as anywhere else; `nil` otherwise.
  func stringKeyedDictionary<T: Encodable>(_ value: T) -> (any StringKeyedEncodable)? {
    if case .useDefaultKeys = keyEncodingStrategy { return nil }
    return value as? any StringKeyedEncodable
  }

  /// ``topLevelNode(_:)`` for a value whose encoding is `encode` (a configured one).
  func topLevelNode<T>(_ value: T, encode: (any Encoder) throws -> Void) throws -> Node {
    let box = NodeBox()
    do {
      try encode(NodeEncoder(settings: self, box: box, path: []))
      guard !box.tooDeep else { throw TooDeep() }
    } catch is TooDeep {
      throw Self.tooDeep(value)
    }
    guard case .empty = box.content else { return box.node }
    throw Self.wroteNothing(value)
  }

  /// Whether `JSONEncoder` writes a value of type `T` itself rather than through its
  /// `encode(to:)` (or the encoder writes it directly): the other fixed-width numbers, dates,
  /// data, URLs, decimals, nodes. The types are told apart by their metadata.
  @inline(__always)
  static func writesSpecially<T>(_ type: T.Type) -> Bool {
    if T.self == Int64.self || T.self == Float.self || T.self == Date.self || T.self == Data.self
      || T.self == URL.self || T.self == Decimal.self || T.self == Node.self
      || T.self == Int32.self || T.self == Int16.self || T.self == Int8.self || T.self == UInt.self
      || T.self == UInt8.self || T.self == UInt16.self || T.self == UInt32.self
      || T.self == UInt64.self
    {
      return true
    }
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
      return T.self == Int128.self || T.self == UInt128.self
    }
    return false
  }
}

/// A container's storage while it is being filled: a class, so nested containers and
/// `superEncoder`s handed out write into their parent. Values encoded whole are kept as finished
/// nodes; only nested containers get boxes of their own.
final class NodeBox {
  /// Set on the box of a value (``NodeEncoder/root``) when its `encode(to:)` asked for a
  /// container nested past ``StreamEncoder/maximumDepth``: the value is the too-deep error.
  var tooDeep = false

  /// A member or element: finished, or a nested container still being filled.
  enum Slot {
    case node(Node)
    case box(NodeBox)

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

  /// A nested container's box for the member `key`: the box already there, or one holding the
  /// object or array already written there (`JSONEncoder` amends it), or a new one.
  func memberBox(_ key: String) -> NodeBox {
    if case .object(_, let members) = content, let slot = members[key] {
      switch slot {
      case .box(let box): return box
      case .node(let node):
        let box = NodeBox(amending: node)
        setMember(key, .box(box))
        return box
      }
    }
    let box = NodeBox()
    setMember(key, .box(box))
    return box
  }

  init() {}

  /// A box holding `node`'s members or elements, to be added to.
  init(amending node: Node) {
    switch node {
    case .object(let members):
      var keys: [String] = []
      var slots: [String: Slot] = [:]
      for member in members where slots[member.key] == nil {
        keys.append(member.key)
        slots[member.key] = .node(member.value)
      }
      content = .object(keys, slots)
    case .array(let elements):
      content = .array(elements.map { .node($0) })
    default:
      content = .empty
    }
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
  func appendBox() -> NodeBox {
    let box = NodeBox()
    append(.box(box))
    return box
  }

  /// Makes the box an object, keeping an object written before as a single value (as
  /// `JSONEncoder` amends it); `false`, the box left as it is, when it holds an array
  /// container (see ``ConflictingKeyedContainer``).
  @discardableResult
  func makeObject() -> Bool {
    switch content {
    case .object: return true
    case .array: return false
    case .value(let node) where node.isObject:
      content = NodeBox(amending: node).content
    default:
      content = .object([], [:])
    }
    return true
  }

  /// Makes the box an array, keeping an array written before as a single value; `false`, the
  /// box left as it is, when it holds an object container.
  func makeArray() -> Bool {
    switch content {
    case .array: return true
    case .object: return false
    case .value(let node) where node.isArray:
      content = NodeBox(amending: node).content
    default:
      content = .array([])
    }
    return true
  }

  var elementCount: Int {
    if case .array(let elements) = content { return elements.count }
    return 0
  }
}

extension Node {
  fileprivate var isObject: Bool {
    if case .object = self { return true }
    return false
  }

  fileprivate var isArray: Bool {
    if case .array = self { return true }
    return false
  }
}

final class NodeEncoder: Encoder {
  let settings: NodeEncodingSettings
  let box: NodeBox
  let codingPath: [any CodingKey]
  /// How many containers and `encode(to:)` calls hold this encoder's value: past
  /// ``StreamEncoder/maximumDepth``, ``box(_:settings:parent:key:depth:)`` throws
  /// ``TooDeep`` instead of recursing, so a value too deep for JSON, a reference cycle or a chain
  /// of single-value containers (whose coding path does not grow) ends with the too-deep
  /// error, not a stack overflow.
  let depth: Int
  /// The box of the value whose `encode(to:)` this encoder serves (its own box, or the one its
  /// container is nested in): marked ``NodeBox/tooDeep`` by a container nested too deep.
  let root: NodeBox
  /// The coding keys (`stringValue`s) this encoder's keyed container does not write: the
  /// members a derived mapping's overrides write (``NodeEncodingSettings/node(of:skipping:)``).
  /// Their values are not encoded at all. Empty for every other encoder, nested ones included.
  let skipped: [String]
  var userInfo: [CodingUserInfoKey: Any] { settings.userInfo }

  init(
    settings: NodeEncodingSettings, box: NodeBox, path: [any CodingKey], depth: Int = 0,
    root: NodeBox? = nil, skipping skipped: [String] = []
  ) {
    self.settings = settings
    self.box = box
    codingPath = path
    self.depth = depth
    self.root = root ?? box
    self.skipped = skipped
  }

  /// Whether the keyed container leaves `key` out (see ``skipped``).
  @inline(__always)
  func skips(_ key: some CodingKey) -> Bool {
    !skipped.isEmpty && skipped.contains(key.stringValue)
  }

  /// An encoder for a container or super encoder nested in this one's, in the box `attach`
  /// adds to this one's. Past ``StreamEncoder/maximumDepth`` the box is a detached one (what it
  /// holds is never written) and ``root`` is marked too deep: a value that nests containers in
  /// a loop builds no tree deeper than the limit, which would take stack to turn into a `Node`
  /// and to free, and its encoding ends with the too-deep error.
  /// (Past the limit the path stops growing too: a loop of a million containers costs linear
  /// time.)
  func nested(path: @autoclosure () -> [any CodingKey], attach: () -> NodeBox) -> NodeEncoder {
    guard depth < StreamEncoder.maximumDepth else {
      root.tooDeep = true
      return NodeEncoder(
        settings: settings, box: NodeBox(), path: codingPath, depth: depth + 1, root: root)
    }
    // The path first: an unkeyed container's index is its count before `attach` adds the box.
    let path = path()
    return NodeEncoder(settings: settings, box: attach(), path: path, depth: depth + 1, root: root)
  }

  /// `value` encoded as a node: scalars and the types `JSONEncoder` writes specially directly,
  /// anything else through its `encode(to:)`. The coding path is built only when needed.
  ///
  /// Not inlined, and the special types tested out of line: it is on the stack once per level
  /// of a recursive model (512 levels must fit a 512 KB stack).
  @inline(never)
  static func box(
    _ value: some Encodable, settings: NodeEncodingSettings, parent: [any CodingKey],
    key: (any CodingKey)?, depth: Int
  ) throws -> Node {
    if let node = try settings.specialNode(value, parent: parent, key: key, depth: depth) {
      return node
    }
    // A value this deep opens a container below the 512 levels the writer accepts, or is a
    // chain of single-value containers as long: the recursion stops before it takes more stack.
    guard depth <= StreamEncoder.maximumDepth else { throw TooDeep() }
    let box = NodeBox()
    try value.encode(
      to: NodeEncoder(
        settings: settings, box: box, path: childCodingPath(parent, key), depth: depth))
    guard !box.tooDeep else { throw TooDeep() }
    return box.node
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    guard box.makeObject() else {
      return KeyedEncodingContainer(
        ConflictingKeyedContainer<Key>(
          conflict: ContainerConflict(codingPath, keyed: true, userInfo: userInfo)))
    }
    return KeyedEncodingContainer(KeyedNodeContainer<Key>(encoder: self, box: box))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    guard box.makeArray() else {
      return ConflictingUnkeyedContainer(
        conflict: ContainerConflict(codingPath, keyed: false, userInfo: userInfo))
    }
    return UnkeyedNodeContainer(encoder: self, box: box)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleNodeContainer(encoder: self)
  }

  /// `value` as a node, at `key` below this encoder's path.
  func node(of value: some Encodable, key: (any CodingKey)?) throws -> Node {
    try Self.box(value, settings: settings, parent: codingPath, key: key, depth: depth + 1)
  }
}

extension NodeEncodingSettings {
  /// ``special(_:path:)`` out of line, for ``NodeEncoder/box(_:settings:parent:key:)``.
  @inline(never)
  func specialNode<T: Encodable>(
    _ value: T, parent: [any CodingKey], key: (any CodingKey)?, depth: Int
  ) throws -> Node? {
    try special(value, path: childCodingPath(parent, key), depth: depth)
  }

  /// The node of a scalar, a date, data, a URL, a decimal, or (under a key strategy) a
  /// `[String: V]`, whose keys stay as they are; `nil` for other types. The types are told
  /// apart by their metadata (no dynamic cast per value). `depth` is the value's
  /// (``NodeEncoder/depth``), which a dictionary's members go on from.
  @inline(__always)
  func special<T: Encodable>(
    _ value: T, path: @autoclosure () -> [any CodingKey], depth: Int = 0
  ) throws -> Node? {
    if let value = sameType(value, as: String.self) { return .string(value) }
    if let value = sameType(value, as: Int.self) { return .integer(Int64(value)) }
    if let value = sameType(value, as: Double.self) { return try float(value, path: path()) }
    if let value = sameType(value, as: Bool.self) { return .bool(value) }
    if Self.writesSpecially(T.self) { return try specialRare(value, path: path()) }
    if case .useDefaultKeys = keyEncodingStrategy { return nil }
    guard let dictionary = value as? any StringKeyedEncodable else { return nil }
    return try dictionary.node(settings: self, path: path(), depth: depth)
  }

  /// ``special(_:path:)`` for the less common types.
  private func specialRare<T: Encodable>(_ value: T, path: @autoclosure () -> [any CodingKey])
    throws -> Node?
  {
    if let value = sameType(value, as: Int64.self) { return .integer(value) }
    if let value = sameType(value, as: Float.self) { return try float(value, path: path()) }
    if let value = sameType(value, as: Date.self) { return try date(value, path: path()) }
    if let value = sameType(value, as: Data.self) { return try data(value, path: path()) }
    if let value = sameType(value, as: URL.self) { return .string(value.absoluteString) }
    if let value = sameType(value, as: Decimal.self) {
      guard !value.isNaN else { throw Self.nanDecimal(path()) }
      return .decimal(value.description)
    }
    if let value = sameType(value, as: Node.self) { return value }
    if let value = sameType(value, as: Int8.self) { return .integer(Int64(value)) }
    if let value = sameType(value, as: Int16.self) { return .integer(Int64(value)) }
    if let value = sameType(value, as: Int32.self) { return .integer(Int64(value)) }
    if let value = sameType(value, as: UInt8.self) { return .integer(Int64(value)) }
    if let value = sameType(value, as: UInt16.self) { return .integer(Int64(value)) }
    if let value = sameType(value, as: UInt32.self) { return .integer(Int64(value)) }
    if let value = sameType(value, as: UInt.self) { return Self.integer(value) }
    if let value = sameType(value, as: UInt64.self) { return Self.integer(value) }
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
      if let value = sameType(value, as: Int128.self) { return Self.integer(value) }
      if let value = sameType(value, as: UInt128.self) { return Self.integer(value) }
    }
    return nil
  }

  /// The error for a `Decimal` NaN, which JSON cannot hold. (`JSONEncoder` writes `NaN`, which
  /// is not JSON: no JSON reader, its own included, reads it back.)
  static func nanDecimal(_ path: [any CodingKey]) -> EncodingError {
    .invalidValue(
      Decimal.nan,
      EncodingError.Context(
        codingPath: path, debugDescription: "Unable to encode Decimal.nan directly in JSON."))
  }

  /// An integer of any width: `.integer` when it fits 64 bits, its digits otherwise.
  static func integer(_ value: some FixedWidthInteger) -> Node {
    if let exact = Int64(exactly: value) { return .integer(exact) }
    return .decimal(value.description)
  }

  /// A floating-point value as `JSONEncoder` writes it (its shortest text, without `.0`), or
  /// as the non-conforming float strategy says.
  func float(_ value: Double, path: [any CodingKey]) throws -> Node {
    guard value.isFinite else { return try nonFinite(value, path: path) }
    return .decimal(_JSONWriter.encoderNumberText(value))
  }

  /// ``float(_:path:)-(Double,_)`` for a `Float`, in its own shortest form.
  func float(_ value: Float, path: [any CodingKey]) throws -> Node {
    guard value.isFinite else { return try nonFinite(value, path: path) }
    return .decimal(_JSONWriter.encoderNumberText(value))
  }

  /// An infinity or NaN: the string the strategy names for it, or `JSONEncoder`'s error.
  func nonFinite<F: BinaryFloatingPoint>(_ value: F, path: [any CodingKey]) throws -> Node {
    guard
      case .convertToString(let positive, let negative, let nan) =
        nonConformingFloatEncodingStrategy
    else {
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: path,
          debugDescription: "Unable to encode \(F.self).\(value) directly in JSON."
        ))
    }
    return .string(value.isNaN ? nan : value > 0 ? positive : negative)
  }

  /// `seconds` when it is finite; otherwise the error `JSONEncoder` throws for a date written
  /// as seconds or milliseconds since 1970, whatever the non-conforming float strategy (it
  /// applies that strategy to `.deferredToDate` only).
  func finiteDateNumber(_ seconds: Double, path: [any CodingKey]) throws -> Double {
    guard seconds.isFinite else {
      throw EncodingError.invalidValue(
        seconds,
        EncodingError.Context(
          codingPath: path, debugDescription: "Unable to encode Double.\(seconds) directly in JSON."
        ))
    }
    return seconds
  }

  func date(_ value: Date, path: [any CodingKey]) throws -> Node {
    switch dateEncodingStrategy {
    case .deferredToDate:
      return try float(value.timeIntervalSinceReferenceDate, path: path)
    case .secondsSince1970:
      return try float(finiteDateNumber(value.timeIntervalSince1970, path: path), path: path)
    case .millisecondsSince1970:
      return try float(
        finiteDateNumber(1000 * value.timeIntervalSince1970, path: path), path: path)
    case .iso8601:
      return .string(ISO8601Coding.string(from: value))
    case .custom(let closure):
      let box = NodeBox()
      try closure(value, NodeEncoder(settings: self, box: box, path: path))
      guard !box.tooDeep else { throw TooDeep() }
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
      let box = NodeBox()
      try closure(value, NodeEncoder(settings: self, box: box, path: path))
      guard !box.tooDeep else { throw TooDeep() }
      return box.node
    @unknown default:
      return .string(value.base64EncodedString())
    }
  }

  /// The output key for `key` under the key strategy.
  func outputKey(_ key: some CodingKey, path: [any CodingKey]) -> String {
    switch keyEncodingStrategy {
    case .useDefaultKeys: return key.stringValue
    case .convertToSnakeCase: return snakeCased(key.stringValue)
    case .custom(let closure): return closure(path + [key]).stringValue
    @unknown default: return key.stringValue
    }
  }
}

extension StringKeyedEncodable {
  /// The dictionary as an object node whose keys are as they are.
  func node(settings: NodeEncodingSettings, path: [any CodingKey], depth: Int = 0) throws
    -> Node
  {
    let encoder = NodeEncoder(settings: settings, box: NodeBox(), path: path, depth: depth)
    try writeMembers(to: encoder)
    guard !encoder.box.tooDeep else { throw TooDeep() }
    return encoder.box.node
  }
}

struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let encoder: NodeEncoder
  let box: NodeBox
  var codingPath: [any CodingKey] { encoder.codingPath }

  private func outputKey(_ key: Key) -> String {
    encoder.settings.outputKey(key, path: codingPath)
  }

  private func member(_ key: Key) -> NodeBox { box.memberBox(outputKey(key)) }

  mutating func encodeNil(forKey key: Key) throws {
    guard !encoder.skips(key) else { return }
    box.setMember(outputKey(key), .node(.null))
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func encode(_ value: Int128, forKey key: Key) throws {
    guard !encoder.skips(key) else { return }
    box.setMember(outputKey(key), .node(NodeEncodingSettings.integer(value)))
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func encode(_ value: UInt128, forKey key: Key) throws {
    guard !encoder.skips(key) else { return }
    box.setMember(outputKey(key), .node(NodeEncodingSettings.integer(value)))
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    guard !encoder.skips(key) else { return }
    box.setMember(outputKey(key), .node(try encoder.node(of: value, key: key)))
  }

  // Written here rather than through the protocol's default: one frame less per level of a
  // recursive model.
  mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
    guard let value, !encoder.skips(key) else { return }
    box.setMember(outputKey(key), .node(try encoder.node(of: value, key: key)))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    encoder.nested(path: codingPath + [key]) { encoder.skips(key) ? NodeBox() : member(key) }
      .container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    encoder.nested(path: codingPath + [key]) { encoder.skips(key) ? NodeBox() : member(key) }
      .unkeyedContainer()
  }

  // A super encoder's value replaces what its key held, as `JSONEncoder`'s does (it sets the
  // key when it is released): a new box, not the key's, so that a container of the other kind
  // than the key's is no conflict.

  mutating func superEncoder() -> any Encoder {
    superEncoder(AnyCodingKey.super)
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    superEncoder(key)
  }

  private func superEncoder(_ key: some CodingKey) -> any Encoder {
    return encoder.nested(path: codingPath + [key]) {
      let member = NodeBox()
      // A skipped member's super encoder writes into a box nothing holds.
      guard !encoder.skips(key) else { return member }
      box.setMember(encoder.settings.outputKey(key, path: codingPath), .box(member))
      return member
    }
  }
}

struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
  let encoder: NodeEncoder
  let box: NodeBox
  var codingPath: [any CodingKey] { encoder.codingPath }
  var count: Int { box.elementCount }

  mutating func encodeNil() throws { box.append(.node(.null)) }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func encode(_ value: Int128) throws {
    box.append(.node(NodeEncodingSettings.integer(value)))
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func encode(_ value: UInt128) throws {
    box.append(.node(NodeEncodingSettings.integer(value)))
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    box.append(.node(try encoder.node(of: value, key: IndexKey(count))))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    encoder.nested(path: codingPath + [IndexKey(count)]) { box.appendBox() }
      .container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    encoder.nested(path: codingPath + [IndexKey(count)]) { box.appendBox() }
      .unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    encoder.nested(path: codingPath + [IndexKey(count)]) { box.appendBox() }
  }
}

struct SingleNodeContainer: SingleValueEncodingContainer {
  let encoder: NodeEncoder
  var codingPath: [any CodingKey] { encoder.codingPath }

  mutating func encodeNil() throws { encoder.box.content = .value(.null) }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func encode(_ value: Int128) throws {
    encoder.box.content = .value(NodeEncodingSettings.integer(value))
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func encode(_ value: UInt128) throws {
    encoder.box.content = .value(NodeEncodingSettings.integer(value))
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    encoder.box.content = .value(try encoder.node(of: value, key: nil))
  }
}

/// Where a keyed and an unkeyed container were asked for on one encoder, or for one key.
/// `JSONEncoder` stops the program there (a precondition: "Attempt to push new unkeyed encoding
/// container when already previously encoded at this path"). Asking for a container cannot
/// throw, so the second container throws `EncodingError.invalidValue`, at its path, from each
/// write; the first one keeps its values and can still be written to. (The later container
/// replacing the earlier one lost the earlier one's values without a word.)
struct ContainerConflict {
  let codingPath: [any CodingKey]
  /// Whether the second container is keyed (the first one unkeyed).
  let keyed: Bool
  /// The encoder's `userInfo`, which its super encoders still give.
  let userInfo: [CodingUserInfoKey: Any]

  init(_ codingPath: [any CodingKey], keyed: Bool, userInfo: [CodingUserInfoKey: Any]) {
    self.codingPath = codingPath
    self.keyed = keyed
    self.userInfo = userInfo
  }

  func error(_ value: Any) -> EncodingError {
    let (asked, made) = keyed ? ("a keyed", "an unkeyed") : ("an unkeyed", "a keyed")
    return .invalidValue(
      value,
      EncodingError.Context(
        codingPath: codingPath,
        debugDescription: "Attempt to encode into \(asked) container where \(made) container was"
          + " already made at this path; the \(keyed ? "unkeyed" : "keyed") container's values"
          + " are kept."))
  }
}

/// The keyed container of a ``ContainerConflict``: every write throws, nested containers are
/// conflicting too.
struct ConflictingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let conflict: ContainerConflict
  var codingPath: [any CodingKey] { conflict.codingPath }

  mutating func encodeNil(forKey key: Key) throws { throw conflict.error(Any?.none as Any) }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func encode(_ value: Int128, forKey key: Key) throws { throw conflict.error(value) }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func encode(_ value: UInt128, forKey key: Key) throws { throw conflict.error(value) }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    throw conflict.error(value)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    KeyedEncodingContainer(ConflictingKeyedContainer<NestedKey>(conflict: conflict))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    ConflictingUnkeyedContainer(conflict: conflict)
  }

  mutating func superEncoder() -> any Encoder { ConflictingEncoder(conflict: conflict) }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    ConflictingEncoder(conflict: conflict)
  }
}

/// The unkeyed container of a ``ContainerConflict`` (also the single-value container of its
/// super encoders).
struct ConflictingUnkeyedContainer: UnkeyedEncodingContainer, SingleValueEncodingContainer {
  let conflict: ContainerConflict
  var codingPath: [any CodingKey] { conflict.codingPath }
  var count: Int { 0 }

  mutating func encodeNil() throws { throw conflict.error(Any?.none as Any) }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func encode(_ value: Int128) throws { throw conflict.error(value) }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  mutating func encode(_ value: UInt128) throws { throw conflict.error(value) }

  mutating func encode<T: Encodable>(_ value: T) throws { throw conflict.error(value) }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    KeyedEncodingContainer(ConflictingKeyedContainer<NestedKey>(conflict: conflict))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }

  mutating func superEncoder() -> any Encoder { ConflictingEncoder(conflict: conflict) }
}

/// The super encoder of a conflicting container: its containers are conflicting too.
struct ConflictingEncoder: Encoder {
  let conflict: ContainerConflict
  var codingPath: [any CodingKey] { conflict.codingPath }
  var userInfo: [CodingUserInfoKey: Any] { conflict.userInfo }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(ConflictingKeyedContainer<Key>(conflict: conflict))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    ConflictingUnkeyedContainer(conflict: conflict)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    ConflictingUnkeyedContainer(conflict: conflict)
  }
}
