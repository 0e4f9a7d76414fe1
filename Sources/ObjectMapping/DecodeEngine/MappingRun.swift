/// The errors or diagnostics of a run, kept up to a limit and counted beyond it
/// (``MappingOptions/errorLimit``).
///
/// ``count`` counts every element appended, kept or not, so the engine's "did this step fail"
/// checks (`run.errors.count == before`) stay exact past the limit. An element past the limit
/// is never built (``append(_:)`` takes an autoclosure): memory and time are bounded by the
/// limit, not by the payload.
struct CappedList<Element> {
  /// The elements kept, in the order appended.
  private(set) var kept: [Element] = []
  /// The position (in ``count``'s numbering) of each kept element.
  private var positions: [Int] = []
  /// Every element appended, kept or not.
  private(set) var count = 0
  /// How many elements are kept at most.
  let limit: Int
  /// The bytes the kept elements' paths hold (``CappedList/pathBudget``).
  private var pathBytes = 0

  /// The bytes the kept elements' paths may fill, 16 MiB: once they do, later elements are
  /// counted, not built or kept (the one that crossed it is kept). A path is exact, so a
  /// thousand errors under one 256 KB key held 256 MB of paths; the count limit alone did not
  /// bound the memory.
  static var pathBudget: Int { 16 << 20 }

  init(limit: Int) {
    self.limit = limit
  }

  /// A list holding `elements`, kept and counted as if appended one by one.
  init(_ elements: [Element], limit: Int) {
    self.limit = limit
    for element in elements { append(element) }
  }

  /// Whether nothing was appended.
  var isEmpty: Bool { count == 0 }

  /// How many appended elements were not kept.
  var omittedCount: Int { count - kept.count }

  /// Whether the next element appended will be kept.
  var keepsNext: Bool { kept.count < limit && pathBytes < Self.pathBudget }

  /// Appends `element`, built only when it is kept (``keepsNext``).
  mutating func append(_ element: @autoclosure () -> Element) {
    if keepsNext {
      let built = element()
      kept.append(built)
      positions.append(count)
      pathBytes += Self.pathBytes(of: built)
    }
    count += 1
  }

  /// The bytes of `element`'s path: an error's or a diagnostic's, `0` for other elements.
  private static func pathBytes(of element: Element) -> Int {
    if let error = element as? MappingError { return error.path.utf8.count }
    if let diagnostic = element as? MappingDiagnostic { return diagnostic.path.utf8.count }
    return 0
  }

  /// Counts `omitted` elements that were left out elsewhere (another run's, another list's).
  mutating func countOmitted(_ omitted: Int) {
    count += max(0, omitted)
  }

  /// Appends another list's elements: its kept ones, then its omitted ones, counted.
  static func += (list: inout CappedList, other: CappedList) {
    for element in other.kept { list.append(element) }
    list.countOmitted(other.omittedCount)
  }

  /// The kept elements among those appended since the count was `count`.
  func kept(since count: Int) -> ArraySlice<Element> {
    var first = positions.count
    while first > 0, positions[first - 1] >= count { first -= 1 }
    return kept[first...]
  }

  /// Changes, with `body`, every kept element appended since the count was `count`.
  mutating func update(since count: Int, _ body: (inout Element) -> Void) {
    var position = positions.count
    while position > 0, positions[position - 1] >= count {
      position -= 1
      pathBytes -= Self.pathBytes(of: kept[position])
      body(&kept[position])
      pathBytes += Self.pathBytes(of: kept[position])
    }
  }

  /// Forgets every element appended since the count was `count`.
  mutating func remove(since count: Int) {
    guard count < self.count else { return }
    while let last = positions.last, last >= count {
      positions.removeLast()
      pathBytes -= Self.pathBytes(of: kept.removeLast())
    }
    self.count = count
  }
}

