/// A ``SourcePath`` compiled for lookups: its keys' UTF-8 bytes allocated once.
struct CompiledSource: Sendable {

  /// Owns the bytes the key views read (see ``_UnsafeKeyBytes``).
  private let storage: _KeyStorage

  /// The path's first key; `nil` for a special source (the object itself).
  let first: _UnsafeKeyBytes?
  /// The path's other keys.
  let rest: [_UnsafeKeyBytes]
  /// For each of ``rest``: the array index it names when it is a decimal integer (`"0"` in
  /// `"nested.0.value"`), read when the value at that step is an array; `nil` otherwise.
  let restIndexes: [Int?]
  /// An earlier rule of the same mapping reads the same first key.
  let mayRepeat: Bool
  /// The path, for error messages.
  let pathComponents: [_PathComponent]

  init(_ source: SourcePath, mayRepeat: Bool) {
    storage = _KeyStorage(source.isSpecial ? [] : source.utf8Keys)
    first = storage.keys.first
    rest = Array(storage.keys.dropFirst())
    restIndexes = (source.isSpecial ? [] : source.utf8Keys.dropFirst()).map(decimalArrayIndex)
    self.mayRepeat = mayRepeat
    pathComponents = source.pathComponents
  }

  /// The tape index of the value this path reaches from the object at `objectIndex`, or `nil`
  /// when absent. The first key's lookup starts at `hint`.
  @inline(__always)
  func resolve(in tape: _UnsafeTapeView, from objectIndex: Int, hint: inout _MemberHint) -> Int? {
    // A special source reads the index its wrapping step resolved (`-1`: absent).
    guard let first else { return objectIndex >= 0 ? objectIndex : nil }
    guard
      var current = tape.member(of: objectIndex, named: first, hint: &hint, mayRepeat: mayRepeat)
    else { return nil }
    for offset in rest.indices {
      if let found = tape.member(of: current, named: rest[offset]) {
        current = found
      } else if let index = restIndexes[offset], let found = tape.element(of: current, at: index) {
        current = found
      } else {
        return nil
      }
    }
    return current
  }
}

/// The array index a path key names (`"0"`, `"12"`: decimal digits, no leading zero, at most nine
/// digits), or `nil`.
func decimalArrayIndex(_ key: [UInt8]) -> Int? {
  guard !key.isEmpty, key.count <= 9, key.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
    return nil
  }
  guard key.count == 1 || key[0] != 0x30 else { return nil }
  return key.reduce(0) { $0 * 10 + Int($1 - 0x30) }
}

// MARK: Key paths across arrays

/// A value a key path across an array reached in one element: an entry of the run's tape, or a
/// value built for the slot (`null` where the element lacks the rest of the path, an array for
/// an element that is itself an array and fans out again).
enum FannedValue {
  case entry(Int)
  case built(Node)

  /// The value as a ``Node`` (a copy of the entry's subtree).
  func node(in tape: _UnsafeTapeView) -> Node {
    switch self {
    case .entry(let index): tape.node(at: index)
    case .built(let node): node
    }
  }
}

/// The values a key path reaches across an array: one per element, and the payload path of
/// each slot for errors.
struct FannedSlots {
  var values: [FannedValue]
  /// For each slot, the path of the value in the payload, relative to the object the key path
  /// starts from (`friends/2/name`).
  var slotPaths: [[_PathComponent]]

  /// The tape entries of the slots (`-1` for a missing or built one); `nil` when a slot fanned
  /// out again (an array of arrays), which only a copy can hold.
  var entries: [Int]? {
    var entries: [Int] = []
    entries.reserveCapacity(values.count)
    for value in values {
      switch value {
      case .entry(let index): entries.append(index)
      case .built(.null): entries.append(-1)
      case .built: return nil
      }
    }
    return entries
  }
}

/// The values a key path reaches across an array as one array ``Node`` (copies), and the payload
/// path of each slot for errors.
struct FannedOut {
  /// An array ``Node`` with a value per element.
  var values: Node
  /// See ``FannedSlots/slotPaths``.
  var slotPaths: [[_PathComponent]]
}

extension CompiledSource {
  /// When the walk of this path from the object at `objectIndex` meets an array where it needs
  /// a member (`friends` in `friends.name`), the values the rest of the path reaches in each
  /// element; `nil` when the path is absent for another reason. An element that is itself an
  /// array where a member is needed fans out again (an array of arrays).
  func fanOut(in tape: _UnsafeTapeView, from objectIndex: Int) -> FannedOut? {
    guard let slots = fanOutSlots(in: tape, from: objectIndex) else { return nil }
    return FannedOut(
      values: .array(slots.values.map { $0.node(in: tape) }), slotPaths: slots.slotPaths)
  }

  /// ``fanOut(in:from:)`` without copies: the entries the path reaches in the run's tape.
  func fanOutSlots(in tape: _UnsafeTapeView, from objectIndex: Int) -> FannedSlots? {
    guard let first, !rest.isEmpty,
      var current = tape.member(of: objectIndex, named: first)
    else { return nil }
    var prefix: [_PathComponent] = [pathComponents[0]]
    for offset in rest.indices {
      if let found = tape.member(of: current, named: rest[offset]) {
        current = found
      } else if let index = restIndexes[offset], let found = tape.element(of: current, at: index) {
        current = found
      } else if tape[current].kind == .array {
        return fanned(in: tape, array: current, restFrom: offset, prefix: prefix)
      } else {
        return nil
      }
      prefix.append(pathComponents[offset + 1])
    }
    return nil
  }

