import Foundation
import ObjectMapping
import ObjectMappingTestSupport
import Testing

/// A search client for a recorded Twitter API payload (`json-benchmark/twitter.json`), written
/// with `Codable` (`CodableTwitterClient.swift`) and with derived mappings
/// (`DerivedTwitterClient.swift`): the same checks, and the lines each takes (issue 41).
@Suite("Twitter client, Codable and derived")
struct TwitterClientTests {
  @Test(.enabled(if: TestData.isAvailable))
  func bothClientsReadTheSameValues() throws {
    let data = try TestData.data("json-benchmark/twitter.json")
    let codable = try CodableTwitter.decoder.decode(CodableTwitter.SearchResult.self, from: data)
    let derived = try DerivedTwitter.search.map(data, with: DerivedTwitter.options)
    #expect(derived.statuses.count == 100 && codable.statuses.count == 100)
    #expect(zip(derived.statuses, codable.statuses).allSatisfy(_same))
    #expect(derived.searchMetadata.maxId == codable.searchMetadata.maxId)
    #expect(derived.searchMetadata.completedIn == codable.searchMetadata.completedIn)
    #expect(derived.searchMetadata.query == codable.searchMetadata.query)
    let first = try #require(derived.statuses.first)
    #expect(first.resultType == "recent" && first.languageCode == "ja")
    #expect(derived.statuses.contains { !$0.hashtags.isEmpty && !$0.mentions.isEmpty })
  }

  @Test(.enabled(if: TestData.isAvailable))
  func theDerivedClientWritesWhatItReads() throws {
    let data = try TestData.data("json-benchmark/twitter.json")
    let derived = try DerivedTwitter.search.map(data, with: DerivedTwitter.options)
    let body = try DerivedTwitter.search.serialize(derived, with: DerivedTwitter.options)
    #expect(try DerivedTwitter.search.map(body, with: DerivedTwitter.options) == derived)
  }

  /// Non-blank lines that are not comments.
  static func codeLines(_ file: String) throws -> Int {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("TwitterClient")
    let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
    return text.split(separator: "\n").filter { line in
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      return !trimmed.isEmpty && !trimmed.hasPrefix("//")
    }.count
  }

  @Test func theDerivedClientTakesAtMostFourFifthsOfTheLines() throws {
    let codable = try Self.codeLines("CodableTwitterClient.swift")
    let derived = try Self.codeLines("DerivedTwitterClient.swift")
    print("Twitter client: Codable \(codable) lines, derived \(derived) lines")
    #expect(Double(derived) <= 0.8 * Double(codable))
  }
}

/// Whether the two clients read a status the same, field by field.
private func _same(_ derived: DerivedTwitter.Status, _ codable: CodableTwitter.Status) -> Bool {
  let user = derived.user
  let other = codable.user
  return derived.id == codable.id && derived.text == codable.text
    && derived.createdAt == codable.createdAt && derived.source == codable.source
    && derived.truncated == codable.truncated
    && derived.inReplyToStatusId == codable.inReplyToStatusId
    && derived.inReplyToScreenName == codable.inReplyToScreenName
    && derived.retweetCount == codable.retweetCount
    && derived.favoriteCount == codable.favoriteCount && derived.favorited == codable.favorited
    && derived.retweeted == codable.retweeted && derived.lang == codable.lang
    && derived.resultType == codable.resultType && derived.languageCode == codable.languageCode
    && derived.hashtags == codable.hashtags
    && derived.mentions.map { [$0.screenName, $0.name, "\($0.id)", "\($0.indices)"] }
      == codable.mentions.map { [$0.screenName, $0.name, "\($0.id)", "\($0.indices)"] }
    && user.id == other.id && user.name == other.name && user.screenName == other.screenName
    && user.location == other.location && user.description == other.description
    && user.isProtected == other.isProtected && user.followersCount == other.followersCount
    && user.friendsCount == other.friendsCount && user.createdAt == other.createdAt
    && user.verified == other.verified && user.statusesCount == other.statusesCount
}
