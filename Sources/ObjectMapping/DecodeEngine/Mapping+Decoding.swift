extension MappingProtocol {
  func mapResult(view: _UnsafeTapeView, with settings: MappingOptions = .none) -> Result<
    Object, MappingErrors
  > {
    do {
      try _plan.checkDefinition()
    } catch {
      return .failure(error)
    }
    var run = MappingRun(tape: view, root: _plan, options: settings)
    // The object's own errors first (a required key missing names its path); an object that
    // mapped without error but with none of the keys the mapping reads is unmappable.
    guard let object = _plan.decodeNew(at: 0, run: &run, declineIsAcceptable: false),
      run.errors.isEmpty, !_plan.failsUnmappable(at: 0, run: &run)
    else {
      return .failure(MappingErrors(run.errors))
    }
    run.applyMerges()
    return .success(object)
  }

  func mapAllElements(tape: _Tape) throws(MappingErrors) -> [Object] {
    try tape.withView { view in mapAllElements(view: view) }.get()
  }

  func mapAllElements(view tape: _UnsafeTapeView) -> Result<[Object], MappingErrors> {
    collectValid(view: tape).flatMap(\.allOrNothing)
  }

  /// Maps every element of a collection payload, keeping the valid ones with the errors and
  /// diagnostics of the run; fails only when the payload is not a collection at all (or the
  /// definition is broken).
  func collectValid(view tape: _UnsafeTapeView, with settings: MappingOptions = .none) -> Result<
    Collected<Object>, MappingErrors
  > {
    do {
      try _plan.checkDefinition()
    } catch {
      return .failure(error)
    }
    var run = MappingRun(tape: tape, root: _plan, options: settings)
    let root = tape[0]
    var objects: [Object] = []
    if root.kind == .object, let keyRule = _plan.keyRule {
      objects = _plan.decodeKeyedCollection(at: 0, keyRule: keyRule, run: &run)
    } else if root.kind == .object {
      _plan.collectElement(at: 0, into: &objects, run: &run)
    } else if root.kind == .array {
      objects.reserveCapacity(Int(root.length))
      _adviseHugePages(for: &objects)
      var cursor = 1
      for offset in 0..<Int(root.length) {
        run.path.append(.index(offset))
        _plan.collectElement(at: cursor, into: &objects, run: &run)
        run.path.removeLast()
        cursor = tape.next(after: cursor)
      }
    } else {
      return .failure(
        MappingErrors([
          MappingError(
            .typeMismatch(expected: "an array of objects", found: run.foundDescription(at: 0)))
        ]))
    }
    run.applyMerges()
    return .success(Collected(objects: objects, errors: run.errors, diagnostics: run.diagnostics))
  }
}

extension MappingProtocol {
  /// ``collectValid(view:)`` for JSON bytes. A top-level array is scanned and mapped an element at
  /// a time, so the scanned index never holds more than one element: decoding a large array
  /// needs no index the size of the payload (a 289 MB array of 1M articles peaked at 1.28 GB with
  /// a whole index, 0.8 GB without), and what the index holds stays in the processor's caches.
  /// Anything else, and a mapping that reads ``SourcePath/payload`` (found on first use), reads
  /// a whole index.
  func collectValid(
    json text: _JSONText, options: JSONReadingOptions, with settings: MappingOptions = .none
  ) -> Result<Collected<Object>, MappingErrors> {
    if let streamed = collectElements(json: text, options: options, with: settings) {
      return streamed
    }
    do throws(FormatError) {
      return try text.scan(options: options) { collectValid(view: $0, with: settings) }
    } catch {
      return .failure(MappingErrors([MappingError(error)]))
    }
  }

