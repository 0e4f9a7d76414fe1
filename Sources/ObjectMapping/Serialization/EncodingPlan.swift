/// The state of one serialization: the current path and every problem found.
///
/// Created per call and passed `inout` down the inverse plan, like ``MappingRun``, so inverse
/// mappings hold no mutable state.
struct EncodingRun {
  var errors: [MappingError] = []
  var path: [_PathComponent] = []
  /// The class instances being serialized, outermost first, to report cycles.
  var visiting: [ObjectIdentifier] = []
  /// The call's options: they override the root mapping's settings.
  let options: MappingOptions
  /// The nil policy of the object being written, which its child mappings inherit unless
  /// they set their own.
  var nulls: NullPolicy = .omit
  /// The nil policy of the call's relationships whose rule and mapping set none of their own
  /// (``MappingOptions/relationshipNulls``, else the root mapping's); `nil`: ``nulls``. Set
  /// once per call: a mapping's own policy is its relationships' (``Mapping/options(_:)``).
  var relationshipNulls: NullPolicy?
  /// The groups whose rules are written for the object being written (`nil`: every rule),
  /// which its child mappings inherit unless they set their own.
  var groups: Set<String>?
  /// How `groups` select grouped rules, inherited like them.
  var groupMatching: GroupMatching = .anyOf
  /// How many objects deep the writing is: 0 while no object (the root) is being written.
  var depth = 0

  /// The key convention in effect: the nearest enclosing mapping's own, else the call's
  /// (``MappingOptions/keys``); mappings with default keys write with the plan they derived
  /// for it.
  var keyConvention: KeyConvention? {
    didSet { hasKeyConvention = keyConvention != nil }
  }
  /// ``keyConvention`` is set: tested per object instead of the optional, which would take a
  /// slot in the frame of every level of a recursion.
  private(set) var hasKeyConvention: Bool
  /// Set by a plan that put its own convention in effect, for the object it is about to write
  /// (``InversePlan/encodeBody(at:to:run:)``), and cleared as it begins.
  var passesOwnConvention = false

  init(options: MappingOptions = .none) {
    self.options = options
    keyConvention = options.keys
    hasKeyConvention = options.keys != nil
  }

  /// Records an error thrown while writing a value at the current path plus `extra`.
  mutating func record(_ error: any Error, at extra: [_PathComponent]) {
    let pointer = _jsonPointer(path + extra)
    switch error {
    case let failure as ConversionFailure:
      switch failure {
      case .notRepresentable(let value, let reason):
        errors.append(MappingError(path: pointer, .notRepresentable(reason: "\(value): \(reason)")))
      case .typeMismatch(let expected, let found):
        errors.append(MappingError(path: pointer, .typeMismatch(expected: expected, found: found)))
      case .invalidValue(let expected, let raw, let reason):
        errors.append(
          MappingError(
            path: pointer, .conversionFailed(expected: expected, raw: raw, reason: reason)))
      }
    case let formatError as FormatError:
      record(MappingError(formatError), at: extra)
    case let mappingError as MappingError:
      errors.append(MappingError(path: pointer + mappingError.path, mappingError.kind))
    case let mappingErrors as MappingErrors:
      for inner in mappingErrors.errors { record(inner, at: extra) }
    default:
      errors.append(MappingError(path: pointer, .notRepresentable(reason: "\(error)")))
    }
  }
}

/// The serializing side of one rule: writes one value (the key is written by the plan).
struct EncodingRule<Object>: Sendable {
  /// The output keys, from the object being written (`["user", "address", "city"]`).
  var path: [String] {
    // A path set later (an inverse's `renaming`) is spelled: no convention changes it.
    didSet { defaultKeyNames = nil }
  }
  /// The property's names when ``path`` is a default key (a rule declared without a key, in a
  /// mapping without a convention): a call's key convention makes the path from them
  /// (``MappingOptions/keys``).
  var defaultKeyNames: [String]?
  /// The property the rule reads, so an inverse can remove it by key path.
  let property: AnyKeyPath & Sendable
  /// How the rule reads in reports (`Attribute "title"`).
  let label: String
  /// The rule's own nil policy, overriding the mapping's.
  var nulls: NullPolicy?
  /// Writes the value of the `Object` it is given a pointer to (see ``EncodeStep``).
  var step: EncodeStep
  /// Where the value goes: under ``path`` (every rule of the DSL), or, for the `@self` rules
  /// of definition files, into the object itself or as the whole output.
  var placement = OutputPlacement.member

  init(
    path: [String], property: AnyKeyPath & Sendable, label: String, nulls: NullPolicy?,
    step: any EncodeStepKind
  ) {
    self.path = path
    self.property = property
    self.label = label
    self.nulls = nulls
    self.step = EncodeStep(step)
  }

