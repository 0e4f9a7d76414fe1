import Foundation

/// The showcase's models: plain Swift structs and an enum, with no protocol to adopt and no
/// `init(from:)` to write. Every stored property has a default so `Type.init` makes a blank
/// instance that the mappings fill in.

/// A timeline: when it was generated, its posts, and the profiles of the people who posted.
public struct Timeline: Equatable, Sendable {
  public var title = ""
  public var generatedAt: Date?
  public var posts: [Post] = []
  /// Read from a dictionary keyed by user name (`{"ann": {...}, "bob": {...}}`), in payload order.
  public var profiles: [Profile] = []

  public init() {}
}

/// One post of the timeline.
public struct Post: Equatable, Sendable {
  public var id = 0
  public var text = ""
  /// Written as `dd/MM/yyyy HH:mm` in the payload.
  public var postedAt = Date(timeIntervalSince1970: 0)
  public var author = Member()
  /// Written as one comma-separated string in the payload.
  public var tags: [String] = []
  public var likes = 0
  /// Photos, link previews and polls, chosen by the payload's `type`.
  public var attachments: [Attachment] = []

  public init() {}
}

/// The author of a post.
public struct Member: Equatable, Sendable {
  public var id = 0
  public var name = ""
  public var handle = ""

  public init() {}
}

/// A post's attachment: the payload's `type` says which case it is.
public enum Attachment: Equatable, Sendable {
  case photo(Photo)
  case link(LinkPreview)
  case poll(Poll)
}

/// A photo attachment (`"type": "photo"`).
public struct Photo: Equatable, Sendable {
  public var url = URL(fileURLWithPath: "/")
  public var width = 0
  public var height = 0
  public var caption: String?

  public init() {}
}

/// A link preview attachment (`"type": "link"`).
public struct LinkPreview: Equatable, Sendable {
  public var url = URL(fileURLWithPath: "/")
  public var title = ""

  public init() {}
}

/// A poll attachment (`"type": "poll"`).
public struct Poll: Equatable, Sendable {
  public var question = ""
  public var options: [String] = []
  public var isClosed = false

  public init() {}
}

/// A user's profile, read from a dictionary whose key is the user name.
public struct Profile: Equatable, Sendable {
  /// The dictionary key.
  public var username = ""
  public var displayName = ""
  public var followers = 0
  public var joined: Date?

  public init() {}
}
