/// What a special source reads, resolved per object by ``SpecialSourceStep``.
enum SpecialSource {
  /// The parent object's representation, then `keys` inside it.
  case parent(keys: [String])
  /// The whole payload, then `keys` inside it.
  case payload(keys: [String])
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
    case .parent(let keys): self = .parent(keys: keys)
    case .payload(let keys): self = .payload(keys: keys)
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
    case .parent(let keys):
      guard run.parentIndex >= 0 else { return -1 }
      return SourcePath(keys: keys).resolveAllowingEmpty(in: run.tape, from: run.parentIndex)
    case .payload(let keys):
      guard !run.readsElementsAlone else {
        run.needsWholePayload = true
        return -1
      }
      return SourcePath(keys: keys).resolveAllowingEmpty(in: run.tape, from: 0)
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
    if case .index = special {
      return withIndexTape(run: &run) { index, run in
        var innerHint = _MemberHint(object: max(index, 0))
        inner.decode(&object, &patch, objectIndex: index, hint: &innerHint, run: &run)
      }
    }
    if case .metadata(let keys) = special {
      return withMetadataTape(keys: keys, run: &run) { index, run in
        var innerHint = _MemberHint(object: max(index, 0))
        inner.decode(&object, &patch, objectIndex: index, hint: &innerHint, run: &run)
      }
    }
    if case .collection(let operation) = special {
      let value: Node?
      switch operation.value(in: run.tape, from: objectIndex) {
      case .success(let computed): value = computed
      case .failure(let failure):
        return run.fail(
          .typeMismatch(expected: failure.expected, found: failure.found.kindDescription),
          at: operation.pathComponents)
      }
      // The rule's problems are reported at its own path (`/comments/@count`).
      let outerPath = run.path
      run.path += operation.pathComponents
      withScratchTape(holding: value, run: &run) { index, run in
        var innerHint = _MemberHint(object: max(index, 0))
        inner.decode(&object, &patch, objectIndex: index, hint: &innerHint, run: &run)
      }
      run.path = outerPath
      return
    }
    let index = self.target(objectIndex: objectIndex, run: &run)
    var innerHint = _MemberHint(object: max(index, 0))
    inner.decode(&object, &patch, objectIndex: index, hint: &innerHint, run: &run)
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

  /// Runs `body` in a run over a tape holding the metadata value `keys` reach (index `0`), or
  /// with `-1` in the current run when there is none.
  private func withMetadataTape(
    keys: [String], run: inout MappingRun, _ body: (Int, inout MappingRun) -> Void
  ) {
    withScratchTape(holding: run.metadataValue(keys), run: &run, body)
  }

  /// Runs `body` in a run over a one-value tape holding the collection index (index `0`), or
  /// with `-1` in the current run when there is no index.
  private func withIndexTape(
    run: inout MappingRun, _ body: (Int, inout MappingRun) -> Void
  ) {
    withScratchTape(holding: run.collectionIndex.map { .integer(Int64($0)) }, run: &run, body)
  }

  /// Runs `body` in a scratch run over a tape holding `value` (index `0`), its problems added
  /// to `run`'s; with `-1` in `run` itself when there is no value.
  private func withScratchTape(
    holding value: Node?, run: inout MappingRun, _ body: (Int, inout MappingRun) -> Void
  ) {
    guard let value, let tape = try? _Tape(node: value) else { return body(-1, &run) }
    tape.withView { view in
      var scratch = run.scratch(tape: view, errorLimit: run.errors.limit)
      scratch.path = run.path
      body(0, &scratch)
      run.errors += scratch.errors
      run.diagnostics += scratch.diagnostics
    }
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
