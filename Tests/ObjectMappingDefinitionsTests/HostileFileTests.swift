import Foundation
import ObjectMapping
import ObjectMappingDefinitions
import Testing

/// Hostile and huge definition files: bounded time, bounded stack, clear errors.
@Suite("Definition files: hostile and huge files")
struct HostileFileTests {
  // MARK: Long chains on a small stack

  /// `$T0` holds the properties; `$T1` … inherit each the one before; the context inherits the
  /// last.
  static func inheritsChain(_ count: Int) -> String {
    var text = #"{ "$T0": { "name": "name", "imageUrl": { "@keyPath": "url", "@optional": 1 } },"#
    for index in 1..<count { text += #""$T\#(index)": { "@inherits": ["$T\#(index - 1)"] },"# }
    text += #""$UserModel": { "@class": "UserModel", "@inherits": "$T\#(count - 1)" } }"#
    return text
  }

  /// `P0` holds the properties; `P1` … have each the one before as `__parent__`; `Person` the
  /// last.
  static func parentChain(_ count: Int) -> [DefinitionFile] {
    var files: [DefinitionFile] = [
      .string(#"{ "name": { "key": "person_name" }, "age": "person_age" }"#, name: "P0.json")
    ]
    for index in 1..<count {
      files.append(.string(#"{ "__parent__": "P\#(index - 1)" }"#, name: "P\(index).json"))
    }
    files.append(.string(#"{ "__parent__": "P\#(count - 1)" }"#, name: "Person.json"))
    return files
  }

  /// 10,000 templates in a chain load on a 512 KB stack: resolving them recurses per level of
  /// nesting of one value, never per template.
  @Test func longInheritsChainLoadsOnASmallStack() {
    let text = Self.inheritsChain(10_000)
    let outcome = SmallStack.run { () -> String in
      do {
        let catalog = try DefinitionCatalog(
          appCoreKitFiles: [.string(text, name: "Chain.mappings")], types: [UserModel.self])
        let user = try catalog.mapping("$UserModel", as: UserModel.self).map(#"{"name": "Ann"}"#)
        return "\(user.name) \(catalog.definitionNames.count)"
      } catch {
        return "\(error)"
      }
    }
    #expect(outcome == "Ann 10001")
  }

  /// 10,000 parent files in a chain load on a 512 KB stack: the parents are walked with an
  /// explicit stack, and the mapping includes their properties once.
  @Test func longParentChainLoadsOnASmallStack() {
    let files = Self.parentChain(10_000)
    let outcome = SmallStack.run { () -> String in
      do {
        let catalog = try DefinitionCatalog(csMapperFiles: files, types: [Person.self])
        let person = try catalog.mapping(for: Person.self).map(
          #"{"person_name": "Ann", "person_age": 41}"#)
        let rules = try catalog.rules(of: "Person")
        return "\(person.name ?? "-") \(person.age ?? 0) \(rules.map(\.definedIn))"
      } catch {
        return "\(error)"
      }
    }
    #expect(outcome == #"Ann 41 ["P0", "P0"]"#)
  }

  /// 10,000 contexts, each holding the next through a relationship, load, map and are freed on
  /// a 512 KB stack. (How deep a payload maps on a given stack is the engine's, the same for
  /// every mapping: `DeepNestingTests`.)
  @Test func longRelationshipChainLoadsOnASmallStack() {
    var text = "{"
    for index in 0..<10_000 {
      text += #""$C\#(index)": { "@class": "Comment", "text": "body", "replies": "#
        + #"{ "@keyPath": "replies", "@optional": 1, "@object": { "@mappings": "$C\#(index + 1)" } } },"#
    }
    text += #""$C10000": { "@class": "Comment", "text": "body" } }"#
    let file = DefinitionFile.string(text, name: "Chain.mappings")
    let payload = String(repeating: #"{"body": "x", "replies": ["#, count: 20) + #"{"body": "end"}"#
      + String(repeating: "]}", count: 20)
    let outcome = SmallStack.run { () -> String in
      do {
        let catalog = try DefinitionCatalog(
          appCoreKitFiles: [file], types: [Comment.self])
        var comment = try catalog.mapping("$C0", as: Comment.self).map(payload)
        var depth = 0
        while let reply = comment.replies.first {
          depth += 1
          comment = reply
        }
        return "\(depth) \(comment.text)"
      } catch {
        return "\(error)"
      }
    }
    #expect(outcome == "20 end")
  }

  /// A relationship chain written backwards (each context's child listed, and built, before it):
  /// the built mappings still hold each other directly only a few levels deep, so freeing them
  /// never recurses through the chain.
  @Test func backwardsRelationshipChainIsFreedOnASmallStack() {
    var text = #"{ "$C5000": { "@class": "Comment", "text": "body" }"#
    for index in stride(from: 4_999, through: 0, by: -1) {
      text += #", "$C\#(index)": { "@class": "Comment", "text": "body", "replies": "#
        + #"{ "@keyPath": "replies", "@optional": 1, "@object": { "@mappings": "$C\#(index + 1)" } } }"#
    }
    text += "}"
    let file = DefinitionFile.string(text, name: "Backwards.mappings")
    let outcome = SmallStack.run { () -> String in
      do {
        let catalog = try DefinitionCatalog(appCoreKitFiles: [file], types: [Comment.self])
        let mapping = try catalog.mapping("$C0", as: Comment.self)
        return try mapping.map(#"{"body": "a", "replies": [{"body": "b"}]}"#).replies[0].text
      } catch {
        return "\(error)"
      }
    }
    #expect(outcome == "b")
  }

  /// A file nested as deep as the readers allow (64 levels) loads on a 512 KB stack; one level
  /// deeper is a syntax error at its place.
  @Test(arguments: [64, 65])
  func deepestNestingOnASmallStack(levels: Int) {
    // A context whose property's user data takes the nesting to `levels` in all.
    let arrays = levels - 4
    let userData = String(repeating: "[", count: arrays) + String(repeating: "]", count: arrays)
    let text = #"{ "$U": { "@class": "UserModel", "name": { "@keyPath": "name", "#
      + #""@transformSelector": "shout", "@transformUserData": {"deep": \#(userData)} } } }"#
    var transforms = TransformRegistry()
    transforms.register("shout", userData: { (_: Node) in
      ValueTransform<String, String>(forward: { $0.uppercased() }, reverse: { $0.lowercased() })
    })
    let registry = transforms
    let outcome = SmallStack.run { () -> String in
      do {
        let catalog = try DefinitionCatalog(
          appCoreKitFiles: [.string(text, name: "Deep.mappings")], types: [UserModel.self],
          transforms: registry)
        return try catalog.mapping("$U", as: UserModel.self).map(#"{"name": "ann"}"#).name
      } catch {
        return "\(error)"
      }
    }
    #expect(outcome == (levels == 64 ? "ANN" : "Deep.mappings:1:186: nesting deeper than 64 levels"))
  }

  /// The same for a property list, whose elements are read with an explicit stack.
  @Test(arguments: [64, 65])
  func deepestPropertyListOnASmallStack(levels: Int) {
    let arrays = levels - 3
    let text = "<plist><dict><key>name</key><dict><key>key</key><string>n</string>"
      + "<key>default</key>" + String(repeating: "<array>", count: arrays)
      + String(repeating: "</array>", count: arrays) + "</dict></dict></plist>"
    let outcome = SmallStack.run { () -> String in
      do {
        _ = try DefinitionCatalog(
          csMapperFiles: [.string(text, name: "Person.plist")], types: [Person.self])
        return "loaded"
      } catch {
        return "\(error)"
      }
    }
    #expect(
      outcome
        == (levels == 64
          ? "Person.plist:1:85: the default for \"name\" of Person cannot be a String: expected "
            + "a string, found an array"
          : "Person.plist:1:512: nesting deeper than 64 levels"))
  }

  // MARK: Diamonds and budgets

  /// `$T0` holds the properties; each `$Ti` inherits `$T(i-1)` twice: 2^20 paths for 20 levels,
  /// each template resolved once.
  static func inheritsDiamond(_ levels: Int) -> String {
    var text = #"{ "$T0": { "name": "name", "imageUrl": { "@keyPath": "url", "@optional": 1 } },"#
    for index in 1...levels {
      text += #""$T\#(index)": { "@inherits": ["$T\#(index - 1)", "$T\#(index - 1)"] },"#
    }
    text += #""$UserModel": { "@class": "UserModel", "@inherits": "$T\#(levels)" } }"#
    return text
  }

  /// `D0` holds the properties; each `Di` has the parents `Ai` and `Bi`, each of which has the
  /// parent `D(i-1)`: 2^20 paths for 20 levels, each file applied once.
  static func parentDiamond(_ levels: Int) -> [DefinitionFile] {
    var files: [DefinitionFile] = [
      .string(#"{ "name": { "key": "person_name" }, "age": "person_age" }"#, name: "D0.json")
    ]
    for index in 1...levels {
      files.append(.string(#"{ "__parent__": "D\#(index - 1)" }"#, name: "A\(index).json"))
      files.append(
        .string(#"{ "__parent__": "D\#(index - 1)", "height": "h\#(index)" }"#, name: "B\(index).json"))
      files.append(.string(#"{ "__parent__": ["A\#(index)", "B\#(index)"] }"#, name: "D\(index).json"))
    }
    files.append(.string(#"{ "__parent__": "D\#(levels)" }"#, name: "Person.json"))
    return files
  }

  @Test func twentyLevelDiamondsLoad() throws {
    let catalog = try DefinitionCatalog(
      appCoreKitFiles: [.string(Self.inheritsDiamond(20), name: "Diamond.mappings")],
      types: [UserModel.self])
    #expect(
      try catalog.mapping("$UserModel", as: UserModel.self).map(#"{"name": "Ann", "url": "http://a"}"#)
        == UserModel(imageUrl: URL(string: "http://a"), name: "Ann"))
    #expect(try catalog.rules(of: "$UserModel").map(\.property) == ["name", "imageUrl"])

    let parents = try DefinitionCatalog(csMapperFiles: Self.parentDiamond(20), types: [Person.self])
    let person = try parents.mapping(for: Person.self).map(
      #"{"person_name": "Ann", "person_age": 41, "h1": 150, "h20": 170}"#)
    #expect(person == Person(name: "Ann", age: 41, height: 170))
    // Each file once: D0's two properties and one height per level, not 2^20 copies.
    let rules = try parents.rules(of: "Person")
    #expect(rules.count == 22)
    #expect(rules.prefix(3).map(\.definedIn) == ["D0", "D0", "B1"])
    #expect(rules.last?.definedIn == "B20")
  }

  /// Templates that each add a member to a chain of others copy ever more members: past a
  /// million, loading stops with one clear error instead of growing without bound.
  @Test func expandingTemplatesAreRefused() {
    var text = #"{ "$T0": { "p0": "k" },"#
    for index in 1..<2_000 {
      text += #""$T\#(index)": { "@inherits": "$T\#(index - 1)", "p\#(index)": "k" },"#
    }
    text += #""$UserModel": { "@class": "UserModel", "@inherits": "$T1999", "name": "name" } }"#
    let error = #expect(throws: DefinitionErrors.self) {
      try DefinitionCatalog(
        appCoreKitFiles: [.string(text, name: "Big.mappings")], types: [UserModel.self])
    }
    #expect(error?.errors.map(\.kind) == [.tooLarge])
    #expect(
      error?.errors.first?.message
        == "the @inherits templates expand to more than 1,000,000 inherited entries by "
        + "\"$T1413\"; a set of files this large is refused")
  }
}
