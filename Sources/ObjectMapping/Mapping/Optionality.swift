/// What a rule needs to know about a value type that is itself an `Optional` (a transform to
/// `Reason?` through the general ``Attribute`` initializer): its `nil`, and how to tell `nil`.
///
/// Found once, when the rule is built, through a protocol every `Optional` conforms to (no
/// `Mirror`, no per-value casts): `nil` for any other type.
struct _OptionalTraits<Value>: Sendable {
  /// `Value`'s `nil`.
  let none: @Sendable () -> Value
  /// Whether a value is `nil`.
  let isNone: @Sendable (Value) -> Bool

  /// The traits of `Value` when it is an `Optional`, else `nil`.
  static var ofValue: Self? {
    (Value.self as? any _OptionalTraitsProvider.Type)?._optionalTraits() as? Self
  }
}

/// Every `Optional`, seen without its wrapped type (see ``_OptionalTraits``).
protocol _OptionalTraitsProvider {
  /// `_OptionalTraits<Self>`, as `Any` (the protocol is used as an existential metatype).
  static func _optionalTraits() -> Any
  /// The wrapped type.
  static var wrappedType: Any.Type { get }
}

extension Optional: _OptionalTraitsProvider {
  static func _optionalTraits() -> Any {
    _OptionalTraits<Self>(none: { nil }, isNone: { $0 == nil })
  }

  static var wrappedType: Any.Type { Wrapped.self }
}
