/// Keyless forms of the spelled rule shapes that had none (issue 41): the key is the one the
/// mapping's ``KeyConvention`` makes from the property's name.
extension Attribute {
  /// An optional property through a transform of its wrapped type, at the convention's key:
  /// absent or `null` is `nil`, `nil` is left to the null policy when serializing.
  ///
  /// ```swift
  /// Mapping(Issue.init, keys: .snakeCase) { Attribute(\.closedAt, .epochSeconds) }  // Date?
  /// ```
  ///
  /// - Parameters:
  ///   - property: The optional property; its name makes the key.
  ///   - transform: The two-way conversion of the wrapped value.
  public init<Wire: MappableValue, Wrapped>(
    _ property: WritableKeyPath<Object, Wrapped?> & Sendable,
    _ transform: ValueTransform<Wire, Wrapped>
  ) where Value == Wrapped? {
    self = .keyless(property) { Attribute($0, property, transform) }
  }

  /// A property through a transform, with a default for absent and `null` values, at the
  /// convention's key.
  ///
  /// ```swift
  /// Mapping(Issue.init, keys: .snakeCase) { Attribute(\.updatedAt, .epochSeconds, default: .distantPast) }
  /// ```
  ///
  /// - Parameters:
  ///   - property: The property; its name makes the key.
  ///   - transform: The two-way conversion.
  ///   - defaultValue: The value for an absent or `null` payload value.
  public init<Wire: MappableValue>(
    _ property: WritableKeyPath<Object, Value> & Sendable, _ transform: ValueTransform<Wire, Value>,
    default defaultValue: Value
  ) where Value: Sendable {
    self = .keyless(property) { Attribute($0, property, transform, default: defaultValue) }
  }

  /// A one-way conversion at the convention's key: mapped, never serialized (the inverse lists
  /// it as left out).
  ///
  /// ```swift
  /// Mapping(Issue.init, keys: .snakeCase) {
  ///   Attribute(\.score, decodeOnly: { (text: String) in Double(text.count) })
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - property: The property; its name makes the key.
  ///   - convert: Makes the property's value from the payload's.
  @preconcurrency
  public init<Wire: MappableValue>(
    _ property: WritableKeyPath<Object, Value> & Sendable,
    decodeOnly convert: @escaping @Sendable (Wire) throws -> Value
  ) {
    self = .keyless(property) { Attribute($0, property, decodeOnly: convert) }
  }
}