  /// The elements of a top-level array mapped as they are scanned; `nil` when the payload (or
  /// the mapping) needs the whole index.
  private func collectElements(
    json text: _JSONText, options: JSONReadingOptions, with settings: MappingOptions
  ) -> Result<Collected<Object>, MappingErrors>? {
    // A broken definition is reported after the payload is read, as by the other entry points.
    guard (try? _plan.checkDefinition()) != nil else { return nil }
    let plan = _plan
    var objects: [Object] = []
    // The run reads each element's entries in turn (set before each element is mapped).
    var run = MappingRun(tape: .empty, root: plan, options: settings)
    run.readsElementsAlone = true
    let outcome: _JSONScanner.ElementScan
    do throws(FormatError) {
      outcome = try text.scanElements(options: options) { offset, element, end, total in
        if offset == 0 {
          // One element's size tells how many there are, roughly: enough room for them is
          // reserved (address space: pages never written are never resident), capped so that
          // a small first element cannot reserve more than four times the payload.
          let estimate = total / Swift.max(end, 1) * 5 / 4 + 16
          let cap = Swift.max(16, total * 4 / Swift.max(MemoryLayout<Object>.stride, 1))
          objects.reserveCapacity(Swift.min(estimate, cap))
          _adviseHugePages(for: &objects)
        }
        run.read(element)
        run.path.append(.index(offset))
        plan.collectElement(at: 0, into: &objects, run: &run)
        run.path.removeLast()
        return !run.needsWholePayload
      }
    } catch {
      return .failure(MappingErrors([MappingError(error)]))
    }
    switch outcome {
    case .notAnArray, .stopped:
      return nil
    case .finished:
      run.applyMerges()
      return .success(
        Collected(objects: objects, errors: run.errors, diagnostics: run.diagnostics))
    }
  }
}

/// What mapping a collection produced: the valid elements and the run's problems.
struct Collected<Object> {
  var objects: [Object]
  var errors: CappedList<MappingError>
  var diagnostics: CappedList<MappingDiagnostic>

  /// The objects when every element mapped; else every error, without the valid elements: a
  /// model that is not `Sendable` cannot travel in an error, which is (see
  /// ``allOrNothingKeepingPartialResult``).
  var allOrNothing: Result<[Object], MappingErrors> {
    guard errors.isEmpty else { return .failure(MappingErrors(errors)) }
    return .success(objects)
  }
}

extension Collected where Object: Sendable {
  /// The objects when every element mapped; else every error, with the valid elements as the
  /// partial result (``MappingErrors/partialResult``): the compiler checks that they may travel
  /// with the error to another task.
  var allOrNothingKeepingPartialResult: Result<[Object], MappingErrors> {
    guard errors.isEmpty else {
      return .failure(MappingErrors(errors, partialResult: objects))
    }
    return .success(objects)
  }
}

extension _MappingPlan {
  /// Whether the object at `index` is an unmappable representation (RestKit's error 1003):
  /// the mapping has rules that read payload keys, and the object has none of the keys they
  /// read (`{"favorite_color": "blue"}` or `{}` for a user mapping: usually the wrong mapping
  /// or the wrong key path).
  ///
  /// Never for a value that is not an object (the steps report that), for dynamic and
  /// nested-key mappings (their case or key decides), for a mapping whose rules read no key
  /// (none, only conditional rules left out of this build, only ``SourcePath/root`` or other
  /// special sources: it maps any object to its initial value), or when the run allows
  /// unmappable representations (``MappingOptions/allowsUnmappableRepresentation``). Rules
  /// outside the run's groups do not count.
  ///
  /// Only the objects a call maps at its top (``MappingProtocol/map(_:with:)``,
  /// `map(_:onto:)`, each element of `mapCollection`, each object a ``Mapper`` route reaches),
  /// after they mapped without error (a required key missing is reported as such), and the
  /// elements of to-many relationships that drop failed children, before they are mapped,
  /// are checked: a nested child is part of an object that mapped.
  func isUnmappable(at index: Int, run: inout MappingRun) -> Bool {
    if hasKeyVariants, run.hasKeyConvention {
      return keyed(in: run).isUnmappable(at: index, run: &run)
    }
    guard !allowsUnmappable(in: run) else { return false }
    return readsNoKey(at: index, run: &run)
  }

