/// The writes a mapping onto an existing instance will make, collected first and applied only
/// when the whole object (children included) mapped without an error. That is what makes
/// objects transactional: a failure anywhere leaves the existing instance — and the existing
/// children it would have merged into — exactly as it was.
struct Patch<Object> {
  /// The writes, allocated by the first one: an empty patch (every new model's, which never
  /// records anything) is a null reference, made without generic metadata.
  private var storage: PatchStorage<Object>?

  init() {
    storage = nil
  }

  /// The writes, in order.
  var writes: [(inout Object) -> Void] { storage?.writes ?? [] }
  /// The same writes as they preview (see ``applyPreview(to:)``): a relationship's preview
  /// write sets its preview value, so applying them changes no existing class instance.
  var previewWrites: [(inout Object) -> Void] { storage?.previewWrites ?? [] }
  /// Whether no write was recorded.
  var isEmpty: Bool { storage?.writes.isEmpty ?? true }

  /// The storage, unique to this patch, for appending.
  private mutating func uniqueStorage() -> PatchStorage<Object> {
    if let storage, isKnownUniquelyReferenced(&self.storage) { return storage }
    let copy = PatchStorage<Object>(copying: storage)
    storage = copy
    return copy
  }

  /// Appends a write that previews as itself (an attribute's).
  mutating func append(_ write: @escaping (inout Object) -> Void) {
    let storage = uniqueStorage()
    storage.writes.append(write)
    storage.previewWrites.append(write)
  }

  /// Appends a write with the write that previews it.
  mutating func append(
    _ write: @escaping (inout Object) -> Void, preview: @escaping (inout Object) -> Void
  ) {
    let storage = uniqueStorage()
    storage.writes.append(write)
    storage.previewWrites.append(preview)
  }

  /// Appends the write that sets the property `writer` writes to `value`.
  @inline(never)
  mutating func recordSet<Value>(_ value: Value, with writer: PropertyWriter<Object, Value>) {
    append { writer.write(value, into: &$0) }
  }

  func apply(to object: inout Object) {
    guard let storage else { return }
    for write in storage.writes { write(&object) }
  }

  /// Applies the writes to `object` without changing any existing class instance they would
  /// merge into: how a relationship validator sees a value-type child before the mapping is
  /// applied.
  func applyPreview(to object: inout Object) {
    guard let storage else { return }
    for write in storage.previewWrites { write(&object) }
  }
}

/// The writes of a ``Patch``, shared by copies of it until one appends (copy on write).
final class PatchStorage<Object> {
  var writes: [(inout Object) -> Void]
  var previewWrites: [(inout Object) -> Void]

  init(copying other: PatchStorage<Object>?) {
    writes = other?.writes ?? []
    previewWrites = other?.previewWrites ?? []
  }
}

/// A child of a to-many relationship mapped onto existing children: either an existing child
/// with the writes to merge into it, or a fresh one.
enum PendingChild<Child> {
  case merged(Child, Patch<Child>)
  case fresh(Child)

  /// The child, with its writes applied (only called once the whole mapping succeeded).
  func materialize() -> Child {
    switch self {
    case .fresh(let child): return child
    case .merged(var child, let patch):
      patch.apply(to: &child)
      return child
    }
  }

  /// The child as ``materialize()`` will return it, computed without changing anything: exact
  /// for fresh children and value types; a class instance merged by identity is returned as it
  /// is now, before the payload's values are merged into it (merging it changes it in place,
  /// which may only happen once the whole mapping succeeded).
  var preview: Child {
    switch self {
    case .fresh(let child): return child
    case .merged(var child, let patch):
      if Child.self is AnyClass { return child }
      patch.applyPreview(to: &child)
      return child
    }
  }

  /// Merges the payload's values into the existing class instances this child holds (itself,
  /// or for a value type the class children it merges into), as ``materialize()`` would, for a
  /// relationship that writes its validated value instead of the materialized one.
  func commitMerges() {
    guard case .merged(var child, let patch) = self else { return }
    patch.apply(to: &child)
  }
}

