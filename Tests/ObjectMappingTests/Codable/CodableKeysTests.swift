import Foundation
import ObjectMapping
import ObjectMappingTesting
import Testing

/// The coders' key strategies are exactly Foundation's (so that each coder reads what the other
/// wrote), the library's own `KeyConvention.snakeCase` reads better where they differ, a
/// `MappedCodable` keeps the keys its mapping spells under any coder's key strategy, and keyless
/// rules cover `Codable` values (issue 34).
@Suite("Codable keys and the bridge")
struct CodableKeysTests {
  /// The table of MigratingFromCodable.md: property name, what both `JSONEncoder` and
  /// `FastJSONEncoder` write with `.convertToSnakeCase`, what `KeyConvention.snakeCase` makes,
  /// and what `.convertFromSnakeCase` reads the encoder's key back as.
  static let table: [(name: String, encoders: String, convention: String, readBack: String)] = [
    ("userID", "user_id", "user_id", "userId"),
    ("URLValue", "u_rl_value", "url_value", "uRlValue"),
    ("_leading", "_leading", "_leading", "_leading"),
    ("trailing_", "trailing_", "trailing_", "trailing_"),
    ("HTTPStatus", "h_ttp_status", "http_status", "hTtpStatus"),
    ("url2", "url2", "url2", "url2"),
    ("ALL_CAPS", "a_ll_caps", "all_caps", "aLlCaps"),
    ("createdAt", "created_at", "created_at", "createdAt"),
  ]

