/// What a rule needs to know about a value type that is itself an `Optional` (a transform to
/// `Reason?` through the general ``Attribute`` initializer): its `nil`, and how to tell `nil`.
///
/// Found once, when the rule is built, through a protocol every `Optional` conforms to (no
/// `Mirror`, no per-value casts): `nil` for any other type.
struct OptionalTraits<Value>: Sendable {
  /// `Value`'s `nil`.
  let none: @Sendable () -> Value
  /// Whether a value is `nil`.
  let isNone: @Sendable (Value) -> Bool

  /// The traits of `Value` when it is an `Optional`, else `nil`.
  static var ofValue: Self? {
    (Value.self as? any OptionalTraitsProvider.Type)?.optionalTraits() as? Self
  }
}

/// Every `Optional`, seen without its wrapped type (see ``OptionalTraits``).
protocol OptionalTraitsProvider {
  /// `OptionalTraits<Self>`, as `Any` (the protocol is used as an existential metatype).
  static func optionalTraits() -> Any
  /// The wrapped type.
  static var wrappedType: Any.Type { get }
}

extension Optional: OptionalTraitsProvider {
  static func optionalTraits() -> Any {
    OptionalTraits<Self>(none: { nil }, isNone: { $0 == nil })
  }

  static var wrappedType: Any.Type { Wrapped.self }
}

/// How a rule loaded from a definition file treats absent and `null` values: there the file's own
/// system is the authority (AppCoreKit, CSMapper), not the DSL's inference from Swift types.
///
/// For the `ObjectMappingDefinitions` library (``Attribute/treatingAbsence(_:)``,
/// ``Relationship/treatingAbsence(_:)``); the DSL's rules keep SPEC §3's defaults.
package struct _AbsenceTreatment: Sendable, Hashable {
  /// `null` is treated exactly as an absent key: a required value is an error, a default is
  /// set, anything else leaves the property as it is.
  package var nullIsAbsent: Bool
  /// Onto an existing instance, an absent value is treated as for a new object: the default is
  /// set and a required value is an error (the DSL leaves the property alone).
  package var appliesOntoExisting: Bool

  package init(nullIsAbsent: Bool, appliesOntoExisting: Bool) {
    self.nullIsAbsent = nullIsAbsent
    self.appliesOntoExisting = appliesOntoExisting
  }

  /// The DSL's treatment.
  package static let standard = _AbsenceTreatment(nullIsAbsent: false, appliesOntoExisting: false)
}
