import Foundation
import ObjectMapping

/// Binds object definitions to types and builds their mappings, collecting every mistake.
///
/// Used while a catalog loads (and when a template is asked for later), by one thread: the
/// builder is never shared.
final class _CatalogBuilder: _ChildResolver {
  let specs: [String: _ObjectSpec]
  let types: [String: any DefinableModel.Type]
  let transforms: TransformRegistry
  let format: _ObjectSpec.Format
  var errors: [DefinitionError] = []
  /// The mappings built, by ``key(_:_:)``.
  var built: [String: any Sendable] = [:]
  /// The definitions used, by name (CSMapper parents need not be registered types).
  private(set) var usedSpecs: Set<String> = []
  private var building: Set<String> = []
  /// Slots for relationships that close a cycle, filled when their mapping is built.
  private var slots: [String: AnyObject] = [:]
  private var reportedTables: Set<String> = []

  convenience init(
    specs: [String: _ObjectSpec], types: [any DefinableModel.Type], transforms: TransformRegistry,
    format: _ObjectSpec.Format
  ) {
    var byName: [String: any DefinableModel.Type] = [:]
    for type in types { byName[Self.tableName(type)] = type }
    self.init(specs: specs, typesByName: byName, transforms: transforms, format: format)
  }

  init(
    specs: [String: _ObjectSpec], typesByName: [String: any DefinableModel.Type],
    transforms: TransformRegistry, format: _ObjectSpec.Format
  ) {
    self.specs = specs
    types = typesByName
    self.transforms = transforms
    self.format = format
  }

  private static func tableName<T: DefinableModel>(_ type: T.Type) -> String {
    T.properties.name
  }

  static func key<T>(_ spec: String, _ type: T.Type) -> String {
    "\(spec)|\(ObjectIdentifier(type).hashValue)|\(type)"
  }

  /// Throws every mistake found, in file order.
  func finish() throws(DefinitionErrors) {
    guard !errors.isEmpty else { return }
    var seen: Set<DefinitionError> = []
    let unique = errors.filter { seen.insert($0).inserted }
    // Grouped by file (in the order files first appear), then by line and column; errors
    // without a place come last.
    var fileRank: [String: Int] = [:]
    for error in unique {
      if let file = error.location?.file, fileRank[file] == nil { fileRank[file] = fileRank.count }
    }
    let ordered = unique.enumerated().sorted { left, right in
      func rank(_ item: (offset: Int, element: DefinitionError)) -> (Int, Int, Int, Int) {
        guard let location = item.element.location else { return (Int.max, 0, 0, item.offset) }
        return (fileRank[location.file] ?? 0, location.line, location.column, item.offset)
      }
      return rank(left) < rank(right)
    }
    throw DefinitionErrors(ordered.map(\.element))
  }

  func unknownClass(_ name: String, at location: DefinitionLocation?) -> DefinitionError {
    DefinitionError(
      .unknownClass, at: location,
      "no registered type is named \"\(name)\" (registered: "
        + "\(types.keys.sorted().joined(separator: ", "))); add it to `types:`, with a "
        + "PropertyTable named \"\(name)\"")
  }

  func buildAny<T: DefinableModel>(_ name: String, as type: T.Type) {
    _ = build(name, as: type)
  }

  /// The mapping of definition `name` for `T`; `nil` when there is no such definition.
  func build<T: DefinableModel>(_ name: String, as type: T.Type) -> Mapping<T>? {
    let key = Self.key(name, T.self)
    if let mapping = built[key] as? Mapping<T> { return mapping }
    guard let spec = specs[name], !building.contains(key) else { return nil }
    usedSpecs.insert(name)
    building.insert(key)
    defer { building.remove(key) }
    let table = T.properties
    if reportedTables.insert(table.name).inserted {
      errors += table.problems.map { DefinitionError(.unknownProperty, at: spec.location, $0) }
    }
    var rules: [any MappingRule<T>] = []
    for parent in spec.parents {
      guard specs[parent.name] != nil else {
        errors.append(
          DefinitionError(
            .unknownContext, at: parent.location,
            "__parent__ names \(parent.name), which has no file (\(parent.name).plist or "
              + "\(parent.name).json)"))
        continue
      }
      if building.contains(Self.key(parent.name, T.self)) {
        errors.append(
          DefinitionError(
            .unknownContext, at: parent.location,
            "__parent__ cycle: \(name) inherits from \(parent.name), which inherits from \(name)"))
        continue
      }
      if let mapping = build(parent.name, as: T.self) { rules.append(Include(mapping)) }
    }
    for property in spec.properties {
      guard let entry = table.entry(named: property.name) else {
        errors.append(
          DefinitionError(
            .unknownProperty, at: property.location,
            "unknown property \"\(property.name)\" of \(table.name) (known: "
              + "\(table.propertyNames.sorted().joined(separator: ", ")))"))
        continue
      }
      do {
        let request = try self.request(for: property, in: spec, entry: entry, owner: table.name)
        rules.append(try entry.build(request, self))
      } catch {
        errors.append(error)
      }
    }
    let mapping = Mapping(table.make) { rules }
    do {
      try mapping.validate()
    } catch {
      errors += error.errors.map {
        DefinitionError(
          .invalidMapping, at: spec.location, "the mapping of \(name) for \(table.name): \($0)")
      }
    }
    built[key] = mapping
    (slots[key] as? _MappingSlot<T>)?.fill(mapping)
    return mapping
  }

