import ObjectMapping

/// Reads CSMapper class files (XML property lists or JSON, one per class, named after it) into
/// object definitions.
///
/// Per property: `key` (a key path, or an array of `{"key": …}` for a multi-value mapper),
/// `default`, `type` (a forced conversion such as `NSString`, or a class with its own file),
/// `mapper`, `groups`; at the top, `__parent__` (a file name or an ordered array of them).
/// A property given as a plain string is read as its `key` (a shorthand CSMapper lacks).
struct CSMapperReader {
  let files: [DefinitionFile]
  private(set) var errors: [DefinitionError] = []
  private(set) var specs: [String: ObjectSpec] = [:]
  private(set) var names: [String] = []

  init(files: [DefinitionFile]) {
    self.files = files
  }

  mutating func read() {
    var seen: [String: DefinitionLocation] = [:]
    for file in files {
      let root: DefinitionValue
      do {
        let text = try file.text(requestedAt: nil)
        root =
          file.pathExtension == "plist"
          ? try PropertyListReader.read(text, file: file.name)
          : try DefinitionValue.readJSON(text, file: file.name)
      } catch {
        errors.append(error)
        continue
      }
      let name = file.baseName
      if let first = seen[name] {
        errors.append(
          DefinitionError(
            .invalidValue, at: root.location,
            "a second file for the class \(name) (the first is \(first.file))"))
        continue
      }
      seen[name] = root.location
      guard let members = root.members else {
        errors.append(
          DefinitionError(
            .syntax, at: root.location,
            "a CSMapper file is a dictionary of properties, not \(root.kindDescription)"))
        continue
      }
      names.append(name)
      specs[name] = readClass(name: name, members: members, location: root.location)
    }
    checkParents()
  }

  /// Reports every `__parent__` naming no file, and every cycle once (at the `__parent__` entry
  /// that closes it, which is then left out), walking all files depth first with an explicit
  /// stack: a chain of any length costs no call stack, and each file is visited once.
  private mutating func checkParents() {
    var done: Set<String> = []
    var onStack: [String: Int] = [:]
    for start in names where !done.contains(start) {
      var stack: [(name: String, next: Int)] = [(start, 0)]
      onStack[start] = 0
      while let top = stack.indices.last {
        let name = stack[top].name
        let parents = specs[name]?.parents ?? []
        guard stack[top].next < parents.count else {
          stack.removeLast()
          onStack[name] = nil
          done.insert(name)
          continue
        }
        let offset = stack[top].next
        stack[top].next += 1
        let parent = parents[offset]
        guard specs[parent.name] != nil else {
          errors.append(
            DefinitionError(
              .unknownContext, at: parent.location,
              "__parent__ names \(parent.name), which has no file (\(parent.name).plist or "
                + "\(parent.name).json)"))
          specs[name]?.parents[offset].isLeftOut = true
          continue
        }
        if let position = onStack[parent.name] {
          let chain = _chain(count: stack.count - position + 1, joinedBy: " inherits from ") {
            position + $0 < stack.count ? stack[position + $0].name : parent.name
          }
          errors.append(
            DefinitionError(
              .inheritanceCycle, at: parent.location, "__parent__ cycle: \(chain)"))
          specs[name]?.parents[offset].isLeftOut = true
          continue
        }
        guard !done.contains(parent.name) else { continue }
        onStack[parent.name] = stack.count
        stack.append((parent.name, 0))
      }
    }
  }

  private mutating func readClass(
    name: String, members: [DefinitionValue.Member], location: DefinitionLocation
  ) -> ObjectSpec {
    var spec = ObjectSpec(name: name, location: location, format: .csMapper)
    spec.className = (name, location)
    for member in members {
      if member.key == "__parent__" {
        let values = member.value.oneOrMany
        for value in values {
          guard
            let parent = errors.string(
              in: value,
              "__parent__ takes a class name or an array of them, not \(value.kindDescription)")
          else { continue }
          spec.parents.append(ParentReference(name: parent, location: value.location))
        }
        continue
      }
      if let property = readProperty(member) { spec.properties.append(property) }
    }
    return spec
  }

