/// What a special source reads, resolved per object by ``SpecialSourceStep``.
enum SpecialSource {
  /// The parent object's representation, then the keys of the path inside it (built once:
  /// the path holds its keys' bytes).
  case parent(SourcePath)
  /// The whole payload, then the keys of the path inside it.
  case payload(SourcePath)
  /// The call's metadata, then `keys` inside it.
  case metadata(keys: [String])
  /// The object's position in its collection.
  case index
  /// Several paths of the object read together: present when one of them is.
  case compound([SourcePath])
  /// The object itself for an empty-source relationship: present when one of the child
  /// mapping's sources is; `keyed` gives them for a call's key convention
  /// (``MappingOptions/keys``).
  case flatChild([SourcePath], keyed: @Sendable (KeyConvention) -> [SourcePath])
  /// A collection operator (`comments.@count`) applied to a collection of the object.
  case collection(CollectionOperatorSource)

  /// The special source `source` names; `nil` for payload keys and ``SourcePath/root``, which
  /// the plain steps read themselves.
  init?(_ source: SourcePath) {
    switch source.storage {
    case .keys, .root: return nil
    case .parent(let keys): self = .parent(SourcePath(keys: keys))
    case .payload(let keys): self = .payload(SourcePath(keys: keys))
    case .metadata(let keys): self = .metadata(keys: keys)
    case .index: self = .index
    case .compound(let parts): self = .compound(parts)
    case .collection(let operation): self = .collection(CollectionOperatorSource(operation))
    }
  }
}

/// The step of a rule reading a special source: it finds the value the source names and runs
/// the rule's own step (compiled with ``SourcePath/root``) on it, or on nothing (`-1`) when the
/// source is absent. Only mappings that use special sources pay for it.
final class SpecialSourceStep<Object>: DecodeStepKind {
  let inner: DecodeStep<Object>
  let special: SpecialSource

  init(_ inner: DecodeStep<Object>, reading special: SpecialSource) {
    self.inner = inner
    self.special = special
  }

  /// The tape index the source reaches from the object at `objectIndex`; `-1` when absent.
  private func target(objectIndex: Int, run: inout MappingRun) -> Int {
    switch special {
    case .parent(let path):
      guard run.parentIndex >= 0 else { return -1 }
      return run.target(of: path, from: run.parentIndex, step: self)
    case .payload(let path):
      guard !run.readsElementsAlone else {
        run.needsWholePayload = true
        return -1
      }
      return run.target(of: path, from: 0, step: self)
    case .index, .metadata, .collection:
      return -1
    case .flatChild(let parts, let keyed):
      if run.hasKeyConvention, let convention = run.keyConvention {
        return Self.firstPresent(keyed(convention), objectIndex: objectIndex, run: run)
      }
      return Self.firstPresent(parts, objectIndex: objectIndex, run: run)
    case .compound(let parts):
      return Self.firstPresent(parts, objectIndex: objectIndex, run: run)
    }
  }

  /// `objectIndex` when one of `parts` is present (and not `null`) in that object, else `-1`.
  private static func firstPresent(
    _ parts: [SourcePath], objectIndex: Int, run: borrowing MappingRun
  )
    -> Int
  {
    for part in parts {
      if let index = part.resolve(in: run.tape, from: objectIndex), run.tape[index].kind != .null {
        return objectIndex
      }
    }
    return -1
  }

  func decode(
    _ object: inout Object, _ patch: inout Patch<Object>, objectIndex: Int,
    hint: inout _MemberHint,
    run: inout MappingRun
  ) {
    // The sources read from a scratch tape each have a function of their own, out of line: a
    // relationship reading one (`Relationship("rows.@unionOfObjects", …, lazy: …)`) recurses
    // through this frame once per level of nesting, which must stay small (inlined, the
    // operators' work made it 2.3 KB, and 255 levels of `@unionOfObjects` needed 800 KB of
    // stack).
    switch special {
    case .index: decodeIndex(&object, &patch, run: &run)
    case .metadata(let keys): decodeMetadata(keys, &object, &patch, run: &run)
    case .collection(let operation):
      decodeCollection(operation, &object, &patch, objectIndex: objectIndex, run: &run)
    case .parent, .payload, .compound, .flatChild:
      decodeAtTarget(&object, &patch, objectIndex: objectIndex, run: &run)
    }
  }