  /// The same rule, written only when the run's groups include one of `names`
  /// (``Attribute/groups(_:)-(String...)``).
  func grouped(_ names: [String]) -> Self {
    var grouped = EncodingRule(
      path: path, property: property, label: label, nulls: nulls,
      step: GroupedEncodeStep(step, groups: names))
    grouped.defaultKeyNames = defaultKeyNames
    grouped.placement = placement
    return grouped
  }

  /// The same rule with its path made by `convention` when it is a default key.
  func keyed(by convention: KeyConvention) -> Self {
    guard let defaultKeyNames else { return self }
    var keyed = self
    keyed.path = defaultKeyNames.map(convention.key(for:))
    return keyed
  }

  /// A rule whose value is written by a closure taking the model (for the rarer rule kinds:
  /// compound sources, computed members, lifted rules).
  init(
    path: [String], property: AnyKeyPath & Sendable, label: String, nulls: NullPolicy?,
    write:
      @escaping @Sendable (Object, inout PayloadWriter, inout EncodingRun, NullPolicy) -> Bool
  ) {
    self.init(
      path: path, property: property, label: label, nulls: nulls,
      step: ClosureEncodeStep(write))
  }

  /// Writes the value of `object`; returns `false` when nothing was written.
  func write(
    _ object: Object, to writer: inout PayloadWriter, run: inout EncodingRun, nulls: NullPolicy
  ) -> Bool {
    withBorrowed(object) { step.write($0.erased, to: &writer, run: &run, nulls: nulls) }
  }
}

/// Where an encoding rule's value goes in the object's output.
enum OutputPlacement: Sendable {
  /// Under the rule's path.
  case member
  /// The value is an object whose members go into the object being written (a `@self`
  /// attribute of a definition file, ``Attribute/writingSelfBack()``).
  case selfMembers
  /// The value is the whole output, written instead of an object (a `@self` collection of a
  /// definition file, ``Relationship/writingSelfBack()``).
  case wholeOutput
}

/// What a rule contributes to the inverse.
enum RuleEncoding<Object>: Sendable {
  case rule(EncodingRule<Object>)
  /// Several outputs: a compound source's parts, an empty-source relationship's flat fields.
  case rules([EncodingRule<Object>])
  case omitted(InverseOmission)

  /// The same encoding, written only in runs whose groups include one of `names`.
  func grouped(_ names: [String]) -> Self {
    switch self {
    case .rule(let rule): return .rule(rule.grouped(names))
    case .rules(let rules): return .rules(rules.map { $0.grouped(names) })
    case .omitted: return self
    }
  }

  /// The same encoding with its rules that write at `names` (the property's names, a default
  /// key) marked as such, for a call's key convention (``MappingOptions/keys``).
  func withDefaultKeys(_ names: [String]) -> Self {
    let mark = { (rule: EncodingRule<Object>) -> EncodingRule<Object> in
      guard rule.path == names else { return rule }
      var marked = rule
      marked.defaultKeyNames = names
      return marked
    }
    switch self {
    case .rule(let rule): return .rule(mark(rule))
    case .rules(let rules): return .rules(rules.map(mark))
    case .omitted: return self
    }
  }
}

/// A rule that has a serializing side (every rule kind of the library).
protocol EncodableRule<Object>: Sendable {
  associatedtype Object
  var encoding: RuleEncoding<Object> { get }
}

/// The output keys of an inverse as a tree, so rules writing `user.name` and `user.email` share
/// one `"user"` object. Keys keep the order in which rules first name them. Built once per
/// plan, then flattened into the plan's members.
///
/// The levels live in one array and refer to each other by index, and both ``insert(_:at:)``
/// and ``flatten(into:keys:)`` loop instead of recursing: a key path of thousands of components
/// (a hostile definition file's `"a.a.a…"`) costs no stack, on a 512 KB thread too.
private struct OutputTree {
  enum Item {
    case rule(EncodeStep, NullPolicy?)
    /// A nested object: the index of its level in ``levels``.
    case branch(Int)
  }

  /// One object of the output.
  struct Level {
    var keys: [String] = []
    var items: [Item] = []
    /// The index of each key's first item: finding a key costs no scan of the keys, so a
    /// mapping with many output keys (a definition file's alternatives) builds in linear time.
    var firstIndex: [String: Int] = [:]

    /// Appends `item` under `key`.
    mutating func append(_ key: String, _ item: Item) {
      if firstIndex[key] == nil { firstIndex[key] = keys.count }
      keys.append(key)
      items.append(item)
    }

    /// The array index of each key when every key of this level is one (`"0"`, `"1"` from
    /// `"nested.0.value"` and `"nested.1"`): the level is written as an array. `nil` otherwise.
    var arrayIndexes: [Int]? {
      let indexes = keys.compactMap { decimalArrayIndex(Array($0.utf8)) }
      return !keys.isEmpty && indexes.count == keys.count ? indexes : nil
    }
  }

