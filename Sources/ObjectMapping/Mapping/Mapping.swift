import Synchronization

/// A two-way description of how a payload maps to a model type: build it once, use it from any
/// number of tasks.
///
/// ```swift
/// let authorMapping = Mapping(Author.init) {
///   Attribute("name", \.name)
///   Attribute("email", \.email)
/// }
///
/// let articleMapping = Mapping(Article.init) {
///   Attribute("id", \.id)
///   Attribute("title", \.title)
///   Attribute("body", \.body, default: "")
///   Attribute("publication_date", \.publishedAt, .date(format: "M/d/yyyy"))
///   Attribute("meta.tags", \.tags)
///   Relationship("author", \.author, authorMapping)
/// }
///
/// let article: Article = try articleMapping.map(jsonData)
/// ```
///
/// `make` creates a fresh instance (`Article.init`); the rules then set its properties through
/// key paths. Works for structs and final classes. The rules are compiled into a plan once, on
/// the mapping's first use (however many modifiers built it); mapping never re-plans per object.
public struct Mapping<Object>: MappingProtocol {
  /// `nil` for a mapping derived from the model's `Codable` conformance (``derivation``).
  let make: (@Sendable () -> Object)?
  /// For a mapping derived from the model's `Codable` conformance: builds its plan
  /// (`Mapping+Derived.swift`).
  var derivation: Derivation<Object>?
  var rules: [any MappingRule<Object>]
  /// `nil` unless set: mapping then uses the parent's (or the call's) mode, else lenient.
  var coercionMode: Coercion?
  var formats: [DateFormat] = DateFormat.defaultFormats
  /// `nil` unless set: serialization then uses the parent's (or the call's) policy.
  var nullPolicy: NullPolicy?
  /// Whether ``dateFormats(_:)`` was called: only then do they override the parent's when
  /// serializing.
  var dateFormatsAreExplicit = false
  /// `nil` unless set: mapping then uses the parent's (or the call's) setting, else on.
  var validationEnabled: Bool?
  /// `nil` unless set: the parent's (or the call's) setting applies.
  var missingKeyPolicy: MissingKeyPolicy?
  /// `nil` unless set: the parent's (or the call's) setting applies.
  var nullIntoNonOptionalPolicy: NullIntoNonOptional?
  var identity: Identity<Object>?
  /// Why the identity's key path must not be used (it could trap), or `nil`.
  var identityProblem: String?
  var inverseCustomization: (@Sendable (InverseMapping<Object>) -> InverseMapping<Object>)?
  var activeGroups: Set<String>?
  /// `nil` unless set: the parent's (or the call's) matching applies, else any-of.
  var groupMatchingMode: GroupMatching?
  var rejectsUnknownKeys = false
  /// ``allowingUnmappableRepresentation()`` (or ``options(_:)``) set it; `nil`: inherited.
  var allowsUnmappable: Bool?
  /// Set by ``options(_:)``; `nil`: inherited from the parent mapping or the call.
  var attributeFailurePolicy: AttributeFailurePolicy?
  /// Set by ``options(_:)``; `nil`: inherited.
  var emptyStringPolicy: EmptyStringPolicy?
  /// Set by ``options(_:)``; `nil`: inherited.
  var childMergingPolicy: ChildMerging?
  /// Set by ``options(_:)``; `nil`: inherited (serializing).
  var relationshipNullPolicy: NullPolicy?
  /// Set by ``options(_:)``: how this mapping's form bodies are written when it is the root of
  /// a serialization; `nil`: the call's, else the defaults.
  var formOptions: FormEncodingOptions?
  /// Set by ``options(_:)``: how this mapping writes `Decimal` values when it is the root of a
  /// serialization; `nil`: the call's, else numbers.
  var decimalOutput: DecimalOutput?
  var isDeclaredRoundTrip = false
  /// For a mapping derived for a call's key convention (``MappingOptions/keys``): the plan it
  /// was derived from.
  var keyVariantOf: ObjectIdentifier?
  /// The convention the mapping declares (`keys:`, ``keys(_:)``): it reaches the child mappings
  /// that declare none.
  var ownConvention: KeyConvention?

