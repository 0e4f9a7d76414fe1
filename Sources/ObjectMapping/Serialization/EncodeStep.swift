/// The serializing side of one rule, compiled: writes one value of a model (the key is written
/// by the ``InversePlan``). A final class holding the rule's step kind, so that the compiler
/// checks that it is `Sendable` (as ``DecodeStep`` does on the decoding side).
///
/// The class is not generic, so a plan runs its members' steps as plain class references,
/// unretained: no closure context, enum payload or model is copied per value. Each kind is
/// generic over the model (and value) type and reads its type parameters from its own class
/// metadata. The model is lent (``UnsafeBorrowedModel``) as the kind's `Object`.
final class EncodeStep: Sendable {
  /// What this step does: an attribute, a relationship, a grouped or upcast wrapper, ….
  let kind: any EncodeStepKind

  init(_ kind: any EncodeStepKind) {
    self.kind = kind
  }

  /// Writes this step's value of the model at `object`; returns `false` when nothing was
  /// written (a `nil` left out under `nulls`, or a failure recorded in `run`), so the plan takes
  /// the key back.
  @inline(__always)
  func write(
    _ object: UnsafeBorrowedModel, to writer: inout PayloadWriter, run: inout EncodingRun,
    nulls: NullPolicy
  ) -> Bool {
    kind.write(object, to: &writer, run: &run, nulls: nulls)
  }
}

/// What one kind of encode step does (``AttributeEncodeStep``, ``ToOneEncodeStep``,
/// ``GroupedEncodeStep``, …): each kind is a final class, immutable after `init`, whose
/// `Sendable` conformance the compiler checks. See ``EncodeStep/write(_:to:run:nulls:)``.
protocol EncodeStepKind: AnyObject, Sendable {
  /// See ``EncodeStep/write(_:to:run:nulls:)``.
  func write(
    _ object: UnsafeBorrowedModel, to writer: inout PayloadWriter, run: inout EncodingRun,
    nulls: NullPolicy
  ) -> Bool
}

/// A step running a closure on a copy of the model: the rarer rule kinds (compound sources,
/// computed members, rules lifted from a superclass's or a child's mapping).
final class ClosureEncodeStep<Object>: EncodeStepKind {
  let body: @Sendable (Object, inout PayloadWriter, inout EncodingRun, NullPolicy) -> Bool

  init(
    _ body:
      @escaping @Sendable (Object, inout PayloadWriter, inout EncodingRun, NullPolicy)
      -> Bool
  ) {
    self.body = body
  }

  func write(
    _ object: UnsafeBorrowedModel, to writer: inout PayloadWriter, run: inout EncodingRun,
    nulls: NullPolicy
  ) -> Bool {
    body(object.load(Object.self), &writer, &run, nulls)
  }
}

/// An ``Attribute``'s step: reads the property in place and writes it with the attribute's
/// ``ValueWriter``.
final class AttributeEncodeStep<Object, Value>: EncodeStepKind {
  let reader: PropertyReader<Object, Value>
  let valueWriter: ValueWriter<Value>
  /// ``valueWriter``'s kind, called directly on the hot path.
  private let writeValue: any ValueWriterKind<Value>
  /// The attribute's own date format, if it names one.
  let outputFormat: DateFormat?
  let hasOutputFormat: Bool
  /// Where errors are reported, relative to the object.
  let errorPath: [_PathComponent]

  init(
    reader: PropertyReader<Object, Value>, valueWriter: ValueWriter<Value>,
    outputFormat: DateFormat?, errorPath: [_PathComponent]
  ) {
    self.reader = reader
    self.valueWriter = valueWriter
    writeValue = valueWriter.kind
    self.outputFormat = outputFormat
    hasOutputFormat = outputFormat != nil
    self.errorPath = errorPath
  }

  func write(
    _ object: UnsafeBorrowedModel, to writer: inout PayloadWriter, run: inout EncodingRun,
    nulls: NullPolicy
  ) -> Bool {
    // The date format is swapped only for an attribute that names one: copying the writer's
    // format in and out for every value costs a retain and a release each.
    if hasOutputFormat { return writeWithOwnFormat(object, to: &writer, run: &run, nulls: nulls) }
    do {
      return try reader.withValue(in: object) {
        try writeValue.write($0, to: &writer, nulls: nulls)
      }
    } catch {
      run.record(error, at: errorPath)
      return false
    }
  }