/// How a to-many relationship combines the mapped children with the children already there when
/// mapping onto an existing instance (AppCoreKit's `@clearContent` and `@insertContentAtBegin`).
public enum CollectionPolicy: Sendable, Equatable {
  /// The mapped children, in payload order, replace the collection; children whose identity
  /// matches an existing child are merged into it (the same instance, for classes). The default.
  case replace
  /// The mapped children are added after the existing ones.
  case append
  /// The mapped children are inserted before the existing ones, in payload order.
  case prepend
  /// Children whose identity matches an existing child are merged into it; the others are added
  /// after the existing ones, in payload order. Needs an identity on the child mapping.
  case union
  /// The collection is emptied, then the mapped children, all fresh, are added (for a class
  /// child with an identity, the same id twice in the payload is one instance, as in every call:
  /// see ``Mapping/identified(by:)``).
  case clearThenAppend
  /// For to-one and `[String: T]` relationships: the payload is mapped onto the existing child
  /// (or onto the existing entry with the same key) in place, without an identity; keys absent
  /// from the payload keep their values, entries with new keys are added (ObjectMapper's
  /// behaviour, RestKit's without a primary key). A child that does not exist yet is mapped
  /// fresh.
  case merge
}

/// What happens when a child of a relationship fails to map.
public enum ChildFailurePolicy: Sendable, Equatable {
  /// The parent fails too, with the child's errors at their paths (the default: nothing is lost
  /// silently).
  case failParent
  /// The child is left out (a to-many element is skipped, an optional to-one child is left as
  /// it was) and its errors are reported as a diagnostic; the parent maps. In a dictionary or
  /// an array of arrays of children, the one entry that failed is left out.
  case dropChild
  /// The child is kept with what did map, as RestKit attached a child whose mapping failed:
  /// each value that failed is left as the child's `make()` gave it (or its `default:`), and
  /// each error becomes a ``MappingDiagnostic/Kind/valueSkipped(_:)`` diagnostic at its own
  /// path; the parent maps. Every entry of a dictionary or an array of arrays of children is
  /// kept the same way. The relationship's validators (``Relationship/validate(_:_:)``) see the
  /// kept value as they see one that mapped.
  ///
  /// Onto an existing instance, whose writes are all or nothing per object, a failed child is
  /// not written: an existing to-one child keeps its values, and a failed to-many element is
  /// left out as under ``dropChild``; the errors are diagnostics either way. A child that could
  /// not be made at all (a dynamic mapping's child whose case failed, or that no case matched)
  /// is left out too.
  case keepPartial
}

/// The identity of a mapping's objects (`.identified(by: \.id)`): how to read it from an
/// object, which property it is, and how a value of the rule writing it becomes the identity,
/// to read it from a payload.
struct Identity<Object>: Sendable {
  let property: AnyKeyPath & Sendable
  let value: @Sendable (Object) -> AnyHashable?
  /// A value of the property's type, seen as `Any`, as the identity `value` gives for it.
  let key: IdentityKey
}

/// An `Optional` seen without its wrapped type, to tell a `nil` identity.
protocol OptionalIdentity {
  var _identityValue: AnyHashable? { get }
}

extension Optional: OptionalIdentity where Wrapped: Hashable {
  var _identityValue: AnyHashable? { self.map { AnyHashable($0) } }
}

extension _MappingPlan {
  /// The identity of the object that the payload at `index` describes, read as a scalar by the
  /// rule writing the identity property (its source, key convention, transform and coercion,
  /// exactly as the element's decode reads it), without making a model: no user initializer
  /// runs. `nil` when the mapping has no identity or the payload has no usable id (absent,
  /// `null`, or not convertible): a missing id never matches.
  ///
  /// The few rule kinds that write their value only into a model (a relationship, a value read
  /// from the collection index or the call's metadata) are decoded into a scratch model, as
  /// before.
  func payloadIdentity(at index: Int, run: inout MappingRun) -> AnyHashable? {
    if hasKeyVariants, run.hasKeyConvention {
      return keyed(in: run).payloadIdentity(at: index, run: &run)
    }
    guard let identity else { return nil }
    guard let position = identityRule else {
      // No rule writes the identity (a definition problem): merging could never match, so the
      // merge fails instead of silently replacing the existing children.
      for problem in problems { run.fail(.invalidDefinition(message: problem)) }
      return nil
    }
    guard rules[position].source.resolve(in: run.tape, from: index) != nil else { return nil }
    switch ruleSteps[position].payloadIdentity(objectIndex: index, key: identity.key, run: &run) {
    case .value(let id): return id
    case .unsupported: return scratchIdentity(at: index, position: position, run: &run)
    }
  }

