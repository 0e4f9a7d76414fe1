/// A value a route's key path reached: its tape index and path components.
private struct _Reached {
  var index: Int
  var path: [_PathComponent]
}

extension Mapper {
  /// Applies every route to the scanned payload with the call's `options`, mapping onto
  /// `target` when a route can take it.
  func _map(view tape: _TapeView, target: Any? = nil, options: MappingOptions) -> MappingResult {
    var run = _MappingRun(tape: tape)
    var target = target
    if isTracing { run.trace = [] }
    for error in provider.definitionErrors { run.errors.append(error) }
    var entries: [MappingResult.Entry] = []
    let root = tape[0]
    if (root.kind == .object || root.kind == .array) && root.length == 0 {
      // An empty payload is success with no objects (RestKit): there is nothing to map.
      return MappingResult(entries: [], run: run)
    }
    var anyFound = false
    for route in provider.routes {
      guard let keyPath = route.keyPath else { continue }
      var reached: [_Reached] = []
      let crossed = _resolve(route.keys[...], at: 0, path: [], tape: tape, into: &reached)
      guard !reached.isEmpty else { continue }
      anyFound = true
      // Each route's mapping is a root of the call: the call's options over its own settings.
      run.startCall(root: route.mapping, options: options)
      var objects: [Any] = []
      var isCollection = crossed
      var singleFailed = false
      for value in reached {
        run.path = value.path
        run.traceEvent(.routeMatched(keyPath: keyPath))
        if let current = target, mapsSingleElementArraysOntoTarget, !crossed, reached.count == 1,
          tape[value.index].kind == .array, tape[value.index].length == 1,
          tape[value.index + 1].kind == .object
        {
          // The one element of a single-element array is offered to the target (opt-in); a
          // target of another type leaves the array a collection.
          run.path.append(.index(0))
          let outcome = route.decodeOnto(value.index + 1, &run, current)
          if !outcome.isWrongType {
            target = nil
            if case .mapped(let updated) = outcome {
              objects.append(updated)
            } else {
              singleFailed = true
            }
            continue
          }
          run.path = value.path
        }
        if tape[value.index].kind == .array {
          isCollection = true
          _mapElements(of: value.index, route: route, run: &run, into: &objects)
        } else if let decodeMembers = route.decodeMembers, tape[value.index].kind == .object {
          // A nested-key mapping at a route maps the object's members as a collection
          // (`{"users": {"blake": {...}, "rachit": {...}}}`), one object per key.
          isCollection = true
          objects += decodeMembers(value.index, &run)
        } else if crossed {
          _mapElement(at: value.index, route: route, run: &run, into: &objects)
        } else if let current = target,
          case let outcome = route.decodeOnto(value.index, &run, current),
          !outcome.isWrongType
        {
          target = nil
          if case .mapped(let updated) = outcome {
            objects.append(updated)
          } else {
            singleFailed = true
          }
        } else if let object = route.decode(value.index, &run) {
          objects.append(object)
        } else {
          singleFailed = true
        }
      }
      run.path = []
      if !singleFailed {
        entries.append(
          MappingResult.Entry(
            keyPath: keyPath, routeName: route.name, objects: objects,
            isCollection: isCollection, sendable: route.sendable))
      }
    }
    if let target {
      run.path = []
      let reason = "no single object of type \(type(of: target)) was reached by a route"
      run.note(.targetIgnored(reason: reason))
      run.traceEvent(.targetIgnored(reason: reason))
    }
    if !anyFound {
      let searched = provider.routes.compactMap(\.keyPath)
      var keys: [String]?
      if root.kind == .object {
        var names: [String] = []
        var cursor = 1
        for _ in 0..<root.length {
          names.append(tape.string(at: cursor))
          cursor = tape.next(after: cursor + 1)
        }
        keys = names
      }
      run.fail(.nothingFound(searched: searched, topLevelKeys: keys))
    }
    return MappingResult(entries: entries, run: run)
  }

  /// Maps each element of the array at `index` (its path is `run.path`); `null` elements are
  /// skipped with a diagnostic.
  private func _mapElements(
    of index: Int, route: Route, run: inout _MappingRun, into objects: inout [Any]
  ) {
    let tape = run.tape
    let count = Int(tape[index].length)
    objects.reserveCapacity(objects.count + count)
    var cursor = index + 1
    for offset in 0..<count {
      run.path.append(.index(offset))
      _mapElement(at: cursor, route: route, run: &run, into: &objects)
      run.path.removeLast()
      cursor = tape.next(after: cursor)
    }
  }

  /// Maps one element of a collection at `run.path`: `null` is skipped, a failure leaves the
  /// element out with its errors, a decline is left to the mapping's own diagnostic.
  private func _mapElement(
    at index: Int, route: Route, run: inout _MappingRun, into objects: inout [Any]
  ) {
    if run.tape[index].kind == .null {
      run.note(.skippedElement(reason: "it is null"))
      return
    }
    let before = run.errors.count
    if let object = route.decode(index, &run) {
      objects.append(object)
    } else if run.errors.count > before {
      run.note(.skippedElement(reason: "it did not map (see the errors at this path)"))
    }
  }
}

/// Walks `keys` from the value at `index`, fanning out over arrays; appends every non-null value
/// reached to `reached`. Returns whether the walk crossed an array.
private func _resolve(
  _ keys: ArraySlice<[UInt8]>, at index: Int, path: [_PathComponent], tape: _TapeView,
  into reached: inout [_Reached]
) -> Bool {
  let entry = tape[index]
  guard let key = keys.first else {
    if entry.kind != .null { reached.append(_Reached(index: index, path: path)) }
    return false
  }
  switch entry.kind {
  case .object:
    let found = tape.member(of: index, named: key)
    guard let found else { return false }
    let name = String(decoding: key, as: UTF8.self)
    return _resolve(
      keys.dropFirst(), at: found, path: path + [.key(name)], tape: tape, into: &reached)
  case .array:
    var cursor = index + 1
    for offset in 0..<Int(entry.length) {
      _ = _resolve(keys, at: cursor, path: path + [.index(offset)], tape: tape, into: &reached)
      cursor = tape.next(after: cursor)
    }
    return true
  default:
    return false
  }
}
