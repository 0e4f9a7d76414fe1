import Foundation
import ObjectMapping
import ObjectMappingTestSupport
import ObjectMappingTesting
import Testing

/// The twitter and citm corpora mapped into typed models that cover most of their fields, checked
/// against values read from the files themselves (with python3 while writing the test).
@Suite(.enabled(if: TestData.isAvailable, "needs ../shared/data (or OBJECT_MAPPING_DATA)"))
struct CorpusMappingTests {
  // MARK: twitter.json

  struct Search: Equatable {
    var statuses: [Status] = []
    var metadata = SearchMetadata()

    static let mapping = Mapping(Search.init) {
      Relationship("statuses", \.statuses, Status.mapping)
      Relationship("search_metadata", \.metadata, SearchMetadata.mapping)
    }
  }

  struct SearchMetadata: Equatable {
    var completedIn = 0.0
    var maxID: Int64 = 0
    var maxIDString = ""
    var nextResults = ""
    var query = ""
    var refreshURL = ""
    var count = 0
    var sinceID: Int64 = 0
    var sinceIDString = ""

    static let mapping = Mapping(SearchMetadata.init) {
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
  }

  struct Status: Equatable {
    var resultType = ""
    var isoLanguageCode = ""
    var createdAt = Date(timeIntervalSince1970: 0)
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
    var user = User()
    var geo: Node = nil
    var coordinates: Node = nil
    var place: Node = nil
    var contributors: Node = nil
    var retweetCount = 0
    var favoriteCount = 0
    var entities = Entities()
    var favorited = false
    var retweeted = false
    var possiblySensitive: Bool?
    var lang = ""
    /// A struct cannot hold an optional of itself directly; the wrapper adds the indirection.
    @Indirect var retweetedStatus: Status? = nil

    static let mapping: Mapping<Status> = Mapping(Status.init) {
      Attribute("metadata.result_type", \.resultType)
      Attribute("metadata.iso_language_code", \.isoLanguageCode)
      Attribute("created_at", \.createdAt, .date(format: "EEE MMM dd HH:mm:ss Z yyyy"))
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
      Relationship("user", \.user, User.mapping)
      Attribute("geo", \.geo)
      Attribute("coordinates", \.coordinates)
      Attribute("place", \.place)
      Attribute("contributors", \.contributors)
      Attribute("retweet_count", \.retweetCount)
      Attribute("favorite_count", \.favoriteCount)
      Relationship("entities", \.entities, Entities.mapping)
      Attribute("favorited", \.favorited)
      Attribute("retweeted", \.retweeted)
      Attribute("possibly_sensitive", \.possiblySensitive)
      Attribute("lang", \.lang)
      Relationship("retweeted_status", \.retweetedStatus, lazy: { Status.mapping })
    }
  }

  struct User: Equatable {
    var id: Int64 = 0
    var idString = ""
    var name = ""
    var screenName = ""
    var location = ""
    var description = ""
    var url: URL?
    var urlEntities: [URLEntity]?
    var descriptionURLEntities: [URLEntity] = []
    var protected = false
    var followersCount = 0
    var friendsCount = 0
    var listedCount = 0
    var createdAt = Date(timeIntervalSince1970: 0)
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
    var profileBackgroundImageURL: URL?
    var profileBackgroundImageURLHTTPS: URL?
    var profileBackgroundTile = false
    var profileImageURL: URL?
    var profileImageURLHTTPS: URL?
    var profileBannerURL: URL?
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

    /// Reads `created_at` with a per-mapping date format instead of a transform.
    static let mapping = Mapping(User.init) {
      Attribute("id", \.id)
      Attribute("id_str", \.idString)
      Attribute("name", \.name)
      Attribute("screen_name", \.screenName)
      Attribute("location", \.location)
      Attribute("description", \.description)
      Attribute("url", \.url)
      Relationship("entities.url.urls", \.urlEntities, URLEntity.mapping)
      Relationship("entities.description.urls", \.descriptionURLEntities, URLEntity.mapping)
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
    .dateFormats([.pattern("EEE MMM dd HH:mm:ss Z yyyy")])
  }

  struct Entities: Equatable {
    var hashtags: [Hashtag] = []
    var symbols: [Hashtag] = []
    var urls: [URLEntity] = []
    var userMentions: [UserMention] = []
    var media: [Media]?

