/// A ``Relationship`` compiled for decoding: what every kind of relationship shares (finding
/// the value, the error path, validation, dropped children). Its ``kind`` maps the value itself
/// (``ToOneStep``, ``OptionalToOneStep``, ``ToManyStep``, ``ShapeStep`` for dictionaries and
/// nested arrays), into a new model or onto an existing instance's current value.
///
/// Recursive models run `decode` once per level of nesting, so its common path (a new model, no
/// validation, failed children fail the parent) keeps a small frame: everything else is out of
/// line.
final class RelationshipStep<Object>: DecodeStepKind {
  let rule: Relationship<Object>
  /// How this kind of relationship maps the value.
  let kind: any RelationshipKind<Object>
  let source: CompiledSource
  /// An absent value is an error.
  let absenceIsError: Bool
  /// Whether the value set goes through validators (the rule's or the model's), when the run's
  /// context validates.
  let hasValidators: Bool
  /// Validation or ``ChildFailurePolicy/dropChild``: the out-of-line path.
  let needsChecks: Bool
  /// A to-many relationship whose path has more than one key: a path that crosses an array
  /// fans out (``CompiledSource/fanOut(in:from:)``).
  let fansOut: Bool
  /// `null` is treated as absent (``_AbsenceTreatment/nullIsAbsent``).
  let nullIsAbsent: Bool
  /// Onto an existing instance, a required absent value is an error
  /// (``_AbsenceTreatment/appliesOntoExisting``).
  let absenceAppliesOntoExisting: Bool

  init(_ rule: Relationship<Object>, source: CompiledSource, kind: any RelationshipKind<Object>) {
    self.rule = rule
    self.kind = kind
    self.source = source
    absenceIsError =
      rule.presence == .required || (rule.presence == .inferred && !rule.acceptsAbsence)
    hasValidators = !rule.validators.isEmpty || Object.self is any KeyValueValidating.Type
    needsChecks = hasValidators || rule.childFailure != .failParent
    fansOut = rule.shape == .toMany && !source.rest.isEmpty
    nullIsAbsent = rule.absence.nullIsAbsent
    absenceAppliesOntoExisting = rule.absence.appliesOntoExisting
  }

  /// Maps the value at `index` through ``kind``.
  @inline(__always)
  private func decodeValue(into object: inout Object, at index: Int, run: inout MappingRun) {
    kind.decodeValue(into: &object, at: index, run: &run)
  }

  func sourceIsPresent(objectIndex: Int, run: inout MappingRun) -> Bool {
    var hint = _MemberHint(object: max(objectIndex, 0))
    if let index = source.resolve(in: run.tape, from: objectIndex, hint: &hint) {
      return !nullIsAbsent || run.tape[index].kind != .null
    }
    return fansOut && source.fanOutSlots(in: run.tape, from: objectIndex) != nil
  }

  var absenceAppliesOntoExistingInstances: Bool { absenceAppliesOntoExisting }

