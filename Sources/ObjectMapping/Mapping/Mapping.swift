/// A two-way description of how a payload maps to a model type: build it once, use it from any
/// number of tasks.
///
/// ```swift
/// let authorMapping = Mapping(Author.init) {
///   Attribute("name", \.name)
///   Attribute("email", \.email)
/// }
///
/// let articleMapping = Mapping(Article.init) {
///   Attribute("id", \.id)
///   Attribute("title", \.title)
///   Attribute("body", \.body, default: "")
///   Attribute("publication_date", \.publishedAt, .date(format: "M/d/yyyy"))
///   Attribute("meta.tags", \.tags)
///   Relationship("author", \.author, authorMapping)
/// }
///
/// let article: Article = try articleMapping.map(jsonData)
/// ```
///
/// `make` creates a fresh instance (`Article.init`); the rules then set its properties through
/// key paths. Works for structs and final classes. The rules are compiled into a plan when the
/// mapping is built; mapping never re-plans per object and a mapping holds no mutable state.
public struct Mapping<Object>: MappingProtocol {
  let make: @Sendable () -> Object
  let rules: [any MappingRule<Object>]
  var coercionMode: Coercion = .lenient
  var formats: [DateFormat] = DateFormat.defaultFormats

  /// The compiled plan.
  public private(set) var _plan: _MappingPlan<Object>

  /// Creates a mapping.
  ///
  /// - Parameters:
  ///   - make: Creates a fresh instance of the model (`Article.init`).
  ///   - rules: The rules: ``Attribute`` and ``Relationship`` values, with `if`, `else` and `for`.
  public init(
    _ make: @escaping @Sendable () -> Object,
    @MappingBuilder<Object> rules: () -> [any MappingRule<Object>]
  ) {
    self.make = make
    self.rules = rules()
    _plan = _MappingPlan(placeholder: ())
    rebuildPlan()
  }

  private mutating func rebuildPlan() {
    let context = _ValueContext(coercion: coercionMode, dateFormats: formats)
    let compiled = rules.compactMap { ($0 as? any _DecodingRule<Object>)?.bound(to: context) }
    _plan = _MappingPlan(make: make, rules: compiled, context: context)
  }

  /// The same mapping with another coercion mode (default ``Coercion/lenient``).
  public func coercion(_ mode: Coercion) -> Self {
    var copy = self
    copy.coercionMode = mode
    copy.rebuildPlan()
    return copy
  }

  /// The same mapping reading `Date` attributes with these formats, tried in order (default
  /// ``DateFormat/defaultFormats``). Serialization writes the first.
  public func dateFormats(_ formats: [DateFormat]) -> Self {
    var copy = self
    copy.formats = formats
    copy.rebuildPlan()
    return copy
  }
}

/// A mapping of any kind that relationships and mappers can use.
public protocol MappingProtocol<Object>: Sendable {
  /// The model type the mapping produces.
  associatedtype Object
  /// The compiled plan (an implementation detail).
  var _plan: _MappingPlan<Object> { get }
}

/// The compiled form of a mapping (an implementation detail; its members are internal).
public final class _MappingPlan<Object>: Sendable {
  let make: (@Sendable () -> Object)?
  let rules: [any _DecodingRule<Object>]
  let context: _ValueContext
  /// The rules compiled for decoding, in order: a plain array of classes, so running them per
  /// object needs no existential or generic metadata lookups.
  let steps: [_DecodeStep]
  /// The same steps, unretained: the loop over them reads these so that calling a step costs no
  /// retain and release (``steps`` keeps them alive).
  private let unretainedSteps: [Unmanaged<_DecodeStep>]
  /// Whether every rule reads a special source (``SourcePath/root``), so the mapped value need
  /// not be an object.
  let readsOnlySpecialSources: Bool

  init(
    make: @escaping @Sendable () -> Object, rules: [any _DecodingRule<Object>],
    context: _ValueContext
  ) {
    self.make = make
    self.rules = rules
    self.context = context
    steps = _MappingPlan.compile(rules)
    unretainedSteps = steps.map { Unmanaged.passUnretained($0) }
    readsOnlySpecialSources = rules.allSatisfy { $0.source.isSpecial }
  }

  init(placeholder: Void) {
    make = nil
    rules = []
    context = .default
    steps = []
    unretainedSteps = []
    readsOnlySpecialSources = true
  }

  /// The decode steps of `rules`; a step whose first key an earlier rule also reads is told so,
  /// since its lookup must not start after that rule's member.
  private static func compile(_ rules: [any _DecodingRule<Object>]) -> [_DecodeStep] {
    var earlierKeys: Set<[UInt8]> = []
    return rules.map { rule in
      let firstKey = rule.source.isSpecial ? nil : rule.source.utf8Keys.first
      let mayRepeat = firstKey.map { !earlierKeys.insert($0).inserted } ?? false
      return rule.decodeStep(mayRepeat: mayRepeat)
    }
  }

  /// Maps the object at `index` into a fresh instance; `nil` (with errors in `run`) when the
  /// object fails.
  func decodeNew(at index: Int, run: inout _MappingRun) -> Object? {
    guard let make, acceptsValue(at: index, run: &run) else { return nil }
    var object = make()
    return decode(into: &object, at: index, run: &run) ? object : nil
  }

  /// Maps the object at `index` into a fresh instance and passes it to `accept`; records the
  /// errors in `run` instead when the object fails.
  @inline(__always)
  func decodeNew(at index: Int, run: inout _MappingRun, accept: (consuming Object) -> Void) {
    guard let make, acceptsValue(at: index, run: &run) else { return }
    var object = make()
    if decode(into: &object, at: index, run: &run) { accept(consume object) }
  }

  /// Whether the value at `index` can be mapped (an object, unless every rule reads a special
  /// source); records a type mismatch otherwise.
  @inline(__always)
  private func acceptsValue(at index: Int, run: inout _MappingRun) -> Bool {
    guard run.tape[index].kind == .object || readsOnlySpecialSources else {
      run.fail(.typeMismatch(expected: "an object", found: run.foundDescription(at: index)))
      return false
    }
    return true
  }

  /// Runs the steps on the value at `index` (checked with `acceptsValue`), writing into `object`;
  /// `false` when it failed.
  private func decode(into object: inout Object, at index: Int, run: inout _MappingRun) -> Bool {
    let before = run.errors.count
    var hint = _MemberHint(object: index)
    withUnsafeMutablePointer(to: &object) { pointer in
      let raw = UnsafeMutableRawPointer(pointer)
      for step in unretainedSteps {
        step._withUnsafeGuaranteedRef {
          $0.decode(into: raw, objectIndex: index, hint: &hint, run: &run)
        }
      }
    }
    return run.errors.count == before
  }
}

extension _MappingRun {
  /// How the value at `index` reads in an error message.
  func foundDescription(at index: Int) -> String {
    PayloadValue(tape: tape, index: index, context: .default).rawDescription
  }
}