  struct Keys: Encodable {
    let names: [String]
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: ParityKey.self)
      for name in names { try container.encode(1, forKey: ParityKey(name)) }
    }
  }

  struct ReadKeys: Decodable {
    var keys: [String]
    init(from decoder: any Decoder) throws {
      keys = try decoder.container(keyedBy: ParityKey.self).allKeys.map(\.stringValue)
    }
  }

  @Test func theGuidesTableOfKeysIsWhatEachImplementationMakes() throws {
    for row in Self.table {
      let written = Parity.expectSameEncoding(Keys(names: [row.name])) {
        $0.keyEncodingStrategy = .convertToSnakeCase
        $1.keyEncodingStrategy = .convertToSnakeCase
      }
      #expect(written == .value(#"{"\#(row.encoders)":1}"#), "\(row.name)")
      #expect(KeyConvention.snakeCase.key(for: row.name) == row.convention, "\(row.name)")
      let back = #"{"\#(row.encoders)": 1}"#
      let read = Parity.decode(ReadKeys.self, Data(back.utf8)) {
        $0.keyDecodingStrategy = .convertFromSnakeCase
        $1.keyDecodingStrategy = .convertFromSnakeCase
      }
      #expect(read.ours == read.foundation)
      #expect(
        try {
          let decoder = FastJSONDecoder()
          decoder.keyDecodingStrategy = .convertFromSnakeCase
          return try decoder.decode(ReadKeys.self, from: back).keys
        }() == [row.readBack], "\(row.name)")
    }
  }

  @Test func dataWrittenByOneCoderIsReadByTheOther() throws {
    struct Model: Codable, Equatable {
      var userID = 1
      var urlValue = "u"
      var httpStatus = 200
      var createdAt = 3
      var leaveMeAlone = ["innerKey": 1]
      enum CodingKeys: String, CodingKey {
        case userID
        case urlValue = "URLValue"
        case httpStatus = "HTTPStatus"
        case createdAt, leaveMeAlone
      }
    }
    let fastEncoder = FastJSONEncoder()
    fastEncoder.keyEncodingStrategy = .convertToSnakeCase
    let foundationEncoder = JSONEncoder()
    foundationEncoder.keyEncodingStrategy = .convertToSnakeCase
    let fastDecoder = FastJSONDecoder()
    fastDecoder.keyDecodingStrategy = .convertFromSnakeCase
    let foundationDecoder = JSONDecoder()
    foundationDecoder.keyDecodingStrategy = .convertFromSnakeCase
    for data in [try fastEncoder.encode(Model()), try foundationEncoder.encode(Model())] {
      // `.convertFromSnakeCase` does not give back every name `.convertToSnakeCase` wrote
      // (`u_rl_value` reads as `uRlValue`): both decoders agree on what they read.
      let text: (Model) -> String = { String(reflecting: $0) }
      let ours = Parity.outcome({ try fastDecoder.decode(Model.self, from: data) }, text: text)
      let theirs = Parity.outcome(
        { try foundationDecoder.decode(Model.self, from: data) }, text: text)
      #expect(ours == theirs)
    }
  }

  // MARK: MappedCodable under any coder's key strategy

  struct Article: MappedCodable, Equatable {
    var id = 0
    var htmlTitle = ""
    var tags: [String: Int] = [:]
    static let mapping = Mapping(Article.init) {
      Attribute("article_id", \.id)
      Attribute("HTMLTitle", \.htmlTitle)
      Attribute("tagCounts", \.tags)
    }
  }

  struct Feed: Codable, Equatable {
    var feedName: String
    var articles: [Article]
  }

  static let feedJSON = #"""
    {"feed_name": "f", "articles": [{"article_id": 1, "HTMLTitle": "A", "tagCounts": {"swiftLang": 2}}]}
    """#

  @Test func aMappedTypeReadsItsSpelledKeysUnderConvertFromSnakeCase() throws {
    let expected = Feed(
      feedName: "f", articles: [Article(id: 1, htmlTitle: "A", tags: ["swiftLang": 2])])
    let foundation = JSONDecoder()
    foundation.keyDecodingStrategy = .convertFromSnakeCase
    #expect(try foundation.decode(Feed.self, from: Data(Self.feedJSON.utf8)) == expected)
    let fast = FastJSONDecoder()
    fast.keyDecodingStrategy = .convertFromSnakeCase
    #expect(try fast.decode(Feed.self, from: Self.feedJSON) == expected)
  }

  @Test func aMappedTypeWritesItsSpelledKeysUnderConvertToSnakeCase() throws {
    let feed = Feed(
      feedName: "f", articles: [Article(id: 1, htmlTitle: "A", tags: ["swiftLang": 2])])
    let expected =
      #"{"articles":[{"HTMLTitle":"A","article_id":1,"tagCounts":{"swiftLang":2}}],"feed_name":"f"}"#
    #expect(
      Parity.expectSameEncoding(feed) {
        $0.keyEncodingStrategy = .convertToSnakeCase
        $1.keyEncodingStrategy = .convertToSnakeCase
        $0.outputFormatting = .sortedKeys
        $1.outputFormatting = .sortedKeys
      } == .value(expected))
  }

  // MARK: Keyless rules for Codable values

  struct Reactions: Codable, Equatable, Sendable {
    var plusOne: Int
    var heart: Int
  }

  enum State: String, Codable, Sendable { case open, closed }
  enum Plain: String, Sendable { case a, b }

  struct Milestone: Codable, Equatable, Sendable {
    var title: String
    var openIssues: Int
  }

  struct Issue: Equatable, Sendable {
    var reactions = Reactions(plusOne: 0, heart: 0)
    var history: [Reactions] = []
    var issueState = State.open
    var plainValue = Plain.a
    var optionalPlain: Plain?
    var milestone = Milestone(title: "", openIssues: 0)
    var nextMilestone: Milestone?
  }

  static let keylessMapping = Mapping(Issue.init, keys: .snakeCase) {
    Attribute(\.reactions)
    Attribute(\.history)
    Attribute(\.issueState)
    Attribute(\.plainValue, default: .b)
    Attribute(\.optionalPlain)
    Relationship(\.milestone)
    Relationship(\.nextMilestone)
  }

  @Test func keylessRulesCoverCodableValuesEnumsAndRelationships() throws {
    let json = #"""
      {"reactions": {"plusOne": 3, "heart": 1}, "history": [{"plusOne": 1, "heart": 0}],
       "issue_state": "closed", "optional_plain": "a",
       "milestone": {"title": "v1", "openIssues": 2}, "next_milestone": null}
      """#
    let issue = try Self.keylessMapping.map(json)
    #expect(issue.reactions == Reactions(plusOne: 3, heart: 1))
    #expect(issue.history == [Reactions(plusOne: 1, heart: 0)])
    #expect(issue.issueState == .closed && issue.plainValue == .b && issue.optionalPlain == .a)
    #expect(issue.milestone == Milestone(title: "v1", openIssues: 2))
    #expect(issue.nextMilestone == nil)
    let written = try Self.keylessMapping.serialize(issue, as: .json(.sortedKeys))
    #expect(
      String(decoding: written, as: UTF8.self)
        == #"{"history":[{"heart":0,"plusOne":1}],"issue_state":"closed","milestone":{"openIssues":2,"title":"v1"},"optional_plain":"a","plain_value":"b","reactions":{"heart":1,"plusOne":3}}"#
    )
    try RoundTripLaws(Self.keylessMapping).checkValue(issue)
  }
}