  /// The compiled plan, made on first use: a modifier replaces it with an empty one, so a
  /// mapping built with several modifiers compiles once.
  var planCache = PlanCache<Object>()

  /// The compiled plan (opaque), compiled on first use; definition problems it finds are
  /// reported when the mapping is first used (and by ``validate()``).
  public var plan: MappingPlan<Object> {
    MappingPlan(planCache.plan { compilePlan() })
  }

  /// Creates a mapping.
  ///
  /// - Parameters:
  ///   - make: Creates a fresh instance of the model (`Article.init`).
  ///   - rules: The rules: ``Attribute`` and ``Relationship`` values, with `if`, `else` and `for`.
  @preconcurrency
  public init(
    _ make: @escaping @Sendable () -> Object,
    @MappingBuilder<Object> rules: () -> [any MappingRule<Object>]
  ) {
    self.make = make
    self.rules = rules()
    rebuildPlan()
  }

  /// Creates a mapping whose rules declared without a key (`Attribute(\.createdAt)`) take it
  /// from their property's name through `keys`.
  ///
  /// ```swift
  /// let issueMapping = Mapping(Issue.init, keys: .snakeCase) {
  ///   Attribute(\.createdAt)        // "created_at"
  ///   Attribute("number", \.id)     // an explicit key wins
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - make: Creates a fresh instance of the model.
  ///   - keys: The convention that makes keys from property names.
  ///   - rules: The rules.
  @preconcurrency
  public init(
    _ make: @escaping @Sendable () -> Object, keys: KeyConvention,
    @MappingBuilder<Object> rules: () -> [any MappingRule<Object>]
  ) {
    self.make = make
    self.rules = Self.applying(keys, to: rules())
    ownConvention = keys
    rebuildPlan()
  }

  /// The same mapping with the keys of its keyless rules made by `convention` (see
  /// ``KeyConvention``); rules with a spelled key keep it.
  public func keys(_ convention: KeyConvention) -> Self {
    var copy = self
    copy.rules = Self.applying(convention, to: rules)
    copy.ownConvention = copy.ownConvention ?? convention
    copy.derivation = copy.derivation?.declaring(convention)
    copy.rebuildPlan()
    return copy
  }

  /// This mapping's plan for a call's key `convention`, derived from the plan `owner`: its
  /// default keys made by the convention.
  private func plan(keyedBy convention: KeyConvention, owner: ObjectIdentifier) -> _MappingPlan<
    Object
  > {
    var keyed = self
    keyed.keyVariantOf = owner
    keyed.rules = Self.applying(convention, to: rules)
    keyed.rebuildPlan()
    return keyed._plan
  }

  /// `rules` with the keys of keyless rules made by `convention`.
  static func applying(
    _ convention: KeyConvention, to rules: [any MappingRule<Object>]
  ) -> [any MappingRule<Object>] {
    rules.map { rule in
      guard let deriving = rule as? any KeyDerivingRule,
        let converted = deriving.applyingKeyConvention(convention) as? any MappingRule<Object>
      else { return rule }
      return converted
    }
  }

  /// The rules with ``Include``s expanded.
  var expandedRules: [any MappingRule<Object>] {
    rules.flatMap { rule -> [any MappingRule<Object>] in
      (rule as? Include<Object>)?.rules ?? [rule]
    }
  }

  /// The rules with ``Include``s expanded, restricted to the mapping's own groups: what it
  /// serializes (mapping selects the groups per run, see ``ValueContext/groups``).
  var activeRules: [any MappingRule<Object>] {
    expandedRules.filter { rule in
      guard let activeGroups, let names = (rule as? any GroupedRule)?.groupNames, !names.isEmpty
      else { return true }
      return (groupMatchingMode ?? .anyOf).includes(names, selected: activeGroups)
    }
  }

  /// The settings this mapping sets itself, for mapping: they apply to its objects over what
  /// its parent (or the call) passes down.
  var decodeSettings: MappingOptions {
    MappingOptions(
      coercion: coercionMode, groups: activeGroups,
      dateFormats: dateFormatsAreExplicit ? formats : nil, validation: validationEnabled,
      missingKeys: missingKeyPolicy, nullIntoNonOptional: nullIntoNonOptionalPolicy,
      groupMatching: groupMatchingMode, attributeFailures: attributeFailurePolicy,
      emptyStrings: emptyStringPolicy, allowsUnmappableRepresentation: allowsUnmappable,
      childMerging: childMergingPolicy)
  }

