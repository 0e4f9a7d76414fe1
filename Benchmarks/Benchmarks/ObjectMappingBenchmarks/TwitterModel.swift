import ObjectMapping

// The twitter.json model (a search result of 100 statuses). Each type is one struct that both
// sides decode into: `Decodable` through explicit `CodingKeys` (what JSONDecoder uses) and an
// ObjectMapping `Mapping` with the same keys, so `Decode.twitter.*` compares the two decoders
// on the same shape. Properties have defaults so `Mapping(Type.init)` can make fresh instances.

struct TwitterSearch: Codable, Equatable {
  var statuses: [TwitterStatus] = []
  var searchMetadata = TwitterSearchMetadata()

  enum CodingKeys: String, CodingKey {
    case statuses
    case searchMetadata = "search_metadata"
  }
}

struct TwitterSearchMetadata: Codable, Equatable {
  var completedIn = 0.0
  var maxID: Int64 = 0
  var maxIDString = ""
  var nextResults = ""
  var query = ""
  var refreshURL = ""
  var count = 0
  var sinceID: Int64 = 0
  var sinceIDString = ""

  enum CodingKeys: String, CodingKey {
    case completedIn = "completed_in"
    case maxID = "max_id"
    case maxIDString = "max_id_str"
    case nextResults = "next_results"
    case query
    case refreshURL = "refresh_url"
    case count
    case sinceID = "since_id"
    case sinceIDString = "since_id_str"
  }
}

struct TwitterStatus: Codable, Equatable {
  var metadata = TwitterStatusMetadata()
  var createdAt = ""
  var id: Int64 = 0
  var idString = ""
  var text = ""
  var source = ""
  var truncated = false
  var inReplyToStatusID: Int64?
  var inReplyToStatusIDString: String?
  var inReplyToUserID: Int64?
  var inReplyToUserIDString: String?
  var inReplyToScreenName: String?
  var user = TwitterUser()
  var retweetCount = 0
  var favoriteCount = 0
  var entities = TwitterEntities()
  var favorited = false
  var retweeted = false
  var possiblySensitive: Bool?
  var lang = ""
  /// Storage of ``retweetedStatus``: a struct cannot hold itself, so the retweet is boxed.
  var retweetedStatusBox: TwitterStatusBox?

  /// The retweeted status (itself a status, decoded recursively).
  var retweetedStatus: TwitterStatus? {
    get { retweetedStatusBox?.status }
    set { retweetedStatusBox = newValue.map(TwitterStatusBox.init) }
  }

  enum CodingKeys: String, CodingKey {
    case metadata
    case createdAt = "created_at"
    case id
    case idString = "id_str"
    case text
    case source
    case truncated
    case inReplyToStatusID = "in_reply_to_status_id"
    case inReplyToStatusIDString = "in_reply_to_status_id_str"
    case inReplyToUserID = "in_reply_to_user_id"
    case inReplyToUserIDString = "in_reply_to_user_id_str"
    case inReplyToScreenName = "in_reply_to_screen_name"
    case user
    case retweetCount = "retweet_count"
    case favoriteCount = "favorite_count"
    case entities
    case favorited
    case retweeted
    case possiblySensitive = "possibly_sensitive"
    case lang
    case retweetedStatusBox = "retweeted_status"
  }
}

/// The boxed storage of a retweeted status (decoded as the status itself).
final class TwitterStatusBox: Codable, Equatable {
  let status: TwitterStatus

  init(_ status: TwitterStatus) { self.status = status }

  init(from decoder: any Decoder) throws {
    status = try decoder.singleValueContainer().decode(TwitterStatus.self)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(status)
  }

  static func == (lhs: TwitterStatusBox, rhs: TwitterStatusBox) -> Bool {
    lhs.status == rhs.status
  }
}

struct TwitterStatusMetadata: Codable, Equatable {
  var resultType = ""
  var isoLanguageCode = ""

  enum CodingKeys: String, CodingKey {
    case resultType = "result_type"
    case isoLanguageCode = "iso_language_code"
  }
}

