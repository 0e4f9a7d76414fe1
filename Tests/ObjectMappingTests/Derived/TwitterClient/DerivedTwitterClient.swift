import Foundation
import ObjectMapping

/// The search client of `TwitterClientTests`, written with mappings derived from the models'
/// `Codable` conformances: the same models, and only what differs from them (issue 41's line
/// count).
enum DerivedTwitter {
  struct SearchResult: Codable, Equatable {
    var statuses: [Status]
    var searchMetadata: SearchMetadata
  }

  struct SearchMetadata: Codable, Equatable {
    var completedIn: Double
    var maxId: Int
    var query: String
    var count: Int
  }

  struct Status: Codable, Equatable {
    var id: Int
    var text: String
    var createdAt: Date
    var source: String
    var truncated: Bool
    var inReplyToStatusId: Int?
    var inReplyToScreenName: String?
    var user: User
    var retweetCount: Int
    var favoriteCount: Int
    var favorited: Bool
    var retweeted: Bool
    var lang: String
    var resultType: String
    var languageCode: String
    var hashtags: [String]
    var mentions: [Mention]
  }

  struct User: Codable, Equatable {
    var id: Int
    var name: String
    var screenName: String
    var location: String
    var description: String
    var isProtected: Bool
    var followersCount: Int
    var friendsCount: Int
    var createdAt: Date
    var verified: Bool
    var statusesCount: Int
  }

  struct Mention: Codable, Equatable {
    var screenName: String
    var name: String
    var id: Int
    var indices: [Int]
  }

  static let search = Mapping(SearchResult.self, keys: .snakeCase) {
    Relationship(\.statuses, status)
  }
  static let options = MappingOptions(dateFormats: [.pattern("EEE MMM dd HH:mm:ss Z yyyy")])
  static let status = Mapping(Status.self, keys: .snakeCase) {
    Attribute("metadata.result_type", \.resultType)
    Attribute("metadata.iso_language_code", \.languageCode)
    Attribute("entities.hashtags.text", \.hashtags)
    Relationship("entities.user_mentions", \.mentions, Mapping(Mention.self, keys: .snakeCase))
    Relationship(
      \.user, Mapping(User.self, keys: .snakeCase) { Attribute("protected", \.isProtected) })
  }
}
