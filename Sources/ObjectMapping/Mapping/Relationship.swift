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
/// 412 KB at 512 levels). Serializing nested sets takes 1 KB per level (each element is built
/// as a ``Node`` to be sorted), so sets nested more than about 240 deep need a larger stack.
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
  public internal(set) var source: SourcePath
  let propertyKeyPath: AnyKeyPath & Sendable
  /// Makes the step of the relationship's kind (to-one, optional to-one, to-many, dictionary)
  /// for this rule as configured.
  let makeStep: @Sendable (Relationship<Object>, _CompiledSource) -> _RelationshipStep<Object>
  let acceptsAbsence: Bool
  let encode: _RelationshipEncoder<Object>
  var presence: _Presence = .inferred
  var nullPolicy: NullPolicy?
  var isDecodeOnly = false
  var collectionPolicy: CollectionPolicy = .replace
  /// ``policy(_:)`` was called: the run's ``MappingOptions/childMerging`` does not apply.
  var policyIsExplicit = false
  var childFailure: ChildFailurePolicy = .failParent
  var validators: [_Validator<Any>] = []
  /// Reads and writes the property without knowing its type (for validation).
  let accessor: _AnyAccessor<Object>
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
  /// child, or the whole collection — `Value` is the property's type. Same outcomes as
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
    copy.validators.append(
      _Validator(message: message) { value in
        guard var typed = value as? Value else {
          throw _ValidationFailure(
            message: "the validator takes a \(Value.self), the property holds a \(type(of: value))")
        }
        defer { value = typed }
        return try body(&typed)
      })
    return copy
  }
  /// For to-one relationships: the child mapping's sources and rules, for an empty source
  /// (``SourcePath/root``) that builds the child from the parent's flat fields.
  var flatChild: _FlatChild<Object>?
  var groupNames: [String] = []
  /// Why the property's key path must not be used (a force unwrap or an array subscript that
  /// could trap), or `nil`; see ``_KeyPathCheck``.
  let keyPathProblem: String?
  /// For an override of a derived mapping: reads this relationship's value without a model
  /// (`Derived/DerivedOverride.swift`); `nil` for a rule that cannot override.
  var derivedReader: (@Sendable (Relationship<Object>) -> _SlotEvaluator)?

  /// What the relationship maps: one child, a collection, or a dictionary of children.
  var shape: _RelationshipShape = .toMany
  /// For a relationship declared without a key: the property's name (``KeyConvention``).
  var derivedKey: _DerivedKey?
  /// Whether the key is the default one made from ``derivedKey`` (no mapping convention applied
  /// yet): a call's convention then makes it (``MappingOptions/keys``).
  var keyIsDefault = false

  /// A collection policy the relationship's shape cannot honour (any but
  /// ``CollectionPolicy/replace`` on a to-one or dictionary relationship).
  var definitionProblem: String? {
    if let problem = derivedKey?.problem { return problem }
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
  func mergesInPlace(in run: borrowing _MappingRun) -> Bool {
    collectionPolicy == .merge || (!policyIsExplicit && run.context.childMerging == .inPlace)
  }

  /// The same relationship treating a failed child with `policy` (default
  /// ``ChildFailurePolicy/failParent``). With ``ChildFailurePolicy/dropChild`` a failed element
  /// of a to-many relationship is skipped, and a failed to-one child is not set (the property
  /// keeps its value), each reported as a diagnostic.
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
    return source.isSpecial ? [] : [source]
  }

  /// An empty-source to-one relationship reads its child's keys in the parent object.
  var readsPayloadKeys: Bool {
    (source == .root && flatChild != nil) || !source.isSpecial
  }

  func decodeStep(mayRepeat: Bool) -> _DecodeStep<Object> {
    if let keyPathProblem { return _DecodeStep(_InvalidRuleStep(keyPathProblem)) }
    if source == .root, let flatChild {
      let step = _DecodeStep(makeStep(self, _CompiledSource(source, mayRepeat: false)))
      return _DecodeStep(
        _SpecialSourceStep(
          step, reading: .flatChild(flatChild.sources(), keyed: flatChild.keyedSources)))
    }
    guard let special = _SpecialSource(source) else {
      return _DecodeStep(makeStep(self, _CompiledSource(source, mayRepeat: mayRepeat)))
    }
    var inner = self
    inner.source = .root
    return _DecodeStep(
      _SpecialSourceStep(
        _DecodeStep(makeStep(inner, _CompiledSource(.root, mayRepeat: false))), reading: special))
  }
}