struct TwitterUser: Codable, Equatable {
  var id: Int64 = 0
  var idString = ""
  var name = ""
  var screenName = ""
  var location = ""
  var description = ""
  var url: String?
  var entities = TwitterUserEntities()
  var protected = false
  var followersCount = 0
  var friendsCount = 0
  var listedCount = 0
  var createdAt = ""
  var favouritesCount = 0
  var utcOffset: Int?
  var timeZone: String?
  var geoEnabled = false
  var verified = false
  var statusesCount = 0
  var lang = ""
  var contributorsEnabled = false
  var isTranslator = false
  var isTranslationEnabled = false
  var profileBackgroundColor = ""
  var profileBackgroundImageURL = ""
  var profileBackgroundImageURLHTTPS = ""
  var profileBackgroundTile = false
  var profileImageURL = ""
  var profileImageURLHTTPS = ""
  var profileBannerURL: String?
  var profileLinkColor = ""
  var profileSidebarBorderColor = ""
  var profileSidebarFillColor = ""
  var profileTextColor = ""
  var profileUseBackgroundImage = false
  var defaultProfile = false
  var defaultProfileImage = false
  var following = false
  var followRequestSent = false
  var notifications = false

  enum CodingKeys: String, CodingKey {
    case id
    case idString = "id_str"
    case name
    case screenName = "screen_name"
    case location
    case description
    case url
    case entities
    case protected
    case followersCount = "followers_count"
    case friendsCount = "friends_count"
    case listedCount = "listed_count"
    case createdAt = "created_at"
    case favouritesCount = "favourites_count"
    case utcOffset = "utc_offset"
    case timeZone = "time_zone"
    case geoEnabled = "geo_enabled"
    case verified
    case statusesCount = "statuses_count"
    case lang
    case contributorsEnabled = "contributors_enabled"
    case isTranslator = "is_translator"
    case isTranslationEnabled = "is_translation_enabled"
    case profileBackgroundColor = "profile_background_color"
    case profileBackgroundImageURL = "profile_background_image_url"
    case profileBackgroundImageURLHTTPS = "profile_background_image_url_https"
    case profileBackgroundTile = "profile_background_tile"
    case profileImageURL = "profile_image_url"
    case profileImageURLHTTPS = "profile_image_url_https"
    case profileBannerURL = "profile_banner_url"
    case profileLinkColor = "profile_link_color"
    case profileSidebarBorderColor = "profile_sidebar_border_color"
    case profileSidebarFillColor = "profile_sidebar_fill_color"
    case profileTextColor = "profile_text_color"
    case profileUseBackgroundImage = "profile_use_background_image"
    case defaultProfile = "default_profile"
    case defaultProfileImage = "default_profile_image"
    case following
    case followRequestSent = "follow_request_sent"
    case notifications
  }
}

struct TwitterUserEntities: Codable, Equatable {
  var url: TwitterURLList?
  var description = TwitterURLList()
}

struct TwitterURLList: Codable, Equatable {
  var urls: [TwitterURL] = []
}

struct TwitterURL: Codable, Equatable {
  var url = ""
  var expandedURL: String?
  var displayURL: String?
  var indices: [Int] = []

  enum CodingKeys: String, CodingKey {
    case url
    case expandedURL = "expanded_url"
    case displayURL = "display_url"
    case indices
  }
}

struct TwitterEntities: Codable, Equatable {
  var hashtags: [TwitterHashtag] = []
  var symbols: [TwitterHashtag] = []
  var urls: [TwitterURL] = []
  var userMentions: [TwitterUserMention] = []
  var media: [TwitterMedia]?

  enum CodingKeys: String, CodingKey {
    case hashtags
    case symbols
    case urls
    case userMentions = "user_mentions"
    case media
  }
}

struct TwitterHashtag: Codable, Equatable {
  var text = ""
  var indices: [Int] = []
}

struct TwitterUserMention: Codable, Equatable {
  var screenName = ""
  var name = ""
  var id: Int64 = 0
  var idString = ""
  var indices: [Int] = []