  /// Runs the rule's own step on the value at `index` (`-1`: absent).
  private func decodeInner(
    _ object: inout Object, _ patch: inout Patch<Object>, index: Int, run: inout MappingRun
  ) {
    var innerHint = _MemberHint(object: max(index, 0))
    inner.decode(&object, &patch, objectIndex: index, hint: &innerHint, run: &run)
  }

  /// ``decode(_:_:objectIndex:hint:run:)`` for a source read in the run's own document.
  @inline(never)
  private func decodeAtTarget(
    _ object: inout Object, _ patch: inout Patch<Object>, objectIndex: Int,
    run: inout MappingRun
  ) {
    let index = self.target(objectIndex: objectIndex, run: &run)
    decodeInner(&object, &patch, index: index, run: &run)
  }

  /// ``decode(_:_:objectIndex:hint:run:)`` for ``SpecialSource/index``: a one-value tape
  /// holding the collection index.
  @inline(never)
  private func decodeIndex(
    _ object: inout Object, _ patch: inout Patch<Object>, run: inout MappingRun
  ) {
    let value = run.collectionIndex.map { Node.integer(Int64($0)) }
    withScratchTape(holding: value, run: &run) { index, run in
      decodeInner(&object, &patch, index: index, run: &run)
    }
  }

  /// ``decode(_:_:objectIndex:hint:run:)`` for ``SpecialSource/metadata(keys:)``: a tape
  /// holding the metadata value `keys` reach.
  @inline(never)
  private func decodeMetadata(
    _ keys: [String], _ object: inout Object, _ patch: inout Patch<Object>,
    run: inout MappingRun
  ) {
    withScratchTape(holding: run.metadataValue(keys), run: &run) { index, run in
      decodeInner(&object, &patch, index: index, run: &run)
    }
  }

  /// ``decode(_:_:objectIndex:hint:run:)`` for ``SpecialSource/collection(_:)``: a relationship
  /// reading a union maps its objects where they are (``decodeUnionInPlace``); otherwise the
  /// rule's step runs on a scratch tape holding the operator's value, at the rule's own path
  /// (`/comments/@count`).
  @inline(never)
  private func decodeCollection(
    _ operation: CollectionOperatorSource, _ object: inout Object, _ patch: inout Patch<Object>,
    objectIndex: Int, run: inout MappingRun
  ) {
    if operation.isPlainUnion,
      decodeUnionInPlace(operation, &object, &patch, objectIndex: objectIndex, run: &run)
    {
      return
    }
    decodeOperatorValue(operation, &object, &patch, objectIndex: objectIndex, run: &run)
  }

  /// Maps the objects of a union (`rows.@unionOfObjects`) as the relationship's new children,
  /// where they are in the payload: a copy of them would hold every level below in a
  /// recursion (`Relationship("rows.@unionOfObjects", …, lazy: …)`). `false` when a value is
  /// not in the payload (an element of an array of arrays reached across an array).
  @inline(never)
  private func decodeUnionInPlace(
    _ operation: CollectionOperatorSource, _ object: inout Object, _ patch: inout Patch<Object>,
    objectIndex: Int, run: inout MappingRun
  ) -> Bool {
    guard inner.kind.mapsElementLists(in: run, withChecks: false) else { return false }
    let entries: [Int]?
    switch unionEntries(operation, objectIndex: objectIndex, run: &run) {
    case .notInPayload: return false
    case .failed: return true
    case .absent: entries = nil
    case .entries(let found): entries = found
    }
    let depth = run.path.count
    run.path += operation.pathComponents
    if let entries {
      inner.kind.decodeElements(
        ElementList(entries: entries, paths: nil), into: &object, &patch,
        objectIndex: objectIndex, run: &run)
    } else {
      decodeInner(&object, &patch, index: -1, run: &run)
    }
    run.path.truncate(to: depth)
    return true
  }

