/// A mapping that picks, per object, which mapping applies: polymorphic payloads.
///
/// ```swift
/// let person = DynamicMapping<Person> {
///   Match("type", equals: "Boy", boyMapping)
///   Match("type", equals: "Girl", girlMapping)
/// }
/// let people = try person.mapCollection(json)   // [Person], each a Boy or a Girl
/// let body = try person.serialize(sarah)        // {"name":"Sarah","type":"Girl"}
/// ```
///
/// - **Matching**: matchers are tried in order and the first match wins. A matcher reads one key
///   path (nested ones too: `"meta.kind"`) and compares it with a scalar — type-strictly, so `1`
///   does not match `true` or `"1"`, unless the matcher is `.converting()`.
/// - **Declining**: an object no case matches is *declined*: in a collection it is skipped and
///   reported as a diagnostic; as a required to-one child or a whole payload it is an error.
///   ``declinesAsErrors()`` makes every decline an error.
/// - **Polymorphism**: a case's model type can be a subclass of `Base` (class hierarchies), a
///   type conforming to a protocol `Base` (`any Shape`), or the payload of an enum case
///   (`Match("kind", equals: "circle", circleMapping, case: Shape.circle) { … }`, whose
///   closure unwraps the case for serialization).
/// - **Inverse**: serialization picks the case by the value's runtime type (or enum case) and
///   writes the discriminator back (`"type": "Boy"`), so polymorphic POST bodies work.
///
/// After the matchers, a fallback can take the objects none selected: a default case
/// (`Match.otherwise(_:)`) or a closure
/// (``Match/otherwise(choosing:serializingWith:)``). A closure can also choose the mapping instead
/// of matchers, see ``init(choosing:serializingWith:)``. Dynamic mappings are immutable and `Sendable`; matchers
/// hold no state.
public struct DynamicMapping<Base>: MappingProtocol {
  /// The compiled plan (opaque).
  public let plan: MappingPlan<Base>

  private let cases: [DynamicCase<Base>]
  private let matchers: [Matcher?]
  private let chooser: (@Sendable (PayloadValue) -> DynamicCase<Base>?)?
  private let fallback: (@Sendable (PayloadValue) -> DynamicCase<Base>?)?
  private let tables: [DynamicCase<Base>]
  private let declineIsError: Bool
  private let closureHasInverse: Bool
  /// Mistakes in the order of the matchers (a fallback before matchers it would hide).
  private let orderProblems: [String]

  /// A dynamic mapping whose cases are chosen by matchers, tried in order.
  ///
  /// - Parameter matches: ``Match`` values, with `if`, `else` and `for` allowed.
  public init(@DynamicMappingBuilder<Base> _ matches: () -> [Match<Base>]) {
    var cases: [DynamicCase<Base>] = []
    var matchers: [Matcher?] = []
    var fallback: (@Sendable (PayloadValue) -> DynamicCase<Base>?)?
    var tables: [DynamicCase<Base>] = []
    let all = matches()
    for match in all {
      if let dynamicCase = match.dynamicCase {
        cases.append(dynamicCase)
        matchers.append(match.matcher)
      } else if let closure = match.fallback {
        // The first closure fallback decides; cases after it are only reached by serialization.
        if fallback == nil { fallback = closure.choose }
        tables += closure.table
      }
    }
    self.init(
      cases: cases, matchers: matchers, orderProblems: Self.orderProblems(of: all), chooser: nil,
      fallback: fallback, tables: tables, declineIsError: false, closureHasInverse: true)
  }