  /// ``payloadIdentity(at:run:)`` for a rule that writes its value only into a model: the
  /// rule's step alone, run on a scratch model.
  @inline(never)
  private func scratchIdentity(at index: Int, position: Int, run: inout MappingRun)
    -> AnyHashable?
  {
    guard let identity, let make else { return nil }
    var scratch = make()
    var unused = Patch<Object>()
    var quiet = run.scratch(errorLimit: 0)
    quiet.ontoExisting = false
    var hint = _MemberHint(object: index)
    ruleSteps[position].decode(&scratch, &unused, objectIndex: index, hint: &hint, run: &quiet)
    guard quiet.errors.isEmpty else { return nil }
    return identity.value(scratch)
  }

  /// The writes that map the object at `index` onto `existing` with the rules of a plain mapping
  /// (or the keyed value of a nested-key one): the same steps as for a new model, on a target
  /// that records the writes; only present keys are written, absence is never an error. `nil`
  /// (with the errors in `run`) when it fails.
  func collectFields(_ existing: Object, at index: Int, run: inout MappingRun) -> Patch<Object>? {
    guard run.tape[index].kind == .object || readsOnlySpecialSources else {
      run.fail(.typeMismatch(expected: "an object", found: run.foundDescription(at: index)))
      return nil
    }
    var object = existing
    var patch = Patch<Object>()
    run.mergeDepth += 1
    defer { run.mergeDepth -= 1 }
    guard runSteps(on: &object, patch: &patch, ontoExisting: true, at: index, run: &run) else {
      return nil
    }
    return patch
  }

  /// The one element loop of a to-many relationship, for a new model and onto existing children
  /// alike: maps the `count` elements from the tape entry `first` on with `mapElement` (each under
  /// its index in the path when `indexesPath`; a lone object under lenient coercion adds none),
  /// and under `dropsFailures` turns a failed element's errors into a diagnostic, or drops with
  /// `dropNew` an element just mapped new (`mapElement` returned `true`) from none of its keys
  /// (`{}`: an unmappable representation).
  ///
  /// Inlined into both callers, so its closures cost no call: a new model's children are
  /// written in place and build no `PendingChild` and read no identity.
  @inline(__always)
  func forEachElement(
    from first: Int, count: Int, indexesPath: Bool, dropsFailures: Bool, run: inout MappingRun,
    mapElement: (_ element: Int, _ run: inout MappingRun) -> Bool, dropNew: () -> Void
  ) {
    var cursor = first
    for offset in 0..<count {
      if indexesPath { run.path.append(.index(offset)) }
      let errorsBefore = run.errors.count
      let mark = run.mergeMark
      let mappedNew = mapElement(cursor, &run)
      if dropsFailures,
        dropsFailedElement(
          at: cursor, errorsBefore: errorsBefore, mark: mark, mappedNew: mappedNew, run: &run)
      {
        dropNew()
      }
      if indexesPath { run.path.removeLast() }
      cursor = run.tape.next(after: cursor)
    }
  }

  /// ``forEachElement(from:count:indexesPath:dropsFailures:run:mapElement:dropNew:)`` over the
  /// entries of `list` (``ElementList``): each under its payload path (`kids/2/node`, its
  /// position still its index) or its position. A missing entry (`-1`) is mapped as `null` is,
  /// on a document of its own holding `null` (entry `0` there).
  func forEachListed(
    _ list: ElementList, dropsFailures: Bool, run: inout MappingRun,
    mapElement: (_ element: Int, _ run: inout MappingRun) -> Bool, dropNew: () -> Void
  ) {
    for (position, entry) in list.entries.enumerated() {
      let depth = run.path.count
      let outerFannedOutDepth = run.fannedOutDepth
      let outerFannedOutIndex = run.fannedOutIndex
      if let paths = list.paths {
        run.path.push(paths[position])
        run.fannedOutDepth = run.path.count
        run.fannedOutIndex = position
      } else {
        run.path.append(.index(position))
      }
      if entry >= 0 {
        mapListed(entry, dropsFailures: dropsFailures, run: &run, mapElement, dropNew)
      } else {
        mapMissing(dropsFailures: dropsFailures, run: &run, mapElement, dropNew)
      }
      run.fannedOutDepth = outerFannedOutDepth
      run.fannedOutIndex = outerFannedOutIndex
      run.path.truncate(to: depth)
    }
  }

