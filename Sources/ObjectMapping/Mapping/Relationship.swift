/// Maps a nested object, or a collection of them, to a property with another mapping.
///
/// ```swift
/// Relationship("author", \.author, authorMapping)        // Author or Author?
/// Relationship("comments", \.comments, commentMapping)   // [Comment], [Comment]?, Set<Comment>
/// Relationship("teams", \.teams, teamMapping)            // [String: Team]
/// Relationship("replies", \.replies, lazy: { Comment.mapping })  // recursive
/// ```
///
/// A to-one property whose type is not optional is required; `null` clears an optional one. A
/// to-many property receives the mapped elements in payload order; under lenient coercion a
/// single object becomes a one-element collection. A child that fails makes its parent fail,
/// with every error reported at its path (`/articles/3/author/email`).
///
/// Recursive models (`lazy:`) are mapped, serialized and freed by recursion, one level of Swift
/// calls per level of nesting. Everything the default reading options accept (512 levels of
/// JSON nesting) fits a 512 KB thread stack, the size of a secondary thread on Apple platforms,
/// in release builds: about 370 bytes of stack per level of JSON for children in arrays, 600
/// for a to-one chain, 800 for nested-key mappings, 700 through a ``DynamicMapping`` (at most
/// 412 KB at 512 levels; a class model with an identity: 510 bytes in arrays, 820 for a to-one
/// chain, 418 KB). Merging into existing instances takes about 5 KB per level, so merges nest
/// at most 16 deep and deeper objects are mapped new. Serializing nested sets takes 1 KB per
/// level (each element is built as a ``Node`` to be sorted), so sets nested more than about 240
/// deep need a larger stack.
/// Debug builds use about twice as much (up to 1.1 MB at 512 levels); raise
/// ``JSONReadingOptions/maximumDepth`` only with a thread stack to match.
///
/// The property's key path must not trap: a force unwrap (`\.address!.city`) or an array
/// subscript (`\.items[0]`) would stop the program on a payload with `"address": null` or a
/// short array, so it is a definition problem, reported by ``Mapping/validate()`` and on first
/// use, and the rule never touches it. Map the optional or the array with a relationship of its
/// own instead. Optional chaining (`\.address?.city`) never traps, but gives a read-only key
/// path, which no rule writes through.
public struct Relationship<Object>: MappingRule {
  /// Where the nested value is read in the payload.
  var source: SourcePath
  let propertyKeyPath: AnyKeyPath & Sendable
  /// Makes the step of the relationship's kind (to-one, optional to-one, to-many, dictionary)
  /// for this rule as configured.
  let makeStep: @Sendable (Relationship<Object>, CompiledSource) -> RelationshipStep<Object>
  let acceptsAbsence: Bool
  let encode: RelationshipEncoder<Object>
  var presence: Presence = .inferred
  var nullPolicy: NullPolicy?
  var isDecodeOnly = false
  var collectionPolicy: CollectionPolicy = .replace
  /// ``policy(_:)`` was called: the run's ``MappingOptions/childMerging`` does not apply.
  var policyIsExplicit = false
  var childFailure: ChildFailurePolicy = .failParent
  /// The validators of ``validate(_:_:)``, each kept with the type it takes; the step takes them
  /// back typed (``TypedValidator/typed(as:)``).
  var validators: [TypedValidator] = []
  /// Sets the property to `nil`, when it is optional (``MissingKeyPolicy/assignNilToRelationships``).
  let clear: (@Sendable (inout Object) -> Void)?
  /// Whether the property is `nil`, when it is optional: a `nil` relationship that stays `nil`
  /// is not written (its setter and observers do not run).
  let isNil: (@Sendable (Object) -> Bool)?
  /// How absent and `null` values are treated (definition files' semantics).
  var absence = _AbsenceTreatment.standard
  /// A to-many relationship reading ``SourcePath/root`` (AppCoreKit's `@self` collection) whose
  /// inverse writes the collection as the whole output (``writingSelfBack()``).
  var writesSelfBack = false

