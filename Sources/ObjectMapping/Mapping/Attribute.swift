import Foundation

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
///
/// The property's key path must not trap. `Attribute("zip", \.address!.city)` would stop the
/// program on `{"address": null}` (and when serializing a model whose address is `nil`), and
/// `Attribute("first", \.items[0].name)` on a short array, so a force unwrap or an array
/// subscript in the key path is a definition problem, reported by ``Mapping/validate()`` and
/// on first use:
///
/// ```
/// invalid mapping definition: Attribute "zip" uses the key path \Person.address!.city, whose
/// force unwrap (!) would stop the program when the value is nil (…); map the optional with a
/// Relationship and a mapping of its own, or give the model a property of its own for the value
/// ```
///
/// A mapping used as a child is not checked by itself: its rule reports the same text as an
/// error at the child's path and never touches the key path. Map the optional with
/// `Relationship("address", \.address, addressMapping)` instead. Computed properties and other
/// subscripts (a dictionary's yields an optional) are the model's own code and are allowed;
/// optional chaining (`\.address?.city`) never traps but gives a read-only key path, which no
/// rule can write through (so no value is silently dropped).
public struct Attribute<Object, Value>: MappingRule {
  /// Where the value is read in the payload.
  var source: SourcePath
  let property: WritableKeyPath<Object, Value> & Sendable
  var read: @Sendable (PayloadValue) throws -> Value
  let nullValue: @Sendable () -> Value?
  /// What `null` becomes under ``NullIntoNonOptional/zero`` (``MappableValue/zeroValue``);
  /// `nil` for transforms and closures.
  var zeroValue: (@Sendable () -> Value?)?
  let defaultValue: (@Sendable () -> Value)?
  let serialize: ValueWriter<Value>?
  let expected: String
  var presence: Presence = .inferred
  var attributeDateFormats: [DateFormat]?
  var nullPolicy: NullPolicy?
  var isDecodeOnly = false
  /// Set by ``ignoringNull()``: `null` leaves the property as it is.
  var ignoresNull = false
  var validators: [Validator<Value>] = []
  /// How absent and `null` values are treated (definition files' semantics).
  var absence = _AbsenceTreatment.standard
  /// A rule reading ``SourcePath/root`` (AppCoreKit's `@self`) whose inverse writes the
  /// reversed value's members into the object being written (``writingSelfBack()``).
  var writesSelfBack = false

  /// The same rule validating each value it is about to set (RestKit's key-value validation).
  ///
  /// ```swift
  /// Attribute("title", \.title).validate { value in value = value.uppercased(); return true }
  /// Attribute("id", \.id).validate("id 0 is a placeholder") { $0 != 0 }
  /// Attribute("body", \.body).validate { if $0.isEmpty { throw ArticleError.emptyBody }; return true }
  /// ```
  ///
  /// Change `value` to **replace** it; return `false` to **reject** it (the property keeps its
  /// previous value, mapping goes on, and the rejection is reported as a diagnostic with
  /// `message`); throw to **fail** the object (it is not produced, and an existing instance is
  /// left as it was). Validators run in the order they were added, then the model's
  /// ``KeyValueValidating`` hook. Defaults filled in for absent values are not validated.
  @preconcurrency
  public func validate(
    _ message: String? = nil, _ body: @escaping @Sendable (inout Value) throws -> Bool
  ) -> Self {
    var copy = self
    copy.validators.append(Validator(message: message, body: body))
    return copy
  }
  var groupNames: [String] = []
  /// For a rule declared without a key (`Attribute(\.createdAt)`): the property's name, which
  /// the mapping's ``KeyConvention`` turns into the key.
  var derivedKey: DerivedKey?
  /// Whether the key is the default one made from ``derivedKey`` (no mapping convention applied
  /// yet): a call's convention then makes it (``MappingOptions/keys``).
  var keyIsDefault = false
  /// For a compound source: makes the writer of part `i` of the value (the transform run in
  /// reverse), called once when the encoding plan is compiled, so that the parts' value writer
  /// is chosen then (a cast of the metatype), never per value.
  var compoundWriter: (@Sendable () -> @Sendable (Value, Int, inout PayloadWriter) throws -> Void)?
  /// The stack a level of the value's own nesting takes while it is read, for a value whose
  /// reader recurses without a bound of its type (a `Node`, a `Codable` value); 0 for the
  /// others (``NestingCost``).
  var nestingCost = NestingCost.of(Value.self)