  /// A missing element of ``forEachListed(_:dropsFailures:run:mapElement:dropNew:)``, mapped as
  /// `null` on a document of its own. Out of line: a tape held in `forEachListed`'s frame took
  /// room in every level of a recursion through a list (missing elements are rare: an array of
  /// arrays reached across an array).
  @inline(never)
  private func mapMissing(
    dropsFailures: Bool, run: inout MappingRun,
    _ mapElement: (_ element: Int, _ run: inout MappingRun) -> Bool, _ dropNew: () -> Void
  ) {
    guard let nullTape = try? _Tape(node: .null) else { return }
    nullTape.withView { view in
      let outerTape = run.tape
      let outerParent = run.parentIndex
      run.tape = view
      run.parentIndex = -1
      mapListed(0, dropsFailures: dropsFailures, run: &run, mapElement, dropNew)
      run.tape = outerTape
      run.parentIndex = outerParent
    }
  }

  /// One element of ``forEachListed(_:dropsFailures:run:mapElement:dropNew:)``.
  private func mapListed(
    _ element: Int, dropsFailures: Bool, run: inout MappingRun,
    _ mapElement: (_ element: Int, _ run: inout MappingRun) -> Bool, _ dropNew: () -> Void
  ) {
    let errorsBefore = run.errors.count
    let mark = run.mergeMark
    let mappedNew = mapElement(element, &run)
    if dropsFailures,
      dropsFailedElement(
        at: element, errorsBefore: errorsBefore, mark: mark, mappedNew: mappedNew, run: &run)
    {
      dropNew()
    }
  }

  /// Under ``ChildFailurePolicy/dropChild``: the errors of the element at `index` become a
  /// diagnostic; without errors, whether the element, when it was mapped new, is unmappable
  /// (to be dropped). Out of line, off the common path.
  /// A dropped element's writes into the call's instances are forgotten too
  /// (``MappingRun/rollBackMerges(to:)`` to `mark`, taken before it was mapped).
  @inline(never)
  private func dropsFailedElement(
    at index: Int, errorsBefore: Int, mark: MergeMark, mappedNew: Bool, run: inout MappingRun
  ) -> Bool {
    if run.errors.count > errorsBefore {
      run.dropFailedChild(errorsSince: errorsBefore, mark: mark)
      return false
    }
    guard mappedNew && dropsUnmappable(at: index, run: &run) else { return false }
    run.rollBackMerges(to: mark)
    return true
  }

  /// Maps the children at `index` (an array, or one object under lenient coercion) onto the
  /// `existing` children with `policy`; `nil` when a child failed and failures fail the parent.
  func mergeChildren(
    _ existing: [Object], at index: Int, policy: CollectionPolicy, onFailure: ChildFailurePolicy,
    run: inout MappingRun
  ) -> [PendingChild<Object>]? {
    let entry = run.tape[index]
    let isArray = entry.kind == .array
    return mergeChildren(existing, policy: policy, run: &run) { run, mapElement, dropNew in
      forEachElement(
        from: isArray ? index + 1 : index, count: isArray ? Int(entry.length) : 1,
        indexesPath: isArray, dropsFailures: onFailure != .failParent, run: &run,
        mapElement: mapElement, dropNew: dropNew)
    }
  }

  /// ``mergeChildren(_:at:policy:onFailure:run:)`` for the entries of `list`
  /// (``ElementList``), mapped where they are in the payload.
  func mergeChildren(
    _ existing: [Object], list: ElementList, policy: CollectionPolicy,
    onFailure: ChildFailurePolicy, run: inout MappingRun
  ) -> [PendingChild<Object>]? {
    mergeChildren(existing, policy: policy, run: &run) { run, mapElement, dropNew in
      forEachListed(
        list, dropsFailures: onFailure != .failParent, run: &run, mapElement: mapElement,
        dropNew: dropNew)
    }
  }

