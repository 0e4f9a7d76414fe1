import Foundation
import ObjectMapping
import ObjectMappingTesting
import Testing

/// Codable values inside mappings, mappings inside Codable models, and `FastJSONEncoder`
/// (issue 20).
@Suite("Codable bridge")
struct CodableBridgeTests {
  struct Reactions: Codable, Equatable, Sendable {
    var plusOne: Int
    var heart: Int
    var tags: [String]
  }

  enum State: String, Codable, Sendable {
    case open, closed
  }

  enum Plain: String, Sendable {
    case a, b
  }

  struct Issue: Equatable, Sendable {
    var title = ""
    var reactions = Reactions(plusOne: 0, heart: 0, tags: [])
    var history: [Reactions] = []
    var optional: Reactions?
    var state = State.open
    var plain = Plain.a
  }

  static let mapping = Mapping(Issue.init) {
    Attribute("title", \.title)
    Attribute("reactions", \.reactions)
    Attribute("history", \.history)
    Attribute("extra", \.optional)
    Attribute("state", \.state)
    Attribute("plain", \.plain)
  }

  static let payload = """
    {"title": "Bug", "reactions": {"plusOne": 3, "heart": 1, "tags": ["x"]},
     "history": [{"plusOne": 1, "heart": 0, "tags": []}], "extra": null, "state": "closed",
     "plain": "b"}
    """

  @Test func codableValuesMapBothWaysInsideAMapping() throws {
    let issue = try Self.mapping.map(Self.payload)
    #expect(issue.reactions == Reactions(plusOne: 3, heart: 1, tags: ["x"]))
    #expect(issue.history.count == 1 && issue.optional == nil)
    #expect(issue.state == .closed && issue.plain == .b)
    let json = String(decoding: try Self.mapping.serialize(issue), as: UTF8.self)
    #expect(json.contains(#""reactions":{"plusOne":3,"heart":1,"tags":["x"]}"#))
    #expect(json.contains(#""state":"closed""#))
    try RoundTripLaws(Self.mapping).checkValue(issue)
  }

  @Test func failuresInsideACodableValueKeepTheirPath() throws {
    let bad =
      #"{"title": "t", "reactions": {"plusOne": 1, "heart": "many", "tags": []}, "history": [], "state": "open", "plain": "a"}"#
    do {
      _ = try Self.mapping.map(bad)
      Testing.Issue.record("expected an error")
    } catch {
      #expect(error.errors.map(\.path) == ["/reactions/heart"])
    }
  }

  // MARK: Mappings inside Codable

  struct Article: MappedCodable, Equatable {
    var id = 0
    var title = ""
    static let mapping = Mapping(Article.init) {
      Attribute("article_id", \.id)
      Attribute("headline", \.title)
    }
  }

  struct Feed: Codable, Equatable {
    var name: String
    var articles: [Article]
  }

  @Test func aMappedTypeInsideCodableModelsUsesItsMapping() throws {
    let json = #"{"name": "f", "articles": [{"article_id": 1, "headline": "A"}]}"#
    let expected = Feed(name: "f", articles: [Article(id: 1, title: "A")])
    #expect(try JSONDecoder().decode(Feed.self, from: Data(json.utf8)) == expected)
    #expect(try FastJSONDecoder().decode(Feed.self, from: json) == expected)
    let encoded = try JSONEncoder().encode(expected)
    #expect(try FastJSONDecoder().decode(Feed.self, from: encoded) == expected)
    #expect(String(decoding: encoded, as: UTF8.self).contains("article_id"))
    // The mapping's errors, at their paths from the document's root, inside JSONDecoder's
    // `.dataCorrupted` at the value's coding path; with either decoder.
    let missing = Data(#"{"name": "f", "articles": [{"headline": "A"}]}"#.utf8)
    for decode in [
      { try FastJSONDecoder().decode(Feed.self, from: $0) },
      { try JSONDecoder().decode(Feed.self, from: $0) },
    ] as [(Data) throws -> Feed] {
      do {
        _ = try decode(missing)
        Testing.Issue.record("expected an error")
      } catch DecodingError.dataCorrupted(let context) {
        #expect(context.codingPath.map(\.stringValue) == ["articles", "Index 0"])
        let errors = context.underlyingError as? MappingErrors
        #expect(errors?.errors.map(\.path) == ["/articles/0/article_id"])
        #expect(context.debugDescription == "/articles/0/article_id: required value is missing")
      } catch {
        Testing.Issue.record("unexpected \(error)")
      }
    }
    let rich = FastJSONDecoder()
    rich.errorReporting = .mappingErrors
    let error = #expect(throws: MappingErrors.self) { try rich.decode(Feed.self, from: missing) }
    #expect(error?.errors.map(\.path) == ["/articles/0/article_id"])
  }

  // MARK: FastJSONEncoder

  struct Model: Codable, Equatable {
    var createdAt: Date
    var blob: Data
    var ratio: Double
    var values: [Int?]
    var nested: [String: [Reactions]]
  }

  @Test func theEncoderWritesWhatJSONDecoderReadsBack() throws {
    let model = Model(
      createdAt: Date(timeIntervalSince1970: 1_700_000_000), blob: Data([1, 2, 3]),
      ratio: .infinity, values: [1, nil, 3],
      nested: ["a": [Reactions(plusOne: 1, heart: 2, tags: ["t"])]])
    let fast = FastJSONEncoder()
    fast.keyEncodingStrategy = .convertToSnakeCase
    fast.dateEncodingStrategy = .iso8601
    fast.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    fast.outputFormatting = [.sortedKeys]
    let data = try fast.encode(model)
    let foundation = JSONDecoder()
    foundation.keyDecodingStrategy = .convertFromSnakeCase
    foundation.dateDecodingStrategy = .iso8601
    foundation.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    #expect(try foundation.decode(Model.self, from: data) == model)
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.hasPrefix(#"{"blob":"AQID","created_at":"2023-11-14T22:13:20Z""#))
    #expect(throws: EncodingError.self) { try FastJSONEncoder().encode(model) }  // infinity
  }
}
