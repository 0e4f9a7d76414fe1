import ObjectMapping

/// A model type that definition files can map: it lists, once, the properties a file may name.
///
/// ```swift
/// struct Tweet: DefinableModel {
///   var identifier = ""
///   var message = ""
///   var imageURL: URL?
///   var user: User?
///   var location = Coordinate()
///
///   static let properties = PropertyTable(Tweet.init, name: "TweetModel") {
///     Property(\.identifier)                 // named "identifier", from the key path
///     Property(\.message)
///     Property("imageUrl", \.imageURL)        // the name the files use
///     Property(\.user)                        // User: DefinableModel, a relationship
///     Property("coordinates", \.location)     // needs a transform in the file
///   }
/// }
/// ```
///
/// This table is what Objective-C's key-value coding gave AppCoreKit and CSMapper: names for
/// properties. Everything is checked when a definition is loaded: a name the table does not
/// list, a read-only property, a default the property cannot hold, a transform producing
/// another type or an object of another class is a ``DefinitionError`` with the file, line and
/// column. A loaded definition compiles to an ordinary `Mapping` over these key paths, so it
/// maps and serializes at the speed of the same mapping written in the DSL.
public protocol DefinableModel: SendableMetatype {
  /// The properties definition files may name, and how to make a fresh instance.
  static var properties: PropertyTable<Self> { get }
}

/// The properties of a ``DefinableModel`` that definition files may name, with the key paths
/// that read and write them.
public struct PropertyTable<Object>: Sendable {
  /// The name files use for the type (`@class`, CSMapper's file name and `type`).
  public let name: String
  let make: @Sendable () -> Object
  let entries: [Property<Object>]
  let byName: [String: Int]
  /// Mistakes in the table itself (a name that cannot be read, a name listed twice), reported
  /// when a definition for the type is loaded.
  let problems: [String]

  /// Creates a table.
  ///
  /// - Parameters:
  ///   - make: Creates a fresh instance (`Tweet.init`).
  ///   - name: The name files use for the type; the type's own name when left out.
  ///   - properties: The properties, one ``Property`` each.
  public init(
    _ make: @escaping @Sendable () -> Object, name: String? = nil,
    @PropertyTableBuilder<Object> properties: () -> [Property<Object>]
  ) {
    self.name = name ?? String(describing: Object.self)
    self.make = make
    let entries = properties()
    self.entries = entries
    var byName: [String: Int] = [:]
    var problems: [String] = []
    for (offset, entry) in entries.enumerated() {
      guard let entryName = entry.name else {
        problems.append(
          "the property table of \(Object.self) lists \(entry.keyPathDescription) without a name, "
            + "and the name cannot be read from the key path; spell it: Property(\"name\", …)")
        continue
      }
      if byName[entryName] != nil {
        problems.append("the property table of \(Object.self) lists \"\(entryName)\" twice")
        continue
      }
      byName[entryName] = offset
    }
    self.byName = byName
    self.problems = problems
  }

  /// The names files may use, in table order.
  public var propertyNames: [String] { entries.compactMap(\.name) }

  func entry(named name: String) -> Property<Object>? {
    byName[name].map { entries[$0] }
  }
}

/// Builds the entries of a ``PropertyTable``.
@resultBuilder
public enum PropertyTableBuilder<Object> {
  /// One property.
  public static func buildExpression(_ property: Property<Object>) -> [Property<Object>] {
    [property]
  }

  /// Properties listed elsewhere.
  public static func buildExpression(_ properties: [Property<Object>]) -> [Property<Object>] {
    properties
  }

  /// The properties of a block, in order.
  public static func buildBlock(_ parts: [Property<Object>]...) -> [Property<Object>] {
    parts.flatMap { $0 }
  }

  /// An `if` without `else`.
  public static func buildOptional(_ part: [Property<Object>]?) -> [Property<Object>] {
    part ?? []
  }

  /// The `if` branch of an `if`/`else`.
  public static func buildEither(first part: [Property<Object>]) -> [Property<Object>] { part }