  /// The tape entries of a union's objects, read out of line: the operator's `Result` and its
  /// failure are larger than the entries, and ``decodeUnionInPlace(_:_:_:objectIndex:run:)``'s
  /// frame is repeated by every level of a recursion through the union.
  @inline(never)
  private func unionEntries(
    _ operation: CollectionOperatorSource, objectIndex: Int, run: inout MappingRun
  ) -> UnionEntries {
    switch operation.unionEntries(in: run.tape, from: objectIndex) {
    case nil: return .notInPayload
    case .failure(let failure)?:
      recordFailure(failure, of: operation, run: &run)
      return .failed
    case .success(nil)?: return .absent
    case .success(let entries?)?: return .entries(entries)
    }
  }

  /// The rule's step on a scratch tape holding the operator's value. The value is computed out
  /// of line (``operatorValue(_:objectIndex:run:)``), so its work takes no room in the frames
  /// the rule's step recurses under.
  @inline(never)
  private func decodeOperatorValue(
    _ operation: CollectionOperatorSource, _ object: inout Object, _ patch: inout Patch<Object>,
    objectIndex: Int, run: inout MappingRun
  ) {
    // The depth, not a copy of the path: a copy is as long as the recursion is deep.
    let depth = run.path.count
    guard let value = operatorValue(operation, objectIndex: objectIndex, run: &run) else {
      return
    }
    withScratchTape(holding: value, run: &run) { index, run in
      decodeInner(&object, &patch, index: index, run: &run)
    }
    run.path.truncate(to: depth)
  }

  /// The collection operator's value for the object at `objectIndex` (`.some(nil)` when
  /// absent), with the operator's path added to the run's; `nil`, with the error recorded,
  /// when the collection or its values do not fit.
  @inline(never)
  private func operatorValue(
    _ operation: CollectionOperatorSource, objectIndex: Int, run: inout MappingRun
  ) -> Node?? {
    switch operation.value(in: run.tape, from: objectIndex) {
    case .success(let value):
      run.path += operation.pathComponents
      return .some(value)
    case .failure(let failure):
      recordFailure(failure, of: operation, run: &run)
      return nil
    }
  }

  /// Records why `operation` could not be applied, at its path.
  @inline(never)
  private func recordFailure(
    _ failure: CollectionOperatorFailure, of operation: CollectionOperatorSource,
    run: inout MappingRun
  ) {
    if failure.isNumberOutOfRange {
      run.fail(
        .conversionFailed(
          expected: failure.expected, raw: failure.found.description,
          reason: "out of range for \(operation.operation.operator.rawValue)"),
        at: operation.pathComponents)
    } else {
      run.fail(
        .typeMismatch(expected: failure.expected, found: failure.found.kindDescription),
        at: operation.pathComponents)
    }
  }

  func sourceIsPresent(objectIndex: Int, run: inout MappingRun) -> Bool {
    if case .index = special { return run.collectionIndex != nil }
    if case .metadata(let keys) = special { return run.metadataValue(keys) != nil }
    if case .collection(let operation) = special {
      return operation.isPresent(in: run.tape, from: objectIndex)
    }
    return target(objectIndex: objectIndex, run: &run) >= 0
  }

  func payloadIdentity(objectIndex: Int, key: IdentityKey, run: inout MappingRun)
    -> PayloadIdentityRead
  {
    switch special {
    case .index, .metadata, .collection:
      // Read from a scratch tape: decoded into a scratch model.
      return .unsupported
    case .parent, .payload, .compound, .flatChild:
      let index = target(objectIndex: objectIndex, run: &run)
      guard index >= 0 else { return .value(nil) }
      return inner.payloadIdentity(objectIndex: index, key: key, run: &run)
    }
  }

  /// Runs `body` in a scratch run over a tape holding `value` (index `0`), its problems added
  /// to `run`'s; with `-1` in `run` itself when there is no value.
  ///
  /// `body` can recurse (a relationship reading a collection operator recurses once per level
  /// of nesting), so the frames it runs under hold no run: the scratch run is on the heap, made
  /// and taken in out of line (copies of a run, a few hundred bytes each, took 1.2 KB per level).
  @inline(never)
  private func withScratchTape(
    holding value: Node?, run: inout MappingRun, _ body: (Int, inout MappingRun) -> Void
  ) {
    guard let tape = Self.scratchTape(holding: value) else { return body(-1, &run) }
    tape.withView { view in
      let scratch = ScratchRun(of: &run, tape: view)
      body(0, &scratch.run)
      scratch.addProblems(to: &run)
    }
  }