  init(
    source: SourcePath, property: WritableKeyPath<Object, Value> & Sendable,
    read: @escaping @Sendable (PayloadValue) throws -> Value,
    nullValue: @escaping @Sendable () -> Value?, defaultValue: (@Sendable () -> Value)?,
    serialize: ValueWriter<Value>?, expected: String
  ) {
    self.source = source
    self.property = property
    self.read = read
    self.nullValue = nullValue
    self.defaultValue = defaultValue
    self.serialize = serialize
    self.expected = expected
    keyPathProblem = KeyPathCheck.problem(property, rule: "Attribute \"\(source)\"")
  }

  /// Why ``property`` must not be used (a force unwrap or an array subscript that could trap),
  /// or `nil`; see ``KeyPathCheck``.
  let keyPathProblem: String?

  /// Whether the rule can be inverted (it has a reverse direction, reads no special source and
  /// is not marked ``decodeOnly()``).
  var isReversible: Bool {
    !isDecodeOnly
      && (compoundWriter != nil
        || (serialize != nil && (!source.isSpecial || (source == .root && writesSelfBack))))
  }

  /// The same rule, writing `nil` as `null` (``NullPolicy/include``) or leaving it out
  /// (``NullPolicy/omit``) when serialized, whatever the mapping's policy.
  public func nulls(_ policy: NullPolicy) -> Self {
    var copy = self
    copy.nullPolicy = policy
    return copy
  }

  /// The same rule, left out of the inverse: it maps payloads but is never serialized.
  public func decodeOnly() -> Self {
    var copy = self
    copy.isDecodeOnly = true
    return copy
  }

  /// The same rule, leaving its property as it is when the payload's value is `null`
  /// (ObjectMapper's `ignoreNil: true`), with a ``MappingDiagnostic/Kind/nullIgnored(kept:)``
  /// diagnostic: an optional property keeps its value instead of becoming `nil`, a new object
  /// keeps what `make()` gave it. Any other value maps as before.
  ///
  /// ```swift
  /// Attribute("name", \.name).ignoringNull()   // {"name": null} keeps user.name
  /// ```
  public func ignoringNull() -> Self {
    var copy = self
    copy.ignoresNull = true
    return copy
  }

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

  /// The same rule treating absent and `null` values as `treatment` says (definition files).
  package func treatingAbsence(_ treatment: _AbsenceTreatment) -> Self {
    var copy = self
    copy.absence = treatment
    return copy
  }

  /// The same rule, when it reads ``SourcePath/root`` through a two-way conversion (AppCoreKit's
  /// `@self` with a transform), written back by the inverse: the reversed value must be an
  /// object (or `nil`/`null`, which writes nothing), and its members go into the object being
  /// written, after the members other rules write (a key another rule writes is not written
  /// twice). Definition files use it; the DSL's special sources stay read-only.
  package func writingSelfBack() -> Self {
    var copy = self
    copy.writesSelfBack = true
    return copy
  }

  /// The same rule reading dates with these formats, tried in order, instead of the mapping's.
  public func dateFormats(_ formats: [DateFormat]) -> Self {
    var copy = self
    copy.attributeDateFormats = formats
    return copy
  }

  var propertyKeyPath: AnyKeyPath & Sendable { property }

  func decodeStep(mayRepeat: Bool) -> DecodeStep<Object> {
    if let keyPathProblem { return DecodeStep(InvalidRuleStep(keyPathProblem)) }
    guard let special = SpecialSource(source) else {
      return DecodeStep(AttributeStep(self, mayRepeat: mayRepeat))
    }
    var inner = self
    inner.source = .root
    return DecodeStep(
      SpecialSourceStep(DecodeStep(AttributeStep(inner, mayRepeat: false)), reading: special))
  }

  func transformFailure(_ error: any Error, payload: PayloadValue) -> any Error {
    switch error {
    case is ConversionFailure, is NestedConversionFailures, is MappingError, is MappingErrors:
      return error
    case is FormatError:
      // A reader's error (JSON embedded in a string): the reason the value does not convert.
      return ThrownByUser(
        error: error,
        kind: .conversionFailed(
          expected: expected, raw: payload.rawDescription, reason: "\(error)"))
    default:
      return ThrownByUser(
        error: error,
        kind: .transformFailed(raw: payload.rawDescription, message: "\(error)"))
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
      serialize: .mappable, expected: Value.expectedDescription)
    zeroValue = { Value.zeroValue }
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
      serialize: .mappable, expected: Value.expectedDescription)
  }
}

