extension Optional: MappableValue where Wrapped: MappableValue {
  /// `nil` for `null`, otherwise the wrapped type's conversion.
  // Inlined into the conformance's witness, which is given `Optional<Wrapped>`'s metadata:
  // called out of line, the body looked it up again on every optional value (twitter.json:
  // 410 a decode).
  @inline(__always)
  public init(payload: PayloadValue) throws {
    self = payload.entry.kind == .null ? nil : try Wrapped(payload: payload)
  }
  /// `null` for `nil`, otherwise the wrapped value's node.
  public func payloadNode() throws -> Node {
    guard let self else { return .null }
    return try self.payloadNode()
  }
  /// The wrapped type's description.
  public static var expectedDescription: String { Wrapped.expectedDescription }
  /// `nil`: `null` maps to `nil`.
  public static var nullValue: Self? { .some(nil) }
}

/// Failures inside a collection value, each with the path below the collection: at most the
/// run's error limit of them, the rest counted (``omitted``).
struct NestedConversionFailures: Error {
  var failures: [(path: [_PathComponent], failure: any Error)] = []
  /// The failures beyond the limit, counted and not kept.
  var omitted = 0
  /// How many failures are kept.
  let limit: Int

  init(limit: Int) {
    self.limit = limit
  }

  /// Adds a failure at `path`, or counts it past the limit.
  mutating func add(_ path: [_PathComponent], _ failure: any Error) {
    if failures.count < limit {
      failures.append((path, failure))
    } else {
      omitted += 1
    }
  }

  /// Adds the failures of a collection inside this one, at `prefix`.
  mutating func add(nested: NestedConversionFailures, at prefix: _PathComponent) {
    for inner in nested.failures { add([prefix] + inner.path, inner.failure) }
    omitted += nested.omitted
  }

  var isEmpty: Bool { failures.isEmpty && omitted == 0 }
}

extension PayloadValue {
  /// Converts each element of an array (or, under lenient coercion, a single value as a
  /// one-element collection), collecting every element's failure with its index.
  // Inlined into `Array`'s and `Set`'s `init(payload:)` witnesses, which are given the
  // collection's metadata: out of line, the cast of a specialized loop's result to
  // `[Element]` looked `Array<Element>`'s metadata up on every call (about 330 instructions;
  // 56,000 inner arrays in a canada.json decode, +14%, issue 38).
  @inline(__always)
  func collectionElements<Element: MappableValue>(_ type: Element.Type) throws -> [Element] {
    let entry = self.entry
    guard entry.kind == .array else {
      guard coercion == .lenient, !isNull else {
        throw mismatch(expected: "an array of \(Element.expectedDescription)")
      }
      return [try Element(payload: self)]
    }
    // The common element types convert in loops specialized for them: the generic loop pays
    // a witness call per element. The test is on metatypes, folded away when specialized.
    if Element.self == Double.self {
      return identityCast(try convertedElements(as: Double.self), to: [Element].self)
    }
    if Element.self == Int.self {
      return identityCast(try convertedElements(as: Int.self), to: [Element].self)
    }
    if Element.self == String.self {
      return identityCast(try convertedElements(as: String.self), to: [Element].self)
    }
    return try convertedElements(as: Element.self)
  }

  /// Each element of this array value converted, with every failure collected with its index
  /// (``collectionElements(_:)``'s loop, specialized for `Double`, `Int` and `String`).
  @inline(__always)
  func convertedElements<Element: MappableValue>(as type: Element.Type) throws -> [Element] {
    let entry = self.entry
    guard entry.kind == .array else {
      throw mismatch(expected: "an array of \(Element.expectedDescription)")
    }
    return try elements(of: entry, as: type)
  }

  /// Each element of the array `entry` (this value's entry) converted, with every failure
  /// collected with its index.
  @inline(__always)
  private func elements<Element: MappableValue>(
    of entry: _TapeEntry, as type: Element.Type
  ) throws -> [Element] {
    var result: [Element] = []
    result.reserveCapacity(Int(entry.length))
    var failures = NestedConversionFailures(limit: context.errorLimit)
    var cursor = index + 1
    for offset in 0..<Int(entry.length) {
      do {
        result.append(
          try Element(payload: sibling(at: cursor)))
      } catch let nested as NestedConversionFailures {
        failures.add(nested: nested, at: .index(offset))
      } catch {
        failures.add([.index(offset)], error)
      }
      cursor = tape.next(after: cursor)
    }
    guard failures.isEmpty else { throw failures }
    return result
  }
}

