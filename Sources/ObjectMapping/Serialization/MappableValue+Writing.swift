import Foundation

// The built-in values write straight into the serializer's output, without a `Node` per value.
// Which writer a type gets is decided once, when an encoding plan is compiled
// (``payloadValueWriter(for:)``): a cast of the metatype, never one per value. A user's
// ``MappableValue`` is written through its ``MappableValue/payloadNode()``.

/// A built-in value type with a writer of its own (internal: users write a ``Node``).
protocol DirectPayloadWriting: MappableValue {
  /// The writer of this type's values, made once per plan.
  static func makePayloadWriter() -> PayloadValueWriter<Self>
}

/// A built-in scalar that writes itself with one of the encoder's writing methods.
protocol DirectScalarWriting: DirectPayloadWriting {
  /// Writes the value: calls one of `writer`'s writing methods once.
  func writePayload(to writer: inout PayloadEncoder) throws
}

extension DirectScalarWriting {
  static func makePayloadWriter() -> PayloadValueWriter<Self> { ScalarPayloadWriter<Self>() }
}

/// Writes values of one ``MappableValue`` type; made once per plan, called per value: a final
/// class, immutable after `init`, whose `Sendable` conformance the compiler checks.
protocol PayloadValueWriting<Value>: AnyObject, Sendable {
  associatedtype Value

  /// Writes `value` into `writer`.
  func write(_ value: Value, to writer: inout PayloadEncoder) throws
}

/// A writer of `Value`s, whichever final class it is (one witness call per value).
typealias PayloadValueWriter<Value> = any PayloadValueWriting<Value>

/// The writer of `type`: its own direct writer for a built-in type, ``MappableValue/payloadNode()``
/// for any other.
func payloadValueWriter<Value: MappableValue>(for type: Value.Type) -> PayloadValueWriter<Value> {
  if let direct = type as? any DirectPayloadWriting.Type,
    let writer = openDirectWriter(direct, as: type)
  {
    return writer
  }
  return NodePayloadWriter<Value>()
}

/// `direct`'s writer as a writer of `Value` (which `direct` is).
private func openDirectWriter<Direct: DirectPayloadWriting, Value>(
  _ direct: Direct.Type, as type: Value.Type
) -> PayloadValueWriter<Value>? {
  Direct.makePayloadWriter() as? PayloadValueWriter<Value>
}

/// A user type's writing: its node.
private final class NodePayloadWriter<Value: MappableValue>: PayloadValueWriting {
  func write(_ value: Value, to writer: inout PayloadEncoder) throws {
    try writer.node(value.payloadNode())
  }
}

/// A built-in scalar's writing.
private final class ScalarPayloadWriter<Value: DirectScalarWriting>: PayloadValueWriting {
  func write(_ value: Value, to writer: inout PayloadEncoder) throws {
    try value.writePayload(to: &writer)
  }
}

/// `Double`'s writing, without the witness call of the generic scalar writer (arrays of
/// coordinates are written element by element through it).
private final class DoublePayloadWriter: PayloadValueWriting {
  func write(_ value: Double, to writer: inout PayloadEncoder) throws {
    try writer.double(value)
  }
}

/// `String`'s writing (see ``DoublePayloadWriter``).
private final class StringPayloadWriter: PayloadValueWriting {
  func write(_ value: String, to writer: inout PayloadEncoder) throws {
    writer.string(value)
  }
}

/// `Int`'s writing (see ``DoublePayloadWriter``).
private final class IntPayloadWriter: PayloadValueWriting {
  func write(_ value: Int, to writer: inout PayloadEncoder) throws {
    writer.int64(Int64(value))
  }
}

extension String: DirectScalarWriting {
  static func makePayloadWriter() -> PayloadValueWriter<String> { StringPayloadWriter() }
  func writePayload(to writer: inout PayloadEncoder) { writer.string(self) }
}

extension Bool: DirectScalarWriting {
  func writePayload(to writer: inout PayloadEncoder) { writer.bool(self) }
}

extension Int: DirectScalarWriting {
  static func makePayloadWriter() -> PayloadValueWriter<Int> { IntPayloadWriter() }
  func writePayload(to writer: inout PayloadEncoder) { writer.int64(Int64(self)) }
}

extension Int8: DirectScalarWriting {
  func writePayload(to writer: inout PayloadEncoder) { writer.int64(Int64(self)) }
}

extension Int16: DirectScalarWriting {
  func writePayload(to writer: inout PayloadEncoder) { writer.int64(Int64(self)) }
}

extension Int32: DirectScalarWriting {
  func writePayload(to writer: inout PayloadEncoder) { writer.int64(Int64(self)) }
}

extension Int64: DirectScalarWriting {
  func writePayload(to writer: inout PayloadEncoder) { writer.int64(self) }
}

extension UInt: DirectScalarWriting {
  func writePayload(to writer: inout PayloadEncoder) { writer.uint64(UInt64(self)) }
}

extension UInt8: DirectScalarWriting {
  func writePayload(to writer: inout PayloadEncoder) { writer.int64(Int64(self)) }
}

extension UInt16: DirectScalarWriting {
  func writePayload(to writer: inout PayloadEncoder) { writer.int64(Int64(self)) }
}

extension UInt32: DirectScalarWriting {
  func writePayload(to writer: inout PayloadEncoder) { writer.int64(Int64(self)) }
}

extension UInt64: DirectScalarWriting {
  func writePayload(to writer: inout PayloadEncoder) { writer.uint64(self) }
}