  /// A tape holding `value`; `nil` for none (or a value no tape can hold).
  @inline(never)
  private static func scratchTape(holding value: Node?) -> _Tape? {
    guard let value else { return nil }
    return try? _Tape(node: value)
  }
}

extension SourcePath {
  /// The tape index this path of keys reaches from `index` (`index` itself for no keys); `-1`
  /// when absent.
  fileprivate func resolveAllowingEmpty(in tape: _UnsafeTapeView, from index: Int) -> Int {
    resolve(in: tape, from: index) ?? -1
  }
}

extension MappingRun {
  /// The tape index `path` reaches from the object at `index` (`-1` when absent) for a special
  /// source's `step`: `@parent.…` from the parent, `@payload.…` from the root. Every child of a
  /// parent, every object of a payload, reads the same member: in a large object it is found
  /// once per run (and document) and remembered, where a scan per child cost the parent's
  /// members times its children (64,000 children of a parent with 64,000 members: 4.5 s).
  mutating func target(of path: SourcePath, from index: Int, step: AnyObject) -> Int {
    guard tape[index].kind == .object, tape.count(at: index) > Self.scannedMembers else {
      return path.resolveAllowingEmpty(in: tape, from: index)
    }
    let key = SpecialTargetKey(step: ObjectIdentifier(step), object: index, document: document)
    if let known = specialTargets[key] { return known.found }
    let found = path.resolveAllowingEmpty(in: tape, from: index)
    // The entry keeps the step alive: a step freed during the run (a dynamic mapping's case
    // built per object) could leave its address to another, which would read this member.
    specialTargets[key] = (step, found)
    return found
  }

  /// The members of an object a special source's path is looked up in by a scan each time.
  static var scannedMembers: Int { 16 }

  /// The value `keys` reach in the call's metadata (``MappingOptions/metadata``), or `nil`: what
  /// an `@metadata.…` source reads, in a rule or in a dynamic mapping's matcher.
  func metadataValue(_ keys: [String]) -> Node? {
    var value = metadata
    for key in keys {
      guard let current = value else { return nil }
      if case .array = current, let position = Int(key) {
        value = current[position]
      } else {
        value = current[key]
      }
    }
    return value
  }
}

/// A scratch ``MappingRun`` on the heap (``SpecialSourceStep``'s scratch tapes): the frames a
/// recursion through a special source repeats per level hold a reference, not a run.
private final class ScratchRun {
  var run: MappingRun

  /// A scratch run of `outer` over `view`, at `outer`'s path and within its merges: the path
  /// and the call's instances are moved, not copied (a copy is as long as the recursion is
  /// deep, and appending to it copied it again), and moved back by ``addProblems(to:)``, so
  /// the objects mapped from the scratch tape share the call's identity map.
  @inline(never)
  init(of outer: inout MappingRun, tape view: _UnsafeTapeView) {
    run = outer.scratch(tape: view, errorLimit: outer.errors.limit)
    swap(&run.path, &outer.path)
    swap(&run.identityMap, &outer.identityMap)
  }

  /// Adds this run's problems to `outer`'s: its kept ones, then its omitted ones, counted; and
  /// gives `outer` its path and its instances back.
  @inline(never)
  func addProblems(to outer: inout MappingRun) {
    swap(&run.path, &outer.path)
    swap(&run.identityMap, &outer.identityMap)
    outer.errors += run.errors
    outer.diagnostics += run.diagnostics
  }
}

/// What ``SpecialSourceStep``'s in-place union found: a value that is not in the payload (mapped
/// from a copy instead), a failure (recorded), no collection, or the objects' tape entries.
private enum UnionEntries {
  case notInPayload
  case failed
  case absent
  case entries([Int])
}
