/// Includes the rules of another mapping in a mapping block, in order (CSMapper's
/// `__parent__`): class hierarchies and shared rule sets.
///
/// ```swift
/// let personMapping = Mapping(Person.init) {
///   Attribute("person_name", \.name)
///   Attribute("person_age", \.age)
/// }
/// let resourceMapping = Mapping(Person.init) {
///   Attribute("resource_name", \.name)
/// }
/// let programmerMapping = Mapping(Programmer.init) {   // final class Programmer: Person
///   Include(personMapping)
///   Include(resourceMapping)
///   Attribute("programming_skills", \.skills)
/// }
/// // {"person_name": "Ann", "resource_name": "Dr. Ann"} -> name == "Dr. Ann"
/// // {"person_name": "Ann"}                              -> name == "Ann"
/// ```
///
/// Rules writing the same property (the same key path) are *alternatives*: they run in order,
/// so a later rule wins when its source is present, an absent source never overwrites a value
/// an earlier rule set, and the property is satisfied when any of the sources is present (when
/// none is, the last rule's default or requirement applies). The inverse writes every
/// alternative back. The included rules take the including mapping's settings (coercion, date
/// formats); identity, groups restriction and customized inverses are the including mapping's.
///
/// A `Mapping<Base>` can be included into a `Mapping<Object>` when `Object` is `Base` or a
/// subclass of it; anything else is a definition problem reported by ``Mapping/validate()``.
/// Key paths are compared as written: `\Person.name` (in a `Mapping<Person>`) and
/// `\Programmer.name` are different key paths, so alternatives for an inherited property go in
/// mappings of the same type.
public struct Include<Object>: MappingRule {
  let rules: [any MappingRule<Object>]
  let problem: String?

  /// Includes the rules of a mapping of the same model type.
  public init(_ mapping: Mapping<Object>) {
    rules = mapping.activeRules
    problem = nil
  }

  /// Includes the rules of a mapping of a superclass of `Object`.
  ///
  /// - Parameter mapping: A mapping of `Base`; `Object` must be `Base` or a subclass of it.
  public init<Base>(_ mapping: Mapping<Base>) {
    if let same = mapping.activeRules as? [any MappingRule<Object>] {
      rules = same
      problem = nil
    } else if Object.self is AnyClass, Base.self is AnyClass, Object.self is Base.Type {
      rules = mapping.activeRules.compactMap { LiftedRule<Object, Base>($0) }
      problem = nil
    } else {
      rules = []
      problem =
        "Include(Mapping<\(Base.self)>) in a Mapping<\(Object.self)>: \(Object.self) is not \(Base.self) or a subclass of it"
    }
  }
}

/// A rule of a superclass's mapping, applied to instances of a subclass `Object`.
struct LiftedRule<Object, Base>: MappingRule, DecodingRule, EncodableRule, GroupedRule {
  let inner: any DecodingRule<Base>

  init?(_ rule: any MappingRule<Base>) {
    guard let decoding = rule as? any DecodingRule<Base> else { return nil }
    inner = decoding
  }

  private init(inner: any DecodingRule<Base>) {
    self.inner = inner
  }

  var propertyKeyPath: AnyKeyPath & Sendable { inner.propertyKeyPath }
  var source: SourcePath { inner.source }
  var readSources: [SourcePath] { inner.readSources }
  var readsPayloadKeys: Bool { inner.readsPayloadKeys }
  var keyPathProblem: String? { inner.keyPathProblem }
  var definitionProblem: String? { inner.definitionProblem }
  var mapsChildObject: Bool { inner.mapsChildObject }
  var groupNames: [String] { (inner as? any GroupedRule)?.groupNames ?? [] }

  func decodeStep(mayRepeat: Bool) -> DecodeStep<Object> {
    DecodeStep(UpcastStep<Object, Base>(inner.decodeStep(mayRepeat: mayRepeat)))
  }

  var encoding: RuleEncoding<Object> {
    guard let encodable = inner as? any EncodableRule<Base> else {
      return .omitted(InverseOmission(rule: "\(inner.source)", reason: "it has no inverse"))
    }
    switch encodable.encoding {
    case .rule(let rule): return .rule(Self.lift(rule))
    case .rules(let rules): return .rules(rules.map(Self.lift))
    case .omitted(let omission): return .omitted(omission)
    }
  }

  private static func lift(_ rule: EncodingRule<Base>) -> EncodingRule<Object> {
    var lifted = EncodingRule<Object>(
      path: rule.path, property: rule.property, label: rule.label, nulls: rule.nulls,
      step: UpcastEncodeStep<Object, Base>(rule.step))
    // An empty-source relationship's flattened fields follow a call's key convention, as its
    // child mapping does when reading them (the included mapping's own keyless rules carry no
    // names here: they keep their keys).
    lifted.defaultKeyNames = rule.defaultKeyNames
    lifted.placement = rule.placement
    return lifted
  }
}

/// A rule that can carry group names (``Attribute/groups(_:)-(String...)``).
protocol GroupedRule {
  var groupNames: [String] { get }
}

extension Attribute: GroupedRule {
  /// The same rule, tagged with group names (CSMapper groups): a mapping restricted with
  /// ``Mapping/groups(_:)`` applies the rules without groups plus those in a requested group,
  /// when mapping and when serializing.
  ///
  /// ```swift
  /// Attribute("biography", \.biography).groups("detail")
  /// ```
  public func groups(_ names: String...) -> Self {
    groups(names)
  }

  /// The same rule, tagged with the group names of an array (names read from a file).
  public func groups(_ names: [String]) -> Self {
    var copy = self
    copy.groupNames += names
    return copy
  }
}

extension Relationship: GroupedRule {
  /// The same rule, tagged with group names; see ``Attribute/groups(_:)-(String...)``.
  public func groups(_ names: String...) -> Self {
    groups(names)
  }

  /// The same rule, tagged with the group names of an array.
  public func groups(_ names: [String]) -> Self {
    var copy = self
    copy.groupNames += names
    return copy
  }
}
