import Foundation
import ObjectMapping

/// Mappings loaded from definition files: AppCoreKit `.mappings` files or CSMapper class files
/// (XML property lists or JSON), bound to Swift types through their ``PropertyTable``s.
///
/// ```swift
/// let catalog = try DefinitionCatalog(
///   appCoreKitFiles: [.resource("YourMappings", withExtension: "mappings", in: .main)],
///   types: [TweetModel.self, UserModel.self, TimelineModel.self],
///   transforms: transforms)
/// let tweetMapping: Mapping<TweetModel> = try catalog.mapping("$TweetModel")
/// let tweet = try tweetMapping.map(data)
/// let body = try tweetMapping.serialize(tweet)       // two-way, like any mapping
/// ```
///
/// Loading reads every file, follows `@import`s, applies `@inherits` and selectors, binds each
/// definition to its type and builds its mapping; every mistake in the whole set is reported
/// together in one ``DefinitionErrors``, each with its file, line and column. Every definition
/// that names its class is built and checked when the catalog is made (a template without
/// `@class` is built when a mapping asks for it). The result is an ordinary `Mapping`: the
/// same speed, errors and inverse as the same mapping written in the DSL, usable in a
/// `MappingProvider`, in relationships of DSL mappings, in dynamic mappings and with the object
/// manager. The catalog is immutable and `Sendable`.
public struct DefinitionCatalog: Sendable {
  private let state: CatalogState
  /// The names of the definitions: AppCoreKit contexts in file order, or CSMapper classes.
  public let definitionNames: [String]

  /// Loads AppCoreKit `.mappings` files (JSON with comments).
  ///
  /// - Parameters:
  ///   - files: The files; `@import`s find other files among these by name first, then next
  ///     to the importing file when it was loaded from a URL. An import without an extension
  ///     (`"Templates"`) takes the importing file's (`Templates.mappings`).
  ///   - types: The model types `@class` may name, by their table's ``PropertyTable/name``.
  ///   - transforms: The transforms `@transformSelector` may name.
  ///   - conditions: What the selectors (`@ipad`, `@ios >= 7`) test.
  ///   - imports: Where `@import`s may lead: by default inside the folder of the file given
  ///     here that imports them (``DefinitionImportPolicy``).
  /// - Throws: ``DefinitionErrors`` with every mistake in the set of files.
  public init(
    appCoreKitFiles files: [DefinitionFile], types: [any DefinableModel.Type],
    transforms: TransformRegistry = .standard, conditions: DefinitionConditions = .none,
    imports: DefinitionImportPolicy = .insideFolder
  ) throws(DefinitionErrors) {
    var reader = AppCoreKitReader(files: files, conditions: conditions, imports: imports)
    reader.read()
    let builder = CatalogBuilder(
      specs: reader.specs, types: types, transforms: transforms, format: .appCoreKit)
    builder.errors = reader.errors
    builder.fileOrder = files.map(\.name)
    for name in reader.contextNames {
      guard let spec = reader.specs[name], let className = spec.className else { continue }
      guard let type = builder.types[className.name] else {
        builder.errors.append(builder.unknownClass(className.name, at: className.location))
        continue
      }
      builder.buildAny(name, as: type)
    }
    try builder.finish()
    state = CatalogState(builder, attributeTemplates: reader.attributeTemplates)
    definitionNames = reader.contextNames
  }

  /// Loads CSMapper class files: `Person.plist` or `Person.json` defines the class `Person`.
  ///
  /// - Parameters:
  ///   - files: One file per class; a file named after no registered type can still be a
  ///     `__parent__` of others.
  ///   - types: The model types the files define, by their table's ``PropertyTable/name``.
  ///   - transforms: The mappers `mapper` may name.
  /// - Throws: ``DefinitionErrors`` with every mistake in the set of files.
  public init(
    csMapperFiles files: [DefinitionFile], types: [any DefinableModel.Type],
    transforms: TransformRegistry = .standard
  ) throws(DefinitionErrors) {
    var reader = CSMapperReader(files: files)
    reader.read()
    let builder = CatalogBuilder(
      specs: reader.specs, types: types, transforms: transforms, format: .csMapper)
    builder.errors = reader.errors
    builder.fileOrder = files.map(\.name)
    for name in reader.names {
      guard let type = builder.types[name] else { continue }
      builder.buildAny(name, as: type)
    }
    for name in reader.names where builder.types[name] == nil && !builder.usedSpecs.contains(name) {
      if let spec = reader.specs[name] {
        builder.errors.append(builder.unknownClass(name, at: spec.location))
      }
    }
    try builder.finish()
    state = CatalogState(builder, attributeTemplates: [])
    definitionNames = reader.names
  }

