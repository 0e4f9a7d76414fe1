/// Where serialization writes: JSON bytes, or a ``Node`` tree for form bodies and other formats.
///
/// Internal since issue 37: a user's ``MappableValue`` writes itself as a ``Node``
/// (``MappableValue/payloadNode()``). The built-in value types write straight into the output
/// through ``DirectPayloadWriting``, chosen once when an encoding plan is compiled.
struct PayloadEncoder {
  enum Target {
    case json
    case node
  }

  let target: Target
  var json: _JSONWriter
  var nodes: NodeEventBuilder
  /// The settings of the mapping being serialized; the format writers carry none.
  var context: EncodingContext

  /// The format `Date` values are written in (the attribute's or mapping's first format).
  var dateFormat: DateFormat {
    @inline(__always) get { context.dateFormat }
    @inline(__always) set { context.dateFormat = newValue }
  }
  /// How `Decimal` values are written.
  var decimals: DecimalOutput {
    @inline(__always) get { context.decimals }
    @inline(__always) set { context.decimals = newValue }
  }

  init(
    target: Target, pretty: Bool = false, capacity: Int = 1024,
    context: EncodingContext = EncodingContext()
  ) {
    self.target = target
    json = _JSONWriter(pretty: pretty, capacity: target == .json ? capacity : 0)
    nodes = NodeEventBuilder()
    self.context = context
  }

  /// A writer for a nested value with the same settings, writing a `Node`.
  func nodeWriter() -> PayloadEncoder {
    PayloadEncoder(target: .node, context: context)
  }

  // MARK: Events

  mutating func beginObject() {
    switch target {
    case .json: json.beginObject()
    case .node: nodes.beginContainer(isObject: true)
    }
  }

  mutating func endObject() {
    switch target {
    case .json: json.endObject()
    case .node: nodes.endContainer()
    }
  }

  mutating func beginArray() {
    switch target {
    case .json: json.beginArray()
    case .node: nodes.beginContainer(isObject: false)
    }
  }

  mutating func endArray() {
    switch target {
    case .json: json.endArray()
    case .node: nodes.endContainer()
    }
  }

  /// Writes a key whose JSON-escaped bytes were computed once, when the plan was built.
  mutating func key(_ key: OutputKey) {
    switch target {
    case .json:
      if json.isPretty {
        json.key(escapedUTF8: key.escaped)
      } else {
        json.key(framed: key.framed)
      }
    case .node: nodes.key(key.text)
    }
  }

  mutating func key(_ key: String) {
    switch target {
    case .json: json.key(key)
    case .node: nodes.key(key)
    }
  }

  /// Writes a string.
  ///
  /// - Parameter value: The string.
  mutating func string(_ value: String) {
    switch target {
    case .json: json.string(value)
    case .node: nodes.value(.string(value))
    }
  }

  mutating func int64(_ value: Int64) {
    switch target {
    case .json: json.int64(value)
    case .node: nodes.value(.integer(value))
    }
  }

  mutating func uint64(_ value: UInt64) {
    switch target {
    case .json: json.uint64(value)
    case .node:
      nodes.value(Int64(exactly: value).map(Node.integer) ?? .decimal(String(value)))
    }
  }

  /// Writes a double; one with no fraction (and magnitude below 2^53) is written as an integer
  /// (`1577934245`, not `1577934245.0`), as `JSONEncoder` does.
  ///
  /// - Parameter value: The number.
  /// - Throws: ``MappingError`` when `value` is NaN or infinite, which JSON cannot hold.
  mutating func double(_ value: Double) throws(MappingError) {
    if let integer = wholeInteger(value) { return int64(integer) }
    switch target {
    case .json:
      do { try json.double(value) } catch { throw MappingError(error) }
    case .node:
      guard value.isFinite else {
        throw MappingError(.format(.nonFiniteNumber(value: value.description)))
      }
      nodes.value(.double(value))
    }
  }

  /// Writes number text that is already a valid JSON number.
  mutating func numberText(_ text: String) {
    switch target {
    case .json: json.numberText(text)
    case .node: nodes.value(.decimal(text))
    }
  }

  /// Writes `true` or `false`.
  ///
  /// - Parameter value: The boolean.
  mutating func bool(_ value: Bool) {
    switch target {
    case .json: json.bool(value)
    case .node: nodes.value(.bool(value))
    }
  }

  /// Writes `null`.
  mutating func null() {
    switch target {
    case .json: json.null()
    case .node: nodes.value(.null)
    }
  }