/// The state of one mapping run: the document, the current path and every problem found.
///
/// A run is created per call of a mapping entry point and passed `inout` down the plan, so a
/// mapping itself holds no mutable state and can be used from many tasks at once. It reads the
/// document through a ``_UnsafeTapeView``, so it lives inside the ``_Tape/withView(_:)`` call that
/// made the view.
struct MappingRun {
  /// The document; when a top-level array is mapped an element at a time, the current
  /// element's entries (see ``readsElementsAlone``).
  var tape: _UnsafeTapeView {
    // Another document (a copy read for a key path across an array, a `null`): what was
    // remembered about the previous one does not hold for it.
    didSet { document &+= 1 }
  }
  /// Counts the documents ``tape`` has been: a ``specialTargets`` entry is for one of them.
  private(set) var document = 0
  /// Where special sources' paths were found in large objects (``target(of:from:step:)``).
  var specialTargets: [SpecialTargetKey: (step: AnyObject, found: Int)] = [:]
  /// The tape holds one element of a top-level array, not the whole payload: a rule reading
  /// ``SourcePath/payload`` cannot be served and sets ``needsWholePayload``, and the caller maps
  /// the payload again from a whole tape.
  var readsElementsAlone = false
  /// Set when a rule needed the whole payload while ``readsElementsAlone``.
  var needsWholePayload = false
  /// Every problem found, kept up to the call's limit (``MappingOptions/errorLimit``) and counted past it.
  var errors: CappedList<MappingError>
  var path: [_PathComponent] = []
  /// What the run noticed that is not an error (declined elements, rejected values), kept and
  /// counted like ``errors``.
  var diagnostics: CappedList<MappingDiagnostic>
  /// The trace, when one was asked for; `nil` (and free) otherwise.
  var trace: [MappingTraceEvent]?
  /// Whether the to-many relationship being mapped drops failed children
  /// (``ChildFailurePolicy/dropChild``) instead of failing its parent.
  var dropsFailedChildren = false
  /// Whether the object being mapped is an existing instance: steps then record their writes in
  /// the object's patch instead of writing, and absent values leave properties as they are.
  /// Set per object by ``_MappingPlan/runSteps(on:patch:ontoExisting:at:run:)``.
  var ontoExisting = false
  /// The tape index of the parent object's representation (``SourcePath/parent``) while a
  /// relationship's child is mapped; `-1` at the top level.
  var parentIndex = -1
  /// The path depth at which ``SourcePath/index`` reads as absent although the path ends in an
  /// index: the child of an empty-source to-one relationship sits at its parent's path.
  var indexHiddenAtDepth = -1
  /// The settings in effect for the mapping being run: the call's options over the root
  /// mapping's own settings, changed where a child mapping sets its own (see
  /// ``enterSettings(of:)``).
  var context: ValueContext = .default
  /// The call's metadata (``MappingOptions/metadata``), read by ``SourcePath/metadata``.
  var metadata: Node?
  /// The call's root mapping: its own settings yield to the call's options wherever it recurs.
  var rootPlan: ObjectIdentifier?
  /// The call's key convention (``MappingOptions/keys``): mappings with default keys map with
  /// the plan they derived for it (``_MappingPlan/keyed(in:)``).
  var keyConvention: KeyConvention? {
    didSet { hasKeyConvention = keyConvention != nil }
  }
  /// ``keyConvention`` is set: tested per object instead of the optional, which would take a
  /// slot in the frame of every level of a recursion.
  private(set) var hasKeyConvention = false
  /// Set by a plan that put its own convention in effect, for the object it is about to map
  /// (``_MappingPlan/runPassingConvention(on:patch:ontoExisting:at:run:)``), and cleared as
  /// it begins.
  var passesOwnConvention = false
  /// Set while a later occurrence of an id is mapped onto the instance this call made for it
  /// (``_MappingPlan/mergeKnownInstance(at:keepsFailed:run:accept:)``): the later values win,
  /// so its collections and dictionaries are replaced whatever their policy (which is for
  /// instances that existed before the call). Merging them would also cost each occurrence the
  /// size of what the earlier ones accumulated: quadratic in a payload repeating an id.
  var mergesCallInstance = false
  /// How many objects being mapped onto existing instances enclose the current one
  /// (``_MappingPlan/collectFields(_:at:run:)``). A merge takes about 5 KB of stack per level,
  /// several times a new object's, so past ``mergeDepthLimit`` a child is mapped new instead of
  /// merged into its instance: everything the default reading options accept then still fits a
  /// 512 KB thread stack. (An `Int32` beside the flags above: it takes no room of its own in a
  /// run, which frames of a recursion through special sources copy.)
  var mergeDepth: Int32 = 0
  /// The contexts derived for child mappings in this run, by (inherited context, child plan):
  /// derived once, reused for every object, and kept alive for the values that hold them
  /// unretained.
  private var derivedContexts:
    [(inherited: ValueContext, plan: ObjectIdentifier, derived: ValueContext)] = []