/// A ``Relationship`` compiled for decoding: what every kind of relationship shares (finding
/// the value, the error path, validation, dropped children). Its ``kind`` maps the value itself
/// (``_ToOneStep``, ``_OptionalToOneStep``, ``_ToManyStep``, ``_ShapeStep`` for dictionaries and
/// nested arrays), into a new model or onto an existing instance's current value.
///
/// Recursive models run `decode` once per level of nesting, so its common path (a new model, no
/// validation, failed children fail the parent) keeps a small frame: everything else is out of
/// line.
final class _RelationshipStep<Object>: _DecodeStepKind {
  let rule: Relationship<Object>
  /// How this kind of relationship maps the value.
  let kind: any _RelationshipKind<Object>
  let source: _CompiledSource
  /// An absent value is an error.
  let absenceIsError: Bool
  /// Whether the value set goes through validators (the rule's or the model's), when the run's
  /// context validates.
  let hasValidators: Bool
  /// Validation or ``ChildFailurePolicy/dropChild``: the out-of-line path.
  let needsChecks: Bool
  /// A to-many relationship whose path has more than one key: a path that crosses an array
  /// fans out (``_CompiledSource/fanOut(in:from:)``).
  let fansOut: Bool
  /// `null` is treated as absent (``_AbsenceTreatment/nullIsAbsent``).
  let nullIsAbsent: Bool
  /// Onto an existing instance, a required absent value is an error
  /// (``_AbsenceTreatment/appliesOntoExisting``).
  let absenceAppliesOntoExisting: Bool

  init(_ rule: Relationship<Object>, source: _CompiledSource, kind: any _RelationshipKind<Object>) {
    self.rule = rule
    self.kind = kind
    self.source = source
    absenceIsError =
      rule.presence == .required || (rule.presence == .inferred && !rule.acceptsAbsence)
    hasValidators = !rule.validators.isEmpty || Object.self is any KeyValueValidating.Type
    needsChecks = hasValidators || rule.childFailure == .dropChild
    fansOut = rule.shape == .toMany && !source.rest.isEmpty
    nullIsAbsent = rule.absence.nullIsAbsent
    absenceAppliesOntoExisting = rule.absence.appliesOntoExisting
  }

  /// Maps the value at `index` through ``kind``.
  @inline(__always)
  private func decodeValue(into object: inout Object, at index: Int, run: inout _MappingRun) {
    kind.decodeValue(into: &object, at: index, run: &run)
  }

  /// Merges the value at `index` through ``kind``.
  @inline(__always)
  private func mergeValue(onto object: Object, at index: Int, run: inout _MappingRun)
    -> _ExistingWrite<Object>?
  {
    kind.mergeValue(onto: object, at: index, run: &run)
  }

  func sourceIsPresent(objectIndex: Int, run: inout _MappingRun) -> Bool {
    var hint = _MemberHint(object: max(objectIndex, 0))
    if let index = source.resolve(in: run.tape, from: objectIndex, hint: &hint) {
      return !nullIsAbsent || run.tape[index].kind != .null
    }
    return fansOut && source.fanOut(in: run.tape, from: objectIndex) != nil
  }

  var absenceAppliesOntoExistingInstances: Bool { absenceAppliesOntoExisting }

  func decode(
    _ object: inout Object, _ patch: inout _Patch<Object>, objectIndex: Int,
    hint: inout _MemberHint,
    run: inout _MappingRun
  ) {
    guard let index = source.resolve(in: run.tape, from: objectIndex, hint: &hint),
      !nullIsAbsent || run.tape[index].kind != .null
    else {
      if fansOut || run.ontoExisting || absenceIsError {
        decodeAbsent(&object, &patch, objectIndex: objectIndex, run: &run)
      }
      return
    }
    guard !run.ontoExisting, !needsChecks else {
      return decodeChecked(&object, &patch, objectIndex: objectIndex, index: index, run: &run)
    }
    let depth = run.path.count
    run.path.push(source.pathComponents)
    let outerDrops = run.dropsFailedChildren
    run.dropsFailedChildren = false
    let outerParent = run.parentIndex
    let outerHidden = run.indexHiddenAtDepth
    run.parentIndex = objectIndex
    if source.first == nil { run.indexHiddenAtDepth = run.path.count }
    decodeValue(into: &object, at: index, run: &run)
    run.parentIndex = outerParent
    run.indexHiddenAtDepth = outerHidden
    run.dropsFailedChildren = outerDrops
    run.path.truncate(to: depth)
  }