  /// The `else` branch of an `if`/`else`.
  public static func buildEither(second part: [Property<Object>]) -> [Property<Object>] { part }

  /// A `for` loop.
  public static func buildArray(_ parts: [[Property<Object>]]) -> [Property<Object>] {
    parts.flatMap { $0 }
  }
}

/// One property a definition file may name: its name, its key path, and what kind of rule a
/// file can make of it.
///
/// - A value (`String`, `Int`, `Date`, `URL`, any `MappableValue`, a raw-value enum) becomes
///   an `Attribute`: direct, with a default, or through a named transform.
/// - Any other `Sendable` type becomes an `Attribute` only through a named transform (a
///   `CLLocationCoordinate2D` read by `coordinate2DFromFloatArray:error:`).
/// - A ``DefinableModel`` (to-one, optional, array, set or dictionary of it) becomes a
///   `Relationship` whose mapping is another definition.
/// - A read-only key path is listed so that a file naming it gets a precise error.
public struct Property<Object>: Sendable {
  /// What a file can make of the property.
  enum Role: Sendable {
    case value
    case transformedValue
    /// A relationship to objects of `element` (its table is read only when a definition is
    /// bound: a recursive type's table names itself).
    case object(element: any DefinableModel.Type)
    case readOnly
  }

  /// The name files use; `nil` when it could not be read from the key path.
  let name: String?
  let keyPathDescription: String
  /// The property's type, as messages name it.
  let typeName: String
  /// The property's type with one level of `Optional` removed, for CSMapper's `type` checks.
  let valueType: Any.Type
  let role: Role
  let build:
    @Sendable (RuleRequest, any ChildResolver) throws(DefinitionError) -> any MappingRule<
      Object
    >

  private init<Value>(
    name: String?, keyPath: KeyPath<Object, Value>, role: Role, valueType: Any.Type,
    build:
      @escaping @Sendable (RuleRequest, any ChildResolver) throws(DefinitionError) ->
      any MappingRule<Object>
  ) {
    self.name = name ?? KeyConvention.propertyName(of: keyPath, in: Object.self)
    keyPathDescription = String(describing: keyPath)
    typeName = String(describing: Value.self)
    self.valueType = valueType
    self.role = role
    self.build = build
  }
}

// MARK: Values

extension Property {
  /// A value property: mapped directly, with a default, or through a transform.
  ///
  /// - Parameters:
  ///   - name: The name files use.
  ///   - property: The property.
  public init<Value: MappableValue & Sendable>(
    _ name: String, _ property: WritableKeyPath<Object, Value> & Sendable
  ) {
    self.init(name: name, keyPath: property, role: .value, valueType: _unwrapped(Value.self)) {
      request, _ throws(DefinitionError) in
      try _valueRule(request, property)
    }
  }

  /// A value property named as its key path names it (`\.createdAt` is `"createdAt"`).
  public init<Value: MappableValue & Sendable>(
    _ property: WritableKeyPath<Object, Value> & Sendable
  ) {
    self.init(name: nil, keyPath: property, role: .value, valueType: _unwrapped(Value.self)) {
      request, _ throws(DefinitionError) in
      try _valueRule(request, property)
    }
  }

  /// A raw-value enum property (`enum State: String`), read and written by its raw value.
  @_disfavoredOverload
  public init<Value: RawRepresentable & Sendable & SendableMetatype>(
    _ name: String, _ property: WritableKeyPath<Object, Value> & Sendable
  ) where Value.RawValue: MappableValue & Sendable {
    self.init(name: name, rawValue: property)
  }

  /// A raw-value enum property named as its key path names it.
  @_disfavoredOverload
  public init<Value: RawRepresentable & Sendable & SendableMetatype>(
    _ property: WritableKeyPath<Object, Value> & Sendable
  ) where Value.RawValue: MappableValue & Sendable {
    self.init(name: nil, rawValue: property)
  }

