import Foundation
import ObjectMapping

/// Reads AppCoreKit `.mappings` files into object definitions: `@import`s followed (relative
/// paths, the import policy, cycles reported once), `@inherits` templates cascaded (several, the
/// first listed wins, the object's own members win over all), selectors applied, and every
/// context's properties read.
///
/// Nothing here recurses per file or per template: imports and templates are walked with
/// explicit stacks, and each template is resolved once (memoized), so a chain of any length
/// and a diamond of any depth take time linear in the files. Recursion is only per level of
/// nesting inside one value, which the readers bound (``DefinitionValue/maximumDepth``).
struct AppCoreKitReader {
  let files: [DefinitionFile]
  let conditions: DefinitionConditions
  let imports: DefinitionImportPolicy

  private(set) var errors: [DefinitionError] = []
  /// The top-level entries of every file, in load order.
  private var entries: [(name: String, value: DefinitionValue)] = []
  private var entryIndex: [String: Int] = [:]
  /// The specs read, by name (contexts and inline definitions).
  private(set) var specs: [String: ObjectSpec] = [:]
  /// The contexts (and templates of properties), in file order.
  private(set) var contextNames: [String] = []
  /// The templates that hold attributes of one property (`@optional`, `@keyPath`, …): used
  /// through `@inherits` inside a property, never a context of their own.
  private(set) var attributeTemplates: Set<String> = []
  /// The files given to the catalog, by name (the first of each name).
  private var givenByName: [String: Int] = [:]
  /// The files being read, by identity: their place in the import stack.
  private var onStack: [String: Int] = [:]

  /// How many members the `@inherits` templates of a set of files may copy in all, each counted
  /// with the values it holds (``DefinitionValue/weight``): a file of a few hundred kilobytes
  /// can otherwise expand (each template adding members to a chain of others) to billions, and
  /// one large value (a transform's user data, a default) inherited by thousands of contexts
  /// is converted once per context.
  static let maximumExpansion = 1_000_000

  init(files: [DefinitionFile], conditions: DefinitionConditions, imports: DefinitionImportPolicy) {
    self.files = files
    self.conditions = conditions
    self.imports = imports
  }

  mutating func read() {
    loadFiles()
    let resolved = resolveEntries()
    for (name, _) in entries {
      guard let value = resolved[name] else { continue }
      readContext(name: name, value: value)
    }
  }

  // MARK: Files and imports

  /// A file being read, with the imports it has left to follow.
  private struct ImportFrame {
    var file: DefinitionFile
    var identity: String
    /// The folder imports must stay in (``DefinitionImportPolicy/insideFolder``).
    var root: URL?
    var members: [DefinitionValue.Member]
    var imports: [DefinitionValue]
    var next = 0
  }

  /// Reads the given files and everything they import, depth first, with an explicit stack:
  /// an imported file's contexts come before the importing file's.
  private mutating func loadFiles() {
    var loaded: Set<String> = []
    for (offset, file) in files.enumerated() where givenByName[file.name] == nil {
      givenByName[file.name] = offset
    }
    for file in files {
      var stack: [ImportFrame] = []
      open(file, root: file.folder, importedAt: nil, stack: &stack, loaded: &loaded)
      while let top = stack.indices.last {
        guard stack[top].next < stack[top].imports.count else {
          let frame = stack.removeLast()
          onStack[frame.identity] = nil
          addEntries(frame.members)
          continue
        }
        let path = stack[top].imports[stack[top].next]
        stack[top].next += 1
        guard
          let text = errors.string(
            in: path, "@import takes a file name or an array of them, not \(path.kindDescription)"),
          let target = resolveImport(
            text, at: path.location, from: stack[top].file, root: stack[top].root)
        else { continue }
        open(
          target.file, root: target.root, importedAt: path.location, stack: &stack, loaded: &loaded)
      }
    }
  }