  /// The value is absent: a path across an array fans out; onto an existing instance the
  /// property is left as it is (or set to `nil` under
  /// ``MissingKeyPolicy/assignNilToRelationships``); a required value is an error. Out of line,
  /// so that the frame of `decode`, which recursion repeats per level, stays small.
  @inline(never)
  private func decodeAbsent(
    _ object: inout Object, _ patch: inout _Patch<Object>, objectIndex: Int,
    run: inout _MappingRun
  ) {
    if fansOut,
      decodeFannedOut(from: source, &object, &patch, objectIndex: objectIndex, run: &run)
    {
      return
    }
    if run.ontoExisting, !absenceAppliesOntoExisting {
      guard let clear = rule.clear, run.context.missingKeys.contains(.assignNilToRelationships)
      else { return }
      // Unchanged values are not written: a relationship that is `nil` stays untouched.
      if let isNil = rule.isNil, isNil(object) { return }
      patch.append({ clear(&$0) }, preview: { clear(&$0) })
    } else if absenceIsError {
      run.fail(.missingRequiredKey, at: source.pathComponents)
    }
  }

  /// ``decode(_:objectIndex:hint:run:)`` with validation or dropped children, or onto an
  /// existing instance.
  @inline(never)
  private func decodeChecked(
    _ object: inout Object, _ patch: inout _Patch<Object>, objectIndex: Int, index: Int,
    run: inout _MappingRun
  ) {
    let depth = run.path.count
    run.path.push(source.pathComponents)
    let outerDrops = run.dropsFailedChildren
    run.dropsFailedChildren = rule.childFailure == .dropChild
    let outerParent = run.parentIndex
    let outerHidden = run.indexHiddenAtDepth
    run.parentIndex = objectIndex
    if source.first == nil { run.indexHiddenAtDepth = run.path.count }
    defer {
      run.parentIndex = outerParent
      run.indexHiddenAtDepth = outerHidden
      run.dropsFailedChildren = outerDrops
      run.path.truncate(to: depth)
    }
    let errorsBefore = run.errors.count
    let validates = hasValidators && run.context.validates
    guard !run.ontoExisting else {
      return merge(onto: object, &patch, at: index, validates: validates, run: &run)
    }
    let previous = validates ? rule.accessor.get(object) : nil
    decodeValue(into: &object, at: index, run: &run)
    if run.errors.count > errorsBefore {
      // A failed child: dropped with a diagnostic, or failing the parent (the default).
      if rule.childFailure == .dropChild { run.dropErrors(since: errorsBefore) }
    } else if let previous {
      let outcome = _validate(
        rule.accessor.get(object), validators: rule.validators, object: object,
        keyPath: rule.propertyKeyPath)
      if case .accept(let accepted) = outcome {
        rule.accessor.set(&object, accepted)
      } else {
        rule.accessor.set(&object, previous)
        run.record(outcome, at: [])
      }
    }
  }

  /// Onto an existing instance: records the write ``mergeValue(onto:at:run:)`` computes, after
  /// validating the value it will set.
  private func merge(
    onto object: Object, _ patch: inout _Patch<Object>, at index: Int, validates: Bool,
    run: inout _MappingRun
  ) {
    let errorsBefore = run.errors.count
    guard let pending = mergeValue(onto: object, at: index, run: &run) else {
      if rule.childFailure == .dropChild, run.errors.count > errorsBefore {
        run.dropErrors(since: errorsBefore)
      }
      return
    }
    let set = rule.accessor.set
    guard validates else {
      patch.append(pending.write, preview: { set(&$0, pending.preview()) })
      return
    }
    let outcome = _validate(
      pending.preview(), validators: rule.validators, object: object,
      keyPath: rule.propertyKeyPath)
    guard case .accept(let accepted) = outcome else {
      // Rejected (the property keeps its value) or failed (the parent fails).
      run.record(outcome, at: [])
      return
    }
    let commitMerges = pending.commitMerges
    patch.append(
      { object in
        commitMerges()
        set(&object, accepted)
      },
      preview: { set(&$0, accepted) })
  }
}

/// How one kind of relationship maps its value (``_RelationshipStep/kind``): a final class,
/// immutable after `init`, whose `Sendable` conformance the compiler checks. Each holds the
/// rule, the property's writer and the child mapping (resolved when first used, for recursion).
protocol _RelationshipKind<Object>: AnyObject, Sendable {
  associatedtype Object

  /// Maps the value at `index` (present, maybe `null`) and sets it in the new model `object`;
  /// records the errors in `run` instead when it fails.
  func decodeValue(into object: inout Object, at index: Int, run: inout _MappingRun)

  /// What mapping the value at `index` onto the current value of the property in `object` (an
  /// existing instance) will write, merging into its existing children by identity with the
  /// collection policy; `nil` (with errors in `run`) when it fails.
  func mergeValue(onto object: Object, at index: Int, run: inout _MappingRun)
    -> _ExistingWrite<Object>?
}

extension _RelationshipKind {
  func mergeValue(onto object: Object, at index: Int, run: inout _MappingRun)
    -> _ExistingWrite<Object>?
  { nil }
}

/// A to-one relationship into a non-optional property: `null` is an error.
final class _ToOneStep<Object, Child, M: MappingProtocol<Child>>: _RelationshipKind {
  let rule: Relationship<Object>
  let writer: _PropertyWriter<Object, Child>
  let mapping: @Sendable () -> M