  enum CodingKeys: String, CodingKey {
    case screenName = "screen_name"
    case name
    case id
    case idString = "id_str"
    case indices
  }
}

struct TwitterMedia: Codable, Equatable {
  var id: Int64 = 0
  var idString = ""
  var indices: [Int] = []
  var mediaURL = ""
  var mediaURLHTTPS = ""
  var url = ""
  var displayURL = ""
  var expandedURL = ""
  var type = ""
  var sizes = TwitterMediaSizes()
  var sourceStatusID: Int64?
  var sourceStatusIDString: String?

  enum CodingKeys: String, CodingKey {
    case id
    case idString = "id_str"
    case indices
    case mediaURL = "media_url"
    case mediaURLHTTPS = "media_url_https"
    case url
    case displayURL = "display_url"
    case expandedURL = "expanded_url"
    case type
    case sizes
    case sourceStatusID = "source_status_id"
    case sourceStatusIDString = "source_status_id_str"
  }
}

struct TwitterMediaSizes: Codable, Equatable {
  var medium = TwitterMediaSize()
  var small = TwitterMediaSize()
  var thumb = TwitterMediaSize()
  var large = TwitterMediaSize()
}

struct TwitterMediaSize: Codable, Equatable {
  var w = 0
  var h = 0
  var resize = ""
}

// MARK: - Mappings (the same keys as the CodingKeys above)

enum TwitterMappings {
  static let search = Mapping(TwitterSearch.init) {
    Relationship("statuses", \.statuses, status)
    Relationship("search_metadata", \.searchMetadata, searchMetadata)
  }

  static let searchMetadata = Mapping(TwitterSearchMetadata.init) {
    Attribute("completed_in", \.completedIn)
    Attribute("max_id", \.maxID)
    Attribute("max_id_str", \.maxIDString)
    Attribute("next_results", \.nextResults)
    Attribute("query", \.query)
    Attribute("refresh_url", \.refreshURL)
    Attribute("count", \.count)
    Attribute("since_id", \.sinceID)
    Attribute("since_id_str", \.sinceIDString)
  }

  static let status: Mapping<TwitterStatus> = Mapping(TwitterStatus.init) {
    Relationship("metadata", \.metadata, statusMetadata)
    Attribute("created_at", \.createdAt)
    Attribute("id", \.id)
    Attribute("id_str", \.idString)
    Attribute("text", \.text)
    Attribute("source", \.source)
    Attribute("truncated", \.truncated)
    Attribute("in_reply_to_status_id", \.inReplyToStatusID)
    Attribute("in_reply_to_status_id_str", \.inReplyToStatusIDString)
    Attribute("in_reply_to_user_id", \.inReplyToUserID)
    Attribute("in_reply_to_user_id_str", \.inReplyToUserIDString)
    Attribute("in_reply_to_screen_name", \.inReplyToScreenName)
    Relationship("user", \.user, user)
    Attribute("retweet_count", \.retweetCount)
    Attribute("favorite_count", \.favoriteCount)
    Relationship("entities", \.entities, entities)
    Attribute("favorited", \.favorited)
    Attribute("retweeted", \.retweeted)
    Attribute("possibly_sensitive", \.possiblySensitive)
    Attribute("lang", \.lang)
    Relationship("retweeted_status", \.retweetedStatus, lazy: { TwitterMappings.status })
  }

  static let statusMetadata = Mapping(TwitterStatusMetadata.init) {
    Attribute("result_type", \.resultType)
    Attribute("iso_language_code", \.isoLanguageCode)
  }

