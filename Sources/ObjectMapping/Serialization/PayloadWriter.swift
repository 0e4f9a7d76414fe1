/// Where serialization writes values: straight into JSON bytes, or into a ``Node`` tree (for
/// form bodies, other registered formats, merging and `node(_:)`).
///
/// An implementation detail that ``MappableValue/_writePayload(to:)`` receives; its members are
/// internal. Conformances outside the library rely on the default implementation, which writes
/// ``MappableValue/payloadNode()``.
public struct _PayloadWriter {
  enum Target {
    case json
    case node
  }

  let target: Target
  var json: _JSONWriter
  var nodes: _NodeEventBuilder
  /// The format `Date` values are written in (the attribute's or mapping's first format).
  var dateFormat: DateFormat = .iso8601
  /// How `Decimal` values are written.
  var decimals: DecimalOutput = .number

  init(target: Target, pretty: Bool = false, capacity: Int = 1024) {
    self.target = target
    json = _JSONWriter(pretty: pretty, capacity: target == .json ? capacity : 0)
    nodes = _NodeEventBuilder()
  }

  /// A writer for a nested value with the same settings, writing a `Node`.
  func nodeWriter() -> _PayloadWriter {
    var writer = _PayloadWriter(target: .node)
    writer.dateFormat = dateFormat
    writer.decimals = decimals
    return writer
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
  mutating func key(_ key: _OutputKey) {
    switch target {
    case .json:
      if json.isPretty {
        key.escaped.withUnsafeBufferPointer { json.key(escapedUTF8: $0) }
      } else {
        key.framed.withUnsafeBufferPointer { json.key(framed: $0) }
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
  mutating func double(_ value: Double) throws(MappingError) {
    if value.rounded(.towardZero) == value, abs(value) < 9_007_199_254_740_992,
      value != 0 || value.sign == .plus
    {
      return int64(Int64(value))
    }
    switch target {
    case .json:
      do { try json.double(value) } catch { throw MappingError(error) }
    case .node:
      guard value.isFinite else { throw MappingError(.nonFiniteNumber(value: value.description)) }
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

  mutating func bool(_ value: Bool) {
    switch target {
    case .json: json.bool(value)
    case .node: nodes.value(.bool(value))
    }
  }

  mutating func null() {
    switch target {
    case .json: json.null()
    case .node: nodes.value(.null)
    }
  }

  /// Writes a whole node.
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
    fileprivate let nodes: _NodeEventBuilder.Checkpoint?
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

/// An output key with its JSON-escaped UTF-8 bytes, computed once per plan.
struct _OutputKey: Sendable, Hashable {
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
struct _NodeEventBuilder {
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
