/// Settings for one mapping or serialization call that reach every child mapping of the call.
///
/// A mapping's own settings (``Mapping/coercion(_:)``, ``Mapping/nulls(_:)``,
/// ``Mapping/groups(_:)``, ``Mapping/dateFormats(_:)``, ``Mapping/validation(_:)``) are its
/// defaults, and they flow to its relationships' child mappings too. Options given to one call
/// apply to the whole call:
///
/// ```swift
/// let strict = MappingOptions(coercion: .strict, groups: ["detail"])
/// let article = try articleMapping.map(data, with: strict)   // the author and comments too
/// let body = try articleMapping.serialize(article, as: .json, with: MappingOptions(nulls: .include))
/// ```
///
/// Precedence, most specific first: a rule's own setting (`Attribute(...).nulls(.include)`,
/// `.dateFormats(...)`), then a child mapping's explicit setting, then the setting inherited from
/// the parent mapping, where the root mapping's settings are the call's options when given, else
/// the root mapping's own. The call's options beat the root mapping's own settings wherever that
/// mapping recurs (a comment mapping nested in itself). A `nil` field means "not set here": the
/// next level decides.
///
/// Groups select rules when mapping and when serializing: a rule without groups always applies,
/// a rule tagged ``Attribute/groups(_:)-(String...)`` applies when one of its groups is selected (or none
/// is). Two rules in disjoint groups may write the same output key; with no groups selected, the
/// first one writes it.
///
/// A mapping compiles once; options change only what its run reads, so one mapping serves calls
/// with different options from many tasks at once.
public struct MappingOptions: Sendable {
  /// How leniently scalar values convert (`"12"` into an `Int`); `nil`: not set.
  public var coercion: Coercion?
  /// Whether `nil` properties are written as `null` or left out when serializing; `nil`: not
  /// set.
  public var nulls: NullPolicy?
  /// The groups whose rules apply (a rule without groups always applies; an empty set selects
  /// every rule, as no selection does); `nil`: not set.
  public var groups: Set<String>?
  /// How ``groups`` select grouped rules: any of them (the default) or all of them (CSMapper);
  /// `nil`: not set.
  public var groupMatching: GroupMatching?
  /// The date formats tried in order when reading, the first one used when writing; `nil`: not
  /// set.
  public var dateFormats: [DateFormat]?
  /// Whether key-value validation runs; `nil`: not set.
  public var validation: Bool?
  /// What mapping onto an existing instance does with keys the payload leaves out; `nil`: not
  /// set (they leave their properties alone).
  public var missingKeys: MissingKeyPolicy?
  /// What `null` does to a property that cannot hold `nil`; `nil`: not set (an error).
  public var nullIntoNonOptional: NullIntoNonOptional?
  /// Facts about the call that mappings read through ``SourcePath/metadata`` (RestKit's
  /// `@metadata`): the object manager puts the request's URL, method, status and headers here;
  /// any caller can pass its own. Not inherited from mappings (it belongs to the call).
  public var metadata: Node?
  /// The key convention for the rules declared without a key (`Attribute(\.createdAt)`) in
  /// every mapping of the call that declares none of its own (``KeyConvention``); `nil`: not
  /// set (those rules read and write the property's name). A mapping's own convention and a
  /// spelled key win over it. Mapping and serializing alike.
  public var keys: KeyConvention?

  /// Creates options; every parameter left out is not set, so the mappings' own settings apply.
  ///
  /// - Parameters:
  ///   - coercion: How leniently scalar values convert.
  ///   - nulls: Whether `nil` properties serialize as `null`.
  ///   - groups: The groups whose rules apply.
  ///   - dateFormats: The date formats to read (in order) and write (the first).
  ///   - validation: Whether key-value validation runs.
  ///   - missingKeys: What mapping onto an existing instance does with absent keys.
  ///   - nullIntoNonOptional: What `null` does to a property that cannot hold `nil`.
  ///   - metadata: What ``SourcePath/metadata`` reads during this call.
  ///   - groupMatching: How `groups` select grouped rules (``GroupMatching``).
  ///   - keys: The key convention of the keyless rules of mappings that declare none.
  public init(
    coercion: Coercion? = nil, nulls: NullPolicy? = nil, groups: Set<String>? = nil,
    dateFormats: [DateFormat]? = nil, validation: Bool? = nil,
    missingKeys: MissingKeyPolicy? = nil, nullIntoNonOptional: NullIntoNonOptional? = nil,
    metadata: Node? = nil, groupMatching: GroupMatching? = nil, keys: KeyConvention? = nil
  ) {
    self.keys = keys
    self.metadata = metadata
    self.groupMatching = groupMatching
    self.coercion = coercion
    self.nulls = nulls
    self.groups = groups
    self.dateFormats = dateFormats
    self.validation = validation
    self.missingKeys = missingKeys
    self.nullIntoNonOptional = nullIntoNonOptional
  }

