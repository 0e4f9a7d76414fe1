/// The serializing side of one rule, compiled: writes one value of a model (the key is written
/// by the ``_InversePlan``).
///
/// The base class is not generic, so a plan runs its members' steps as plain class references,
/// unretained: no closure context, enum payload or model is copied per value. Each subclass is
/// generic over the model (and value) type and reads its type parameters from its own class
/// metadata. The model is lent (``_BorrowedModel``) as the subclass's `Object`.
class _EncodeStep: @unchecked Sendable {
  // @unchecked: steps are immutable after init; subclasses hold only `let` properties.

  /// Writes this step's value of the model at `object`; returns `false` when nothing was
  /// written (a `nil` left out under `nulls`, or a failure recorded in `run`), so the plan takes
  /// the key back.
  func write(
    _ object: _BorrowedModel, to writer: inout _PayloadWriter, run: inout _EncodingRun,
    nulls: NullPolicy
  ) -> Bool { false }
}

/// A step running a closure on a copy of the model: the rarer rule kinds (compound sources,
/// computed members, rules lifted from a superclass's or a child's mapping).
final class _ClosureEncodeStep<Object>: _EncodeStep, @unchecked Sendable {
  // @unchecked: immutable after init (see _EncodeStep).
  let body: @Sendable (Object, inout _PayloadWriter, inout _EncodingRun, NullPolicy) -> Bool

  init(
    _ body:
      @escaping @Sendable (Object, inout _PayloadWriter, inout _EncodingRun, NullPolicy)
      -> Bool
  ) {
    self.body = body
  }

  override func write(
    _ object: _BorrowedModel, to writer: inout _PayloadWriter, run: inout _EncodingRun,
    nulls: NullPolicy
  ) -> Bool {
    body(object.load(Object.self), &writer, &run, nulls)
  }
}

/// An ``Attribute``'s step: reads the property in place and writes it with the attribute's
/// ``_ValueWriter``.
final class _AttributeEncodeStep<Object, Value>: _EncodeStep, @unchecked Sendable {
  // @unchecked: immutable after init (see _EncodeStep).
  let reader: _PropertyReader<Object, Value>
  let valueWriter: _ValueWriter<Value>
  /// The attribute's own date format, if it names one.
  let outputFormat: DateFormat?
  let hasOutputFormat: Bool
  /// Where errors are reported, relative to the object.
  let errorPath: [_PathComponent]

  init(
    reader: _PropertyReader<Object, Value>, valueWriter: _ValueWriter<Value>,
    outputFormat: DateFormat?, errorPath: [_PathComponent]
  ) {
    self.reader = reader
    self.valueWriter = valueWriter
    self.outputFormat = outputFormat
    hasOutputFormat = outputFormat != nil
    self.errorPath = errorPath
  }

  override func write(
    _ object: _BorrowedModel, to writer: inout _PayloadWriter, run: inout _EncodingRun,
    nulls: NullPolicy
  ) -> Bool {
    // The date format is swapped only for an attribute that names one: copying the writer's
    // format in and out for every value costs a retain and a release each.
    if hasOutputFormat { return writeWithOwnFormat(object, to: &writer, run: &run, nulls: nulls) }
    do {
      return try reader.withValue(in: object) {
        try valueWriter.write($0, to: &writer, nulls: nulls)
      }
    } catch {
      run.record(error, at: errorPath)
      return false
    }
  }

  @inline(never)
  private func writeWithOwnFormat(
    _ object: _BorrowedModel, to writer: inout _PayloadWriter, run: inout _EncodingRun,
    nulls: NullPolicy
  ) -> Bool {
    let outerFormat = writer.dateFormat
    if let outputFormat { writer.dateFormat = outputFormat }
    defer { writer.dateFormat = outerFormat }
    do {
      return try reader.withValue(in: object) {
        try valueWriter.write($0, to: &writer, nulls: nulls)
      }
    } catch {
      run.record(error, at: errorPath)
      return false
    }
  }
}

/// How an attribute writes its value: the value's own conversion, or a reversed transform.
///
/// A class, so an attribute's step calls it through its vtable rather than through closures,
/// with the value in place. The built-in scalar types (and their optionals) have writers of
/// their own, which read the value without the generic copy an unspecialized call makes.
class _ValueWriter<Value>: @unchecked Sendable {
  // @unchecked: immutable after init; subclasses hold only `let` properties.

  /// Writes the lent `value` (a `Value`); returns `false` when it is `nil` and `nulls` leaves it out.
  func write(_ value: _BorrowedModel, to writer: inout _PayloadWriter, nulls: NullPolicy)
    throws -> Bool
  { false }
}