  /// What is misleading in the order of `matches`: a fallback (`Match.otherwise`) anywhere but
  /// last hides the matchers after it (a default case) or reads as if tried before them (a
  /// closure, always tried after every matcher); a second fallback is never reached;
  /// `.converting()` on a fallback has no value to convert.
  private static func orderProblems(of matches: [Match<Base>]) -> [String] {
    var problems: [String] = []
    let fallbacks = matches.indices.filter { matches[$0].matcher == nil }
    if let first = fallbacks.first, first < matches.count - 1,
      matches[(first + 1)...].contains(where: { $0.matcher != nil })
    {
      problems.append(
        "DynamicMapping<\(Base.self)>: Match.otherwise is number \(first + 1) of \(matches.count), "
          + "before matchers it would hide (a default case) or that are tried before it anyway "
          + "(a closure); put Match.otherwise last")
    }
    if fallbacks.count > 1 {
      problems.append(
        "DynamicMapping<\(Base.self)> has \(fallbacks.count) Match.otherwise fallbacks; only the "
          + "first is ever tried when mapping, so keep one")
    }
    for matcher in matches.compactMap(\.matcher) where matcher.path.isSpecial {
      if case .metadata = matcher.path.storage { continue }
      problems.append(
        "DynamicMapping<\(Base.self)>: Match(\"\(matcher.path)\") reads a special source; a "
          + "matcher reads a key path of the object being chosen for, or the call's "
          + "@metadata (a key of that name is written with a leading \\@)")
    }
    if matches.contains(where: \.convertingIgnored) {
      problems.append(
        "DynamicMapping<\(Base.self)>: .converting() on Match.otherwise has no discriminator to "
          + "convert; remove it")
    }
    return problems
  }

  /// A dynamic mapping whose case a closure chooses from the representation (RestKit's block
  /// form). Return `nil` to decline the object.
  ///
  /// ```swift
  /// let person = DynamicMapping<Person>(
  ///   choosing: { value in
  ///     switch try? value["type"]?.decode(String.self) {
  ///     case "Boy": DynamicCase(boyMapping)
  ///     case "Girl": DynamicCase(girlMapping)
  ///     default: nil
  ///     }
  ///   },
  ///   serializingWith: [DynamicCase(boyMapping), DynamicCase(girlMapping)])
  /// ```
  ///
  /// - Parameters:
  ///   - choose: Picks the case for one object; called once per object, from any task.
  ///   - table: The cases serialization picks from by runtime type. Without it the inverse
  ///     cannot serialize and lists the mapping in ``InverseMapping/omitted``.
  @preconcurrency
  public init(
    choosing choose: @escaping @Sendable (PayloadValue) -> DynamicCase<Base>?,
    serializingWith table: [DynamicCase<Base>]? = nil
  ) {
    self.init(
      cases: table ?? [], matchers: [], chooser: choose, fallback: nil, tables: [],
      declineIsError: false, closureHasInverse: table != nil)
  }

  private init(
    cases: [DynamicCase<Base>], matchers: [Matcher?], orderProblems: [String] = [],
    chooser: (@Sendable (PayloadValue) -> DynamicCase<Base>?)?,
    fallback: (@Sendable (PayloadValue) -> DynamicCase<Base>?)?, tables: [DynamicCase<Base>],
    declineIsError: Bool, closureHasInverse: Bool
  ) {
    self.cases = cases
    self.matchers = matchers
    self.chooser = chooser
    self.fallback = fallback
    self.tables = tables
    self.declineIsError = declineIsError
    self.closureHasInverse = closureHasInverse
    self.orderProblems = orderProblems
    let dispatch = DynamicDispatch(
      cases: cases, matchers: matchers, chooser: chooser, fallback: fallback,
      declineIsError: declineIsError)
    let inverse: InverseMapping<Base>
    if closureHasInverse {
      let encoders =
        zip(cases, matchers + Array(repeating: nil, count: cases.count)).map {
          dynamicCase, matcher in
          dynamicCase.makeEncoder(
            matcher.flatMap {
              $0.path.isSpecial ? nil : Discriminator(path: $0.path.keys, value: $0.value)
            })
        } + tables.map { $0.makeEncoder(nil) }
      inverse = InverseMapping(dispatchingTo: encoders, typeName: "\(Base.self)")
    } else {
      inverse = InverseMapping(
        leftOut: InverseOmission(
          rule: "DynamicMapping<\(Base.self)>",
          reason: "its case is chosen by a closure and no serializing table was given"))
    }
    let problems =
      (cases.isEmpty && chooser == nil && fallback == nil
        ? ["DynamicMapping<\(Base.self)> has no matchers, so it maps nothing"] : [])
      + orderProblems
    plan = MappingPlan(_MappingPlan(dynamic: dispatch, inverse: inverse, problems: problems))
  }

  /// Checks the definition and reports every mistake at once (also reported when the mapping is
  /// first used): a dynamic mapping without matchers.
  ///
  /// - Throws: ``MappingErrors`` with one `invalidDefinition` error per mistake.
  public func validate() throws(MappingErrors) {
    try _plan.checkDefinition()
  }