  /// Writes a whole node, as it is (members in their order).
  ///
  /// - Parameter node: The node.
  /// - Throws: ``MappingError`` when the node holds a NaN or infinite double.
  mutating func node(_ node: Node) throws(MappingError) {
    switch target {
    case .json:
      do {
        try node._writeJSON(to: &json, sortedKeys: false, nonFinite: .error)
      } catch {
        throw MappingError(error)
      }
    case .node: nodes.value(node)
    }
  }

  // MARK: Undo

  struct Checkpoint {
    fileprivate let json: _JSONWriter.Checkpoint?
    fileprivate let nodes: NodeEventBuilder.Checkpoint?
  }

  func checkpoint() -> Checkpoint {
    switch target {
    case .json: Checkpoint(json: json.checkpoint(), nodes: nil)
    case .node: Checkpoint(json: nil, nodes: nodes.checkpoint())
    }
  }

  mutating func rollback(to checkpoint: Checkpoint) {
    if let mark = checkpoint.json { json.rollback(to: mark) }
    if let mark = checkpoint.nodes { nodes.rollback(to: mark) }
  }
}

/// The settings values are written with during one serialization: the mapping's (or the
/// attribute's) date format and how decimals are written. They belong to the mapping being
/// serialized, not to the output format.
struct EncodingContext: Sendable, Equatable {
  /// The format `Date` values are written in: the attribute's or the mapping's first date
  /// format, ISO 8601 in UTC unless one is set.
  var dateFormat: DateFormat
  /// How `Decimal` values are written.
  var decimals: DecimalOutput

  init(dateFormat: DateFormat = .iso8601, decimals: DecimalOutput = .number) {
    self.dateFormat = dateFormat
    self.decimals = decimals
  }
}

/// The encoder's name inside the engine.
typealias PayloadWriter = PayloadEncoder

/// An output key with its JSON-escaped UTF-8 bytes, computed once per plan.
struct OutputKey: Sendable, Hashable {
  let text: String
  let escaped: [UInt8]
  /// `"key":` — the quoted, escaped key and the colon, appended in one copy by compact writers.
  let framed: [UInt8]

  init(_ text: String) {
    self.text = text
    escaped = _JSONWriter.escapedUTF8(text)
    framed = [UInt8(ascii: "\"")] + escaped + [UInt8(ascii: "\""), UInt8(ascii: ":")]
  }
}

/// Builds a ``Node`` from writer events with flat stacks (no per-container arrays of frames
/// copied on write).
struct NodeEventBuilder {
  private var values: [Node] = []
  private var keys: [String] = []
  private var frames: [(isObject: Bool, values: Int, keys: Int)] = []

  mutating func beginContainer(isObject: Bool) {
    frames.append((isObject, values.count, keys.count))
  }

  mutating func endContainer() {
    guard let frame = frames.popLast() else { return }
    let node: Node
    if frame.isObject {
      var members: [Node.Member] = []
      members.reserveCapacity(values.count - frame.values)
      for (key, value) in zip(keys[frame.keys...], values[frame.values...]) {
        members.append(Node.Member(key, value))
      }
      node = .object(members)
    } else {
      node = .array(Array(values[frame.values...]))
    }
    values.removeSubrange(frame.values...)
    keys.removeSubrange(frame.keys...)
    values.append(node)
  }

  mutating func key(_ key: String) {
    keys.append(key)
  }

  mutating func value(_ node: Node) {
    values.append(node)
  }

  /// The finished top-level value.
  var result: Node { values.first ?? .null }

  struct Checkpoint {
    fileprivate let values: Int
    fileprivate let keys: Int
    fileprivate let frames: Int
  }

  func checkpoint() -> Checkpoint {
    Checkpoint(values: values.count, keys: keys.count, frames: frames.count)
  }

  mutating func rollback(to checkpoint: Checkpoint) {
    values.removeSubrange(checkpoint.values...)
    keys.removeSubrange(checkpoint.keys...)
    frames.removeSubrange(checkpoint.frames...)
  }
}

/// Whether `nil` values are left out of serialized output or written as `null`.
public enum NullPolicy: Sendable, Equatable {
  /// `nil` properties are left out (the default).
  case omit
  /// `nil` properties are written as `null` (PUT bodies that must clear a field).
  case include
}

/// How `Decimal` values are written.
public enum DecimalOutput: Sendable, Equatable {
  /// As a JSON number with the exact decimal text (`12.50` stays `12.5`, 25 digits stay 25).
  case number
  /// As a string holding the exact decimal text, for servers that parse numbers as doubles.
  case string
}