    static let mapping = Mapping(Entities.init) {
      Relationship("hashtags", \.hashtags, Hashtag.mapping)
      Relationship("symbols", \.symbols, Hashtag.mapping)
      Relationship("urls", \.urls, URLEntity.mapping)
      Relationship("user_mentions", \.userMentions, UserMention.mapping)
      Relationship("media", \.media, Media.mapping)
    }
  }

  struct Hashtag: Equatable {
    var text = ""
    var indices: [Int] = []

    static let mapping = Mapping(Hashtag.init) {
      Attribute("text", \.text)
      Attribute("indices", \.indices)
    }
  }

  struct URLEntity: Equatable {
    var url: URL?
    var expandedURL: URL?
    var displayURL = ""
    var indices: [Int] = []

    static let mapping = Mapping(URLEntity.init) {
      Attribute("url", \.url).required()
      Attribute("expanded_url", \.expandedURL)
      Attribute("display_url", \.displayURL)
      Attribute("indices", \.indices)
    }
  }

  struct UserMention: Equatable {
    var screenName = ""
    var name = ""
    var id: Int64 = 0
    var idString = ""
    var indices: [Int] = []

    static let mapping = Mapping(UserMention.init) {
      Attribute("screen_name", \.screenName)
      Attribute("name", \.name)
      Attribute("id", \.id)
      Attribute("id_str", \.idString)
      Attribute("indices", \.indices)
    }
  }

  struct Media: Equatable {
    var id: Int64 = 0
    var idString = ""
    var indices: [Int] = []
    var mediaURL: URL?
    var mediaURLHTTPS: URL?
    var url = ""
    var displayURL = ""
    var expandedURL = ""
    var type = ""
    var sizes: [String: MediaSize] = [:]
    var sourceStatusID: Int64?
    var sourceStatusIDString: String?

    static let mapping = Mapping(Media.init) {
      Attribute("id", \.id)
      Attribute("id_str", \.idString)
      Attribute("indices", \.indices)
      Attribute("media_url", \.mediaURL)
      Attribute("media_url_https", \.mediaURLHTTPS)
      Attribute("url", \.url)
      Attribute("display_url", \.displayURL)
      Attribute("expanded_url", \.expandedURL)
      Attribute("type", \.type)
      Relationship("sizes", \.sizes, MediaSize.mapping)
      Attribute("source_status_id", \.sourceStatusID)
      Attribute("source_status_id_str", \.sourceStatusIDString)
    }
  }

  struct MediaSize: Equatable {
    var width = 0
    var height = 0
    var resize = ""

    static let mapping = Mapping(MediaSize.init) {
      Attribute("w", \.width)
      Attribute("h", \.height)
      Attribute("resize", \.resize)
    }
  }

  @Test func twitterSearchMapsIntoTypedModels() throws {
    let search = try Search.mapping.map(TestData.data("json-benchmark/twitter.json"))

    #expect(search.metadata.completedIn == 0.087)
    #expect(search.metadata.maxID == 505_874_924_095_815_700)
    #expect(search.metadata.maxIDString == "505874924095815681")
    #expect(search.metadata.query == "%E4%B8%80")
    #expect(search.metadata.count == 100)
    #expect(search.metadata.sinceIDString == "0")
    #expect(
      search.metadata.nextResults
        == "?max_id=505874847260352512&q=%E4%B8%80&count=100&include_entities=1")

    #expect(search.statuses.count == 100)
    let first = try #require(search.statuses.first)
    // The file's numeric ids were rounded by a JavaScript writer; both are kept exactly.
    #expect(first.id == 505_874_924_095_815_700)
    #expect(first.idString == "505874924095815681")
    #expect(first.createdAt == utc(2014, 8, 31, 0, 29, 15))
    #expect(first.resultType == "recent")
    #expect(first.isoLanguageCode == "ja")
    #expect(first.text.hasPrefix("@aym0566x \n\n名前:前田あゆみ"))
    #expect(first.source.hasSuffix(">Twitter for iPhone</a>"))
    #expect(first.inReplyToStatusID == nil)
    #expect(first.inReplyToUserID == 866_260_188)
    #expect(first.inReplyToUserIDString == "866260188")
    #expect(first.inReplyToScreenName == "aym0566x")
    #expect(first.geo == .null && first.place == .null)
    #expect(first.possiblySensitive == nil)
    #expect(first.retweetedStatus == nil)
    #expect(
      first.entities.userMentions == [
        UserMention(
          screenName: "aym0566x", name: "前田あゆみ", id: 866_260_188, idString: "866260188",
          indices: [0, 9])
      ])