  /// The request a property's entry turns into a rule.
  private func request<Object>(
    for property: _PropertySpec, in spec: _ObjectSpec, entry: Property<Object>, owner: String
  ) throws(DefinitionError) -> _RuleRequest {
    var request = _RuleRequest(
      ownerName: owner, propertyName: property.name, location: property.location,
      source: property.source)
    request.compoundSources = property.compoundSources
    request.presence = property.presence
    request.defaultValue = property.defaultValue
    request.child = property.child
    request.policy = property.policy
    request.groups = property.groups
    if spec.format == .appCoreKit { request.defaultToManyPolicy = .append }
    if let transform = property.transform {
      request.transform = try transforms.resolve(
        className: transform.className, selector: transform.selector,
        userData: transform.userData, location: transform.location)
    }
    if let forced = property.forcedType {
      switch entry.role {
      case .object(let element):
        let elementName = _tableName(of: element)
        guard forced.name == elementName else {
          throw request.error(
            .typeMismatch,
            "type \(forced.name), but \"\(property.name)\" of \(owner) holds \(elementName) "
              + "objects", at: forced.location)
        }
        request.child = _ChildReference(
          target: .named(forced.name), className: (forced.name, forced.location),
          location: forced.location)
      case .value, .transformedValue, .readOnly:
        guard let accepted = _ForcedType.accepts(forced.name, entry.valueType) else {
          throw request.error(
            .typeMismatch,
            "type \(forced.name) names a class, but \"\(property.name)\" of \(owner) is "
              + "\(_article(entry.typeName)), not a DefinableModel", at: forced.location)
        }
        guard accepted else {
          throw request.error(
            .typeMismatch,
            "type \(forced.name) cannot be stored in \"\(property.name)\" of \(owner), which is "
              + "\(_article(entry.typeName))", at: forced.location)
        }
      }
    }
    return request
  }

  /// The definition a relationship to `elementName` objects uses when the file names none.
  func defaultSpec(for elementName: String, location: DefinitionLocation?) throws(DefinitionError)
    -> String
  {
    switch format {
    case .csMapper:
      guard specs[elementName] != nil else {
        throw DefinitionError(
          .unknownClass, at: location,
          "no file defines \(elementName) (\(elementName).plist or \(elementName).json)")
      }
      return elementName
    case .appCoreKit:
      let candidates = specs.values.filter {
        !$0.name.contains(".") && $0.className?.name == elementName
      }.map(\.name).sorted()
      guard candidates.count == 1, let only = candidates.first else {
        throw DefinitionError(
          .unknownContext, at: location,
          candidates.isEmpty
            ? "no context has \"@class\": \"\(elementName)\"; give the property an @object with "
              + "@mappings, or define such a context"
            : "several contexts map \(elementName) (\(candidates.joined(separator: ", "))); "
              + "name one with @object/@mappings")
      }
      return only
    }
  }

  func childMapping<Child: DefinableModel>(for request: _RuleRequest, _ type: Child.Type)
    throws(DefinitionError) -> _ChildMapping<Child>
  {
    let elementName = Child.properties.name
    let reference = request.child
    if let className = reference?.className, className.name != elementName {
      throw request.error(
        .typeMismatch,
        "@class \(className.name), but \"\(request.propertyName)\" of \(request.ownerName) holds "
          + "\(elementName) objects", at: className.location)
    }
    let name: String
    switch reference?.target {
    case .named(let named):
      guard specs[named] != nil else {
        throw request.error(
          .unknownContext,
          "\"\(request.propertyName)\" names the definition \"\(named)\", which no loaded file "
            + "defines", at: reference?.location)
      }
      name = named
    case .inline(let inline):
      name = inline
    case .classOnly, nil:
      name = try defaultSpec(for: elementName, location: reference?.location ?? request.location)
    }
    if let className = specs[name]?.className, className.name != elementName {
      throw request.error(
        .typeMismatch,
        "\"\(name)\" maps \(className.name), but \"\(request.propertyName)\" of "
          + "\(request.ownerName) holds \(elementName) objects", at: reference?.location)
    }
    let key = Self.key(name, Child.self)
    if building.contains(key) {
      // A cycle (a comment's replies): resolved when first used, after the catalog is built.
      let slot =
        (slots[key] as? _MappingSlot<Child>)
        ?? _MappingSlot(Mapping(Child.properties.make) { [any MappingRule<Child>]() })
      slots[key] = slot
      return .later { slot.mapping }
    }
    let mapping =
      build(name, as: Child.self) ?? Mapping(Child.properties.make) { [any MappingRule<Child>]() }
    return .ready(mapping)
  }
}

/// The mapping of a definition that a relationship in a cycle refers to: set once, when the
/// definition's mapping is built (before the catalog is returned), read on every use after.
final class _MappingSlot<T>: @unchecked Sendable {
  // @unchecked: `value` is only touched under `lock`.
  private let lock = NSLock()
  private var value: Mapping<T>

  init(_ placeholder: Mapping<T>) {
    value = placeholder
  }

  func fill(_ mapping: Mapping<T>) {
    lock.withLock { value = mapping }
  }

  var mapping: Mapping<T> {
    lock.withLock { value }
  }
}
