import Foundation
import ObjectMapping

/// Binds object definitions to types and builds their mappings, collecting every mistake.
///
/// Used while a catalog loads (and when a template is asked for later), by one thread: the
/// builder is never shared.
///
/// Building a mapping builds the mappings of its relationships first. That recursion is kept
/// shallow: past ``deferralDepth`` nested builds, a relationship's mapping is built later, from
/// the top (``drainPending()``), and the relationship reads it through a slot, as a cycle does;
/// so a chain of definitions costs no call stack proportional to its length.
final class CatalogBuilder: ChildResolver {
  let specs: [String: ObjectSpec]
  let types: [String: any DefinableModel.Type]
  let transforms: TransformRegistry
  let format: ObjectSpec.Format
  var errors: [DefinitionError] = []
  /// The names of the files given to the catalog, in order: errors are reported file by file in
  /// this order (other files after, in the order their errors appear).
  var fileOrder: [String] = []
  /// The mappings built, by ``key(_:_:)``.
  var built: [String: any Sendable] = [:]
  /// The definitions used, by name (CSMapper parents need not be registered types).
  private(set) var usedSpecs: Set<String> = []
  private var building: Set<String> = []
  /// Slots for relationships that close a cycle, or whose mapping is built later, filled when
  /// their mapping is built.
  private var slots: [String: AnyObject] = [:]
  private var reportedTables: Set<String> = []
  /// How many builds are nested in the one running.
  private var depth = 0
  /// Builds put off to keep the nesting shallow, with their keys.
  private var pending: [() -> Void] = []
  private var pendingKeys: Set<String> = []
  /// For each mapping built, by key: how many levels of mappings hold each other directly from
  /// it down (a relationship through a slot counts none).
  var heights: [String: Int] = [:]
  /// For each build running, the largest height of the children it holds directly.
  private var childHeights: [Int] = []

  /// AppCoreKit's contexts (not inline definitions) by the class they name, sorted: what a
  /// relationship that names no context is mapped with.
  private lazy var contextsByClass: [String: [String]] = {
    var byClass: [String: [String]] = [:]
    for spec in specs.values where !spec.isInline {
      if let className = spec.className?.name { byClass[className, default: []].append(spec.name) }
    }
    return byClass.mapValues { $0.sorted() }
  }()

  /// The nesting of builds past which a relationship's mapping is built later.
  static let deferralDepth = 12
  /// The most levels of mappings that hold each other directly; a relationship to a child this
  /// high goes through a slot (see ``MappingSlot``), so freeing a chain of any length never
  /// recurses deeper.
  static let maximumDirectHeight = 8

  convenience init(
    specs: [String: ObjectSpec], types: [any DefinableModel.Type], transforms: TransformRegistry,
    format: ObjectSpec.Format
  ) {
    var byName: [String: any DefinableModel.Type] = [:]
    for type in types { byName[Self.tableName(type)] = type }
    self.init(specs: specs, typesByName: byName, transforms: transforms, format: format)
  }

  init(
    specs: [String: ObjectSpec], typesByName: [String: any DefinableModel.Type],
    transforms: TransformRegistry, format: ObjectSpec.Format
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
    // Grouped by file (in the order the files were given, then the order others first
    // appear), then by line and column; errors without a place come last.
    var fileRank: [String: Int] = [:]
    for file in fileOrder where fileRank[file] == nil { fileRank[file] = fileRank.count }
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
    drainPending()
  }

  /// Runs the builds put off, each from the top, until none is left.
  func drainPending() {
    while let next = pending.popLast() { next() }
  }