  /// Drops the compiled plan after a change: the next use compiles the mapping as it is then.
  mutating func rebuildPlan() {
    planCache = PlanCache()
  }

  /// The plan of the mapping's rules and settings.
  private func compilePlan() -> _MappingPlan<Object> {
    if let derivation {
      return derivation.plan(of: self)
    }
    guard let make else { return _MappingPlan(placeholder: ()) }
    // Every rule is compiled for mapping: the groups that apply are chosen per run, so that a
    // call's groups reach child mappings. Serialization still uses the mapping's own groups.
    let rules = expandedRules
    let compiled = rules.compactMap { $0 as? any DecodingRule<Object> }
    let keyRule = rules.lazy.compactMap { ($0 as? any KeyRuleProvider<Object>)?.keyRule }.first
    // The rules of this block whose keys are the default ones, aligned with `rules` (an
    // included mapping's keep their keys): a call's key convention makes their keys.
    let defaultKeys = self.rules.flatMap { rule -> [[String]?] in
      if let include = rule as? Include<Object> { return include.rules.map { _ in nil } }
      return [(rule as? any KeyDerivingRule)?.defaultKeyNames]
    }
    // Every rule is compiled for serializing too: grouped rules write only in runs whose
    // groups (the call's, the mapping's own or inherited) include theirs.
    var inverse = InverseMapping(
      encodings: zip(rules, defaultKeys).compactMap {
        rule, defaultKeys -> RuleEncoding<Object>? in
        var rule = rule
        if let policy = relationshipNullPolicy, var relationship = rule as? Relationship<Object>,
          relationship.nullPolicy == nil
        {
          // The mapping's policy for `nil` relationships is its relationships' own.
          relationship.nullPolicy = policy
          rule = relationship
        }
        guard var encoding = (rule as? any EncodableRule<Object>)?.encoding else { return nil }
        if let names = (rule as? any GroupedRule)?.groupNames, !names.isEmpty {
          encoding = encoding.grouped(names)
        }
        if let defaultKeys { encoding = encoding.withDefaultKeys(defaultKeys) }
        return encoding
      },
      nulls: nullPolicy, dateFormat: dateFormatsAreExplicit ? formats.first : nil,
      groups: activeGroups, groupMatching: groupMatchingMode,
      relationshipNulls: relationshipNullPolicy, form: formOptions, decimals: decimalOutput)
    inverse.keyEncoder = keyRule?.encode
    if let ownConvention { inverse.keyConvention = ownConvention }
    if let inverseCustomization { inverse = inverseCustomization(inverse) }
    var problems = Self.definitionProblems(rules: rules, compiled: compiled, keyRule: keyRule)
    problems += self.rules.compactMap { ($0 as? Include<Object>)?.problem }
    problems += Self.duplicateProblems(self.rules)
    if let identityProblem {
      problems.append(identityProblem)
    } else if let identity, !compiled.contains(where: { $0.propertyKeyPath == identity.property }) {
      // The payload's id is read by the rule that writes the identity property: without one,
      // no payload child could ever match an existing one and merges would silently replace.
      // An optional-chaining key path prints a `?` after its last component: drop it.
      var shown = String(describing: identity.property)
      if shown.contains("?."), shown.hasSuffix("?") { shown.removeLast() }
      problems.append(
        "identified(by: \(shown)) names a property that no rule of this mapping "
          + "writes, so a payload object could never match an existing one; identify by a "
          + "property an Attribute writes")
    }
    if isDeclaredRoundTrip {
      problems += inverse.omitted.map {
        "\($0.rule) is one-way (\($0.reason)), but the mapping is declared roundTrip()"
      }
    }
    let knownKeys =
      rejectsUnknownKeys
      ? compiled.flatMap { rule in
        let groups = (rule as? any GroupedRule)?.groupNames ?? []
        let ofFlatChild = (rule as? any FlatChildSourcing)?.keyedFlatSources != nil
        return rule.readSources.compactMap(\.utf8Keys.first).map {
          KnownKey(bytes: $0, groups: groups, ofFlatChild: ofFlatChild)
        }
      } : nil
    let flatKnownKeys =
      rejectsUnknownKeys
      ? compiled.compactMap { rule -> FlatKnownKeys? in
        guard let sources = (rule as? any FlatChildSourcing)?.keyedFlatSources else { return nil }
        return FlatKnownKeys(
          sources: sources, groups: (rule as? any GroupedRule)?.groupNames ?? [])
      } : []
    var keyVariants: KeyVariants<_MappingPlan<Object>>?
    if keyVariantOf == nil, defaultKeys.contains(where: { $0 != nil }) {
      // A cache of its own, so that the plan does not hold itself through the template.
      var template = self
      template.rebuildPlan()
      keyVariants = KeyVariants { [template] convention, owner in
        template.plan(keyedBy: convention, owner: owner)
      }
    }
    return _MappingPlan(
      make: make, rules: compiled, settings: decodeSettings, inverse: inverse,
      keyRule: keyRule, identity: identity, problems: problems, knownKeys: knownKeys,
      flatKnownKeys: flatKnownKeys, keyVariants: keyVariants, derivedFrom: keyVariantOf,
      ownConvention: keyVariantOf == nil ? ownConvention : nil)
  }

