import ObjectMapping

/// Reads AppCoreKit `.mappings` files into object definitions: `@import`s followed (relative
/// paths, cycles reported), `@inherits` templates merged (several, in order; the object's own
/// members win), selectors applied, and every context's properties read.
struct _AppCoreKitReader {
  let files: [DefinitionFile]
  let conditions: DefinitionConditions

  private(set) var errors: [DefinitionError] = []
  /// The top-level entries of every file, in load order.
  private var entries: [(name: String, value: DefinitionValue)] = []
  private var entryIndex: [String: Int] = [:]
  private var loaded: Set<String> = []
  /// The specs read, by name (contexts and inline definitions).
  private(set) var specs: [String: _ObjectSpec] = [:]
  /// The contexts, in file order.
  private(set) var contextNames: [String] = []

  init(files: [DefinitionFile], conditions: DefinitionConditions) {
    self.files = files
    self.conditions = conditions
  }

  mutating func read() {
    for file in files { load(file, importedAt: nil, stack: []) }
    var resolved: [String: DefinitionValue] = [:]
    for (name, _) in entries {
      var visiting: [String] = []
      if let value = resolveEntry(name, visiting: &visiting) { resolved[name] = value }
    }
    for (name, _) in entries {
      guard let value = resolved[name] else { continue }
      contextNames.append(name)
      readContext(name: name, value: value)
    }
  }

  // MARK: Files and imports

  private func find(_ path: String, from importer: DefinitionFile) -> DefinitionFile? {
    let last = path.split(separator: "/").last.map(String.init) ?? path
    if let given = files.first(where: { $0.name == path })
      ?? files.first(where: { $0.name == last })
    {
      return given
    }
    return importer.sibling(path)
  }

  private mutating func load(
    _ file: DefinitionFile, importedAt location: DefinitionLocation?, stack: [String]
  ) {
    let identity = file.identity
    if let cycleStart = stack.firstIndex(of: identity) {
      let chain = (stack[cycleStart...] + [identity]).map { $0.split(separator: "/").last ?? "" }
      errors.append(
        DefinitionError(
          .importCycle, at: location,
          "@import cycle: \(chain.joined(separator: " imports "))"))
      return
    }
    guard !loaded.contains(identity) else { return }
    loaded.insert(identity)
    let root: DefinitionValue
    do {
      root = try DefinitionJSONReader.read(try file.text(requestedAt: location), file: file.name)
    } catch {
      errors.append(error)
      return
    }
    guard let members = root.members else {
      errors.append(
        DefinitionError(
          .syntax, at: root.location,
          "a .mappings file is an object of contexts, not \(root.kindDescription)"))
      return
    }
    for member in members where member.key == "@import" {
      for path in member.value.oneOrMany {
        guard
          let text = errors.string(
            in: path, "@import takes a file name or an array of them, not \(path.kindDescription)")
        else { continue }
        guard let imported = find(text, from: file) else {
          errors.append(
            DefinitionError(
              .missingFile, at: path.location,
              "cannot find the imported file \"\(text)\": give it to the catalog, or load "
                + "the importing file from a URL so that relative paths resolve"))
          continue
        }
        load(imported, importedAt: path.location, stack: stack + [identity])
      }
    }
    for member in members where member.key != "@import" {
      if member.key.hasPrefix("@") {
        errors.append(
          DefinitionError(
            .unknownKeyword, at: member.keyLocation,
            "unknown top-level keyword \"\(member.key)\" (a .mappings file holds contexts and @import)"
          ))
        continue
      }
      if let earlier = entryIndex[member.key] {
        let first = entries[earlier].value.location
        errors.append(
          DefinitionError(
            .invalidValue, at: member.keyLocation,
            "the context \"\(member.key)\" is defined twice (first at \(first))"))
        continue
      }
      entryIndex[member.key] = entries.count
      entries.append((member.key, member.value))
    }
  }

  // MARK: Cascading: @inherits and selectors

  /// A top-level entry with its templates and selectors applied.
  private mutating func resolveEntry(_ name: String, visiting: inout [String]) -> DefinitionValue? {
    guard let index = entryIndex[name] else { return nil }
    if visiting.contains(name) { return nil }
    visiting.append(name)
    defer { visiting.removeLast() }
    return resolve(entries[index].value, visiting: &visiting)
  }

