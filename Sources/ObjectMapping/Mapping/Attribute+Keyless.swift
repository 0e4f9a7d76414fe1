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

/// What to write where a keyless form cannot exist (issue 41): these overloads match only when
/// no available one does, and the compiler reports their message instead of a generic
/// requirement failure.
extension Attribute {
  /// Unavailable: a keyless `Attribute` maps a ``MappableValue``, a `Codable` value or a
  /// raw-value enum.
  @available(
    *, unavailable,
    message:
      "Attribute(\\.property) reads a MappableValue, a Codable value or a raw-value enum; for another type pass a ValueTransform (Attribute(\\.property, transform)), or map an object with Relationship(\\.property, childMapping)"
  )
  public init(_ property: WritableKeyPath<Object, Value> & Sendable) {
    // Never runs: the compiler rejects every call.
    self.init(
      source: SourcePath(keys: ["?"]), property: property,
      read: { _ in throw ConversionFailure.notRepresentable("\(Value.self)", reason: "unmapped") },
      nullValue: { nil }, defaultValue: nil, serialize: nil, expected: "\(Value.self)")
  }

  /// Unavailable: an `Attribute` sets its property, which a read-only key path cannot.
  @available(
    *, unavailable,
    message:
      "Attribute sets its property, and this one is read-only (a let or a computed property); make it a var, or write it only when serializing: mapping.inverse.adding(\"key\") { $0.property }"
  )
  @_disfavoredOverload
  public init(_ property: KeyPath<Object, Value>) {
    // Never runs: the compiler rejects every call.
    preconditionFailure("unavailable")
  }

  /// Unavailable: an `Attribute` sets its property, which a read-only key path cannot.
  @available(
    *, unavailable,
    message:
      "Attribute sets its property, and this one is read-only (a let or a computed property); make it a var, or write it only when serializing: mapping.inverse.adding(\"key\") { $0.property }"
  )
  @_disfavoredOverload
  public init(_ source: some SourcePathConvertible, _ property: KeyPath<Object, Value>) {
    // Never runs: the compiler rejects every call.
    preconditionFailure("unavailable")
  }
}

extension Relationship {
  /// Unavailable: a keyless `Relationship` without a mapping reads a `Codable` child.
  @available(
    *, unavailable,
    message:
      "Relationship(\\.property) without a mapping reads a Codable child; pass the child's mapping (Relationship(\\.property, childMapping)) or give the child type a Codable conformance"
  )
  public init<Child>(_ property: WritableKeyPath<Object, Child> & Sendable) {
    // Never runs: the compiler rejects every call.
    preconditionFailure("unavailable")
  }
}
