import Foundation
import ObjectMapping
import ObjectMappingTesting
import Testing

/// `Codable` models as relationship targets and as mappings of their own, both ways
/// (issue 20).
@Suite("CodableMapping")
struct CodableMappingTests {
  struct Milestone: Codable, Equatable, Sendable {
    var title: String
    var openIssues: Int
    var dueOn: Date?
  }

  struct Label: Codable, Equatable, Sendable {
    var name: String
    var color: String
  }

  struct Issue: Equatable, Sendable {
    var number = 0
    var milestone = Milestone(title: "", openIssues: 0)
    var previous: Milestone?
    var labels: [Label] = []
  }

  static let mapping: Mapping<Issue> = {
    let decoder = FastJSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    decoder.dateDecodingStrategy = .secondsSince1970
    let encoder = FastJSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.dateEncodingStrategy = .secondsSince1970
    return Mapping(Issue.init) {
      Attribute("number", \.number)
      Relationship(
        "milestone", \.milestone, CodableMapping<Milestone>(decoder: decoder, encoder: encoder))
      Relationship("previous", \.previous)
      Relationship("labels", \.labels)
    }
  }()

  static let payload = """
    {"number": 7,
     "milestone": {"title": "v1", "open_issues": 3, "due_on": 86400},
     "previous": {"title": "v0", "openIssues": 0},
     "labels": [{"name": "bug", "color": "f00"}, {"name": "ui", "color": "0f0"}]}
    """

  @Test func codableTargetsMapAndSerializeThroughTheirConformance() throws {
    let issue = try Self.mapping.map(Self.payload)
    #expect(
      issue.milestone
        == Milestone(title: "v1", openIssues: 3, dueOn: Date(timeIntervalSince1970: 86400)))
    #expect(issue.previous == Milestone(title: "v0", openIssues: 0))
    #expect(issue.labels.map(\.name) == ["bug", "ui"])
    let json = try Node(jsonData: Self.mapping.serialize(issue))
    #expect(json["milestone"]?["open_issues"] == .integer(3))
    #expect(json["previous"]?["openIssues"] == .integer(0))
    #expect(json["labels"]?[1]?["color"] == .string("0f0"))
    try RoundTripLaws(Self.mapping).checkValue(issue)
    // Form bodies go through the value tree.
    let form = String(
      decoding: try Self.mapping.serialize(issue, as: .formURLEncoded), as: UTF8.self)
    #expect(form.contains("labels[0][name]=bug"))
  }

  @Test func aFailureInsideACodableTargetNamesItsPath() throws {
    let bad = """
      {"number": 1, "milestone": {"title": "v1", "open_issues": "three"},
       "labels": [{"name": "bug", "color": "f00"}, {"name": "ui"}]}
      """
    let error = #expect(throws: MappingErrors.self) { try Self.mapping.map(bad) }
    let paths = Set(error?.errors.map(\.path) ?? [])
    #expect(paths.contains("/milestone/open_issues"))
    #expect(paths.contains("/labels/1/color"))
    // The decoder on its own names the payload's members too, not the converted coding keys.
    let decoder = FastJSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    decoder.errorReporting = .mappingErrors
    let direct = #expect(throws: MappingErrors.self) {
      try decoder.decode([Milestone].self, from: #"[{"title": "a", "open_issues": "x"}]"#)
    }
    #expect(direct?.errors.first?.path == "/0/open_issues")
  }

  @Test func mappingOntoAnExistingInstanceReplacesTheCodableValue() throws {
    var issue = try Self.mapping.map(Self.payload)
    try Self.mapping.map(
      #"{"milestone": {"title": "v2", "open_issues": 0}, "labels": [{"name": "x", "color": "1"}]}"#,
      onto: &issue)
    #expect(issue.number == 7)
    #expect(issue.milestone == Milestone(title: "v2", openIssues: 0))
    #expect(issue.labels == [Label(name: "x", color: "1")])
    #expect(issue.previous?.title == "v0")
  }

  @Test func aCodableMappingMapsTopLevelValuesAndRoutes() throws {
    let labels = try CodableMapping<Label>().mapCollection(
      #"[{"name": "a", "color": "1"}, {"name": "b", "color": "2"}]"#)
    #expect(labels.map(\.name) == ["a", "b"])
    let provider = MappingProvider {
      Route("label", CodableMapping<Label>())
    }
    let result = try Mapper(provider).map(#"{"label": {"name": "c", "color": "3"}}"#)
    #expect(result.first(Label.self) == Label(name: "c", color: "3"))
    let written = try CodableMapping<Label>().serialize(Label(name: "d", color: "4"))
    #expect(String(decoding: written, as: UTF8.self) == #"{"name":"d","color":"4"}"#)
  }
}