extension Attribute
where Value: RawRepresentable & SendableMetatype, Value.RawValue: MappableValue {
  /// Maps a raw-value enum (`enum State: String { ... }`) without a ``MappableValue``
  /// conformance: the raw value is read and written with its own conversion, an unknown one is
  /// an error listing the accepted values (for a `CaseIterable` enum).
  ///
  /// ```swift
  /// enum IssueState: String, CaseIterable { case open, closed }
  /// Attribute("state", \.state)   // no `extension IssueState: MappableValue {}` needed
  /// ```
  ///
  /// An enum that conforms to ``MappableValue`` uses its own conversion instead. Collections of
  /// enums (`[IssueState]`, `Set<IssueState>`) and dictionaries of them still need the empty
  /// conformance, which the compiler asks for by name.
  @_disfavoredOverload
  public init(
    _ source: some SourcePathConvertible, _ property: WritableKeyPath<Object, Value> & Sendable
  ) {
    self.init(rawValueAt: source.sourcePath, property)
  }

  /// A raw-value enum read and written by its raw value.
  init(rawValueAt source: SourcePath, _ property: WritableKeyPath<Object, Value> & Sendable) {
    self.init(
      source: source, property: property,
      read: { try rawCase(Value.self, payload: $0) }, nullValue: { nil }, defaultValue: nil,
      serialize: .rawValue, expected: withArticle("\(Value.self)"))
  }

  /// `init(_:_:)` with a default for an absent or `null` value.
  @_disfavoredOverload
  public init(
    _ source: some SourcePathConvertible, _ property: WritableKeyPath<Object, Value> & Sendable,
    default defaultValue: Value
  ) where Value: Sendable {
    self.init(
      source: source.sourcePath, property: property,
      read: { try rawCase(Value.self, payload: $0) }, nullValue: { nil },
      defaultValue: { defaultValue }, serialize: .rawValue,
      expected: withArticle("\(Value.self)"))
  }
}

extension Attribute where Value: Codable & SendableMetatype {
  /// Maps a `Codable` value without a mapping or a ``MappableValue`` conformance: read with
  /// ``FastJSONDecoder``'s reader straight from the payload, written with
  /// ``FastJSONEncoder``'s (`JSONDecoder`/`JSONEncoder` defaults, or the coders given).
  ///
  /// ```swift
  /// struct Reactions: Codable { var plusOne: Int; var heart: Int }
  /// Attribute("reactions", \.reactions)          // Reactions, Reactions?, [Reactions]
  /// ```
  ///
  /// A failure inside the value is an error whose path continues the rule's
  /// (`/reactions/heart`). A type that is also a ``MappableValue`` uses that conversion.
  ///
  /// - Parameters:
  ///   - source: Where the value is read.
  ///   - property: The property to write.
  ///   - decoder: The decoding strategies (dates, keys, data), as they are when the rule is
  ///     made.
  ///   - encoder: The encoding strategies, as they are when the rule is made.
  @_disfavoredOverload
  public init(
    _ source: some SourcePathConvertible, _ property: WritableKeyPath<Object, Value> & Sendable,
    decoder: FastJSONDecoder = FastJSONDecoder(), encoder: FastJSONEncoder = FastJSONEncoder()
  ) {
    let optional = OptionalTraits<Value>.ofValue
    let options = decoder.options
    self.init(
      source: source.sourcePath, property: property,
      read: { try decodeCodable(Value.self, from: $0, with: options) },
      nullValue: { optional?.none() }, defaultValue: nil, serialize: .codable(encoder),
      expected: withArticle("\(Value.self)"))
    nestingCost = NestingCost.codable
  }
}

extension Attribute
where Value: Codable & RawRepresentable & SendableMetatype, Value.RawValue: MappableValue {
  /// A `Codable` raw-value enum: read and written by its raw value, as
  /// the raw-value initializer does (the more specific of the two).
  @_disfavoredOverload
  public init(
    _ source: some SourcePathConvertible, _ property: WritableKeyPath<Object, Value> & Sendable
  ) {
    self.init(rawValueAt: source.sourcePath, property)
  }
}