  /// The values `rest[offset...]` reaches in each element of the array at `array`.
  private func fanned(
    in tape: _UnsafeTapeView, array: Int, restFrom offset: Int, prefix: [_PathComponent]
  ) -> FannedSlots {
    var values: [FannedValue] = []
    var slotPaths: [[_PathComponent]] = []
    let count = Int(tape[array].length)
    values.reserveCapacity(count)
    var element = array + 1
    for position in 0..<count {
      var current: Int? = element
      var path = prefix + [.index(position)]
      var slot: FannedValue?
      for step in offset..<rest.count {
        guard let at = current else { break }
        if let found = tape.member(of: at, named: rest[step]) {
          current = found
        } else if let index = restIndexes[step], let found = tape.element(of: at, at: index) {
          current = found
        } else if tape[at].kind == .array {
          let nested = fanned(in: tape, array: at, restFrom: step, prefix: path)
          slot = .built(.array(nested.values.map { $0.node(in: tape) }))
          break
        } else {
          current = nil
        }
        path.append(pathComponents[step + 1])
      }
      values.append(slot ?? current.map { .entry($0) } ?? .built(.null))
      slotPaths.append(path)
      element = tape.next(after: element)
    }
    return FannedSlots(values: values, slotPaths: slotPaths)
  }
}

extension MappingRun {
  /// Runs `body` on a tape holding `fanned.values` under the keys of `source` (the rule's path;
  /// index 0 is the object that holds them), with the errors it records moved from the path the
  /// rule names (`/friends/name/2`) to the payload's (`/friends/2/name`).
  mutating func withFannedOut(
    _ fanned: FannedOut, source: [_PathComponent], _ body: (inout MappingRun) -> Void
  ) {
    // The values under the rule's own keys (`{"friends": {"name": [...]}}`), so the rule
    // reads them from the synthetic object at index 0 as it reads any payload.
    var wrapped = fanned.values
    for case .key(let key) in source.reversed() { wrapped = .object([Node.Member(key, wrapped)]) }
    let tape: _Tape
    do {
      tape = try _Tape(node: wrapped, maximumDepth: .max)
    } catch {
      return fail(.notRepresentable(reason: "\(error)"), at: source)
    }
    let before = errors.count
    let diagnosticsBefore = diagnostics.count
    let traceBefore = trace?.count ?? 0
    let outerPath = path
    tape.withView { view in
      let outerTape = self.tape
      let outerParent = parentIndex
      self.tape = view
      // The fanned values' parent is the synthetic object, not a payload object.
      parentIndex = -1
      body(&self)
      self.tape = outerTape
      parentIndex = outerParent
    }
    guard
      errors.count > before || diagnostics.count > diagnosticsBefore
        || (trace?.count ?? 0) > traceBefore
    else { return }
    // The diagnostics and trace events too, as the children mapped in place name them
    // (``ElementList``).
    let named = _jsonPointer(outerPath + source)
    let slots = fanned.slotPaths.map { _jsonPointer(outerPath + $0) }
    func payloadPath(_ path: String) -> String? {
      guard path.hasPrefix(named + "/") else { return nil }
      let tail = path.dropFirst(named.count + 1)
      let digits = tail.prefix { $0 != "/" }
      guard let slot = Int(digits), slot < slots.count else { return nil }
      return slots[slot] + tail.dropFirst(digits.count)
    }
    errors.update(since: before) { error in
      if let moved = payloadPath(error.path) { error.path = moved }
    }
    diagnostics.update(since: diagnosticsBefore) { diagnostic in
      if let moved = payloadPath(diagnostic.path) {
        diagnostic = MappingDiagnostic(path: moved, diagnostic.kind)
      }
    }
    if var events = trace, events.count > traceBefore {
      trace = nil
      for position in traceBefore..<events.count {
        if let moved = payloadPath(events[position].path) {
          events[position] = MappingTraceEvent(path: moved, events[position].kind)
        }
      }
      trace = events
    }
  }
}

extension DecodeStepKind {
  /// A step whose path `source` crosses an array (`friends.name` into a collection property or
  /// a to-many relationship): runs the step again on a document holding the values the rest of
  /// the path reaches in each element, under the rule's own keys; `false` when the path is
  /// absent for another reason.
  @inline(never)
  func decodeFannedOut(
    from source: CompiledSource, _ object: inout Object, _ patch: inout Patch<Object>,
    objectIndex: Int, run: inout MappingRun
  ) -> Bool {
    guard let fanned = source.fanOut(in: run.tape, from: objectIndex) else { return false }
    run.withFannedOut(fanned, source: source.pathComponents) { run in
      var hint = _MemberHint(object: 0)
      decode(&object, &patch, objectIndex: 0, hint: &hint, run: &run)
    }
    return true
  }
}