  /// The same relationship validating the value it is about to set: the child, the optional
  /// child, or the whole collection — `Value` is the property's type, or for an optional
  /// property the type it wraps (`null` then passes unchecked). Another type is a definition
  /// problem, reported when the mapping is compiled. Same outcomes as
  /// ``Attribute/validate(_:_:)``: change `value` to replace it, return `false` to reject it
  /// (the property keeps its previous value), throw to fail the parent.
  ///
  /// ```swift
  /// Relationship("comments", \.comments, commentMapping)
  ///   .validate("too many comments") { (comments: inout [Comment]) in comments.count <= 100 }
  /// ```
  ///
  /// Onto an existing instance the validator sees the value the property will hold once the
  /// mapping is applied, computed before anything changes: exact for new children and for value
  /// types; a class child merged by identity is passed as it is now, before the payload's values
  /// are merged into it (they are merged only when the whole mapping succeeds, also when the
  /// validator replaces the child).
  @preconcurrency
  public func validate<Value>(
    _ message: String? = nil, _ body: @escaping @Sendable (inout Value) throws -> Bool
  ) -> Self {
    var copy = self
    copy.validators.append(TypedValidator(Validator(message: message, body: body)))
    return copy
  }
  /// For to-one relationships: the child mapping's sources and rules, for an empty source
  /// (``SourcePath/root``) that builds the child from the parent's flat fields.
  var flatChild: FlatChild<Object>?
  var groupNames: [String] = []
  /// Why the property's key path must not be used (a force unwrap or an array subscript that
  /// could trap), or `nil`; see ``KeyPathCheck``.
  let keyPathProblem: String?
  /// For an override of a derived mapping: reads this relationship's value without a model
  /// (`Derived/DerivedOverride.swift`); `nil` for a rule that cannot override.
  var derivedReader: (@Sendable (Relationship<Object>) -> SlotEvaluator)?

  /// What the relationship maps: one child, a collection, or a dictionary of children.
  var shape: RelationshipShape = .toMany
  /// For a relationship declared without a key: the property's name (``KeyConvention``).
  var derivedKey: DerivedKey?
  /// Whether the key is the default one made from ``derivedKey`` (no mapping convention applied
  /// yet): a call's convention then makes it (``MappingOptions/keys``).
  var keyIsDefault = false

  /// A collection policy the relationship's shape cannot honour (any but
  /// ``CollectionPolicy/replace`` on a to-one or dictionary relationship).
  var definitionProblem: String? {
    if let problem = derivedKey?.problem { return problem }
    let propertyType = type(of: propertyKeyPath).valueType
    if let mistyped = validators.first(where: { !$0.validates(propertyType) }) {
      return "Relationship \"\(source)\" has a validator that takes a \(mistyped.valueTypeName), "
        + "but the property holds a \(propertyType); a relationship's validator takes the "
        + "property's type (or, for an optional property, the type it wraps)"
    }
    guard collectionPolicy != .replace else { return nil }
    if collectionPolicy == .merge {
      switch shape {
      case .toOne, .dictionary: return nil
      case .toMany:
        return "Relationship \"\(source)\" is to-many, so .policy(.merge) cannot tell which "
          + "existing child an element is; give the child mapping an identity "
          + "(identified(by:)), which merges array and set children"
      case .nested:
        return "Relationship \"\(source)\" maps nested collections, which are replaced as a "
          + "whole, so .policy(.merge) would be ignored; it applies to to-one and [String: T] "
          + "relationships"
      }
    }
    switch shape {
    case .toMany:
      return nil
    case .toOne:
      return "Relationship \"\(source)\" is to-one, so .policy(.\(collectionPolicy)) has no "
        + "collection to combine; collection policies apply to array and set relationships"
    case .dictionary, .nested:
      let what = shape == .dictionary ? "a dictionary" : "nested collections"
      return "Relationship \"\(source)\" maps \(what), which is replaced as a whole, so "
        + ".policy(.\(collectionPolicy)) would be ignored; collection policies apply to array "
        + "and set relationships"
    }
  }

