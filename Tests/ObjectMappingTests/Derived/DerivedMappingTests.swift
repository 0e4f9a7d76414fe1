import Foundation
import ObjectMapping
import ObjectMappingTesting
import Testing

/// Mappings derived from a model's own `Codable` conformance, listing only what differs
/// (issue 41).
@Suite("Derived mappings")
struct DerivedMappingTests {
  struct Label: Codable, Equatable, Sendable {
    var name: String
    var colorCode: String
  }

  struct Issue: Codable, Equatable, Sendable {
    var id: Int
    var title: String
    var htmlUrl: URL
    var createdAt: Date
    var comments: Int
    var locked: Bool
    var body: String?
    var labels: [Label]
    var pullRequestUrl: URL?
    var closedAt: Date?
  }

  static let issueMapping = Mapping(Issue.self, keys: .snakeCase) {
    Attribute("pull_request.url", \.pullRequestUrl)
    Attribute("closed_at", \.closedAt, .epochSeconds)
  }

  static let payload = """
    {"id": 7, "title": "Crash", "html_url": "https://github.com/o/r/issues/7",
     "created_at": "2024-03-01T10:00:00Z", "comments": 2, "locked": false, "body": null,
     "labels": [{"name": "bug", "color_code": "d73a4a"}],
     "pull_request": {"url": "https://api.github.com/repos/o/r/pulls/7"},
     "closed_at": 1709290800}
    """

  @Test func readsEveryCodingKeyUnderTheConventionAndTheOverrides() throws {
    let issue = try Self.issueMapping.map(Self.payload)
    #expect(issue.id == 7 && issue.title == "Crash" && issue.comments == 2 && !issue.locked)
    #expect(issue.htmlUrl == URL(string: "https://github.com/o/r/issues/7"))
    #expect(issue.createdAt == Date(timeIntervalSince1970: 1_709_287_200))
    #expect(issue.body == nil)
    #expect(issue.labels == [Label(name: "bug", colorCode: "d73a4a")])
    #expect(issue.pullRequestUrl == URL(string: "https://api.github.com/repos/o/r/pulls/7"))
    #expect(issue.closedAt == Date(timeIntervalSince1970: 1_709_290_800))
  }

  @Test func writesTheSameKeysAndTheOverridesPaths() throws {
    let issue = try Self.issueMapping.map(Self.payload)
    let json = String(decoding: try Self.issueMapping.serialize(issue), as: UTF8.self)
    #expect(
      json
        == #"{"pull_request":{"url":"https://api.github.com/repos/o/r/pulls/7"},"#
        + #""closed_at":1709290800,"id":7,"title":"Crash","#
        + #""html_url":"https://github.com/o/r/issues/7","#
        + #""created_at":"2024-03-01T10:00:00Z","comments":2,"locked":false,"#
        + #""labels":[{"name":"bug","color_code":"d73a4a"}]}"#)
    try RoundTripLaws(Self.issueMapping).checkValue(issue)
  }

  @Test func decodesAsJSONDecoderDoesWhereNothingIsOverridden() throws {
    let payload = """
      [{"name": "bug", "color_code": "d73a4a"}, {"name": "docs", "color_code": "0075ca"}]
      """
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let expected = try decoder.decode([Label].self, from: Data(payload.utf8))
    let labels = try Mapping(Label.self, keys: .snakeCase).mapCollection(payload)
    #expect(labels == expected)
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.outputFormatting = .sortedKeys
    let label = Label(name: "bug", colorCode: "d73a4a")
    let written = try Mapping(Label.self, keys: .snakeCase).serialize(label, as: .json(.sortedKeys))
    #expect(written == (try encoder.encode(label)))
  }