  /// Reads `file` and pushes it, unless it is already being read further up (a cycle, reported
  /// here, once) or was read before.
  private mutating func open(
    _ file: DefinitionFile, root: URL?, importedAt location: DefinitionLocation?,
    stack: inout [ImportFrame], loaded: inout Set<String>
  ) {
    let identity = file.identity
    if let start = onStack[identity] {
      var chain = _chain(count: stack.count - start + 1, joinedBy: " imports ") {
        start + $0 < stack.count ? stack[start + $0].file.name : file.name
      }
      if file.name != stack[start].file.name { chain += ", which is \(stack[start].file.name)" }
      errors.append(DefinitionError(.importCycle, at: location, "@import cycle: \(chain)"))
      return
    }
    guard loaded.insert(identity).inserted else { return }
    let document: DefinitionValue
    do {
      document = try DefinitionValue.readJSON(
        try file.text(requestedAt: location), file: file.name)
    } catch {
      errors.append(error)
      return
    }
    guard let members = document.members else {
      errors.append(
        DefinitionError(
          .syntax, at: document.location,
          "a .mappings file is an object of contexts, not \(document.kindDescription)"))
      return
    }
    onStack[identity] = stack.count
    stack.append(
      ImportFrame(
        file: file, identity: identity, root: root, members: members,
        imports: members.filter { $0.key == "@import" }.flatMap(\.value.oneOrMany)))
  }

  /// The file an `@import` names, or `nil` with the error recorded.
  ///
  /// A name without an extension takes the importing file's (`"Templates"` beside
  /// `Root.mappings` is `Templates.mappings`). Under ``DefinitionImportPolicy/insideFolder``,
  /// `..` and absolute paths are errors, and a file found beside the importer must resolve
  /// (symbolic links included) inside `root`. Files given to the catalog are found by name
  /// first, then by their last path component.
  private mutating func resolveImport(
    _ text: String, at location: DefinitionLocation, from importer: DefinitionFile, root: URL?
  ) -> (file: DefinitionFile, root: URL?)? {
    var path = text
    let last = path.split(separator: "/").last.map(String.init) ?? path
    if !last.isEmpty, !last.contains("."), !importer.spelledExtension.isEmpty {
      path += "." + importer.spelledExtension
    }
    let isAbsolute =
      path.hasPrefix("/") || path.hasPrefix("~") || path.contains(":")
      || path.hasPrefix("\\")
    let escapes = path.split(separator: "/", omittingEmptySubsequences: false).contains("..")
    if !imports.allowsAnyPath, isAbsolute || escapes {
      let why =
        isAbsolute
        ? "is an absolute path" : "leads out of the folder with \"..\""
      errors.append(
        DefinitionError(
          .importOutsideFolder, at: location,
          "@import \"\(text)\" \(why); imports are relative paths that stay in the folder of "
            + "the file given to the catalog (pass imports: .anywhere to allow others)"))
      return nil
    }
    if isAbsolute {
      let expanded = (path as NSString).expandingTildeInPath
      let file = DefinitionFile.url(URL(fileURLWithPath: expanded))
      return (file, file.folder)
    }
    let lastName = path.split(separator: "/").last.map(String.init) ?? path
    if let offset = givenByName[path] ?? givenByName[lastName] {
      return (files[offset], files[offset].folder)
    }
    guard let sibling = importer.sibling(path), let url = sibling.url else {
      errors.append(
        DefinitionError(
          .missingFile, at: location,
          "cannot find the imported file \"\(path)\": give it to the catalog, or load the "
            + "importing file from a URL so that relative paths resolve"))
      return nil
    }
    if !imports.allowsAnyPath, let root {
      let resolved = url.resolvingSymlinksInPath().standardizedFileURL.path
      let folder = root.path.hasSuffix("/") ? root.path : root.path + "/"
      guard resolved.hasPrefix(folder) else {
        errors.append(
          DefinitionError(
            .importOutsideFolder, at: location,
            "@import \"\(text)\" resolves to \(resolved), outside the folder \(root.path) "
              + "(through a symbolic link); imports stay in the folder of the file given to "
              + "the catalog (pass imports: .anywhere to allow others)"))
        return nil
      }
    }
    return (sibling, root)
  }