extension Attribute {
  /// Maps an optional raw-value enum without a ``MappableValue`` conformance: `null` and
  /// absence are `nil`.
  @_disfavoredOverload
  public init<Wrapped: RawRepresentable & SendableMetatype>(
    _ source: some SourcePathConvertible,
    _ property: WritableKeyPath<Object, Wrapped?> & Sendable
  ) where Value == Wrapped?, Wrapped.RawValue: MappableValue {
    self.init(
      source: source.sourcePath, property: property,
      read: { try rawCase(Wrapped.self, payload: $0) }, nullValue: { .some(nil) },
      defaultValue: nil, serialize: .optionalRawValue(Wrapped.self),
      expected: withArticle("\(Wrapped.self)"))
  }

  /// Maps the value at `source` through a two-way transform from the payload type `Wire`.
  ///
  /// When `Value` is itself optional (a `ValueTransform<String, Reason?>`), the property is
  /// optional: `null` and absence give `nil` without calling the transform, and `nil` is
  /// serialized by the null policy (left out, or `null`), never through the reverse closure.
  ///
  /// - Parameters:
  ///   - source: Where the value is read.
  ///   - property: The property to write.
  ///   - transform: Converts the payload value to the property's value and back.
  public init<Wire: MappableValue>(
    _ source: some SourcePathConvertible, _ property: WritableKeyPath<Object, Value> & Sendable,
    _ transform: ValueTransform<Wire, Value>
  ) {
    let optional = OptionalTraits<Value>.ofValue
    self.init(
      source: source.sourcePath, property: property,
      read: { try transform.forward(Wire(payload: $0)) }, nullValue: { optional?.none() },
      defaultValue: nil,
      serialize: .reversing(transform),
      expected: Wire.expectedDescription)
  }

  /// Maps the value at `source` through a two-way transform, with a default for an absent or
  /// `null` value.
  public init<Wire: MappableValue>(
    _ source: some SourcePathConvertible, _ property: WritableKeyPath<Object, Value> & Sendable,
    _ transform: ValueTransform<Wire, Value>, default defaultValue: Value
  ) where Value: Sendable {
    let optional = OptionalTraits<Value>.ofValue
    self.init(
      source: source.sourcePath, property: property,
      read: { try transform.forward(Wire(payload: $0)) }, nullValue: { optional?.none() },
      defaultValue: { defaultValue },
      serialize: .reversing(transform),
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
      serialize: .reversingOptional(transform),
      expected: Wire.expectedDescription)
  }

  /// Maps the value at `source` with a one-way closure. The inverse leaves this rule out and
  /// says so.
  ///
  /// - Parameters:
  ///   - source: Where the value is read.
  ///   - property: The property to write.
  ///   - convert: Converts the payload value; throw ``ConversionFailure`` for bad input. When
  ///     `Value` is optional, `null` and absence give `nil` without calling it.
  @preconcurrency
  public init<Wire: MappableValue>(
    _ source: some SourcePathConvertible, _ property: WritableKeyPath<Object, Value> & Sendable,
    decodeOnly convert: @escaping @Sendable (Wire) throws -> Value
  ) {
    let optional = OptionalTraits<Value>.ofValue
    self.init(
      source: source.sourcePath, property: property, read: { try convert(Wire(payload: $0)) },
      nullValue: { optional?.none() }, defaultValue: nil, serialize: nil,
      expected: Wire.expectedDescription)
  }
}