  /// The same relationship combining mapped and existing children with `policy` when mapping
  /// onto an existing instance (array and set relationships; default
  /// ``CollectionPolicy/replace``). Another policy on a to-one or dictionary relationship is a
  /// definition problem, reported by ``Mapping/validate()`` and on first use.
  public func policy(_ policy: CollectionPolicy) -> Self {
    var copy = self
    copy.collectionPolicy = policy
    copy.policyIsExplicit = true
    return copy
  }

  /// Whether mapping onto an existing to-one child (or dictionary entry) merges into it in
  /// place: ``CollectionPolicy/merge``, or no policy of its own and a run whose
  /// ``MappingOptions/childMerging`` is ``ChildMerging/inPlace``.
  func mergesInPlace(in run: borrowing MappingRun) -> Bool {
    collectionPolicy == .merge || (!policyIsExplicit && run.context.childMerging == .inPlace)
  }

  /// The same relationship treating a failed child with `policy` (default
  /// ``ChildFailurePolicy/failParent``). With ``ChildFailurePolicy/dropChild`` a failed element
  /// of a to-many relationship is skipped, and a failed to-one child is not set (the property
  /// keeps its value), each reported as a diagnostic. With ``ChildFailurePolicy/keepPartial``
  /// a failed child is kept with what did map (RestKit's behaviour), each of its errors a
  /// diagnostic at its path.
  ///
  /// ```swift
  /// Relationship("author", \.author, authorMapping).onChildFailure(.keepPartial)
  /// // {"author": {"name": [42]}} → author kept with its initial name; diagnostic
  /// // "/author/name: value skipped: expected a string, found an array"
  /// ```
  public func onChildFailure(_ policy: ChildFailurePolicy) -> Self {
    var copy = self
    copy.childFailure = policy
    return copy
  }

  /// The same rule, never required.
  public func optional() -> Self {
    var copy = self
    copy.presence = .optional
    return copy
  }

  /// The same rule, always required.
  public func required() -> Self {
    var copy = self
    copy.presence = .required
    return copy
  }

  /// The same rule, writing a `nil` child as `null` (``NullPolicy/include``) or leaving it out
  /// (``NullPolicy/omit``) when serialized, whatever the mapping's policy.
  public func nulls(_ policy: NullPolicy) -> Self {
    var copy = self
    copy.nullPolicy = policy
    return copy
  }

  /// The same rule treating absent and `null` values as `treatment` says (definition files).
  package func treatingAbsence(_ treatment: _AbsenceTreatment) -> Self {
    var copy = self
    copy.absence = treatment
    return copy
  }

  /// The same to-many rule, when it reads ``SourcePath/root`` (AppCoreKit's `@self`: the
  /// payload is the array), written back by the inverse: the object is written as the array
  /// of its children itself. It must then be the only rule the inverse writes; another one is
  /// left out and listed. Definition files use it; the DSL's special sources stay read-only.
  package func writingSelfBack() -> Self {
    var copy = self
    copy.writesSelfBack = true
    return copy
  }

  /// The same rule, left out of the inverse: the children are mapped but never serialized.
  public func decodeOnly() -> Self {
    var copy = self
    copy.isDecodeOnly = true
    return copy
  }

  var readSources: [SourcePath] {
    if source == .root, let flatChild { return flatChild.sources() }
    if let base = source.operatorBase { return [base] }
    return source.isSpecial ? [] : [source]
  }

  /// An empty-source to-one relationship reads its child's keys in the parent object.
  var readsPayloadKeys: Bool {
    (source == .root && flatChild != nil) || !source.isSpecial || source.operatorBase != nil
  }