  /// The mapping of the definition `name` (a context such as `$TweetModel`, or a CSMapper
  /// class), bound to `type`.
  ///
  /// A context without `@class` (a template) is built for `type` on the first request.
  ///
  /// - Throws: ``DefinitionErrors`` when there is no such definition, or it does not fit
  ///   `type`.
  public func mapping<T: DefinableModel>(_ name: String, as type: T.Type = T.self)
    throws(DefinitionErrors) -> Mapping<T>
  {
    if let built = state.built[CatalogBuilder.key(name, T.self)] as? Mapping<T> { return built }
    let spec = try state.spec(named: name, loaded: definitionNames)
    if let className = spec.className, className.name != T.properties.name {
      throw DefinitionErrors([
        DefinitionError(
          .typeMismatch, at: className.location,
          "\"\(name)\" maps \(className.name), not \(T.properties.name)")
      ])
    }
    let builder = state.builder()
    let mapping = builder.build(name, as: T.self)
    builder.drainPending()
    try builder.finish()
    guard let mapping else {
      throw DefinitionErrors([
        DefinitionError(.unknownContext, at: spec.location, "\"\(name)\" cannot be built")
      ])
    }
    return mapping
  }

  /// The mapping of `type`'s own definition: the CSMapper file named after it, or the one
  /// AppCoreKit context whose `@class` names it.
  ///
  /// - Throws: ``DefinitionErrors`` when no definition, or several, name the type.
  public func mapping<T: DefinableModel>(for type: T.Type) throws(DefinitionErrors) -> Mapping<T> {
    let name: String
    do {
      name = try state.builder().defaultSpec(for: T.properties.name, location: nil)
    } catch {
      throw DefinitionErrors([error])
    }
    return try mapping(name, as: T.self)
  }

  /// The rules of the definition `name` as the files wrote them, in the order they apply:
  /// what a loaded mapping does, for debugging a set of files and for tests. A CSMapper class
  /// lists its parents' rules first (each once, where it applies last), an AppCoreKit context
  /// its properties after `@inherits` and selectors.
  ///
  /// ```swift
  /// for rule in try catalog.rules(of: "$TweetModel") { print(rule) }
  /// // imageUrl <- user.profile_image_url (optional, default "https://si0.twimg.com/…")
  /// // coordinates <- @self (required, transform MyTransformers.coordinate2DFromDictionary:userData:error:)
  /// ```
  ///
  /// - Parameter name: A context (`$TweetModel`), an inline definition (`$TweetModel.user`) or a
  ///   CSMapper class (`Programmer`).
  /// - Returns: One rule per property the definition maps, whether or not its type has it.
  /// - Throws: ``DefinitionErrors`` when no loaded file defines `name`.
  public func rules(of name: String) throws(DefinitionErrors) -> [DefinitionRule] {
    let spec = try state.spec(named: name, loaded: definitionNames)
    let items: [(ObjectSpec, PropertySpec)] =
      spec.format == .csMapper
      ? Linearization.items(of: name, in: state.specs).items.map { ($0.spec, $0.property) }
      : spec.properties.map { (spec, $0) }
    return items.map { DefinitionRule($1, definedIn: $0) }
  }
}