  @inline(never)
  private func writeWithOwnFormat(
    _ object: UnsafeBorrowedModel, to writer: inout PayloadWriter, run: inout EncodingRun,
    nulls: NullPolicy
  ) -> Bool {
    let outerFormat = writer.dateFormat
    if let outputFormat { writer.dateFormat = outputFormat }
    defer { writer.dateFormat = outerFormat }
    do {
      return try reader.withValue(in: object) {
        try writeValue.write($0, to: &writer, nulls: nulls)
      }
    } catch {
      run.record(error, at: errorPath)
      return false
    }
  }
}

/// How an attribute writes its value: the value's own conversion, or a reversed transform.
///
/// A final class holding the writer's kind, so that the compiler checks that it is `Sendable`.
/// An attribute's step keeps the ``kind`` itself and calls it with the value in place (one
/// witness call, as a class hierarchy's override was one virtual call). The built-in scalar
/// types (and their optionals) have kinds of their own, which read the value without the
/// generic copy an unspecialized call makes.
final class ValueWriter<Value>: Sendable {
  /// How the value is written.
  let kind: any ValueWriterKind<Value>

  init(_ kind: any ValueWriterKind<Value>) {
    self.kind = kind
  }

  /// A writer made of a closure (reversed transforms, raw values, `Codable` values).
  convenience init(
    _ body: @escaping @Sendable (Value, inout PayloadWriter, NullPolicy) throws -> Bool
  ) {
    self.init(ClosureValueWriter(body))
  }

  /// Writes the lent `value` (a `Value`); returns `false` when it is `nil` and `nulls` leaves it out.
  @inline(__always)
  func write(_ value: UnsafeBorrowedModel, to writer: inout PayloadWriter, nulls: NullPolicy)
    throws -> Bool
  {
    try kind.write(value, to: &writer, nulls: nulls)
  }
}

/// What one kind of ``ValueWriter`` does: a final class, immutable after `init`, whose
/// `Sendable` conformance the compiler checks.
protocol ValueWriterKind<Value>: AnyObject, Sendable {
  associatedtype Value

  /// See ``ValueWriter/write(_:to:nulls:)``.
  func write(_ value: UnsafeBorrowedModel, to writer: inout PayloadWriter, nulls: NullPolicy)
    throws -> Bool
}

extension ValueWriter where Value: MappableValue {
  /// The value's own ``MappableValue`` writing.
  static var mappable: ValueWriter<Value> {
    builtInWriter(for: Value.self)
      ?? (Value.self as? any OptionalMappableValue.Type)?.nilAwareWriter(as: Value.self)
      ?? ValueWriter(MappableValueWriter<Value>())
  }
}

extension ValueWriter {
  /// The transform run in reverse, then the wire value's writing; `nil` for a one-way transform.
  static func reversing<Wire: MappableValue>(
    _ transform: ValueTransform<Wire, Value>
  ) -> ValueWriter<Value>? {
    guard transform.isReversible else { return nil }
    // An optional `Value` (a transform to `Reason?`): `nil` is left to the null policy.
    let isNone = OptionalTraits<Value>.ofValue?.isNone
    let wire = payloadValueWriter(for: Wire.self)
    return ValueWriter { value, writer, nulls in
      if let isNone, isNone(value) { return writer.nullIfIncluded(nulls) }
      try wire.write(transform.reverse(value), to: &writer)
      return true
    }
  }

  /// As ``reversing(_:)`` for an optional property: `nil` is left to the null policy.
  static func reversingOptional<Wire: MappableValue, Wrapped>(
    _ transform: ValueTransform<Wire, Wrapped>
  ) -> ValueWriter<Value>? where Value == Wrapped? {
    guard transform.isReversible else { return nil }
    let wire = payloadValueWriter(for: Wire.self)
    return ValueWriter { value, writer, nulls in
      guard let value else { return writer.nullIfIncluded(nulls) }
      try wire.write(transform.reverse(value), to: &writer)
      return true
    }
  }
}

extension ValueWriter
where Value: RawRepresentable & SendableMetatype, Value.RawValue: MappableValue {
  /// A raw-value enum without a ``MappableValue`` conformance: its raw value's writing.
  static var rawValue: ValueWriter<Value> {
    let raw = payloadValueWriter(for: Value.RawValue.self)
    return ValueWriter { value, writer, _ in
      try raw.write(value.rawValue, to: &writer)
      return true
    }
  }
}

extension ValueWriter {
  /// An optional raw-value enum without a ``MappableValue`` conformance: `nil` is left to the
  /// null policy.
  static func optionalRawValue<Wrapped: RawRepresentable & SendableMetatype>(
    _: Wrapped.Type
  ) -> ValueWriter<Value>
  where Value == Wrapped?, Wrapped.RawValue: MappableValue {
    let raw = payloadValueWriter(for: Wrapped.RawValue.self)
    return ValueWriter { value, writer, nulls in
      guard let value else { return writer.nullIfIncluded(nulls) }
      try raw.write(value.rawValue, to: &writer)
      return true
    }
  }
}