  func decodeStep(mayRepeat: Bool) -> DecodeStep<Object> {
    if let keyPathProblem { return DecodeStep(InvalidRuleStep(keyPathProblem)) }
    if source == .root, let flatChild {
      let step = DecodeStep(makeStep(self, CompiledSource(source, mayRepeat: false)))
      return DecodeStep(
        SpecialSourceStep(
          step, reading: .flatChild(flatChild.sources(), keyed: flatChild.keyedSources)))
    }
    guard let special = SpecialSource(source) else {
      return DecodeStep(makeStep(self, CompiledSource(source, mayRepeat: mayRepeat)))
    }
    var inner = self
    inner.source = .root
    return DecodeStep(
      SpecialSourceStep(
        DecodeStep(makeStep(inner, CompiledSource(.root, mayRepeat: false))), reading: special))
  }
}

/// What a relationship maps.
enum RelationshipShape: Sendable {
  case toOne
  case toMany
  case dictionary
  /// Collections nested in collections (`[[Child]]`), replaced as a whole.
  case nested
}

extension Relationship {
  init<Value>(
    source: SourcePath, property: WritableKeyPath<Object, Value> & Sendable, acceptsAbsence: Bool,
    encode: RelationshipEncoder<Object>,
    step: @escaping @Sendable (Relationship<Object>, CompiledSource) -> RelationshipStep<Object>
  ) {
    self.source = source
    self.propertyKeyPath = property
    self.acceptsAbsence = acceptsAbsence
    self.encode = encode
    self.makeStep = step
    if let optional = OptionalTraits<Value>.ofValue {
      clear = { $0[keyPath: property] = optional.none() }
      isNil = { optional.isNone($0[keyPath: property]) }
    } else {
      clear = nil
      isNil = nil
    }
    keyPathProblem = KeyPathCheck.problem(property, rule: "Relationship \"\(source)\"")
  }

  /// A required to-one relationship.
  public init<Child>(
    _ source: some SourcePathConvertible, _ property: WritableKeyPath<Object, Child> & Sendable,
    _ mapping: some MappingProtocol<Child>
  ) {
    let resolved = ResolvedMapping(mapping)
    self.init(source, property, lazy: { resolved })
  }

  /// A required to-one relationship whose mapping is resolved when first used (recursion).
  public init<Child, M: MappingProtocol<Child>>(
    _ source: some SourcePathConvertible, _ property: WritableKeyPath<Object, Child> & Sendable,
    lazy mapping: @escaping @Sendable () -> M
  ) {
    self.init(
      source: source.sourcePath, property: property, acceptsAbsence: false,
      encode: RelationshipEncoder {
        ToOneEncodeStep(property, mapping: mapping, components: $0, ownsNulls: $1)
      },
      step: {
        RelationshipStep(
          $0, source: $1, kind: ToOneStep($0, property: property, mapping: mapping))
      })
    flatChild = FlatChild(mapping, property: property)
    shape = .toOne
    derivedReader = { rule in rule.requiredSlotEvaluator(Child.self, lazy: mapping) }
  }

  /// An optional to-one relationship: absent leaves it, `null` clears it.
  public init<Child>(
    _ source: some SourcePathConvertible, _ property: WritableKeyPath<Object, Child?> & Sendable,
    _ mapping: some MappingProtocol<Child>
  ) {
    let resolved = ResolvedMapping(mapping)
    self.init(source, property, lazy: { resolved })
  }

  /// An optional to-one relationship whose mapping is resolved when first used (recursion).
  public init<Child, M: MappingProtocol<Child>>(
    _ source: some SourcePathConvertible, _ property: WritableKeyPath<Object, Child?> & Sendable,
    lazy mapping: @escaping @Sendable () -> M
  ) {
    self.init(
      source: source.sourcePath, property: property, acceptsAbsence: true,
      encode: RelationshipEncoder {
        OptionalToOneEncodeStep(property, mapping: mapping, components: $0, ownsNulls: $1)
      },
      step: {
        RelationshipStep(
          $0, source: $1, kind: OptionalToOneStep($0, property: property, mapping: mapping))
      })
    flatChild = FlatChild(mapping, property: property)
    shape = .toOne
    derivedReader = { rule in rule.slotEvaluator(Child.self, lazy: mapping) }
  }

