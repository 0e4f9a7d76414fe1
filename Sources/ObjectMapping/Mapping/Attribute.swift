/// Maps one payload value to one property, both ways.
///
/// ```swift
/// Attribute("id", \.id)                                          // required: Int is not optional
/// Attribute("email", \.email)                                    // String? may be absent or null
/// Attribute("body", \.body, default: "")                         // absent or null -> ""
/// Attribute("user.name", \.userName)                             // nested source key path
/// Attribute("published", \.publishedAt, .date(format: "M/d/yyyy")) // two-way transform
/// Attribute("score", \.score, decodeOnly: { (text: String) in Double(text.count) })
/// ```
///
/// Absent, `null` and defaults:
/// - absent key: a property whose type is not optional and that has no `default:` is
///   *required*, and its absence is an error; an optional property keeps its value; a default
///   fills in. ``optional()`` and ``required()`` override the inferred rule.
/// - `null`: an optional property becomes `nil`; otherwise the default is used, or it is an
///   error. `null` never becomes 0.
public struct Attribute<Object, Value>: MappingRule, _DecodingRule {
  /// Where the value is read in the payload.
  public let source: SourcePath
  let property: WritableKeyPath<Object, Value> & Sendable
  let read: @Sendable (PayloadValue) throws -> Value
  let nullValue: @Sendable () -> Value?
  let defaultValue: (@Sendable () -> Value)?
  let serialize: (@Sendable (Value) throws -> Node)?
  let expected: String
  var presence: _Presence = .inferred
  var attributeDateFormats: [DateFormat]?
  var context: _ValueContext?

  init(
    source: SourcePath, property: WritableKeyPath<Object, Value> & Sendable,
    read: @escaping @Sendable (PayloadValue) throws -> Value,
    nullValue: @escaping @Sendable () -> Value?, defaultValue: (@Sendable () -> Value)?,
    serialize: (@Sendable (Value) throws -> Node)?, expected: String
  ) {
    self.source = source
    self.property = property
    self.read = read
    self.nullValue = nullValue
    self.defaultValue = defaultValue
    self.serialize = serialize
    self.expected = expected
  }

  /// Whether the rule can be inverted (it has a reverse direction and reads no special source).
  public var isReversible: Bool { serialize != nil && !source.isSpecial }

  /// The same rule, never required: an absent value leaves the property as it is.
  public func optional() -> Self {
    var copy = self
    copy.presence = .optional
    return copy
  }

  /// The same rule, always required: an absent value is an error even for an optional property.
  public func required() -> Self {
    var copy = self
    copy.presence = .required
    return copy
  }

  /// The same rule reading dates with these formats, tried in order, instead of the mapping's.
  public func dateFormats(_ formats: [DateFormat]) -> Self {
    var copy = self
    copy.attributeDateFormats = formats
    return copy
  }

  var propertyKeyPath: AnyKeyPath & Sendable { property }

  func bound(to mappingContext: _ValueContext) -> Self {
    var copy = self
    copy.context =
      attributeDateFormats.map { mappingContext.with(dateFormats: $0) } ?? mappingContext
    return copy
  }

  func decodeStep(mayRepeat: Bool) -> _DecodeStep {
    _AttributeStep(self, mayRepeat: mayRepeat)
  }

  fileprivate func _transformFailure(_ error: any Error, payload: PayloadValue) -> any Error {
    switch error {
    case is ConversionFailure, is _NestedConversionFailures, is MappingError, is MappingErrors:
      return error
    default:
      return ConversionFailure.invalidValue(
        expected: expected, raw: payload.rawDescription, reason: "\(error)")
    }
  }
}

/// An ``Attribute`` compiled for decoding.
final class _AttributeStep<Object, Value>: _DecodeStep, @unchecked Sendable {
  // @unchecked: immutable after init (see _DecodeStep).
  let rule: Attribute<Object, Value>
  let source: _CompiledSource
  let context: _ValueContext
  /// What `null` becomes (`Value.nullValue`), computed once; `nil` when `null` is not a value.
  let nullReplacement: UnsafeMutablePointer<Value>?
  /// An absent value is an error (required, or inferred and not optional, with no default).
  let absenceIsError: Bool
  /// The byte offset of the property when it is stored inline in `Object` (a stored property
  /// of a struct): values are then written in place instead of through the key path.
  let inlineOffset: Int?

  init(_ rule: Attribute<Object, Value>, mayRepeat: Bool) {
    self.rule = rule
    source = _CompiledSource(rule.source, mayRepeat: mayRepeat)
    context = rule.context ?? .default
    let nullValue = rule.nullValue()
    nullReplacement = nullValue.map { value in
      let pointer = UnsafeMutablePointer<Value>.allocate(capacity: 1)
      pointer.initialize(to: value)
      return pointer
    }
    absenceIsError =
      rule.defaultValue == nil
      && (rule.presence == .required || (rule.presence == .inferred && nullValue == nil))
    inlineOffset = MemoryLayout<Object>.offset(of: rule.property)
  }

  /// Writes `value` into the property of the model at `object`.
  @inline(__always)
  private func assign(_ value: Value, to object: UnsafeMutablePointer<Object>) {
    if let inlineOffset {
      (UnsafeMutableRawPointer(object) + inlineOffset).assumingMemoryBound(to: Value.self)
        .pointee = value
    } else {
      object.pointee[keyPath: rule.property] = value
    }
  }

  deinit {
    nullReplacement?.deinitialize(count: 1)
    nullReplacement?.deallocate()
    source.deallocate()
  }

