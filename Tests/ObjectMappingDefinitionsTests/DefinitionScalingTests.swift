import Foundation
import ObjectMapping
import ObjectMappingDefinitions
import ObjectMappingTestSupport
import Testing

/// Loading time grows linearly with the files, for every shape a hostile set of files can take:
/// long chains, diamonds, cycles, many files, large files (see ``Scaling``: doubling sizes, CPU
/// time). Skipped under sanitizers with the other `ScalingTests`.
@Suite(.serialized) struct DefinitionScalingTests {
  @Test func inheritsChain() async throws {
    try await Scaling.expectLinear("@inherits chain", base: 1_000) { count in
      DefinitionFile.string(HostileFileTests.inheritsChain(count), name: "Chain.mappings")
    } work: { file in
      _ = try DefinitionCatalog(appCoreKitFiles: [file], types: [UserModel.self])
    }
  }

  /// A diamond's levels double the paths each: linear in the levels, not exponential.
  @Test func inheritsDiamond() async throws {
    try await Scaling.expectLinear("@inherits diamond", base: 500) { levels in
      DefinitionFile.string(HostileFileTests.inheritsDiamond(levels), name: "Diamond.mappings")
    } work: { file in
      _ = try DefinitionCatalog(appCoreKitFiles: [file], types: [UserModel.self])
    }
  }

  /// Every template inherits the next one and the first: each closes a cycle, each reported
  /// once (a message names at most ten of its templates).
  @Test func inheritsCycles() async throws {
    try await Scaling.expectLinear("@inherits cycles", base: 500) { count in
      var text = "{"
      for index in 0..<count {
        text += #""$T\#(index)": { "@inherits": ["$T\#(index + 1)", "$T0"] },"#
      }
      text += #""$T\#(count)": { "name": "name" } }"#
      return DefinitionFile.string(text, name: "Cycles.mappings")
    } work: { (file: DefinitionFile) in
      do {
        _ = try DefinitionCatalog(appCoreKitFiles: [file], types: [UserModel.self])
        Issue.record("the cycles were not reported")
      } catch let error as DefinitionErrors {
        #expect(
          error.errors.allSatisfy { $0.kind == .inheritanceCycle }, "\(error.errors.prefix(3))")
      }
    }
  }

  @Test func parentChain() async throws {
    try await Scaling.expectLinear("__parent__ chain", base: 1_000) { count in
      HostileFileTests.parentChain(count)
    } work: { files in
      _ = try DefinitionCatalog(csMapperFiles: files, types: [Person.self])
    }
  }

  @Test func parentDiamond() async throws {
    try await Scaling.expectLinear("__parent__ diamond", base: 300) { levels in
      HostileFileTests.parentDiamond(levels)
    } work: { files in
      let catalog = try DefinitionCatalog(csMapperFiles: files, types: [Person.self])
      // Memory too: one rule per property of each file, not one per path.
      #expect(try catalog.rules(of: "Person").count == files.count / 3 + 2)
    }
  }

  /// A mapping with many output keys (a file's alternatives for one property, each with its
  /// own key, and many keys nested in one object) builds in linear time: its inverse finds each
  /// key without scanning the others.
  @Test func manyOutputKeys() async throws {
    try await Scaling.expectLinear("many output keys", base: 400) { count in
      count
    } work: { count in
      let alternatives: [any MappingRule<Person>] = (0..<count).map { index in
        Include(Mapping(Person.init) { Attribute("h\(index)", \.height) })
      }
      _ = Mapping(Person.init) { alternatives }
      let nested: [any MappingRule<Person>] = (0..<count).map { index in
        Include(Mapping(Person.init) { Attribute("person.h\(index)", \.height) })
      }
      _ = Mapping(Person.init) { nested }
    }
  }

  @Test func relationshipChain() async throws {
    try await Scaling.expectLinear("relationship chain", base: 300) { count in
      var text = "{"
      for index in 0..<count {
        text +=
          #""$C\#(index)": { "@class": "Comment", "text": "body", "replies": "#
          + #"{ "@keyPath": "replies", "@optional": 1, "@object": { "@mappings": "$C\#(index + 1)" } } },"#
      }
      text += #""$C\#(count)": { "@class": "Comment", "text": "body" } }"#
      return DefinitionFile.string(text, name: "Chain.mappings")
    } work: { file in
      _ = try DefinitionCatalog(appCoreKitFiles: [file], types: [Comment.self])
    }
  }

  /// Many contexts whose relationship names no context: each finds the one context of its
  /// class without looking at all the others.
  @Test func relationshipsByClass() async throws {
    try await Scaling.expectLinear("relationships by class", base: 300) { count in
      var text = #"{ "$UserModel": { "@class": "UserModel", "name": "name", "imageUrl": "url" },"#
      for index in 0..<count {
        text += #""$T\#(index)": { "@class": "TweetModel", "message": "text", "user": "user" },"#
      }
      return DefinitionFile.string(text + "}", name: "Many.mappings")
    } work: { file in
      _ = try DefinitionCatalog(appCoreKitFiles: [file], types: [TweetModel.self, UserModel.self])
    }
  }

  /// Each file imports the next one.
  @Test func importChain() async throws {
    try await Scaling.expectLinear("@import chain", base: 300) { count in
      (0...count).map { index in
        DefinitionFile.string(
          index == count
            ? #"{ "$UserModel": { "@class": "UserModel", "name": "name", "imageUrl": "url" } }"#
            : #"{ "@import": "F\#(index + 1)", "$T\#(index)": { "name": "n" } }"#,
          name: "F\(index).mappings")
      }
    } work: { files in
      _ = try DefinitionCatalog(appCoreKitFiles: files, types: [UserModel.self])
    }
  }

  /// One large file of many contexts, and one large property list.
  @Test func largeFiles() async throws {
    try await Scaling.expectLinear("a large .mappings file", base: 400) { count in
      var text = "{"
      for index in 0..<count {
        text +=
          #""$U\#(index)": { "@class": "UserModel", /* a comment */ "name": "name\#(index)", "#
          + #""imageUrl": { "@keyPath": "url\#(index)", "@optional": 1, "@transformSelector": "url" } },"#
      }
      return DefinitionFile.string(text + "}", name: "Large.mappings")
    } work: { file in
      _ = try DefinitionCatalog(appCoreKitFiles: [file], types: [UserModel.self])
    }
    try await Scaling.expectLinear("a large property list", base: 2_000) { count in
      var text = "<plist><dict>"
      for index in 0..<count {
        text += "<key>p\(index)</key><dict><key>key</key><string>k\(index)</string></dict>"
      }
      return DefinitionFile.string(text + "</dict></plist>", name: "Person.plist")
    } work: { (file: DefinitionFile) in
      do {
        _ = try DefinitionCatalog(csMapperFiles: [file], types: [Person.self])
      } catch let error as DefinitionErrors {
        // The properties are not Person's: every one is reported.
        #expect(error.errors.count >= 2_000)
      }
    }
  }
}