  /// The mapping of definition `name` for `T`; `nil` when there is no such definition. Call
  /// ``drainPending()`` before using what it returns.
  func build<T: DefinableModel>(_ name: String, as type: T.Type) -> Mapping<T>? {
    let key = Self.key(name, T.self)
    if let mapping = built[key] as? Mapping<T> { return mapping }
    guard let spec = specs[name], !building.contains(key) else { return nil }
    usedSpecs.insert(name)
    building.insert(key)
    depth += 1
    childHeights.append(0)
    defer {
      building.remove(key)
      depth -= 1
      heights[key] = childHeights.removeLast() + 1
    }
    let table = T.properties
    if reportedTables.insert(table.name).inserted {
      errors += table.problems.map { DefinitionError(.unknownProperty, at: spec.location, $0) }
    }
    // Rules writing one property (CSMapper parents) are alternatives: each layer holds one rule
    // per property, the layers are included in order, so a later one wins when present.
    var layers: [[any MappingRule<T>]] = [[]]
    var layerProperties: Set<String> = []
    for (owner, property) in applied(spec) {
      guard let entry = table.entry(named: property.name) else {
        errors.append(
          DefinitionError(
            .unknownProperty, at: property.location,
            "unknown property \"\(property.name)\" of \(table.name) (known: "
              + "\(table.propertyNames.sorted().joined(separator: ", ")))"))
        continue
      }
      do {
        let request = try self.request(for: property, in: owner, entry: entry, owner: table.name)
        let rule = try entry.build(request, self)
        if !layerProperties.insert(property.name).inserted {
          layers.append([])
          layerProperties = [property.name]
        }
        layers[layers.count - 1].append(rule)
      } catch {
        errors.append(error)
      }
    }
    let make = table.make
    let included: [any MappingRule<T>] = layers.dropLast().map { layer in
      Include(Mapping(make) { layer })
    }
    let rules = included + (layers.last ?? [])
    // Neither AppCoreKit nor CSMapper knew "unmappable representations": an object none of
    // whose keys a definition reads maps to a fresh object (with the errors of its required
    // properties), as it did there.
    var mapping = Mapping(make) { rules }.allowingUnmappableRepresentation()
    if spec.format == .csMapper {
      // CSMapper's groups are all-of (its README's Example 2): the file's semantics, for every
      // call that selects groups without saying how.
      mapping = mapping.groupMatching(.allOf)
    }
    do {
      try mapping.validate()
    } catch {
      errors += error.errors.map {
        DefinitionError(
          .invalidMapping, at: spec.location, "the mapping of \(name) for \(table.name): \($0)")
      }
    }
    built[key] = mapping
    (slots[key] as? MappingSlot<T>)?.fill(mapping)
    return mapping
  }

  /// The properties a definition applies, in order: its own, and for a CSMapper class file
  /// first those of its parents (``Linearization``).
  private func applied(_ spec: ObjectSpec) -> [(ObjectSpec, PropertySpec)] {
    guard spec.format == .csMapper else { return spec.properties.map { (spec, $0) } }
    let (items, reached) = Linearization.items(of: spec.name, in: specs)
    usedSpecs.formUnion(reached)
    return items.map { ($0.spec, $0.property) }
  }

  /// The request a property's entry turns into a rule.
  private func request<Object>(
    for property: PropertySpec, in spec: ObjectSpec, entry: Property<Object>, owner: String
  ) throws(DefinitionError) -> RuleRequest {
    var request = RuleRequest(
      ownerName: owner, propertyName: property.name, location: property.location,
      source: property.source)
    request.compoundSources = property.compoundSources
    request.compoundDefaults = property.compoundDefaults
    request.presence = property.presence
    request.defaultValue = property.defaultValue
    request.child = property.child
    request.policy = property.policy
    request.groups = property.groups
    // The file's own system decides what absence and null mean (DefinitionFiles.md): null is
    // absent in both, and absence is treated alike on new and existing objects.
    request.absence = _AbsenceTreatment(nullIsAbsent: true, appliesOntoExisting: true)
    if spec.format == .appCoreKit { request.defaultToManyPolicy = .append }
    if let transform = property.transform {
      request.transform = try transforms.resolve(
        className: transform.className, selector: transform.selector,
        userData: transform.userData, location: transform.location)
    }
    if let forced = property.forcedType {
      try applyForcedType(forced, to: &request, property: property, entry: entry, owner: owner)
    }
    return request
  }

