import Foundation
import ObjectMapping
import ObjectMappingDefinitions
import Testing

/// `@import`: names without an extension, links, and the folder imports must stay in.
@Suite("Definition files: imports")
struct ImportTests {
  static let types: [any DefinableModel.Type] = [TweetModel.self, UserModel.self]

  static let users =
    #"{ "$UserModel": { "@class": "UserModel", "name": "name", "imageUrl": { "@keyPath": "url", "@optional": 1 } } }"#

  static func errors(_ body: () throws -> Void) -> [String] {
    do {
      try body()
      return []
    } catch let error as DefinitionErrors {
      return error.errors.map(\.description)
    } catch {
      return ["\(error)"]
    }
  }

  /// `"@import": ["Templates"]` finds `Templates.mappings` beside the importer, among the files
  /// given to the catalog and in the importer's folder alike (AppCoreKit's
  /// `loadContentOfFileNamed:` left the extension out too).
  @Test func importWithoutExtensionTakesTheImportersExtension() throws {
    let root =
      #"{ "@import": ["Users"], "$TweetModel": { "@class": "TweetModel", "message": "text", "identifier": "id_str", "user": "user" } }"#
    let given = try DefinitionCatalog(
      appCoreKitFiles: [
        .string(root, name: "Root.mappings"), .string(Self.users, name: "Users.mappings"),
      ], types: Self.types)
    #expect(given.definitionNames == ["$UserModel", "$TweetModel"])

    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let rootURL = try folder.write(
      root.replacingOccurrences(of: "Users", with: "shared/Users"), to: "Root.mappings")
    try folder.write(Self.users, to: "shared/Users.mappings")
    let loaded = try DefinitionCatalog(appCoreKitFiles: [.url(rootURL)], types: Self.types)
    let tweet = try loaded.mapping("$TweetModel", as: TweetModel.self).map(
      #"{"id_str": "1", "text": "t", "user": {"name": "Bo"}}"#)
    #expect(tweet.user == UserModel(imageUrl: nil, name: "Bo"))
  }

  /// A file that imports itself through a symbolic link is one import cycle, reported once.
  @Test func symlinkedSelfImportIsOneCycle() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let root = try folder.write(
      #"{ "@import": "Link", "$UserModel": { "@class": "UserModel", "name": "name", "imageUrl": "url" } }"#,
      to: "Root.mappings")
    try folder.link("Link.mappings", to: "Root.mappings")
    #expect(
      Self.errors { _ = try DefinitionCatalog(appCoreKitFiles: [.url(root)], types: Self.types) }
        == [
          "Root.mappings:1:14: @import cycle: Root.mappings imports Link.mappings, which is "
            + "Root.mappings"
        ])
    // A file given twice, under its name and through a link, is read once: its contexts are
    // not "defined twice".
    let users = try folder.write(Self.users, to: "Users.mappings")
    try folder.link("UsersLink.mappings", to: "Users.mappings")
    let twice = try DefinitionCatalog(
      appCoreKitFiles: [
        .url(users), .url(folder.url.appendingPathComponent("UsersLink.mappings")),
      ],
      types: Self.types)
    #expect(twice.definitionNames == ["$UserModel"])
  }

  /// Imports stay inside the folder of the file given to the catalog: `..` and absolute paths
  /// are errors at the import's line and column, and so is a link that leads out.
  @Test func importsStayInsideTheFolder() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    try folder.write(Self.users, to: "Outside.mappings")
    try folder.write(Self.users, to: "secret/Users.mappings")
    let root = try folder.write(
      """
      {
        "@import": ["../Outside", "/etc/hosts", "Escape"],
        "$TweetModel": { "@class": "TweetModel", "message": "text", "identifier": "id_str" }
      }
      """, to: "app/Root.mappings")
    try folder.link("app/Escape.mappings", to: "../secret/Users.mappings")
    #expect(
      Self.errors { _ = try DefinitionCatalog(appCoreKitFiles: [.url(root)], types: Self.types) }
        == [
          "Root.mappings:2:15: @import \"../Outside\" leads out of the folder with \"..\"; imports "
            + "are relative paths that stay in the folder of the file given to the catalog (pass "
            + "imports: .anywhere to allow others)",
          "Root.mappings:2:29: @import \"/etc/hosts\" is an absolute path; imports are relative "
            + "paths that stay in the folder of the file given to the catalog (pass imports: "
            + ".anywhere to allow others)",
          "Root.mappings:2:43: @import \"Escape\" resolves to \(folder.realPath)/secret/Users.mappings, "
            + "outside the folder \(folder.realPath)/app (through a symbolic link); imports stay "
            + "in the folder of the file given to the catalog (pass imports: .anywhere to allow "
            + "others)",
        ])
    // For a trusted layout: `..` and links leading out are followed, and an absolute path is
    // used as it is, never looked up under the importing folder.
    let trusted = try folder.write(
      #"{ "@import": ["../Outside"], "$TweetModel": { "@class": "TweetModel", "message": "text", "identifier": "id_str", "user": "user" } }"#,
      to: "app/Trusted.mappings")
    let catalog = try DefinitionCatalog(
      appCoreKitFiles: [.url(trusted)], types: Self.types, imports: .anywhere)
    #expect(catalog.definitionNames == ["$UserModel", "$TweetModel"])
    let absolute = try folder.write(
      #"{ "@import": ["\#(folder.realPath)/secret/Users"], "$TweetModel": { "@class": "TweetModel", "message": "text", "identifier": "id_str", "user": "user" } }"#,
      to: "app/Absolute.mappings")
    #expect(
      try DefinitionCatalog(
        appCoreKitFiles: [.url(absolute)], types: Self.types, imports: .anywhere
      )
      .definitionNames == ["$UserModel", "$TweetModel"])
  }
}
