extension MappingProtocol {
  /// Maps a payload that is one object.
  ///
  /// - Parameter node: The payload as a document node.
  /// - Returns: The mapped object.
  /// - Throws: ``MappingErrors`` with every problem of the payload, each with its path.
  public func map(_ node: Node) throws(MappingErrors) -> Object {
    try _map(tape: _Tape.checked(node: node))
  }

  /// Maps a payload that is an array of objects (a single object maps as a one-element array).
  ///
  /// - Parameter node: The payload as a document node.
  /// - Returns: The mapped objects in payload order.
  /// - Throws: ``MappingErrors`` with every failing element's errors; its
  ///   ``MappingErrors/partialResult`` holds the valid elements (`[Object]`).
  public func mapCollection(_ node: Node) throws(MappingErrors) -> [Object] {
    try _mapCollection(tape: _Tape.checked(node: node))
  }

  func _map(tape: _Tape) throws(MappingErrors) -> Object {
    try tape.withView { view in _map(view: view) }.get()
  }

  func _map(view: _TapeView) -> Result<Object, MappingErrors> {
    do {
      try _plan.checkDefinition()
    } catch {
      return .failure(error)
    }
    var run = _MappingRun(tape: view)
    guard let object = _plan.decodeNew(at: 0, run: &run, declineIsAcceptable: false),
      run.errors.isEmpty
    else {
      return .failure(MappingErrors(run.errors))
    }
    return .success(object)
  }

  func _mapCollection(tape: _Tape) throws(MappingErrors) -> [Object] {
    try tape.withView { view in _mapCollection(view: view) }.get()
  }

  func _mapCollection(view tape: _TapeView) -> Result<[Object], MappingErrors> {
    _collect(view: tape).flatMap { collected in
      guard collected.errors.isEmpty else {
        return .failure(MappingErrors(collected.errors, partialResult: _partial(collected.objects)))
      }
      return .success(collected.objects)
    }
  }

  /// Maps every element of a collection payload, keeping the valid ones with the errors and
  /// diagnostics of the run; fails only when the payload is not a collection at all (or the
  /// definition is broken).
  func _collect(view tape: _TapeView) -> Result<_Collected<Object>, MappingErrors> {
    do {
      try _plan.checkDefinition()
    } catch {
      return .failure(error)
    }
    var run = _MappingRun(tape: tape)
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

/// What mapping a collection produced: the valid elements and the run's problems.
struct _Collected<Object> {
  var objects: [Object]
  var errors: [MappingError]
  var diagnostics: [MappingDiagnostic]
}

extension _Tape {
  /// A tape of `node`, with a failure reported as ``MappingErrors``.
  static func checked(node: Node) throws(MappingErrors) -> _Tape {
    do {
      return try _Tape(node: node)
    } catch {
      throw MappingErrors([error])
    }
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
public struct _UncheckedSendableBox<Value>: @unchecked Sendable {
  /// The boxed value.
  public let value: Value
  init(_ value: Value) { self.value = value }
}