  private init<Value: RawRepresentable & Sendable & SendableMetatype>(
    name: String?, rawValue property: WritableKeyPath<Object, Value> & Sendable
  ) where Value.RawValue: MappableValue & Sendable {
    self.init(name: name, keyPath: property, role: .value, valueType: Value.self) {
      request, _ throws(DefinitionError) in
      try _rawValueRule(request, property)
    }
  }

  /// A `Codable` value property (`struct Reactions: Codable`), read and written by its own
  /// `Codable` conformance on the library's reader and writer.
  @_disfavoredOverload
  public init<Value: Codable & Sendable & SendableMetatype>(
    _ name: String, _ property: WritableKeyPath<Object, Value> & Sendable
  ) {
    self.init(name: name, codable: property)
  }

  /// A `Codable` value property named as its key path names it.
  @_disfavoredOverload
  public init<Value: Codable & Sendable & SendableMetatype>(
    _ property: WritableKeyPath<Object, Value> & Sendable
  ) {
    self.init(name: nil, codable: property)
  }

  /// A `Codable` raw-value enum: read by its raw value (the more specific of the two).
  @_disfavoredOverload
  public init<Value: Codable & RawRepresentable & Sendable & SendableMetatype>(
    _ name: String, _ property: WritableKeyPath<Object, Value> & Sendable
  ) where Value.RawValue: MappableValue & Sendable {
    self.init(name: name, rawValue: property)
  }

  /// A `Codable` raw-value enum named as its key path names it.
  @_disfavoredOverload
  public init<Value: Codable & RawRepresentable & Sendable & SendableMetatype>(
    _ property: WritableKeyPath<Object, Value> & Sendable
  ) where Value.RawValue: MappableValue & Sendable {
    self.init(name: nil, rawValue: property)
  }

  private init<Value: Codable & Sendable & SendableMetatype>(
    name: String?, codable property: WritableKeyPath<Object, Value> & Sendable
  ) {
    self.init(name: name, keyPath: property, role: .value, valueType: _unwrapped(Value.self)) {
      request, _ throws(DefinitionError) in
      try _codableRule(request, property)
    }
  }

  /// A property of any other type: a file maps it through a named transform.
  @_disfavoredOverload
  public init<Value: Sendable>(
    _ name: String, _ property: WritableKeyPath<Object, Value> & Sendable
  ) {
    self.init(name: name, transformed: property)
  }

  /// A property of any other type, named as its key path names it.
  @_disfavoredOverload
  public init<Value: Sendable>(_ property: WritableKeyPath<Object, Value> & Sendable) {
    self.init(name: nil, transformed: property)
  }

  private init<Value: Sendable>(
    name: String?, transformed property: WritableKeyPath<Object, Value> & Sendable
  ) {
    self.init(
      name: name, keyPath: property, role: .transformedValue, valueType: _unwrapped(Value.self)
    ) { request, _ throws(DefinitionError) in
      try _transformedRule(request, property)
    }
  }

  /// A read-only property (a computed `var` with only a getter, a `let` of a class): listed so
  /// that a file naming it gets a precise error instead of "unknown property".
  public init<Value>(_ name: String, readOnly property: KeyPath<Object, Value> & Sendable) {
    self.init(name: name, keyPath: property, role: .readOnly, valueType: Value.self) {
      request, _ throws(DefinitionError) in
      throw DefinitionError(
        .readOnlyProperty, at: request.location,
        "\"\(request.propertyName)\" of \(request.ownerName) is read-only; a definition can "
          + "only map properties with a setter")
    }
  }
}

// MARK: Relationships

extension Property {
  /// A relationship to `Element` objects: `ready` makes the rule with a built child mapping,
  /// `later` with one resolved when first used (a cycle between definitions).
  private init<Element: DefinableModel, Value>(
    name: String?, relationship property: WritableKeyPath<Object, Value> & Sendable,
    element: Element.Type, isToMany: Bool,
    ready: @escaping @Sendable (SourcePath, Mapping<Element>) -> Relationship<Object>,
    later:
      @escaping @Sendable (SourcePath, @escaping @Sendable () -> Mapping<Element>) ->
      Relationship<Object>
  ) {
    self.init(
      name: name, keyPath: property, role: .object(element: Element.self),
      valueType: Element.self
    ) { request, resolver throws(DefinitionError) in
      try request.rejectValueKeywords()
      let rule: Relationship<Object>
      switch try resolver.childMapping(for: request, Element.self) {
      case .ready(let mapping): rule = ready(request.source, mapping)
      case .later(let mapping): rule = later(request.source, mapping)
      }
      return try request.finishing(rule, isToMany: isToMany)
    }
  }