  private mutating func readProperty(_ member: DefinitionValue.Member) -> PropertySpec? {
    // CSMapper never reports an absent value: the property keeps what it has.
    var property = PropertySpec(
      name: member.key, location: member.keyLocation, source: SourcePath(member.key),
      presence: .optional)
    if let key = member.value.string {
      property.source = _sourcePath(key)
      property.keyPath = key
      return property
    }
    guard let attributes = member.value.members else {
      errors.append(
        DefinitionError(
          .invalidValue, at: member.value.location,
          "\"\(member.key)\" takes a dictionary (key, default, type, mapper, groups), not "
            + member.value.kindDescription))
      return nil
    }
    var mapper: (String, DefinitionLocation)?
    var mapperData: DefinitionValue?
    for attribute in attributes {
      let value = attribute.value
      switch attribute.key {
      case "key":
        if let text = value.string {
          property.source = _sourcePath(text)
          property.keyPath = text
        } else if case .array(let elements) = value.kind {
          var keys: [String] = []
          var defaults: [DefinitionValue?] = []
          for element in elements {
            if let text = element.string
              ?? element.members?.first(where: { $0.key == "key" })?
              .value.string
            {
              keys.append(text)
              defaults.append(element.members?.first(where: { $0.key == "default" })?.value)
            } else {
              errors.append(
                DefinitionError(
                  .invalidValue, at: element.location,
                  "each entry of a multi-value key is {\"key\": …} or a key path"))
            }
          }
          property.compoundSources = keys
          property.compoundDefaults = defaults
        } else {
          errors.append(
            DefinitionError(
              .invalidValue, at: value.location,
              "key takes a key path or an array of {\"key\": …}, not \(value.kindDescription)"))
        }
      case "default":
        property.defaultValue = value
      case "type":
        guard let text = errors.string(in: value, "type takes a type name") else { continue }
        property.forcedType = (text, value.location)
      case "mapper":
        guard let text = errors.string(in: value, "mapper takes a name") else { continue }
        mapper = (text, value.location)
      case "mapperData":
        mapperData = value
      case "groups":
        // "When a mapping contains a property called "groups", of type array": an empty array
        // is no groups (the property always applies).
        guard case .array(let elements) = value.kind else {
          errors.append(
            DefinitionError(
              .invalidValue, at: value.location,
              "groups takes an array of group names, not \(value.kindDescription)"))
          continue
        }
        for group in elements {
          guard
            let text = errors.string(
              in: group,
              "groups takes an array of group names; this entry is \(group.kindDescription)")
          else { continue }
          property.groups.append(text)
        }
      default:
        errors.append(
          DefinitionError(
            .unknownKeyword, at: attribute.keyLocation,
            "unknown CSMapper key \"\(attribute.key)\" (known: key, default, type, mapper, "
              + "mapperData, groups)"))
      }
    }
    if let (name, location) = mapper {
      property.transform = (nil, name, mapperData, location)
    } else if let mapperData {
      errors.append(
        DefinitionError(.invalidValue, at: mapperData.location, "mapperData needs a mapper"))
    }
    return property
  }
}

/// The Foundation and Swift names CSMapper's `type` may force a value to, and the Swift types
/// each one accepts.
enum ForcedType {
  static func accepts(_ name: String, _ type: Any.Type) -> Bool? {
    let swiftName = String(describing: type)
    let numbers: Set<String> = [
      "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
      "Double", "Float", "Bool", "Decimal",
    ]
    switch name {
    case "NSString", "NSMutableString", "String": return swiftName == "String"
    case "NSNumber", "NSDecimalNumber": return numbers.contains(swiftName)
    case "NSDate", "Date": return swiftName == "Date"
    case "NSURL", "URL": return swiftName == "URL"
    case "NSData", "Data": return swiftName == "Data"
    case "NSUUID", "UUID": return swiftName == "UUID"
    case "NSArray", "NSMutableArray", "Array":
      return swiftName.hasPrefix("Array<") || swiftName.hasPrefix("Set<")
    case "NSDictionary", "NSMutableDictionary", "Dictionary":
      return swiftName.hasPrefix("Dictionary<")
    default:
      if numbers.contains(name) { return swiftName == name }
      return nil
    }
  }
}