  /// The position of the object being mapped in its collection (``SourcePath/index``): the
  /// last path component when it is an index; `nil` for anything else.
  var collectionIndex: Int? {
    guard path.count != indexHiddenAtDepth else { return nil }
    if path.count == fannedOutDepth { return fannedOutIndex }
    guard case .index(let index)? = path.last else { return nil }
    return index
  }
  /// The path depth of a value a mapper route reached by crossing an array
  /// (`Route("human", m)` over `[{"human": {…}}, …]`), whose path ends in a key; `-1` when
  /// none. ``collectionIndex`` reads ``fannedOutIndex`` there, RestKit's position in the
  /// fanned-out array.
  var fannedOutDepth = -1
  /// The index of the last array crossed to reach the value at ``fannedOutDepth``.
  var fannedOutIndex = 0
  /// The call's identity map (``Mapping/identified(by:)``): the instances it made and what
  /// later occurrences will write into them. One value, so that what moves, rolls back and
  /// applies together cannot be moved in part. Empty, and free, for other mappings.
  var identityMap = CallInstances()
  /// The instances whose later occurrence is being mapped onto them, innermost last (at most
  /// ``mergeDepthLimit``): an occurrence of one of their ids inside them is a new instance, as
  /// an object nested in itself is, instead of the instance holding itself.
  var mergingInstances: [ObjectIdentifier] = []

  /// Where the identity map's pending writes and kept instances stand: taken before an element
  /// that may be dropped, given to ``rollBackMerges(to:)`` when it is.
  var mergeMark: MergeMark { identityMap.mark }

  /// Forgets what the elements mapped since `mark` did to the call's instances
  /// (``CallInstances/rollBack(to:)``). Called where an element is dropped.
  mutating func rollBackMerges(to mark: MergeMark) {
    identityMap.rollBack(to: mark)
  }

  /// Applies the pending writes into the call's instances, in order: the end of a call (or of
  /// a streamed element) whose objects are returned.
  mutating func applyMerges() {
    identityMap.apply()
  }
  /// The merges that may enclose one another (``mergeDepth``).
  static var mergeDepthLimit: Int32 { 16 }

  /// Below this stack address a recursion asks ``hasStackLeft()`` whether it may go on: first
  /// ``stackQuickAllowance`` below where the run began (no system call for the recursions of
  /// ordinary payloads), then, once asked, ``stackReserve`` above the thread's stack end (or
  /// 0, the guard off, where that end is not known).
  var stackFloor: UInt = 0
  /// Whether ``stackFloor`` was set from the thread's stack end (asked once per run).
  var knowsStackEnd = false
  /// Set once ``hasStackLeft()`` failed an object: from then on no failure is dropped
  /// (``dropErrors(since:)``), so `.dropChild` cannot turn a payload too deep for the stack into
  /// a shorter one that maps without an error.
  private(set) var exhaustedStack = false
  /// How deep into the stack a run goes before it asks where the thread's stack ends.
  static var stackQuickAllowance: UInt { 32 * 1024 }
  /// The stack an object's mapping keeps free below it: room for the frames of one more level
  /// of nesting (about 5 KB at the most in an optimized build, a merge's), for recording the
  /// error, and for your validators and transforms. Small, so that the shapes that fitted a
  /// 512 KB thread with a few KB to spare still map there; unoptimized frames are larger.
  static var stackReserve: UInt {
    #if DEBUG
      64 * 1024
    #else
      16 * 1024
    #endif
  }

