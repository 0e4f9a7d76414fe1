import Foundation
import ObjectMapping
import ObjectMappingDefinitions
import ObjectMappingTestSupport
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

  /// A key path of 10,000 keys (`"a.a.…a"`, a 20 KB file) is an error at the rule, in both
  /// formats, on a 512 KB stack. Building its inverse recursed once per key and overflowed the
  /// stack at 300 keys (found by a probe of hostile files).
  @Test func aKeyPathOfTenThousandKeysIsALocatedError() {
    let path = Array(repeating: "a", count: 10_000).joined(separator: ".")
    let appCoreKit = #"{"$U": {"@class": "UserModel", "name": "\#(path)"}}"#
    let csMapper = #"{"name": {"key": "\#(path)"}}"#
    let outcome = SmallStack.run { () -> [String] in
      var outcomes: [String] = []
      do {
        _ = try DefinitionCatalog(
          appCoreKitFiles: [.string(appCoreKit, name: "Long.mappings")], types: [UserModel.self])
        outcomes.append("loaded")
      } catch {
        outcomes.append("\(error)")
      }
      do {
        _ = try DefinitionCatalog(
          csMapperFiles: [.string(csMapper, name: "Person.json")], types: [Person.self])
        outcomes.append("loaded")
      } catch {
        outcomes.append("\(error)")
      }
      return outcomes
    }
    #expect(outcome.count == 2)
    for (text, file) in zip(outcome, ["Long.mappings:1:", "Person.json:1:"]) {
      #expect(
        text.contains(file) && text.contains("has 10000 keys; at most 512"), "\(text.prefix(300))")
    }
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
      text +=
        #""$C\#(index)": { "@class": "Comment", "text": "body", "replies": "#
        + #"{ "@keyPath": "replies", "@optional": 1, "@object": { "@mappings": "$C\#(index + 1)" } } },"#
    }
    text += #""$C10000": { "@class": "Comment", "text": "body" } }"#
    let file = DefinitionFile.string(text, name: "Chain.mappings")
    let payload =
      String(repeating: #"{"body": "x", "replies": ["#, count: 20) + #"{"body": "end"}"#
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

  /// A chain long enough for its relationships to go through slots every few levels maps from
  /// many tasks at once (the slots are read under a lock; the sanitizer runs check it).
  @Test func chainThroughSlotsMapsFromManyTasks() async throws {
    var text = "{"
    for index in 0..<40 {
      text +=
        #""$C\#(index)": { "@class": "Comment", "text": "body", "replies": "#
        + #"{ "@keyPath": "replies", "@optional": 1, "@object": { "@mappings": "$C\#(index + 1)" } } },"#
    }
    text += #""$C40": { "@class": "Comment", "text": "body" } }"#
    let mapping = try DefinitionCatalog(
      appCoreKitFiles: [.string(text, name: "Chain.mappings")], types: [Comment.self]
    ).mapping("$C0", as: Comment.self)
    let payload =
      String(repeating: #"{"body": "x", "replies": ["#, count: 30) + #"{"body": "end"}"#
      + String(repeating: "]}", count: 30)
    let depths = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<8 {
        group.addTask {
          var comment = try mapping.map(payload)
          var depth = 0
          while let reply = comment.replies.first {
            depth += 1
            comment = reply
          }
          return depth
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(depths == Array(repeating: 30, count: 8))
  }

  /// A relationship chain written backwards (each context's child listed, and built, before it):
  /// the built mappings still hold each other directly only a few levels deep, so freeing them
  /// never recurses through the chain.
  @Test func backwardsRelationshipChainIsFreedOnASmallStack() {
    var text = #"{ "$C5000": { "@class": "Comment", "text": "body" }"#
    for index in stride(from: 4_999, through: 0, by: -1) {
      text +=
        #", "$C\#(index)": { "@class": "Comment", "text": "body", "replies": "#
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
    let text =
      #"{ "$U": { "@class": "UserModel", "name": { "@keyPath": "name", "#
      + #""@transformSelector": "shout", "@transformUserData": {"deep": \#(userData)} } } }"#
    var transforms = TransformRegistry()
    transforms.register(
      "shout",
      userData: { (_: Node) in
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
    #expect(
      outcome == (levels == 64 ? "ANN" : "Deep.mappings:1:186: nesting deeper than 64 levels"))
  }

  /// The same for a property list, whose elements are read with an explicit stack.
  @Test(arguments: [64, 65])
  func deepestPropertyListOnASmallStack(levels: Int) {
    let arrays = levels - 3
    let text =
      "<plist><dict><key>name</key><dict><key>key</key><string>n</string>"
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
        .string(
          #"{ "__parent__": "D\#(index - 1)", "height": "h\#(index)" }"#, name: "B\(index).json"))
      files.append(
        .string(#"{ "__parent__": ["A\#(index)", "B\#(index)"] }"#, name: "D\(index).json"))
    }
    files.append(.string(#"{ "__parent__": "D\#(levels)" }"#, name: "Person.json"))
    return files
  }

  @Test func twentyLevelDiamondsLoad() throws {
    let catalog = try DefinitionCatalog(
      appCoreKitFiles: [.string(Self.inheritsDiamond(20), name: "Diamond.mappings")],
      types: [UserModel.self])
    #expect(
      try catalog.mapping("$UserModel", as: UserModel.self).map(
        #"{"name": "Ann", "url": "http://a"}"#)
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
        == "the @inherits templates expand to more than 1,000,000 inherited entries (values "
        + "inside them counted) by \"$T1413\"; a set of files this large is refused")
  }

  /// One large value inherited by many contexts (a transform's user data in a template) was
  /// converted once per context: 2,000 contexts and a 2,000-element array, a 126 KB file, took
  /// 1.3 s to load, four times longer per doubling. The values inside inherited entries now
  /// count towards the expansion limit: a small file loads, a large one is refused at once.
  @Test func aLargeInheritedValueCountsTowardsTheExpansionLimit() throws {
    var transforms = TransformRegistry.standard
    transforms.register("shout") { (_: Node) in
      ValueTransform<String, String>(forward: { $0.uppercased() }, reverse: { $0.lowercased() })
    }
    func file(_ count: Int) -> String {
      let big = "[" + (0..<count).map { "\($0)" }.joined(separator: ",") + "]"
      var text =
        #"{"$Big": {"name": {"@keyPath": "name", "@transformSelector": "shout", "#
        + #""@transformUserData": \#(big)}},"#
      for index in 0..<count {
        text += #""$U\#(index)": {"@class": "UserModel", "@inherits": ["$Big"]},"#
      }
      return text + "}"
    }
    let small = try DefinitionCatalog(
      appCoreKitFiles: [.string(file(200), name: "Small.mappings")], types: [UserModel.self],
      transforms: transforms)
    #expect(try small.mapping("$U7", as: UserModel.self).map(#"{"name": "ann"}"#).name == "ANN")
    let start = Scaling.threadCPUSeconds()
    let error = #expect(throws: DefinitionErrors.self) {
      try DefinitionCatalog(
        appCoreKitFiles: [.string(file(2_000), name: "Large.mappings")], types: [UserModel.self],
        transforms: transforms)
    }
    #expect(error?.errors.map(\.kind) == [.tooLarge])
    // Refused before any conversion: far less than the 1.3 s it took to load.
    #expect(Scaling.threadCPUSeconds() - start < 0.5)
  }

  /// "several contexts map X" named every candidate in every error: 4,000 such errors held
  /// 124 MB of text. The list is shortened as a cycle's is.
  @Test func ambiguousContextErrorsNameAFewCandidates() {
    var text = "{"
    for index in 0..<100 { text += #""$U\#(index)": {"@class": "UserModel", "name": "name"},"# }
    text += #""$T": {"@class": "TweetModel", "user": "user"}}"#
    let error = #expect(throws: DefinitionErrors.self) {
      try DefinitionCatalog(
        appCoreKitFiles: [.string(text, name: "A.mappings")],
        types: [UserModel.self, TweetModel.self])
    }
    let message = error?.errors.first { $0.kind == .unknownContext }?.message ?? ""
    #expect(
      message.hasPrefix(
        "several contexts map UserModel ($U0, $U1, $U10, $U11, $U12, … (90 more), $U95,"))
    #expect(message.utf8.count < 200)
  }

  /// An inline `@mappings` is named after its owner and property (`$A.replies`): a context of
  /// that name silently took its place, or lost its own rules to it, depending on the order.
  @Test(arguments: [false, true])
  func aContextNamedLikeAnInlineMappingIsAnError(contextFirst: Bool) {
    let owner =
      #""$A": {"@class": "Comment", "text": "body", "replies": {"@keyPath": "replies", "#
      + #""@optional": 1, "@object": {"@mappings": {"text": "inner"}}}}"#
    let dotted = #""$A.replies": {"@class": "Comment", "text": "other"}"#
    let text = "{" + (contextFirst ? dotted + "," + owner : owner + "," + dotted) + "}"
    let error = #expect(throws: DefinitionErrors.self) {
      try DefinitionCatalog(
        appCoreKitFiles: [.string(text, name: "I.mappings")], types: [Comment.self])
    }
    #expect(error?.errors.map(\.kind) == [.invalidMapping])
    #expect(
      error?.errors.first?.message.contains(#"the context "$A.replies" has the name"#) == true)
  }

  // MARK: Mutated files

  /// The seed of ``mutatedFilesGiveCatalogsOrLocatedErrors()``: `DEFINITION_MUTATION_SEED` in
  /// the environment, to run a failure again, else a fixed one.
  static let mutationSeed =
    ProcessInfo.processInfo.environment["DEFINITION_MUTATION_SEED"].flatMap { UInt64($0) }
    ?? 0x35_DEF1_1E5

  /// Files that use every feature: mutated, each must load or give errors that all point into
  /// the file.
  static let realFiles: [(name: String, text: String)] = [
    (
      "Tweets.mappings",
      #"""
      // The guide's contexts, with a template and a selector.
      {
        "$Optional": { "@optional": 1 },
        "$UserModel": { "@class": "UserModel", "name": "name",
                        "imageUrl": { "@inherits": "$Optional", "@keyPath": "profile_image_url" } },
        "$TweetModel": {
          "@class": "TweetModel",
          "message": "text", "identifier": "id_str",
          "retweets": { "@keyPath": "retweet_count", "@defaultValue": 0 },
          "coordinates": { "@keyPath": "@self", "@transformClass": "MyTransformers",
                           "@transformSelector": "coordinate2DFromDictionary:userData:error:",
                           "@transformUserData": { "longitude": "long", "latitude": "lat" } },
          "user": { "@keyPath": "user", "@object": { "@mappings": "$UserModel" } },
          "@ipad": { "message": "full_text" },
        },
        "$TimelineModel": { "@class": "TimelineModel",
          "tweets": { "@keyPath": "@self", "@clearContent": 1, "@object": { "@mappings": "$TweetModel" } } }
      }
      """#
    ),
    (
      "Employee.plist",
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0"><dict>
        <key>hireDate</key><dict><key>key</key><string>hire_date</string><key>mapper</key><string>iso8601</string></dict>
        <key>compoundIdentifier</key><dict><key>mapper</key><string>CSJoinMapper</string>
          <key>key</key><array><dict><key>key</key><string>a</string></dict><string>b</string></array></dict>
        <key>active</key><dict><key>key</key><string>on</string><key>default</key><true/>
          <key>groups</key><array><string>list</string></array></dict>
        <!-- a comment --><key>metaDisplayString</key><string>meta &amp; more</string>
      </dict></plist>
      """
    ),
  ]

  /// Mutations of real files (truncations, flipped bytes, spliced fragments, repeated spans)
  /// each give a catalog or errors that all have a place in the file: never a crash, a hang or
  /// an error nobody can find. The generator is seeded; a failure names the seed and the round.
  @Test func mutatedFilesGiveCatalogsOrLocatedErrors() {
    var generator = SeededGenerator(seed: Self.mutationSeed)
    let fragments = [
      "{", "}", "[", "]", ",", ":", "\"", "\\", "/*", "//", "\n", "\u{0}", "@inherits",
      "\"@import\": \"x\"", "<dict>", "</dict>", "<key>", "&#0;", "&amp;", "<![CDATA[",
      "__parent__", "\"$TweetModel\"", "null", "1e999", "\u{FEFF}", "é", "\r",
    ]
    var loaded = 0
    var failed = 0
    for round in 0..<600 {
      let (name, text) = Self.realFiles[round % Self.realFiles.count]
      var bytes = Array(text.utf8)
      for _ in 0..<Int.random(in: 1...4, using: &generator) {
        let position = Int.random(in: 0...bytes.count, using: &generator)
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: bytes = Array(bytes.prefix(position))
        case 1 where position < bytes.count:
          bytes[position] = UInt8.random(in: 0...255, using: &generator)
        case 2:
          let fragment = fragments[Int.random(in: 0..<fragments.count, using: &generator)]
          bytes.insert(contentsOf: fragment.utf8, at: position)
        default:
          let length = Int.random(in: 0...40, using: &generator)
          let span = bytes[position..<min(bytes.count, position + length)]
          bytes.insert(contentsOf: span, at: position)
        }
      }
      let mutated = String(decoding: bytes, as: UTF8.self)
      let context = "seed \(Self.mutationSeed) (DEFINITION_MUTATION_SEED), round \(round)"
      do {
        if name.hasSuffix(".plist") {
          let catalog = try DefinitionCatalog(
            csMapperFiles: [.string(mutated, name: name)], types: [Employee.self])
          _ = try? catalog.mapping(for: Employee.self).map(
            #"{"hire_date": "2013-11-01T07:20:20Z"}"#)
        } else {
          let catalog = try DefinitionCatalog(
            appCoreKitFiles: [.string(mutated, name: name)],
            types: [TweetModel.self, UserModel.self, TimelineModel.self],
            transforms: Transforms.registry, conditions: DefinitionConditions(["ipad": true]))
          _ = try? catalog.mapping("$TweetModel", as: TweetModel.self).map(#"{"text": "t"}"#)
        }
        loaded += 1
      } catch {
        failed += 1
        #expect(!error.errors.isEmpty, "\(context): no error in \(error)")
        for problem in error.errors {
          #expect(
            problem.location?.file == name && (problem.location?.line ?? 0) >= 1
              && (problem.location?.column ?? 0) >= 1,
            "\(context): an error without a place in the file: \(problem)")
          #expect(!problem.message.isEmpty, "\(context)")
        }
      }
    }
    // Both outcomes happen: the mutations are neither all harmless nor all fatal.
    #expect(
      loaded > 0 && failed > 0, "seed \(Self.mutationSeed): \(loaded) loaded, \(failed) failed")
  }
}