  @Test func reportsEveryProblemAtOnceWithPayloadPaths() throws {
    let payload = """
      {"items": [{"id": 1, "title": "a", "html_url": "https://x", "created_at": 0,
        "comments": 0, "locked": false, "labels": []},
       {"id": "two", "title": 3, "html_url": "https://x", "created_at": 0, "comments": 0,
        "locked": "no", "labels": [], "pull_request": {"url": 5}, "closed_at": "soon"}]}
      """
    let mapping = Mapping(Issue.self, keys: .snakeCase) {
      Attribute("pull_request.url", \.pullRequestUrl)
      Attribute("closed_at", \.closedAt, .epochSeconds)
    }
    let list = Mapping(IssueList.self) { Relationship(\.items, mapping) }
    let errors = try #require(throws: MappingErrors.self) {
      try list.map(payload, with: MappingOptions(coercion: .strict))
    }
    #expect(
      errors.errors.map(\.description) == [
        #"/items/1/pull_request/url: expected a URL, found 5"#,
        #"/items/1/closed_at: expected a number, found "soon""#,
        #"/items/1/id: expected an integer, found "two""#,
        #"/items/1/title: expected a string, found 3"#,
        #"/items/1/locked: expected a boolean, found "no""#,
      ])
  }

  struct IssueList: Codable, Equatable, Sendable {
    var items: [Issue]
  }

  struct Account: Codable, Equatable, Sendable {
    var login: String
    var siteAdmin: Bool
  }

  enum Owner: Codable, Equatable, Sendable {
    case user(Account)
    case organization(Account)
  }

  struct Repository: Codable, Equatable, Sendable {
    var fullName: String
    var owner: Owner
    var contributors: [Account]
    var stars: Int
  }

  static let account = Mapping(Account.self, keys: .snakeCase)
  static let owner = DynamicMapping<Owner> {
    Match("type", equals: "User", account, case: Owner.user) {
      if case .user(let account) = $0 { account } else { nil }
    }
    Match("type", equals: "Organization", account, case: Owner.organization) {
      if case .organization(let account) = $0 { account } else { nil }
    }
  }
  static let repository = Mapping(Repository.self, keys: .snakeCase) {
    Relationship(\.owner, owner)
    Relationship("contributors.items", \.contributors, account)
    Attribute("stargazers_count", \.stars).validate("negative") { $0 >= 0 }
  }

  @Test func relationshipsThroughOtherMappingsAndDynamicMappings() throws {
    let payload = """
      {"full_name": "o/r", "owner": {"type": "Organization", "login": "o", "site_admin": false},
       "contributors": {"items": [{"login": "ann", "site_admin": true}]}, "stargazers_count": 3}
      """
    let repository = try Self.repository.map(payload)
    #expect(
      repository
        == Repository(
          fullName: "o/r", owner: .organization(Account(login: "o", siteAdmin: false)),
          contributors: [Account(login: "ann", siteAdmin: true)], stars: 3))
    let json = String(decoding: try Self.repository.serialize(repository), as: UTF8.self)
    #expect(
      json
        == #"{"owner":{"type":"Organization","login":"o","site_admin":false},"#
        + #""contributors":{"items":[{"login":"ann","site_admin":true}]},"stargazers_count":3,"#
        + #""full_name":"o/r"}"#)
    try RoundTripLaws(Self.repository).checkValue(repository)
  }

  @Test func overridesValidateAndDefault() throws {
    let payload = """
      {"full_name": "o/r", "owner": {"type": "Bot", "login": "b", "site_admin": false},
       "contributors": {"items": [{"login": 1}]}, "stargazers_count": -1}
      """
    let errors = try #require(throws: MappingErrors.self) {
      try Self.repository.map(payload, with: MappingOptions(coercion: .strict))
    }
    #expect(
      errors.errors.map(\.description) == [
        #"/owner: no mapping matches: type is "Bot""#,
        #"/contributors/items/0/login: expected a string, found 1"#,
        "/contributors/items/0/site_admin: required value is missing",
      ])
    struct Settings: Codable, Equatable, Sendable {
      var theme: String
      var fontSize: Int
    }
    let settings = Mapping(Settings.self, keys: .snakeCase) {
      Attribute(\.theme, default: "light")
    }
    #expect(try settings.map(#"{"font_size": 12}"#) == Settings(theme: "light", fontSize: 12))
  }

  @Test func anOverrideTheModelNeverReadsIsADefinitionProblem() throws {
    struct Model: Codable, Equatable, Sendable {
      var name: String
      var cached = 0
      enum CodingKeys: String, CodingKey { case name }
    }
    let mapping = Mapping(Model.self) { Attribute("count", \.cached) }
    #expect(
      throws: MappingErrors([
        MappingError(
          path: "/count",
          .invalidDefinition(
            message: #"Attribute "count" overrides cached, which Model's init(from:) did not read "#
              + "for this object; name a property its Codable conformance decodes"))
      ])
    ) { try mapping.map(#"{"name": "a", "count": 2}"#) }
  }

  @Test func writesFormBodies() throws {
    let label = Label(name: "bug", colorCode: "d73a4a")
    let body = try Mapping(Label.self, keys: .snakeCase).serialize(label, as: .formURLEncoded)
    #expect(String(decoding: body, as: UTF8.self) == "name=bug&color_code=d73a4a")
  }

  @Test func oneDerivedMappingServesManyThreads() throws {
    let expected = try Self.issueMapping.map(Self.payload)
    let results = _ThreadResults(count: 8)
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      var same = true
      for _ in 0..<50 {
        same = same && (try? Self.issueMapping.map(Self.payload)) == expected
        same = same && (try? Self.issueMapping.serialize(expected)) != nil
      }
      results.set(thread, same)
    }
    #expect(results.all)
  }
}

/// Whether each thread saw the expected values.
private final class _ThreadResults: @unchecked Sendable {
  // @unchecked: `values` is read and written under `lock` only.
  private let lock = NSLock()
  private var values: [Bool]

  init(count: Int) { values = Array(repeating: false, count: count) }

  func set(_ index: Int, _ value: Bool) {
    lock.lock()
    values[index] = value
    lock.unlock()
  }

  var all: Bool {
    lock.lock()
    defer { lock.unlock() }
    return values.allSatisfy { $0 }
  }
}