  /// The output object (index 0) and every object nested in it.
  var levels = [Level()]

  /// Adds `rule` at `path`; returns why it cannot be added (the key is taken) or `nil`.
  mutating func insert<Object>(_ rule: EncodingRule<Object>, at path: ArraySlice<String>)
    -> String?
  {
    guard !path.isEmpty else { return "it has no output key" }
    guard path.count <= SourcePath.maximumKeyCount else {
      return SourcePath.lengthProblem(keys: path.count, shown: path.joined(separator: "."))
    }
    var level = 0
    var rest = path
    while let first = rest.first, rest.count > 1 {
      if let index = levels[level].firstIndex[first] {
        guard case .branch(let nested) = levels[level].items[index] else {
          return "an earlier rule writes \"\(first)\" as a value, so nothing can be nested in it"
        }
        level = nested
      } else {
        // A new object: nothing below it is taken, so the rest of the path goes in.
        levels.append(Level())
        levels[level].append(first, .branch(levels.count - 1))
        level = levels.count - 1
      }
      rest = rest.dropFirst()
    }
    let last = path[path.endIndex - 1]
    let index = levels[level].firstIndex[last]
    // Two rules in disjoint groups may write one key: a run writes at most one of them.
    guard index == nil || Self.areExclusive(levels[level].items[index ?? 0], rule.step) else {
      return "an earlier rule already writes \"\(rule.path.joined(separator: "."))\""
    }
    if index != nil, let later = rule.step.kind as? GroupedEncodeStep {
      // Written only when groups are selected: with none, the earlier rule writes the key.
      levels[level].append(last, .rule(EncodeStep(later.requiringSelection()), rule.nulls))
    } else {
      levels[level].append(last, .rule(rule.step, rule.nulls))
    }
    return nil
  }

  /// Whether `item` and `step` are rules of disjoint groups.
  private static func areExclusive(_ item: Item, _ step: EncodeStep) -> Bool {
    guard case .rule(let earlierStep, _) = item,
      let earlier = earlierStep.kind as? GroupedEncodeStep,
      let later = step.kind as? GroupedEncodeStep
    else { return false }
    return Set(earlier.groups).isDisjoint(with: later.groups)
  }

  /// Appends the members, depth first: a branch is followed by its own members. The members
  /// of an array level come in index order.
  func flatten(into members: inout [OutputMember], keys allKeys: inout [OutputKey]) {
    /// A level being flattened: its members in writing order, the next one to write, and the
    /// position of the member that opened it (`nil` for the output object).
    struct Pending {
      var order: [(key: String, item: Item, arrayIndex: Int)]
      var next = 0
      var opener: Int?
    }
    func pending(_ level: Int, opener: Int?) -> Pending {
      let entry = levels[level]
      let indexes = entry.arrayIndexes
      var order = entry.keys.indices.map {
        (key: entry.keys[$0], item: entry.items[$0], arrayIndex: indexes?[$0] ?? 0)
      }
      if indexes != nil { order.sort { $0.arrayIndex < $1.arrayIndex } }
      return Pending(order: order, opener: opener)
    }
    var stack = [pending(0, opener: nil)]
    while let top = stack.last {
      guard top.next < top.order.count else {
        stack.removeLast()
        if let opener = top.opener { members[opener].end = members.count }
        continue
      }
      let (key, item, arrayIndex) = top.order[top.next]
      stack[stack.count - 1].next += 1
      let position = members.count
      allKeys.append(OutputKey(key))
      switch item {
      case .rule(let step, let nulls):
        members.append(
          OutputMember(
            step: UnsafeUnretained(step), nulls: nulls, key: allKeys.count - 1,
            end: position + 1,
            scalar: (step.kind as? any ScalarAttributeStep)?.scalarAttribute))
        members[position].arrayIndex = arrayIndex
      case .branch(let nested):
        members.append(
          OutputMember(step: nil, nulls: nil, key: allKeys.count - 1, end: 0, scalar: nil))
        members[position].isArray = levels[nested].arrayIndexes != nil
        members[position].arrayIndex = arrayIndex
        stack.append(pending(nested, opener: position))
      }
    }
  }
}

/// One member of an inverse's output, in a flat array: a rule's value, or a nested object
/// whose members follow it (up to ``end``).
struct OutputMember {
  /// The step writing the value (kept alive by the plan); `nil` for a nested object.
  var step: UnsafeUnretained<EncodeStep>?
  /// The rule's own nil policy.
  var nulls: NullPolicy?
  /// The index of the key in the plan's keys.
  var key: Int
  /// Where the key's compact `"key":` bytes start in the plan's key bytes, and their count.
  var framedStart = 0
  var framedCount = 0
  /// The index after this member's subtree.
  var end: Int
  /// A nested level whose keys are all array indexes, written as an array.
  var isArray = false
  /// In an array level: the member's position in the array.
  var arrayIndex = 0
  /// The rule's value as the compact JSON loop writes it itself (a built-in scalar attribute),
  /// instead of calling ``step``.
  var scalar: ScalarAttribute?
}

