/// A to-many relationship into an array, a set, or an optional of either.
final class ToManyStep<
  Object, Collection: MappableCollection, M: MappingProtocol<Collection.Element>
>: RelationshipKind {
  let rule: Relationship<Object>
  let writer: PropertyWriter<Object, Collection>
  let validators: [Validator<Collection>]
  let mapping: @Sendable () -> M

  init(
    _ rule: Relationship<Object>, property: WritableKeyPath<Object, Collection>,
    mapping: @escaping @Sendable () -> M
  ) {
    self.rule = rule
    writer = PropertyWriter(property)
    self.mapping = mapping
    validators = rule.validators.compactMap { $0.typed(as: Collection.self) }
  }

  /// Appends one child to the children being decoded. This code is not specialized, and
  /// `children.append(_:)` written here would look up `Array<Element>`'s generic metadata for
  /// every child (about 350 instructions, 9% of citm_catalog's decode); the closure made by
  /// ``appender(for:)`` holds that metadata, looked up once when the step is made.
  private let appendChild = appender(for: [Collection.Element].self)
  /// An empty array with room for a number of children, made the same way.
  private let reservedChildren = reserver(for: [Collection.Element].self)
  /// Removes the last child appended (an unmappable one), made the same way.
  private let dropLastChild = lastRemover(for: [Collection.Element].self)
  /// What `null` sets.
  private let traits = CollectionTraits<Collection>.of

  func decodeValue(into object: inout Object, at index: Int, run: inout MappingRun) {
    let entry = run.tape[index]
    let count = Int(entry.length)
    guard entry.kind == .array, count > 0 else {
      if entry.kind == .array {
        // `[]`, common (twitter.json's empty `hashtags`, `urls`): no `Optional` in the way.
        return writer.write(Collection(mappedElements: reservedChildren(0)), into: &object)
      }
      return decodeOtherThanElements(into: &object, at: index, run: &run)
    }
    let plan = resolvedChildPlan(mapping)
    let before = run.errors.count
    let dropsFailures = run.dropsFailedChildren
    // Appended to reserved storage rather than built with
    // `Array(unsafeUninitializedCapacity:)`, whose unspecialized frames and closure took
    // about 270 bytes of stack per level of a recursion (instructions on twitter.json: the
    // same within 0.5%).
    var children = reservedChildren(count)
    plan.forEachElement(
      from: index + 1, count: count, indexesPath: true, dropsFailures: dropsFailures, run: &run,
      mapElement: { cursor, run in
        plan.decodeChild(at: cursor, run: &run) { child in appendChild(&children, consume child) }
        return true
      },
      dropNew: { dropLastChild(&children) })
    // Written also when a child failed (the parent fails then): a report's partial object
    // keeps the children as far as they mapped.
    if run.errors.count == before || !dropsFailures {
      writer.write(Collection(mappedElements: children), into: &object)
    }
  }

  var mapsElementLists: Bool { true }

  @inline(never)
  func decodeElements(_ list: ElementList, into object: inout Object, run: inout MappingRun) {
    let plan = resolvedChildPlan(mapping)
    let before = run.errors.count
    let dropsFailures = run.dropsFailedChildren
    var children = reservedChildren(list.entries.count)
    plan.forEachListed(
      list, dropsFailures: dropsFailures, run: &run,
      mapElement: { entry, run in
        plan.decodeChild(at: entry, run: &run) { child in appendChild(&children, consume child) }
        return true
      },
      dropNew: { dropLastChild(&children) })
    // As in `decodeValue`: written also when a child failed and failures fail the parent.
    if run.errors.count == before || !dropsFailures {
      writer.write(Collection(mappedElements: children), into: &object)
    }
  }

  /// `null` or another kind of value than an array. Out of line: a `Collection?` local in
  /// `decodeValue` had its generic metadata looked up on every call, before any branch.
  @inline(never)
  private func decodeOtherThanElements(
    into object: inout Object, at index: Int, run: inout MappingRun
  ) {
    let value: Collection? = decodeToManyOtherThanElements(at: index, mapping, run: &run)
    if let value { writer.write(value, into: &object) }
  }

  /// The rule's policy, or `.replace` when the run maps a repeated id onto the instance the
  /// call already made: the later representation's collection wins (see
  /// `MappingRun.mergesCallInstance`).
  private func collectionPolicy(in run: MappingRun) -> CollectionPolicy {
    run.mergesCallInstance ? .replace : rule.collectionPolicy
  }

  func mergeValue(onto object: Object, at index: Int, run: inout MappingRun)
    -> PendingValue<Collection>?
  {
    let entry = run.tape[index]
    let policy = collectionPolicy(in: run)
    if entry.kind == .null {
      let current = writer.value(in: object)
      switch policy {
      case .union, .append, .prepend:
        // A policy that combines with the existing children has nothing to add: the
        // collection keeps its elements, optional or not (RestKit's union).
        return .keeping(current)
      case .replace, .clearThenAppend, .merge:
        if let null = traits.nullValue {
          return PendingValue(null())
        }
        // An error, or what the run's NullIntoNonOptional asks for.
        guard let value: Collection = toManyNull(run: &run) else {
          return run.context.nullIntoNonOptional == .keepCurrent
            ? .keeping(current) : nil
        }
        return PendingValue(value)
      }
    }
    let plan = mapping()._plan
    guard entry.kind == .array || (entry.kind == .object && plan.coercion(in: run) == .lenient)
    else {
      run.fail(.typeMismatch(expected: "an array", found: run.foundDescription(at: index)))
      return nil
    }
    if entry.kind == .object {
      if !plan.isPlain, let keyRule = plan.keyRule {
        return mergeKeyedCollection(onto: object, at: index, keyRule: keyRule, run: &run)
      }
      let errorsBefore = run.errors.count
      if isUnmappableLoneObject(at: index, plan: plan, run: &run) {
        return run.errors.count == errorsBefore ? .keeping(writer.value(in: object)) : nil
      }
    }
    let current = writer.value(in: object).mappedElements
    guard
      let pending = plan.mergeChildren(
        current, at: index, policy: policy, onFailure: rule.childFailure, run: &run)
    else { return nil }
    return Self.pendingCollection(pending)
  }

  /// A nested-key collection (`{"alice": {...}, "bob": {...}}`) onto an existing instance: its
  /// children are mapped fresh, as keyed children always are, and combined with the current
  /// ones by the policy (appended, prepended or added under ``CollectionPolicy/union``, else
  /// replacing them). A failed child is left out under ``ChildFailurePolicy/dropChild`` and
  /// ``ChildFailurePolicy/keepPartial`` (with a diagnostic at its key); `nil` when one failed
  /// otherwise.
  @inline(never)
  private func mergeKeyedCollection(
    onto object: Object, at index: Int, keyRule: KeyRule<Collection.Element>,
    run: inout MappingRun
  ) -> PendingValue<Collection>? {
    let outerDrops = run.replaceDropsFailedChildren(with: rule.childFailure != .failParent)
    defer { run.dropsFailedChildren = outerDrops }
    let before = run.errors.count
    let children = resolvedChildPlan(mapping).decodeKeyedCollection(
      at: index, keyRule: keyRule, run: &run)
    guard run.errors.count == before else { return nil }
    let current = writer.value(in: object).mappedElements
    switch collectionPolicy(in: run) {
    case .replace, .clearThenAppend, .merge:
      return PendingValue(Collection(mappedElements: children))
    case .append, .union:
      return PendingValue(Collection(mappedElements: current + children))
    case .prepend:
      return PendingValue(Collection(mappedElements: children + current))
    }
  }

  func mergeElements(onto object: Object, list: ElementList, run: inout MappingRun)
    -> PendingValue<Collection>?
  {
    let current = writer.value(in: object).mappedElements
    guard
      let pending = resolvedChildPlan(mapping).mergeChildren(
        current, list: list, policy: collectionPolicy(in: run), onFailure: rule.childFailure,
        run: &run)
    else { return nil }
    return Self.pendingCollection(pending)
  }

  /// The collection the merged and new children `pending` will make.
  private static func pendingCollection(_ pending: [PendingChild<Collection.Element>])
    -> PendingValue<Collection>
  {
    PendingValue(
      materialize: { Collection(mappedElements: pending.map { $0.materialize() }) },
      preview: { Collection(mappedElements: pending.map(\.preview)) },
      commitMerges: { for child in pending { child.commitMerges() } })
  }
}