  /// Whether the thread's stack has room for one more level of nesting (``stackReserve``),
  /// asked by each object's mapping once the recursion is past ``stackFloor``. `false` records
  /// ``MappingError/Kind/stackExhausted(depth:)`` at the current path: the object fails, and
  /// with it its parents, instead of the process crashing on a thread too small for the
  /// payload (Documentation/Limits.md, "Depth and the stack"). Out of line: the check before
  /// it is a comparison.
  @inline(never)
  mutating func hasStackLeft() -> Bool {
    let here = StackSpace.here()
    guard resolveStackFloor(here: here) else { return true }
    // Only the last ``stackReserve`` bytes of the stack fail: a local below the stack's end is
    // not on it either (a sanitizer's heap of locals), and says nothing.
    if here >= stackFloor || here < stackFloor &- Self.stackReserve { return true }
    exhaustedStack = true
    fail(.stackExhausted(depth: path.count))
    return false
  }

  /// Sets ``stackFloor`` from the thread's stack end the first time it is asked; `false` when
  /// the guard is off: the end is not known, or `here` (a local's address) is not on the
  /// thread's stack (AddressSanitizer keeps locals on a heap of its own), so it says nothing
  /// about the stack.
  private mutating func resolveStackFloor(here: UInt) -> Bool {
    if !knowsStackEnd {
      knowsStackEnd = true
      guard let (end, top) = StackSpace.bounds(), here >= end, here < top else {
        stackFloor = 0
        return false
      }
      stackFloor = end &+ Self.stackReserve
    }
    return stackFloor != 0
  }

  /// Whether the thread's stack has room for the value at `index` to be read by a reader
  /// that recurses once per level of the value's nesting, `perLevel` bytes a level (a `Node`
  /// attribute, a `Codable` value): such a reader does not pass through ``hasStackLeft()``, so
  /// a deep value below a deep chain could overflow the reserve. Fails the value with
  /// ``MappingError/Kind/stackExhausted(depth:)`` when there is not.
  ///
  /// A scalar, and a container with fewer entries than the levels that fit, are waved through
  /// without a scan; otherwise the value's depth is measured on the tape, up to what fits.
  mutating func hasStackLeft(forNestingAt index: Int, perLevel: UInt) -> Bool {
    guard let depth = nestingBeyondStack(at: index, perLevel: perLevel) else { return true }
    exhaustedStack = true
    fail(.stackExhausted(depth: path.count + depth))
    return false
  }

  /// ``hasStackLeft(forNestingAt:perLevel:)`` without failing: whether the value fits.
  mutating func hasStackRoom(forNestingAt index: Int, perLevel: UInt) -> Bool {
    nestingBeyondStack(at: index, perLevel: perLevel) == nil
  }

  /// The depth of the value at `index` when reading it would go past ``stackReserve``, else
  /// `nil` (it fits, or the guard is off).
  private mutating func nestingBeyondStack(at index: Int, perLevel: UInt) -> Int? {
    let entry = tape[index]
    guard entry.kind == .array || entry.kind == .object else { return nil }
    let here = StackSpace.here()
    // The guard is off (no bounds, or a sanitizer's heap of locals).
    guard resolveStackFloor(here: here), here >= stackFloor &- Self.stackReserve else {
      return nil
    }
    let levels = here > stackFloor ? Int((here - stackFloor) / max(perLevel, 1)) : 0
    // A value of `n` entries nests at most `n` levels.
    if tape.next(after: index) - index <= levels { return nil }
    let depth = tape.nestingDepth(at: index, upTo: levels + 1)
    return depth > levels ? depth : nil
  }

  /// The first use of an error's path and text resolves generic metadata in the runtime, which
  /// takes tens of KB of stack the first time in a process: done once, by the first run made
  /// (where its caller is, not deep in a recursion), so that an error at the stack's end costs
  /// only its own frames.
  static let errorPathReady: Bool = {
    let components: [_PathComponent] = [.key("a"), .index(0)]
    return !MappingError(path: _jsonPointer(components), .stackExhausted(depth: 2)).description
      .isEmpty
  }()