  /// Adds a file's top-level members (its contexts and templates) to the entries.
  private mutating func addEntries(_ members: [DefinitionValue.Member]) {
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

  /// Every entry with its templates and selectors applied, each resolved once, templates before
  /// the entries that inherit them.
  private mutating func resolveEntries() -> [String: DefinitionValue] {
    let (order, backEdges) = inheritanceOrder()
    var cascade = Cascade(
      conditions: conditions, backEdges: backEdges, budget: Self.maximumExpansion)
    for name in order {
      guard let index = entryIndex[name] else { continue }
      let value = entries[index].value
      cascade.resolved[name] = cascade.resolve(value, errors: &errors)
      if cascade.isExhausted {
        errors.append(
          DefinitionError(
            .tooLarge, at: value.location,
            "the @inherits templates expand to more than "
              + "\(Self.maximumExpansion.formatted) inherited entries (values inside them "
              + "counted) by \"\(name)\"; a set of files this large is refused"))
        return [:]
      }
    }
    return cascade.resolved
  }

  /// The entries in an order where each template comes before the entries that inherit it
  /// (depth first, with an explicit stack), and the `@inherits` references that close a cycle:
  /// each cycle is reported once, at the reference that closes it, and that reference is left
  /// out.
  private mutating func inheritanceOrder() -> (order: [String], backEdges: Set<DefinitionLocation>)
  {
    var done: Set<String> = []
    var onStack: [String: Int] = [:]
    var order: [String] = []
    var backEdges: Set<DefinitionLocation> = []
    for (start, _) in entries where !done.contains(start) {
      var stack: [(name: String, references: [DefinitionValue], next: Int)] = []
      func push(_ name: String) {
        onStack[name] = stack.count
        var references: [DefinitionValue] = []
        if let index = entryIndex[name] {
          Cascade.collectReferences(
            in: entries[index].value, conditions: conditions, into: &references)
        }
        stack.append((name, references, 0))
      }
      push(start)
      while let top = stack.indices.last {
        guard stack[top].next < stack[top].references.count else {
          let name = stack.removeLast().name
          onStack[name] = nil
          done.insert(name)
          order.append(name)
          continue
        }
        let reference = stack[top].references[stack[top].next]
        stack[top].next += 1
        guard let target = reference.string, entryIndex[target] != nil, !done.contains(target)
        else { continue }
        if let position = onStack[target] {
          let chain = _chain(count: stack.count - position + 1, joinedBy: " inherits ") {
            position + $0 < stack.count ? stack[position + $0].name : target
          }
          errors.append(
            DefinitionError(
              .inheritanceCycle, at: reference.location, "@inherits cycle: \(chain)"))
          backEdges.insert(reference.location)
          continue
        }
        push(target)
      }
    }
    return (order, backEdges)
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
    let attributes = members.filter { AppCoreKitKeyword.propertyAttributes.contains($0.key) }
    if !attributes.isEmpty, !members.contains(where: { $0.key == "@class" }) {
      // A template of one property's attributes, for `@inherits` inside properties.
      if let property = members.first(where: { !$0.key.hasPrefix("@") }) {
        errors.append(
          DefinitionError(
            .invalidValue, at: property.keyLocation,
            "\"\(name)\" holds property attributes (\(attributes[0].key)) and a property "
              + "(\"\(property.key)\"): a template holds the attributes of one property, or the "
              + "properties of a context, not both"))
      }
      attributeTemplates.insert(name)
      return
    }
    if let inline = specs[name] {
      errors.append(Self.nameClash(name, inline: inline.location, context: value.location))
      return
    }
    contextNames.append(name)
    specs[name] = readObject(name: name, members: members, location: value.location)
  }

  /// A context whose name is the name of an inline `@mappings` (`"$A.replies"` beside `$A`'s
  /// `replies`), reported at the context.
  private static func nameClash(
    _ name: String, inline: DefinitionLocation, context: DefinitionLocation
  ) -> DefinitionError {
    DefinitionError(
      .invalidMapping, at: context,
      "the context \"\(name)\" has the name of the inline @mappings of \(inline): rename the "
        + "context")
  }

  private mutating func readObject(
    name: String, members: [DefinitionValue.Member], location: DefinitionLocation
  ) -> ObjectSpec {
    var spec = ObjectSpec(name: name, location: location, format: .appCoreKit)
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
    -> PropertySpec?
  {
    var property = PropertySpec(
      name: member.key, location: member.keyLocation, source: SourcePath(member.key),
      presence: .required)
    if let keyPath = member.value.string {
      property.source = _sourcePath(keyPath)
      property.keyPath = keyPath
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
    /// The `@object` is reported wrong: the property is left out, so that no second error
    /// (a context looked up by class) follows from the first.
    var objectIsInvalid = false
    for attribute in attributes {
      let value = attribute.value
      switch attribute.key {
      case "@keyPath":
        guard let text = errors.string(in: value, "@keyPath takes a key path") else { continue }
        property.source = _sourcePath(text)
        property.keyPath = text
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
        objectIsInvalid = property.child == nil
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
              + "@object, @clearContent, @insertContentAtBegin, @inherits)"))
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
    return objectIsInvalid ? nil : property
  }

  private mutating func readChild(_ value: DefinitionValue, owner: String, property: String)
    -> ChildReference?
  {
    guard let members = value.members else {
      errors.append(
        DefinitionError(
          .invalidValue, at: value.location,
          "@object takes an object with @class and @mappings, not \(value.kindDescription)"))
      return nil
    }
    var reference = ChildReference(target: .classOnly, location: value.location)
    var isValid = true
    for member in members {
      switch member.key {
      case "@class":
        guard let name = errors.string(in: member.value, "@class takes a class name") else {
          isValid = false
          continue
        }
        reference.className = (name, member.value.location)
      case "@mappings":
        reference.targetLocation = member.value.location
        if let name = member.value.string {
          reference.target = .named(name)
        } else if let inner = member.value.members {
          let inlineName = "\(owner).\(property)"
          if let other = specs[inlineName] {
            // A context named like the inline mapping (`"$A.replies"` beside `$A`'s inline
            // `replies`): one would silently replace the other.
            errors.append(
              Self.nameClash(inlineName, inline: member.value.location, context: other.location))
            isValid = false
            continue
          }
          var spec = readObject(name: inlineName, members: inner, location: member.value.location)
          if spec.className == nil { spec.className = reference.className }
          spec.isInline = true
          specs[inlineName] = spec
          reference.target = .inline(inlineName)
        } else {
          errors.append(
            DefinitionError(
              .invalidValue, at: member.value.location,
              "@mappings takes a context name or an object of mappings, not "
                + member.value.kindDescription))
          isValid = false
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
    return isValid ? reference : nil
  }
}

/// The cascading of `.mappings` values (AppCoreKit's `CKCascadingTree`): `@inherits` templates
/// set an entry only where the key is not yet present, in the order they are listed (the first
/// one wins), and an object's own entries win over all of them; objects held under one key by
/// both are cascaded member by member the same way. Selectors that hold are applied last, over
/// everything (a later one over an earlier one).
struct Cascade {
  let conditions: DefinitionConditions
  /// The `@inherits` references that close a cycle (reported already): left out.
  let backEdges: Set<DefinitionLocation>
  /// How many more members merging may copy.
  private var budget: Int
  /// The entries resolved so far, by name.
  var resolved: [String: DefinitionValue] = [:]

  init(conditions: DefinitionConditions, backEdges: Set<DefinitionLocation>, budget: Int) {
    self.conditions = conditions
    self.backEdges = backEdges
    self.budget = budget
  }

  /// The expansion budget is spent: resolving stopped.
  var isExhausted: Bool { budget < 0 }

  /// The keys whose values are data (a default, a transform's user data), never cascaded.
  private static let dataKeys: Set<String> = ["@defaultValue", "@transformUserData"]

  /// The `@inherits` references in `value` and the values nested in it (selectors that do not
  /// hold, and data, left out), in order.
  static func collectReferences(
    in value: DefinitionValue, conditions: DefinitionConditions,
    into references: inout [DefinitionValue]
  ) {
    guard let members = value.members else { return }
    for member in members {
      if member.key == "@inherits" {
        references += member.value.oneOrMany
      } else if dataKeys.contains(member.key) {
        continue
      } else if member.key.hasPrefix("@"), !AppCoreKitKeyword.all.contains(member.key),
        conditions.holds(member.key) != true
      {
        continue
      } else {
        collectReferences(in: member.value, conditions: conditions, into: &references)
      }
    }
  }

  /// `value` with its `@inherits` and selectors applied (and those of the objects nested in
  /// it); templates are looked up in ``resolved``.
  mutating func resolve(_ value: DefinitionValue, errors: inout [DefinitionError])
    -> DefinitionValue
  {
    guard let members = value.members, !isExhausted else { return value }
    var own: [DefinitionValue.Member] = []
    var templates: [[DefinitionValue.Member]] = []
    var selected: [DefinitionValue.Member] = []
    for member in members {
      if member.key == "@inherits" {
        for reference in member.value.oneOrMany {
          guard
            let name = errors.string(
              in: reference,
              "@inherits takes a template name or an array of them, not "
                + reference.kindDescription)
          else { continue }
          if backEdges.contains(reference.location) { continue }
          guard let template = resolved[name] else {
            errors.append(
              DefinitionError(
                .unknownContext, at: reference.location,
                "@inherits names \"\(name)\", which no loaded file defines"))
            continue
          }
          guard let templateMembers = template.members else {
            errors.append(
              DefinitionError(
                .invalidValue, at: reference.location,
                "@inherits names \"\(name)\", which is \(template.kindDescription), not an object"
              ))
            continue
          }
          templates.append(templateMembers)
        }
        continue
      }
      if Self.dataKeys.contains(member.key) {
        own.append(member)
        continue
      }
      if member.key.hasPrefix("@"), !AppCoreKitKeyword.all.contains(member.key) {
        guard let holds = conditions.holds(member.key) else {
          errors.append(
            DefinitionError(
              .unknownKeyword, at: member.keyLocation,
              "unknown keyword \"\(member.key)\" (keywords: "
                + "\(AppCoreKitKeyword.all.sorted().joined(separator: ", ")); selectors: "
                + "@ipad, @iphone, @iphone5, @ios <op> <version> and the app's own)"))
          continue
        }
        guard holds else { continue }
        guard member.value.members != nil else {
          errors.append(
            DefinitionError(
              .invalidValue, at: member.value.location,
              "the selector \(member.key) holds an object of members, not \(member.value.kindDescription)"
            ))
          continue
        }
        let inner = resolve(member.value, errors: &errors)
        selected = overlay(inner.members ?? [], over: selected)
        continue
      }
      own.append(
        DefinitionValue.Member(
          key: member.key, keyLocation: member.keyLocation,
          value: resolve(member.value, errors: &errors)))
    }
    var result = templates.isEmpty ? own : cascade(own: own, under: templates)
    if !selected.isEmpty { result = overlay(selected, over: result) }
    return DefinitionValue(kind: .object(result), location: value.location)
  }

  /// `own` with `templates` under it: a key takes the value of the first of `own`, `templates[0]`,
  /// `templates[1]`, … that has it (objects under one key are cascaded member by member), in
  /// the order the keys first appear in the templates, then in `own`.
  private mutating func cascade(
    own: [DefinitionValue.Member], under templates: [[DefinitionValue.Member]]
  ) -> [DefinitionValue.Member] {
    var keys: [String] = []
    var candidates: [String: [DefinitionValue.Member]] = [:]
    for layer in templates + [own] {
      budget -= layer.reduce(0) { $0 &+ $1.value.weight }
      for member in layer where candidates[member.key] == nil {
        keys.append(member.key)
        candidates[member.key] = []
      }
    }
    guard !isExhausted else { return own }
    // Precedence: own first, then the templates in the order listed.
    for layer in [own] + templates {
      for member in layer { candidates[member.key]?.append(member) }
    }
    return keys.compactMap { key -> DefinitionValue.Member? in
      guard let layers = candidates[key], let winner = layers.first else { return nil }
      guard let winnerMembers = winner.value.members else { return winner }
      let below = layers.dropFirst().compactMap(\.value.members)
      guard !below.isEmpty else { return winner }
      return DefinitionValue.Member(
        key: winner.key, keyLocation: winner.keyLocation,
        value: DefinitionValue(
          kind: .object(cascade(own: winnerMembers, under: Array(below))),
          location: winner.value.location))
    }
  }

  /// `top` over `base`: a member of `top` replaces the one of `base` with its key (objects are
  /// overlaid member by member), new ones are added in order.
  private mutating func overlay(
    _ top: [DefinitionValue.Member], over base: [DefinitionValue.Member]
  ) -> [DefinitionValue.Member] {
    budget -= top.reduce(0) { $0 &+ $1.value.weight } &+ base.reduce(0) { $0 &+ $1.value.weight }
    guard !isExhausted else { return base }
    var result = base
    var index: [String: Int] = [:]
    for (offset, member) in result.enumerated() where index[member.key] == nil {
      index[member.key] = offset
    }
    for member in top {
      if let position = index[member.key] {
        if let baseMembers = result[position].value.members, let topMembers = member.value.members {
          result[position] = DefinitionValue.Member(
            key: member.key, keyLocation: member.keyLocation,
            value: DefinitionValue(
              kind: .object(overlay(topMembers, over: baseMembers)),
              location: member.value.location))
        } else {
          result[position] = member
        }
      } else {
        index[member.key] = result.count
        result.append(member)
      }
    }
    return result
  }
}

/// The keywords of `.mappings` files that are not selectors.
enum AppCoreKitKeyword {
  static let all: Set<String> = [
    "@class", "@import", "@inherits", "@keyPath", "@optional", "@defaultValue",
    "@transformClass", "@transformSelector", "@transform", "@transformUserData", "@object",
    "@mappings", "@clearContent", "@insertContentAtBegin",
  ]

  /// The attributes of one property: a top-level entry holding them (without `@class`) is a
  /// template for properties.
  static let propertyAttributes: Set<String> = [
    "@keyPath", "@optional", "@defaultValue", "@transformClass", "@transformSelector",
    "@transform", "@transformUserData", "@object", "@clearContent", "@insertContentAtBegin",
  ]
}

/// The `count` names `name(0)`, `name(1)`, … joined by `separator`, shortened to the first and
/// last five for a long chain (so that reporting a cycle costs no more than a constant).
func _chain(count: Int, joinedBy separator: String, _ name: (Int) -> String) -> String {
  guard count > 12 else { return (0..<count).map(name).joined(separator: separator) }
  return ((0..<5).map(name) + ["… (\(count - 10) more)"] + (count - 5..<count).map(name))
    .joined(separator: separator)
}

extension Int {
  /// `1,000,000`: how messages write large counts.
  var formatted: String {
    let digits = Array(String(self))
    var text = ""
    for (offset, digit) in digits.enumerated() {
      if offset > 0, (digits.count - offset) % 3 == 0 { text.append(",") }
      text.append(digit)
    }
    return text
  }
}