  func decode(
    _ object: inout Object, _ patch: inout Patch<Object>, objectIndex: Int,
    hint: inout _MemberHint,
    run: inout MappingRun
  ) {
    guard let index = source.resolve(in: run.tape, from: objectIndex, hint: &hint),
      !nullIsAbsent || run.tape[index].kind != .null
    else {
      if fansOut, decodeAcrossArray(&object, &patch, objectIndex: objectIndex, run: &run) {
        return
      }
      if run.ontoExisting || absenceIsError {
        decodeAbsent(&object, &patch, objectIndex: objectIndex, run: &run)
      }
      return
    }
    guard !run.ontoExisting, !needsChecks else {
      return decodeChecked(&object, &patch, objectIndex: objectIndex, index: index, run: &run)
    }
    let depth = run.path.count
    run.path.push(source.pathComponents)
    let outerDrops = run.replaceDropsFailedChildren(with: false)
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

  /// The path crosses an array (`kids.node` over `"kids": [...]`): the children are what the
  /// rest of the path reaches in each element, mapped where they are when the kind can (a copy
  /// of them would hold every level below in a recursion,
  /// `Relationship("kids.node", …, lazy: …)`), else from a copy; `false` when the path is
  /// absent for another reason. Out of line, so that the frame of `decode`, which recursion
  /// repeats per level, stays small.
  @inline(never)
  private func decodeAcrossArray(
    _ object: inout Object, _ patch: inout Patch<Object>, objectIndex: Int,
    run: inout MappingRun
  ) -> Bool {
    guard mapsElementLists(in: run, withChecks: true),
      let slots = source.fanOutSlots(in: run.tape, from: objectIndex), let entries = slots.entries
    else { return decodeAcrossArrayCopying(&object, &patch, objectIndex: objectIndex, run: &run) }
    let list = ElementList(entries: entries, paths: slots.slotPaths)
    decodeElements(list, into: &object, &patch, objectIndex: objectIndex, run: &run)
    return true
  }

  /// ``decodeAcrossArray(_:_:objectIndex:run:)`` from a copy: onto existing instances, with
  /// checks, or for an array of arrays. Out of line, so that the in-place path's frame stays
  /// small.
  @inline(never)
  private func decodeAcrossArrayCopying(
    _ object: inout Object, _ patch: inout Patch<Object>, objectIndex: Int,
    run: inout MappingRun
  ) -> Bool {
    decodeFannedOut(from: source, &object, &patch, objectIndex: objectIndex, run: &run)
  }

  /// The value is absent: onto an existing instance the property is left as it is (or set to
  /// `nil` under ``MissingKeyPolicy/assignNilToRelationships``); a required value is an error.
  /// Out of line, so that the frame of `decode`, which recursion repeats per level, stays
  /// small.
  @inline(never)
  private func decodeAbsent(
    _ object: inout Object, _ patch: inout Patch<Object>, objectIndex: Int,
    run: inout MappingRun
  ) {
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

  func mapsElementLists(in run: borrowing MappingRun, withChecks: Bool) -> Bool {
    kind.mapsElementLists && (withChecks || (!run.ontoExisting && !needsChecks))
  }

  /// Maps `list` as the children of the object at `objectIndex` (their parent): failed
  /// children fail it, or are dropped under ``ChildFailurePolicy/dropChild``; the value set
  /// goes through the validators. Onto an existing instance they merge into its children, as
  /// ``RelationshipKind/merge(onto:_:at:validates:run:)`` merges an array.
  @inline(never)
  func decodeElements(
    _ list: ElementList, into object: inout Object, _ patch: inout Patch<Object>,
    objectIndex: Int, run: inout MappingRun
  ) {
    let outerDrops = run.replaceDropsFailedChildren(with: rule.childFailure == .dropChild)
    let outerParent = run.parentIndex
    run.parentIndex = objectIndex
    // Across an array the children's paths start at the object; the value's at the rule's
    // path (`/kids/node`), where a rejected value is reported.
    let validationPath = list.paths == nil ? [] : source.pathComponents
    let validates = hasValidators && run.context.validates
    if run.ontoExisting {
      kind.merge(
        onto: object, &patch, list: list, validates: validates, validationPath: validationPath,
        run: &run)
    } else if needsChecks {
      kind.decodeChecked(
        into: &object, validates: validates, validationPath: validationPath, run: &run
      ) { object, run in kind.decodeElements(list, into: &object, run: &run) }
    } else {
      kind.decodeElements(list, into: &object, run: &run)
    }
    run.parentIndex = outerParent
    run.dropsFailedChildren = outerDrops
  }

  /// ``decode(_:objectIndex:hint:run:)`` with validation or dropped children, or onto an
  /// existing instance.
  @inline(never)
  private func decodeChecked(
    _ object: inout Object, _ patch: inout Patch<Object>, objectIndex: Int, index: Int,
    run: inout MappingRun
  ) {
    let depth = run.path.count
    run.path.push(source.pathComponents)
    let outerDrops = run.replaceDropsFailedChildren(with: rule.childFailure == .dropChild)
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
    let validates = hasValidators && run.context.validates
    guard !run.ontoExisting else {
      return kind.merge(onto: object, &patch, at: index, validates: validates, run: &run)
    }
    kind.decodeChecked(into: &object, at: index, validates: validates, run: &run)
  }
}

/// How one kind of relationship maps its value (``RelationshipStep/kind``): a final class,
/// immutable after `init`, whose `Sendable` conformance the compiler checks. Each holds the
/// rule, the property's writer and the child mapping (resolved when first used, for recursion).
protocol RelationshipKind<Object>: AnyObject, Sendable {
  associatedtype Object
  /// The property's type: the child, the optional child, the collection or the dictionary.
  associatedtype Value

  /// The relationship.
  var rule: Relationship<Object> { get }
  /// Reads and writes the property.
  var writer: PropertyWriter<Object, Value> { get }
  /// The rule's validators, typed once when the step is made
  /// (``TypedValidator/typed(as:)``).
  var validators: [Validator<Value>] { get }

  /// Maps the value at `index` (present, maybe `null`) and sets it in the new model `object`;
  /// records the errors in `run` instead when it fails.
  func decodeValue(into object: inout Object, at index: Int, run: inout MappingRun)

  /// What mapping the value at `index` onto the current value of the property in `object` (an
  /// existing instance) will write, merging into its existing children by identity with the
  /// collection policy; `nil` (with errors in `run`) when it fails.
  func mergeValue(onto object: Object, at index: Int, run: inout MappingRun)
    -> PendingValue<Value>?

  /// Whether ``decodeElements(_:into:run:)`` maps a list of entries as the value (a to-many
  /// relationship); `false` unless a kind says otherwise.
  var mapsElementLists: Bool { get }

  /// Maps the entries of `list` as the elements of the value and sets it in the new model
  /// `object` (see ``DecodeStepKind/decodeElements(_:into:_:objectIndex:run:)``).
  func decodeElements(_ list: ElementList, into object: inout Object, run: inout MappingRun)

  /// ``mergeValue(onto:at:run:)`` for the entries of `list`.
  func mergeElements(onto object: Object, list: ElementList, run: inout MappingRun)
    -> PendingValue<Value>?
}

extension RelationshipKind {
  func mergeValue(onto object: Object, at index: Int, run: inout MappingRun)
    -> PendingValue<Value>?
  { nil }

  var mapsElementLists: Bool { false }

  func decodeElements(_ list: ElementList, into object: inout Object, run: inout MappingRun) {}

  func mergeElements(onto object: Object, list: ElementList, run: inout MappingRun)
    -> PendingValue<Value>?
  { nil }

  /// ``decodeValue(into:at:run:)`` with validation or dropped children: a failed child's
  /// errors are dropped under ``ChildFailurePolicy/dropChild``; a value set is validated (also
  /// one kept partially under ``ChildFailurePolicy/keepPartial``), and one rejected is replaced
  /// by the property's previous value.
  func decodeChecked(
    into object: inout Object, at index: Int, validates: Bool, run: inout MappingRun
  ) {
    decodeChecked(into: &object, validates: validates, run: &run) { object, run in
      decodeValue(into: &object, at: index, run: &run)
    }
  }

  /// What the rule's ``ChildFailurePolicy`` does with a child that failed, whose errors were
  /// recorded since `errorsBefore` and whose writes into the call's instances since `mark`: the
  /// errors fail the parent (``ChildFailurePolicy/failParent``), or the child is dropped with a
  /// diagnostic (``ChildFailurePolicy/dropChild``), or its errors become diagnostics
  /// (``ChildFailurePolicy/keepPartial``), its writes kept when `keepsWrites` (a new model's
  /// child, filled as far as it mapped) and forgotten otherwise.
  func settleFailedChild(
    errorsSince errorsBefore: Int, mark: MergeMark, keepsWrites: Bool, run: inout MappingRun
  ) {
    switch rule.childFailure {
    case .failParent: break
    case .dropChild:
      run.dropFailedChild(errorsSince: errorsBefore, mark: mark)
    case .keepPartial:
      run.keepErrorsAsDiagnostics(since: errorsBefore)
      if !keepsWrites { run.rollBackMerges(to: mark) }
    }
  }

  /// ``decodeChecked(into:at:validates:run:)`` for a value `decode` maps; a rejected or failed
  /// value is reported at `validationPath` below the current path.
  func decodeChecked(
    into object: inout Object, validates: Bool, validationPath: [_PathComponent] = [],
    run: inout MappingRun, decode: (inout Object, inout MappingRun) -> Void
  ) {
    let errorsBefore = run.errors.count
    let mark = run.mergeMark
    let previous = validates ? writer.value(in: object) : nil
    decode(&object, &run)
    if run.errors.count > errorsBefore {
      // The child stays under `.keepPartial`, filled as far as it mapped, and is validated as a
      // child that mapped is; a dropped child or a failed parent is not.
      settleFailedChild(errorsSince: errorsBefore, mark: mark, keepsWrites: true, run: &run)
      if let previous, rule.childFailure == .keepPartial, run.errors.count == errorsBefore {
        validateSet(&object, previous: previous, mark: mark, at: validationPath, run: &run)
      }
    } else if let previous {
      validateSet(&object, previous: previous, mark: mark, at: validationPath, run: &run)
    }
  }

  /// Runs the validators on the value just set in `object`: an accepted (maybe changed) value
  /// stays, a rejected one is replaced by `previous` (the writes since `mark` forgotten) and
  /// reported at `validationPath`. Out of line: ``decodeChecked(into:validates:validationPath:run:decode:)``
  /// is on the stack once per level of a recursion, and its frame stays small.
  @inline(never)
  func validateSet(
    _ object: inout Object, previous: Value, mark: MergeMark, at validationPath: [_PathComponent],
    run: inout MappingRun
  ) {
    let outcome = runValidators(
      writer.value(in: object), validators: validators, object: object,
      keyPath: rule.propertyKeyPath)
    if case .accept(let accepted) = outcome {
      writer.write(accepted, into: &object)
    } else {
      writer.write(previous, into: &object)
      run.rollBackMerges(to: mark)
      run.record(outcome, at: validationPath)
    }
  }

  /// Onto an existing instance: records the write ``mergeValue(onto:at:run:)`` computes, after
  /// validating the value it will set.
  func merge(
    onto object: Object, _ patch: inout Patch<Object>, at index: Int, validates: Bool,
    run: inout MappingRun
  ) {
    merge(onto: object, &patch, validates: validates, run: &run) { object, run in
      mergeValue(onto: object, at: index, run: &run)
    }
  }

  /// ``merge(onto:_:at:validates:run:)`` for the entries of `list`.
  func merge(
    onto object: Object, _ patch: inout Patch<Object>, list: ElementList, validates: Bool,
    validationPath: [_PathComponent], run: inout MappingRun
  ) {
    merge(onto: object, &patch, validates: validates, validationPath: validationPath, run: &run) {
      object, run in mergeElements(onto: object, list: list, run: &run)
    }
  }

  /// ``merge(onto:_:at:validates:run:)`` for the write `pendingValue` computes; a rejected or
  /// failed value is reported at `validationPath` below the current path.
  func merge(
    onto object: Object, _ patch: inout Patch<Object>, validates: Bool,
    validationPath: [_PathComponent] = [], run: inout MappingRun,
    pendingValue: (Object, inout MappingRun) -> PendingValue<Value>?
  ) {
    let errorsBefore = run.errors.count
    let mark = run.mergeMark
    guard let pending = pendingValue(object, &run) else {
      if run.errors.count > errorsBefore {
        // Onto an existing instance nothing of a failed child is written: it keeps its values.
        settleFailedChild(errorsSince: errorsBefore, mark: mark, keepsWrites: false, run: &run)
      }
      return
    }
    let writer = writer
    guard validates else {
      guard pending.writesProperty else { return }
      patch.append(
        { writer.write(pending.materialize(), into: &$0) },
        preview: { writer.write(pending.preview(), into: &$0) })
      return
    }
    let outcome = runValidators(
      pending.preview(), validators: validators, object: object, keyPath: rule.propertyKeyPath)
    guard case .accept(let accepted) = outcome else {
      // Rejected (the property keeps its value) or failed (the parent fails).
      run.rollBackMerges(to: mark)
      run.record(outcome, at: validationPath)
      return
    }
    let commitMerges = pending.commitMerges
    patch.append(
      { object in
        commitMerges()
        writer.write(accepted, into: &object)
      },
      preview: { writer.write(accepted, into: &$0) })
  }
}

/// The plan of a relationship's child mapping. Out of line, so that the mapping value (a
/// ``Mapping`` is a large struct) never takes room in the frames of a recursion, which run once
/// per level of nesting.
@inline(never)
func resolvedChildPlan<Child, M: MappingProtocol<Child>>(_ mapping: () -> M) -> _MappingPlan<Child>
{
  mapping()._plan
}

/// A to-one relationship's `null`, where an object is required: an error, or ignored with a
/// diagnostic under ``NullIntoNonOptional/keepCurrent`` (a child has no zero).
@inline(never)
func recordNullObject(run: inout MappingRun) {
  guard run.context.nullIntoNonOptional == .keepCurrent else {
    return run.fail(.typeMismatch(expected: "an object", found: "null"))
  }
  run.note(.nullIgnored(kept: true))
}

/// The objects of a `[String: Child]` relationship at `index`, as far as they mapped (see
/// ``Shape/decode``): a child that failed is in it, filled as far as it mapped, unless failed
/// children are dropped (``MappingRun/dropsFailedChildren``), when it is left out with a
/// diagnostic at its key. `nil` when the value is not an object.
///
/// A recursion through a dictionary runs this frame once per level: the child is handed over
/// by a closure (an `Optional<Child>` of the unspecialized type took dynamic stack room) and
/// the nested-key and error paths are out of line, so a level takes about as much stack as one
/// through an array (it took 976 bytes per JSON level: 511 levels overflowed 512 KB).
func decodeChildDictionary<Child>(
  at index: Int, plan: _MappingPlan<Child>, run: inout MappingRun
) -> [String: Child]? {
  let entry = run.tape[index]
  guard entry.kind == .object else {
    recordNotAnObject(at: index, run: &run)
    return nil
  }
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
      decodeKeyedMember(
        key, keyIndex: cursor, keyRule: keyRule, plan: plan, into: &children, run: &run)
    } else if run.dropsFailedChildren {
      decodeMemberDroppingFailure(key, at: cursor + 1, plan: plan, into: &children, run: &run)
    } else {
      run.path.append(.key(key))
      plan.decodeChild(at: cursor + 1, run: &run) { child in children[key] = consume child }
      run.path.removeLast()
    }
    cursor = run.tape.next(after: cursor + 1)
  }
  return children
}