  /// Turns the errors recorded since `count` into one diagnostic at the current path (and
  /// `extra` below it): the element they belong to is skipped.
  ///
  /// The diagnostic's reason joins the kept errors' lines (at most ten, then how many more), so
  /// an element with a million errors makes one short diagnostic.
  mutating func dropErrors(since count: Int, at extra: [_PathComponent] = []) {
    // A payload too deep for the stack is not made shorter by dropping the part that did not
    // fit: its error stays, and fails the parents.
    guard !exhaustedStack else { return }
    if diagnostics.keepsNext {
      let dropped = errors.kept(since: count)
      var reason = dropped.prefix(10).map(\.description).joined(separator: "; ")
      let more = errors.count - count - min(dropped.count, 10)
      if more > 0 {
        reason += "; and \(MessageText.grouped(more)) more error\(more == 1 ? "" : "s")"
      }
      errors.remove(since: count)
      note(.skippedElement(reason: reason), at: extra)
    } else {
      errors.remove(since: count)
      diagnostics.append(MappingDiagnostic(path: "", .skippedElement(reason: "")))
    }
  }

  /// Sets ``dropsFailedChildren`` for the children of the relationship about to be mapped and
  /// returns the setting it replaces, which the caller restores when the relationship is done
  /// (`defer { run.dropsFailedChildren = outer }`).
  @inline(__always)
  mutating func replaceDropsFailedChildren(with drops: Bool) -> Bool {
    let outer = dropsFailedChildren
    dropsFailedChildren = drops
    return outer
  }

  /// Drops a child that failed (``ChildFailurePolicy/dropChild``): its errors, recorded since
  /// `count`, become one diagnostic at the current path and `extra` below it
  /// (``dropErrors(since:at:)``), and its writes into the call's instances since `mark` are
  /// forgotten (``rollBackMerges(to:)``).
  mutating func dropFailedChild(
    errorsSince count: Int, mark: MergeMark, at extra: [_PathComponent] = []
  ) {
    dropErrors(since: count, at: extra)
    rollBackMerges(to: mark)
  }

  /// Turns each error recorded since `count` into a ``MappingDiagnostic/Kind/valueSkipped(_:)``
  /// diagnostic at the error's own path (``ChildFailurePolicy/keepPartial``: the child they
  /// belong to is kept without those values). Errors past the limit stay counted, as omitted
  /// diagnostics.
  mutating func keepErrorsAsDiagnostics(since count: Int) {
    guard !exhaustedStack, errors.count > count else { return }
    let kept = errors.kept(since: count)
    for error in kept {
      diagnostics.append(MappingDiagnostic(path: error.path, .valueSkipped(error.kind)))
    }
    diagnostics.countOmitted(errors.count - count - kept.count)
    errors.remove(since: count)
  }

  /// The reading this run's `PayloadValue`s belong to: begun with the run, ended when the run
  /// (every copy of it) is gone.
  private var reading: Reading
  /// ``reading``'s token, copied into each `PayloadValue` the run makes.
  private(set) var token: UInt64

  init(tape: _UnsafeTapeView, errorLimit: Int) {
    self.tape = tape
    _ = Self.errorPathReady
    let start = StackSpace.here()
    stackFloor = start > Self.stackQuickAllowance ? start - Self.stackQuickAllowance : 0
    errors = CappedList(limit: errorLimit)
    diagnostics = CappedList(limit: errorLimit)
    reading = Reading()
    token = reading.token
  }

  /// Moves the run to another document (the next element of a streamed array): the values made
  /// for the previous one stop being valid.
  mutating func read(_ tape: _UnsafeTapeView) {
    self.tape = tape
    token = reading.renew()
  }

  /// A run of `plan` as the root mapping of a call with `options`: the call's options over the
  /// mapping's own settings.
  init<Object>(
    tape: _UnsafeTapeView, root plan: _MappingPlan<Object>, options: MappingOptions
  ) {
    self.init(tape: tape, errorLimit: options.resolvedErrorLimit)
    startCall(root: plan, options: options)
  }

  /// Makes `plan` the root mapping of the call and sets the context from the call's `options`
  /// over the mapping's own settings (a mapper calls it per route).
  mutating func startCall<Object>(root plan: _MappingPlan<Object>, options: MappingOptions) {
    rootPlan = plan.settingsID
    context = ValueContext.default.applying(options.overriding(plan.settings))
    metadata = options.metadata
    keyConvention = options.keys
  }

