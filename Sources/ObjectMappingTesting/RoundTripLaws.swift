import ObjectMapping

/// Checks the two round-trip laws of a mapping from your own tests.
///
/// - **Value law**: for a value `v` that serializes, `map(serialize(v)) == v`.
/// - **Payload law**: for a payload `p` that maps, `serialize(map(p))` equals `p` after the
///   documented normalisations: member order does not matter (output is in declaration order),
///   numbers compare by value (`1.0` equals `1`), and `null` members may be left out. Keys the
///   mapping does not read (dropped by the round trip) and defaults it writes (added) are
///   differences you list by path in `allowing`, so an unexpected loss is never hidden.
///
/// ```swift
/// import ObjectMappingTesting
///
/// @Test func articleRoundTrips() throws {
///   let laws = RoundTripLaws(articleMapping)
///   try laws.checkValue(Article(id: 1, title: "Hello"))
///   try laws.checkPayload(json: #"{"id": 1, "title": "Hello", "body": ""}"#)
/// }
/// ```
///
/// A violation names the law and the first path where the payloads differ.
public struct RoundTripLaws<Mapping: MappingProtocol>: Sendable where Mapping.Object: Equatable {
  /// The mapping under test (mapping direction).
  public let mapping: Mapping
  /// The inverse under test (serializing direction).
  public let inverse: InverseMapping<Mapping.Object>

  /// Laws for `mapping` and its own inverse, or a customized `inverse`.
  public init(_ mapping: Mapping, inverse: InverseMapping<Mapping.Object>? = nil) {
    self.mapping = mapping
    self.inverse = inverse ?? mapping.inverted()
  }

  /// Checks `map(serialize(value)) == value`.
  ///
  /// - Throws: ``RoundTripViolation`` naming the first path at which the payload of the value and
  ///   the payload of its round trip differ (or the mapping error of the round trip).
  public func checkValue(_ value: Mapping.Object) throws(RoundTripViolation) {
    let payload = try serialized(value, law: .value, step: "serialize the value")
    let back: Mapping.Object
    do {
      back = try mapping.map(payload)
    } catch {
      throw RoundTripViolation(
        law: .value, path: "", message: "its serialization does not map back: \(error)")
    }
    guard back != value else { return }
    let again = try serialized(back, law: .value, step: "serialize the round trip")
    if let difference = _firstDifference(payload, again, allowing: []) {
      throw RoundTripViolation(law: .value, path: difference.path, message: difference.message)
    }
    throw RoundTripViolation(
      law: .value, path: "",
      message:
        "the value changed in the round trip but serializes the same: a property is not serialized"
    )
  }

  /// Checks that `serialize(map(payload))` equals `payload` up to the normalisations, and that
  /// mapping the output gives the same value again.
  ///
  /// - Parameters:
  ///   - payload: A payload the mapping maps.
  ///   - allowed: JSON Pointer paths where a difference is expected (for example keys the
  ///     mapping does not read, or defaults it writes); `*` matches any one key or index
  ///     (`/items/*/internal_id`).
  /// - Throws: ``RoundTripViolation`` at the first unexpected difference.
  public func checkPayload(_ payload: Node, allowing allowed: [String] = [])
    throws(RoundTripViolation)
  {
    let value: Mapping.Object
    do {
      value = try mapping.map(payload)
    } catch {
      throw RoundTripViolation(
        law: .payload, path: "", message: "the payload does not map: \(error)")
    }
    let output = try serialized(value, law: .payload, step: "serialize the mapped value")
    let patterns = allowed.map {
      $0.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
    }
    if let difference = _firstDifference(payload, output, allowing: patterns.map(Array.init)) {
      throw RoundTripViolation(law: .payload, path: difference.path, message: difference.message)
    }
    let again: Mapping.Object
    do {
      again = try mapping.map(output)
    } catch {
      throw RoundTripViolation(
        law: .payload, path: "", message: "the serialized payload does not map: \(error)")
    }
    guard again == value else {
      throw RoundTripViolation(
        law: .payload, path: "", message: "mapping the serialized payload gives another value")
    }
  }

