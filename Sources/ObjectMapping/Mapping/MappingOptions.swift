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
  /// any caller can pass its own. A ``Mapper``'s options and the call's merge (the call's
  /// members shadow the mapper's); not inherited from mappings (it belongs to the call).
  public var metadata: Node?
  /// The key convention for the rules declared without a key (`Attribute(\.createdAt)`) in
  /// every mapping of the call that declares none of its own (``KeyConvention``); `nil`: not
  /// set (those rules read and write the property's name). A mapping's own convention and a
  /// spelled key win over it. Mapping and serializing alike.
  public var keys: KeyConvention?
  /// What an attribute value that does not convert does (a garbage number, a bad URL, an
  /// unparsable or empty date); `nil`: not set (an error, ``AttributeFailurePolicy/fail``).
  public var attributeFailures: AttributeFailurePolicy?
  /// What an empty string (`""`) means for a number, `Bool`, `Decimal`, `Date`, `URL` or `UUID`
  /// attribute; `nil`: not set (it is converted like any other string, which fails).
  public var emptyStrings: EmptyStringPolicy?
  /// Whether an object none of whose keys a mapping reads maps to the mapping's initial value
  /// (`true`) instead of failing as an unmappable representation; `nil`: not set (it fails).
  /// See ``Mapping/allowingUnmappableRepresentation()``.
  public var allowsUnmappableRepresentation: Bool?
  /// How a payload object is mapped onto an existing to-one child (or a `[String: T]` entry)
  /// whose identity does not match it; `nil`: not set (``ChildMerging/byIdentity``: replaced).
  public var childMerging: ChildMerging?
  /// Whether `nil` relationships are written as `null` or left out when serializing; `nil`:
  /// not set (as ``nulls`` says). A relationship's own ``Relationship/nulls(_:)`` wins.
  public var relationshipNulls: NullPolicy?
  /// How form bodies are written when serializing as ``PayloadFormat/formURLEncoded`` without
  /// options of its own; `nil`: not set (``FormEncodingOptions``' defaults). Options given to
  /// the format (`.formURLEncoded(FormEncodingOptions(booleans: .numeric))`) win.
  public var form: FormEncodingOptions?
  /// How `Decimal` values are written when serializing: numbers (the default) or strings
  /// (RestKit wrote strings, to keep their precision from servers that read doubles); `nil`:
  /// not set (the root mapping's ``InverseMapping/decimals(_:)``, else numbers).
  public var decimals: DecimalOutput?
  /// How many errors, and how many diagnostics, the call keeps with their paths; the rest are
  /// only counted (``MappingErrors/omittedCount``); `nil`: not set (``defaultErrorLimit``,
  /// 1,000). `0` keeps none and only counts them; negative values count as `0`.
  ///
  /// A hostile payload can fail a million times (`[1, 1, 1, …]` against a collection of
  /// objects). A run keeps the first errors up to this limit and counts the rest without
  /// building them, so memory and time stay bounded by the limit, not by the payload. The limit
  /// never changes whether a payload maps: a run with errors past it fails exactly as it would
  /// with all of them kept.
  ///
  /// ```swift
  /// let report = articleMapping.report(json, with: MappingOptions(errorLimit: 10))
  /// try articleMapping.mapCollection(json, with: MappingOptions(errorLimit: .max))  // keep all
  /// ```
  ///
  /// It belongs to the call, so it reaches calls made for you: the object manager
  /// (`ObjectManager(baseURL:options:)` in ObjectMappingClient) maps every response with its
  /// options, `MappingOptions(errorLimit: 10)` included. A mapper's own options give it when the
  /// call's do not.
  public var errorLimit: Int?

  /// Whether a ``Mapper`` run with errors throws them (RestKit's `failOnObjectErrors`):
  /// `true` makes ``Mapper/map(_:target:with:)`` throw ``MappingErrors`` with the run's errors
  /// when any object failed or no route found content (``MappingError/Kind/nothingFound(searched:topLevelKeys:)``),
  /// instead of returning a result that holds them; `nil` or `false` (the default, RestKit's)
  /// leaves failed objects out of the result and reports them in ``MappingResult/errors``.
  ///
  /// ```swift
  /// let mapper = Mapper(provider, options: MappingOptions(failOnObjectErrors: true))
  /// do {
  ///   let result = try mapper.map(data)         // every object mapped
  /// } catch {
  ///   print(error)                              // "/articles/3/title: required value is missing"
  /// }
  /// ```
  ///
  /// Diagnostics (declined elements, skipped values, an ignored target) are not errors and
  /// never make the run throw. The calls of one mapping (`map`, `mapCollection`) throw on any
  /// error already; this setting is for runs that collect, the mapper's and the object
  /// manager's responses mapped through a provider (ObjectMappingClient), which take it from
  /// their options. A class target a route updated stays updated when another route's object
  /// fails: only the result is withheld.
  public var failOnObjectErrors: Bool?

  /// The error limit of a call that sets none (``errorLimit``): 1,000 errors and 1,000
  /// diagnostics per call.
  public static let defaultErrorLimit = 1_000

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
  ///   - attributeFailures: What an attribute value that does not convert does.
  ///   - emptyStrings: What `""` means for number, `Bool`, `Decimal`, date, URL and UUID
  ///     attributes.
  ///   - allowsUnmappableRepresentation: Whether objects none of whose keys a mapping reads
  ///     map to the mapping's initial value.
  ///   - childMerging: How payload objects map onto existing to-one children.
  ///   - relationshipNulls: Whether `nil` relationships serialize as `null`.
  ///   - form: How form bodies are written by ``PayloadFormat/formURLEncoded``.
  ///   - decimals: How `Decimal` values are written when serializing.
  ///   - errorLimit: How many errors and diagnostics the call keeps (``errorLimit``).
  ///   - failOnObjectErrors: Whether a ``Mapper`` run with errors throws them
  ///     (``failOnObjectErrors``).
  public init(
    coercion: Coercion? = nil, nulls: NullPolicy? = nil, groups: Set<String>? = nil,
    dateFormats: [DateFormat]? = nil, validation: Bool? = nil,
    missingKeys: MissingKeyPolicy? = nil, nullIntoNonOptional: NullIntoNonOptional? = nil,
    metadata: Node? = nil, groupMatching: GroupMatching? = nil, keys: KeyConvention? = nil,
    attributeFailures: AttributeFailurePolicy? = nil, emptyStrings: EmptyStringPolicy? = nil,
    allowsUnmappableRepresentation: Bool? = nil, childMerging: ChildMerging? = nil,
    relationshipNulls: NullPolicy? = nil, form: FormEncodingOptions? = nil,
    decimals: DecimalOutput? = nil, errorLimit: Int? = nil, failOnObjectErrors: Bool? = nil
  ) {
    self.failOnObjectErrors = failOnObjectErrors
    self.decimals = decimals
    self.errorLimit = errorLimit
    self.attributeFailures = attributeFailures
    self.emptyStrings = emptyStrings
    self.allowsUnmappableRepresentation = allowsUnmappableRepresentation
    self.childMerging = childMerging
    self.relationshipNulls = relationshipNulls
    self.form = form
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
    var options = MappingOptions(
      coercion: coercion ?? inherited.coercion, nulls: nulls ?? inherited.nulls,
      groups: groups ?? inherited.groups, dateFormats: dateFormats ?? inherited.dateFormats,
      validation: validation ?? inherited.validation,
      missingKeys: missingKeys ?? inherited.missingKeys,
      nullIntoNonOptional: nullIntoNonOptional ?? inherited.nullIntoNonOptional,
      groupMatching: groupMatching ?? inherited.groupMatching, keys: keys ?? inherited.keys,
      attributeFailures: attributeFailures ?? inherited.attributeFailures,
      emptyStrings: emptyStrings ?? inherited.emptyStrings,
      allowsUnmappableRepresentation: allowsUnmappableRepresentation
        ?? inherited.allowsUnmappableRepresentation,
      childMerging: childMerging ?? inherited.childMerging,
      relationshipNulls: relationshipNulls ?? inherited.relationshipNulls,
      form: form ?? inherited.form, decimals: decimals ?? inherited.decimals,
      errorLimit: errorLimit ?? inherited.errorLimit,
      failOnObjectErrors: failOnObjectErrors ?? inherited.failOnObjectErrors)
    options.metadata = Self.metadata(metadata, over: inherited.metadata)
    return options
  }

  /// `inner` metadata over `outer` (RestKit's metadata stack: inner entries shadow outer
  /// ones): two objects merge member by member, recursively where both members are objects;
  /// otherwise `inner` wins when set. Linear in the members; below 32 levels of objects on
  /// both sides `inner`'s member wins whole, so the stack stays small.
  package static func metadata(_ inner: Node?, over outer: Node?, depth: Int = 0) -> Node? {
    guard depth < 32, case .object(let innerMembers)? = inner, case .object(var merged)? = outer
    else {
      return inner ?? outer
    }
    var positions: [String: Int] = [:]
    for (position, member) in merged.enumerated() where positions[member.key] == nil {
      positions[member.key] = position
    }
    for member in innerMembers {
      if let position = positions[member.key] {
        merged[position].value =
          metadata(member.value, over: merged[position].value, depth: depth + 1) ?? member.value
      } else {
        positions[member.key] = merged.count
        merged.append(member)
      }
    }
    return .object(merged)
  }

  /// The number of errors (and diagnostics) a run of a call with these options keeps (also
  /// what the object manager's element-by-element loads keep in all, in ObjectMappingClient
  /// and ObjectMappingStore).
  package var resolvedErrorLimit: Int { max(0, errorLimit ?? Self.defaultErrorLimit) }

  /// Whether a field that mapping (not serializing) reads is set.
  var setsDecodeSettings: Bool {
    coercion != nil || dateFormats != nil || validation != nil || groups != nil
      || missingKeys != nil || nullIntoNonOptional != nil || groupMatching != nil
      || attributeFailures != nil || emptyStrings != nil
      || allowsUnmappableRepresentation != nil || childMerging != nil
  }
}