  /// Two rules of this block (not of included mappings) writing one property, unless their
  /// groups keep them apart.
  private static func duplicateProblems(_ rules: [any MappingRule<Object>]) -> [String] {
    let direct = rules.compactMap { $0 as? any DecodingRule<Object> }
    var problems: [String] = []
    for (offset, rule) in direct.enumerated() {
      let groups = Set((rule as? any GroupedRule)?.groupNames ?? [])
      for earlier in direct[..<offset] where earlier.propertyKeyPath == rule.propertyKeyPath {
        let earlierGroups = Set((earlier as? any GroupedRule)?.groupNames ?? [])
        if !groups.isEmpty, !earlierGroups.isEmpty, groups.isDisjoint(with: earlierGroups) {
          continue
        }
        problems.append(
          "\"\(earlier.source)\" and \"\(rule.source)\" both write \(rule.propertyKeyPath); "
            + "keep one, or put the alternatives in included mappings (later wins)")
        break
      }
    }
    return problems
  }

  private static func definitionProblems(
    rules: [any MappingRule<Object>], compiled: [any DecodingRule<Object>],
    keyRule: KeyRule<Object>?
  ) -> [String] {
    var problems = compiled.compactMap(\.keyPathProblem)
    problems += compiled.compactMap(\.definitionProblem)
    problems += compiled.lazy.flatMap(\.readSources).compactMap(\.lengthProblem)
    problems += rules.compactMap { ($0 as? any KeyRuleProvider<Object>)?.keyRule.keyPathProblem }
    let keyRules = rules.filter { $0 is any KeyRuleProvider<Object> }.count
    if keyRules > 1 { problems.append("\(keyRules) key attributes; a mapping has at most one") }
    for rule in compiled {
      guard let placeholder = rule.source.placeholder else { continue }
      guard let keyRule else {
        problems.append(
          "the placeholder (\(placeholder)) in \"\(rule.source)\" names no key attribute")
        continue
      }
      if placeholder != keyRule.name {
        problems.append(
          "the placeholder (\(placeholder)) in \"\(rule.source)\" does not match the key attribute \"\(keyRule.name)\""
        )
      }
    }
    return problems
  }

  /// Checks the definition and reports every mistake at once (also reported when the mapping is
  /// first used): several key attributes, placeholders that name no key attribute, two rules
  /// writing one property, an ``Include`` of an unrelated type, one-way rules in a mapping
  /// declared ``roundTrip()``.
  ///
  /// - Throws: ``MappingErrors`` with one `invalidDefinition` error per mistake.
  public func validate() throws(MappingErrors) {
    try _plan.checkDefinition()
  }