  override func decode(
    into object: UnsafeMutableRawPointer, objectIndex: Int, hint: inout _MemberHint,
    run: inout _MappingRun
  ) {
    let object = object.assumingMemoryBound(to: Object.self)
    guard let index = source.resolve(in: run.tape, from: objectIndex, hint: &hint) else {
      if let defaultValue = rule.defaultValue {
        assign(defaultValue(), to: object)
      } else if absenceIsError {
        run.fail(.missingRequiredKey, at: source.pathComponents)
      }
      return
    }
    if run.tape[index].kind == .null {
      if let nullReplacement {
        assign(nullReplacement.pointee, to: object)
      } else if let defaultValue = rule.defaultValue {
        assign(defaultValue(), to: object)
      } else {
        run.fail(.typeMismatch(expected: rule.expected, found: "null"), at: source.pathComponents)
      }
      return
    }
    let payload = PayloadValue(tape: run.tape, index: index, context: context)
    do {
      assign(try rule.read(payload), to: object)
    } catch {
      run.record(rule._transformFailure(error, payload: payload), at: source.pathComponents)
    }
  }
}

extension Attribute where Value: MappableValue {
  /// Maps the value at `source` to `property` with the value type's own conversion.
  ///
  /// - Parameters:
  ///   - source: A dotted key path (`"user.name"`), an array of literal keys, or a special
  ///     source such as ``SourcePath/root``.
  ///   - property: The property to write.
  public init(
    _ source: some SourcePathConvertible, _ property: WritableKeyPath<Object, Value> & Sendable
  ) {
    self.init(
      source: source.sourcePath, property: property, read: { try Value(payload: $0) },
      nullValue: { Value.nullValue }, defaultValue: nil,
      serialize: { try $0.payloadNode() }, expected: Value.expectedDescription)
  }

  /// Maps the value at `source` to `property`, using `default` when the value is absent or
  /// `null`.
  public init(
    _ source: some SourcePathConvertible, _ property: WritableKeyPath<Object, Value> & Sendable,
    default defaultValue: Value
  ) where Value: Sendable {
    self.init(
      source: source.sourcePath, property: property, read: { try Value(payload: $0) },
      nullValue: { Value.nullValue }, defaultValue: { defaultValue },
      serialize: { try $0.payloadNode() }, expected: Value.expectedDescription)
  }
}

extension Attribute {
  /// Maps the value at `source` through a two-way transform from the payload type `Wire`.
  ///
  /// - Parameters:
  ///   - source: Where the value is read.
  ///   - property: The property to write.
  ///   - transform: Converts the payload value to the property's value and back.
  public init<Wire: MappableValue>(
    _ source: some SourcePathConvertible, _ property: WritableKeyPath<Object, Value> & Sendable,
    _ transform: ValueTransform<Wire, Value>
  ) {
    self.init(
      source: source.sourcePath, property: property,
      read: { try transform.forward(Wire(payload: $0)) }, nullValue: { nil }, defaultValue: nil,
      serialize: Attribute._serializer(transform),
      expected: Wire.expectedDescription)
  }

  /// Maps the value at `source` through a two-way transform, with a default for an absent or
  /// `null` value.
  public init<Wire: MappableValue>(
    _ source: some SourcePathConvertible, _ property: WritableKeyPath<Object, Value> & Sendable,
    _ transform: ValueTransform<Wire, Value>, default defaultValue: Value
  ) where Value: Sendable {
    self.init(
      source: source.sourcePath, property: property,
      read: { try transform.forward(Wire(payload: $0)) }, nullValue: { nil },
      defaultValue: { defaultValue },
      serialize: Attribute._serializer(transform),
      expected: Wire.expectedDescription)
  }

  /// Maps the value at `source` into an optional property through a two-way transform;
  /// `null` becomes `nil` without calling the transform.
  public init<Wire: MappableValue, Wrapped>(
    _ source: some SourcePathConvertible,
    _ property: WritableKeyPath<Object, Wrapped?> & Sendable,
    _ transform: ValueTransform<Wire, Wrapped>
  ) where Value == Wrapped? {
    self.init(
      source: source.sourcePath, property: property,
      read: { try transform.forward(Wire(payload: $0)) }, nullValue: { .some(nil) },
      defaultValue: nil,
      serialize: Attribute._optionalSerializer(transform),
      expected: Wire.expectedDescription)
  }

  /// Maps the value at `source` with a one-way closure. The inverse leaves this rule out and
  /// says so.
  ///
  /// - Parameters:
  ///   - source: Where the value is read.
  ///   - property: The property to write.
  ///   - decodeOnly: Converts the payload value; throw ``ConversionFailure`` for bad input.
  public init<Wire: MappableValue>(
    _ source: some SourcePathConvertible, _ property: WritableKeyPath<Object, Value> & Sendable,
    decodeOnly convert: @escaping @Sendable (Wire) throws -> Value
  ) {
    self.init(
      source: source.sourcePath, property: property, read: { try convert(Wire(payload: $0)) },
      nullValue: { nil }, defaultValue: nil, serialize: nil, expected: Wire.expectedDescription)
  }
}

extension Attribute {
  static func _serializer<Wire: MappableValue>(
    _ transform: ValueTransform<Wire, Value>
  ) -> (@Sendable (Value) throws -> Node)? {
    guard transform.isReversible else { return nil }
    return { try transform.reverse($0).payloadNode() }
  }

  static func _optionalSerializer<Wire: MappableValue, Wrapped>(
    _ transform: ValueTransform<Wire, Wrapped>
  ) -> (@Sendable (Value) throws -> Node)? where Value == Wrapped? {
    guard transform.isReversible else { return nil }
    return { value in
      guard let value else { return .null }
      return try transform.reverse(value).payloadNode()
    }
  }
}
