import ObjectMapping

/// What a definition file says about one property, resolved to the library's terms: the
/// request a ``Property`` turns into a rule.
struct RuleRequest: Sendable {
  /// How an absent value is treated.
  enum Presence: Sendable {
    /// The DSL's rule: required unless the property is optional or has a default.
    case inferred
    /// Absent keeps the current (or freshly made) value.
    case optional
    /// Absent is an error, also for optional properties (AppCoreKit's default).
    case required
  }

  /// The type's name, for messages.
  var ownerName: String
  /// The property's name in the file.
  var propertyName: String
  /// Where the property was written.
  var location: DefinitionLocation
  var source: SourcePath
  /// The keys of a multi-value mapper, in order; `nil` for one source.
  var compoundSources: [String]?
  /// For each of ``compoundSources``, its entry's `default`, if any.
  var compoundDefaults: [DefinitionValue?] = []
  var presence: Presence = .inferred
  var defaultValue: DefinitionValue?
  var transform: ResolvedTransform?
  /// The object definition of a relationship; `nil` when the file gives none (the catalog
  /// then looks one up by the element type).
  var child: ChildReference?
  var policy: (policy: CollectionPolicy, location: DefinitionLocation)?
  /// The policy of a to-many relationship the file gives none for (AppCoreKit appends).
  var defaultToManyPolicy: CollectionPolicy?
  var groups: [String] = []
  /// What absence and `null` mean: the file's own system decides.
  var absence = _AbsenceTreatment.standard

  /// The rule reads the object being mapped (AppCoreKit's `@self`): the inverse writes it back.
  var readsSelf: Bool { source == .root && compoundSources == nil }

  func error(
    _ kind: DefinitionError.Kind, _ message: String, at location: DefinitionLocation? = nil
  )
    -> DefinitionError
  {
    DefinitionError(kind, at: location ?? self.location, message)
  }

  /// The relationship keywords a value property cannot take.
  func rejectObjectKeywords(typeName: String) throws(DefinitionError) {
    if let child, child.isExplicit {
      throw error(
        .typeMismatch,
        "\"\(propertyName)\" of \(ownerName) is \(_article(typeName)), not an object: @object and "
          + "a class `type` need a property whose type is a DefinableModel", at: child.location)
    }
    if let policy {
      throw error(
        .invalidValue,
        "@clearContent and @insertContentAtBegin apply to collections of objects; "
          + "\"\(propertyName)\" is \(_article(typeName))", at: policy.location)
    }
  }

  /// The value keywords a relationship cannot take.
  func rejectValueKeywords() throws(DefinitionError) {
    if let transform {
      throw error(
        .invalidValue,
        "\"\(propertyName)\" of \(ownerName) is a relationship; the transform "
          + "\"\(transform.name)\" applies to values", at: transform.location)
    }
    if let defaultValue {
      throw error(
        .invalidValue,
        "\"\(propertyName)\" of \(ownerName) is a relationship and cannot have a default value",
        at: defaultValue.location)
    }
    if compoundSources != nil {
      throw error(
        .invalidValue, "\"\(propertyName)\" of \(ownerName) is a relationship; it reads one key")
    }
  }

  /// `rule` with the request's presence, groups and collection policy.
  func finishing<Object>(_ rule: Relationship<Object>, isToMany: Bool) throws(DefinitionError)
    -> any MappingRule<Object>
  {
    var rule = rule
    switch presence {
    case .inferred: break
    case .optional: rule = rule.optional()
    case .required: rule = rule.required()
    }
    if let policy {
      guard isToMany else {
        throw error(
          .invalidValue,
          "@clearContent and @insertContentAtBegin apply to to-many relationships; "
            + "\"\(propertyName)\" holds one object", at: policy.location)
      }
      rule = rule.policy(policy.policy)
    } else if isToMany, let defaultToManyPolicy {
      rule = rule.policy(defaultToManyPolicy)
    }
    if !groups.isEmpty { rule = rule.groups(groups) }
    rule = rule.treatingAbsence(absence)
    if readsSelf { rule = rule.writingSelfBack() }
    return rule
  }

  /// `rule` with the request's presence, groups and treatment of absence.
  func finishing<Object, Value>(_ rule: Attribute<Object, Value>) -> any MappingRule<Object> {
    var rule = rule
    switch presence {
    case .inferred: break
    case .optional: rule = rule.optional()
    case .required: rule = rule.required()
    }
    if !groups.isEmpty { rule = rule.groups(groups) }
    rule = rule.treatingAbsence(absence)
    if readsSelf { rule = rule.writingSelfBack() }
    return rule
  }
}

/// The object definition a relationship names.
struct ChildReference: Sendable {
  enum Target: Sendable {
    /// A context or class file by name (`"@mappings": "$UserModel"`, CSMapper's `type`).
    case named(String)
    /// An inline definition, registered under a generated name.
    case inline(String)
    /// Only a class (`"@object": {"@class": "UserModel"}`): the context for that class.
    case classOnly
  }

  var target: Target
  /// The class the file names for the object, if any, and where.
  var className: (name: String, location: DefinitionLocation)?
  /// Where the `@object` value (or CSMapper's `type`) is.
  var location: DefinitionLocation
  /// Where the `@mappings` value is, when the file gives one.
  var targetLocation: DefinitionLocation?
  /// Whether the file asked for an object explicitly (not a lookup by element type).
  var isExplicit = true
}

/// A relationship's child mapping, built already or (in a cycle) resolved when first used.
enum ChildMapping<Child>: Sendable {
  case ready(Mapping<Child>)
  case later(@Sendable () -> Mapping<Child>)
}