extension Attribute: EncodableRule {
  var encoding: RuleEncoding<Object> {
    let label = "Attribute \"\(source)\""
    if isDecodeOnly {
      return .omitted(InverseOmission(rule: label, reason: "it is marked decodeOnly()"))
    }
    if case .compound(let parts) = source.storage {
      guard let compoundWriter else {
        return .omitted(
          InverseOmission(rule: label, reason: "it converts with a one-way closure or transform"))
      }
      if let keyPathProblem {
        return .rule(
          EncodingRule(
            path: parts.first?.keys ?? [], property: property, label: label, nulls: nullPolicy,
            step: InvalidRuleEncodeStep(
              keyPathProblem, errorPath: parts.first?.pathComponents ?? [])))
      }
      return .rules(compoundEncodings(parts: parts, writer: compoundWriter(), label: label))
    }
    guard let serialize else {
      return .omitted(
        InverseOmission(rule: label, reason: "it converts with a one-way closure or transform"))
    }
    if source == .root, writesSelfBack, keyPathProblem == nil {
      var rule = EncodingRule<Object>(
        path: [], property: property, label: label, nulls: nullPolicy,
        step: AttributeEncodeStep(
          reader: PropertyReader(property), valueWriter: serialize,
          outputFormat: attributeDateFormats?.first, errorPath: []))
      rule.placement = .selfMembers
      return .rule(rule)
    }
    guard !source.isSpecial else {
      return .omitted(InverseOmission(rule: label, reason: source.specialSourceOmission))
    }
    if let keyPathProblem {
      return .rule(
        EncodingRule(
          path: source.keys, property: property, label: label, nulls: nullPolicy,
          step: InvalidRuleEncodeStep(keyPathProblem, errorPath: source.pathComponents)))
    }
    return .rule(
      EncodingRule(
        path: source.keys, property: property, label: label, nulls: nullPolicy,
        step: AttributeEncodeStep(
          reader: PropertyReader(property), valueWriter: serialize,
          outputFormat: attributeDateFormats?.first, errorPath: source.pathComponents)))
  }
}

extension Attribute {
  /// Maps several payload values into one property through a two-way transform (CSMapper's
  /// multi-value mappers): the transform receives the values of `sources`, in order, and its
  /// reverse gives one value per source back when serializing.
  ///
  /// ```swift
  /// Attribute(sources: ["employee_identifier", "employee_age"], \.badge, .joined(":"))
  /// // map:       {"employee_identifier": "E42", "employee_age": 31}  ->  badge == "E42:31"
  /// // serialize: badge == "E42:31"  ->  {"employee_identifier": "E42", "employee_age": "31"}
  /// ```
  ///
  /// The value is *absent* when every source is absent or `null` (a default applies, or a
  /// required property is an error). When only some are present, each missing one is an error at
  /// its path.
  ///
  /// - Parameters:
  ///   - sources: Dotted key paths, each read as a `Wire` value.
  ///   - property: The property to write.
  ///   - transform: Combines the values into the property's value, and splits it back.
  public init<Wire: MappableValue>(
    sources: [String], _ property: WritableKeyPath<Object, Value> & Sendable,
    _ transform: ValueTransform<[Wire], Value>
  ) {
    self.init(sources: sources, property, transform) { payload, parts in
      try payload.compoundValues(parts, as: Wire.self)
    }
  }

  /// ``init(sources:_:_:)`` with CSMapper's reading of parts that are absent or `null` while
  /// another part is present: the part's entry of `fallbacks` (its `default`) takes its place,
  /// or, when that is `nil`, the part is left out and the transform receives fewer values
  /// (CSMapper's files make nothing required).
  package init<Wire: MappableValue & Sendable>(
    sources: [String], _ property: WritableKeyPath<Object, Value> & Sendable,
    _ transform: ValueTransform<[Wire], Value>, fallbacks: [Wire?]
  ) {
    self.init(sources: sources, property, transform) { payload, parts in
      try payload.compoundValues(parts, as: Wire.self, fallbacks: fallbacks)
    }
  }

  /// A compound rule whose values are read by `values`.
  private init<Wire: MappableValue>(
    sources: [String], _ property: WritableKeyPath<Object, Value> & Sendable,
    _ transform: ValueTransform<[Wire], Value>,
    values: @escaping @Sendable (PayloadValue, [SourcePath]) throws -> [Wire]
  ) {
    let parts = sources.map { SourcePath(keyPath: $0) }
    self.init(
      source: SourcePath(compound: parts), property: property,
      read: { try transform.forward(values($0, parts)) },
      nullValue: { nil }, defaultValue: nil, serialize: nil,
      expected: "\(parts.count) values")
    if transform.isReversible {
      let count = parts.count
      compoundWriter = {
        let wire = payloadValueWriter(for: Wire.self)
        return { value, part, writer in
          let values = try transform.reverse(value)
          guard values.count == count else {
            throw ConversionFailure.notRepresentable(
              "\(value)", reason: "it splits into \(values.count) values for \(count) sources")
          }
          try wire.write(values[part], to: &writer)
        }
      }
    }
  }