  /// A to-one relationship to another ``DefinableModel``.
  public init<Child: DefinableModel>(
    _ name: String, _ property: WritableKeyPath<Object, Child> & Sendable
  ) {
    self.init(name: name, toOne: property)
  }

  /// A to-one relationship named as its key path names it.
  public init<Child: DefinableModel>(_ property: WritableKeyPath<Object, Child> & Sendable) {
    self.init(name: nil, toOne: property)
  }

  private init<Child: DefinableModel>(
    name: String?, toOne property: WritableKeyPath<Object, Child> & Sendable
  ) {
    self.init(
      name: name, relationship: property, element: Child.self, isToMany: false,
      ready: { Relationship($0, property, $1) }, later: { Relationship($0, property, lazy: $1) })
  }

  /// An optional to-one relationship.
  public init<Child: DefinableModel>(
    _ name: String, _ property: WritableKeyPath<Object, Child?> & Sendable
  ) {
    self.init(name: name, optionalToOne: property)
  }

  /// An optional to-one relationship named as its key path names it.
  public init<Child: DefinableModel>(_ property: WritableKeyPath<Object, Child?> & Sendable) {
    self.init(name: nil, optionalToOne: property)
  }

  private init<Child: DefinableModel>(
    name: String?, optionalToOne property: WritableKeyPath<Object, Child?> & Sendable
  ) {
    self.init(
      name: name, relationship: property, element: Child.self, isToMany: false,
      ready: { Relationship($0, property, $1) }, later: { Relationship($0, property, lazy: $1) })
  }

  /// A to-many relationship: an array or a set of another ``DefinableModel``, or an optional
  /// of either.
  public init<Collection: MappableCollection>(
    _ name: String, _ property: WritableKeyPath<Object, Collection> & Sendable
  ) where Collection.Element: DefinableModel {
    self.init(name: name, toMany: property)
  }

  /// A to-many relationship named as its key path names it.
  public init<Collection: MappableCollection>(
    _ property: WritableKeyPath<Object, Collection> & Sendable
  ) where Collection.Element: DefinableModel {
    self.init(name: nil, toMany: property)
  }

  private init<Collection: MappableCollection>(
    name: String?, toMany property: WritableKeyPath<Object, Collection> & Sendable
  ) where Collection.Element: DefinableModel {
    self.init(
      name: name, relationship: property, element: Collection.Element.self, isToMany: true,
      ready: { Relationship($0, property, $1) }, later: { Relationship($0, property, lazy: $1) })
  }

  /// A dictionary of objects keyed by the payload's keys.
  public init<Child: DefinableModel>(
    _ name: String, _ property: WritableKeyPath<Object, [String: Child]> & Sendable
  ) {
    self.init(
      name: name, relationship: property, element: Child.self, isToMany: false,
      ready: { Relationship($0, property, $1) }, later: { Relationship($0, property, lazy: $1) })
  }
}

/// `T` without one level of `Optional`.
func _unwrapped<T>(_ type: T.Type) -> Any.Type {
  (T.self as? any OptionalType.Type)?.wrappedType ?? T.self
}

/// Lets `_unwrapped` see through `Optional`.
protocol OptionalType {
  static var wrappedType: Any.Type { get }
}

extension Optional: OptionalType {
  static var wrappedType: Any.Type { Wrapped.self }
}

/// The name `type`'s property table gives it.
func _tableName(of type: any DefinableModel.Type) -> String {
  func name<T: DefinableModel>(_ type: T.Type) -> String { T.properties.name }
  return name(type)
}
