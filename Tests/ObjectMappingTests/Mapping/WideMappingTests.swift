import Foundation
import ObjectMapping
import Testing

/// A 30-rule mapping: it keeps the type-checker honest. Its body, `makeMapping()`, is what the
/// type-check timing in the changelog note measures
/// (`-Xfrontend -debug-time-function-bodies`).
@Suite struct WideMappingTests {
  enum Level: String, Equatable, MappableValue {
    case low, medium, high
  }

  enum Color: String, Equatable {
    case red, green, blue
  }

  struct Wide: Equatable {
    var id = 0
    var name = ""
    var score = 0.0
    var active = false
    var createdAt = Date(timeIntervalSince1970: 0)
    var nickname: String?
    var bio = ""
    var tags: [String] = []
    var published = false
    var count = 0
    var updatedAt: Date?
    var seenAt = Date(timeIntervalSince1970: 0)
    var level = Level.low
    var ratio: Float = 0
    var big: Int64 = 0
    var small: UInt8 = 0
    var price: Decimal = 0
    var homepage: URL?
    var uuid = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    var owner = ""
    var priority = 0
    var archived: Bool?
    var weight: Double?
    var flags: [Int] = []
    var labels: Set<String> = []
    var headers: [String: String] = [:]
    var color = Color.red
    var titleLength = 0
    var expiresAt = Date(timeIntervalSince1970: 0)
    var amount = 0.0
  }

  static let mapping = makeMapping()

  private static func makeMapping() -> Mapping<Wide> {
    Mapping(Wide.init) {
      Attribute("id", \.id)
      Attribute("name", \.name)
      Attribute("score", \.score)
      Attribute("active", \.active)
      Attribute("created_at", \.createdAt)
      Attribute("nickname", \.nickname)
      Attribute("bio", \.bio, default: "none")
      Attribute("tags", \.tags, .separated(by: ","))
      Attribute("published", \.published, .boolWords(true: "yes", false: "no"))
      Attribute("count", \.count, .numericString)
      Attribute("updated_at", \.updatedAt, .date(format: "dd/MM/yyyy HH:mm"))
      Attribute("seen_at", \.seenAt, .epochSeconds)
      Attribute("level", \.level)
      Attribute("ratio", \.ratio)
      Attribute("big", \.big)
      Attribute("small", \.small)
      Attribute("price", \.price)
      Attribute("homepage", \.homepage)
      Attribute("uuid", \.uuid)
      Attribute("meta.owner", \.owner)
      Attribute("priority", \.priority, default: 3)
      Attribute("archived", \.archived)
      Attribute("weight", \.weight)
      Attribute("flags", \.flags, default: [])
      Attribute("labels", \.labels)
      Attribute("headers", \.headers)
      Attribute("color", \.color, .rawValue)
      Attribute("title", \.titleLength, decodeOnly: { (title: String) in title.count })
      Attribute("expires_at", \.expiresAt, .epochMilliseconds)
      Attribute("amount", \.amount, .numericString)
    }
  }

  @Test func mapsEveryOneOfThirtyAttributes() throws {
    let json = """
      {"id": 7, "name": "Ann", "score": 9.5, "active": true,
       "created_at": "2011-07-07T04:35:28Z", "nickname": null, "tags": "swift,linux",
       "published": "YES", "count": "42", "updated_at": "01/03/2012 10:30",
       "seen_at": 1310013328, "level": "high", "ratio": 0.25, "big": 69726278940360707,
       "small": 255, "price": 0.7689993, "homepage": "https://example.com/ann",
       "uuid": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "meta": {"owner": "ops"},
       "archived": false, "weight": 61.5, "flags": [1, 2, 3], "labels": ["a", "b", "a"],
       "headers": {"accept": "json"}, "color": "blue", "title": "Hello",
       "expires_at": 1386786787000, "amount": "12.5"}
      """
    let wide = try Self.mapping.map(json)
    #expect(wide.id == 7)
    #expect(wide.name == "Ann")
    #expect(wide.score == 9.5)
    #expect(wide.active)
    #expect(wide.createdAt == Date(timeIntervalSince1970: 1_310_013_328))
    #expect(wide.nickname == nil)
    #expect(wide.bio == "none")
    #expect(wide.tags == ["swift", "linux"])
    #expect(wide.published)
    #expect(wide.count == 42)
    #expect(wide.updatedAt == utc(2012, 3, 1, 10, 30))
    #expect(wide.seenAt == Date(timeIntervalSince1970: 1_310_013_328))
    #expect(wide.level == .high)
    #expect(wide.ratio == 0.25)
    #expect(wide.big == 69_726_278_940_360_707)
    #expect(wide.small == 255)
    #expect(wide.price == Decimal(string: "0.7689993"))
    #expect(wide.homepage == URL(string: "https://example.com/ann"))
    #expect(wide.uuid == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
    #expect(wide.owner == "ops")
    #expect(wide.priority == 3)
    #expect(wide.archived == false)
    #expect(wide.weight == 61.5)
    #expect(wide.flags == [1, 2, 3])
    #expect(wide.labels == ["a", "b"])
    #expect(wide.headers == ["accept": "json"])
    #expect(wide.color == .blue)
    #expect(wide.titleLength == 5)
    #expect(wide.expiresAt == Date(timeIntervalSince1970: 1_386_786_787))
    #expect(wide.amount == 12.5)
  }

  @Test func reportsEveryMissingRequiredAttribute() {
    #expect(
      errorLines { try Self.mapping.map(#"{"id": 1, "small": 256, "color": "pink"}"#) } == [
        "/name: required value is missing",
        "/score: required value is missing",
        "/active: required value is missing",
        "/created_at: required value is missing",
        "/tags: required value is missing",
        "/published: required value is missing",
        "/count: required value is missing",
        "/seen_at: required value is missing",
        "/level: required value is missing",
        "/ratio: required value is missing",
        "/big: required value is missing",
        "/small: cannot convert 256 to an integer: out of range for UInt8",
        "/price: required value is missing",
        "/uuid: required value is missing",
        "/meta/owner: required value is missing",
        "/labels: required value is missing",
        "/headers: required value is missing",
        #"/color: cannot convert "pink" to a Color: no case has this raw value"#,
        "/title: required value is missing",
        "/expires_at: required value is missing",
        "/amount: required value is missing",
      ])
  }
}