  /// The same mapping, treating every declined object as an error (`no mapping matches`)
  /// instead of skipping it with a diagnostic.
  public func declinesAsErrors() -> Self {
    DynamicMapping(
      cases: cases, matchers: matchers, orderProblems: orderProblems, chooser: chooser,
      fallback: fallback, tables: tables, declineIsError: true,
      closureHasInverse: closureHasInverse)
  }
}

/// A matcher and the case it selects: `Match("type", equals: "Boy", boyMapping)`.
public struct Match<Base>: Sendable {
  /// The discriminator test; `nil` for a fallback (`otherwise(_:)`).
  var matcher: Matcher?
  /// The case selected; `nil` for a closure fallback.
  let dynamicCase: DynamicCase<Base>?
  /// `.converting()` was called on a fallback, which has no discriminator (a definition
  /// problem).
  var convertingIgnored = false
  /// A closure fallback's chooser and the cases it serializes with.
  var fallback:
    (choose: @Sendable (PayloadValue) -> DynamicCase<Base>?, table: [DynamicCase<Base>])?

  /// Selects `mapping` when the value at `keyPath` equals `value` (type-strictly).
  ///
  /// - Parameters:
  ///   - keyPath: Where the discriminator is read (dotted, nested paths allowed).
  ///   - value: A scalar: a string, number, boolean or `null` literal.
  ///   - mapping: The mapping of a subclass of `Base` or of a type conforming to `Base`.
  public init<Child>(
    _ keyPath: some SourcePathConvertible, equals value: Node,
    _ mapping: some MappingProtocol<Child>
  ) {
    matcher = Matcher(path: keyPath.sourcePath, value: value, converting: false)
    dynamicCase = DynamicCase(mapping)
  }

  /// Selects `mapping` for an enum case: `embed` wraps the mapped value in the case, `extract`
  /// unwraps it for serialization.
  ///
  /// ```swift
  /// Match("kind", equals: "circle", circleMapping, case: Shape.circle) {
  ///   if case .circle(let circle) = $0 { circle } else { nil }
  /// }
  /// ```
  @preconcurrency
  public init<Child>(
    _ keyPath: some SourcePathConvertible, equals value: Node,
    _ mapping: some MappingProtocol<Child>, case embed: @escaping @Sendable (Child) -> Base,
    extract: @escaping @Sendable (Base) -> Child?
  ) {
    matcher = Matcher(path: keyPath.sourcePath, value: value, converting: false)
    dynamicCase = DynamicCase(mapping, embed: embed, extract: extract)
  }

  /// Removed: pass `extract:` (``init(_:equals:_:case:extract:)``); see
  /// ``DynamicCase/init(_:case:)``.
  @available(
    *, unavailable,
    message:
      "add extract: { if case .circle(let value) = $0 { value } else { nil } }, so serialization needs no reflection"
  )
  @preconcurrency
  public init<Child>(
    _ keyPath: some SourcePathConvertible, equals value: Node,
    _ mapping: some MappingProtocol<Child>, case embed: @escaping @Sendable (Child) -> Base
  ) {
    matcher = Matcher(path: keyPath.sourcePath, value: value, converting: false)
    dynamicCase = DynamicCase(mapping, embed: embed, extract: { _ in nil })
  }

  /// Selects a case with explicit conversions both ways.
  public init(
    _ keyPath: some SourcePathConvertible, equals value: Node, _ dynamicCase: DynamicCase<Base>
  ) {
    matcher = Matcher(path: keyPath.sourcePath, value: value, converting: false)
    self.dynamicCase = dynamicCase
  }

  /// The same matcher comparing converted values: `"1"`, `1` and `1.0` match each other, and
  /// `"true"` matches `true`.
  public func converting() -> Self {
    var copy = self
    if copy.matcher == nil { copy.convertingIgnored = true }
    copy.matcher?.converting = true
    return copy
  }

  private init(
    matcher: Matcher?, dynamicCase: DynamicCase<Base>?,
    fallback: (choose: @Sendable (PayloadValue) -> DynamicCase<Base>?, table: [DynamicCase<Base>])?
  ) {
    self.matcher = matcher
    self.dynamicCase = dynamicCase
    self.fallback = fallback
  }