/// ``decodeChildDictionary(at:plan:run:)``'s member when failed children are dropped
/// (``ChildFailurePolicy/dropChild``): a member that failed is left out, its errors a
/// diagnostic at its key. Out of line, off the common path.
@inline(never)
private func decodeMemberDroppingFailure<Child>(
  _ key: String, at index: Int, plan: _MappingPlan<Child>,
  into children: inout [String: Child], run: inout MappingRun
) {
  run.path.append(.key(key))
  let child = decodeDroppingFailure(run: &run) { run in
    var mapped: Child?
    plan.decodeChild(at: index, run: &run) { mapped = $0 }
    return mapped
  }
  if let child { children[key] = child }
  run.path.removeLast()
}

/// ``decodeChildDictionary(at:plan:run:)``'s value that is not an object.
@inline(never)
private func recordNotAnObject(at index: Int, run: inout MappingRun) {
  run.fail(.typeMismatch(expected: "an object", found: run.foundDescription(at: index)))
}

/// ``decodeChildDictionary(at:plan:run:)``'s member for a nested-key child mapping (its key
/// read into the child).
@inline(never)
private func decodeKeyedMember<Child>(
  _ key: String, keyIndex: Int, keyRule: KeyRule<Child>, plan: _MappingPlan<Child>,
  into children: inout [String: Child], run: inout MappingRun
) {
  let keepsFailed = !run.dropsFailedChildren
  if let child = decodeEntry(
    run: &run, at: [.key(key)],
    {
      plan.decodeKeyed(keyIndex: keyIndex, keyRule: keyRule, keepsFailed: keepsFailed, run: &$0)
    })
  {
    children[key] = child
  }
}
