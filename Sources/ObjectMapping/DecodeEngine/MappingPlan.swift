import Synchronization

/// A mapping's compiled plan, made once on first use and then shared by every copy of the
/// mapping and every task: the first plan stored wins (two tasks that compile at once make equal
/// plans, one is kept), and reading it after that is one atomic load.
final class PlanCache<Object>: Sendable {
  private let compiled = AtomicLazyReference<_MappingPlan<Object>>()
  /// Orders the publication for ThreadSanitizer builds only (``SanitizerLock``): the acquire and
  /// release of `compiled` happen in the uninstrumented `Synchronization` module.
  private let sanitizerLock = SanitizerLock()

  /// The plan, compiled by `compile` if none is stored yet.
  @inline(__always)
  func plan(_ compile: () -> _MappingPlan<Object>) -> _MappingPlan<Object> {
    sanitizerLock.lock()
    let stored = compiled.load()
    sanitizerLock.unlock()
    if let stored { return stored }
    // Compiled outside the lock: compiling may reach other mappings' caches.
    let plan = compile()
    sanitizerLock.lock()
    defer { sanitizerLock.unlock() }
    return compiled.storeIfNil(plan)
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
  let rules: [any DecodingRule<Object>]
  /// The settings the mapping sets itself (coercion, date formats, validation, groups), applied
  /// over the inherited ones while it maps an object (``MappingRun/enterSettings(of:)``).
  let settings: MappingOptions
  /// Whether ``settings`` sets anything mapping reads: only then does a run look at them.
  let hasSettings: Bool
  /// The rules compiled for decoding, in order: a plain array of one final class, so running
  /// them per object looks up no generic metadata (each step then calls its kind).
  let steps: [DecodeStep<Object>]
  /// The same steps, unretained, for the loop that runs them (``steps`` keeps them alive).
  private let unretainedSteps: UnretainedSteps<Object>
  /// Whether every rule reads a special source (``SourcePath/root``), so the mapped value need
  /// not be an object.
  let readsOnlySpecialSources: Bool
  /// The serializing direction.
  let inverse: InverseMapping<Object>
  /// For dynamic mappings: picks the case per object.
  let dynamic: DynamicDispatch<Object>?
  /// For nested-key mappings: the key attribute.
  let keyRule: KeyRule<Object>?
  /// Neither dynamic nor nested-key: the hot path tests this instead of the optionals above
  /// (testing a generic optional looks up its metadata per object).
  var isPlain: Bool { _isPlain }
  private let _isPlain: Bool
  /// Plain, and its objects are class instances with an identity (``Mapping/identified(by:)``):
  /// a run keeps one instance per id (``CallInstances/instances``), so the same id twice in a
  /// payload is one object.
  private let mapsInstances: Bool
  /// Plain, without ``mapsInstances``: a new object is made and mapped in the caller's frame.
  private let decodesInline: Bool
  /// Mistakes in the definition, reported when the mapping is used.
  let problems: [String]
  /// The steps of `rules`, one per rule in rule order (``steps`` groups the alternatives).
  let ruleSteps: [DecodeStep<Object>]
  /// With ``Mapping/rejectingUnknownKeys()``: the first keys the rules read.
  let knownKeys: [KnownKey]?
  /// With ``Mapping/rejectingUnknownKeys()``: the empty-source children's keys, for a call's
  /// key convention.
  let flatKnownKeys: [FlatKnownKeys]
  /// How objects are told apart when mapping onto existing instances.
  let identity: Identity<Object>?
  /// The position in ``rules`` of the first rule writing the identity property, which reads a
  /// payload element's identity; `nil` without an identity or when no rule writes it.
  let identityRule: Int?
  /// The steps of the rules that read payload keys (not ``SourcePath/root`` or another
  /// special source), in rule order: an object none of whose keys they read is an unmappable
  /// representation. Empty for a mapping whose rules read no key, which maps any object.
  let keyReadingSteps: [DecodeStep<Object>]
  /// For a mapping with default keys (rules declared without a key, no convention of its own):
  /// the plans it derives for the conventions calls declare (``MappingOptions/keys``).
  let keyVariants: KeyVariants<_MappingPlan<Object>>?
  /// ``keyVariants`` is set: tested on the hot path instead of the optional.
  let hasKeyVariants: Bool
  /// For a plan derived for a call's key convention: the identity of the plan it was derived
  /// from.
  private let derivedFrom: ObjectIdentifier?
  /// The mapping's own key convention, in effect for its child mappings that declare none.
  let ownConvention: KeyConvention?
  /// ``ownConvention`` is set: tested on the hot path instead of the optional.
  let hasOwnConvention: Bool

  /// The identity the settings precedence knows this plan by (``MappingRun/rootPlan``,
  /// ``MappingRun/enterSettings(of:)``): a plan derived for a key convention is the mapping it
  /// was derived from.
  var settingsID: ObjectIdentifier { derivedFrom ?? ObjectIdentifier(self) }

  init(
    make: @escaping @Sendable () -> Object, rules: [any DecodingRule<Object>],
    settings: MappingOptions = .none, inverse: InverseMapping<Object>,
    keyRule: KeyRule<Object>? = nil, identity: Identity<Object>? = nil,
    problems: [String] = [], knownKeys: [KnownKey]? = nil,
    flatKnownKeys: [FlatKnownKeys] = [],
    keyVariants: KeyVariants<_MappingPlan<Object>>? = nil, derivedFrom: ObjectIdentifier? = nil,
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
    unretainedSteps = UnretainedSteps(steps)
    self.knownKeys = knownKeys
    self.flatKnownKeys = flatKnownKeys
    readsOnlySpecialSources = rules.allSatisfy { $0.source.isSpecial }
    self.inverse = inverse
    dynamic = nil
    self.keyRule = keyRule
    _isPlain = keyRule == nil
    self.identity = identity
    let identityRule = identity.flatMap { identity in
      rules.firstIndex { $0.propertyKeyPath == identity.property }
    }
    self.identityRule = identityRule
    mapsInstances = keyRule == nil && identityRule != nil && Object.self is AnyObject.Type
    decodesInline = _isPlain && !mapsInstances
    self.problems = problems
  }

  init(
    dynamic: DynamicDispatch<Object>, inverse: InverseMapping<Object>, problems: [String] = [],
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
    unretainedSteps = UnretainedSteps([])
    ruleSteps = []
    knownKeys = nil
    flatKnownKeys = []
    readsOnlySpecialSources = true
    self.inverse = inverse
    self.dynamic = dynamic
    keyRule = nil
    _isPlain = false
    mapsInstances = false
    decodesInline = false
    identity = nil
    identityRule = nil
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
    unretainedSteps = UnretainedSteps([])
    readsOnlySpecialSources = true
    inverse = InverseMapping(encodings: [], nulls: .omit, dateFormat: .iso8601)
    dynamic = nil
    keyRule = nil
    _isPlain = true
    mapsInstances = false
    decodesInline = true
    identity = nil
    identityRule = nil
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
    _ rules: [any DecodingRule<Object>]
  ) -> (steps: [DecodeStep<Object>], ruleSteps: [DecodeStep<Object>]) {
    var positions: [AnyKeyPath: [Int]] = [:]
    for (offset, rule) in rules.enumerated() {
      positions[rule.propertyKeyPath, default: []].append(offset)
    }
    var groups: [[Int]] = []
    for (offset, rule) in rules.enumerated() {
      let group = positions[rule.propertyKeyPath] ?? [offset]
      if group.first == offset { groups.append(group) }
    }
    var earlierKeys: Set<[UInt8]> = []
    var ruleSteps: [DecodeStep<Object>?] = Array(repeating: nil, count: rules.count)
    var steps: [DecodeStep<Object>] = []
    for group in phaseOrder(groups, of: rules) {
      let compiled = group.map { position -> DecodeStep<Object> in
        let source = rules[position].source
        let firstKey = source.isSpecial ? nil : source.utf8Keys.first
        let mayRepeat = firstKey.map { !earlierKeys.insert($0).inserted } ?? false
        var step = rules[position].decodeStep(mayRepeat: mayRepeat)
        if let groups = (rules[position] as? any GroupedRule)?.groupNames, !groups.isEmpty {
          step = DecodeStep(GroupedStep(step, groups: groups))
        }
        ruleSteps[position] = step
        return step
      }
      steps.append(compiled.count == 1 ? compiled[0] : DecodeStep(AlternativesStep(compiled)))
    }
    return (steps, ruleSteps.compactMap { $0 })
  }

  /// The groups of rules (a rule, or the rules writing one property) in the order their steps
  /// run: as declared, except that an attribute whose source is a key path (`"nested.city"`,
  /// `"@parent.id"`) declared before a relationship runs after the last relationship.
  ///
  /// This is RestKit's order (R-1.3.1: simple attributes, relationships, then key-path
  /// attributes), kept so that a key-path attribute can write into the object a relationship
  /// has just made or replaced: `"nested.city"` into `\.address.city` wins over the city of the
  /// `address` relationship, wherever the two are declared. Simple attributes keep their place,
  /// which decides nothing unless two rules write overlapping properties, and keeps the steps
  /// in the order of typical payloads (lookups start where the previous key was found). A group
  /// of alternatives keeps its place and its order (the later rule wins).
  static func phaseOrder(_ groups: [[Int]], of rules: [any DecodingRule<Object>]) -> [[Int]] {
    func mapsChild(_ group: [Int]) -> Bool { group.contains { rules[$0].mapsChildObject } }
    guard let lastRelationship = groups.lastIndex(where: mapsChild) else { return groups }
    let isKeyPathAttribute = { (group: [Int]) in
      group.allSatisfy { !rules[$0].mapsChildObject && rules[$0].source.isKeyPath }
    }
    let leading = groups[...lastRelationship]
    guard leading.contains(where: isKeyPathAttribute) else { return groups }
    return leading.filter { !isKeyPathAttribute($0) } + leading.filter(isKeyPathAttribute)
      + groups[(lastRelationship + 1)...]
  }

  /// Maps the object at `index` into a fresh instance; `nil` (with errors in `run`) when the
  /// object fails.
  ///
  /// A dynamic mapping may decline the object: in collections (`declineIsAcceptable`) that skips
  /// it with a diagnostic, elsewhere it is an error.
  func decodeNew(at index: Int, run: inout MappingRun, declineIsAcceptable: Bool = true) -> Object?
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
  private func decodeNewStatic(at index: Int, run: inout MappingRun) -> Object? {
    if let keyRule { return decodeSingleKeyed(at: index, keyRule: keyRule, run: &run) }
    if mapsInstances { return decodeInstance(at: index, run: &run) }
    guard let make, acceptsValue(at: index, run: &run) else { return nil }
    var object = make()
    return decode(into: &object, at: index, run: &run) ? object : nil
  }

  /// Maps the object at `index` into a fresh instance and passes it to `accept`; records the
  /// errors in `run` instead when the object fails.
  @inline(__always)
  func decodeNew(
    at index: Int, run: inout MappingRun, declineIsAcceptable: Bool = true,
    accept: (consuming Object) -> Void
  ) {
    guard decodesInline else {
      if mapsInstances {
        return decodeInstance(at: index, keepsFailed: false, run: &run, accept: accept)
      }
      return decodeDispatched(
        at: index, run: &run, declineIsAcceptable: declineIsAcceptable, accept: accept)
    }
    guard let make, acceptsValue(at: index, run: &run) else { return }
    var object = make()
    if decode(into: &object, at: index, run: &run) { accept(consume object) }
  }

  /// ``decodeNew(at:run:declineIsAcceptable:accept:)`` for a relationship's child: a plain
  /// child that failed is passed to `accept` too, filled as far as it mapped, unless the
  /// relationship drops failed children (``MappingRun/dropsFailedChildren``). Its errors are
  /// in `run`, so the parent fails; a report's partial object keeps the partial child, as
  /// AppCoreKit returned the object with what it could fill.
  @inline(__always)
  func decodeChild(
    at index: Int, run: inout MappingRun, declineIsAcceptable: Bool = true,
    accept: (consuming Object) -> Void
  ) {
    guard decodesInline else {
      if mapsInstances {
        return decodeInstance(
          at: index, keepsFailed: !run.dropsFailedChildren, run: &run, accept: accept)
      }
      return decodeDispatched(
        at: index, run: &run, declineIsAcceptable: declineIsAcceptable, accept: accept)
    }
    guard let make, acceptsValue(at: index, run: &run) else { return }
    var object = make()
    if decode(into: &object, at: index, run: &run) || !run.dropsFailedChildren {
      accept(consume object)
    }
  }

  /// A new object of a mapping with ``mapsInstances``, passed to `accept`: the run's instance
  /// for the payload's id when there is one, with the payload's present keys mapped onto it (as
  /// `map(_:onto:)` maps them: absent keys keep their values, relationships merge by identity),
  /// else a new instance, which the run keeps for its id once it mapped without error. A payload
  /// without a usable id (absent, `null`, not convertible) is always a new instance, kept for no
  /// id.
  ///
  /// The instance is kept once it is complete, so an object nested in itself (`{"id": 1,
  /// "parent": {"id": 1}}`) is two instances (one could not hold itself before it is made); the
  /// outer one, kept last, is the instance later occurrences map onto. Inside
  /// ``MappingRun/mergeDepthLimit`` merges an occurrence is not merged: it is a new instance,
  /// which the run keeps for its id from then on, as its parent now holds it instead of the
  /// earlier one (see ``MappingRun/mergeDepth``).
  ///
  /// Out of line, with the lookup and the merge out of line too: recursion through a new object
  /// repeats this frame per level of nesting, so it stays as small as the plain path's.
  ///
  /// - Parameter keepsFailed: Whether an object that failed is passed to `accept`, filled as far
  ///   as it mapped (a relationship's child that fails its parent); it is never kept for its
  ///   id, and an instance the run keeps is left as it was.
  @inline(never)
  private func decodeInstance(
    at index: Int, keepsFailed: Bool, run: inout MappingRun, accept: (consuming Object) -> Void
  ) {
    guard let make, acceptsValue(at: index, run: &run) else { return }
    // Whether to keep the new object for its id: only a payload with an id is kept (not one
    // whose object has the identity property's default). A flag, not the id: this frame is
    // repeated by every level of a recursion, and the object holds the id once it is mapped.
    var keepsObject = true
    if run.mergeDepth < MappingRun.mergeDepthLimit {
      switch mergeKnownInstance(at: index, keepsFailed: keepsFailed, run: &run, accept: accept) {
      case .merged: return
      case .unknown(let hasID): keepsObject = hasID
      }
    }
    var object = make()
    guard decode(into: &object, at: index, run: &run) else {
      if keepsFailed { accept(consume object) }
      return
    }
    if keepsObject { keep(object, run: &run) }
    accept(consume object)
  }

  /// ``decodeInstance(at:keepsFailed:run:accept:)`` returning the object (`nil` when it failed),
  /// for ``decodeNewStatic(at:run:)``; out of line, so that frame, which recursion through a
  /// collection operator repeats, holds no closure.
  @inline(never)
  private func decodeInstance(at index: Int, run: inout MappingRun) -> Object? {
    var made: Object?
    decodeInstance(at: index, keepsFailed: false, run: &run) { made = $0 }
    return made
  }

  /// Maps the object at `index` onto the run's instance for its payload id, if the run holds
  /// one, and passes the instance to `accept`: with the writes applied when the payload mapped
  /// onto it; unchanged, when it failed (the errors in `run`), only if `keepsFailed`.
  /// `.unknown` (nothing done) when the run holds no instance for the payload's id that this
  /// plan maps onto, or the payload has none.
  @inline(never)
  private func mergeKnownInstance(
    at index: Int, keepsFailed: Bool, run: inout MappingRun, accept: (consuming Object) -> Void
  ) -> KnownInstance {
    guard let identity, let id = payloadIdentity(at: index, run: &run) else {
      return .unknown(hasID: false)
    }
    guard
      let object = run.identityMap.instances[InstanceKey(property: identity.property, id: id)]?
        .instance(
          for: ObjectIdentifier(self), modelType: ObjectIdentifier(Object.self)),
      let known = object as? Object
    else { return .unknown(hasID: true) }
    // Inside its own later occurrence (`{"id": 1, "parent": {"id": 1}}` after an earlier
    // `{"id": 1}`): a new instance, not kept, as a first occurrence nested in itself is; the
    // instance holding itself would be a cycle nothing frees.
    let identifier = ObjectIdentifier(object)
    guard !run.mergingInstances.contains(identifier) else { return .unknown(hasID: false) }
    let outerMerge = run.mergesCallInstance
    run.mergesCallInstance = true
    run.identityMap.mergedInstances.insert(identifier)
    run.mergingInstances.append(identifier)
    let merged = collectFields(known, at: index, run: &run)
    run.mergingInstances.removeLast()
    run.mergesCallInstance = outerMerge
    guard let patch = merged else {
      if keepsFailed { accept(known) }
      return .merged
    }
    // Applied when the call ends, unless the element around this one is dropped first
    // (``CallInstances/pendingMerges``).
    run.identityMap.pendingMerges.append {
      var instance = known
      patch.apply(to: &instance)
    }
    accept(known)
    return .merged
  }

  /// Keeps `object`, just made from a payload with an id, as the run's instance for that id
  /// (the one the object now holds; ``CallInstances/instances``).
  @inline(never)
  private func keep(_ object: Object, run: inout MappingRun) {
    guard let identity, let id = identity.value(object) else { return }
    let kept = KeptInstance(object: object as AnyObject, plan: ObjectIdentifier(self))
    let key = InstanceKey(property: identity.property, id: id)
    let previous = run.identityMap.instances[key]
    run.identityMap.keptLog.append((key, previous))
    run.identityMap.instances[key] = previous?.keeping(kept) ?? .one(kept)
  }

  /// ``decodeNew(at:run:declineIsAcceptable:accept:)`` for dynamic and nested-key mappings,
  /// out of line so that the plain path needs no `Optional<Object>` metadata.
  @inline(never)
  private func decodeDispatched(
    at index: Int, run: inout MappingRun, declineIsAcceptable: Bool,
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
  func acceptsValue(at index: Int, run: inout MappingRun) -> Bool {
    guard run.tape[index].kind == .object || readsOnlySpecialSources else {
      recordNotAnObject(at: index, run: &run)
      return false
    }
    return true
  }

  /// The error of ``acceptsValue(at:run:)``, out of line: the check is inlined in every
  /// relationship's path, which recursion repeats per level of nesting.
  @inline(never)
  private func recordNotAnObject(at index: Int, run: inout MappingRun) {
    run.fail(.typeMismatch(expected: "an object", found: run.foundDescription(at: index)))
  }

  /// Runs the steps on the value at `index` (checked with `acceptsValue`), writing into `object`;
  /// `false` when it failed.
  @inline(__always)
  func decode(into object: inout Object, at index: Int, run: inout MappingRun) -> Bool {
    var unused = Patch<Object>()
    return runSteps(on: &object, patch: &unused, ontoExisting: false, at: index, run: &run)
  }

  /// Runs the steps for the object at `index`: the one loop of the engine, for new models
  /// (written in place) and existing instances (`ontoExisting`: `object` is read, the writes go
  /// to `patch`) alike; `false` when it failed.
  func runSteps(
    on object: inout Object, patch: inout Patch<Object>, ontoExisting: Bool, at index: Int,
    run: inout MappingRun
  ) -> Bool {
    guard StackSpace.here() >= run.stackFloor || run.hasStackLeft() else { return false }
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
    on object: inout Object, patch: inout Patch<Object>, ontoExisting: Bool, at index: Int,
    run: inout MappingRun
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
    on object: inout Object, patch: inout Patch<Object>, ontoExisting: Bool, at index: Int,
    run: inout MappingRun
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
  func keyed(in run: borrowing MappingRun) -> _MappingPlan<Object> {
    guard let convention = run.keyConvention else { return self }
    return keyedPlan(for: convention)
  }

  /// The coercion this mapping's objects are mapped with in `run`: its own when it sets one
  /// (unless it is the call's root, where the call's options decided), else the inherited one.
  func coercion(in run: borrowing MappingRun) -> Coercion {
    guard settingsID != run.rootPlan, let own = settings.coercion else {
      return run.context.coercion
    }
    return own
  }
}

extension MappingRun {
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
  func reportUnknownKeys(at index: Int, run: inout MappingRun) {
    guard let knownKeys, run.tape[index].kind == .object else { return }
    // Under a call's key convention, the keys empty-source children read are those of their
    // plans for it.
    var flatKeys: [KnownKey]?
    if run.hasKeyConvention, let convention = run.keyConvention, !flatKnownKeys.isEmpty {
      flatKeys = flatKnownKeys.flatMap { $0.keys(for: convention) }
    }
    var cursor = index + 1
    for _ in 0..<Int(run.tape[index].length) {
      func matches(_ key: KnownKey) -> Bool {
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
struct KnownKey: Sendable {
  let bytes: [UInt8]
  let groups: [String]
  /// Read by an empty-source relationship's child: under a call's key convention that child's
  /// keys are its plan's for the convention (``FlatKnownKeys``), not this one.
  var ofFlatChild = false
}

/// The keys an empty-source relationship's child reads, for ``Mapping/rejectingUnknownKeys()``
/// under a call's key convention.
struct FlatKnownKeys: Sendable {
  let sources: @Sendable (KeyConvention) -> [SourcePath]
  let groups: [String]

  func keys(for convention: KeyConvention) -> [KnownKey] {
    sources(convention).compactMap(\.utf8Keys.first).map { KnownKey(bytes: $0, groups: groups) }
  }
}

/// A rule that reads its child from its parent's own fields (an empty-source relationship).
protocol FlatChildSourcing {
  /// The child's payload sources for a call's key convention; `nil` for any other rule.
  var keyedFlatSources: (@Sendable (KeyConvention) -> [SourcePath])? { get }
}

extension Relationship: FlatChildSourcing {
  var keyedFlatSources: (@Sendable (KeyConvention) -> [SourcePath])? {
    guard source == .root, let flatChild else { return nil }
    return flatChild.keyedSources
  }
}

extension _MappingPlan {
  /// The payload paths the rules read (the parts of compound sources; no special sources): an
  /// empty-source relationship's child is present when one of them is.
  var payloadSources: [SourcePath] {
    // A dynamic plan (a `DynamicMapping`, a mapping derived from `Codable`) reads the keys its
    // chosen case reads: its child is present whenever the object is.
    if dynamic != nil { return [.root] }
    return rules.flatMap { rule -> [SourcePath] in
      if case .compound(let parts) = rule.source.storage { return parts }
      return rule.source.isSpecial ? [] : [rule.source]
    }
  }
}

/// What ``_MappingPlan/mergeKnownInstance(at:keepsFailed:run:accept:)`` did: mapped the
/// payload onto the run's instance for its id (and passed it on), or found none, with whether
/// the new instance is to be kept for its id (`false`: the payload has none, or its id is that
/// of an instance being merged).
enum KnownInstance {
  case merged
  case unknown(hasID: Bool)
}