  /// The same mapping with key-value validation on (the default) or off: with `false`, neither
  /// the rules' `.validate { }` closures nor the model's ``KeyValueValidating`` hook run. The
  /// setting reaches child mappings that do not set their own (see ``MappingOptions``).
  public func validation(_ enabled: Bool) -> Self {
    var copy = self
    copy.validationEnabled = enabled
    copy.rebuildPlan()
    return copy
  }

  /// The same mapping with an identity: when mapping onto existing instances, a child whose
  /// payload id equals an existing child's id is merged into that child (the same instance, for
  /// classes) instead of replacing it, and among the children mapped onto one existing
  /// collection the same id twice is one object; a store-backed load (`ObjectMappingStore`)
  /// keeps one instance per id for the whole response.
  ///
  /// For a class model, every call also keeps one instance per id (an identity map per mapping
  /// run, as RestKit's Core Data cache did): the same id again anywhere in the payload (another
  /// element, another relationship, another route of a ``Mapper``) is the same instance, the
  /// later representation mapped onto it as `map(_:onto:)` maps (present keys written, absent
  /// ones kept, the initializer not run again; its collections replace the earlier ones, whatever
  /// their policy). A representation that fails leaves the instance as it was. Structs keep one value per representation; a stream (`elements(of:)`) keeps one
  /// map per element, so that its memory does not grow with the stream. A payload without an id
  /// never matches.
  ///
  /// ```swift
  /// let authorMapping = Mapping(Author.init) {
  ///   Attribute("id", \.id)
  ///   Attribute("name", \.name)
  /// }.identified(by: \.id)
  /// ```
  public func identified<ID: Hashable & SendableMetatype>(
    by property: KeyPath<Object, ID> & Sendable
  ) -> Self {
    var copy = self
    copy.identityProblem = KeyPathCheck.problem(property, rule: "identified(by:)")
    if copy.identityProblem != nil {
      // Never read: no object has an identity, and the problem fails the mapping's first use.
      copy.identity = Identity(property: property, value: { _ in nil }, key: { _ in nil })
      copy.rebuildPlan()
      return copy
    }
    copy.identity = Identity(
      property: property,
      value: { object in
        let id = object[keyPath: property]
        if let optional = id as? any OptionalIdentity { return optional._identityValue }
        return AnyHashable(id)
      },
      key: { value in
        // The identity rule's value, read from a payload: the property's type.
        guard let id = value as? ID else { return nil }
        if let optional = id as? any OptionalIdentity { return optional._identityValue }
        return AnyHashable(id)
      })
    copy.rebuildPlan()
    return copy
  }

  /// The same mapping serializing `nil` properties as `null` (``NullPolicy/include``) or leaving
  /// them out (``NullPolicy/omit``, the default). An attribute's own ``Attribute/nulls(_:)``
  /// wins.
  public func nulls(_ policy: NullPolicy) -> Self {
    var copy = self
    copy.nullPolicy = policy
    copy.rebuildPlan()
    return copy
  }

  /// The same mapping serializing with a customized inverse — also where it is used as the
  /// child mapping of a relationship.
  ///
  /// ```swift
  /// let authorMapping = Mapping(Author.init) {
  ///   Attribute("name", \.name)
  ///   Attribute("email", \.email)
  /// }
  /// .customizingInverse { $0.removing("email") }   // never send the email back
  /// ```
  @preconcurrency
  public func customizingInverse(
    _ customize: @escaping @Sendable (InverseMapping<Object>) -> InverseMapping<Object>
  ) -> Self {
    var copy = self
    let earlier = inverseCustomization
    copy.inverseCustomization = { customize(earlier?($0) ?? $0) }
    copy.rebuildPlan()
    return copy
  }

  /// The same mapping restricted to groups (CSMapper groups): the rules without groups plus
  /// those tagged (``Attribute/groups(_:)-(String...)``) with one of `names`, both when mapping and when
  /// serializing. The groups reach its child mappings unless they set their own; a call's
  /// ``MappingOptions/groups`` beat them.
  ///
  /// ```swift
  /// let userMapping = Mapping(User.init) {
  ///   Attribute("id", \.id)
  ///   Attribute("name", \.name).groups("list", "detail")
  ///   Attribute("biography", \.biography).groups("detail")
  /// }
  /// let list = userMapping.groups(["list"])
  /// try list.serialize(user)   // {"id":1,"name":"Ann"}: no biography
  /// ```
  public func groups(_ names: Set<String>) -> Self {
    var copy = self
    copy.activeGroups = names
    copy.rebuildPlan()
    return copy
  }