  init(
    _ rule: Relationship<Object>, property: WritableKeyPath<Object, Child>,
    mapping: @escaping @Sendable () -> M
  ) {
    self.rule = rule
    writer = _PropertyWriter(property)
    self.mapping = mapping
  }

  func decodeValue(into object: inout Object, at index: Int, run: inout _MappingRun) {
    guard run.tape[index].kind != .null else { return _recordNullObject(run: &run) }
    _childPlan(mapping).decodeChild(at: index, run: &run, declineIsAcceptable: false) { child in
      writer.write(child, into: &object)
    }
  }

  func mergeValue(onto object: Object, at index: Int, run: inout _MappingRun)
    -> _ExistingWrite<Object>?
  {
    guard run.tape[index].kind != .null else {
      _recordNullObject(run: &run)
      return nil
    }
    let current = writer.value(in: object)
    let plan = mapping()._plan
    let merged =
      rule.mergesInPlace(in: run)
      ? plan.pendingMerge(current, at: index, run: &run)
      : plan.mergeOne(current, at: index, run: &run)
    guard let child = merged else { return nil }
    let writer = writer
    return _ExistingWrite(
      write: { writer.write(child.materialize(), into: &$0) }, preview: { child.preview },
      commitMerges: child.commitMerges)
  }
}

/// A to-one relationship into an optional property: `null` clears it.
final class _OptionalToOneStep<Object, Child, M: MappingProtocol<Child>>: _RelationshipKind {
  let rule: Relationship<Object>
  let writer: _PropertyWriter<Object, Child?>
  let mapping: @Sendable () -> M

  init(
    _ rule: Relationship<Object>, property: WritableKeyPath<Object, Child?>,
    mapping: @escaping @Sendable () -> M
  ) {
    self.rule = rule
    writer = _PropertyWriter(property)
    self.mapping = mapping
  }

  func decodeValue(into object: inout Object, at index: Int, run: inout _MappingRun) {
    guard run.tape[index].kind != .null else {
      writer.write(nil, into: &object)
      return
    }
    _childPlan(mapping).decodeChild(at: index, run: &run) { child in
      writer.write(child, into: &object)
    }
  }

  func mergeValue(onto object: Object, at index: Int, run: inout _MappingRun)
    -> _ExistingWrite<Object>?
  {
    let writer = writer
    guard run.tape[index].kind != .null else {
      return _ExistingWrite(setting: Child?.none as Any) { writer.write(nil, into: &$0) }
    }
    let plan = mapping()._plan
    let pending: _PendingChild<Child>?
    if let current = writer.value(in: object) {
      pending =
        rule.mergesInPlace(in: run)
        ? plan.pendingMerge(current, at: index, run: &run)
        : plan.mergeOne(current, at: index, run: &run)
    } else {
      pending = plan.decodeNew(at: index, run: &run).map { .fresh($0) }
    }
    guard let pending else { return nil }
    return _ExistingWrite(
      write: { writer.write(pending.materialize(), into: &$0) },
      preview: { Child?.some(pending.preview) as Any }, commitMerges: pending.commitMerges)
  }
}

/// A to-many relationship into an array, a set, or an optional of either.
final class _ToManyStep<
  Object, Collection: MappableCollection, M: MappingProtocol<Collection.Element>