/// A rule the inverse left out, and why.
public struct InverseOmission: Sendable, Equatable, CustomStringConvertible {
  /// The rule, as `Attribute "score"` or `Relationship "author"`.
  public let rule: String
  /// Why it was left out.
  public let reason: String

  /// `Attribute "score": it converts with a decode-only closure`.
  public var description: String { "\(rule): \(reason)" }
}

/// The compiled inverse of a mapping: its output members and settings. Built once per inverse;
/// immutable, shared by every serialization.
///
/// The members are a flat array of plain values (a nested object is followed by its members)
/// holding unretained steps, run on the model lent in place: writing a member costs no retain,
/// release or generic copy of the model.
final class InversePlan<Object>: Sendable {
  /// The mapping's own settings; `nil`: inherited (``EncodingRun/nulls``, the writer's date
  /// format).
  let nulls: NullPolicy?
  let dateFormat: DateFormat?
  /// The mapping's own groups (``Mapping/groups(_:)``); `nil`: inherited
  /// (``EncodingRun/groups``).
  let groups: Set<String>?
  /// The mapping's own group matching; `nil`: inherited.
  let groupMatching: GroupMatching?
  let isClass: Bool
  let typeName: String
  let dispatch: (@Sendable (Object, inout PayloadWriter, inout EncodingRun) -> Void)?
  let keyEncoder: (@Sendable (Object) throws -> String)?
  /// Neither `dispatch` nor `keyEncoder`: tested on the hot path instead of the optionals
  /// (testing a generic optional looks up its metadata per object).
  private let isPlain: Bool
  /// The steps the members call, kept alive here.
  private let steps: [EncodeStep]
  /// The output keys, for writers building a ``Node``.
  private let keys: [OutputKey]
  /// For a plan with default keys: the plans it derives for the key conventions calls declare
  /// (``MappingOptions/keys``).
  private let keyVariants: KeyVariants<InversePlan<Object>>?
  /// ``keyVariants`` is set: tested on the hot path instead of the optional.
  private let hasKeyVariants: Bool
  /// The rules left out because another one writes their output key.
  private let placementProblems: [InverseOmission]
  private let members: FixedBuffer<OutputMember>
  /// The number of members.
  private let memberCount: Int
  /// Every key's compact `"key":` bytes, one after the other.
  private let keyBytes: FixedBuffer<UInt8>
  /// A rule whose value is the whole output (``OutputPlacement/wholeOutput``), written instead
  /// of the members; `nil` for every mapping of the DSL.
  private let wholeOutput: EncodeStep?
  /// The rules whose values' members go into the object (``OutputPlacement/selfMembers``),
  /// written after the members, with their own nil policies; none for every mapping of the DSL.
  private let selfMemberSteps: [(step: SelfMembersEncodeStep, nulls: NullPolicy?)]
  /// ``wholeOutput`` or ``selfMemberSteps`` is set: tested on the hot path instead of both.
  private let writesSelf: Bool
  /// The mapping's own key convention, which its child mappings that declare none write with.
  private let ownConvention: KeyConvention?
  /// ``ownConvention`` is set: tested on the hot path instead of the optional.
  private let hasOwnConvention: Bool