/// A closure that appends an element to a collection of type `C`, holding `C`'s metadata (the
/// generic argument of this call) so that calling it looks nothing up; see
/// `ToManyStep.appendChild`.
/// (It captures nothing but `C`'s metadata, so it is `@Sendable`.)
private func appender<C: RangeReplaceableCollection & SendableMetatype>(for _: C.Type)
  -> @Sendable (
    inout C, consuming C.Element
  ) -> Void
{
  { collection, element in collection.append(consume element) }
}

/// A closure that removes the last element of a non-empty collection of type `C` (when there is
/// one), holding `C`'s metadata; see ``appender(for:)``.
private func lastRemover<
  C: RangeReplaceableCollection & BidirectionalCollection & SendableMetatype
>(
  for _: C.Type
) -> @Sendable (inout C) -> Void {
  { collection in
    if !collection.isEmpty { collection.removeLast() }
  }
}

/// A closure that makes an empty collection of type `C` with room for a number of elements,
/// holding `C`'s metadata; see ``appender(for:)``.
private func reserver<C: RangeReplaceableCollection & SendableMetatype>(
  for _: C.Type
) -> @Sendable (Int) -> C {
  { count in
    var collection = C()
    // `[]` (most of twitter.json's `hashtags`, `urls`) reserves nothing: the unspecialized
    // `reserveCapacity(0)` cost about 250 instructions per empty array.
    if count > 0 { collection.reserveCapacity(count) }
    return collection
  }
}