  private mutating func resolve(_ value: DefinitionValue, visiting: inout [String])
    -> DefinitionValue
  {
    guard let members = value.members else { return value }
    var result: [DefinitionValue.Member] = []
    // Templates first, in order: each later one over the earlier.
    for member in members where member.key == "@inherits" {
      let names = member.value.oneOrMany
      for nameValue in names {
        guard
          let templateName = errors.string(
            in: nameValue,
            "@inherits takes a template name or an array of them, not \(nameValue.kindDescription)")
        else { continue }
        if visiting.contains(templateName) {
          errors.append(
            DefinitionError(
              .invalidValue, at: nameValue.location,
              "@inherits cycle: \((visiting + [templateName]).joined(separator: " inherits "))"))
          continue
        }
        guard let template = resolveEntry(templateName, visiting: &visiting) else {
          errors.append(
            DefinitionError(
              .unknownContext, at: nameValue.location,
              "@inherits names \"\(templateName)\", which no loaded file defines"))
          continue
        }
        result = Self.merge(template.members ?? [], over: result)
      }
    }
    // The object's own members, then the selectors that hold, over them.
    var own: [DefinitionValue.Member] = []
    var selected: [DefinitionValue.Member] = []
    for member in members where member.key != "@inherits" {
      if member.key.hasPrefix("@"), !_AppCoreKitKeyword.all.contains(member.key) {
        guard let holds = conditions.holds(member.key) else {
          errors.append(
            DefinitionError(
              .unknownKeyword, at: member.keyLocation,
              "unknown keyword \"\(member.key)\" (keywords: "
                + "\(_AppCoreKitKeyword.all.sorted().joined(separator: ", ")); selectors: "
                + "@ipad, @iphone, @iphone5, @ios <op> <version> and the app's own)"))
          continue
        }
        guard holds else { continue }
        guard let inner = member.value.members else {
          errors.append(
            DefinitionError(
              .invalidValue, at: member.value.location,
              "the selector \(member.key) holds an object of members, not \(member.value.kindDescription)"
            ))
          continue
        }
        let resolvedInner = resolve(
          DefinitionValue(kind: .object(inner), location: member.value.location),
          visiting: &visiting)
        selected = Self.merge(resolvedInner.members ?? [], over: selected)
        continue
      }
      own.append(
        DefinitionValue.Member(
          key: member.key, keyLocation: member.keyLocation,
          value: resolve(member.value, visiting: &visiting)))
    }
    result = Self.merge(own, over: result)
    result = Self.merge(selected, over: result)
    return DefinitionValue(kind: .object(result), location: value.location)
  }

  /// `top` over `base`: a member of `top` replaces the one of `base` with its key (objects are
  /// merged member by member), new ones are added in order.
  private static func merge(_ top: [DefinitionValue.Member], over base: [DefinitionValue.Member])
    -> [DefinitionValue.Member]
  {
    var result = base
    for member in top {
      if let index = result.firstIndex(where: { $0.key == member.key }) {
        if let baseMembers = result[index].value.members, let topMembers = member.value.members {
          result[index] = DefinitionValue.Member(
            key: member.key, keyLocation: member.keyLocation,
            value: DefinitionValue(
              kind: .object(merge(topMembers, over: baseMembers)), location: member.value.location))
        } else {
          result[index] = member
        }
      } else {
        result.append(member)
      }
    }
    return result
  }

  // MARK: Contexts

  private mutating func readContext(name: String, value: DefinitionValue) {
    guard let members = value.members else {
      errors.append(
        DefinitionError(
          .invalidValue, at: value.location,
          "the context \"\(name)\" must be an object, not \(value.kindDescription)"))
      return
    }
    specs[name] = readObject(name: name, members: members, location: value.location)
  }

  private mutating func readObject(
    name: String, members: [DefinitionValue.Member], location: DefinitionLocation
  ) -> _ObjectSpec {
    var spec = _ObjectSpec(name: name, location: location, format: .appCoreKit)
    for member in members {
      switch member.key {
      case "@class":
        guard let className = errors.string(in: member.value, "@class takes a class name") else {
          continue
        }
        spec.className = (className, member.value.location)
      case _ where member.key.hasPrefix("@"):
        errors.append(
          DefinitionError(
            .unknownKeyword, at: member.keyLocation,
            "\(member.key) does not apply to a context (its members are @class, @inherits, "
              + "selectors and properties)"))
      default:
        if let property = readProperty(member, owner: name) { spec.properties.append(property) }
      }
    }
    return spec
  }