  /// One output rule per part of a compound source.
  fileprivate func compoundEncodings(
    parts: [SourcePath],
    writer compoundWriter: @escaping @Sendable (Value, Int, inout PayloadWriter) throws -> Void,
    label: String
  ) -> [EncodingRule<Object>] {
    let property = self.property
    return parts.enumerated().map { offset, part in
      let errorPath = part.pathComponents
      return EncodingRule(path: part.keys, property: property, label: label, nulls: nullPolicy) {
        object, writer, run, _ in
        do {
          try compoundWriter(object[keyPath: property], offset, &writer)
          return true
        } catch {
          // Reported once, by the first part.
          if offset == 0 { run.record(error, at: errorPath) }
          return false
        }
      }
    }
  }
}

/// The compiled side of the rule (internal: not part of the public conformance list).
extension Attribute: DecodingRule {}

extension Attribute
where Value: RawRepresentable & Sendable & SendableMetatype, Value.RawValue: MappableValue {
  /// The same rule, reading a raw value that no case of the enum has as `fallback` (with a
  /// ``MappingDiagnostic/Kind/unknownValue(raw:fallback:)`` diagnostic) instead of failing:
  /// forward compatibility with APIs that add values.
  ///
  /// ```swift
  /// enum StateReason: String { case completed, notPlanned = "not_planned", reopened, unknown }
  /// Attribute("state_reason", \.stateReason).unknownValues(as: .unknown)
  /// // "duplicate" -> .unknown, diagnostic "/state_reason: unknown value "duplicate" read as unknown"
  /// ```
  ///
  /// Serializing writes the fallback's own raw value (the unknown one is not kept).
  public func unknownValues(as fallback: Value) -> Self {
    substituting { payload in
      guard isUnknown(payload, of: Value.self) else { return nil }
      return Substituted(
        value: fallback, raw: payload.rawDescription, fallback: "\(fallback.rawValue)")
    }
  }
}

extension Attribute {
  /// The same rule for an optional enum property, reading a raw value that no case has as
  /// `nil` (with a ``MappingDiagnostic/Kind/unknownValue(raw:fallback:)`` diagnostic) instead of
  /// failing.
  ///
  /// ```swift
  /// Attribute("state_reason", \.stateReason).unknownValuesAsNil()   // StateReason?
  /// ```
  public func unknownValuesAsNil<Wrapped>() -> Self
  where
    Value == Wrapped?, Wrapped: RawRepresentable & SendableMetatype,
    Wrapped.RawValue: MappableValue
  {
    substituting { payload in
      guard isUnknown(payload, of: Wrapped.self) else { return nil }
      return Substituted(value: nil, raw: payload.rawDescription, fallback: "nil")
    }
  }

  /// The same rule, reading what `substitute` gives (set with a diagnostic) when its read fails
  /// on unknown enum values; `nil` from `substitute` keeps the read's own error.
  fileprivate func substituting(
    _ substitute: @escaping @Sendable (PayloadValue) throws -> Substituted<Value>?
  ) -> Self {
    var copy = self
    let original = read
    copy.read = { payload in
      do {
        return try original(payload)
      } catch {
        guard let substituted = try substitute(payload) else { throw error }
        throw substituted
      }
    }
    return copy
  }
}

/// Whether `payload` is a raw value of `Element`'s type that no case of `Element` has.
private func isUnknown<Element: RawRepresentable>(
  _ payload: PayloadValue, of _: Element.Type
) -> Bool where Element.RawValue: MappableValue {
  guard let raw = try? Element.RawValue(payload: payload) else { return false }
  return Element(rawValue: raw) == nil
}

extension Attribute {
  /// The same rule for a collection of enum values (`[E]`, `Set<E>`, an optional of one, any
  /// ``MappableCollection``), leaving out the elements whose raw value no case has
  /// (ObjectMapper's `EnumTransform` over an array) instead of failing, with one
  /// ``MappingDiagnostic/Kind/unknownValue(raw:fallback:)`` diagnostic naming them. Elements
  /// of another kind (a string for an `Int` raw value) still fail the attribute; `null` for an
  /// optional collection is still `nil`.
  ///
  /// ```swift
  /// Attribute("states", \.states).unknownValuesSkipped()
  /// // [0, -5, 1] -> [.open, .closed], diagnostic "/states: unknown value -5 read as nothing: left out"
  /// ```
  public func unknownValuesSkipped() -> Self
  where
    Value: MappableCollection, Value.Element: RawRepresentable & MappableValue,
    Value.Element.RawValue: MappableValue
  {
    substituting { payload in
      guard let elements = payload.elements else { return nil }
      let read: ([((), Value.Element)], [String])? = try Self.leavingOutUnknown(
        elements.map { ((), $0) })
      return read.map { known, unknown in
        Self.skipped(Value(mappedElements: known.map(\.1)), unknown)
      }
    }
  }