  /// The mapping for objects no earlier matcher selected (a default case), placed last.
  ///
  /// ```swift
  /// DynamicMapping<Person> {
  ///   Match("type", equals: "Boy", boyMapping)
  ///   Match("type", equals: "Girl", girlMapping)
  ///   Match.otherwise(personMapping)   // any other "type", or none
  /// }
  /// ```
  ///
  /// Serializing writes no discriminator for it. A fallback goes last: one placed before
  /// matchers, a second fallback, or `.converting()` on a fallback is a definition problem,
  /// reported by `validate()` and on first use.
  public static func otherwise<Child>(_ mapping: some MappingProtocol<Child>) -> Match<Base> {
    Match(matcher: nil, dynamicCase: DynamicCase(mapping), fallback: nil)
  }

  /// A fallback case given as a ``DynamicCase`` (an enum case with `embed`/`extract`).
  public static func otherwise(_ dynamicCase: DynamicCase<Base>) -> Match<Base> {
    Match(matcher: nil, dynamicCase: dynamicCase, fallback: nil)
  }

  /// A closure that chooses the case for objects no earlier matcher selected; `nil` declines
  /// the object.
  ///
  /// ```swift
  /// Match.otherwise(
  ///   choosing: { value in (try? value["legacy_kind"]?.decode(String.self)) == "b" ? boyCase : nil },
  ///   serializingWith: [boyCase])
  /// ```
  ///
  /// - Parameters:
  ///   - choose: Picks the case for one object; called from any task.
  ///   - table: The cases it can choose, for serialization by runtime type (after the
  ///     matchers' cases; no discriminator is written for them).
  @preconcurrency
  public static func otherwise(
    choosing choose: @escaping @Sendable (PayloadValue) -> DynamicCase<Base>?,
    serializingWith table: [DynamicCase<Base>] = []
  ) -> Match<Base> {
    Match(matcher: nil, dynamicCase: nil, fallback: (choose, table))
  }
}

/// Builds the matchers of a ``DynamicMapping``.
@resultBuilder
public enum DynamicMappingBuilder<Base> {
  /// One matcher.
  public static func buildExpression(_ match: Match<Base>) -> [Match<Base>] { [match] }
  /// The matchers of a block, in order.
  public static func buildBlock(_ parts: [Match<Base>]...) -> [Match<Base>] { parts.flatMap { $0 } }
  /// An `if` without `else`.
  public static func buildOptional(_ part: [Match<Base>]?) -> [Match<Base>] { part ?? [] }
  /// The `if` branch.
  public static func buildEither(first part: [Match<Base>]) -> [Match<Base>] { part }
  /// The `else` branch.
  public static func buildEither(second part: [Match<Base>]) -> [Match<Base>] { part }
  /// A `for` loop.
  public static func buildArray(_ parts: [[Match<Base>]]) -> [Match<Base>] { parts.flatMap { $0 } }
}

/// A discriminator test: the value at `path` compared with `value`.
struct Matcher: Sendable {
  let path: SourcePath
  let value: Node
  var converting: Bool

  /// How the matcher reads in traces and messages: `type == "Boy"`.
  var description: String { "\(path) == \(value)" }

  func matches(_ run: MappingRun, objectIndex: Int) -> Bool {
    // `@metadata.…` reads the call's metadata: a choice by what the caller says
    // (ObjectMapper's `MapContext`), the same for every object of the call.
    if case .metadata(let keys) = path.storage {
      return matches(found: run.metadataValue(keys))
    }
    return matches(found: path.resolve(in: run.tape, from: objectIndex).map(run.tape.node(at:)))
  }

  /// Whether the value found at the path (`nil`: absent) matches.
  private func matches(found: Node?) -> Bool {
    guard let found else { return value == .null && converting }
    if found == value { return true }
    guard converting, let left = found._scalarText, let right = value._scalarText else {
      return false
    }
    if let leftNumber = _CanonicalNumber(text: left),
      let rightNumber = _CanonicalNumber(text: right)
    {
      return leftNumber == rightNumber
    }
    return left.lowercased() == right.lowercased()
  }
}

extension Node {
  /// The text of a scalar for converting comparisons; `nil` for containers and `null`.
  fileprivate var _scalarText: String? {
    switch self {
    case .string(let text): return text
    case .decimal(let number): return number.text
    case .integer(let number): return String(number)
    case .double(let number): return number.description
    case .bool(let flag): return flag ? "true" : "false"
    case .null, .array, .object: return nil
    }
  }
}

