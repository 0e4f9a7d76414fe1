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
/// a rule tagged ``Attribute/groups(_:)`` applies when one of its groups is selected (or none
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
  /// The groups whose rules apply (a rule without groups always applies); `nil`: not set.
  public var groups: Set<String>?
  /// The date formats tried in order when reading, the first one used when writing; `nil`: not
  /// set.
  public var dateFormats: [DateFormat]?
  /// Whether key-value validation runs; `nil`: not set.
  public var validation: Bool?

  /// Creates options; every parameter left out is not set, so the mappings' own settings apply.
  ///
  /// - Parameters:
  ///   - coercion: How leniently scalar values convert.
  ///   - nulls: Whether `nil` properties serialize as `null`.
  ///   - groups: The groups whose rules apply.
  ///   - dateFormats: The date formats to read (in order) and write (the first).
  ///   - validation: Whether key-value validation runs.
  public init(
    coercion: Coercion? = nil, nulls: NullPolicy? = nil, groups: Set<String>? = nil,
    dateFormats: [DateFormat]? = nil, validation: Bool? = nil
  ) {
    self.coercion = coercion
    self.nulls = nulls
    self.groups = groups
    self.dateFormats = dateFormats
    self.validation = validation
  }

  /// No option set: every mapping's own settings apply.
  public static var none: MappingOptions { MappingOptions() }

  /// These options where set, else `inherited`'s: how a child's explicit settings override what
  /// flows down from its parent.
  func overriding(_ inherited: MappingOptions) -> MappingOptions {
    MappingOptions(
      coercion: coercion ?? inherited.coercion, nulls: nulls ?? inherited.nulls,
      groups: groups ?? inherited.groups, dateFormats: dateFormats ?? inherited.dateFormats,
      validation: validation ?? inherited.validation)
  }
}
