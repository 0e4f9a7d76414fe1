/// The settings in effect while one mapping of a run maps its objects: how values convert, which
/// date formats are read, whether validators run and which groups' rules apply.
///
/// A run starts with the call's options over the root mapping's own settings (``MappingOptions``)
/// and changes its context only where a child mapping sets something explicitly
/// (``MappingRun/enterSettings(of:)``), so a mapping without settings of its own costs nothing
/// per object. A context is immutable; `PayloadValue` holds it unretained, which is safe because
/// the run keeps every context it uses alive until it ends.
final class ValueContext: Sendable {
  let coercion: Coercion
  let dateFormats: [DateFormat]
  /// Whether validators run (``Mapping/validation(_:)``).
  let validates: Bool
  /// The groups whose rules apply; `nil`: every rule applies (``Mapping/groups(_:)``).
  let groups: Set<String>?
  /// How `groups` select grouped rules.
  let groupMatching: GroupMatching
  /// What absent keys do onto existing instances (``MissingKeyPolicy``).
  let missingKeys: MissingKeyPolicy
  /// What `null` does to a property that cannot hold `nil`.
  let nullIntoNonOptional: NullIntoNonOptional
  /// What an attribute value that does not convert does.
  let attributeFailures: AttributeFailurePolicy
  /// What `""` means for number, `Bool`, date, URL and UUID attributes.
  let emptyStrings: EmptyStringPolicy
  /// Whether an object none of whose keys a mapping reads maps to its initial value.
  let allowsUnmappable: Bool
  /// How payload objects map onto existing to-one children.
  let childMerging: ChildMerging
  /// How many errors the run keeps (``MappingOptions/errorLimit``): a collection value keeps
  /// no more of its elements' failures (it counts the rest), so a huge array of bad values
  /// does not build a list the run would throw away.
  let errorLimit: Int

  init(
    coercion: Coercion, dateFormats: [DateFormat], validates: Bool = true,
    groups: Set<String>? = nil, missingKeys: MissingKeyPolicy = [],
    nullIntoNonOptional: NullIntoNonOptional = .fail, groupMatching: GroupMatching = .anyOf,
    attributeFailures: AttributeFailurePolicy = .fail, emptyStrings: EmptyStringPolicy = .convert,
    allowsUnmappable: Bool = false, childMerging: ChildMerging = .byIdentity,
    errorLimit: Int = MappingOptions.defaultErrorLimit
  ) {
    self.errorLimit = errorLimit
    self.attributeFailures = attributeFailures
    self.emptyStrings = emptyStrings
    self.allowsUnmappable = allowsUnmappable
    self.childMerging = childMerging
    self.groupMatching = groupMatching
    self.coercion = coercion
    self.dateFormats = dateFormats
    self.validates = validates
    self.groups = groups
    self.missingKeys = missingKeys
    self.nullIntoNonOptional = nullIntoNonOptional
  }

  static let `default` = ValueContext(coercion: .lenient, dateFormats: DateFormat.defaultFormats)

  /// A context for each coercion mode, reading `dateFormats`: how a rule with its own date
  /// formats (``Attribute/dateFormats(_:)``) keeps the run's coercion without building a context
  /// per value.
  static func formatsContexts(_ dateFormats: [DateFormat]) -> (
    lenient: ValueContext, strict: ValueContext
  ) {
    (
      ValueContext(coercion: .lenient, dateFormats: dateFormats),
      ValueContext(coercion: .strict, dateFormats: dateFormats)
    )
  }

  /// Whether `settings` changes nothing this context decides.
  func isUnchanged(by settings: MappingOptions) -> Bool {
    (settings.coercion.map { $0 == coercion } ?? true)
      && (settings.dateFormats.map { $0 == dateFormats } ?? true)
      && (settings.validation.map { $0 == validates } ?? true)
      && (settings.groups.map { $0 == groups } ?? true)
      && (settings.missingKeys.map { $0 == missingKeys } ?? true)
      && (settings.nullIntoNonOptional.map { $0 == nullIntoNonOptional } ?? true)
      && (settings.groupMatching.map { $0 == groupMatching } ?? true)
      && (settings.attributeFailures.map { $0 == attributeFailures } ?? true)
      && (settings.emptyStrings.map { $0 == emptyStrings } ?? true)
      && (settings.allowsUnmappableRepresentation.map { $0 == allowsUnmappable } ?? true)
      && (settings.childMerging.map { $0 == childMerging } ?? true)
      && (settings.errorLimit.map { max(0, $0) == errorLimit } ?? true)
  }

  /// This context with `settings` applied over it (a field `settings` leaves `nil` is kept);
  /// `self` when nothing changes.
  func applying(_ settings: MappingOptions) -> ValueContext {
    if isUnchanged(by: settings) { return self }
    return ValueContext(
      coercion: settings.coercion ?? coercion, dateFormats: settings.dateFormats ?? dateFormats,
      validates: settings.validation ?? validates, groups: settings.groups ?? groups,
      missingKeys: settings.missingKeys ?? missingKeys,
      nullIntoNonOptional: settings.nullIntoNonOptional ?? nullIntoNonOptional,
      groupMatching: settings.groupMatching ?? groupMatching,
      attributeFailures: settings.attributeFailures ?? attributeFailures,
      emptyStrings: settings.emptyStrings ?? emptyStrings,
      allowsUnmappable: settings.allowsUnmappableRepresentation ?? allowsUnmappable,
      childMerging: settings.childMerging ?? childMerging,
      errorLimit: settings.errorLimit.map { max(0, $0) } ?? errorLimit)
  }

  /// Whether a rule tagged with `names` applies in this context: a rule without groups always
  /// does; a grouped rule when no groups are selected, or by ``GroupMatching``.
  func includes(groups names: [String]) -> Bool {
    guard let groups, !names.isEmpty else { return true }
    return groupMatching.includes(names, selected: groups)
  }
}