/// What an attribute value that does not convert does: an error (the default), or RestKit's
/// behaviour, a diagnostic while the rest of the object maps.
///
/// ```swift
/// let lenient = MappingOptions(attributeFailures: .skipWithDiagnostic)
/// let user = try userMapping.map(#"{"id": 1, "age": "twelve"}"#, with: lenient)
/// // user.age keeps its value; diagnostic "/age: value skipped: cannot convert "twelve" to an integer"
/// ```
///
/// A value that does not convert is a garbage number, a bad URL, an unparsable or empty date, an
/// unknown enum value, or anything a transform throws for. Under
/// ``skipWithDiagnostic`` the attribute is left as it is on an existing instance; on a new
/// object it gets its `default:` or keeps the value `make()` gave it, except when it is required
/// and has no default: then it stays an error, since the object could not be made without it.
/// Validation failures (``Attribute/validate(_:_:)``), `null` (``NullIntoNonOptional``) and
/// relationships (``Relationship/onChildFailure(_:)``) are not affected.
public enum AttributeFailurePolicy: Sendable, Hashable {
  /// The object fails with the conversion error (the default).
  case fail
  /// The attribute is skipped with a ``MappingDiagnostic/Kind/valueSkipped(_:)`` diagnostic
  /// naming its path and the reason, and the rest of the object maps (RestKit's behaviour).
  /// As in RestKit, a skipped value is not "found": an object whose only keys hold values that
  /// do not convert is an unmappable representation
  /// (``MappingError/Kind/unmappableRepresentation(keys:)``).
  case skipWithDiagnostic
}

