/// A value a route's key path reached: its tape index and path components.
private struct Reached {
  var index: Int
  var path: [_PathComponent]
}

extension Mapper {
  /// The call's `metadata` with RestKit's `mapping.rootKeyPath` for a route: the key path the
  /// route matched (`null` for the whole payload), shadowing a `mapping.rootKeyPath` of the
  /// caller's own. Metadata that is not an object is left as it is (there is no key to add).
  package static func metadata(_ metadata: Node?, rootKeyPath: String) -> Node? {
    switch metadata {
    case nil, .object?: break
    default: return metadata
    }
    let keyPath: Node = rootKeyPath.isEmpty ? .null : .string(rootKeyPath)
    return MappingOptions.metadata(["mapping": ["rootKeyPath": keyPath]], over: metadata)
  }

  /// Applies every route to the scanned payload with the call's `options` (over the mapper's
  /// own), mapping onto `target` when a route can take it.
  func mapResult(view tape: _UnsafeTapeView, target: Any? = nil, options: MappingOptions)
    -> MappingResult
  {
    let options = options.overriding(self.options)
    var run = MappingRun(tape: tape, errorLimit: options.resolvedErrorLimit)
    var target = target
    if isTracing { run.trace = [] }
    for error in provider.definitionErrors { run.errors.append(error) }
    var entries: [MappingResult.Entry] = []
    let root = tape[0]
    if (root.kind == .object || root.kind == .array) && root.length == 0 {
      // An empty payload is success with no objects (RestKit): there is nothing to map.
      return MappingResult(entries: [], run: run)
    }
    // Every route's values first: which one takes the target is known before any is mapped.
    var routes: [(route: Route, keyPath: String, reached: [Reached], crossed: Bool)] = []
    for route in provider.routes {
      guard let keyPath = route.keyPath else { continue }
      var reached: [Reached] = []
      let crossed = resolveFanningOut(route.keys[...], at: 0, path: [], tape: tape, into: &reached)
      if !reached.isEmpty { routes.append((route, keyPath, reached, crossed)) }
    }
    // A target no route's single object can take, while a single object is reached and yours
    // is the only key path: a type mismatch at that object (RestKit's error 1002), which is not
    // mapped into a fresh object instead. With several key paths, RestKit mapped every object
    // fresh: the target is ignored (a diagnostic). Collections never take a target.
    var mismatched: Int?
    if let current = target, provider.userKeyPathCount == 1 {
      // Error routes never take a target (RestKit mapped error payloads without it).
      let offered = routes.indices.filter { position in
        !routes[position].route.isErrorRoute
          && offersTarget(routes[position].reached, crossed: routes[position].crossed, tape: tape)
      }
      if !offered.contains(where: { routes[$0].route.acceptsTarget(current) }) {
        mismatched = offered.first { position in
          let value = routes[position].reached[0]
          return tape[value.index].kind != .array
            && (routes[position].route.decodeMembers == nil || tape[value.index].kind != .object)
        }
      }
    }
    var anyContent = false
    for (position, (route, keyPath, reached, crossed)) in routes.enumerated() {
      // Each route's mapping is a root of the call: the call's options over its own settings.
      run.startCall(root: route.mapping, options: options)
      run.metadata = Self.metadata(options.metadata, rootKeyPath: keyPath)
      var objects: [Any] = []
      var isCollection = crossed
      var singleFailed = false
      // The objects the route offered its mapping, and those dropped as unmappable: a route
      // all of whose objects were unmappable found no mappable content.
      var offeredObjects = 0
      var unmappable = 0
      for value in reached {
        run.path = value.path
        run.traceEvent(.routeMatched(keyPath: keyPath))
        if position == mismatched, let current = target {
          target = nil
          singleFailed = true
          offeredObjects += 1
          run.fail(
            .typeMismatch(
              expected: "a target of type \(route.typeName)",
              found: "a target of type \(type(of: current))"))
          continue
        }
        if let current = target, mapsSingleElementArraysOntoTarget, !crossed, reached.count == 1,
          tape[value.index].kind == .array, tape[value.index].length == 1,
          tape[value.index + 1].kind == .object, route.acceptsTarget(current)
        {
          // The one element of a single-element array is offered to the target (opt-in); a
          // target of another type leaves the array a collection.
          target = nil
          offeredObjects += 1
          run.path.append(.index(0))
          switch route.decodeOnto(value.index + 1, &run, current) {
          case .mapped(let updated): objects.append(updated)
          case .unmappable:
            unmappable += 1
            singleFailed = true
          case .failed, .wrongType: singleFailed = true
          }
          continue
        }
        if tape[value.index].kind == .array {
          isCollection = true
          mapElements(
            of: value.index, route: route, run: &run, into: &objects, offered: &offeredObjects,
            unmappable: &unmappable)
        } else if let decodeMembers = route.decodeMembers, tape[value.index].kind == .object {
          // A nested-key mapping at a route maps the object's members as a collection
          // (`{"users": {"blake": {...}, "rachit": {...}}}`), one object per key.
          isCollection = true
          objects += decodeMembers(value.index, &run)
        } else if crossed {
          // Its index is its position in the crossed array (RestKit's fanned-out array).
          for case .index(let index) in value.path.reversed() {
            run.fannedOutIndex = index
            run.fannedOutDepth = value.path.count
            break
          }
          mapRoutedElement(
            at: value.index, route: route, run: &run, into: &objects, offered: &offeredObjects,
            unmappable: &unmappable)
          run.fannedOutDepth = -1
        } else if let current = target,
          case let outcome = route.decodeOnto(value.index, &run, current),
          !outcome.isWrongType
        {
          target = nil
          offeredObjects += 1
          switch outcome {
          case .mapped(let updated): objects.append(updated)
          case .unmappable:
            // Dropped with a diagnostic, the target unchanged.
            unmappable += 1
            singleFailed = true
          case .failed, .wrongType: singleFailed = true
          }
        } else {
          offeredObjects += 1
          let before = run.errors.count
          switch decodeRouted(at: value.index, route: route, inCollection: false, run: &run) {
          case .mapped(let object): objects.append(object)
          case .unmappable:
            unmappable += 1
            singleFailed = true
          case .failed, .wrongType:
            singleFailed = true
            if route.isErrorRoute, run.errors.count > before {
              run.dropErrors(since: before)
              unmappable += 1
            }
          }
        }
      }
      run.path = []
      if offeredObjects == 0 || unmappable < offeredObjects { anyContent = true }
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
    // Nothing mappable anywhere: an error listing where the routes looked.
    if !anyContent {
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
      run.path = []
      run.fail(.nothingFound(searched: provider.searchedKeyPaths, topLevelKeys: keys))
    }
    run.applyMerges()
    return MappingResult(entries: entries, run: run)
  }

  /// Whether a route that reached `reached` offers a target object its single object: one
  /// value, not across an array, not an array (unless it holds one object and the mapper
  /// maps single-element arrays onto targets).
  private func offersTarget(_ reached: [Reached], crossed: Bool, tape: _UnsafeTapeView) -> Bool {
    guard !crossed, reached.count == 1, let value = reached.first else { return false }
    let entry = tape[value.index]
    if entry.kind == .array {
      return mapsSingleElementArraysOntoTarget && entry.length == 1
        && tape[value.index + 1].kind == .object
    }
    return true
  }

  /// Maps each element of the array at `index` (its path is `run.path`); `null` elements are
  /// skipped with a diagnostic.
  private func mapElements(
    of index: Int, route: Route, run: inout MappingRun, into objects: inout [Any],
    offered: inout Int, unmappable: inout Int
  ) {
    let tape = run.tape
    let count = Int(tape[index].length)
    objects.reserveCapacity(objects.count + count)
    var cursor = index + 1
    for offset in 0..<count {
      run.path.append(.index(offset))
      mapRoutedElement(
        at: cursor, route: route, run: &run, into: &objects, offered: &offered,
        unmappable: &unmappable)
      run.path.removeLast()
      cursor = tape.next(after: cursor)
    }
  }

  /// Maps one element of a collection at `run.path`: `null` is skipped, an unmappable object
  /// is dropped with a diagnostic, a failure leaves the element out with its errors, a decline
  /// is left to the mapping's own diagnostic. Counts the elements offered to the mapping and
  /// those dropped as unmappable.
  private func mapRoutedElement(
    at index: Int, route: Route, run: inout MappingRun, into objects: inout [Any],
    offered: inout Int, unmappable: inout Int
  ) {
    if run.tape[index].kind == .null {
      run.note(.skippedElement(reason: "it is null"))
      return
    }
    offered += 1
    let before = run.errors.count
    switch decodeRouted(at: index, route: route, inCollection: true, run: &run) {
    case .mapped(let object): objects.append(object)
    case .unmappable: unmappable += 1
    case .failed, .wrongType:
      if run.errors.count > before {
        if route.isErrorRoute {
          run.dropErrors(since: before)
          unmappable += 1
        } else {
          run.note(.skippedElement(reason: "it did not map (see the errors at this path)"))
        }
      }
    }
  }

  /// Maps the value at `index` into a new object of the route's mapping: `.unmappable` (with
  /// a diagnostic) when it mapped without error but is an unmappable representation.
  private func decodeRouted(
    at index: Int, route: Route, inCollection: Bool, run: inout MappingRun
  ) -> TargetOutcome {
    let before = run.errors.count
    let mark = run.mergeMark
    guard let object = route.decode(index, &run, inCollection) else {
      // A failed object's writes into the call's instances are forgotten with it.
      run.rollBackMerges(to: mark)
      return .failed
    }
    guard run.errors.count > before || !route.dropsUnmappable(index, &run) else {
      run.rollBackMerges(to: mark)
      return .unmappable
    }
    if run.errors.count > before { run.rollBackMerges(to: mark) }
    return .mapped(object)
  }
}

/// Walks `keys` from the value at `index`, fanning out over arrays; appends every non-null value
/// reached to `reached`. Returns whether the walk crossed an array.
private func resolveFanningOut(
  _ keys: ArraySlice<[UInt8]>, at index: Int, path: [_PathComponent], tape: _UnsafeTapeView,
  into reached: inout [Reached]
) -> Bool {
  let entry = tape[index]
  guard let key = keys.first else {
    if entry.kind != .null { reached.append(Reached(index: index, path: path)) }
    return false
  }
  switch entry.kind {
  case .object:
    let found = tape.member(of: index, named: key)
    guard let found else { return false }
    let name = String(decoding: key, as: UTF8.self)
    return resolveFanningOut(
      keys.dropFirst(), at: found, path: path + [.key(name)], tape: tape, into: &reached)
  case .array:
    var cursor = index + 1
    for offset in 0..<Int(entry.length) {
      _ = resolveFanningOut(
        keys, at: cursor, path: path + [.index(offset)], tape: tape, into: &reached)
      cursor = tape.next(after: cursor)
    }
    return true
  default:
    return false
  }
}
