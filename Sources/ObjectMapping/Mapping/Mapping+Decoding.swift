extension MappingProtocol {
  func _map(tape: _Tape) throws(MappingErrors) -> Object {
    try tape.withView { view in _map(view: view) }.get()
  }

  func _map(view: _TapeView, with settings: MappingOptions = .none) -> Result<
    Object, MappingErrors
  > {
    do {
      try _plan.checkDefinition()
    } catch {
      return .failure(error)
    }
    var run = _MappingRun(tape: view, root: _plan, options: settings)
    guard let object = _plan.decodeNew(at: 0, run: &run, declineIsAcceptable: false),
      run.errors.isEmpty
    else {
      return .failure(MappingErrors(run.errors))
    }
    if _plan.mapsNothing(at: 0, run: &run) { return .failure(MappingErrors(run.errors)) }
    return .success(object)
  }

  func _mapCollection(tape: _Tape) throws(MappingErrors) -> [Object] {
    try tape.withView { view in _mapCollection(view: view) }.get()
  }

  func _mapCollection(view tape: _TapeView) -> Result<[Object], MappingErrors> {
    _collect(view: tape).flatMap(\.allOrNothing)
  }

  /// Maps every element of a collection payload, keeping the valid ones with the errors and
  /// diagnostics of the run; fails only when the payload is not a collection at all (or the
  /// definition is broken).
  func _collect(view tape: _TapeView, with settings: MappingOptions = .none) -> Result<
    _Collected<Object>, MappingErrors
  > {
    do {
      try _plan.checkDefinition()
    } catch {
      return .failure(error)
    }
    var run = _MappingRun(tape: tape, root: _plan, options: settings)
    let root = tape[0]
    var objects: [Object] = []
    if root.kind == .object, let keyRule = _plan.keyRule {
      objects = _plan.decodeKeyedCollection(at: 0, keyRule: keyRule, run: &run)
    } else if root.kind == .object {
      _plan.decodeNew(at: 0, run: &run) { object in objects.append(consume object) }
    } else if root.kind == .array {
      objects.reserveCapacity(Int(root.length))
      _adviseHugePages(for: &objects)
      var cursor = 1
      for offset in 0..<Int(root.length) {
        run.path.append(.index(offset))
        _plan.decodeNew(at: cursor, run: &run) { object in objects.append(consume object) }
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
    return .success(_Collected(objects: objects, errors: run.errors, diagnostics: run.diagnostics))
  }
}

extension MappingProtocol {
  /// ``_collect(view:)`` for JSON bytes. A top-level array is scanned and mapped an element at
  /// a time, so the scanned index never holds more than one element: decoding a large array
  /// needs no index the size of the payload (a 289 MB array of 1M articles peaked at 1.28 GB with
  /// a whole index, 0.8 GB without), and what the index holds stays in the processor's caches.
  /// Anything else, and a mapping that reads ``SourcePath/payload`` (found on first use), reads
  /// a whole index.
  func _collect(
    json text: _JSONText, options: JSONReadingOptions, with settings: MappingOptions = .none
  ) -> Result<_Collected<Object>, MappingErrors> {
    if let streamed = _collectElements(json: text, options: options, with: settings) {
      return streamed
    }
    do throws(FormatError) {
      return try text.scan(options: options) { _collect(view: $0, with: settings) }
    } catch {
      return .failure(MappingErrors([MappingError(error)]))
    }
  }

  /// The elements of a top-level array mapped as they are scanned; `nil` when the payload (or
  /// the mapping) needs the whole index.
  private func _collectElements(
    json text: _JSONText, options: JSONReadingOptions, with settings: MappingOptions
  ) -> Result<_Collected<Object>, MappingErrors>? {
    // A broken definition is reported after the payload is read, as by the other entry points.
    guard (try? _plan.checkDefinition()) != nil else { return nil }
    let plan = _plan
    var objects: [Object] = []
    // The run reads each element's entries in turn (set before each element is mapped).
    var run = _MappingRun(tape: .empty, root: plan, options: settings)
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
        plan.decodeNew(at: 0, run: &run) { object in objects.append(consume object) }
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
      return .success(
        _Collected(objects: objects, errors: run.errors, diagnostics: run.diagnostics))
    }
  }
}

/// What mapping a collection produced: the valid elements and the run's problems.
struct _Collected<Object> {
  var objects: [Object]
  var errors: CappedList<MappingError>
  var diagnostics: CappedList<MappingDiagnostic>

  /// The objects when every element mapped; else every error, with the valid elements as
  /// partial results.
  var allOrNothing: Result<[Object], MappingErrors> {
    guard errors.isEmpty else {
      return .failure(MappingErrors(errors, partialResult: _partial(objects)))
    }
    return .success(objects)
  }
}

/// Wraps partial results for ``MappingErrors/partialResult``.
///
/// Model types need not be `Sendable`; the partial result is handed to the caller that made
/// the objects and is never shared by the library, so it is boxed as sendable.
func _partial<T>(_ value: T) -> (any Sendable)? {
  _UncheckedSendableBox(value)
}

/// A box for values the library hands back to the one caller that created them.
///
/// `@unchecked Sendable` is sound here: the box is created on the caller's task, holds values
/// only that caller's mapping run produced, and the library keeps no reference to it.
struct _UncheckedSendableBox<Value>: @unchecked Sendable {
  /// The boxed value.
  let value: Value
  init(_ value: Value) { self.value = value }
}

extension _MappingPlan {
  /// Whether the object at `index` has members but no rule of this plan reads any of them
  /// (RestKit's "unmappable representation": `{"favorite_color": "blue"}` for a user mapping,
  /// usually the wrong mapping or the wrong key path); records the error when it is. An empty
  /// object, and dynamic and nested-key mappings, are never unmappable.
  func mapsNothing(at index: Int, run: inout _MappingRun) -> Bool {
    if hasKeyVariants, run.hasKeyConvention {
      return keyed(in: run).mapsNothing(at: index, run: &run)
    }
    let entry = run.tape[index]
    guard !allowsUnmappable, dynamic == nil, keyRule == nil, entry.kind == .object,
      entry.length > 0,
      !steps.contains(where: { $0.sourceIsPresent(objectIndex: index, run: &run) })
    else { return false }
    run.fail(.unmappableRepresentation(keys: run.tape.memberKeys(of: index)))
    return true
  }
}