  private mutating func readProperty(_ member: DefinitionValue.Member, owner: String)
    -> _PropertySpec?
  {
    var property = _PropertySpec(
      name: member.key, location: member.keyLocation, source: SourcePath(member.key),
      presence: .required)
    if let keyPath = member.value.string {
      property.source = _sourcePath(keyPath)
      return property
    }
    guard let attributes = member.value.members else {
      errors.append(
        DefinitionError(
          .invalidValue, at: member.value.location,
          "\"\(member.key)\" takes a key path or an object of attributes, not "
            + member.value.kindDescription))
      return nil
    }
    var transformClass: String?
    var selector: (String, DefinitionLocation)?
    var userData: DefinitionValue?
    var clearContent = false
    var insertAtBegin = false
    var policyLocation: DefinitionLocation?
    for attribute in attributes {
      let value = attribute.value
      switch attribute.key {
      case "@keyPath":
        guard let text = errors.string(in: value, "@keyPath takes a key path") else { continue }
        property.source = _sourcePath(text)
      case "@optional":
        guard let flag = value.flag else {
          errors.append(
            DefinitionError(
              .invalidValue, at: value.location, "@optional takes 1, 0, true or false"))
          continue
        }
        property.presence = flag ? .optional : .required
      case "@defaultValue":
        property.defaultValue = value
      case "@transformClass":
        transformClass = value.string
        if transformClass == nil {
          errors.append(
            DefinitionError(.invalidValue, at: value.location, "@transformClass takes a class name")
          )
        }
      case "@transformSelector", "@transform":
        guard let text = errors.string(in: value, "\(attribute.key) takes a name") else { continue }
        selector = (text, value.location)
      case "@transformUserData":
        userData = value
      case "@object":
        property.child = readChild(value, owner: owner, property: member.key)
      case "@clearContent", "@insertContentAtBegin":
        guard let flag = value.flag else {
          errors.append(
            DefinitionError(
              .invalidValue, at: value.location, "\(attribute.key) takes 1, 0, true or false"))
          continue
        }
        if attribute.key == "@clearContent" { clearContent = flag } else { insertAtBegin = flag }
        policyLocation = attribute.keyLocation
      default:
        errors.append(
          DefinitionError(
            .unknownKeyword, at: attribute.keyLocation,
            "unknown property keyword \"\(attribute.key)\" (known: @keyPath, @optional, "
              + "@defaultValue, @transformClass, @transformSelector, @transformUserData, "
              + "@object, @clearContent, @insertContentAtBegin)"))
      }
    }
    if property.defaultValue != nil, property.presence == .required {
      // A default fills an absent value: AppCoreKit never reports it missing.
      property.presence = .inferred
    }
    if let (text, location) = selector {
      property.transform = (transformClass, text, userData, location)
    } else if let userData {
      errors.append(
        DefinitionError(
          .invalidValue, at: userData.location, "@transformUserData needs a @transformSelector"))
    } else if transformClass != nil {
      errors.append(
        DefinitionError(
          .invalidValue, at: member.keyLocation, "@transformClass needs a @transformSelector"))
    }
    if let policyLocation {
      // Clearing first makes the insertion point moot (AppCoreKit's guide says the same).
      let policy: CollectionPolicy? =
        clearContent ? .clearThenAppend : insertAtBegin ? .prepend : nil
      if let policy { property.policy = (policy, policyLocation) }
    }
    return property
  }

  private mutating func readChild(_ value: DefinitionValue, owner: String, property: String)
    -> _ChildReference?
  {
    guard let members = value.members else {
      errors.append(
        DefinitionError(
          .invalidValue, at: value.location,
          "@object takes an object with @class and @mappings, not \(value.kindDescription)"))
      return nil
    }
    var reference = _ChildReference(target: .classOnly, location: value.location)
    for member in members {
      switch member.key {
      case "@class":
        guard let name = errors.string(in: member.value, "@class takes a class name") else {
          continue
        }
        reference.className = (name, member.value.location)
      case "@mappings":
        if let name = member.value.string {
          reference.target = .named(name)
        } else if let inner = member.value.members {
          let inlineName = "\(owner).\(property)"
          var spec = readObject(name: inlineName, members: inner, location: member.value.location)
          if spec.className == nil { spec.className = reference.className }
          specs[inlineName] = spec
          reference.target = .inline(inlineName)
        } else {
          errors.append(
            DefinitionError(
              .invalidValue, at: member.value.location,
              "@mappings takes a context name or an object of mappings"))
        }
      default:
        errors.append(
          DefinitionError(
            .unknownKeyword, at: member.keyLocation,
            "unknown @object keyword \"\(member.key)\" (known: @class, @mappings)"))
      }
    }
    if case .inline(let name) = reference.target, specs[name]?.className == nil {
      specs[name]?.className = reference.className
    }
    return reference
  }
}

/// The keywords of `.mappings` files that are not selectors.
enum _AppCoreKitKeyword {
  static let all: Set<String> = [
    "@class", "@import", "@inherits", "@keyPath", "@optional", "@defaultValue",
    "@transformClass", "@transformSelector", "@transform", "@transformUserData", "@object",
    "@mappings", "@clearContent", "@insertContentAtBegin",
  ]
}