>: _RelationshipKind {
  let rule: Relationship<Object>
  let writer: _PropertyWriter<Object, Collection>
  let mapping: @Sendable () -> M

  init(
    _ rule: Relationship<Object>, property: WritableKeyPath<Object, Collection>,
    mapping: @escaping @Sendable () -> M
  ) {
    self.rule = rule
    writer = _PropertyWriter(property)
    self.mapping = mapping
  }

  /// Appends one child to the children being decoded. This code is not specialized, and
  /// `children.append(_:)` written here would look up `Array<Element>`'s generic metadata for
  /// every child (about 350 instructions, 9% of citm_catalog's decode); the closure made by
  /// ``_appender(for:)`` holds that metadata, looked up once when the step is made.
  private let appendChild = _appender(for: [Collection.Element].self)
  /// An empty array with room for a number of children, made the same way.
  private let reservedChildren = _reserved(for: [Collection.Element].self)
  /// Removes the last child appended (an unmappable one), made the same way.
  private let dropLastChild = _lastRemover(for: [Collection.Element].self)
  /// What `null` sets.
  private let traits = _CollectionTraits<Collection>.of

  func decodeValue(into object: inout Object, at index: Int, run: inout _MappingRun) {
    let entry = run.tape[index]
    let count = Int(entry.length)
    guard entry.kind == .array, count > 0 else {
      if entry.kind == .array {
        // `[]`, common (twitter.json's empty `hashtags`, `urls`): no `Optional` in the way.
        return writer.write(Collection(mappedElements: reservedChildren(0)), into: &object)
      }
      return decodeOtherThanElements(into: &object, at: index, run: &run)
    }
    let plan = _childPlan(mapping)
    let before = run.errors.count
    let dropsFailures = run.dropsFailedChildren
    // Appended to reserved storage rather than built with
    // `Array(unsafeUninitializedCapacity:)`, whose unspecialized frames and closure took
    // about 270 bytes of stack per level of a recursion (instructions on twitter.json: the
    // same within 0.5%).
    var children = reservedChildren(count)
    var cursor = index + 1
    for offset in 0..<count {
      run.path.append(.index(offset))
      let errorsBefore = run.errors.count
      plan.decodeChild(at: cursor, run: &run) { child in appendChild(&children, consume child) }
      if dropsFailures {
        dropIfFailed(&children, at: cursor, errorsBefore: errorsBefore, plan: plan, run: &run)
      }
      run.path.removeLast()
      cursor = run.tape.next(after: cursor)
    }
    // Written also when a child failed (the parent fails then): a report's partial object
    // keeps the children as far as they mapped.
    if run.errors.count == before || !dropsFailures {
      writer.write(Collection(mappedElements: children), into: &object)
    }
  }

  /// Under ``ChildFailurePolicy/dropChild``: drops the child just mapped at `index` when it
  /// failed (its errors become a diagnostic) or mapped without error from none of its keys
  /// (`{}`: an unmappable representation, dropped too). Out of line, off the common path.
  @inline(never)
  private func dropIfFailed(
    _ children: inout [Collection.Element], at index: Int, errorsBefore: Int,
    plan: _MappingPlan<Collection.Element>, run: inout _MappingRun
  ) {
    if run.errors.count > errorsBefore {
      run.dropErrors(since: errorsBefore)
    } else if plan.dropsUnmappable(at: index, run: &run) {
      dropLastChild(&children)
    }
  }

  /// `null` or another kind of value than an array. Out of line: a `Collection?` local in
  /// `decodeValue` had its generic metadata looked up on every call, before any branch.
  @inline(never)
  private func decodeOtherThanElements(
    into object: inout Object, at index: Int, run: inout _MappingRun
  ) {
    let value: Collection? = _decodeToManyOtherThanElements(at: index, mapping, run: &run)
    if let value { writer.write(value, into: &object) }
  }

  func mergeValue(onto object: Object, at index: Int, run: inout _MappingRun)
    -> _ExistingWrite<Object>?
  {
    let writer = writer
    let entry = run.tape[index]
    if entry.kind == .null {
      let current = writer.value(in: object)
      switch rule.collectionPolicy {
      case .union, .append, .prepend:
        // A policy that combines with the existing children has nothing to add: the
        // collection keeps its elements, optional or not (RestKit's union).
        return _ExistingWrite(setting: current) { _ in }
      case .replace, .clearThenAppend, .merge:
        if let null = traits.nullValue {
          let value = null()
          return _ExistingWrite(setting: value) { writer.write(value, into: &$0) }
        }
        // An error, or what the run's NullIntoNonOptional asks for.
        guard let value: Collection = _toManyNull(run: &run) else {
          return run.context.nullIntoNonOptional == .keepCurrent
            ? _ExistingWrite(setting: current) { _ in } : nil
        }
        return _ExistingWrite(setting: value) { writer.write(value, into: &$0) }
      }
    }
    let plan = mapping()._plan
    guard entry.kind == .array || (entry.kind == .object && plan.coercion(in: run) == .lenient)
    else {
      run.fail(.typeMismatch(expected: "an array", found: run.foundDescription(at: index)))
      return nil
    }
    let current = writer.value(in: object).mappedElements
    guard
      let pending = plan.mergeChildren(
        current, at: index, policy: rule.collectionPolicy, onFailure: rule.childFailure,
        run: &run)
    else { return nil }
    return _ExistingWrite(
      write: {
        writer.write(Collection(mappedElements: pending.map { $0.materialize() }), into: &$0)
      },
      preview: { Collection(mappedElements: pending.map(\.preview)) },
      commitMerges: { for child in pending { child.commitMerges() } })
  }
}

/// A closure that appends an element to a collection of type `C`, holding `C`'s metadata (the
/// generic argument of this call) so that calling it looks nothing up; see
/// `_ToManyStep.appendChild`.
/// (It captures nothing but `C`'s metadata, so it is `@Sendable`.)
private func _appender<C: RangeReplaceableCollection & SendableMetatype>(for _: C.Type)
  -> @Sendable (
    inout C, consuming C.Element
  ) -> Void
{
  { collection, element in collection.append(consume element) }
}

