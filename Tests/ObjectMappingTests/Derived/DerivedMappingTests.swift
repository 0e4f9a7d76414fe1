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
        == #"{"id":7,"title":"Crash","html_url":"https://github.com/o/r/issues/7","#
        + #""created_at":"2024-03-01T10:00:00Z","comments":2,"locked":false,"#
        + #""labels":[{"name":"bug","color_code":"d73a4a"}],"#
        + #""pull_request":{"url":"https://api.github.com/repos/o/r/pulls/7"},"#
        + #""closed_at":1709290800}"#)
    try RoundTripLaws(Self.issueMapping).checkValue(issue)
  }
}