  /// Whether the object at `index` has none of the keys this mapping's rules read (see
  /// ``isUnmappable(at:run:)``), whether or not the run allows unmappable representations.
  func readsNoKey(at index: Int, run: inout MappingRun) -> Bool {
    if hasKeyVariants, run.hasKeyConvention {
      return keyed(in: run).readsNoKey(at: index, run: &run)
    }
    guard isPlain, !keyReadingSteps.isEmpty, run.tape[index].kind == .object else {
      return false
    }
    // The values are read (``DecodeStep/sourceIsFound(objectIndex:run:)``) with this plan's own
    // settings, as its steps read them: the call's are the parent's for a child.
    let inherited = hasSettings ? run.enterSettings(of: self) : nil
    defer { if let inherited { run.context = inherited } }
    var anyApplies = false
    for step in keyReadingSteps where step.applies(in: run) {
      if step.sourceIsFound(objectIndex: index, run: &run) { return false }
      anyApplies = true
    }
    return anyApplies
  }

  /// Maps the element at `index` of a collection payload into `objects`; an element that
  /// maps without error but is an unmappable representation is an error instead.
  @inline(__always)
  func collectElement(at index: Int, into objects: inout [Object], run: inout MappingRun) {
    let count = objects.count
    let mark = run.mergeMark
    decodeNew(at: index, run: &run) { object in objects.append(consume object) }
    if objects.count > count, failsUnmappable(at: index, run: &run) { objects.removeLast() }
    // A failed element's writes into the call's instances are forgotten with it.
    if objects.count == count { run.rollBackMerges(to: mark) }
  }

  /// ``isUnmappable(at:run:)``, recording the ``MappingError/Kind/unmappableRepresentation(keys:)``
  /// error at the current path when it is.
  func failsUnmappable(at index: Int, run: inout MappingRun) -> Bool {
    guard isUnmappable(at: index, run: &run) else { return false }
    // Past the run's error limit the error is only counted: its keys are not read.
    guard run.errors.keepsNext else {
      run.errors.countOmitted(1)
      return true
    }
    run.fail(.unmappableRepresentation(keys: run.tape.memberKeys(of: index)))
    return true
  }

  /// ``isUnmappable(at:run:)``, recording a ``MappingDiagnostic/Kind/unmappableRepresentation(keys:)``
  /// diagnostic at the current path when it is: the object is dropped (a ``Mapper``'s route, a
  /// to-many relationship that drops failed children).
  func dropsUnmappable(at index: Int, run: inout MappingRun) -> Bool {
    guard isUnmappable(at: index, run: &run) else { return false }
    // Past the run's diagnostic limit the diagnostic is only counted: its keys are not read.
    guard run.diagnostics.keepsNext else {
      run.diagnostics.countOmitted(1)
      return true
    }
    run.note(.unmappableRepresentation(keys: run.tape.memberKeys(of: index)))
    return true
  }

  /// Whether this mapping's objects may be unmappable representations in `run`: its own
  /// setting when it has one (unless it is the call's root, where the call's options decided),
  /// else the inherited one.
  func allowsUnmappable(in run: borrowing MappingRun) -> Bool {
    guard settingsID != run.rootPlan, let own = settings.allowsUnmappableRepresentation else {
      return run.context.allowsUnmappable
    }
    return own
  }
}

extension MappingProtocol where Object: Sendable {
  /// ``mapAllElements(tape:)`` keeping the valid elements as the error's partial result, as
  /// `mapCollection` does for a `Sendable` model.
  func mapAllElements(tape: _Tape) throws(MappingErrors) -> [Object] {
    try tape.withView { view in collectValid(view: view).flatMap(\.allOrNothingKeepingPartialResult)
    }
    .get()
  }
}