extension _ValueWriter where Value: MappableValue {
  /// The value's own ``MappableValue`` writing.
  static var mappable: _ValueWriter<Value> {
    _builtInWriter(for: Value.self)
      ?? (Value.self as? any _OptionalMappableValue.Type)?.nilAwareWriter(as: Value.self)
      ?? _MappableValueWriter<Value>()
  }
}

extension _ValueWriter {
  /// The transform run in reverse, then the wire value's writing; `nil` for a one-way transform.
  static func reversing<Wire: MappableValue>(
    _ transform: ValueTransform<Wire, Value>
  ) -> _ValueWriter<Value>? {
    guard transform.isReversible else { return nil }
    // An optional `Value` (a transform to `Reason?`): `nil` is left to the null policy.
    let isNone = _OptionalTraits<Value>.ofValue?.isNone
    let wire = _payloadValueWriter(for: Wire.self)
    return _ClosureValueWriter { value, writer, nulls in
      if let isNone, isNone(value) { return writer.nullIfIncluded(nulls) }
      try wire.write(transform.reverse(value), to: &writer)
      return true
    }
  }

  /// As ``reversing(_:)`` for an optional property: `nil` is left to the null policy.
  static func reversingOptional<Wire: MappableValue, Wrapped>(
    _ transform: ValueTransform<Wire, Wrapped>
  ) -> _ValueWriter<Value>? where Value == Wrapped? {
    guard transform.isReversible else { return nil }
    let wire = _payloadValueWriter(for: Wire.self)
    return _ClosureValueWriter { value, writer, nulls in
      guard let value else { return writer.nullIfIncluded(nulls) }
      try wire.write(transform.reverse(value), to: &writer)
      return true
    }
  }
}

extension _ValueWriter
where Value: RawRepresentable & SendableMetatype, Value.RawValue: MappableValue {
  /// A raw-value enum without a ``MappableValue`` conformance: its raw value's writing.
  static var rawValue: _ValueWriter<Value> {
    let raw = _payloadValueWriter(for: Value.RawValue.self)
    return _ClosureValueWriter { value, writer, _ in
      try raw.write(value.rawValue, to: &writer)
      return true
    }
  }
}

extension _ValueWriter {
  /// An optional raw-value enum without a ``MappableValue`` conformance: `nil` is left to the
  /// null policy.
  static func optionalRawValue<Wrapped: RawRepresentable & SendableMetatype>(
    _: Wrapped.Type
  ) -> _ValueWriter<Value>
  where Value == Wrapped?, Wrapped.RawValue: MappableValue {
    let raw = _payloadValueWriter(for: Wrapped.RawValue.self)
    return _ClosureValueWriter { value, writer, nulls in
      guard let value else { return writer.nullIfIncluded(nulls) }
      try raw.write(value.rawValue, to: &writer)
      return true
    }
  }
}

extension _ValueWriter where Value: Encodable & SendableMetatype {
  /// A `Codable` value without a ``MappableValue`` conformance: written with `encoder`'s
  /// strategies; `nil` (of an optional) is left to the null policy.
  static func codable(_ encoder: FastJSONEncoder) -> _ValueWriter<Value> {
    let settings = encoder.settings
    let isNone = _OptionalTraits<Value>.ofValue?.isNone
    return _ClosureValueWriter { value, writer, nulls in
      if let isNone, isNone(value) { return writer.nullIfIncluded(nulls) }
      if writer.target == .json, settings.stream(value, into: &writer.json) { return true }
      do {
        try writer.node(try settings.node(of: value))
      } catch {
        throw _encodingMappingError(error)
      }
      return true
    }
  }
}

/// A ``MappableValue``'s own writing, for any type but `Optional`: the type's direct writer (a
/// built-in type) or its node, chosen when the plan is compiled.
private final class _MappableValueWriter<Value: MappableValue>: _ValueWriter<Value>,
  @unchecked Sendable
{
  let valueWriter = _payloadValueWriter(for: Value.self)

  override func write(
    _ value: _BorrowedModel, to writer: inout _PayloadWriter, nulls: NullPolicy
  ) throws -> Bool {
    try valueWriter.write(value.typed(Value.self).value, to: &writer)
    return true
  }
}

/// An optional ``MappableValue``'s writing: `nil` is left to the null policy.
private final class _OptionalMappableValueWriter<Wrapped: MappableValue>: _ValueWriter<Wrapped?>,
  @unchecked Sendable
{
  let wrappedWriter = _payloadValueWriter(for: Wrapped.self)

  override func write(
    _ value: _BorrowedModel, to writer: inout _PayloadWriter, nulls: NullPolicy
  ) throws -> Bool {
    guard let wrapped = value.typed(Wrapped?.self).value else {
      return writer.nullIfIncluded(nulls)
    }
    try wrappedWriter.write(wrapped, to: &writer)
    return true
  }
}