  /// The merge of ``mergeChildren(_:at:policy:onFailure:run:)``, over the elements `elements`
  /// visits (with the element loop's `mapElement` and `dropNew`).
  private func mergeChildren(
    _ existing: [Object], policy: CollectionPolicy, run: inout MappingRun,
    elements: (
      inout MappingRun, (_ element: Int, _ run: inout MappingRun) -> Bool, () -> Void
    ) -> Void
  ) -> [PendingChild<Object>]? {
    let mergesExisting = identity != nil && (policy == .replace || policy == .union)
    var existingIds: [AnyHashable: Int] = [:]
    if mergesExisting, let identity {
      for (position, child) in existing.enumerated() {
        if let id = identity.value(child), existingIds[id] == nil { existingIds[id] = position }
      }
    }
    var mapped: [PendingChild<Object>] = []
    var mappedIds: [AnyHashable: Int] = [:]
    var mergedExisting: [Int: Int] = [:]  // existing position -> mapped position
    var newId: AnyHashable?  // the id of the element last mapped new, if it had one
    let before = run.errors.count
    elements(
      &run,
      { elementIndex, run in
        let id = policy == .clearThenAppend ? nil : payloadIdentity(at: elementIndex, run: &run)
        if let id, let position = mappedIds[id] {
          // The same id twice in one payload: one object, the later values win.
          if let later = map(
            existing: mapped[position].child, at: elementIndex, matching: .inPlace, run: &run)
          {
            mapped[position].absorb(later, run: &run)
          }
        } else if mergesExisting, let id, let position = existingIds[id] {
          if let pending = map(
            existing: existing[position], at: elementIndex, matching: .inPlace, run: &run)
          {
            mergedExisting[position] = mapped.count
            mappedIds[id] = mapped.count
            mapped.append(pending)
          }
        } else if let child = decodeNew(at: elementIndex, run: &run) {
          if let id { mappedIds[id] = mapped.count }
          newId = id
          mapped.append(.fresh(child))
          return true
        }
        return false
      },
      {
        // Mapped without error from none of its keys (`{}`): unmappable, dropped too.
        mapped.removeLast()
        if let newId { mappedIds[newId] = nil }
      })
    guard run.errors.count == before else { return nil }
    switch policy {
    case .replace, .clearThenAppend, .merge:
      return mapped
    case .append:
      return existing.map { .fresh($0) } + mapped
    case .prepend:
      return mapped + existing.map { .fresh($0) }
    case .union:
      var result: [PendingChild<Object>] = existing.enumerated().map { position, child in
        mergedExisting[position].map { mapped[$0] } ?? .fresh(child)
      }
      let used = Set(mergedExisting.values)
      for (position, child) in mapped.enumerated() where !used.contains(position) {
        result.append(child)
      }
      return result
    }
  }
}

extension PendingChild {
  /// The child these writes go to (the existing child, or the fresh one).
  var child: Child {
    switch self {
    case .fresh(let child), .merged(let child, _): return child
    }
  }

  /// Takes in `later`, the same child mapped again from a later element of the payload (its
  /// id repeated): the later values win.
  ///
  /// The writes are appended in place, so a payload that names one child n times costs O(n),
  /// not O(n²) (issue 16).
  mutating func absorb(_ later: PendingChild<Child>, run: inout MappingRun) {
    guard case .merged(_, let patch) = later else {
      self = later
      return
    }
    switch self {
    case .fresh(let child)
    where Child.self is AnyClass
      && run.identityMap.mergedInstances.contains(ObjectIdentifier(child as AnyObject)):
      // An instance of the call's identity map that an earlier occurrence's writes are pending
      // for: the later values wait behind them, in order, and go with an element that is
      // dropped (``CallInstances/pendingMerges``).
      run.identityMap.pendingMerges.append {
        var instance = child
        patch.apply(to: &instance)
      }
    case .fresh(var child):
      // A child this element created: nothing outside it can see it yet, so the later values
      // are applied now and it stays fresh (its preview is then exact, class or not).
      patch.apply(to: &child)
      self = .fresh(child)
    case .merged(let child, var pending):
      self = .fresh(child)  // releases this case's copy of the writes, so they grow in place
      pending.append(contentsOf: patch)
      self = .merged(child, pending)
    }
  }
}

extension Patch {
  /// Appends `other`'s writes after these.
  mutating func append(contentsOf other: Patch<Object>) {
    guard let source = other.storage else { return }
    let storage = uniqueStorage()
    storage.writes.append(contentsOf: source.writes)
    storage.previewWrites.append(contentsOf: source.previewWrites)
  }
}

/// How ``_MappingPlan/map(existing:at:matching:declineIsAcceptable:run:)`` pairs an existing
/// instance with the payload element that may update it.
enum ExistingMatch {
  /// The element is for this instance: the root of `map(_:onto:)`, a mapper route's target, the
  /// instance a dynamic case updates. A dynamic mapping maps it with the case it chooses, whose
  /// model type must be the instance's; a nested-key mapping writes the key and the keyed
  /// value into it.
  case target
  /// A relationship's existing child, merged in place: with ``CollectionPolicy/merge``, or an
  /// element whose identity the caller already matched. Dynamic and nested-key mappings
  /// replace rather than merge: they map the element new, so that a pending child's preview is
  /// always the value it will become.
  case inPlace
  /// A to-one relationship's existing child: merged in place (as ``inPlace``) when the element's
  /// identity is the child's; otherwise, or when the mapping has no identity, mapped new.
  case identity
}