  private init(
    rules: [EncodingRule<Object>], nulls: NullPolicy?, dateFormat: DateFormat?,
    groups: Set<String>?, groupMatching: GroupMatching?,
    dispatch: (@Sendable (Object, inout PayloadWriter, inout EncodingRun) -> Void)?,
    keyEncoder: (@Sendable (Object) throws -> String)?, keyConvention: KeyConvention?,
    problems: inout [InverseOmission]
  ) {
    self.groupMatching = groupMatching
    ownConvention = keyConvention
    hasOwnConvention = keyConvention != nil
    if rules.contains(where: { $0.defaultKeyNames != nil }) {
      keyVariants = KeyVariants { convention, _ in
        InversePlan.build(
          rules: rules.map { $0.keyed(by: convention) }, nulls: nulls, dateFormat: dateFormat,
          groups: groups, groupMatching: groupMatching, dispatch: dispatch,
          keyEncoder: keyEncoder
        ).plan
      }
      hasKeyVariants = true
    } else {
      keyVariants = nil
      hasKeyVariants = false
    }
    var tree = OutputTree()
    var placement: [InverseOmission] = []
    var selfMembers: [EncodingRule<Object>] = []
    let whole = rules.first { $0.placement == .wholeOutput }
    for rule in rules {
      if let whole {
        // A `@self` collection is the output: nothing else can be written beside it.
        if rule.label != whole.label || rule.placement != .wholeOutput {
          placement.append(
            InverseOmission(
              rule: rule.label,
              reason: "\(whole.label) writes the whole output (a @self collection), so there is "
                + "no object to write it in"))
        }
        continue
      }
      if rule.placement == .selfMembers {
        selfMembers.append(rule)
      } else if let problem = tree.insert(rule, at: rule.path[...]) {
        placement.append(InverseOmission(rule: rule.label, reason: problem))
      }
    }
    wholeOutput = whole?.step
    placementProblems = placement
    problems += placement
    var flat: [OutputMember] = []
    var keys: [OutputKey] = []
    tree.flatten(into: &flat, keys: &keys)
    // `@self` values' members go after the members the rules write, which they never repeat.
    let writtenKeys = Set(tree.levels[0].keys)
    selfMemberSteps = selfMembers.map {
      (SelfMembersEncodeStep($0.step, excluding: writtenKeys), $0.nulls)
    }
    writesSelf = whole != nil || !selfMembers.isEmpty
    var bytes: [UInt8] = []
    bytes.reserveCapacity(keys.reduce(0) { $0 + $1.framed.count })
    for index in flat.indices {
      let framed = keys[flat[index].key].framed
      flat[index].framedStart = bytes.count
      flat[index].framedCount = framed.count
      bytes += framed
    }
    keyBytes = FixedBuffer(bytes)
    members = FixedBuffer(flat)
    self.keys = keys
    // The members' steps (some made by the tree, see `OutputTree.insert`, or above), kept
    // alive here.
    steps = withExtendedLifetime(tree) { flat.compactMap { $0.step?.target } }
    self.dispatch = dispatch
    self.keyEncoder = keyEncoder
    isPlain = dispatch == nil && keyEncoder == nil
    self.nulls = nulls
    self.dateFormat = dateFormat
    self.groups = groups
    isClass = Object.self is AnyClass
    typeName = "\(Object.self)"
    memberCount = flat.count
  }

  /// Builds the plan, returning also the rules that could not be placed in the output tree.
  static func build(
    rules: [EncodingRule<Object>], nulls: NullPolicy?, dateFormat: DateFormat?,
    groups: Set<String>? = nil, groupMatching: GroupMatching? = nil,
    dispatch: (@Sendable (Object, inout PayloadWriter, inout EncodingRun) -> Void)?,
    keyEncoder: (@Sendable (Object) throws -> String)?, keyConvention: KeyConvention? = nil
  ) -> (plan: InversePlan<Object>, problems: [InverseOmission]) {
    var problems: [InverseOmission] = []
    let plan = InversePlan(
      rules: rules, nulls: nulls, dateFormat: dateFormat, groups: groups,
      groupMatching: groupMatching, dispatch: dispatch,
      keyEncoder: keyEncoder, keyConvention: keyConvention, problems: &problems)
    return (plan, problems)
  }

  /// Writes `object` as a JSON object. A cycle in a class graph is recorded as an error and
  /// nothing is written for the repeated object.
  func encode(_ object: Object, to writer: inout PayloadWriter, run: inout EncodingRun) {
    withBorrowed(object) { encode(at: $0.erased, to: &writer, run: &run) }
  }

  /// ``encode(_:to:run:)`` for the `Object` at `object`.
  func encode(
    at object: UnsafeBorrowedModel, to writer: inout PayloadWriter, run: inout EncodingRun
  ) {
    guard isPlain else { return encodeSpecial(at: object, to: &writer, run: &run) }
    encodeBody(at: object, to: &writer, run: &run)
  }

  /// Writes a dynamic mapping's object, or one nested-key object as `{"<key>": {...}}`; kept
  /// out of line so that the common path of ``encode(at:to:run:)`` touches no optional closure.
  @inline(never)
  private func encodeSpecial(
    at pointer: UnsafeBorrowedModel, to writer: inout PayloadWriter, run: inout EncodingRun
  ) {
    let object = pointer.load(Object.self)
    if let dispatch { return dispatch(object, &writer, &run) }
    encodeKeyedCollection([object], to: &writer, run: &run)
  }

  /// Writes a nested-key collection as one object, one member per object in order; two objects
  /// with the same key are an error naming both paths.
  func encodeKeyedCollection(
    _ objects: some Sequence<Object>, to writer: inout PayloadWriter, run: inout EncodingRun
  ) {
    guard let keyEncoder else { return }
    writer.beginObject()
    var seen: [String: Int] = [:]
    for (offset, object) in objects.enumerated() {
      let key: String
      do {
        key = try keyEncoder(object)
      } catch {
        run.record(error, at: [.index(offset)])
        continue
      }
      if let first = seen[key] {
        run.errors.append(
          MappingError(
            path: _jsonPointer(run.path + [.index(offset)]),
            .duplicateKey(key: key, otherPath: _jsonPointer(run.path + [.index(first)]))))
        continue
      }
      seen[key] = offset
      writer.key(key)
      run.path.append(.key(key))
      encodeBody(object, to: &writer, run: &run)
      run.path.removeLast()
    }
    writer.endObject()
  }