  /// CSMapper's `type`: a class with its own file for a relationship, or a forced conversion
  /// checked against a value property's type.
  private func applyForcedType<Object>(
    _ forced: (name: String, location: DefinitionLocation), to request: inout RuleRequest,
    property: PropertySpec, entry: Property<Object>, owner: String
  ) throws(DefinitionError) {
    let isClass = types[forced.name] != nil || specs[forced.name] != nil
    switch entry.role {
    case .object(let element):
      let elementName = _tableName(of: element)
      guard forced.name == elementName else {
        guard isClass else {
          throw request.error(
            .unknownClass,
            "type \(forced.name) names no registered type and no class file; \"\(property.name)\" "
              + "of \(owner) holds \(elementName) objects", at: forced.location)
        }
        throw request.error(
          .typeMismatch,
          "type \(forced.name), but \"\(property.name)\" of \(owner) holds \(elementName) "
            + "objects", at: forced.location)
      }
      request.child = ChildReference(
        target: .named(forced.name), className: (forced.name, forced.location),
        location: forced.location)
    case .value, .transformedValue, .readOnly:
      guard let accepted = ForcedType.accepts(forced.name, entry.valueType) else {
        guard isClass else {
          throw request.error(
            .unknownClass,
            "type \(forced.name) names no known type (a Foundation type such as NSString, "
              + "NSNumber or NSDate, a registered type or a class file)", at: forced.location)
        }
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
      let candidates = contextsByClass[elementName] ?? []
      guard candidates.count == 1, let only = candidates.first else {
        throw DefinitionError(
          .unknownContext, at: location,
          candidates.isEmpty
            ? "no context has \"@class\": \"\(elementName)\"; give the property an @object with "
              + "@mappings, or define such a context"
            : "several contexts map \(elementName) ("
              + _chain(count: candidates.count, joinedBy: ", ") { candidates[$0] }
              + "); name one with @object/@mappings")
      }
      return only
    }
  }

  func childMapping<Child: DefinableModel>(for request: RuleRequest, _ type: Child.Type)
    throws(DefinitionError) -> ChildMapping<Child>
  {
    let elementName = Child.properties.name
    let reference = request.child
    if let className = reference?.className, className.name != elementName {
      guard types[className.name] != nil else {
        throw unknownClass(className.name, at: className.location)
      }
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
            + "defines", at: reference?.targetLocation ?? reference?.location)
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
          + "\(request.ownerName) holds \(elementName) objects",
        at: reference?.targetLocation ?? reference?.location)
    }
    let key = Self.key(name, Child.self)
    if let mapping = built[key] as? Mapping<Child> { return direct(mapping, key: key) }
    if building.contains(key) || depth >= Self.deferralDepth {
      // A cycle (a comment's replies), or a chain: resolved when first used, after the
      // catalog is built; a chain's next mapping is built from the top.
      let slot = self.slot(key, Child.self)
      if !building.contains(key), pendingKeys.insert(key).inserted {
        pending.append { [unowned self] in _ = self.build(name, as: Child.self) }
      }
      return .later { slot.mapping }
    }
    guard let mapping = build(name, as: Child.self) else {
      return .ready(Mapping(Child.properties.make) { [any MappingRule<Child>]() })
    }
    return direct(mapping, key: key)
  }

  /// The slot of the mapping `key`, made when first asked for.
  private func slot<Child>(_ key: String, _ type: Child.Type) -> MappingSlot<Child>
  where Child: DefinableModel {
    if let slot = slots[key] as? MappingSlot<Child> { return slot }
    let slot = MappingSlot { Mapping(Child.properties.make) { [any MappingRule<Child>]() } }
    slots[key] = slot
    return slot
  }

  /// `mapping` (built, under `key`) for a relationship of the build running: held directly,
  /// unless that would make more than ``maximumDirectHeight`` levels hold each other directly.
  private func direct<Child: DefinableModel>(_ mapping: Mapping<Child>, key: String)
    -> ChildMapping<Child>
  {
    let height = heights[key] ?? Self.maximumDirectHeight
    guard height < Self.maximumDirectHeight else {
      let slot = self.slot(key, Child.self)
      slot.fill(mapping)
      return .later { slot.mapping }
    }
    if let top = childHeights.indices.last { childHeights[top] = max(childHeights[top], height) }
    return .ready(mapping)
  }
}

/// The order in which a CSMapper class file applies its properties: its parents' first, in the
/// order `__parent__` lists them (each parent's own parents before it), then its own. A parent
/// reached twice (a diamond) is applied once, at its last place, which gives the same object:
/// its earlier application is overwritten by the later one wherever either writes.
///
/// Found in time linear in the files reached, without recursion: the expansion is walked
/// backwards (own properties, then the parents from the last), keeping each file's first
/// visit, which is its last place forwards.
enum Linearization {
  struct Item {
    var spec: ObjectSpec
    var property: PropertySpec
  }

  /// The properties `name` applies, in order, and the files reached (itself and its parents).
  static func items(of name: String, in specs: [String: ObjectSpec]) -> (
    items: [Item], reached: Set<String>
  ) {
    var visited: Set<String> = []
    var backwards: [Item] = []
    var stack = [name]
    while let current = stack.popLast() {
      guard visited.insert(current).inserted, let spec = specs[current] else { continue }
      for property in spec.properties.reversed() {
        backwards.append(Item(spec: spec, property: property))
      }
      // Pushed in order, so the last parent is walked first.
      for parent in spec.parents where !parent.isLeftOut { stack.append(parent.name) }
    }
    return (backwards.reversed(), visited)
  }
}