  /// The same rule for a dictionary of enum values, leaving out the members whose raw value no
  /// case has instead of failing, with one ``MappingDiagnostic/Kind/unknownValue(raw:fallback:)``
  /// diagnostic naming them, as the collection form does. A repeated key keeps its first member.
  public func unknownValuesSkipped<Element>() -> Self
  where
    Value == [String: Element], Element: RawRepresentable & MappableValue,
    Element.RawValue: MappableValue
  {
    substituting { payload in
      try Self.knownMembers(payload).map { known, unknown in Self.skipped(known, unknown) }
    }
  }

  /// The same rule for an optional dictionary of enum values (`[String: E]?`), as the
  /// dictionary form reads it; `null` is still `nil`.
  public func unknownValuesSkipped<Element>() -> Self
  where
    Value == [String: Element]?, Element: RawRepresentable & MappableValue,
    Element.RawValue: MappableValue
  {
    substituting { payload in
      try Self.knownMembers(payload).map { known, unknown in Self.skipped(known, unknown) }
    }
  }

  /// The members of the object `payload` whose raw value a case has, and the descriptions of
  /// those no case has; `nil` when `payload` is not an object or every member is known.
  private static func knownMembers<Element: RawRepresentable & MappableValue>(
    _ payload: PayloadValue
  ) throws -> (known: [String: Element], unknown: [String])?
  where Element.RawValue: MappableValue {
    guard let members = payload.members else { return nil }
    return try leavingOutUnknown(members.map { ($0.key, $0.value) }).map { known, unknown in
      (Dictionary(known, uniquingKeysWith: { first, _ in first }), unknown)
    }
  }

  /// The elements (with their keys) whose raw value a case has, and the descriptions of those
  /// no case has; `nil` when every element is known (the read failed for another reason). An
  /// element of another kind throws its own error.
  private static func leavingOutUnknown<Key, Element: RawRepresentable & MappableValue>(
    _ elements: [(Key, PayloadValue)]
  ) throws -> (known: [(Key, Element)], unknown: [String])?
  where Element.RawValue: MappableValue {
    var known: [(Key, Element)] = []
    var unknown: [String] = []
    for (key, element) in elements {
      if isUnknown(element, of: Element.self) {
        unknown.append(element.rawDescription)
      } else {
        known.append((key, try Element(payload: element)))
      }
    }
    return unknown.isEmpty ? nil : (known, unknown)
  }

  /// `kept`, substituted with a diagnostic naming the `unknown` values left out (ten, then how
  /// many more).
  private static func skipped(_ kept: Value, _ unknown: [String]) -> Substituted<Value> {
    let more = unknown.count > 10 ? " and \(unknown.count - 10) more" : ""
    return Substituted(
      value: kept, raw: unknown.prefix(10).joined(separator: ", ") + more,
      fallback: "nothing: left out")
  }
}

extension Attribute {
  /// The same rule for an optional property, reading an empty string (`""`) as `nil` instead of
  /// converting it (RestKit read `""` as `nil` for dates, URLs and numbers).
  ///
  /// ```swift
  /// Attribute("closed_at", \.closedAt).emptyStringAsNil()   // Date?: "" -> nil
  /// Attribute("homepage", \.homepage).emptyStringAsNil()    // URL?:  "" -> nil
  /// ```
  ///
  /// Without it, `""` is converted like any other string: an error for a `Date`, `URL` or
  /// number, the empty string for a `String?`. Serializing writes `nil` as the null policy says
  /// (not as `""`).
  public func emptyStringAsNil<Wrapped>() -> Self where Value == Wrapped? {
    var copy = self
    let original = read
    copy.read = { payload in
      if payload.kind == .string, try payload.decode(String.self).isEmpty { return nil }
      return try original(payload)
    }
    return copy
  }
}

extension Attribute {
  /// A rule without a key whose property name cannot be read (``KeyConvention``).
  var definitionProblem: String? { derivedKey?.problem }
}