extension Double: DirectScalarWriting {
  static func makePayloadWriter() -> PayloadValueWriter<Double> { DoublePayloadWriter() }
  /// Writes the shortest text that reads back as this value; NaN and infinities are an error.
  func writePayload(to writer: inout PayloadEncoder) throws {
    try writer.double(self)
  }
}

extension Decimal: DirectScalarWriting {
  /// Writes the exact decimal text as a number, or as a string when the mapping asks for
  /// ``DecimalOutput/string``.
  func writePayload(to writer: inout PayloadEncoder) throws {
    guard isFinite else {
      throw ConversionFailure.notRepresentable("\(self)", reason: "not a finite decimal")
    }
    switch writer.decimals {
    case .number: writer.numberText(description)
    case .string: writer.string(description)
    }
  }
}

extension Date: DirectScalarWriting {
  /// Writes the date in the attribute's (or mapping's) first date format; ISO 8601 in UTC by
  /// default. A date outside the years 0000 through 9999 (or with a NaN or infinite interval)
  /// is an error, not a trap.
  func writePayload(to writer: inout PayloadEncoder) throws {
    switch writer.dateFormat {
    case .iso8601: writer.string(try ISO8601.format(self))
    case let format: try writer.node(format.format(self))
    }
  }
}

extension URL: DirectScalarWriting {
  func writePayload(to writer: inout PayloadEncoder) { writer.string(absoluteString) }
}

extension UUID: DirectScalarWriting {
  func writePayload(to writer: inout PayloadEncoder) {
    writer.string(uuidString.lowercased())
  }
}

extension Node: DirectScalarWriting {
  func writePayload(to writer: inout PayloadEncoder) throws { try writer.node(self) }
}

// MARK: Containers: the element's writer is chosen once, with the container's

extension Optional: DirectPayloadWriting where Wrapped: MappableValue {
  static func makePayloadWriter() -> PayloadValueWriter<Wrapped?> {
    OptionalPayloadWriter(wrapped: payloadValueWriter(for: Wrapped.self))
  }
}

/// Writes the wrapped value, or `null`.
private final class OptionalPayloadWriter<Wrapped>: PayloadValueWriting {
  let wrapped: PayloadValueWriter<Wrapped>
  init(wrapped: PayloadValueWriter<Wrapped>) { self.wrapped = wrapped }

  func write(_ value: Wrapped?, to writer: inout PayloadEncoder) throws {
    switch value {
    case .none: writer.null()
    case .some(let value): try wrapped.write(value, to: &writer)
    }
  }
}

extension Array: DirectPayloadWriting where Element: MappableValue {
  static func makePayloadWriter() -> PayloadValueWriter<[Element]> {
    ArrayPayloadWriter(element: payloadValueWriter(for: Element.self))
  }
}

/// Writes an array of the elements in order.
private final class ArrayPayloadWriter<Element>: PayloadValueWriting {
  let element: PayloadValueWriter<Element>
  init(element: PayloadValueWriter<Element>) { self.element = element }

  func write(_ value: [Element], to writer: inout PayloadEncoder) throws {
    writer.beginArray()
    for item in value { try element.write(item, to: &writer) }
    writer.endArray()
  }
}

extension Set: DirectPayloadWriting where Element: MappableValue {
  static func makePayloadWriter() -> PayloadValueWriter<Set<Element>> {
    SetPayloadWriter(element: payloadValueWriter(for: Element.self))
  }
}

/// Writes an array of the elements sorted by their compact JSON text, so the output does not
/// depend on the set's hashing.
private final class SetPayloadWriter<Element: Hashable>: PayloadValueWriting {
  let element: PayloadValueWriter<Element>
  init(element: PayloadValueWriter<Element>) { self.element = element }

  func write(_ value: Set<Element>, to writer: inout PayloadEncoder) throws {
    let element = self.element
    let sorted = try sortedForOutput(value, writer: writer) { item, nested in
      try element.write(item, to: &nested)
    }
    writer.beginArray()
    for node in sorted { try writer.node(node) }
    writer.endArray()
  }
}

extension Dictionary: DirectPayloadWriting where Key == String, Value: MappableValue {
  static func makePayloadWriter() -> PayloadValueWriter<[String: Value]> {
    DictionaryPayloadWriter(value: payloadValueWriter(for: Value.self))
  }
}

/// Writes an object with the members sorted by key, so the output does not depend on the
/// dictionary's hashing.
private final class DictionaryPayloadWriter<Value>: PayloadValueWriting {
  let value: PayloadValueWriter<Value>
  init(value: PayloadValueWriter<Value>) { self.value = value }

  func write(_ dictionary: [String: Value], to writer: inout PayloadEncoder) throws {
    writer.beginObject()
    for key in dictionary.keys.sorted(by: { _compareUTF8($0, $1) < 0 }) {
      guard let member = dictionary[key] else { continue }
      writer.key(key)
      try value.write(member, to: &writer)
    }
    writer.endObject()
  }
}

/// The elements written as nodes with `writer`'s settings, sorted by their compact JSON bytes.
func sortedForOutput<Elements: Sequence>(
  _ elements: Elements, writer: PayloadEncoder,
  write: (Elements.Element, inout PayloadEncoder) throws -> Void
) throws -> [Node] {
  var keyed: [(bytes: [UInt8], node: Node)] = []
  for element in elements {
    var nested = writer.nodeWriter()
    try write(element, &nested)
    let node = nested.nodes.result
    keyed.append((try node.jsonBytes(), node))
  }
  keyed.sort { $0.bytes.lexicographicallyPrecedes($1.bytes) }
  return keyed.map(\.node)
}