extension _MappingPlan {
  /// Maps the element at `index`, given the instance it may update: the one entry for an
  /// object that may already exist (the root of `map(_:onto:)`, mapper routes, dynamic cases,
  /// relationships onto an existing model).
  ///
  /// - `existing` is `nil`: the element is mapped new (`.fresh`).
  /// - `match` pairs `existing` with the element: the same steps as for a new object run onto
  ///   it, recording their writes in a patch (`.merged`), applied only once the whole mapping
  ///   succeeded.
  /// - Otherwise the element is mapped new and replaces `existing`.
  ///
  /// A new child of a model being made does not come here: it is written in place through
  /// ``decodeNew(at:run:declineIsAcceptable:accept:)``, which builds no `PendingChild`.
  ///
  /// - Parameters:
  ///   - existing: The instance the element may update, if any.
  ///   - index: The element's tape index.
  ///   - match: How `existing` and the element are paired.
  ///   - declineIsAcceptable: Whether a dynamic mapping may decline the element when there is
  ///     no existing instance (it is then left out, with a diagnostic); a decline that would
  ///     replace an existing instance is always an error.
  ///   - run: The run, which receives the errors.
  /// - Returns: The pending child; `nil`, with the errors in `run`, when the element failed.
  func map(
    existing: Object?, at index: Int, matching match: ExistingMatch,
    declineIsAcceptable: Bool = false, run: inout MappingRun
  ) -> PendingChild<Object>? {
    guard let existing else {
      return decodeNew(at: index, run: &run, declineIsAcceptable: declineIsAcceptable).map {
        .fresh($0)
      }
    }
    // Merges nested past the limit map the element new (see ``MappingRun/mergeDepth``).
    if match != .target, run.mergeDepth >= MappingRun.mergeDepthLimit {
      return replacing(at: index, run: &run)
    }
    switch match {
    case .target:
      if let dynamic { return mapChosenCase(onto: existing, with: dynamic, at: index, run: &run) }
      if let keyRule {
        return collectSingleKeyed(existing, at: index, keyRule: keyRule, run: &run).map {
          .merged(existing, $0)
        }
      }
    case .identity:
      guard let identity, let id = payloadIdentity(at: index, run: &run),
        identity.value(existing) == id
      else { return replacing(at: index, run: &run) }
      fallthrough
    case .inPlace:
      guard dynamic == nil, keyRule == nil else { return replacing(at: index, run: &run) }
    }
    return collectFields(existing, at: index, run: &run).map { .merged(existing, $0) }
  }

  /// The writes that map the object at `index` onto `existing`, the instance it is for (the
  /// root of `map(_:onto:)`, a mapper route's target): the entry
  /// ``map(existing:at:matching:declineIsAcceptable:run:)`` with ``ExistingMatch/target``, as a
  /// patch. `nil` (with the errors in `run`) when it fails.
  func patch(onto existing: Object, at index: Int, run: inout MappingRun) -> Patch<Object>? {
    map(existing: existing, at: index, matching: .target, run: &run)?.patch
  }

  /// The element at `index` mapped new, to replace an existing instance (a decline is an error).
  private func replacing(at index: Int, run: inout MappingRun) -> PendingChild<Object>? {
    decodeNew(at: index, run: &run, declineIsAcceptable: false).map { .fresh($0) }
  }

  /// A dynamic mapping onto the instance the element is for: the chosen case (a decline is an
  /// error here) maps it onto the instance cast to the case's model type.
  @inline(never)
  private func mapChosenCase(
    onto existing: Object, with dynamic: DynamicDispatch<Object>, at index: Int,
    run: inout MappingRun
  ) -> PendingChild<Object>? {
    guard let chosen = dynamic.chosenCase(at: index, run: &run, declineIsAcceptable: false) else {
      return nil
    }
    return chosen.map(existing: existing, at: index, run: &run)
  }
}

extension PendingChild {
  /// The writes that turn the existing instance into this child: the merge's, or for a fresh
  /// child one write replacing the instance with it.
  var patch: Patch<Child> {
    switch self {
    case .merged(_, let patch): return patch
    case .fresh(let child):
      var patch = Patch<Child>()
      patch.append({ $0 = child }, preview: { $0 = child })
      return patch
    }
  }
}