/// One rule of a loaded definition, as its file wrote it (see ``DefinitionCatalog/rules(of:)``).
public struct DefinitionRule: Sendable, Equatable, CustomStringConvertible {
  /// The property the rule writes, as the file names it (`imageUrl`).
  public let property: String
  /// The payload key paths it reads, as the file writes them: one (`user.profile_image_url`),
  /// several for a multi-value mapper, `@self` for the object being mapped.
  public let keyPaths: [String]
  /// Whether an absent (or `null`) value is an error (AppCoreKit without `@optional` and
  /// `@defaultValue`; never in CSMapper).
  public let isRequired: Bool
  /// The value an absent (or `null`) key gets, as written.
  public let defaultValue: Node?
  /// The transform or mapper, as the file names it (`MyTransformers.coordinateFromArray`).
  public let transform: String?
  /// The definition of the rule's objects, when the file names one: a context (`$UserModel`), an
  /// inline `@mappings` (`$TweetModel.user`) or a CSMapper class (`ContactInfo`).
  public let definition: String?
  /// The collection policy the file sets (`@clearContent`, `@insertContentAtBegin`).
  public let collectionPolicy: CollectionPolicy?
  /// The groups the rule belongs to (CSMapper's `groups`).
  public let groups: [String]
  /// The definition the rule is written in: the one asked for, or a CSMapper parent.
  public let definedIn: String
  /// Where the property is written.
  public let location: DefinitionLocation

  init(_ property: PropertySpec, definedIn spec: ObjectSpec) {
    self.property = property.name
    keyPaths = property.compoundSources ?? [property.keyPath ?? property.name]
    isRequired = property.presence == .required
    defaultValue = property.defaultValue?.node
    transform = property.transform.map { transform in
      transform.className.map { "\($0).\(transform.selector)" } ?? transform.selector
    }
    switch property.child?.target {
    case .named(let name)?, .inline(let name)?: definition = name
    case .classOnly?, nil: definition = property.forcedType?.name
    }
    collectionPolicy = property.policy?.policy
    groups = property.groups
    definedIn = spec.name
    location = property.location
  }

  /// `imageUrl <- user.profile_image_url (optional, default "…", transform url, from Person)`.
  public var description: String {
    var notes = [isRequired ? "required" : "optional"]
    if let defaultValue { notes.append("default \(defaultValue)") }
    if let transform { notes.append("transform \(transform)") }
    if let definition { notes.append("objects \(definition)") }
    if let collectionPolicy { notes.append("policy \(collectionPolicy)") }
    if !groups.isEmpty { notes.append("groups \(groups.joined(separator: ", "))") }
    notes.append("at \(location)")
    return "\(property) <- \(keyPaths.joined(separator: " + ")) (\(notes.joined(separator: ", ")))"
  }
}

/// What a catalog keeps: the definitions, the types, the transforms and the mappings built.
final class CatalogState: Sendable {
  let specs: [String: ObjectSpec]
  let types: [String: any DefinableModel.Type]
  let transforms: TransformRegistry
  let format: ObjectSpec.Format
  let built: [String: any Sendable]
  /// The heights of the mappings built (``CatalogBuilder/heights``).
  let heights: [String: Int]
  /// AppCoreKit templates of one property's attributes: no definition of their own.
  let attributeTemplates: Set<String>

  init(_ builder: CatalogBuilder, attributeTemplates: Set<String>) {
    specs = builder.specs
    types = builder.types
    transforms = builder.transforms
    format = builder.format
    built = builder.built
    heights = builder.heights
    self.attributeTemplates = attributeTemplates
  }

  /// The definition `name`, or the error saying there is none.
  func spec(named name: String, loaded: [String]) throws(DefinitionErrors) -> ObjectSpec {
    if let spec = specs[name] { return spec }
    let message =
      attributeTemplates.contains(name)
      ? "\"\(name)\" is a template of property attributes (for @inherits inside a property), "
        + "not a definition"
      : "no definition named \"\(name)\" (loaded: \(loaded.joined(separator: ", ")))"
    throw DefinitionErrors([DefinitionError(.unknownContext, at: nil, message)])
  }

  /// A builder that starts from the mappings built already.
  func builder() -> CatalogBuilder {
    let builder = CatalogBuilder(
      specs: specs, typesByName: types, transforms: transforms, format: format)
    builder.built = built
    builder.heights = heights
    return builder
  }
}