  /// ``startCall(root:options:)`` for a mapping of any kind (a mapper's route).
  mutating func startCall(root mapping: some MappingProtocol, options: MappingOptions) {
    startCall(root: mapping._plan, options: options)
  }

  /// A run for a side computation of this one (an identity read, a special source's scratch
  /// run): the same document, settings and root, its own problems.
  func scratch(tape: _UnsafeTapeView? = nil, errorLimit: Int) -> MappingRun {
    var run = MappingRun(tape: tape ?? self.tape, errorLimit: errorLimit)
    if tape == nil {
      // The same document: the parent's values stay valid in the scratch run and after it.
      run.reading = reading
      run.token = token
    }
    run.context = context
    run.rootPlan = rootPlan
    run.keyConvention = keyConvention
    run.ontoExisting = ontoExisting
    run.derivedContexts = derivedContexts
    run.metadata = metadata
    // The same thread and recursion: the scratch run stops where this one would, and maps
    // within this one's merges (a repeated id's collections replaced, the merge depth and the
    // instances being merged carried on).
    run.stackFloor = stackFloor
    run.knowsStackEnd = knowsStackEnd
    run.mergesCallInstance = mergesCallInstance
    run.mergeDepth = mergeDepth
    run.mergingInstances = mergingInstances
    return run
  }

  /// Applies the explicit settings of `plan`, a child mapping about to map an object, over the
  /// inherited context, and returns the context to restore afterwards; `nil` (nothing to
  /// restore) when the plan changes nothing or is the call's root mapping, whose settings the
  /// call's options already decided.
  @inline(never)
  mutating func enterSettings<Object>(of plan: _MappingPlan<Object>) -> ValueContext? {
    let id = plan.settingsID
    guard id != rootPlan, !context.isUnchanged(by: plan.settings) else { return nil }
    let inherited = context
    if let known = derivedContexts.first(where: { $0.inherited === inherited && $0.plan == id }) {
      context = known.derived
    } else {
      context = inherited.applying(plan.settings)
      derivedContexts.append((inherited, id, context))
    }
    return inherited
  }

  /// Records a diagnostic at the current path plus `extra` (built only when it is kept).
  mutating func note(_ kind: MappingDiagnostic.Kind, at extra: [_PathComponent] = []) {
    diagnostics.append(MappingDiagnostic(path: _jsonPointer(path + extra), kind))
  }

  /// Records a trace event at the current path plus `extra`, when tracing.
  mutating func traceEvent(_ kind: MappingTraceEvent.Kind, at extra: [_PathComponent] = []) {
    guard trace != nil else { return }
    trace?.append(MappingTraceEvent(path: _jsonPointer(path + extra), kind))
  }

  /// Records a problem at the current path plus `extra` (a missing key is also traced).
  mutating func fail(_ kind: MappingError.Kind, at extra: [_PathComponent] = []) {
    if trace != nil, case .missingRequiredKey = kind { traceEvent(.missingKey, at: extra) }
    errors.append(MappingError(path: _jsonPointer(path + extra), kind))
  }

  /// Records an error thrown by a value conversion, a transform or a validator.
  mutating func record(_ error: any Error, at extra: [_PathComponent] = []) {
    switch error {
    case let nested as NestedConversionFailures:
      for inner in nested.failures { record(inner.failure, at: extra + inner.path) }
      errors.countOmitted(nested.omitted)
    case let failure as ConversionFailure:
      switch failure {
      case .typeMismatch(let expected, let found):
        fail(.typeMismatch(expected: expected, found: found), at: extra)
      case .invalidValue(let expected, let raw, let reason):
        fail(.conversionFailed(expected: expected, raw: raw, reason: reason), at: extra)
      case .notRepresentable(let value, let reason):
        fail(.notRepresentable(reason: "\(value): \(reason)"), at: extra)
      }
    case let formatError as FormatError:
      record(MappingError(formatError), at: extra)
    case let mappingError as MappingError:
      errors.append(
        MappingError(path: _jsonPointer(path + extra) + mappingError.path, mappingError.kind))
    case let mappingErrors as MappingErrors:
      for inner in mappingErrors.errors { record(inner, at: extra) }
      errors.countOmitted(mappingErrors.omittedCount)
    case let thrown as ThrownByUser:
      guard errors.keepsNext else { return errors.countOmitted(1) }
      errors.append(
        MappingError(path: _jsonPointer(path + extra), thrown.kind, underlyingError: thrown.error))
    default:
      // Past the limit the error is only counted: its description (user code) is not asked for.
      guard errors.keepsNext else { return errors.countOmitted(1) }
      errors.append(
        MappingError(
          path: _jsonPointer(path + extra), .validationFailed(message: "\(error)"),
          underlyingError: error))
    }
  }
}

