import Foundation
import ObjectMapping
import ObjectMappingDefinitions

extension Member: DefinableModel {
  /// The member's properties, for definition files.
  public static let properties = PropertyTable(Member.init) {
    Property(\.id)
    Property(\.name)
    Property(\.handle)
  }
}

extension Post: DefinableModel {
  /// The post's properties, for definition files; attachments stay in the DSL mapping.
  public static let properties = PropertyTable(Post.init) {
    Property(\.id)
    Property(\.text)
    Property(\.postedAt)
    Property(\.author)
    Property(\.tags)
    Property(\.likes)
  }
}

/// Section 7 of `swift run showcase`: the posts mapped through a `.mappings` file bundled as a
/// resource (`Resources/Timeline.mappings`), written back with the same definition, the rules the
/// loaded `$Post` applies (its template's included), and a broken definition's errors with their
/// file, line and column.
public enum DefinitionFileShowcase {
  /// The bundled definitions.
  public static func catalog() throws(DefinitionErrors) -> DefinitionCatalog {
    try DefinitionCatalog(
      appCoreKitFiles: [.resource("Timeline", withExtension: "mappings", in: .module)],
      types: [Post.self, Member.self])
  }

  /// The section's lines.
  public static func section() -> Showcase.Section {
    let title = "7. Mappings from a definition file (Timeline.mappings)"
    var lines: [String] = []
    do {
      let catalog = try catalog()
      let posts = try catalog.mapping("$Post", as: Post.self)
      let timeline = try Node(jsonString: ShowcasePayloads.timeline)
      let mapped = try posts.mapCollection(timeline["posts"] ?? .array([]))
      lines.append("contexts: \(catalog.definitionNames.joined(separator: ", "))")
      for post in mapped {
        lines.append(
          "#\(post.id) by @\(post.author.handle) at \(Showcase.format(post.postedAt)), "
            + "\(post.likes) likes, "
            + (post.tags.isEmpty ? "no tags" : "tags: \(post.tags.joined(separator: ", "))"))
      }
      if let first = mapped.first {
        let body = try posts.serialize(first, as: .json(.sortedKeys))
        lines.append("written back: \(String(decoding: body, as: UTF8.self))")
      }
      lines.append("the rules of $Post, as loaded:")
      lines += try catalog.rules(of: "$Post").map { "  \($0)" }
    } catch {
      lines.append("the bundled definitions do not load: \(error)")
    }
    lines.append("a definition with mistakes:")
    do {
      _ = try DefinitionCatalog(
        appCoreKitFiles: [.string(brokenDefinition, name: "Broken.mappings")],
        types: [Post.self, Member.self])
    } catch {
      lines += error.errors.map { "  \($0)" }
    }
    return Showcase.Section(title: title, lines: lines)
  }

  static let brokenDefinition = """
    {
      "$Post": {
        "@class": "Post",
        "id": "id",
        "txt": "text",
        "likes": { "@keyPath": "stats.likes", "@defaultValue": "lots" },
        "postedAt": { "@keyPath": "posted_at", "@transformSelector": "fromDDMMYYYY" }
      }
    }
    """
}