  static let user = Mapping(TwitterUser.init) {
    Attribute("id", \.id)
    Attribute("id_str", \.idString)
    Attribute("name", \.name)
    Attribute("screen_name", \.screenName)
    Attribute("location", \.location)
    Attribute("description", \.description)
    Attribute("url", \.url)
    Relationship("entities", \.entities, userEntities)
    Attribute("protected", \.protected)
    Attribute("followers_count", \.followersCount)
    Attribute("friends_count", \.friendsCount)
    Attribute("listed_count", \.listedCount)
    Attribute("created_at", \.createdAt)
    Attribute("favourites_count", \.favouritesCount)
    Attribute("utc_offset", \.utcOffset)
    Attribute("time_zone", \.timeZone)
    Attribute("geo_enabled", \.geoEnabled)
    Attribute("verified", \.verified)
    Attribute("statuses_count", \.statusesCount)
    Attribute("lang", \.lang)
    Attribute("contributors_enabled", \.contributorsEnabled)
    Attribute("is_translator", \.isTranslator)
    Attribute("is_translation_enabled", \.isTranslationEnabled)
    Attribute("profile_background_color", \.profileBackgroundColor)
    Attribute("profile_background_image_url", \.profileBackgroundImageURL)
    Attribute("profile_background_image_url_https", \.profileBackgroundImageURLHTTPS)
    Attribute("profile_background_tile", \.profileBackgroundTile)
    Attribute("profile_image_url", \.profileImageURL)
    Attribute("profile_image_url_https", \.profileImageURLHTTPS)
    Attribute("profile_banner_url", \.profileBannerURL)
    Attribute("profile_link_color", \.profileLinkColor)
    Attribute("profile_sidebar_border_color", \.profileSidebarBorderColor)
    Attribute("profile_sidebar_fill_color", \.profileSidebarFillColor)
    Attribute("profile_text_color", \.profileTextColor)
    Attribute("profile_use_background_image", \.profileUseBackgroundImage)
    Attribute("default_profile", \.defaultProfile)
    Attribute("default_profile_image", \.defaultProfileImage)
    Attribute("following", \.following)
    Attribute("follow_request_sent", \.followRequestSent)
    Attribute("notifications", \.notifications)
  }

  static let userEntities = Mapping(TwitterUserEntities.init) {
    Relationship("url", \.url, urlList)
    Relationship("description", \.description, urlList)
  }

  static let urlList = Mapping(TwitterURLList.init) {
    Relationship("urls", \.urls, url)
  }

  static let url = Mapping(TwitterURL.init) {
    Attribute("url", \.url)
    Attribute("expanded_url", \.expandedURL)
    Attribute("display_url", \.displayURL)
    Attribute("indices", \.indices)
  }

  static let entities = Mapping(TwitterEntities.init) {
    Relationship("hashtags", \.hashtags, hashtag)
    Relationship("symbols", \.symbols, hashtag)
    Relationship("urls", \.urls, url)
    Relationship("user_mentions", \.userMentions, userMention)
    Relationship("media", \.media, media)
  }

  static let hashtag = Mapping(TwitterHashtag.init) {
    Attribute("text", \.text)
    Attribute("indices", \.indices)
  }

  static let userMention = Mapping(TwitterUserMention.init) {
    Attribute("screen_name", \.screenName)
    Attribute("name", \.name)
    Attribute("id", \.id)
    Attribute("id_str", \.idString)
    Attribute("indices", \.indices)
  }

  static let media = Mapping(TwitterMedia.init) {
    Attribute("id", \.id)
    Attribute("id_str", \.idString)
    Attribute("indices", \.indices)
    Attribute("media_url", \.mediaURL)
    Attribute("media_url_https", \.mediaURLHTTPS)
    Attribute("url", \.url)
    Attribute("display_url", \.displayURL)
    Attribute("expanded_url", \.expandedURL)
    Attribute("type", \.type)
    Relationship("sizes", \.sizes, mediaSizes)
    Attribute("source_status_id", \.sourceStatusID)
    Attribute("source_status_id_str", \.sourceStatusIDString)
  }

  static let mediaSizes = Mapping(TwitterMediaSizes.init) {
    Relationship("medium", \.medium, mediaSize)
    Relationship("small", \.small, mediaSize)
    Relationship("thumb", \.thumb, mediaSize)
    Relationship("large", \.large, mediaSize)
  }

  static let mediaSize = Mapping(TwitterMediaSize.init) {
    Attribute("w", \.w)
    Attribute("h", \.h)
    Attribute("resize", \.resize)
  }
}