    let user = first.user
    #expect(user.id == 1_186_275_104)
    #expect(user.screenName == "ayuu0123")
    #expect(user.name == "AYUMI")
    #expect(user.url == nil)
    #expect(user.urlEntities == nil)
    #expect(user.descriptionURLEntities.isEmpty)
    #expect(user.followersCount == 262)
    #expect(user.friendsCount == 252)
    #expect(user.statusesCount == 1769)
    #expect(user.createdAt == utc(2013, 2, 16, 13, 40, 25))
    #expect(user.utcOffset == nil)
    #expect(user.profileBackgroundColor == "C0DEED")
    #expect(
      user.profileBannerURL?.absoluteString
        == "https://pbs.twimg.com/profile_banners/1186275104/1409318784")
    #expect(user.profileUseBackgroundImage && user.defaultProfile && !user.defaultProfileImage)

    // Statuses[1] retweets KATANA77's status, which carries a photo.
    let retweet = search.statuses[1]
    #expect(retweet.idString == "505874922023837696")
    #expect(retweet.user.screenName == "yuttari1998")
    #expect(
      retweet.user.urlEntities?.first?.expandedURL?.absoluteString
        == "http://twpf.jp/yuttari1998")
    let original = try #require(retweet.retweetedStatus)
    #expect(original.id == 505_864_943_636_197_400)
    #expect(original.idString == "505864943636197376")
    #expect(original.user.screenName == "KATANA77")
    #expect(original.retweetCount == 82)
    #expect(original.createdAt == utc(2014, 8, 30, 23, 49, 35))
    #expect(original.retweetedStatus == nil)
    let photo = try #require(original.entities.media?.first)
    #expect(photo.idString == "505864942575034369")
    #expect(photo.type == "photo")
    #expect(photo.indices == [13, 35])
    #expect(photo.sourceStatusID == nil)
    // The retweet repeats the photo at other indices and names the status it came from.
    let repeated = try #require(retweet.entities.media?.first)
    #expect(repeated.indices == [27, 49])
    #expect(repeated.sourceStatusIDString == "505864943636197376")
    #expect(repeated.sourceStatusID == 505_864_943_636_197_400)
    #expect(photo.sizes["large"] == MediaSize(width: 765, height: 432, resize: "fit"))
    #expect(photo.sizes.count == 4)

    let hashtagged = search.statuses[4]
    #expect(hashtagged.idString == "505874918198624256")
    #expect(hashtagged.entities.hashtags == [Hashtag(text: "LEDカツカツ選手権", indices: [17, 28])])

    let linked = search.statuses[14]
    #expect(
      linked.entities.urls == [
        URLEntity(
          url: URL(string: "http://t.co/SXoYWH98as"),
          expandedURL: URL(string: "http://twitter.com/UARROW_Y/status/505871779949051904/photo/1"),
          displayURL: "pic.twitter.com/SXoYWH98as", indices: [29, 51])
      ])

    #expect(search.statuses[2].user.utcOffset == 32_400)
    #expect(search.statuses[2].user.timeZone == "Osaka")

    let last = try #require(search.statuses.last)
    #expect(last.idString == "505874847260352513")
    #expect(last.user.screenName == "2no38mae")
    #expect(last.createdAt == utc(2014, 8, 31, 0, 28, 56))

    // Totals over the 100 statuses (their retweeted statuses not included).
    #expect(search.statuses.count { $0.retweetedStatus != nil } == 73)
    #expect(search.statuses.count { $0.possiblySensitive != nil } == 15)
    #expect(search.statuses.count { $0.user.profileBannerURL != nil } == 86)
    #expect(search.statuses.reduce(0) { $0 + $1.user.followersCount } == 52_184)
    #expect(search.statuses.reduce(0) { $0 + $1.entities.hashtags.count } == 8)
    #expect(search.statuses.reduce(0) { $0 + $1.entities.userMentions.count } == 87)
    #expect(search.statuses.reduce(0) { $0 + $1.entities.urls.count } == 13)
    #expect(search.statuses.reduce(0) { $0 + ($1.entities.media?.count ?? 0) } == 6)
    #expect(Set(search.statuses.map(\.lang)) == ["ja", "zh"])
  }

  // MARK: citm_catalog.json

  struct Catalog: Equatable {
    var areaNames: [String: String] = [:]
    var audienceSubCategoryNames: [String: String] = [:]
    var blockNames: [String: String] = [:]
    var events: [String: Event] = [:]
    var performances: [Performance] = []
    var seatCategoryNames: [String: String] = [:]
    var subTopicNames: [String: String] = [:]
    var subjectNames: [String: String] = [:]
    var topicNames: [String: String] = [:]
    var topicSubTopics: [String: [Int]] = [:]
    var venueNames: [String: String] = [:]

    static let mapping = Mapping(Catalog.init) {
      Attribute("areaNames", \.areaNames)
      Attribute("audienceSubCategoryNames", \.audienceSubCategoryNames)
      Attribute("blockNames", \.blockNames)
      Relationship("events", \.events, Event.mapping)
      Relationship("performances", \.performances, Performance.mapping)
      Attribute("seatCategoryNames", \.seatCategoryNames)
      Attribute("subTopicNames", \.subTopicNames)
      Attribute("subjectNames", \.subjectNames)
      Attribute("topicNames", \.topicNames)
      Attribute("topicSubTopics", \.topicSubTopics)
      Attribute("venueNames", \.venueNames)
    }
  }

  struct Event: Equatable {
    var id = 0
    var name = ""
    var description: String?
    var logo: String?
    var subtitle: String?
    var subjectCode: String?
    var subTopicIDs: [Int] = []
    var topicIDs: [Int] = []

    static let mapping = Mapping(Event.init) {
      Attribute("id", \.id)
      Attribute("name", \.name)
      Attribute("description", \.description)
      Attribute("logo", \.logo)
      Attribute("subtitle", \.subtitle)
      Attribute("subjectCode", \.subjectCode)
      Attribute("subTopicIds", \.subTopicIDs)
      Attribute("topicIds", \.topicIDs)
    }
  }

  struct Performance: Equatable {
    var id = 0
    var eventID = 0
    var name: String?
    var logo: String?
    var seatMapImage: String?
    var start = Date(timeIntervalSince1970: 0)
    var venueCode = ""
    var prices: [Price] = []
    var seatCategories: [SeatCategory] = []

    static let mapping = Mapping(Performance.init) {
      Attribute("id", \.id)
      Attribute("eventId", \.eventID)
      Attribute("name", \.name)
      Attribute("logo", \.logo)
      Attribute("seatMapImage", \.seatMapImage)
      Attribute("start", \.start, .epochMilliseconds)
      Attribute("venueCode", \.venueCode)
      Relationship("prices", \.prices, Price.mapping)
      Relationship("seatCategories", \.seatCategories, SeatCategory.mapping)
    }
  }

  struct Price: Equatable {
    var amount: Decimal = 0
    var audienceSubCategoryID = 0
    var seatCategoryID = 0

    static let mapping = Mapping(Price.init) {
      Attribute("amount", \.amount)
      Attribute("audienceSubCategoryId", \.audienceSubCategoryID)
      Attribute("seatCategoryId", \.seatCategoryID)
    }
  }

  struct SeatCategory: Equatable {
    var seatCategoryID = 0
    var areas: [Area] = []

    static let mapping = Mapping(SeatCategory.init) {
      Attribute("seatCategoryId", \.seatCategoryID)
      Relationship("areas", \.areas, Area.mapping)
    }
  }

  struct Area: Equatable {
    var areaID = 0
    var blockIDs: [Int] = []

    static let mapping = Mapping(Area.init) {
      Attribute("areaId", \.areaID)
      Attribute("blockIds", \.blockIDs)
    }
  }

  @Test func citmCatalogMapsIntoTypedModels() throws {
    let catalog = try Catalog.mapping.map(TestData.data("json-benchmark/citm_catalog.json"))

    #expect(catalog.areaNames.count == 17)
    #expect(catalog.areaNames["205705993"] == "Arrière-scène central")
    #expect(catalog.areaNames["205705999"] == "1er balcon bergerie cour")
    #expect(catalog.audienceSubCategoryNames == ["337100890": "Abonné"])
    #expect(catalog.blockNames.isEmpty && catalog.subjectNames.isEmpty)
    #expect(catalog.seatCategoryNames.count == 64)
    #expect(catalog.seatCategoryNames["338937295"] == "1ère catégorie")
    #expect(catalog.subTopicNames.count == 19)
    #expect(catalog.subTopicNames["337184269"] == "Jazz")
    #expect(
      catalog.topicNames == [
        "107888604": "Activité", "324846098": "Type de public", "324846099": "Genre",
        "324846100": "Formations musicales",
      ])
    #expect(catalog.topicSubTopics["107888604"] == [337_184_283, 337_184_267])
    #expect(catalog.topicSubTopics["324846099"]?.count == 11)
    #expect(catalog.venueNames == ["PLEYEL_PLEYEL": "Salle Pleyel"])

    #expect(catalog.events.count == 184)
    #expect(
      catalog.events["138586341"]
        == Event(
          id: 138_586_341, name: "30th Anniversary Tour", subTopicIDs: [337_184_269, 337_184_283],
          topicIDs: [324_846_099, 107_888_604]))
    #expect(catalog.events["138586345"]?.name == "Berliner Philharmoniker")
    #expect(catalog.events["138586345"]?.logo == "/images/UE0AAAAACEKo6QAAAAZDSVRN")
    #expect(catalog.events["342742596"]?.name == "event secret 6")
    #expect(catalog.events.values.count { $0.logo == nil } == 90)
    #expect(catalog.events.values.allSatisfy { $0.description == nil && $0.subtitle == nil })
    #expect(catalog.events.allSatisfy { key, event in key == String(event.id) })

    #expect(catalog.performances.count == 243)
    let first = try #require(catalog.performances.first)
    #expect(first.id == 339_887_544)
    #expect(first.eventID == 138_586_341)
    #expect(first.name == nil && first.logo == nil && first.seatMapImage == nil)
    #expect(first.start == utc(2013, 7, 1, 18, 0, 0))
    #expect(first.venueCode == "PLEYEL_PLEYEL")
    #expect(
      first.prices == [
        Price(amount: 90_250, audienceSubCategoryID: 337_100_890, seatCategoryID: 338_937_295),
        Price(amount: 66_500, audienceSubCategoryID: 337_100_890, seatCategoryID: 338_937_296),
      ])
    #expect(first.seatCategories.map(\.seatCategoryID) == [338_937_295, 338_937_296])
    #expect(first.seatCategories.map(\.areas.count) == [11, 16])
    #expect(first.seatCategories[0].areas.first == Area(areaID: 205_705_999, blockIDs: []))

    let last = try #require(catalog.performances.last)
    #expect(last.id == 138_586_999)
    #expect(last.eventID == 138_586_997)
    #expect(last.prices.map(\.amount) == [123_500, 85_500, 61_750, 38_000, 10_000])
    #expect(last.start == utc(2014, 7, 3, 18, 0, 0))

    let prices = catalog.performances.flatMap(\.prices)
    #expect(prices.count == 907)
    #expect(prices.map(\.amount).max() == 180_500)
    #expect(prices.map(\.amount).min() == 10_000)
    let seatCategories = catalog.performances.flatMap(\.seatCategories)
    #expect(seatCategories.count == 907)
    #expect(seatCategories.map(\.areas.count).reduce(0, +) == 8685)
    #expect(catalog.performances.count { $0.logo != nil } == 108)
    #expect(catalog.performances.allSatisfy { catalog.events[String($0.eventID)] != nil })
  }
}

