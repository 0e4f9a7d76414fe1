import Foundation

/// The `Decoder` a derived mapping's model receives in its `init(from:)`: the object's decoder
/// of the scanned document (``TapeDecoder``, whose reading looks keys up under the mapping's
/// convention), whose keyed container answers overridden coding keys with what the overrides
/// read and collects the errors of scalar members instead of stopping at the first.
final class DerivedDecoder: Decoder {
  let inner: TapeDecoder
  let overrides: [DerivedOverride]
  let outcomes: [OverrideOutcome]
  /// Which overrides `init(from:)` asked for.
  var asked: [Bool]
  /// The errors of members read so far (the last one may be thrown past `init(from:)` too).
  var collected: [any Error] = []
  /// Whether a scalar member's error is thrown at once, as `JSONDecoder` throws it, instead of
  /// collected: the second reading of an object whose first one collected errors, so that a
  /// model that catches them (`try?`, "a number or a string") decides as it would with
  /// `JSONDecoder` (``DerivedPlan/decodeObject``).
  let throwsMemberErrors: Bool

  init(
    _ inner: TapeDecoder, overrides: [DerivedOverride], outcomes: [OverrideOutcome],
    throwsMemberErrors: Bool = false
  ) {
    self.inner = inner
    self.overrides = overrides
    self.outcomes = outcomes
    self.throwsMemberErrors = throwsMemberErrors
    asked = Array(repeating: false, count: overrides.count)
  }

  var codingPath: [any CodingKey] { inner.codingPath }
  var userInfo: [CodingUserInfoKey: Any] { inner.userInfo }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(
      DerivedKeyedContainer(inner: try inner.container(keyedBy: type), decoder: self))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try inner.unkeyedContainer()
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    try inner.singleValueContainer()
  }

  /// The position of the override answering for `key`, or `nil`.
  @inline(__always)
  func override(for key: some CodingKey) -> Int? {
    guard !overrides.isEmpty else { return nil }
    let name = key.stringValue
    for position in overrides.indices where overrides[position].name == name {
      if case .notApplied = outcomes[position] { return nil }
      asked[position] = true
      return position
    }
    return nil
  }
}

/// An error already recorded in the run (an override's): stops `init(from:)` without being
/// reported again.
struct AlreadyRecorded: Error {}

/// A value an override must give but left absent, for a property `init(from:)` requires.
struct OverrideAbsent: Error {
  let position: Int
}

/// A value an override gave whose type is not the one `init(from:)` asks for.
struct OverrideTypeMismatch: Error {
  let position: Int
  let given: Any.Type
  let asked: Any.Type
}

/// The keyed container of a derived mapping's object (see ``DerivedDecoder``).
struct DerivedKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let inner: KeyedDecodingContainer<Key>
  let decoder: DerivedDecoder

  var codingPath: [any CodingKey] { inner.codingPath }
  var allKeys: [Key] { inner.allKeys }

  func contains(_ key: Key) -> Bool {
    guard let position = decoder.override(for: key) else { return inner.contains(key) }
    if case .value = decoder.outcomes[position] { return true }
    return false
  }

  func decodeNil(forKey key: Key) throws -> Bool {
    guard let position = decoder.override(for: key) else { return try inner.decodeNil(forKey: key) }
    guard case .value(let value) = decoder.outcomes[position] else { return true }
    return isNilValue(value)
  }

  /// The override's value for a required member.
  private func required<T>(_ type: T.Type, _ position: Int) throws -> T {
    switch decoder.outcomes[position] {
    case .value(let value):
      if let typed = value as? T { return typed }
      throw OverrideTypeMismatch(position: position, given: Swift.type(of: value), asked: T.self)
    case .absent: throw OverrideAbsent(position: position)
    case .failed, .notApplied: throw AlreadyRecorded()
    }
  }

  /// The override's value for an optional member.
  private func optional<T>(_ type: T.Type, _ position: Int) throws -> T? {
    switch decoder.outcomes[position] {
    case .value(let value):
      if let typed = value as? T { return typed }
      if isNilValue(value) { return nil }
      throw OverrideTypeMismatch(position: position, given: Swift.type(of: value), asked: T.self)
    case .absent, .failed, .notApplied: return nil
    }
  }

  /// A scalar member: the override's value, or the payload's; a failure is collected and
  /// `placeholder` returned, so that the next members are read too (the object fails).
  @inline(__always)
  private func scalar<T>(_ key: Key, _ placeholder: T, _ read: () throws -> T) throws -> T {
    if let position = decoder.override(for: key) { return try required(T.self, position) }
    do {
      return try read()
    } catch {
      if decoder.throwsMemberErrors { throw error }
      decoder.collected.append(error)
      return placeholder
    }
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try scalar(key, false) { try inner.decode(type, forKey: key) }
  }
  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try scalar(key, "") { try inner.decode(type, forKey: key) }
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try scalar(key, 0) { try inner.decode(type, forKey: key) }
  }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try scalar(key, 0) { try inner.decode(type, forKey: key) }
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    try scalar(key, 0) { try inner.decode(type, forKey: key) }
  }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
    try scalar(key, 0) { try inner.decode(type, forKey: key) }
  }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
    try scalar(key, 0) { try inner.decode(type, forKey: key) }
  }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
    try scalar(key, 0) { try inner.decode(type, forKey: key) }
  }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    try scalar(key, 0) { try inner.decode(type, forKey: key) }
  }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
    try scalar(key, 0) { try inner.decode(type, forKey: key) }
  }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
    try scalar(key, 0) { try inner.decode(type, forKey: key) }
  }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    try scalar(key, 0) { try inner.decode(type, forKey: key) }
  }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    try scalar(key, 0) { try inner.decode(type, forKey: key) }
  }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    try scalar(key, 0) { try inner.decode(type, forKey: key) }
  }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    if let position = decoder.override(for: key) { return try required(T.self, position) }
    return try inner.decode(type, forKey: key)
  }

  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    try optionalMember(type, key)
  }
  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    try optionalMember(type, key)
  }
  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
    try optionalMember(type, key)
  }
  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
    try optionalMember(type, key)
  }
  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    try optionalMember(type, key)
  }

  /// An optional member: the override's value, or the payload's; a failure is collected and
  /// `nil` returned, so that the next members are read too (the object fails).
  private func optionalMember<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
    if let position = decoder.override(for: key) { return try optional(T.self, position) }
    do {
      return try inner.decodeIfPresent(type, forKey: key)
    } catch {
      if decoder.throwsMemberErrors { throw error }
      decoder.collected.append(error)
      return nil
    }
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try inner.nestedContainer(keyedBy: type, forKey: key)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try inner.nestedUnkeyedContainer(forKey: key)
  }

  func superDecoder() throws -> any Decoder { try inner.superDecoder() }

  func superDecoder(forKey key: Key) throws -> any Decoder { try inner.superDecoder(forKey: key) }
}

/// Whether `value` is an optional holding `nil`.
func isNilValue(_ value: Any) -> Bool {
  (value as? any NilTestable)?.holdsNil ?? false
}

/// An optional, asked whether it holds `nil` without knowing its wrapped type.
protocol NilTestable {
  var holdsNil: Bool { get }
}

extension Optional: NilTestable {
  var holdsNil: Bool { self == nil }
}