  /// ``checkPayload(_:allowing:)`` for JSON text.
  public func checkPayload(json: String, allowing allowed: [String] = []) throws(RoundTripViolation)
  {
    let node: Node
    do {
      node = try Node(jsonString: json)
    } catch {
      throw RoundTripViolation(
        law: .payload, path: "", message: "the JSON does not parse: \(error)")
    }
    try checkPayload(node, allowing: allowed)
  }

  private func serialized(
    _ value: Mapping.Object, law: RoundTripViolation.Law, step: String
  ) throws(RoundTripViolation) -> Node {
    do {
      return try inverse.node(value)
    } catch {
      throw RoundTripViolation(law: law, path: "", message: "cannot \(step): \(error)")
    }
  }
}

/// A broken round-trip law: which one, where, and what differs.
public struct RoundTripViolation: Error, Sendable, Equatable, CustomStringConvertible {
  /// The two laws.
  public enum Law: String, Sendable, Equatable {
    /// `map(serialize(v)) == v`.
    case value
    /// `serialize(map(p)) == p` after normalisation.
    case payload
  }

  /// The law that failed.
  public let law: Law
  /// The JSON Pointer of the first difference (empty for the whole payload).
  public let path: String
  /// What differs.
  public let message: String

  /// `payload law broken at /author/name: expected "Ann", found "ann"`.
  public var description: String {
    let place = path.isEmpty ? "" : " at \(path)"
    return "\(law.rawValue) law broken\(place): \(message)"
  }
}

/// The first place where `actual` differs from `expected`, ignoring what the payload law
/// normalises: members of `expected` that are `null` or absent from `actual` are allowed only
/// when `null`; members of `actual` absent from `expected` must be allowed by a pattern.
private func _firstDifference(
  _ expected: Node, _ actual: Node, allowing patterns: [[Substring]]
) -> (path: String, message: String)? {
  var path: [String] = []
  return _difference(expected, actual, path: &path, patterns: patterns)
}

private func _difference(
  _ expected: Node, _ actual: Node, path: inout [String], patterns: [[Substring]]
) -> (path: String, message: String)? {
  func here() -> String { path.map { "/" + _escape($0) }.joined() }
  func allowed(_ key: String) -> Bool {
    let full = path + [key]
    return patterns.contains { pattern in
      pattern.count == full.count && zip(pattern, full).allSatisfy { $0 == "*" || $0 == $1 }
    }
  }
  switch (expected, actual) {
  case (.object(let left), .object(let right)):
    for member in left {
      guard let other = right.first(where: { $0.key == member.key }) else {
        if member.value == .null || allowed(member.key) { continue }
        return ("\(here())/\(_escape(member.key))", "missing from the serialized payload")
      }
      path.append(member.key)
      defer { path.removeLast() }
      if let difference = _difference(member.value, other.value, path: &path, patterns: patterns) {
        return difference
      }
    }
    for member in right where !left.contains(where: { $0.key == member.key }) {
      if allowed(member.key) { continue }
      return ("\(here())/\(_escape(member.key))", "not in the original payload: \(member.value)")
    }
    return nil
  case (.array(let left), .array(let right)):
    guard left.count == right.count else {
      return (here(), "expected \(left.count) elements, found \(right.count)")
    }
    for (offset, pair) in zip(left, right).enumerated() {
      path.append(String(offset))
      defer { path.removeLast() }
      if let difference = _difference(pair.0, pair.1, path: &path, patterns: patterns) {
        return difference
      }
    }
    return nil
  default:
    if expected == actual { return nil }
    if let key = path.last {
      path.removeLast()
      defer { path.append(key) }
      if allowed(key) { return nil }
    }
    return (here(), "expected \(expected), found \(actual)")
  }
}

private func _escape(_ key: String) -> String {
  var result = ""
  for character in key {
    switch character {
    case "~": result += "~0"
    case "/": result += "~1"
    default: result.append(character)
    }
  }
  return result
}