  /// No option set: every mapping's own settings apply.
  public static var none: MappingOptions { MappingOptions() }

  /// These options where set, else `inherited`'s: how a child's explicit settings override what
  /// flows down from its parent.
  func overriding(_ inherited: MappingOptions) -> MappingOptions {
    MappingOptions(
      coercion: coercion ?? inherited.coercion, nulls: nulls ?? inherited.nulls,
      groups: groups ?? inherited.groups, dateFormats: dateFormats ?? inherited.dateFormats,
      validation: validation ?? inherited.validation,
      missingKeys: missingKeys ?? inherited.missingKeys,
      nullIntoNonOptional: nullIntoNonOptional ?? inherited.nullIntoNonOptional,
      groupMatching: groupMatching ?? inherited.groupMatching, keys: keys ?? inherited.keys)
  }
}

/// How the groups a call or a mapping selects (``MappingOptions/groups``,
/// ``Mapping/groups(_:matching:)``) choose among rules tagged with groups
/// (``Attribute/groups(_:)-(String...)``). A rule without groups always applies; with no groups selected
/// (`nil` or an empty set: `MappingOptions(groups: [])`), every rule applies.
///
/// With rules `name` in `["list"]`, `age` in `["detail", "list"]`, `address` in `["detail"]`
/// and `height` in none (CSMapper's example):
///
/// | selected | `.anyOf` | `.allOf` |
/// |---|---|---|
/// | `["list"]` | name, age, height | name, age, height |
/// | `["list", "detail"]` | name, age, address, height | age, height |
public enum GroupMatching: Sendable, Hashable {
  /// A grouped rule applies when one of its groups is selected (marshmallow's `only`). The
  /// default.
  case anyOf
  /// A grouped rule applies when every selected group is one of its groups: CSMapper's
  /// `mapAttributesWithDictionary:groups:`.
  case allOf

  /// Whether a rule tagged with `names` applies when `selected` are selected: a rule without
  /// groups always does, and so does every rule when the selection is empty.
  func includes(_ names: [String], selected: Set<String>) -> Bool {
    if names.isEmpty || selected.isEmpty { return true }
    switch self {
    case .anyOf: return names.contains(where: selected.contains)
    case .allOf: return selected.allSatisfy(names.contains)
    }
  }
}

/// What mapping onto an existing instance (`map(_:onto:with:)`) does with the keys a
/// payload leaves out. By default nothing: an absent key leaves its property as it is, which is
/// what a partial update (a PATCH response) needs. RestKit's
/// `assignsDefaultValueForMissingAttributes` and `assignsNilForMissingRelationships` are these
/// options, for payloads that are the whole truth about an object.
///
/// ```swift
/// let full = userMapping.missingKeys([.assignDefaults, .assignNilToRelationships])
/// try full.map(#"{"id": 1}"#, onto: &user)   // user.nickname == nil, user.avatar == nil
/// ```
///
/// New objects are not affected: they start from `make()`, and an absent key gets its
/// `default:` or stays as `make()` left it.
public struct MissingKeyPolicy: OptionSet, Sendable, Hashable {
  public let rawValue: Int

  /// Creates a policy from its bits.
  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// An absent attribute gets its `default:`, or `nil` when its property is optional and it
  /// has no default (RestKit's `assignsDefaultValueForMissingAttributes`). A non-optional
  /// attribute without a default keeps its value: there is nothing to assign.
  public static let assignDefaults = MissingKeyPolicy(rawValue: 1 << 0)
  /// An absent relationship whose property is optional (`Child?`, `[Child]?`,
  /// `[String: Child]?`) becomes `nil` (RestKit's `assignsNilForMissingRelationships`).
  public static let assignNilToRelationships = MissingKeyPolicy(rawValue: 1 << 1)
}

/// What `null` does to a property that cannot hold `nil` (an `Int`, a `String`, a required
/// to-one relationship) when the rule has no `default:`.
///
/// RestKit assigned the type's zero (`0`, `""`); here that loses the information that the
/// server sent nothing, so it is an error unless a mapping or a call asks otherwise:
///
/// ```swift
/// let tolerant = profileMapping.nullIntoNonOptional(.keepCurrent)
/// ```
public enum NullIntoNonOptional: Sendable, Hashable {
  /// An error naming the path (`expected an integer, found null`): the default.
  case fail
  /// The property keeps its value (the value `make()` gave a new object, the current value of
  /// an existing one), with a ``MappingDiagnostic/Kind/nullIgnored(kept:)`` diagnostic.
  case keepCurrent
  /// The type's zero (``MappableValue/zeroValue``: `0`, `false`, `""`, an empty collection),
  /// with a ``MappingDiagnostic/Kind/nullIgnored(kept:)`` diagnostic; an error for a type without one
  /// (a `Date`, a relationship).
  case zero
}