  /// Writes `object`'s members as one JSON object (without a nested-key wrapper).
  func encodeBody(_ object: Object, to writer: inout PayloadWriter, run: inout EncodingRun) {
    withBorrowed(object) { encodeBody(at: $0.erased, to: &writer, run: &run) }
  }

  /// ``encodeBody(_:to:run:)`` for the `Object` at `object`.
  func encodeBody(
    at object: UnsafeBorrowedModel, to writer: inout PayloadWriter, run: inout EncodingRun
  ) {
    if hasKeyVariants, run.hasKeyConvention {
      return encodeKeyedBody(at: object, to: &writer, run: &run)
    }
    if hasOwnConvention, !run.passesOwnConvention {
      return encodePassingConvention(at: object, to: &writer, run: &run)
    }
    run.passesOwnConvention = false
    if let dispatch {
      return dispatch(object.load(Object.self), &writer, &run)
    }
    if isClass {
      guard enter(object, run: &run) else { return writer.null() }
    }
    // Settings: the call's options for the root object, then this mapping's own, then the
    // parent's (MappingOptions' precedence); a rule's own nil policy wins over all of them.
    let outerNulls = run.nulls
    let isRoot = run.depth == 0
    let nulls = (isRoot ? run.options.nulls : nil) ?? self.nulls ?? outerNulls
    let format = (isRoot ? run.options.dateFormats?.first : nil) ?? dateFormat
    let outerFormat = format == nil ? nil : writer.dateFormat
    if let format { writer.dateFormat = format }
    // Groups change only where set (the call's, at the root, or the mapping's own): no set is
    // copied per object otherwise.
    var outerGroups: Set<String>??
    if let groups = (isRoot ? run.options.groups : nil) ?? groups {
      outerGroups = run.groups
      run.groups = groups
    }
    let outerMatching = run.groupMatching
    if let matching = (isRoot ? run.options.groupMatching : nil) ?? groupMatching {
      run.groupMatching = matching
    }
    run.nulls = nulls
    run.depth += 1
    if writesSelf {
      writeWithSelfRules(object, nulls: nulls, writer: &writer, run: &run)
    } else {
      writer.beginObject()
      if writer.target == .json && !writer.json.isPretty {
        _ = writeCompact(
          object, from: 0, to: memberCount, nulls: nulls, writer: &writer, run: &run)
      } else {
        _ = write(object, from: 0, to: memberCount, nulls: nulls, writer: &writer, run: &run)
      }
      writer.endObject()
    }
    run.depth -= 1
    run.nulls = outerNulls
    if let outerGroups { run.groups = outerGroups }
    run.groupMatching = outerMatching
    if let outerFormat { writer.dateFormat = outerFormat }
    if isClass { run.visiting.removeLast() }
  }

  /// ``encodeBody(at:to:run:)`` with this mapping's own convention in effect for its child
  /// mappings; out of line, like ``encodeKeyedBody(at:to:run:)``.
  @inline(never)
  private func encodePassingConvention(
    at object: UnsafeBorrowedModel, to writer: inout PayloadWriter, run: inout EncodingRun
  ) {
    let outer = run.keyConvention
    run.keyConvention = ownConvention
    run.passesOwnConvention = true
    encodeBody(at: object, to: &writer, run: &run)
    run.keyConvention = outer
  }

  /// ``encodeBody(at:to:run:)`` with the plan derived for the call's key convention; out of
  /// line, so that the frame of `encodeBody`, which recursion repeats per level of nesting,
  /// holds nothing for it.
  @inline(never)
  private func encodeKeyedBody(
    at object: UnsafeBorrowedModel, to writer: inout PayloadWriter, run: inout EncodingRun
  ) {
    let keyed = keyed(in: run)
    // Keys the convention made the same (`userID` and a spelled "user_id" under snake_case):
    // one of the rules would be dropped, so nothing is written silently without it.
    let collisions = keyed.placementProblems.filter { !placementProblems.contains($0) }
    guard collisions.isEmpty else {
      for collision in collisions {
        run.errors.append(
          MappingError(
            path: _jsonPointer(run.path),
            .invalidDefinition(message: "with the call's key convention, \(collision)")))
      }
      return writer.null()
    }
    keyed.encodeBody(at: object, to: &writer, run: &run)
  }

  /// The plan to write with in `run`: the one derived for the call's key convention when the
  /// call declares one and this plan has default keys, else this one.
  @inline(never)
  private func keyed(in run: borrowing EncodingRun) -> InversePlan<Object> {
    guard let keyVariants, let convention = run.keyConvention else { return self }
    return keyVariants.plan(for: convention, owner: ObjectIdentifier(self))
  }