extension Array: MappableValue where Element: MappableValue {
  /// Each element converted in order; under lenient coercion a single value becomes a
  /// one-element array. Every failing element is reported with its index.
  // Inlined into the conformance's witness, which is given `[Element]`'s metadata (see
  // `collectionElements(_:)`).
  @inline(__always)
  public init(payload: PayloadValue) throws {
    self = try payload.collectionElements(Element.self)
  }
  /// An array node.
  public func payloadNode() throws -> Node { .array(try map { try $0.payloadNode() }) }
  /// `"an array"`.
  public static var expectedDescription: String { "an array" }
}

extension Set: MappableValue where Element: MappableValue {
  /// Each element converted (duplicates collapse); under lenient coercion a single value
  /// becomes a one-element set.
  public init(payload: PayloadValue) throws {
    self = Set(try payload.collectionElements(Element.self))
  }
  /// An array node in a deterministic order: elements sorted by their compact JSON text.
  public func payloadNode() throws -> Node {
    let nodes = try map { try $0.payloadNode() }
    return .array(nodes.sorted { String(describing: $0) < String(describing: $1) })
  }
  /// `"an array"`.
  public static var expectedDescription: String { "an array" }
}

extension Dictionary: MappableValue where Key == String, Value: MappableValue {
  /// Empty.
  public static var zeroValue: [String: Value]? { [:] }
  /// Each member's value converted; every failing member is reported with its key. When the
  /// payload names a key twice, the first member wins and the later ones are not read (as
  /// everywhere in the library; see ``JSONReadingOptions/rejectsDuplicateKeys``).
  public init(payload: PayloadValue) throws {
    let entry = payload.entry
    guard entry.kind == .object else {
      throw payload.mismatch(expected: "an object")
    }
    let tape = payload.tape
    var result: [String: Value] = [:]
    result.reserveCapacity(Int(entry.length))
    var failures = NestedConversionFailures(limit: payload.context.errorLimit)
    var cursor = payload.index + 1
    for _ in 0..<Int(entry.length) {
      let key = tape.string(at: cursor)
      let value = payload.sibling(at: cursor + 1)
      defer { cursor = tape.next(after: cursor + 1) }
      // A repeated key: the first member wins.
      guard result.index(forKey: key) == nil else { continue }
      do {
        result[key] = try Value(payload: value)
      } catch let nested as NestedConversionFailures {
        failures.add(nested: nested, at: .key(key))
      } catch {
        failures.add([.key(key)], error)
      }
    }
    guard failures.isEmpty else { throw failures }
    self = result
  }
  /// An object node with members sorted by key, so output is deterministic.
  public func payloadNode() throws -> Node {
    .object(try sorted { $0.key < $1.key }.map { Node.Member($0.key, try $0.value.payloadNode()) })
  }
  /// `"an object"`.
  public static var expectedDescription: String { "an object" }
}

extension MappableValue where Self: RawRepresentable, RawValue: MappableValue {
  /// Reads the raw value, then the case; an unknown raw value is an error naming it.
  public init(payload: PayloadValue) throws {
    self = try rawCase(Self.self, payload: payload)
  }
  /// The raw value's node.
  public func payloadNode() throws -> Node { try rawValue.payloadNode() }
  /// `"a <TypeName>"` (or `"an <TypeName>"`).
  public static var expectedDescription: String { withArticle("\(Self.self)") }
}

/// The case of `type` whose raw value the payload holds; an unknown raw value is an error
/// naming it and, for a `CaseIterable` enum, the accepted ones.
func rawCase<E: RawRepresentable>(_ type: E.Type, payload: PayloadValue) throws -> E
where E.RawValue: MappableValue {
  let raw = try E.RawValue(payload: payload)
  guard let value = E(rawValue: raw) else {
    throw payload.invalid(
      expected: withArticle("\(E.self)"), reason: unknownRawValueReason(E.self))
  }
  return value
}

/// `name` with its indefinite article: "an IssueState", "a Status".
func withArticle(_ name: String) -> String {
  guard let first = name.first else { return "a value" }
  return ("AEIOUaeiou".contains(first) ? "an " : "a ") + name
}

/// Why a raw value maps to no case of `type`: the accepted raw values, when the enum lists its
/// cases (`CaseIterable`).
func unknownRawValueReason<T: RawRepresentable>(_ type: T.Type) -> String {
  guard let iterable = T.self as? any CaseIterable.Type else { return "no case has this raw value" }
  let accepted = allCaseValues(of: iterable).compactMap { ($0 as? T).map(\.rawValue) }.map {
    raw -> String in
    if let text = raw as? String { return quotedForMessage(text) }
    return "\(raw)"
  }
  guard !accepted.isEmpty else { return "no case has this raw value" }
  return "no case has this raw value; expected one of " + accepted.joined(separator: ", ")
}

private func allCaseValues<C: CaseIterable>(of type: C.Type) -> [Any] {
  C.allCases.map { $0 as Any }
}