/// Builds (or finds) the mapping of a relationship's child: the catalog.
protocol ChildResolver {
  func childMapping<Child: DefinableModel>(for request: RuleRequest, _ type: Child.Type)
    throws(DefinitionError) -> ChildMapping<Child>
}

/// `"a String"`, `"an Int"`.
func _article(_ name: String) -> String {
  guard let first = name.lowercased().first else { return name }
  return ("aeiou".contains(first) ? "an " : "a ") + name
}

// MARK: Value rules

/// The checks every value rule makes, then the rule through the request's transform when it
/// names one; `nil` when the property's own conversion applies.
private func _transformRule<Object, Value: Sendable>(
  _ request: RuleRequest, _ property: WritableKeyPath<Object, Value> & Sendable
) throws(DefinitionError) -> (any MappingRule<Object>)? {
  try request.rejectObjectKeywords(typeName: "\(Value.self)")
  if let transform = request.transform {
    return request.finishing(try transform.box.attribute(request, property))
  }
  try _rejectCompound(request)
  return nil
}

/// The rule of a `MappableValue` property.
func _valueRule<Object, Value: MappableValue & Sendable>(
  _ request: RuleRequest, _ property: WritableKeyPath<Object, Value> & Sendable
) throws(DefinitionError) -> any MappingRule<Object> {
  if let rule = try _transformRule(request, property) { return rule }
  if let defaultValue = request.defaultValue {
    let value = try _convertDefault(defaultValue, to: Value.self, request)
    return request.finishing(Attribute(request.source, property, default: value))
  }
  return request.finishing(Attribute(request.source, property))
}

/// The rule of a raw-value enum property.
func _rawValueRule<Object, Value: RawRepresentable & Sendable & SendableMetatype>(
  _ request: RuleRequest, _ property: WritableKeyPath<Object, Value> & Sendable
) throws(DefinitionError) -> any MappingRule<Object>
where Value.RawValue: MappableValue & Sendable {
  if let rule = try _transformRule(request, property) { return rule }
  if let defaultValue = request.defaultValue {
    let raw = try _convertDefault(defaultValue, to: Value.RawValue.self, request)
    guard let value = Value(rawValue: raw) else {
      throw request.error(
        .typeMismatch, "the default \(raw) is not a value of \(Value.self)",
        at: defaultValue.location)
    }
    return request.finishing(Attribute(request.source, property, default: value))
  }
  return request.finishing(Attribute(request.source, property))
}

/// The rule of a `Codable` value property.
func _codableRule<Object, Value: Codable & Sendable & SendableMetatype>(
  _ request: RuleRequest, _ property: WritableKeyPath<Object, Value> & Sendable
) throws(DefinitionError) -> any MappingRule<Object> {
  if let rule = try _transformRule(request, property) { return rule }
  if let written = request.defaultValue {
    throw request.error(
      .invalidValue,
      "\"\(request.propertyName)\" of \(request.ownerName) is a Codable \(Value.self), which "
        + "cannot take a default; make it optional, or give it a default in the model",
      at: written.location)
  }
  return request.finishing(Attribute(request.source, property))
}

/// The rule of a property that only a transform can fill.
func _transformedRule<Object, Value: Sendable>(
  _ request: RuleRequest, _ property: WritableKeyPath<Object, Value> & Sendable
) throws(DefinitionError) -> any MappingRule<Object> {
  try request.rejectObjectKeywords(typeName: "\(Value.self)")
  guard let transform = request.transform else {
    throw request.error(
      .typeMismatch,
      "\"\(request.propertyName)\" of \(request.ownerName) is \(_article("\(_unwrapped(Value.self))")), "
        + "which has no conversion of its own: name a transform that produces it "
        + "(@transformSelector, or CSMapper's mapper)")
  }
  return request.finishing(try transform.box.attribute(request, property))
}

private func _rejectCompound(_ request: RuleRequest) throws(DefinitionError) {
  if let compound = request.compoundSources {
    throw request.error(
      .invalidValue,
      "\"\(request.propertyName)\" reads \(compound.count) keys; several keys need a "
        + "multi-value mapper that combines them (CSJoinMapper or one of yours)")
  }
}

/// Holds one value while a default is converted.
private struct DefaultHolder<Value: Sendable>: Sendable {
  var value: Value?
}

/// A default written in a file, converted to the property's type with the library's own
/// conversion (lenient: `"10"` into an `Int` is 10, as CSMapper's string defaults need).
func _convertDefault<Value: MappableValue & Sendable>(
  _ written: DefinitionValue, to type: Value.Type, _ request: RuleRequest
) throws(DefinitionError) -> Value {
  let make: @Sendable () -> DefaultHolder<Value> = { DefaultHolder(value: nil) }
  let holder = Mapping(make) {
    Attribute("value", \DefaultHolder<Value>.value)
  }
  do {
    let node = Node.object([Node.Member("value", written.node)])
    if let value = try holder.map(node).value { return value }
  } catch {
    let reason = error.errors.first.map { "\($0.kind)" } ?? "\(error)"
    throw request.error(
      .typeMismatch,
      "the default for \"\(request.propertyName)\" of \(request.ownerName) cannot be "
        + "\(_article("\(_unwrapped(Value.self))")): \(reason)", at: written.location)
  }
  throw request.error(
    .typeMismatch,
    "the default for \"\(request.propertyName)\" of \(request.ownerName) is null; leave it out "
      + "or make the property optional", at: written.location)
}