  /// Notes that the class instance at `object` is being written; `false` (with a cycle error)
  /// when it already is, further out.
  @inline(never)
  private func enter(_ object: UnsafeBorrowedModel, run: inout EncodingRun) -> Bool {
    let id = ObjectIdentifier(object.load(Object.self) as AnyObject)
    guard !run.visiting.contains(id) else {
      run.errors.append(MappingError(path: _jsonPointer(run.path), .cycle(type: typeName)))
      return false
    }
    run.visiting.append(id)
    return true
  }

  /// Writes the model at `object` with its `@self` rules: the whole-output rule's value instead
  /// of an object, or the object with the members of the `@self` values after the rules'
  /// (``SelfMembersEncodeStep``). Out of line, for definition files only.
  @inline(never)
  private func writeWithSelfRules(
    _ object: UnsafeBorrowedModel, nulls objectNulls: NullPolicy, writer: inout PayloadWriter,
    run: inout EncodingRun
  ) {
    if let wholeOutput {
      if !wholeOutput.write(object, to: &writer, run: &run, nulls: objectNulls) { writer.null() }
      return
    }
    writer.beginObject()
    _ = write(object, from: 0, to: memberCount, nulls: objectNulls, writer: &writer, run: &run)
    for (step, nulls) in selfMemberSteps {
      let mark = writer.checkpoint()
      if !step.write(object, to: &writer, run: &run, nulls: nulls ?? objectNulls) {
        writer.rollback(to: mark)
      }
    }
    writer.endObject()
  }

  /// Writes the members in `start..<end` (one level of the output) of the model at `object`
  /// into a compact JSON writer; returns whether any was written. A member that writes nothing
  /// (a `nil` left out, a failure, an empty nested object) has its key taken back.
  private func writeCompact(
    _ object: UnsafeBorrowedModel, from start: Int, to end: Int, nulls objectNulls: NullPolicy,
    writer: inout PayloadWriter,
    run: inout EncodingRun
  ) -> Bool {
    var wroteAny = false
    var index = start
    while index < end {
      let member = members[index]
      // A scalar that is not optional always writes a value: no checkpoint to take its key
      // back.
      if let scalar = member.scalar, !scalar.kind.isOptional {
        keyBytes.writeKey(from: member.framedStart, count: member.framedCount, to: &writer.json)
        _ = scalar.write(object, root: Object.self, to: &writer, nulls: objectNulls)
        wroteAny = true
        index += 1
        continue
      }
      let mark = writer.json.checkpoint()
      keyBytes.writeKey(from: member.framedStart, count: member.framedCount, to: &writer.json)
      let wrote: Bool
      if let scalar = member.scalar {
        wrote = scalar.write(
          object, root: Object.self, to: &writer, nulls: member.nulls ?? objectNulls)
        index += 1
      } else if let step = member.step {
        let nulls = member.nulls ?? objectNulls
        wrote = step.call {
          $0.write(object, to: &writer, run: &run, nulls: nulls)
        }
        index += 1
      } else if member.isArray {
        wrote = writeElements(
          object, from: index + 1, to: member.end, nulls: objectNulls, writer: &writer,
          run: &run)
        index = member.end
      } else {
        writer.json.beginObject()
        wrote = writeCompact(
          object, from: index + 1, to: member.end, nulls: objectNulls, writer: &writer,
          run: &run)
        writer.json.endObject()
        index = member.end
      }
      if wrote {
        wroteAny = true
      } else {
        writer.json.rollback(to: mark)
      }
    }
    return wroteAny
  }

  /// ``writeCompact(_:from:to:nulls:writer:run:)`` for any writer (pretty JSON, nodes).
  private func write(
    _ object: UnsafeBorrowedModel, from start: Int, to end: Int, nulls objectNulls: NullPolicy,
    writer: inout PayloadWriter,
    run: inout EncodingRun
  ) -> Bool {
    var wroteAny = false
    var index = start
    while index < end {
      let member = members[index]
      let mark = writer.checkpoint()
      writer.key(keys[member.key])
      if writeValue(object, at: &index, nulls: objectNulls, writer: &writer, run: &run) {
        wroteAny = true
      } else {
        writer.rollback(to: mark)
      }
    }
    return wroteAny
  }

  /// Writes the value of the member at `index` (a rule's value, a nested array level or a
  /// nested object, without its key) with any writer, and moves `index` past the member's
  /// subtree; returns whether anything was written.
  private func writeValue(
    _ object: UnsafeBorrowedModel, at index: inout Int, nulls objectNulls: NullPolicy,
    writer: inout PayloadWriter, run: inout EncodingRun
  ) -> Bool {
    let member = members[index]
    if let step = member.step {
      let nulls = member.nulls ?? objectNulls
      index += 1
      return step.call { $0.write(object, to: &writer, run: &run, nulls: nulls) }
    }
    defer { index = member.end }
    if member.isArray {
      return writeElements(
        object, from: index + 1, to: member.end, nulls: objectNulls, writer: &writer, run: &run)
    }
    writer.beginObject()
    let wrote = write(
      object, from: index + 1, to: member.end, nulls: objectNulls, writer: &writer, run: &run)
    writer.endObject()
    return wrote
  }