/// `Optional` of a mappable value, recognised once when a writer is made (not per value).
protocol _OptionalMappableValue {
  /// The writer of this optional type, as a writer of `Value` (which is this type).
  static func nilAwareWriter<Value>(as type: Value.Type) -> _ValueWriter<Value>?
}

extension Optional: _OptionalMappableValue where Wrapped: MappableValue {
  static func nilAwareWriter<Value>(as type: Value.Type) -> _ValueWriter<Value>? {
    _OptionalMappableValueWriter<Wrapped>() as _ValueWriter<Wrapped?> as? _ValueWriter<Value>
  }
}

/// A writer made of a closure (reversed transforms).
final class _ClosureValueWriter<Value>: _ValueWriter<Value>, @unchecked Sendable {
  let body: @Sendable (Value, inout _PayloadWriter, NullPolicy) throws -> Bool

  init(_ body: @escaping @Sendable (Value, inout _PayloadWriter, NullPolicy) throws -> Bool) {
    self.body = body
  }

  override func write(
    _ value: _BorrowedModel, to writer: inout _PayloadWriter, nulls: NullPolicy
  ) throws -> Bool {
    try body(value.load(Value.self), &writer, nulls)
  }
}

/// The writer of a built-in scalar type or its optional, or `nil`.
private func _builtInWriter<Value>(for type: Value.Type) -> _ValueWriter<Value>? {
  let kinds: [(Any.Type, _BuiltInWriter<Value>.Kind)] = [
    (String.self, .string), (String?.self, .optionalString), (Int.self, .int),
    (Int?.self, .optionalInt), (Int64.self, .int64), (Int64?.self, .optionalInt64),
    (Bool.self, .bool), (Bool?.self, .optionalBool), (Double.self, .double),
    (Double?.self, .optionalDouble),
  ]
  guard let kind = kinds.first(where: { $0.0 == type })?.1 else { return nil }
  return _BuiltInWriter(kind)
}

/// Writes a built-in scalar (or its optional), read from `Value`'s storage as its concrete
/// type: no value-witness copy, no protocol witness call.
private final class _BuiltInWriter<Value>: _ValueWriter<Value>, @unchecked Sendable {
  enum Kind {
    case string, optionalString, int, optionalInt, int64, optionalInt64, bool, optionalBool
    case double, optionalDouble
  }

  /// `Value`'s concrete type (checked when the writer was made).
  let kind: Kind

  init(_ kind: Kind) {
    self.kind = kind
  }

  override func write(
    _ value: _BorrowedModel, to writer: inout _PayloadWriter, nulls: NullPolicy
  ) throws -> Bool {
    switch kind {
    case .string:
      writer.string(value.load(String.self))
    case .optionalString:
      guard let text = value.load(String?.self) else {
        return writer.nullIfIncluded(nulls)
      }
      writer.string(text)
    case .int:
      writer.int64(Int64(value.load(Int.self)))
    case .optionalInt:
      guard let number = value.load(Int?.self) else {
        return writer.nullIfIncluded(nulls)
      }
      writer.int64(Int64(number))
    case .int64:
      writer.int64(value.load(Int64.self))
    case .optionalInt64:
      guard let number = value.load(Int64?.self) else {
        return writer.nullIfIncluded(nulls)
      }
      writer.int64(number)
    case .bool:
      writer.bool(value.load(Bool.self))
    case .optionalBool:
      guard let flag = value.load(Bool?.self) else {
        return writer.nullIfIncluded(nulls)
      }
      writer.bool(flag)
    case .double:
      try writer.double(value.load(Double.self))
    case .optionalDouble:
      guard let number = value.load(Double?.self) else {
        return writer.nullIfIncluded(nulls)
      }
      try writer.double(number)
    }
    return true
  }
}

/// The step of a rule whose definition cannot be run (a key path that could trap, see
/// ``_KeyPathCheck``): records an `invalidDefinition` error for every object instead of reading
/// the model.
final class _InvalidRuleEncodeStep: _EncodeStep, @unchecked Sendable {
  // @unchecked: immutable after init (see _EncodeStep).
  let message: String
  /// Where the error is reported, relative to the object (the rule's output path).
  let errorPath: [_PathComponent]

  init(_ message: String, errorPath: [_PathComponent]) {
    self.message = message
    self.errorPath = errorPath
  }

  override func write(
    _ object: _BorrowedModel, to writer: inout _PayloadWriter, run: inout _EncodingRun,
    nulls: NullPolicy
  ) -> Bool {
    run.errors.append(
      MappingError(
        path: _jsonPointer(run.path + errorPath), .invalidDefinition(message: message)))
    return false
  }
}