  /// A to-many relationship into an array, a set, or an optional of either.
  public init<Collection: MappableCollection>(
    _ source: some SourcePathConvertible,
    _ property: WritableKeyPath<Object, Collection> & Sendable,
    _ mapping: some MappingProtocol<Collection.Element>
  ) {
    let resolved = ResolvedMapping(mapping)
    self.init(source, property, lazy: { resolved })
  }

  /// A to-many relationship whose mapping is resolved when first used (recursion).
  public init<Collection: MappableCollection, M: MappingProtocol<Collection.Element>>(
    _ source: some SourcePathConvertible,
    _ property: WritableKeyPath<Object, Collection> & Sendable,
    lazy mapping: @escaping @Sendable () -> M
  ) {
    self.init(
      source: source.sourcePath, property: property,
      acceptsAbsence: CollectionTraits<Collection>.of.nullValue != nil,
      encode: RelationshipEncoder {
        ToManyEncodeStep(property, mapping: mapping, components: $0, ownsNulls: $1)
      },
      step: {
        RelationshipStep(
          $0, source: $1, kind: ToManyStep($0, property: property, mapping: mapping))
      })
    derivedReader = { rule in rule.slotEvaluator(collection: Collection.self, lazy: mapping) }
  }

  /// A dictionary of objects keyed by the payload's keys (`{"ann": {...}, "bob": {...}}`).
  public init<Child>(
    _ source: some SourcePathConvertible,
    _ property: WritableKeyPath<Object, [String: Child]> & Sendable,
    _ mapping: some MappingProtocol<Child>
  ) {
    let resolved = ResolvedMapping(mapping)
    self.init(source, property, lazy: { resolved })
  }

  /// A dictionary of objects whose mapping is resolved when first used (recursion).
  public init<Child, M: MappingProtocol<Child>>(
    _ source: some SourcePathConvertible,
    _ property: WritableKeyPath<Object, [String: Child]> & Sendable,
    lazy mapping: @escaping @Sendable () -> M
  ) {
    self.init(
      shaped: source.sourcePath, property: property, acceptsAbsence: false, kind: .dictionary,
      shape: .keyedObjects, mapping: mapping)
  }
}

/// A mapping's plan on its own: what a relationship with a known mapping hands its decode
/// closure, so that resolving it per child object copies one reference instead of the whole
/// mapping.
struct ResolvedMapping<Object>: MappingProtocol {
  let plan: MappingPlan<Object>

  init(_ mapping: some MappingProtocol<Object>) {
    plan = mapping.plan
  }
}

/// The serializing side of a relationship: makes the step that writes the child (or children)
/// of an object, given the relationship's source path (for error paths).
struct RelationshipEncoder<Object>: Sendable {
  /// Makes the step from the relationship's path components and whether it sets its own nil
  /// policy.
  let makeStep: @Sendable ([_PathComponent], Bool) -> any EncodeStepKind

  init(_ makeStep: @escaping @Sendable ([_PathComponent], Bool) -> any EncodeStepKind) {
    self.makeStep = makeStep
  }
}

extension PayloadWriter {
  /// Writes `null` when the policy includes nulls; returns whether it wrote.
  mutating func nullIfIncluded(_ policy: NullPolicy) -> Bool {
    guard policy == .include else { return false }
    null()
    return true
  }
}

