import Foundation
import ObjectMapping
import ObjectMappingDefinitions
import Testing

/// Organizing `.mappings` files: `@import`, `@inherits` templates and selectors.
@Suite("AppCoreKit .mappings: imports, templates and selectors")
struct AppCoreKitOrganizationTests {
  static let types: [any DefinableModel.Type] = [TweetModel.self, UserModel.self]

  static let payload = #"""
    {"id_str": "7", "text": "hello", "user": {"name": "Ann", "screen_name": "ann", "profile_image_url": "http://a"}}
    """#

  @Test func importsAmongGivenFiles() throws {
    let root = """
      {
        "@import": ["Users.mappings"],
        "$TweetModel": { "@class": "TweetModel", "message": "text", "identifier": "id_str",
                         "user": { "@keyPath": "user", "@object": { "@mappings": "$UserModel" } } }
      }
      """
    let users =
      #"{ "$UserModel": { "@class": "UserModel", "name": "name", "imageUrl": "profile_image_url" } }"#
    let catalog = try DefinitionCatalog(
      appCoreKitFiles: [
        .string(root, name: "Root.mappings"), .string(users, name: "Users.mappings"),
      ],
      types: Self.types)
    let tweet = try catalog.mapping("$TweetModel", as: TweetModel.self).map(Self.payload)
    #expect(tweet.user?.name == "Ann")
    #expect(catalog.definitionNames == ["$UserModel", "$TweetModel"])
  }

  /// An `@import` relative to a file loaded from a URL, in a subfolder.
  @Test func importsRelativeToTheFile() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("definitions-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("shared"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try
      #"{ "@import": "shared/Users.mappings", "$TweetModel": { "@class": "TweetModel", "message": "text", "identifier": "id_str", "user": "user" } }"#
      .write(to: folder.appendingPathComponent("Root.mappings"), atomically: true, encoding: .utf8)
    try
      #"{ "$UserModel": { "@class": "UserModel", "name": "name", "imageUrl": { "@keyPath": "profile_image_url", "@optional": 1 } } }"#
      .write(
        to: folder.appendingPathComponent("shared/Users.mappings"), atomically: true,
        encoding: .utf8)
    let catalog = try DefinitionCatalog(
      appCoreKitFiles: [.url(folder.appendingPathComponent("Root.mappings"))], types: Self.types)
    // "user": "user" with no @object uses the one context whose @class is the property's type.
    let tweet = try catalog.mapping("$TweetModel", as: TweetModel.self).map(
      #"{"id_str": "1", "text": "t", "user": {"name": "Bo"}}"#)
    #expect(tweet.user == UserModel(imageUrl: nil, name: "Bo"))
  }

  @Test func importCycleAndMissingFileAreReported() throws {
    let first =
      #"{ "@import": "B.mappings", "$UserModel": { "@class": "UserModel", "name": "name", "imageUrl": "url" } }"#
    let second = """
      {
        "@import": ["A.mappings", "Missing.mappings"]
      }
      """
    let error = #expect(throws: DefinitionErrors.self) {
      try DefinitionCatalog(
        appCoreKitFiles: [.string(first, name: "A.mappings"), .string(second, name: "B.mappings")],
        types: Self.types)
    }
    let errors = try #require(error?.errors)
    #expect(errors.map(\.kind) == [.importCycle, .missingFile])
    #expect(errors[0].location == DefinitionLocation(file: "B.mappings", line: 2, column: 15))
    #expect(errors[0].message == "@import cycle: A.mappings imports B.mappings imports A.mappings")
    #expect(errors[1].location == DefinitionLocation(file: "B.mappings", line: 2, column: 29))
    #expect(errors[1].message.contains("Missing.mappings"))
  }

  /// Templates: several, in order; the first listed wins for a key both set ("an inherited
  /// entry is set only when the key is not yet present", as AppCoreKit's cascading tree does),
  /// and the context's own members win over all of them.
  @Test func inheritsTemplates() throws {
    let text = """
      {
        "$Texts": { "message": "text", "identifier": "text" },
        "$Ids": { "identifier": "id_str", "name": "text" },
        "$TweetModel": {
          "@inherits": ["$Texts", "$Ids"],
          "@class": "TweetModel",
          "name": "user.name"
        }
      }
      """
    let catalog = try DefinitionCatalog(
      appCoreKitFiles: [.string(text, name: "T.mappings")], types: Self.types)
    let tweet = try catalog.mapping("$TweetModel", as: TweetModel.self).map(Self.payload)
    #expect(tweet.message == "hello")
    #expect(tweet.identifier == "hello")  // $Texts is listed first
    #expect(tweet.name == "Ann")  // the context's own
    let swapped = try DefinitionCatalog(
      appCoreKitFiles: [
        .string(
          text.replacingOccurrences(of: #"["$Texts", "$Ids"]"#, with: #"["$Ids", "$Texts"]"#),
          name: "T.mappings")
      ], types: Self.types)
    #expect(
      try swapped.mapping("$TweetModel", as: TweetModel.self).map(Self.payload).identifier == "7")
  }

  @Test func inheritsCycleAndUnknownTemplate() throws {
    let text = """
      {
        "$A": { "@inherits": "$B", "message": "text" },
        "$B": { "@inherits": ["$A", "$Nowhere"] }
      }
      """
    let error = #expect(throws: DefinitionErrors.self) {
      try DefinitionCatalog(appCoreKitFiles: [.string(text, name: "T.mappings")], types: Self.types)
    }
    // The cycle once, at the reference that closes it; the unknown template at its name.
    #expect(
      error?.errors.map(\.description) == [
        "T.mappings:3:25: @inherits cycle: $A inherits $B inherits $A",
        "T.mappings:3:31: @inherits names \"$Nowhere\", which no loaded file defines",
      ])
    #expect(error?.errors.map(\.kind) == [.inheritanceCycle, .unknownContext])
  }

  static let selectorFile = """
    {
      "$TweetModel": {
        "@class": "TweetModel",
        "message": "text",
        "identifier": "id_str",
        "name": "user.name",
        "@ipad": { "name": "user.screen_name" },
        "@ios >= 7": { "message": "id_str" }
      }
    }
    """

  @Test(arguments: [
    (DefinitionConditions(), "Ann", "hello"),
    (DefinitionConditions(["ipad": true]), "ann", "hello"),
    (DefinitionConditions(osVersion: "7.1"), "Ann", "7"),
    (DefinitionConditions(["ipad": true], osVersion: "6.1.3"), "ann", "hello"),
  ])
  func selectors(conditions: DefinitionConditions, name: String, message: String) throws {
    let catalog = try DefinitionCatalog(
      appCoreKitFiles: [.string(Self.selectorFile, name: "S.mappings")], types: Self.types,
      conditions: conditions)
    let tweet = try catalog.mapping("$TweetModel", as: TweetModel.self).map(Self.payload)
    #expect(tweet.name == name)
    #expect(tweet.message == message)
  }

  @Test func appSelectorsAndUnknownOnes() throws {
    let text =
      #"{ "$TweetModel": { "@class": "TweetModel", "message": "text", "identifier": "id_str", "name": "user.name", "@tv": { "name": "text" }, "@watch": {} } }"#
    let error = #expect(throws: DefinitionErrors.self) {
      try DefinitionCatalog(
        appCoreKitFiles: [.string(text, name: "S.mappings")], types: Self.types,
        conditions: DefinitionConditions(["tv": true]))
    }
    #expect(error?.errors.map(\.kind) == [.unknownKeyword])
    #expect(error?.errors.first?.message.contains("@watch") == true)
    let catalog = try DefinitionCatalog(
      appCoreKitFiles: [
        .string(text.replacingOccurrences(of: #", "@watch": {}"#, with: ""), name: "S.mappings")
      ],
      types: Self.types, conditions: DefinitionConditions(["tv": true]))
    #expect(
      try catalog.mapping("$TweetModel", as: TweetModel.self).map(Self.payload).name == "hello")
  }
}