/// What a to-many relationship sets for a value that is not a non-empty array: an empty
/// collection, the collection for `null`, a nested-key object's children, a lone object under
/// lenient coercion; `nil` (with an error) for anything else. Out of line, so that the frame of
/// the common path, which recursion repeats per level, stays small.
@inline(never)
private func decodeToManyOtherThanElements<
  Collection: MappableCollection, M: MappingProtocol<Collection.Element>
>(at index: Int, _ mapping: () -> M, run: inout MappingRun) -> Collection? {
  switch run.tape[index].kind {
  case .null:
    return toManyNull(run: &run)
  case .array:
    // Not `Array(unsafeUninitializedCapacity: 0)`, which writes its count into the shared
    // empty-array storage (a benign write ThreadSanitizer reports as a race).
    return Collection(mappedElements: [])
  case .object:
    // A nested-key collection (recursion goes through here: nothing else in this frame), or
    // a lone object.
    let plan = mapping()._plan
    if !plan.isPlain, let keyRule = plan.keyRule {
      // Written also when a child failed, as an array's children are.
      let children = plan.decodeKeyedCollection(
        at: index, keyRule: keyRule, keepsFailed: true, run: &run)
      return Collection(mappedElements: children)
    }
    return toManyLoneObject(at: index, plan: plan, run: &run)
  default:
    recordNotAnArray(at: index, run: &run)
    return nil
  }
}

/// What `null` sets in a to-many relationship, or `nil` with an error.
@inline(never)
private func toManyNull<Collection: MappableCollection>(
  run: inout MappingRun
) -> Collection? {
  guard let null = CollectionTraits<Collection>.of.nullValue else {
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
private func toManyLoneObject<Collection: MappableCollection>(
  at index: Int, plan: _MappingPlan<Collection.Element>, run: inout MappingRun
) -> Collection? {
  guard plan.coercion(in: run) == .lenient else {
    recordNotAnArray(at: index, run: &run)
    return nil
  }
  guard !isUnmappableLoneObject(at: index, plan: plan, run: &run) else { return nil }
  return plan.decodeNew(at: index, run: &run).map { Collection(mappedElements: [$0]) }
}

/// Whether the lone object at `index`, where a to-many relationship expects an array, has none
/// of the keys the child mapping reads: it is then not taken for the one element (it is most
/// likely a dictionary of children, `{"a": {...}, "b": {...}}`, or `{}`). It is RestKit's
/// unmappable representation, an error at the relationship's path; where the child mapping
/// allows unmappable representations (``MappingOptions/allowsUnmappableRepresentation``, part
/// of `.objectMapperCompatible`), the property is left as it is with an
/// ``MappingDiagnostic/Kind/unmappableRepresentation(keys:)`` diagnostic instead, as
/// ObjectMapper left it `nil`.
@inline(never)
func isUnmappableLoneObject<Child>(
  at index: Int, plan: _MappingPlan<Child>, run: inout MappingRun
) -> Bool {
  guard plan.readsNoKey(at: index, run: &run) else { return false }
  guard plan.allowsUnmappable(in: run) else {
    run.fail(.unmappableRepresentation(keys: run.tape.memberKeys(of: index)))
    return true
  }
  if run.diagnostics.keepsNext {
    run.note(.unmappableRepresentation(keys: run.tape.memberKeys(of: index)))
  } else {
    run.diagnostics.countOmitted(1)
  }
  return true
}

@inline(never)
private func recordNotAnArray(at index: Int, run: inout MappingRun) {
  run.fail(.typeMismatch(expected: "an array", found: run.foundDescription(at: index)))
}