/// A closure that removes the last element of a non-empty collection of type `C` (when there is
/// one), holding `C`'s metadata; see ``_appender(for:)``.
private func _lastRemover<
  C: RangeReplaceableCollection & BidirectionalCollection & SendableMetatype
>(
  for _: C.Type
) -> @Sendable (inout C) -> Void {
  { collection in
    if !collection.isEmpty { collection.removeLast() }
  }
}

/// A closure that makes an empty collection of type `C` with room for a number of elements,
/// holding `C`'s metadata; see ``_appender(for:)``.
private func _reserved<C: RangeReplaceableCollection & SendableMetatype>(
  for _: C.Type
) -> @Sendable (Int) -> C {
  { count in
    var collection = C()
    collection.reserveCapacity(count)
    return collection
  }
}

/// Reads and writes one property of a model as `Any`.
struct _AnyAccessor<Object>: Sendable {
  let get: @Sendable (Object) -> Any
  let set: @Sendable (inout Object, Any) -> Void

  init<Value>(_ property: WritableKeyPath<Object, Value> & Sendable) {
    get = { $0[keyPath: property] }
    set = { object, value in
      if let typed = value as? Value { object[keyPath: property] = typed }
    }
  }
}

/// What a relationship maps.
enum _RelationshipShape: Sendable {
  case toOne
  case toMany
  case dictionary
  /// Collections nested in collections (`[[Child]]`), replaced as a whole.
  case nested
}

extension Relationship {
  init<Value>(
    source: SourcePath, property: WritableKeyPath<Object, Value> & Sendable, acceptsAbsence: Bool,
    encode: _RelationshipEncoder<Object>,
    step: @escaping @Sendable (Relationship<Object>, _CompiledSource) -> _RelationshipStep<Object>
  ) {
    self.source = source
    self.propertyKeyPath = property
    self.acceptsAbsence = acceptsAbsence
    self.encode = encode
    self.makeStep = step
    accessor = _AnyAccessor(property)
    if let optional = _OptionalTraits<Value>.ofValue {
      clear = { $0[keyPath: property] = optional.none() }
      isNil = { optional.isNone($0[keyPath: property]) }
    } else {
      clear = nil
      isNil = nil
    }
    keyPathProblem = _KeyPathCheck.problem(property, rule: "Relationship \"\(source)\"")
  }

  /// A required to-one relationship.
  public init<Child>(
    _ source: some SourcePathConvertible, _ property: WritableKeyPath<Object, Child> & Sendable,
    _ mapping: some MappingProtocol<Child>
  ) {
    let resolved = _ResolvedMapping(mapping)
    self.init(source, property, lazy: { resolved })
  }

  /// A required to-one relationship whose mapping is resolved when first used (recursion).
  public init<Child, M: MappingProtocol<Child>>(
    _ source: some SourcePathConvertible, _ property: WritableKeyPath<Object, Child> & Sendable,
    lazy mapping: @escaping @Sendable () -> M
  ) {
    self.init(
      source: source.sourcePath, property: property, acceptsAbsence: false,
      encode: _RelationshipEncoder {
        _ToOneEncodeStep(property, mapping: mapping, components: $0, ownsNulls: $1)
      },
      step: {
        _RelationshipStep(
          $0, source: $1, kind: _ToOneStep($0, property: property, mapping: mapping))
      })
    flatChild = _FlatChild(mapping, property: property)
    shape = .toOne
    derivedReader = { rule in rule.requiredSlotEvaluator(Child.self, lazy: mapping) }
  }

  /// An optional to-one relationship: absent leaves it, `null` clears it.
  public init<Child>(
    _ source: some SourcePathConvertible, _ property: WritableKeyPath<Object, Child?> & Sendable,
    _ mapping: some MappingProtocol<Child>
  ) {
    let resolved = _ResolvedMapping(mapping)
    self.init(source, property, lazy: { resolved })
  }

  /// An optional to-one relationship whose mapping is resolved when first used (recursion).
  public init<Child, M: MappingProtocol<Child>>(
    _ source: some SourcePathConvertible, _ property: WritableKeyPath<Object, Child?> & Sendable,
    lazy mapping: @escaping @Sendable () -> M
  ) {
    self.init(
      source: source.sourcePath, property: property, acceptsAbsence: true,
      encode: _RelationshipEncoder {
        _OptionalToOneEncodeStep(property, mapping: mapping, components: $0, ownsNulls: $1)
      },
      step: {
        _RelationshipStep(
          $0, source: $1, kind: _OptionalToOneStep($0, property: property, mapping: mapping))
      })
    flatChild = _FlatChild(mapping, property: property)
    shape = .toOne
    derivedReader = { rule in rule.slotEvaluator(Child.self, lazy: mapping) }
  }