/// An error a transform's closure or a custom conversion threw, kept for
/// ``MappingError/underlyingError``, with the kind of error it becomes.
struct ThrownByUser: Error {
  let error: any Error
  let kind: MappingError.Kind
}

/// A reading of a run's document (``_ReadingScope``): begins when made, ends when the last run
/// holding it is gone, so the `PayloadValue`s made in it cannot be used afterwards.
final class Reading {
  private(set) var token: UInt64
  private let previous: UInt64

  init() {
    (token, previous) = _ReadingScope.begin()
  }

  /// Ends this reading's values and begins new ones, in the same place of the nesting.
  func renew() -> UInt64 {
    token = _ReadingScope.renew()
    return token
  }

  deinit {
    _ReadingScope.end(restoring: previous)
  }
}

extension Array where Element == _PathComponent {
  /// Appends `components` one by one (no generic `append(contentsOf:)` metadata per call).
  @inline(__always)
  mutating func push(_ components: [_PathComponent]) {
    for component in components { append(component) }
  }

  /// Removes the components after the first `count` (no `Range` metadata per call).
  @inline(__always)
  mutating func truncate(to count: Int) {
    while self.count > count { removeLast() }
  }
}

/// A special source's path looked up from one object of one document
/// (``MappingRun/target(of:from:step:)``).
struct SpecialTargetKey: Hashable {
  let step: ObjectIdentifier
  let object: Int
  let document: Int
}

/// A class instance's key in ``CallInstances/instances``: the identity property (whose root is
/// the model type), and the id. Two mappings of one class identified by different properties
/// (`\.id` and `\.code`) never take each other's instances for an equal value.
struct InstanceKey: Hashable {
  let property: AnyKeyPath
  let id: AnyHashable
}

/// A position in a run's pending merges (``MappingRun/mergeMark``).
struct MergeMark {
  let pending: Int
  let kept: Int
}

/// One call's identity map: the class instances it made for mappings with an identity, by
/// identity property and id (the same id later in the payload is mapped onto the same instance,
/// the reference's identity map per mapping run), and the writes later occurrences make into
/// them, which wait until the call ends so that a dropped element takes its writes with it.
struct CallInstances {
  /// The instances, by identity property and id.
  var instances: [InstanceKey: KeptInstances] = [:]
  /// The later occurrences' writes into the instances, in the order they were mapped, applied
  /// when the call ends (``apply()``): a write made at once would stay when the element around
  /// it is dropped afterwards (skipped, `.dropChild`, a rejected child), writing a dropped
  /// representation's values into an instance the call returns.
  var pendingMerges: [() -> Void] = []
  /// The instances kept since the call began, with what their key held before, so that
  /// ``rollBack(to:)`` can forget the ones a dropped element kept.
  var keptLog: [(key: InstanceKey, previous: KeptInstances?)] = []
  /// The instances a later occurrence was mapped onto in this call: later writes into one of
  /// them wait in ``pendingMerges`` too, behind the earlier ones (a list naming it twice).
  var mergedInstances: Set<ObjectIdentifier> = []

  /// Where ``pendingMerges`` and ``keptLog`` stand.
  var mark: MergeMark { MergeMark(pending: pendingMerges.count, kept: keptLog.count) }

