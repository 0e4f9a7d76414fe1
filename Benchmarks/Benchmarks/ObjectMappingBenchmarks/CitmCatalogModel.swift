import ObjectMapping

// The citm_catalog.json model: name tables keyed by id, 184 events keyed by id and 243
// performances with their prices and seat categories. One struct per type, decoded by both
// sides (see TwitterModel.swift).

struct CitmCatalog: Codable, Equatable {
  var areaNames: [String: String] = [:]
  var audienceSubCategoryNames: [String: String] = [:]
  var blockNames: [String: String] = [:]
  var events: [String: CitmEvent] = [:]
  var performances: [CitmPerformance] = []
  var seatCategoryNames: [String: String] = [:]
  var subTopicNames: [String: String] = [:]
  var subjectNames: [String: String] = [:]
  var topicNames: [String: String] = [:]
  var topicSubTopics: [String: [Int]] = [:]
  var venueNames: [String: String] = [:]

  enum CodingKeys: String, CodingKey {
    case areaNames
    case audienceSubCategoryNames
    case blockNames
    case events
    case performances
    case seatCategoryNames
    case subTopicNames
    case subjectNames
    case topicNames
    case topicSubTopics
    case venueNames
  }
}

struct CitmEvent: Codable, Equatable {
  var description: String?
  var id = 0
  var logo: String?
  var name = ""
  var subTopicIds: [Int] = []
  var subjectCode: String?
  var subtitle: String?
  var topicIds: [Int] = []

  enum CodingKeys: String, CodingKey {
    case description
    case id
    case logo
    case name
    case subTopicIds
    case subjectCode
    case subtitle
    case topicIds
  }
}

struct CitmPerformance: Codable, Equatable {
  var eventId = 0
  var id = 0
  var logo: String?
  var name: String?
  var prices: [CitmPrice] = []
  var seatCategories: [CitmSeatCategory] = []
  var seatMapImage: String?
  var start: Int64 = 0
  var venueCode = ""

  enum CodingKeys: String, CodingKey {
    case eventId
    case id
    case logo
    case name
    case prices
    case seatCategories
    case seatMapImage
    case start
    case venueCode
  }
}

struct CitmPrice: Codable, Equatable {
  var amount = 0
  var audienceSubCategoryId = 0
  var seatCategoryId = 0

  enum CodingKeys: String, CodingKey {
    case amount
    case audienceSubCategoryId
    case seatCategoryId
  }
}

struct CitmSeatCategory: Codable, Equatable {
  var areas: [CitmArea] = []
  var seatCategoryId = 0

  enum CodingKeys: String, CodingKey {
    case areas
    case seatCategoryId
  }
}

struct CitmArea: Codable, Equatable {
  var areaId = 0
  var blockIds: [Int] = []

  enum CodingKeys: String, CodingKey {
    case areaId
    case blockIds
  }
}

// MARK: - Mappings (the same keys as the CodingKeys above)

enum CitmMappings {
  static let catalog = Mapping(CitmCatalog.init) {
    Attribute("areaNames", \.areaNames)
    Attribute("audienceSubCategoryNames", \.audienceSubCategoryNames)
    Attribute("blockNames", \.blockNames)
    Relationship("events", \.events, event)
    Relationship("performances", \.performances, performance)
    Attribute("seatCategoryNames", \.seatCategoryNames)
    Attribute("subTopicNames", \.subTopicNames)
    Attribute("subjectNames", \.subjectNames)
    Attribute("topicNames", \.topicNames)
    Attribute("topicSubTopics", \.topicSubTopics)
    Attribute("venueNames", \.venueNames)
  }

  static let event = Mapping(CitmEvent.init) {
    Attribute("description", \.description)
    Attribute("id", \.id)
    Attribute("logo", \.logo)
    Attribute("name", \.name)
    Attribute("subTopicIds", \.subTopicIds)
    Attribute("subjectCode", \.subjectCode)
    Attribute("subtitle", \.subtitle)
    Attribute("topicIds", \.topicIds)
  }

  static let performance = Mapping(CitmPerformance.init) {
    Attribute("eventId", \.eventId)
    Attribute("id", \.id)
    Attribute("logo", \.logo)
    Attribute("name", \.name)
    Relationship("prices", \.prices, price)
    Relationship("seatCategories", \.seatCategories, seatCategory)
    Attribute("seatMapImage", \.seatMapImage)
    Attribute("start", \.start)
    Attribute("venueCode", \.venueCode)
  }

  static let price = Mapping(CitmPrice.init) {
    Attribute("amount", \.amount)
    Attribute("audienceSubCategoryId", \.audienceSubCategoryId)
    Attribute("seatCategoryId", \.seatCategoryId)
  }

  static let seatCategory = Mapping(CitmSeatCategory.init) {
    Relationship("areas", \.areas, area)
    Attribute("seatCategoryId", \.seatCategoryId)
  }

  static let area = Mapping(CitmArea.init) {
    Attribute("areaId", \.areaId)
    Attribute("blockIds", \.blockIds)
  }
}