extension Relationship: EncodableRule {
  var encoding: RuleEncoding<Object> {
    let label = "Relationship \"\(source)\""
    if isDecodeOnly {
      return .omitted(InverseOmission(rule: label, reason: "it is marked decodeOnly()"))
    }
    if let keyPathProblem {
      // The problem is also a definition problem; a flattened child's fields are left out.
      guard !source.isSpecial else {
        return .omitted(InverseOmission(rule: label, reason: "its key path could trap"))
      }
      return .rule(
        EncodingRule(
          path: source.keys, property: propertyKeyPath, label: label, nulls: nullPolicy,
          step: InvalidRuleEncodeStep(keyPathProblem, errorPath: source.pathComponents)))
    }
    if source == .root, let flatChild {
      guard flatChild.isDynamic() else { return .rules(flatChild.encodings()) }
      // A dynamic child (a `DynamicMapping`, a mapping derived from `Codable`) writes the
      // object its case chooses: its members go into the parent's object.
      var rule = EncodingRule<Object>(
        path: [], property: propertyKeyPath, label: label, nulls: nullPolicy,
        step: encode.makeStep([], nullPolicy != nil))
      rule.placement = .selfMembers
      return .rule(rule)
    }
    if source == .root, writesSelfBack, shape == .toMany {
      var rule = EncodingRule<Object>(
        path: [], property: propertyKeyPath, label: label, nulls: nullPolicy,
        step: encode.makeStep([], nullPolicy != nil))
      rule.placement = .wholeOutput
      return .rule(rule)
    }
    guard !source.isSpecial else {
      return .omitted(InverseOmission(rule: label, reason: source.specialSourceOmission))
    }
    return .rule(
      EncodingRule(
        path: source.keys, property: propertyKeyPath, label: label, nulls: nullPolicy,
        step: encode.makeStep(source.pathComponents, nullPolicy != nil)))
  }
}

/// The child mapping of a to-one relationship seen from the parent, for an empty-source
/// relationship (``SourcePath/root``): the child's payload sources (the child is present when
/// one of them is) and its inverse rules lifted to write the child's fields flat into the
/// parent.
struct FlatChild<Object>: Sendable {
  let sources: @Sendable () -> [SourcePath]
  /// ``sources`` for a call's key convention: the child mapping's plan for it.
  let keyedSources: @Sendable (KeyConvention) -> [SourcePath]
  let encodings: @Sendable () -> [EncodingRule<Object>]
  /// The child's mapping is dynamic: its rules depend on the case chosen for each object.
  let isDynamic: @Sendable () -> Bool

  init<Child, M: MappingProtocol<Child>>(
    _ mapping: @escaping @Sendable () -> M, property: WritableKeyPath<Object, Child> & Sendable
  ) {
    sources = { mapping()._plan.payloadSources }
    keyedSources = { mapping()._plan.keyedPlan(for: $0).payloadSources }
    isDynamic = { mapping()._plan.dynamic != nil }
    encodings = {
      mapping()._plan.inverse.rules.map { rule in
        var flat = EncodingRule<Object>(
          path: rule.path, property: rule.property, label: rule.label, nulls: rule.nulls
        ) { object, writer, run, nulls in
          rule.write(object[keyPath: property], to: &writer, run: &run, nulls: nulls)
        }
        flat.defaultKeyNames = rule.defaultKeyNames
        return flat
      }
    }
  }

  init<Child, M: MappingProtocol<Child>>(
    _ mapping: @escaping @Sendable () -> M, property: WritableKeyPath<Object, Child?> & Sendable
  ) {
    sources = { mapping()._plan.payloadSources }
    keyedSources = { mapping()._plan.keyedPlan(for: $0).payloadSources }
    isDynamic = { mapping()._plan.dynamic != nil }
    encodings = {
      mapping()._plan.inverse.rules.map { rule in
        var flat = EncodingRule<Object>(
          path: rule.path, property: rule.property, label: rule.label, nulls: rule.nulls
        ) { object, writer, run, nulls in
          guard let child = object[keyPath: property] else { return false }
          return rule.write(child, to: &writer, run: &run, nulls: nulls)
        }
        flat.defaultKeyNames = rule.defaultKeyNames
        return flat
      }
    }
  }
}

/// The compiled side of the rule (internal: not part of the public conformance list).
extension Relationship: DecodingRule {
  var mapsChildObject: Bool { true }
}