extension ValueWriter where Value: Encodable & SendableMetatype {
  /// A `Codable` value without a ``MappableValue`` conformance: written with `encoder`'s
  /// strategies; `nil` (of an optional) is left to the null policy.
  static func codable(_ encoder: FastJSONEncoder) -> ValueWriter<Value> {
    let settings = encoder.settings
    let isNone = OptionalTraits<Value>.ofValue?.isNone
    return ValueWriter { value, writer, nulls in
      if let isNone, isNone(value) { return writer.nullIfIncluded(nulls) }
      if writer.target == .json, settings.stream(value, into: &writer.json) { return true }
      do {
        try writer.node(try settings.node(of: value))
      } catch {
        throw encodingMappingError(error)
      }
      return true
    }
  }
}

/// A ``MappableValue``'s own writing, for any type but `Optional`: the type's direct writer (a
/// built-in type) or its node, chosen when the plan is compiled.
private final class MappableValueWriter<Value: MappableValue>: ValueWriterKind {
  let valueWriter = payloadValueWriter(for: Value.self)

  func write(
    _ value: UnsafeBorrowedModel, to writer: inout PayloadWriter, nulls: NullPolicy
  ) throws -> Bool {
    try valueWriter.write(value.typed(Value.self).value, to: &writer)
    return true
  }
}

/// An optional ``MappableValue``'s writing: `nil` is left to the null policy.
private final class OptionalMappableValueWriter<Wrapped: MappableValue>: ValueWriterKind {
  typealias Value = Wrapped?

  let wrappedWriter = payloadValueWriter(for: Wrapped.self)

  func write(
    _ value: UnsafeBorrowedModel, to writer: inout PayloadWriter, nulls: NullPolicy
  ) throws -> Bool {
    guard let wrapped = value.typed(Wrapped?.self).value else {
      return writer.nullIfIncluded(nulls)
    }
    try wrappedWriter.write(wrapped, to: &writer)
    return true
  }
}

/// `Optional` of a mappable value, recognised once when a writer is made (not per value).
protocol OptionalMappableValue {
  /// The writer of this optional type, as a writer of `Value` (which is this type).
  static func nilAwareWriter<Value>(as type: Value.Type) -> ValueWriter<Value>?
}

extension Optional: OptionalMappableValue where Wrapped: MappableValue {
  static func nilAwareWriter<Value>(as type: Value.Type) -> ValueWriter<Value>? {
    ValueWriter<Wrapped?>(OptionalMappableValueWriter<Wrapped>()) as? ValueWriter<Value>
  }
}

/// A writer made of a closure (reversed transforms).
private final class ClosureValueWriter<Value>: ValueWriterKind {
  let body: @Sendable (Value, inout PayloadWriter, NullPolicy) throws -> Bool

  init(_ body: @escaping @Sendable (Value, inout PayloadWriter, NullPolicy) throws -> Bool) {
    self.body = body
  }

  func write(
    _ value: UnsafeBorrowedModel, to writer: inout PayloadWriter, nulls: NullPolicy
  ) throws -> Bool {
    try body(value.load(Value.self), &writer, nulls)
  }
}

/// The writer of a built-in scalar type or its optional, or `nil`.
private func builtInWriter<Value>(for type: Value.Type) -> ValueWriter<Value>? {
  let kinds: [(Any.Type, BuiltInWriter<Value>.Kind)] = [
    (String.self, .scalar(.string)), (String?.self, .scalar(.optionalString)),
    (Int.self, .scalar(.int)), (Int?.self, .scalar(.optionalInt)), (Int64.self, .scalar(.int64)),
    (Int64?.self, .scalar(.optionalInt64)), (Bool.self, .scalar(.bool)),
    (Bool?.self, .scalar(.optionalBool)), (Double.self, .double),
    (Double?.self, .optionalDouble),
  ]
  guard let kind = kinds.first(where: { $0.0 == type })?.1 else { return nil }
  return ValueWriter(BuiltInWriter(kind))
}

/// Writes a built-in scalar (or its optional), read from `Value`'s storage as its concrete
/// type: no value-witness copy, no protocol witness call.
private final class BuiltInWriter<Value>: ValueWriterKind {
  enum Kind {
    /// A type whose writing cannot fail.
    case scalar(BuiltInScalar)
    /// A double (which fails when it is not finite and the writer rejects it).
    case double, optionalDouble
  }