/// The discriminator a case writes back, at its key path.
struct Discriminator: Sendable {
  let path: [String]
  let value: Node
}

/// The decoding side of a dynamic mapping: which case applies to an object.
struct DynamicDispatch<Base>: Sendable {
  let cases: [DynamicCase<Base>]
  let matchers: [Matcher?]
  let chooser: (@Sendable (PayloadValue) -> DynamicCase<Base>?)?
  /// A closure tried after the matchers (``Match/otherwise(choosing:serializingWith:)``).
  let fallback: (@Sendable (PayloadValue) -> DynamicCase<Base>?)?
  let declineIsError: Bool

  /// Maps the object at `index` with the chosen case; `nil` with an error, or with a diagnostic
  /// when declined (the caller decides whether a decline is acceptable there).
  func decode(at index: Int, run: inout MappingRun, declineIsAcceptable: Bool) -> Base? {
    // Only the chosen case's decoder is kept in this frame, which recursion through a dynamic
    // mapping repeats per level of nesting.
    guard
      let decodeCase = chosenDecoder(at: index, run: &run, declineIsAcceptable: declineIsAcceptable)
    else { return nil }
    return decodeCase(index, &run)
  }

  /// The decoder of the case chosen for the object at `index`, or `nil` (with the decline
  /// recorded).
  @inline(never)
  private func chosenDecoder(
    at index: Int, run: inout MappingRun, declineIsAcceptable: Bool
  ) -> (@Sendable (Int, inout MappingRun) -> Base?)? {
    chosenCase(at: index, run: &run, declineIsAcceptable: declineIsAcceptable)?.decode
  }

  /// The case chosen for the object at `index`, or `nil` (with the decline recorded).
  func chosenCase(
    at index: Int, run: inout MappingRun, declineIsAcceptable: Bool
  ) -> DynamicCase<Base>? {
    guard let chosen = choose(at: index, run: run) else {
      let reason = declineReason(at: index, run: run)
      run.traceEvent(.declined(reason: reason))
      if declineIsError || !declineIsAcceptable {
        run.fail(.declined(reason: reason))
      } else {
        run.note(.declined(reason: reason))
      }
      return nil
    }
    if run.trace != nil {
      let name = chosen.matcher.map { "\($0.description) -> \(chosen.dynamicCase.name)" }
      run.traceEvent(.caseChosen(name ?? chosen.dynamicCase.name))
    }
    return chosen.dynamicCase
  }

  /// The case for the object at `index` and the matcher that chose it (`nil` for a closure or
  /// a case without matcher).
  private func choose(at index: Int, run: MappingRun) -> (
    dynamicCase: DynamicCase<Base>, matcher: Matcher?
  )? {
    if let chooser {
      let payload = PayloadValue(run: run, index: index, context: .default)
      return chooser(payload).map { ($0, nil) }
    }
    guard run.tape[index].kind == .object else { return nil }
    for (dynamicCase, matcher) in zip(cases, matchers) {
      guard let matcher else { return (dynamicCase, nil) }
      if matcher.matches(run, objectIndex: index) { return (dynamicCase, matcher) }
    }
    guard let fallback else { return nil }
    return fallback(PayloadValue(run: run, index: index, context: .default)).map { ($0, nil) }
  }

  private func declineReason(at index: Int, run: MappingRun) -> String {
    guard run.tape[index].kind == .object else {
      return "expected an object, found \(run.foundDescription(at: index))"
    }
    if chooser != nil { return "the closure chose no mapping" }
    let closure = fallback == nil ? "" : "; the fallback closure chose no mapping"
    let paths = matchers.compactMap { $0?.path }
    var seen: [SourcePath] = []
    for path in paths where !seen.contains(path) { seen.append(path) }
    let found = seen.map { path -> String in
      guard let valueIndex = path.resolve(in: run.tape, from: index) else {
        return "\(path) is absent"
      }
      return "\(path) is \(run.tape.node(at: valueIndex))"
    }
    return found.joined(separator: ", ") + closure
  }
}

/// Writes a value with one case's inverse if the case serializes it (`exact`: only for the exact
/// runtime type); returns whether it did.
struct CaseEncoder<Base>: Sendable {
  let encode: @Sendable (Base, _ exact: Bool, inout PayloadWriter, inout EncodingRun) -> Bool
}
