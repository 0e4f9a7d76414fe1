import Foundation

// The built-in values write straight into the serializer's output, without a `Node` per value.

extension String {
  /// Writes the string.
  public func encode(to writer: inout PayloadEncoder) { writer.string(self) }
}

extension Bool {
  /// Writes `true` or `false`.
  public func encode(to writer: inout PayloadEncoder) { writer.bool(self) }
}

extension Int {
  /// Writes the integer.
  public func encode(to writer: inout PayloadEncoder) { writer.int64(Int64(self)) }
}

extension Int8 {
  /// Writes the integer.
  public func encode(to writer: inout PayloadEncoder) { writer.int64(Int64(self)) }
}

extension Int16 {
  /// Writes the integer.
  public func encode(to writer: inout PayloadEncoder) { writer.int64(Int64(self)) }
}

extension Int32 {
  /// Writes the integer.
  public func encode(to writer: inout PayloadEncoder) { writer.int64(Int64(self)) }
}

extension Int64 {
  /// Writes the integer.
  public func encode(to writer: inout PayloadEncoder) { writer.int64(self) }
}

extension UInt {
  /// Writes the integer.
  public func encode(to writer: inout PayloadEncoder) { writer.uint64(UInt64(self)) }
}

extension UInt8 {
  /// Writes the integer.
  public func encode(to writer: inout PayloadEncoder) { writer.int64(Int64(self)) }
}

extension UInt16 {
  /// Writes the integer.
  public func encode(to writer: inout PayloadEncoder) { writer.int64(Int64(self)) }
}

extension UInt32 {
  /// Writes the integer.
  public func encode(to writer: inout PayloadEncoder) { writer.int64(Int64(self)) }
}

extension UInt64 {
  /// Writes the integer.
  public func encode(to writer: inout PayloadEncoder) { writer.uint64(self) }
}

extension Double {
  /// Writes the shortest text that reads back as this value; NaN and infinities are an error.
  public func encode(to writer: inout PayloadEncoder) throws {
    try writer.double(self)
  }
}

extension Decimal {
  /// Writes the exact decimal text as a number, or as a string when the mapping asks for
  /// ``DecimalOutput/string``.
  public func encode(to writer: inout PayloadEncoder) throws {
    guard isFinite else {
      throw ConversionFailure.notRepresentable("\(self)", reason: "not a finite decimal")
    }
    switch writer.decimals {
    case .number: writer.numberText(description)
    case .string: writer.string(description)
    }
  }
}

extension Date {
  /// Writes the date in the attribute's (or mapping's) first date format; ISO 8601 in UTC by
  /// default. A date outside the years 0000 through 9999 (or with a NaN or infinite interval)
  /// is an error, not a trap.
  public func encode(to writer: inout PayloadEncoder) throws {
    switch writer.dateFormat {
    case .iso8601: writer.string(try _ISO8601.format(self))
    case let format: try writer.node(format.format(self))
    }
  }
}

extension URL {
  /// Writes the absolute string.
  public func encode(to writer: inout PayloadEncoder) { writer.string(absoluteString) }
}

extension UUID {
  /// Writes the lowercase string form.
  public func encode(to writer: inout PayloadEncoder) {
    writer.string(uuidString.lowercased())
  }
}

extension Node {
  /// Writes the node.
  public func encode(to writer: inout PayloadEncoder) throws { try writer.node(self) }
}

extension Optional where Wrapped: MappableValue {
  /// Writes the wrapped value, or `null`.
  public func encode(to writer: inout PayloadEncoder) throws {
    switch self {
    case .none: writer.null()
    case .some(let value): try value.encode(to: &writer)
    }
  }
}

extension Array where Element: MappableValue {
  /// Writes an array of the elements in order.
  public func encode(to writer: inout PayloadEncoder) throws {
    writer.beginArray()
    for element in self { try element.encode(to: &writer) }
    writer.endArray()
  }
}

extension Set where Element: MappableValue {
  /// Writes an array of the elements sorted by their compact JSON text, so the output does not
  /// depend on the set's hashing.
  public func encode(to writer: inout PayloadEncoder) throws {
    let sorted = try _sortedForOutput(self, writer: writer) { element, nested in
      try element.encode(to: &nested)
    }
    writer.beginArray()
    for node in sorted { try writer.node(node) }
    writer.endArray()
  }
}

extension Dictionary where Key == String, Value: MappableValue {
  /// Writes an object with the members sorted by key, so the output does not depend on the
  /// dictionary's hashing.
  public func encode(to writer: inout PayloadEncoder) throws {
    writer.beginObject()
    for key in keys.sorted(by: { _compareUTF8($0, $1) < 0 }) {
      guard let value = self[key] else { continue }
      writer.key(key)
      try value.encode(to: &writer)
    }
    writer.endObject()
  }
}

extension MappableValue where Self: RawRepresentable, RawValue: MappableValue {
  /// Writes the raw value.
  public func encode(to writer: inout PayloadEncoder) throws {
    try rawValue.encode(to: &writer)
  }
}

/// The elements written as nodes with `writer`'s settings, sorted by their compact JSON bytes.
func _sortedForOutput<Elements: Sequence>(
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
