import Foundation
import ObjectMapping

/// The showcase's mappings: one definition per model, used to map the payloads and, unchanged,
/// to serialize the request bodies.
public enum ShowcaseMappings {
  /// `{"id": 7, "name": "Ann Lee", "handle": "ann"}`.
  public static let member = Mapping(Member.init) {
    Attribute("id", \.id)
    Attribute("name", \.name)
    Attribute("handle", \.handle)
  }

  /// `{"type": "photo", "url": "…", "size": {"width": 1024, "height": 768}, "caption": "…"}`.
  public static let photo = Mapping(Photo.init) {
    Attribute("url", \.url)
    Attribute("size.width", \.width)
    Attribute("size.height", \.height)
    Attribute("caption", \.caption)
  }

  /// `{"type": "link", "url": "…", "title": "…"}`.
  public static let link = Mapping(LinkPreview.init) {
    Attribute("url", \.url)
    Attribute("title", \.title)
  }

  /// `{"type": "poll", "question": "…", "options": ["…"], "closed": "no"}`.
  public static let poll = Mapping(Poll.init) {
    Attribute("question", \.question)
    Attribute("options", \.options)
    Attribute("closed", \.isClosed, .boolWords(true: "yes", false: "no"), default: false)
  }

  /// Polymorphic attachments: the `type` member picks the case, and serialization writes it
  /// back.
  public static let attachment = DynamicMapping<Attachment> {
    Match("type", equals: "photo", photo, case: Attachment.photo) {
      if case .photo(let photo) = $0 { photo } else { nil }
    }
    Match("type", equals: "link", link, case: Attachment.link) {
      if case .link(let link) = $0 { link } else { nil }
    }
    Match("type", equals: "poll", poll, case: Attachment.poll) {
      if case .poll(let poll) = $0 { poll } else { nil }
    }
  }

  /// A post, with its date in a custom format and its tags in one comma-separated string.
  public static let post = Mapping(Post.init) {
    Attribute("id", \.id)
    Attribute("text", \.text)
    Attribute("posted_at", \.postedAt, .date(format: "dd/MM/yyyy HH:mm"))
    Relationship("author", \.author, member)
    Attribute("tags", \.tags, .separated(by: ","), default: [])
    Attribute("stats.likes", \.likes, default: 0)
    Relationship("attachments", \.attachments, attachment).optional()
  }

  /// The post mapping with validation: tags are lowercased (replace), a negative like count is
  /// rejected (the post keeps its value), an empty text fails the post.
  public static let moderatedPost = Mapping(Post.init) {
    Attribute("id", \.id)
    Attribute("text", \.text).validate { text in
      if text.trimmingCharacters(in: .whitespaces).isEmpty { throw ModerationError.emptyText }
      return true
    }
    Relationship("author", \.author, member)
    Attribute("tags", \.tags, .separated(by: ","), default: []).validate { tags in
      tags = tags.map { $0.lowercased() }
      return true
    }
    Attribute("stats.likes", \.likes, default: 0).validate("likes cannot be negative") { $0 >= 0 }
  }

  /// A profile whose user name is the dictionary key: `{"ann": {"display_name": …}}`; the
  /// join date is read and written as a plain `yyyy-MM-dd` date.
  public static let profile = Mapping(Profile.init) {
    KeyAttribute("username", \.username)
    Attribute("(username).display_name", \.displayName)
    Attribute("(username).followers", \.followers, default: 0)
    Attribute("(username).joined", \.joined).dateFormats([.pattern("yyyy-MM-dd")])
  }

  /// The whole timeline payload.
  public static let timeline = Mapping(Timeline.init) {
    Attribute("title", \.title)
    Attribute("generated_at", \.generatedAt)
    Relationship("posts", \.posts, post)
    Relationship("users", \.profiles, profile).optional()
  }

  /// The mapper's routes for a timeline payload: the timeline itself, plus the built-in
  /// `error`/`errors` routes a server uses for its error messages.
  public static let provider = MappingProvider {
    Route("", timeline, name: "timeline")
  }
}

/// Why the moderated post mapping fails a post.
public enum ModerationError: Error, CustomStringConvertible {
  case emptyText
  public var description: String { "a post needs some text" }
}