  /// Forgets the pending writes made since `mark`, and the instances kept since (the earlier
  /// ones back in their place).
  mutating func rollBack(to mark: MergeMark) {
    if pendingMerges.count > mark.pending { pendingMerges.removeSubrange(mark.pending...) }
    while keptLog.count > mark.kept {
      let (key, previous) = keptLog.removeLast()
      instances[key] = previous
    }
  }

  /// Applies the pending writes in order and forgets the log; the instances stay (a call's
  /// later routes still find them).
  mutating func apply() {
    guard !pendingMerges.isEmpty || !keptLog.isEmpty || !mergedInstances.isEmpty else { return }
    let merges = pendingMerges
    pendingMerges.removeAll()
    keptLog.removeAll()
    mergedInstances.removeAll()
    for merge in merges { merge() }
  }
}

/// An instance in ``CallInstances/instances``, with the plan that made it: another plan (another
/// mapping of the class, or a dynamic mapping's other case) maps onto it only when it is of
/// that plan's model type exactly, so that a case making `Cat`s never maps onto the `Dog` a
/// case of the same `Mapping<Animal>` identity made.
struct KeptInstance {
  let object: AnyObject
  let plan: ObjectIdentifier
}

/// The instances kept for one id: almost always one; several when plans that make different
/// subclasses share the identity (a dynamic mapping's cases), one per plan.
enum KeptInstances {
  case one(KeptInstance)
  case several([KeptInstance])

  /// The instance `plan` maps onto: the one it made, or one of exactly its model type.
  func instance(for plan: ObjectIdentifier, modelType: ObjectIdentifier) -> AnyObject? {
    switch self {
    case .one(let kept):
      return kept.plan == plan || ObjectIdentifier(type(of: kept.object)) == modelType
        ? kept.object : nil
    case .several(let all):
      return
        (all.last { $0.plan == plan }
        ?? all.last { ObjectIdentifier(type(of: $0.object)) == modelType })?.object
    }
  }

  /// These instances with `kept` in place of any its plan made before or of its own type (the
  /// latest instance of a type is the one later occurrences map onto).
  func keeping(_ kept: KeptInstance) -> KeptInstances {
    let type = ObjectIdentifier(Swift.type(of: kept.object))
    func replaced(_ other: KeptInstance) -> Bool {
      other.plan == kept.plan || ObjectIdentifier(Swift.type(of: other.object)) == type
    }
    switch self {
    case .one(let only):
      return replaced(only) ? .one(kept) : .several([only, kept])
    case .several(var all):
      all.removeAll(where: replaced)
      all.append(kept)
      return .several(all)
    }
  }
}

/// The stack a level of a value's own nesting takes while a reader that recurses without going
/// through ``MappingRun/hasStackLeft()`` reads it (``MappingRun/hasStackLeft(forNestingAt:perLevel:)``),
/// measured in optimized builds (Documentation/Limits.md) with a margin, and three times as much
/// in debug builds, whose frames are larger.
enum NestingCost {
  #if DEBUG
    static let scale: UInt = 3
  #else
    static let scale: UInt = 1
  #endif

  /// A `Node` built from the tape (`NodeBuilder`, about 150 B a level).
  static let node: UInt = 256 * scale
  /// A `Codable` value read by `init(from:)` through the tape decoder (up to about 1.2 KB a
  /// level: a dictionary of itself under a key strategy).
  static let codable: UInt = 1_536 * scale

  /// ``node`` for a type holding a `Node` at any depth of optionals and collections, else 0.
  static func of<Value>(_ type: Value.Type) -> UInt {
    type is any UnboundedNesting.Type ? node : 0
  }
}

/// A value type whose reading recurses as deep as the payload nests (a `Node`), or that holds
/// one: ``Attribute`` checks the stack before reading it (``NestingCost``).
protocol UnboundedNesting {}

extension Node: UnboundedNesting {}
extension Optional: UnboundedNesting where Wrapped: UnboundedNesting {}
extension Array: UnboundedNesting where Element: UnboundedNesting {}
extension Set: UnboundedNesting where Element: UnboundedNesting {}
extension Dictionary: UnboundedNesting where Value: UnboundedNesting {}
