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
  var derivation: _Derivation<Object>?
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
  var identity: _Identity<Object>?
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
  var isDeclaredRoundTrip = false
  /// For a mapping derived for a call's key convention (``MappingOptions/keys``): the plan it
  /// was derived from.
  var keyVariantOf: ObjectIdentifier?
  /// The convention the mapping declares (`keys:`, ``keys(_:)``): it reaches the child mappings
  /// that declare none.
  var ownConvention: KeyConvention?

  /// The compiled plan, made on first use: a modifier replaces it with an empty one, so a
  /// mapping built with several modifiers compiles once.
  var planCache = _PlanCache<Object>()

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
      guard let deriving = rule as? any _KeyDerivingRule,
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
  /// serializes (mapping selects the groups per run, see ``_ValueContext/groups``).
  var activeRules: [any MappingRule<Object>] {
    expandedRules.filter { rule in
      guard let activeGroups, let names = (rule as? any _GroupedRule)?.groupNames, !names.isEmpty
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
    planCache = _PlanCache()
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
    let compiled = rules.compactMap { $0 as? any _DecodingRule<Object> }
    let keyRule = rules.lazy.compactMap { ($0 as? any _KeyRuleProvider<Object>)?.keyRule }.first
    // The rules of this block whose keys are the default ones, aligned with `rules` (an
    // included mapping's keep their keys): a call's key convention makes their keys.
    let defaultKeys = self.rules.flatMap { rule -> [[String]?] in
      if let include = rule as? Include<Object> { return include.rules.map { _ in nil } }
      return [(rule as? any _KeyDerivingRule)?.defaultKeyNames]
    }
    // Every rule is compiled for serializing too: grouped rules write only in runs whose
    // groups (the call's, the mapping's own or inherited) include theirs.
    var inverse = InverseMapping(
      encodings: zip(rules, defaultKeys).compactMap {
        rule, defaultKeys -> _RuleEncoding<Object>? in
        var rule = rule
        if let policy = relationshipNullPolicy, var relationship = rule as? Relationship<Object>,
          relationship.nullPolicy == nil
        {
          // The mapping's policy for `nil` relationships is its relationships' own.
          relationship.nullPolicy = policy
          rule = relationship
        }
        guard var encoding = (rule as? any _EncodableRule<Object>)?.encoding else { return nil }
        if let names = (rule as? any _GroupedRule)?.groupNames, !names.isEmpty {
          encoding = encoding.grouped(names)
        }
        if let defaultKeys { encoding = encoding.withDefaultKeys(defaultKeys) }
        return encoding
      },
      nulls: nullPolicy, dateFormat: dateFormatsAreExplicit ? formats.first : nil,
      groups: activeGroups, groupMatching: groupMatchingMode,
      relationshipNulls: relationshipNullPolicy, form: formOptions)
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
        let groups = (rule as? any _GroupedRule)?.groupNames ?? []
        let ofFlatChild = (rule as? any _FlatChildSourcing)?.keyedFlatSources != nil
        return rule.readSources.compactMap(\.utf8Keys.first).map {
          _KnownKey(bytes: $0, groups: groups, ofFlatChild: ofFlatChild)
        }
      } : nil
    let flatKnownKeys =
      rejectsUnknownKeys
      ? compiled.compactMap { rule -> _FlatKnownKeys? in
        guard let sources = (rule as? any _FlatChildSourcing)?.keyedFlatSources else { return nil }
        return _FlatKnownKeys(
          sources: sources, groups: (rule as? any _GroupedRule)?.groupNames ?? [])
      } : []
    var keyVariants: _KeyVariants<_MappingPlan<Object>>?
    if keyVariantOf == nil, defaultKeys.contains(where: { $0 != nil }) {
      // A cache of its own, so that the plan does not hold itself through the template.
      var template = self
      template.rebuildPlan()
      keyVariants = _KeyVariants { [template] convention, owner in
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
    let direct = rules.compactMap { $0 as? any _DecodingRule<Object> }
    var problems: [String] = []
    for (offset, rule) in direct.enumerated() {
      let groups = Set((rule as? any _GroupedRule)?.groupNames ?? [])
      for earlier in direct[..<offset] where earlier.propertyKeyPath == rule.propertyKeyPath {
        let earlierGroups = Set((earlier as? any _GroupedRule)?.groupNames ?? [])
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
    rules: [any MappingRule<Object>], compiled: [any _DecodingRule<Object>],
    keyRule: _KeyRule<Object>?
  ) -> [String] {
    var problems = compiled.compactMap(\.keyPathProblem)
    problems += compiled.compactMap(\.definitionProblem)
    problems += rules.compactMap { ($0 as? any _KeyRuleProvider<Object>)?.keyRule.keyPathProblem }
    let keyRules = rules.filter { $0 is any _KeyRuleProvider<Object> }.count
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
  /// classes) instead of replacing it; within one payload, the same id twice is one object. A
  /// payload without an id never matches.
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
    copy.identityProblem = _KeyPathCheck.problem(property, rule: "identified(by:)")
    if copy.identityProblem != nil {
      // Never read: no object has an identity, and the problem fails the mapping's first use.
      copy.identity = _Identity(property: property, value: { _ in nil })
      copy.rebuildPlan()
      return copy
    }
    copy.identity = _Identity(
      property: property,
      value: { object in
        let id = object[keyPath: property]
        if let optional = id as? any _OptionalIdentity { return optional._identityValue }
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

/// A mapping's compiled plan, made once on first use and then shared by every copy of the
/// mapping and every task: the first plan stored wins (two tasks that compile at once make equal
/// plans, one is kept), and reading it after that is one atomic load.
final class _PlanCache<Object>: Sendable {
  private let compiled = AtomicLazyReference<_MappingPlan<Object>>()

  /// The plan, compiled by `compile` if none is stored yet.
  @inline(__always)
  func plan(_ compile: () -> _MappingPlan<Object>) -> _MappingPlan<Object> {
    if let plan = compiled.load() { return plan }
    return compiled.storeIfNil(compile())
  }
}

extension MappingProtocol {
  /// The compiled plan the engine runs.
  @inline(__always)
  var _plan: _MappingPlan<Object> { plan.compiled }
}

/// The compiled form of a mapping (see ``MappingPlan``).
final class _MappingPlan<Object>: Sendable {
  let make: (@Sendable () -> Object)?
  let rules: [any _DecodingRule<Object>]
  /// The settings the mapping sets itself (coercion, date formats, validation, groups), applied
  /// over the inherited ones while it maps an object (``_MappingRun/enterSettings(of:)``).
  let settings: MappingOptions
  /// Whether ``settings`` sets anything mapping reads: only then does a run look at them.
  let hasSettings: Bool
  /// The rules compiled for decoding, in order: a plain array of classes, so running them per
  /// object needs no existential or generic metadata lookups.
  let steps: [_DecodeStep<Object>]
  /// The same steps, unretained, for the loop that runs them (``steps`` keeps them alive).
  private let unretainedSteps: _UnretainedSteps<Object>
  /// Whether every rule reads a special source (``SourcePath/root``), so the mapped value need
  /// not be an object.
  let readsOnlySpecialSources: Bool
  /// The serializing direction.
  let inverse: InverseMapping<Object>
  /// For dynamic mappings: picks the case per object.
  let dynamic: _DynamicDispatch<Object>?
  /// For nested-key mappings: the key attribute.
  let keyRule: _KeyRule<Object>?
  /// Neither dynamic nor nested-key: the hot path tests this instead of the optionals above
  /// (testing a generic optional looks up its metadata per object).
  var isPlain: Bool { _isPlain }
  private let _isPlain: Bool
  /// Mistakes in the definition, reported when the mapping is used.
  let problems: [String]
  /// The steps of `rules`, one per rule in rule order (``steps`` groups the alternatives).
  let ruleSteps: [_DecodeStep<Object>]
  /// With ``Mapping/rejectingUnknownKeys()``: the first keys the rules read.
  let knownKeys: [_KnownKey]?
  /// With ``Mapping/rejectingUnknownKeys()``: the empty-source children's keys, for a call's
  /// key convention.
  let flatKnownKeys: [_FlatKnownKeys]
  /// How objects are told apart when mapping onto existing instances.
  let identity: _Identity<Object>?
  /// The steps of the rules that read payload keys (not ``SourcePath/root`` or another
  /// special source), in rule order: an object none of whose keys they read is an unmappable
  /// representation. Empty for a mapping whose rules read no key, which maps any object.
  let keyReadingSteps: [_DecodeStep<Object>]
  /// For a mapping with default keys (rules declared without a key, no convention of its own):
  /// the plans it derives for the conventions calls declare (``MappingOptions/keys``).
  let keyVariants: _KeyVariants<_MappingPlan<Object>>?
  /// ``keyVariants`` is set: tested on the hot path instead of the optional.
  let hasKeyVariants: Bool
  /// For a plan derived for a call's key convention: the identity of the plan it was derived
  /// from.
  private let derivedFrom: ObjectIdentifier?
  /// The mapping's own key convention, in effect for its child mappings that declare none.
  let ownConvention: KeyConvention?
  /// ``ownConvention`` is set: tested on the hot path instead of the optional.
  let hasOwnConvention: Bool

  /// The identity the settings precedence knows this plan by (``_MappingRun/rootPlan``,
  /// ``_MappingRun/enterSettings(of:)``): a plan derived for a key convention is the mapping it
  /// was derived from.
  var settingsID: ObjectIdentifier { derivedFrom ?? ObjectIdentifier(self) }

  init(
    make: @escaping @Sendable () -> Object, rules: [any _DecodingRule<Object>],
    settings: MappingOptions = .none, inverse: InverseMapping<Object>,
    keyRule: _KeyRule<Object>? = nil, identity: _Identity<Object>? = nil,
    problems: [String] = [], knownKeys: [_KnownKey]? = nil,
    flatKnownKeys: [_FlatKnownKeys] = [],
    keyVariants: _KeyVariants<_MappingPlan<Object>>? = nil, derivedFrom: ObjectIdentifier? = nil,
    ownConvention: KeyConvention? = nil
  ) {
    self.ownConvention = ownConvention
    hasOwnConvention = ownConvention != nil
    self.keyVariants = keyVariants
    hasKeyVariants = keyVariants != nil
    self.derivedFrom = derivedFrom
    self.make = make
    self.rules = rules
    self.settings = settings
    hasSettings = settings.setsDecodeSettings
    (steps, ruleSteps) = _MappingPlan.compile(rules)
    keyReadingSteps = zip(rules, ruleSteps).compactMap { rule, step in
      rule.readsPayloadKeys ? step : nil
    }
    unretainedSteps = _UnretainedSteps(steps)
    self.knownKeys = knownKeys
    self.flatKnownKeys = flatKnownKeys
    readsOnlySpecialSources = rules.allSatisfy { $0.source.isSpecial }
    self.inverse = inverse
    dynamic = nil
    self.keyRule = keyRule
    _isPlain = keyRule == nil
    self.identity = identity
    self.problems = problems
  }

  init(
    dynamic: _DynamicDispatch<Object>, inverse: InverseMapping<Object>, problems: [String] = [],
    ownConvention: KeyConvention? = nil
  ) {
    self.ownConvention = ownConvention
    hasOwnConvention = ownConvention != nil
    make = nil
    keyReadingSteps = []
    keyVariants = nil
    hasKeyVariants = false
    derivedFrom = nil
    rules = []
    settings = .none
    hasSettings = false
    steps = []
    unretainedSteps = _UnretainedSteps([])
    ruleSteps = []
    knownKeys = nil
    flatKnownKeys = []
    readsOnlySpecialSources = true
    self.inverse = inverse
    self.dynamic = dynamic
    keyRule = nil
    _isPlain = false
    identity = nil
    self.problems = problems
  }

  init(placeholder: Void) {
    ownConvention = nil
    hasOwnConvention = false
    make = nil
    keyReadingSteps = []
    keyVariants = nil
    hasKeyVariants = false
    derivedFrom = nil
    rules = []
    settings = .none
    hasSettings = false
    steps = []
    ruleSteps = []
    knownKeys = nil
    flatKnownKeys = []
    unretainedSteps = _UnretainedSteps([])
    readsOnlySpecialSources = true
    inverse = InverseMapping(encodings: [], nulls: .omit, dateFormat: .iso8601)
    dynamic = nil
    keyRule = nil
    _isPlain = true
    identity = nil
    problems = []
  }

  /// Throws the definition problems, if any.
  func checkDefinition() throws(MappingErrors) {
    guard !problems.isEmpty else { return }
    throw MappingErrors(problems.map { MappingError(.invalidDefinition(message: $0)) })
  }

  /// The decode steps of `rules`: rules writing the same property (composition) run together
  /// as alternatives, at the place of the first; the others in order. A step whose first key an
  /// earlier step also reads is told so, since its lookup must not start after that rule's
  /// member. Also returns one step per rule, in rule order.
  private static func compile(
    _ rules: [any _DecodingRule<Object>]
  ) -> (steps: [_DecodeStep<Object>], ruleSteps: [_DecodeStep<Object>]) {
    var positions: [AnyKeyPath: [Int]] = [:]
    for (offset, rule) in rules.enumerated() {
      positions[rule.propertyKeyPath, default: []].append(offset)
    }
    var earlierKeys: Set<[UInt8]> = []
    var ruleSteps: [_DecodeStep<Object>?] = Array(repeating: nil, count: rules.count)
    var steps: [_DecodeStep<Object>] = []
    for (offset, rule) in rules.enumerated() {
      let group = positions[rule.propertyKeyPath] ?? [offset]
      guard group.first == offset else { continue }
      let compiled = group.map { position -> _DecodeStep<Object> in
        let source = rules[position].source
        let firstKey = source.isSpecial ? nil : source.utf8Keys.first
        let mayRepeat = firstKey.map { !earlierKeys.insert($0).inserted } ?? false
        var step = rules[position].decodeStep(mayRepeat: mayRepeat)
        if let groups = (rules[position] as? any _GroupedRule)?.groupNames, !groups.isEmpty {
          step = _DecodeStep(_GroupedStep(step, groups: groups))
        }
        ruleSteps[position] = step
        return step
      }
      steps.append(compiled.count == 1 ? compiled[0] : _DecodeStep(_AlternativesStep(compiled)))
    }
    return (steps, ruleSteps.compactMap { $0 })
  }

  /// Maps the object at `index` into a fresh instance; `nil` (with errors in `run`) when the
  /// object fails.
  ///
  /// A dynamic mapping may decline the object: in collections (`declineIsAcceptable`) that skips
  /// it with a diagnostic, elsewhere it is an error.
  func decodeNew(at index: Int, run: inout _MappingRun, declineIsAcceptable: Bool = true) -> Object?
  {
    if let dynamic {
      return dynamic.decode(at: index, run: &run, declineIsAcceptable: declineIsAcceptable)
    }
    return decodeNewStatic(at: index, run: &run)
  }

  /// ``decodeNew(at:run:declineIsAcceptable:)`` for a plain or nested-key mapping; out of line,
  /// so that a dynamic mapping's frame, which recursion through it repeats per level of
  /// nesting, stays small.
  @inline(never)
  private func decodeNewStatic(at index: Int, run: inout _MappingRun) -> Object? {
    if let keyRule { return decodeSingleKeyed(at: index, keyRule: keyRule, run: &run) }
    guard let make, acceptsValue(at: index, run: &run) else { return nil }
    var object = make()
    return decode(into: &object, at: index, run: &run) ? object : nil
  }

  /// Maps the object at `index` into a fresh instance and passes it to `accept`; records the
  /// errors in `run` instead when the object fails.
  @inline(__always)
  func decodeNew(
    at index: Int, run: inout _MappingRun, declineIsAcceptable: Bool = true,
    accept: (consuming Object) -> Void
  ) {
    guard _isPlain else {
      return decodeDispatched(
        at: index, run: &run, declineIsAcceptable: declineIsAcceptable, accept: accept)
    }
    guard let make, acceptsValue(at: index, run: &run) else { return }
    var object = make()
    if decode(into: &object, at: index, run: &run) { accept(consume object) }
  }

  /// ``decodeNew(at:run:declineIsAcceptable:accept:)`` for a relationship's child: a plain
  /// child that failed is passed to `accept` too, filled as far as it mapped, unless the
  /// relationship drops failed children (``_MappingRun/dropsFailedChildren``). Its errors are
  /// in `run`, so the parent fails; a report's partial object keeps the partial child, as
  /// AppCoreKit returned the object with what it could fill.
  @inline(__always)
  func decodeChild(
    at index: Int, run: inout _MappingRun, declineIsAcceptable: Bool = true,
    accept: (consuming Object) -> Void
  ) {
    guard _isPlain else {
      return decodeDispatched(
        at: index, run: &run, declineIsAcceptable: declineIsAcceptable, accept: accept)
    }
    guard let make, acceptsValue(at: index, run: &run) else { return }
    var object = make()
    if decode(into: &object, at: index, run: &run) || !run.dropsFailedChildren {
      accept(consume object)
    }
  }

  /// ``decodeNew(at:run:declineIsAcceptable:accept:)`` for dynamic and nested-key mappings,
  /// out of line so that the plain path needs no `Optional<Object>` metadata.
  @inline(never)
  private func decodeDispatched(
    at index: Int, run: inout _MappingRun, declineIsAcceptable: Bool,
    accept: (consuming Object) -> Void
  ) {
    let object =
      if let dynamic {
        dynamic.decode(at: index, run: &run, declineIsAcceptable: declineIsAcceptable)
      } else {
        decodeNewStatic(at: index, run: &run)
      }
    if let object { accept(object) }
  }

  /// Whether the value at `index` can be mapped (an object, unless every rule reads a special
  /// source); records a type mismatch otherwise.
  @inline(__always)
  func acceptsValue(at index: Int, run: inout _MappingRun) -> Bool {
    guard run.tape[index].kind == .object || readsOnlySpecialSources else {
      recordNotAnObject(at: index, run: &run)
      return false
    }
    return true
  }

  /// The error of ``acceptsValue(at:run:)``, out of line: the check is inlined in every
  /// relationship's path, which recursion repeats per level of nesting.
  @inline(never)
  private func recordNotAnObject(at index: Int, run: inout _MappingRun) {
    run.fail(.typeMismatch(expected: "an object", found: run.foundDescription(at: index)))
  }

  /// Runs the steps on the value at `index` (checked with `acceptsValue`), writing into `object`;
  /// `false` when it failed.
  @inline(__always)
  func decode(into object: inout Object, at index: Int, run: inout _MappingRun) -> Bool {
    var unused = _Patch<Object>()
    return runSteps(on: &object, patch: &unused, ontoExisting: false, at: index, run: &run)
  }

  /// Runs the steps for the object at `index`: the one loop of the engine, for new models
  /// (written in place) and existing instances (`ontoExisting`: `object` is read, the writes go
  /// to `patch`) alike; `false` when it failed.
  func runSteps(
    on object: inout Object, patch: inout _Patch<Object>, ontoExisting: Bool, at index: Int,
    run: inout _MappingRun
  ) -> Bool {
    if hasKeyVariants, run.hasKeyConvention {
      return runKeyedSteps(
        on: &object, patch: &patch, ontoExisting: ontoExisting, at: index, run: &run)
    }
    if hasOwnConvention, !run.passesOwnConvention {
      return runPassingConvention(
        on: &object, patch: &patch, ontoExisting: ontoExisting, at: index, run: &run)
    }
    run.passesOwnConvention = false
    let before = run.errors.count
    var hint = _MemberHint(object: index)
    let inherited = hasSettings ? run.enterSettings(of: self) : nil
    let outerMode = run.ontoExisting
    run.ontoExisting = ontoExisting
    unretainedSteps.callEach { step in
      step.decode(&object, &patch, objectIndex: index, hint: &hint, run: &run)
    }
    run.ontoExisting = outerMode
    if knownKeys != nil { reportUnknownKeys(at: index, run: &run) }
    if let inherited { run.context = inherited }
    return run.errors.count == before
  }
}

extension _MappingPlan {
  /// ``runSteps(on:patch:ontoExisting:at:run:)`` with this mapping's own key convention in
  /// effect for its child mappings that declare none; out of line, like
  /// ``runKeyedSteps(on:patch:ontoExisting:at:run:)``.
  @inline(never)
  func runPassingConvention(
    on object: inout Object, patch: inout _Patch<Object>, ontoExisting: Bool, at index: Int,
    run: inout _MappingRun
  ) -> Bool {
    let outer = run.keyConvention
    run.keyConvention = ownConvention
    run.passesOwnConvention = true
    let succeeded = runSteps(
      on: &object, patch: &patch, ontoExisting: ontoExisting, at: index, run: &run)
    run.keyConvention = outer
    return succeeded
  }

  /// ``runSteps(on:patch:ontoExisting:at:run:)`` with the plan derived for the call's key
  /// convention; out of line, so that the frame of `runSteps`, which recursion repeats per level
  /// of nesting, holds nothing for it.
  @inline(never)
  func runKeyedSteps(
    on object: inout Object, patch: inout _Patch<Object>, ontoExisting: Bool, at index: Int,
    run: inout _MappingRun
  ) -> Bool {
    let keyed = keyed(in: run)
    // What the convention made wrong in the definition (two rules reading one key, in a
    // mapping declared round-trip): this mapping's own problems were reported when the call
    // began.
    guard keyed.problems.isEmpty else {
      for problem in keyed.problems {
        run.fail(.invalidDefinition(message: "with the call's key convention, \(problem)"))
      }
      return false
    }
    return keyed.runSteps(
      on: &object, patch: &patch, ontoExisting: ontoExisting, at: index, run: &run)
  }

  /// The plan derived for `convention` when this mapping has default keys, else this one.
  func keyedPlan(for convention: KeyConvention) -> _MappingPlan<Object> {
    keyVariants?.plan(for: convention, owner: ObjectIdentifier(self)) ?? self
  }

  /// The plan to map with in `run`: the one derived for the call's key convention when the
  /// call declares one and this mapping has default keys, else this one.
  @inline(never)
  func keyed(in run: borrowing _MappingRun) -> _MappingPlan<Object> {
    guard let convention = run.keyConvention else { return self }
    return keyedPlan(for: convention)
  }

  /// The coercion this mapping's objects are mapped with in `run`: its own when it sets one
  /// (unless it is the call's root, where the call's options decided), else the inherited one.
  func coercion(in run: borrowing _MappingRun) -> Coercion {
    guard settingsID != run.rootPlan, let own = settings.coercion else {
      return run.context.coercion
    }
    return own
  }
}

extension _MappingRun {
  /// How the value at `index` reads in an error message.
  func foundDescription(at index: Int) -> String {
    let value = PayloadValue(run: self, index: index, context: .default)
    return value.description(of: value.entry)
  }
}

extension _MappingPlan {
  /// Records an ``MappingError/Kind/unknownKey`` error for every member of the object at
  /// `index` whose key no rule reads.
  @inline(never)
  func reportUnknownKeys(at index: Int, run: inout _MappingRun) {
    guard let knownKeys, run.tape[index].kind == .object else { return }
    // Under a call's key convention, the keys empty-source children read are those of their
    // plans for it.
    var flatKeys: [_KnownKey]?
    if run.hasKeyConvention, let convention = run.keyConvention, !flatKnownKeys.isEmpty {
      flatKeys = flatKnownKeys.flatMap { $0.keys(for: convention) }
    }
    var cursor = index + 1
    for _ in 0..<Int(run.tape[index].length) {
      func matches(_ key: _KnownKey) -> Bool {
        run.context.includes(groups: key.groups) && run.tape.stringEquals(at: cursor, key.bytes)
      }
      let known =
        knownKeys.contains { key in (flatKeys == nil || !key.ofFlatChild) && matches(key) }
        || (flatKeys?.contains(where: matches) ?? false)
      if !known { run.fail(.unknownKey, at: [.key(run.tape.string(at: cursor))]) }
      cursor = run.tape.next(after: cursor + 1)
    }
  }
}

/// A first key that a rule of a mapping reads, for ``Mapping/rejectingUnknownKeys()``: known
/// only in runs where the rule's groups apply.
struct _KnownKey: Sendable {
  let bytes: [UInt8]
  let groups: [String]
  /// Read by an empty-source relationship's child: under a call's key convention that child's
  /// keys are its plan's for the convention (``_FlatKnownKeys``), not this one.
  var ofFlatChild = false
}

/// The keys an empty-source relationship's child reads, for ``Mapping/rejectingUnknownKeys()``
/// under a call's key convention.
struct _FlatKnownKeys: Sendable {
  let sources: @Sendable (KeyConvention) -> [SourcePath]
  let groups: [String]

  func keys(for convention: KeyConvention) -> [_KnownKey] {
    sources(convention).compactMap(\.utf8Keys.first).map { _KnownKey(bytes: $0, groups: groups) }
  }
}

/// A rule that reads its child from its parent's own fields (an empty-source relationship).
protocol _FlatChildSourcing {
  /// The child's payload sources for a call's key convention; `nil` for any other rule.
  var keyedFlatSources: (@Sendable (KeyConvention) -> [SourcePath])? { get }
}

extension Relationship: _FlatChildSourcing {
  var keyedFlatSources: (@Sendable (KeyConvention) -> [SourcePath])? {
    guard source == .root, let flatChild else { return nil }
    return flatChild.keyedSources
  }
}