  /// The same mapping restricted to `names`, chosen by `matching`: `.allOf` applies a grouped
  /// rule only when every requested group is one of its groups (CSMapper's semantics), see
  /// ``GroupMatching``.
  ///
  /// ```swift
  /// let both = personMapping.groups(["list", "detail"], matching: .allOf)
  /// ```
  public func groups(_ names: Set<String>, matching: GroupMatching) -> Self {
    groups(names).groupMatching(matching)
  }

  /// The same mapping choosing grouped rules by `matching`, for the groups a call selects
  /// (``MappingOptions/groups``) as well as its own; its child mappings inherit it.
  public func groupMatching(_ matching: GroupMatching) -> Self {
    var copy = self
    copy.groupMatchingMode = matching
    copy.rebuildPlan()
    return copy
  }

  /// The same mapping reporting every payload key that no rule reads as an error
  /// (``MappingError/Kind/unknownKey``) at its path (`/email: unknown key`); unknown keys are
  /// ignored by default. Each mapping checks the objects it maps itself, so set it on the child
  /// mappings too to check nested objects.
  public func rejectingUnknownKeys() -> Self {
    var copy = self
    copy.rejectsUnknownKeys = true
    copy.rebuildPlan()
    return copy
  }

  /// The same mapping declared two-way: every rule must have an inverse, and a one-way rule
  /// (a `decodeOnly:` closure, a one-way transform, a special source, a `decodeOnly()` rule) is
  /// a definition problem reported by ``validate()`` and on first use.
  public func roundTrip() -> Self {
    var copy = self
    copy.isDeclaredRoundTrip = true
    copy.rebuildPlan()
    return copy
  }

  /// The same mapping mapping an object none of whose keys it reads to its initial value
  /// (`make()`, or the existing instance unchanged), where by default that object is an
  /// ``MappingError/Kind/unmappableRepresentation(keys:)`` error (RestKit's behaviour: such a
  /// payload is usually the wrong mapping or the wrong key path). ObjectMapper and AppCoreKit
  /// accepted such payloads; use it for models whose keys are all optional and may all be
  /// missing. The setting reaches child mappings that do not set their own (see
  /// ``MappingOptions/allowsUnmappableRepresentation``).
  ///
  /// ```swift
  /// let settings = Mapping(Settings.init) {
  ///   Attribute("theme", \.theme)       // String?
  /// }.allowingUnmappableRepresentation()
  /// try settings.map(#"{"unrelated": 1}"#)   // Settings(theme: nil), no error
  /// ```
  ///
  /// A mapping whose rules read no payload key at all (no rules, only rules left out of this
  /// build by an `if`, only ``SourcePath/root``, ``SourcePath/metadata``, ``SourcePath/index``
  /// or other special sources) never fails this way, with or without this setting: it maps any
  /// object to its initial value.
  public func allowingUnmappableRepresentation() -> Self {
    var copy = self
    copy.allowsUnmappable = true
    copy.rebuildPlan()
    return copy
  }