  /// `Value`'s concrete type (checked when the writer was made).
  let kind: Kind

  init(_ kind: Kind) {
    self.kind = kind
  }

  func write(
    _ value: UnsafeBorrowedModel, to writer: inout PayloadWriter, nulls: NullPolicy
  ) throws -> Bool {
    switch kind {
    case .scalar(let scalar):
      return scalar.write(value, to: &writer, nulls: nulls)
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

/// The built-in types (and their optionals) whose writing cannot fail: what an attribute of a
/// stored property of one of them writes, which the plan's compact JSON loop does itself
/// (``ScalarAttribute``).
enum BuiltInScalar {
  case string, optionalString, int, optionalInt, int64, optionalInt64, bool, optionalBool

  /// Whether the values are optionals (which may write nothing: a `nil` left out); the
  /// others always write a value.
  var isOptional: Bool {
    switch self {
    case .string, .int, .int64, .bool: false
    case .optionalString, .optionalInt, .optionalInt64, .optionalBool: true
    }
  }

  /// The type of the values of this kind.
  var valueType: Any.Type {
    switch self {
    case .string: String.self
    case .optionalString: String?.self
    case .int: Int.self
    case .optionalInt: Int?.self
    case .int64: Int64.self
    case .optionalInt64: Int64?.self
    case .bool: Bool.self
    case .optionalBool: Bool?.self
    }
  }

  /// Writes the lent `value` (of ``valueType``); returns `false` when it is `nil` and `nulls`
  /// leaves it out.
  @inline(__always)
  func write(_ value: UnsafeBorrowedModel, to writer: inout PayloadWriter, nulls: NullPolicy)
    -> Bool
  {
    switch self {
    // Strings are written borrowed in place: a copy costs a retain and a release each.
    case .string:
      value.withValue(String.self) { writer.string($0) }
    case .optionalString:
      let isNil = value.withValue(String?.self) { text -> Bool in
        guard let text = copy text else { return true }
        writer.string(text)
        return false
      }
      if isNil { return writer.nullIfIncluded(nulls) }
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
    }
    return true
  }
}

/// An attribute that the plan's compact JSON loop writes itself, without calling its step: a
/// stored property (at ``offset`` in the model) of a ``BuiltInScalar`` type, with the
/// attribute's own writing and no date format of its own. It writes what the step writes (the
/// step's ``AttributeEncodeStep/write(_:to:run:nulls:)`` would read the same bytes and call
/// the same ``BuiltInScalar/write(_:to:nulls:)``), minus the step's calls: a protocol witness, a
/// closure and a second witness per value (about a tenth of serializing twitter.json).
struct ScalarAttribute {
  let kind: BuiltInScalar
  /// The property's offset in the model (``PropertyReader/storedOffset``).
  let offset: Int

  /// Writes the property of the `Root` model at `object`.
  @inline(__always)
  func write<Root>(
    _ object: UnsafeBorrowedModel, root: Root.Type, to writer: inout PayloadWriter,
    nulls: NullPolicy
  ) -> Bool {
    kind.write(
      object.advanced(by: offset, from: Root.self, to: kind.valueType), to: &writer,
      nulls: nulls)
  }
}

/// An encode step kind that may be written by the plan's compact loop (``ScalarAttribute``).
protocol ScalarAttributeStep {
  /// The attribute as the plan writes it; `nil` when only the step can write it.
  var scalarAttribute: ScalarAttribute? { get }
}

extension AttributeEncodeStep: ScalarAttributeStep {
  var scalarAttribute: ScalarAttribute? {
    guard !hasOutputFormat, let offset = reader.storedOffset,
      let builtIn = writeValue as? BuiltInWriter<Value>, case .scalar(let kind) = builtIn.kind
    else { return nil }
    return ScalarAttribute(kind: kind, offset: offset)
  }
}

/// The step of a rule whose definition cannot be run (a key path that could trap, see
/// ``KeyPathCheck``): records an `invalidDefinition` error for every object instead of reading
/// the model.
final class InvalidRuleEncodeStep: EncodeStepKind {
  let message: String
  /// Where the error is reported, relative to the object (the rule's output path).
  let errorPath: [_PathComponent]

  init(_ message: String, errorPath: [_PathComponent]) {
    self.message = message
    self.errorPath = errorPath
  }

  func write(
    _ object: UnsafeBorrowedModel, to writer: inout PayloadWriter, run: inout EncodingRun,
    nulls: NullPolicy
  ) -> Bool {
    run.errors.append(
      MappingError(
        path: _jsonPointer(run.path + errorPath), .invalidDefinition(message: message)))
    return false
  }
}
