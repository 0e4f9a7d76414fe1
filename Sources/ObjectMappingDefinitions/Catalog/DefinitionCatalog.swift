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
  private let state: _CatalogState
  /// The names of the definitions: AppCoreKit contexts in file order, or CSMapper classes.
  public let definitionNames: [String]

  /// Loads AppCoreKit `.mappings` files (JSON with comments).
  ///
  /// - Parameters:
  ///   - files: The files; `@import`s find other files among these by name first, then next
  ///     to the importing file when it was loaded from a URL.
  ///   - types: The model types `@class` may name, by their table's ``PropertyTable/name``.
  ///   - transforms: The transforms `@transformSelector` may name.
  ///   - conditions: What the selectors (`@ipad`, `@ios >= 7`) test.
  /// - Throws: ``DefinitionErrors`` with every mistake in the set of files.
  public init(
    appCoreKitFiles files: [DefinitionFile], types: [any DefinableModel.Type],
    transforms: TransformRegistry = .standard, conditions: DefinitionConditions = .none
  ) throws(DefinitionErrors) {
    var reader = _AppCoreKitReader(files: files, conditions: conditions)
    reader.read()
    let builder = _CatalogBuilder(
      specs: reader.specs, types: types, transforms: transforms, format: .appCoreKit)
    builder.errors = reader.errors
    for name in reader.contextNames {
      guard let spec = reader.specs[name], let className = spec.className else { continue }
      guard let type = builder.types[className.name] else {
        builder.errors.append(builder.unknownClass(className.name, at: className.location))
        continue
      }
      builder.buildAny(name, as: type)
    }
    try builder.finish()
    state = _CatalogState(builder)
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
    var reader = _CSMapperReader(files: files)
    reader.read()
    let builder = _CatalogBuilder(
      specs: reader.specs, types: types, transforms: transforms, format: .csMapper)
    builder.errors = reader.errors
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
    state = _CatalogState(builder)
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
    if let built = state.built[_CatalogBuilder.key(name, T.self)] as? Mapping<T> { return built }
    guard let spec = state.specs[name] else {
      throw DefinitionErrors([
        DefinitionError(
          .unknownContext, at: nil,
          "no definition named \"\(name)\" (loaded: \(definitionNames.joined(separator: ", ")))")
      ])
    }
    if let className = spec.className, className.name != T.properties.name {
      throw DefinitionErrors([
        DefinitionError(
          .typeMismatch, at: className.location,
          "\"\(name)\" maps \(className.name), not \(T.properties.name)")
      ])
    }
    let builder = state.builder()
    let mapping = builder.build(name, as: T.self)
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
}

/// What a catalog keeps: the definitions, the types, the transforms and the mappings built.
final class _CatalogState: Sendable {
  let specs: [String: _ObjectSpec]
  let types: [String: any DefinableModel.Type]
  let transforms: TransformRegistry
  let format: _ObjectSpec.Format
  let built: [String: any Sendable]

  init(_ builder: _CatalogBuilder) {
    specs = builder.specs
    types = builder.types
    transforms = builder.transforms
    format = builder.format
    built = builder.built
  }

  /// A builder that starts from the mappings built already.
  func builder() -> _CatalogBuilder {
    let builder = _CatalogBuilder(
      specs: specs, typesByName: types, transforms: transforms, format: format)
    builder.built = built
    return builder
  }
}