  /// A to-many relationship into an array, a set, or an optional of either.
  public init<Collection: MappableCollection>(
    _ source: some SourcePathConvertible,
    _ property: WritableKeyPath<Object, Collection> & Sendable,
    _ mapping: some MappingProtocol<Collection.Element>
  ) {
    let resolved = _ResolvedMapping(mapping)
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
      acceptsAbsence: _CollectionTraits<Collection>.of.nullValue != nil,
      encode: _RelationshipEncoder {
        _ToManyEncodeStep(property, mapping: mapping, components: $0, ownsNulls: $1)
      },
      step: {
        _RelationshipStep(
          $0, source: $1, kind: _ToManyStep($0, property: property, mapping: mapping))
      })
    derivedReader = { rule in rule.slotEvaluator(collection: Collection.self, lazy: mapping) }
  }

  /// A dictionary of objects keyed by the payload's keys (`{"ann": {...}, "bob": {...}}`).
  public init<Child>(
    _ source: some SourcePathConvertible,
    _ property: WritableKeyPath<Object, [String: Child]> & Sendable,
    _ mapping: some MappingProtocol<Child>
  ) {
    let resolved = _ResolvedMapping(mapping)
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

/// The objects of a `[String: Child]` relationship at `index`; `nil` when one failed.
func _decodeDictionary<Child>(
  at index: Int, plan: _MappingPlan<Child>, run: inout _MappingRun
) -> [String: Child]? {
  let entry = run.tape[index]
  guard entry.kind == .object else {
    run.fail(.typeMismatch(expected: "an object", found: run.foundDescription(at: index)))
    return nil
  }
  let before = run.errors.count
  var children: [String: Child] = [:]
  children.reserveCapacity(Int(entry.length))
  // Keys already met, mapped or not: a repeated key never replaces its first member, also when
  // that member was declined by a dynamic mapping (JSONReadingOptions.rejectsDuplicateKeys).
  var seen: Set<String> = []
  var cursor = index + 1
  for _ in 0..<Int(entry.length) {
    let key = run.tape.string(at: cursor)
    if !seen.insert(key).inserted {
      // A repeated key: the first member wins.
    } else if let keyRule = plan.keyRule {
      if let child = plan.decodeKeyed(keyIndex: cursor, keyRule: keyRule, run: &run) {
        children[key] = child
      }
    } else {
      run.path.append(.key(key))
      if let child = plan.decodeNew(at: cursor + 1, run: &run) { children[key] = child }
      run.path.removeLast()
    }
    cursor = run.tape.next(after: cursor + 1)
  }
  return run.errors.count == before ? children : nil
}

/// The plan of a relationship's child mapping. Out of line, so that the mapping value (a
/// ``Mapping`` is a large struct) never takes room in the frames of a recursion, which run once
/// per level of nesting.
@inline(never)
func _childPlan<Child, M: MappingProtocol<Child>>(_ mapping: () -> M) -> _MappingPlan<Child> {
  mapping()._plan
}

/// A to-one relationship's `null`, where an object is required: an error, or ignored with a
/// diagnostic under ``NullIntoNonOptional/keepCurrent`` (a child has no zero).
@inline(never)
func _recordNullObject(run: inout _MappingRun) {
  guard run.context.nullIntoNonOptional == .keepCurrent else {
    return run.fail(.typeMismatch(expected: "an object", found: "null"))
  }
  run.note(.nullIgnored(kept: true))
}

/// What a to-many relationship sets for a value that is not a non-empty array: an empty
/// collection, the collection for `null`, a nested-key object's children, a lone object under
/// lenient coercion; `nil` (with an error) for anything else. Out of line, so that the frame of
/// the common path, which recursion repeats per level, stays small.
@inline(never)
private func _decodeToManyOtherThanElements<
  Collection: MappableCollection, M: MappingProtocol<Collection.Element>
>(at index: Int, _ mapping: () -> M, run: inout _MappingRun) -> Collection? {
  switch run.tape[index].kind {
  case .null:
    return _toManyNull(run: &run)
  case .array:
    // Not `Array(unsafeUninitializedCapacity: 0)`, which writes its count into the shared
    // empty-array storage (a benign write ThreadSanitizer reports as a race).
    return Collection(mappedElements: [])
  case .object:
    // A nested-key collection (recursion goes through here: nothing else in this frame), or
    // a lone object.
    let plan = mapping()._plan
    if !plan.isPlain, let keyRule = plan.keyRule {
      let before = run.errors.count
      let children = plan.decodeKeyedCollection(at: index, keyRule: keyRule, run: &run)
      return run.errors.count == before ? Collection(mappedElements: children) : nil
    }
    return _toManyLoneObject(at: index, plan: plan, run: &run)
  default:
    _recordNotAnArray(at: index, run: &run)
    return nil
  }
}

/// What `null` sets in a to-many relationship, or `nil` with an error.
@inline(never)
private func _toManyNull<Collection: MappableCollection>(
  run: inout _MappingRun
) -> Collection? {
  guard let null = _CollectionTraits<Collection>.of.nullValue else {
    switch run.context.nullIntoNonOptional {
    case .fail:
      run.fail(.typeMismatch(expected: "an array", found: "null"))
    case .keepCurrent:
      run.note(.nullIgnored(kept: true))
    case .zero:
      run.note(.nullIgnored(kept: false))
      return Collection(mappedElements: [])
    }
    return nil
  }
  return null()
}

/// A lone object where a to-many relationship expects an array: one element under lenient
/// coercion, an error otherwise.
@inline(never)
private func _toManyLoneObject<Collection: MappableCollection>(
  at index: Int, plan: _MappingPlan<Collection.Element>, run: inout _MappingRun
) -> Collection? {
  guard plan.coercion(in: run) == .lenient else {
    _recordNotAnArray(at: index, run: &run)
    return nil
  }
  return plan.decodeNew(at: index, run: &run).map { Collection(mappedElements: [$0]) }
}

@inline(never)
private func _recordNotAnArray(at index: Int, run: inout _MappingRun) {
  run.fail(.typeMismatch(expected: "an array", found: run.foundDescription(at: index)))
}

/// A mapping's plan on its own: what a relationship with a known mapping hands its decode
/// closure, so that resolving it per child object copies one reference instead of the whole
/// mapping.
struct _ResolvedMapping<Object>: MappingProtocol {
  let plan: MappingPlan<Object>

  init(_ mapping: some MappingProtocol<Object>) {
    plan = mapping.plan
  }
}

/// The serializing side of a relationship: makes the step that writes the child (or children)
/// of an object, given the relationship's source path (for error paths).
struct _RelationshipEncoder<Object>: Sendable {
  /// Makes the step from the relationship's path components and whether it sets its own nil
  /// policy.
  let makeStep: @Sendable ([_PathComponent], Bool) -> _EncodeStep

  init(_ makeStep: @escaping @Sendable ([_PathComponent], Bool) -> _EncodeStep) {
    self.makeStep = makeStep
  }
}

extension _PayloadWriter {
  /// Writes `null` when the policy includes nulls; returns whether it wrote.
  mutating func nullIfIncluded(_ policy: NullPolicy) -> Bool {
    guard policy == .include else { return false }
    null()
    return true
  }
}

extension Relationship: _EncodableRule {
  var encoding: _RuleEncoding<Object> {
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
        _EncodingRule(
          path: source.keys, property: propertyKeyPath, label: label, nulls: nullPolicy,
          step: _InvalidRuleEncodeStep(keyPathProblem, errorPath: source.pathComponents)))
    }
    if source == .root, let flatChild {
      guard flatChild.isDynamic() else { return .rules(flatChild.encodings()) }
      // A dynamic child (a `DynamicMapping`, a mapping derived from `Codable`) writes the
      // object its case chooses: its members go into the parent's object.
      var rule = _EncodingRule<Object>(
        path: [], property: propertyKeyPath, label: label, nulls: nullPolicy,
        step: encode.makeStep([], nullPolicy != nil))
      rule.placement = .selfMembers
      return .rule(rule)
    }
    if source == .root, writesSelfBack, shape == .toMany {
      var rule = _EncodingRule<Object>(
        path: [], property: propertyKeyPath, label: label, nulls: nullPolicy,
        step: encode.makeStep([], nullPolicy != nil))
      rule.placement = .wholeOutput
      return .rule(rule)
    }
    guard !source.isSpecial else {
      return .omitted(InverseOmission(rule: label, reason: "it reads a special source"))
    }
    return .rule(
      _EncodingRule(
        path: source.keys, property: propertyKeyPath, label: label, nulls: nullPolicy,
        step: encode.makeStep(source.pathComponents, nullPolicy != nil)))
  }
}

/// The child mapping of a to-one relationship seen from the parent, for an empty-source
/// relationship (``SourcePath/root``): the child's payload sources (the child is present when
/// one of them is) and its inverse rules lifted to write the child's fields flat into the
/// parent.
struct _FlatChild<Object>: Sendable {
  let sources: @Sendable () -> [SourcePath]
  /// ``sources`` for a call's key convention: the child mapping's plan for it.
  let keyedSources: @Sendable (KeyConvention) -> [SourcePath]
  let encodings: @Sendable () -> [_EncodingRule<Object>]
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
        var flat = _EncodingRule<Object>(
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
        var flat = _EncodingRule<Object>(
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

/// The compiled side of the rule (internal: not part of the public conformance list).
extension Relationship: _DecodingRule {}