  /// The same mapping with `options` as its own settings: what ``MappingOptions`` sets
  /// replaces the mapping's own setting for that field, and reaches its child mappings that do
  /// not set their own; the fields left `nil` keep the mapping's settings. The way to give a
  /// mapping a compatibility preset:
  ///
  /// ```swift
  /// let userMapping = Mapping(User.init) {
  ///   Attribute("id", \.id)
  ///   Attribute("joined", \.joined)
  /// }.options(.restKitCompatible)
  /// ```
  ///
  /// A call's options still win where the mapping is the call's root (see ``MappingOptions``).
  /// ``MappingOptions/metadata`` belongs to calls and is ignored here; ``MappingOptions/keys``
  /// makes the keys of the keyless rules, as ``keys(_:)`` does.
  ///
  /// - Parameter options: The settings.
  /// - Returns: The mapping with those settings.
  public func options(_ options: MappingOptions) -> Self {
    var copy = options.keys.map { keys($0) } ?? self
    if let value = options.coercion { copy.coercionMode = value }
    if let value = options.nulls { copy.nullPolicy = value }
    if let value = options.groups { copy.activeGroups = value }
    if let value = options.groupMatching { copy.groupMatchingMode = value }
    if let value = options.dateFormats {
      copy.formats = value
      copy.dateFormatsAreExplicit = true
    }
    if let value = options.validation { copy.validationEnabled = value }
    if let value = options.missingKeys { copy.missingKeyPolicy = value }
    if let value = options.nullIntoNonOptional { copy.nullIntoNonOptionalPolicy = value }
    if let value = options.attributeFailures { copy.attributeFailurePolicy = value }
    if let value = options.emptyStrings { copy.emptyStringPolicy = value }
    if let value = options.allowsUnmappableRepresentation { copy.allowsUnmappable = value }
    if let value = options.childMerging { copy.childMergingPolicy = value }
    if let value = options.relationshipNulls { copy.relationshipNullPolicy = value }
    if let value = options.form { copy.formOptions = value }
    if let value = options.decimals { copy.decimalOutput = value }
    copy.rebuildPlan()
    return copy
  }

  /// The same mapping treating keys its payloads leave out as `policy` says when mapping onto
  /// an existing instance (default: they leave their properties alone). The setting reaches
  /// child mappings that do not set their own (see ``MappingOptions``).
  ///
  /// ```swift
  /// let full = userMapping.missingKeys([.assignDefaults, .assignNilToRelationships])
  /// ```
  public func missingKeys(_ policy: MissingKeyPolicy) -> Self {
    var copy = self
    copy.missingKeyPolicy = policy
    copy.rebuildPlan()
    return copy
  }

  /// The same mapping treating `null` for a property that cannot hold `nil` as `policy` says
  /// (default ``NullIntoNonOptional/fail``). The setting reaches child mappings that do not set
  /// their own (see ``MappingOptions``).
  public func nullIntoNonOptional(_ policy: NullIntoNonOptional) -> Self {
    var copy = self
    copy.nullIntoNonOptionalPolicy = policy
    copy.rebuildPlan()
    return copy
  }

  /// The same mapping with another coercion mode (default ``Coercion/lenient``). The mode
  /// reaches child mappings that do not set their own (see ``MappingOptions``).
  public func coercion(_ mode: Coercion) -> Self {
    var copy = self
    copy.coercionMode = mode
    copy.rebuildPlan()
    return copy
  }

  /// The same mapping reading `Date` attributes with these formats, tried in order (default
  /// ``DateFormat/defaultFormats``). Serialization writes the first. The formats reach child
  /// mappings that do not set their own (see ``MappingOptions``).
  public func dateFormats(_ formats: [DateFormat]) -> Self {
    var copy = self
    copy.formats = formats
    copy.dateFormatsAreExplicit = true
    copy.rebuildPlan()
    return copy
  }
}

/// A mapping of any kind that relationships and mappers can use: ``Mapping`` and
/// ``DynamicMapping`` conform.
///
/// To make a type of your own usable wherever a mapping is, forward the plan of a mapping it
/// wraps:
///
/// ```swift
/// struct UserMapping: MappingProtocol {
///   let base = Mapping(User.init) {
///     Attribute("name", \.name)
///   }
///   var plan: MappingPlan<User> { base.plan }
/// }
/// ```
public protocol MappingProtocol<Object>: Sendable {
  /// The model type the mapping produces.
  associatedtype Object
  /// The mapping's compiled form, which every mapping verb runs.
  var plan: MappingPlan<Object> { get }
}

/// The compiled form of a mapping: an opaque value with no public members. Its contents are the
/// library's own and change between versions; forward it from another mapping to conform to
/// ``MappingProtocol``.
public struct MappingPlan<Object>: Sendable {
  /// The compiled rules, steps, inverse and settings.
  let compiled: _MappingPlan<Object>

  init(_ compiled: _MappingPlan<Object>) {
    self.compiled = compiled
  }
}