extension CorpusMappingTests {
  // Issue 5: map -> serialize -> map gives equal models, through both JSON paths (direct bytes
  // and the Node writer) and the value law of ObjectMappingTesting for each status.
  @Test func twitterModelsSurviveSerialization() throws {
    let data = try TestData.data("json-benchmark/twitter.json")
    let search = try Search.mapping.map(data)
    let json = try Search.mapping.serialize(search)
    #expect(try Search.mapping.map(json) == search)
    let sorted = try Search.mapping.serialize(search, as: .json(.sortedKeys))
    #expect(try Search.mapping.map(sorted) == search)
    let laws = RoundTripLaws(Status.mapping)
    for status in search.statuses { try laws.checkValue(status) }
  }

  @Test func citmModelsSurviveSerialization() throws {
    let data = try TestData.data("json-benchmark/citm_catalog.json")
    let catalog = try Catalog.mapping.map(data)
    let json = try Catalog.mapping.serialize(catalog)
    #expect(try Catalog.mapping.map(json) == catalog)
    try RoundTripLaws(Catalog.mapping).checkValue(catalog)
  }
}

/// Stores a value out of line, so a struct can hold an optional of its own type
/// (`retweeted_status`).
@propertyWrapper
struct Indirect<Value> {
  private indirect enum Storage {
    case value(Value)
  }

  private var storage: Storage

  init(wrappedValue: Value) {
    storage = .value(wrappedValue)
  }

  var wrappedValue: Value {
    get {
      switch storage {
      case .value(let value): return value
      }
    }
    set { storage = .value(newValue) }
  }
}

extension Indirect: Equatable where Value: Equatable {
  static func == (lhs: Self, rhs: Self) -> Bool { lhs.wrappedValue == rhs.wrappedValue }
}
