import Foundation

/// The search client of `TwitterClientTests`, written with `Codable` and `JSONDecoder`: models,
/// coding keys, the hand-written conformances and the decoder's settings (issue 41's line
/// count; keep it the shortest correct `Codable` code for the same checks).
enum CodableTwitter {
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

    enum CodingKeys: String, CodingKey {
      case id, text, createdAt, source, truncated, inReplyToStatusId, inReplyToScreenName, user
      case retweetCount, favoriteCount, favorited, retweeted, lang, metadata, entities
    }
    enum MetadataKeys: String, CodingKey { case resultType, isoLanguageCode }
    enum EntitiesKeys: String, CodingKey { case hashtags, userMentions }
    struct Hashtag: Codable { var text: String }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      id = try container.decode(Int.self, forKey: .id)
      text = try container.decode(String.self, forKey: .text)
      createdAt = try container.decode(Date.self, forKey: .createdAt)
      source = try container.decode(String.self, forKey: .source)
      truncated = try container.decode(Bool.self, forKey: .truncated)
      inReplyToStatusId = try container.decodeIfPresent(Int.self, forKey: .inReplyToStatusId)
      inReplyToScreenName = try container.decodeIfPresent(
        String.self, forKey: .inReplyToScreenName)
      user = try container.decode(User.self, forKey: .user)
      retweetCount = try container.decode(Int.self, forKey: .retweetCount)
      favoriteCount = try container.decode(Int.self, forKey: .favoriteCount)
      favorited = try container.decode(Bool.self, forKey: .favorited)
      retweeted = try container.decode(Bool.self, forKey: .retweeted)
      lang = try container.decode(String.self, forKey: .lang)
      let metadata = try container.nestedContainer(keyedBy: MetadataKeys.self, forKey: .metadata)
      resultType = try metadata.decode(String.self, forKey: .resultType)
      languageCode = try metadata.decode(String.self, forKey: .isoLanguageCode)
      let entities = try container.nestedContainer(keyedBy: EntitiesKeys.self, forKey: .entities)
      hashtags = try entities.decode([Hashtag].self, forKey: .hashtags).map(\.text)
      mentions = try entities.decode([Mention].self, forKey: .userMentions)
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(id, forKey: .id)
      try container.encode(text, forKey: .text)
      try container.encode(createdAt, forKey: .createdAt)
      try container.encode(source, forKey: .source)
      try container.encode(truncated, forKey: .truncated)
      try container.encodeIfPresent(inReplyToStatusId, forKey: .inReplyToStatusId)
      try container.encodeIfPresent(inReplyToScreenName, forKey: .inReplyToScreenName)
      try container.encode(user, forKey: .user)
      try container.encode(retweetCount, forKey: .retweetCount)
      try container.encode(favoriteCount, forKey: .favoriteCount)
      try container.encode(favorited, forKey: .favorited)
      try container.encode(retweeted, forKey: .retweeted)
      try container.encode(lang, forKey: .lang)
      var metadata = container.nestedContainer(keyedBy: MetadataKeys.self, forKey: .metadata)
      try metadata.encode(resultType, forKey: .resultType)
      try metadata.encode(languageCode, forKey: .isoLanguageCode)
      var entities = container.nestedContainer(keyedBy: EntitiesKeys.self, forKey: .entities)
      try entities.encode(hashtags.map(Hashtag.init), forKey: .hashtags)
      try entities.encode(mentions, forKey: .userMentions)
    }
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

    enum CodingKeys: String, CodingKey {
      case id, name, screenName, location, description, followersCount, friendsCount
      case createdAt, verified, statusesCount
      case isProtected = "protected"
    }
  }

  struct Mention: Codable, Equatable {
    var screenName: String
    var name: String
    var id: Int
    var indices: [Int]
  }

  static let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    decoder.dateDecodingStrategy = .formatted(dateFormatter)
    return decoder
  }()

  static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.dateEncodingStrategy = .formatted(dateFormatter)
    return encoder
  }()

  static let dateFormatter: DateFormatter = {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "EEE MMM dd HH:mm:ss Z yyyy"
    return formatter
  }()
}