  /// Writes the members in `start..<end`, an array level (rules with index paths such as
  /// `"nested.0.value"`), as an array: each at its index, `null` in the gaps and where a member
  /// writes nothing, so that every value reads back from its index. Returns whether any member
  /// was written (an array of nothing but gaps is taken back with its key).
  private func writeElements(
    _ object: UnsafeBorrowedModel, from start: Int, to end: Int, nulls objectNulls: NullPolicy,
    writer: inout PayloadWriter, run: inout EncodingRun
  ) -> Bool {
    writer.beginArray()
    var wroteAny = false
    var position = 0
    var index = start
    while index < end {
      let member = members[index]
      while position < member.arrayIndex {
        writer.null()
        position += 1
      }
      let mark = writer.checkpoint()
      if writeValue(object, at: &index, nulls: objectNulls, writer: &writer, run: &run) {
        wroteAny = true
      } else {
        writer.rollback(to: mark)
        writer.null()
      }
      position += 1
    }
    writer.endArray()
    return wroteAny
  }
}

/// A rule's step with a stand-in: `primary` writes the value when it has one (`null` left out),
/// `fallback` otherwise (a dynamic case's discriminator behind the case's own property).
final class FallbackEncodeStep: EncodeStepKind {
  let primary: EncodeStep
  let fallback: EncodeStep

  init(_ primary: EncodeStep, _ fallback: EncodeStep) {
    self.primary = primary
    self.fallback = fallback
  }

  func write(
    _ object: UnsafeBorrowedModel, to writer: inout PayloadWriter, run: inout EncodingRun,
    nulls: NullPolicy
  ) -> Bool {
    if primary.write(object, to: &writer, run: &run, nulls: .omit) { return true }
    return fallback.write(object, to: &writer, run: &run, nulls: nulls)
  }
}

/// The serializing step of a rule tagged with groups: writes nothing (its key is taken back)
/// unless the run's groups include one of its own.
final class GroupedEncodeStep: EncodeStepKind {
  let inner: EncodeStep
  let groups: [String]
  /// Writes only when the run selects groups: the rule shares its key with an earlier rule of
  /// disjoint groups, which alone writes it when no groups are selected.
  let requiresSelection: Bool

  init(_ inner: EncodeStep, groups: [String], requiresSelection: Bool = false) {
    self.inner = inner
    self.groups = groups
    self.requiresSelection = requiresSelection
  }

  /// The same step, writing only when the run selects groups.
  func requiringSelection() -> GroupedEncodeStep {
    GroupedEncodeStep(inner, groups: groups, requiresSelection: true)
  }

  func write(
    _ object: UnsafeBorrowedModel, to writer: inout PayloadWriter, run: inout EncodingRun,
    nulls: NullPolicy
  ) -> Bool {
    // No groups selected (none, or an empty set): every rule applies.
    guard let active = run.groups, !active.isEmpty else {
      return requiresSelection ? false : inner.write(object, to: &writer, run: &run, nulls: nulls)
    }
    guard run.groupMatching.includes(groups, selected: active) else { return false }
    return inner.write(object, to: &writer, run: &run, nulls: nulls)
  }
}

/// The serializing step of a `@self` attribute of a definition file
/// (``Attribute/writingSelfBack()``): the attribute's value, written as a `Node`, must be an
/// object (or nothing: `nil` left out, `null`), and its members go into the object being written,
/// except the keys other rules of the object write.
final class SelfMembersEncodeStep: EncodeStepKind {
  let inner: EncodeStep
  /// The keys the object's other rules write.
  let excluded: Set<String>

  init(_ inner: EncodeStep, excluding excluded: Set<String>) {
    self.inner = inner
    self.excluded = excluded
  }

  func write(
    _ object: UnsafeBorrowedModel, to writer: inout PayloadWriter, run: inout EncodingRun,
    nulls: NullPolicy
  ) -> Bool {
    var values = writer.nodeWriter()
    guard inner.write(object, to: &values, run: &run, nulls: nulls) else { return false }
    switch values.nodes.result {
    case .null:
      return false
    case .object(let members):
      var wrote = false
      var seen = excluded
      for member in members where seen.insert(member.key).inserted {
        writer.key(member.key)
        do {
          try writer.node(member.value)
        } catch {
          run.record(error, at: [.key(member.key)])
          return false
        }
        wrote = true
      }
      return wrote
    case let other:
      run.record(
        MappingError(
          .notRepresentable(
            reason: "a @self value is written into the object, so it must be an object, not "
              + other.kindDescription)), at: [])
      return false
    }
  }
}