/// What an empty string (`""`) means for attributes whose value cannot be empty text: integers,
/// floating-point numbers, `Decimal`, `Bool`, `Date`, `URL` and `UUID` (and optionals of them).
///
/// RestKit read `""` as `nil` for numbers, dates and URLs; by default here it is converted like
/// any other string, which fails (`cannot convert "" to a date`). A `String`, `Data` (base64),
/// enum, collection or custom value always receives `""` as it is.
public enum EmptyStringPolicy: Sendable, Hashable {
  /// `""` is converted like any other string (the default).
  case convert
  /// `""` (or a string of only whitespace, `"   "`, as RestKit read it) reads as `null`: `nil`
  /// for an optional property, the `default:` otherwise, else what
  /// ``NullIntoNonOptional`` says — except that where that is an error and
  /// ``AttributeFailurePolicy/skipWithDiagnostic`` is on (``MappingOptions/restKitCompatible``),
  /// the value is skipped with a diagnostic, as a value that does not convert.
  case asNull
}

/// How a payload object is mapped onto an existing to-one child (and onto the entry with the
/// same key of a `[String: T]` relationship) when mapping onto an existing instance.
///
/// ```swift
/// try userMapping.map(#"{"address": {"city": "Oslo"}}"#, onto: &user,
///                     with: MappingOptions(childMerging: .inPlace))
/// // user.address.city == "Oslo", its other fields kept
/// ```
///
/// A relationship's own ``Relationship/policy(_:)`` wins. To-many relationships merge by
/// identity (``Mapping/identified(by:)``) whatever this says.
public enum ChildMerging: Sendable, Hashable {
  /// The child is merged into when its identity (``Mapping/identified(by:)``) matches the
  /// payload's, and replaced by a fresh object otherwise (the default).
  case byIdentity
  /// The payload is mapped onto the existing child in place, without an identity, as
  /// ``CollectionPolicy/merge`` does (ObjectMapper's behaviour); a child that does not exist
  /// yet is mapped fresh.
  case inPlace
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
  /// an existing one), with a ``MappingDiagnostic/Kind/nullIgnored(kept:)`` diagnostic. This
  /// includes a ``Node`` property, which otherwise reads `null` as ``Node/null``, and
  /// relationships to a child, a collection or a dictionary of children.
  case keepCurrent
  /// The type's zero (``MappableValue/zeroValue``: `0`, `false`, `""`, an empty collection),
  /// with a ``MappingDiagnostic/Kind/nullIgnored(kept:)`` diagnostic; an error for a type without one
  /// (a `Date`, a relationship).
  case zero
}
