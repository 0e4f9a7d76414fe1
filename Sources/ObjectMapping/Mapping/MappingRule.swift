/// A rule that can appear in a ``Mapping`` block: ``Attribute`` and ``Relationship``.
///
/// The conformances are the library's own; the protocol exists so a block can list rules of
/// different kinds with the model type pinned.
public protocol MappingRule<Object>: Sendable {
  /// The model type the rule writes into.
  associatedtype Object
}

/// Builds the list of rules of a ``Mapping`` block.
///
/// The block supports `if`/`else`, `if #available` and `for` loops; conditions run once, when
/// the mapping is built. Every rule is pinned to the mapping's model type, so `\.name` needs no
/// annotation.
@resultBuilder
public enum MappingBuilder<Object> {
  /// One rule.
  public static func buildExpression(_ rule: some MappingRule<Object>) -> [any MappingRule<Object>]
  {
    [rule]
  }

  /// Rules listed elsewhere, for example a shared array of rules.
  public static func buildExpression(_ rules: [any MappingRule<Object>]) -> [any MappingRule<
    Object
  >] {
    rules
  }

  /// The rules of a block, in order.
  public static func buildBlock(_ parts: [any MappingRule<Object>]...) -> [any MappingRule<Object>]
  {
    parts.flatMap { $0 }
  }

  /// An `if` without `else`.
  public static func buildOptional(_ part: [any MappingRule<Object>]?) -> [any MappingRule<Object>]
  {
    part ?? []
  }

  /// The `if` branch of an `if`/`else`.
  public static func buildEither(first part: [any MappingRule<Object>]) -> [any MappingRule<Object>]
  {
    part
  }

  /// The `else` branch of an `if`/`else`.
  public static func buildEither(second part: [any MappingRule<Object>]) -> [any MappingRule<
    Object
  >] {
    part
  }

  /// A `for` loop.
  public static func buildArray(_ parts: [[any MappingRule<Object>]]) -> [any MappingRule<Object>] {
    parts.flatMap { $0 }
  }

  /// An `if #available` branch.
  public static func buildLimitedAvailability(
    _ part: [any MappingRule<Object>]
  ) -> [any MappingRule<Object>] {
    part
  }
}

/// The compiled, internal side of a rule.
protocol DecodingRule<Object>: Sendable {
  associatedtype Object
  /// The rule compiled for decoding: reads this rule's value from an object and writes it into
  /// the model, recording problems in the run. `mayRepeat` says an earlier rule of the mapping
  /// reads the same first key.
  func decodeStep(mayRepeat: Bool) -> DecodeStep<Object>
  /// The property the rule writes, for definition checks.
  var propertyKeyPath: AnyKeyPath & Sendable { get }
  /// The payload source, for definition checks and messages.
  var source: SourcePath { get }
  /// The payload paths the rule reads, for the known keys of ``Mapping/rejectingUnknownKeys()``
  /// (an empty-source relationship reads its child's sources, a compound source its parts).
  var readSources: [SourcePath] { get }
  /// Whether the rule reads payload keys of the object it maps (not ``SourcePath/root`` or
  /// another special source): the rules that decide whether an object is an unmappable
  /// representation. Known without resolving a lazy child mapping.
  var readsPayloadKeys: Bool { get }
  /// Why the rule's key path must not be used (it could trap), or `nil`; see ``KeyPathCheck``.
  var keyPathProblem: String? { get }
  /// Another mistake in the rule's definition (a setting its kind cannot honour), or `nil`;
  /// reported by `validate()` and on first use, while the rule still runs.
  var definitionProblem: String? { get }
  /// Whether the rule maps a child object (a relationship): the rules whose source is a key path
  /// run after these (``_MappingPlan/phaseOrder(_:)``).
  var mapsChildObject: Bool { get }
}

/// How a rule treats an absent value.
enum Presence: Sendable {
  /// Required unless the property's type accepts `nil` or a default is given.
  case inferred
  case optional
  case required
}

extension DecodingRule {
  var definitionProblem: String? { nil }

  var mapsChildObject: Bool { false }

  var readSources: [SourcePath] {
    if case .compound(let parts) = source.storage { return parts }
    if let base = source.operatorBase { return [base] }
    return source.isSpecial ? [] : [source]
  }

  var readsPayloadKeys: Bool {
    if case .compound = source.storage { return true }
    return !source.isSpecial || source.operatorBase != nil
  }
}
