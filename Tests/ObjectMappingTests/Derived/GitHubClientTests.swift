import Foundation
import ObjectMapping
import ObjectMappingTesting
import Testing

/// A client of the GitHub REST API (`GitHubPayloads`: users, labels, milestones, repositories,
/// issues, pull requests, comments and events with a payload chosen by their type), written
/// with `Codable` (`CodableGitHubClient.swift`) and with derived mappings
/// (`DerivedGitHubClient.swift`): the same checks on both, and the lines each takes (issue 41).
@Suite("GitHub client, Codable and derived")
struct GitHubClientTests {
  /// The value's description with its client's namespace left out, so that the two clients'
  /// values compare member by member.
  static func shown(_ value: Any) -> String {
    "\(value)".replacingOccurrences(of: "CodableGitHub.", with: "")
      .replacingOccurrences(of: "DerivedGitHub.", with: "")
  }

  /// Maps `payload` with both clients, checks they read the same values, that each writes what
  /// it reads (the derived mapping also passes the round-trip laws), and returns the derived
  /// client's value.
  static func both<Codable: Swift.Codable & Equatable, Derived: Equatable>(
    _ payload: String, _: Codable.Type, _ mapping: some MappingProtocol<Derived>
  ) throws -> Derived {
    let data = Data(payload.utf8)
    let codable = try CodableGitHub.decoder.decode(Codable.self, from: data)
    let derived = try mapping.map(data)
    #expect(shown(derived) == shown(codable))
    let written = try CodableGitHub.encoder.encode(codable)
    #expect(try CodableGitHub.decoder.decode(Codable.self, from: written) == codable)
    let body = try mapping.serialize(derived)
    #expect(try mapping.map(body) == derived)
    try RoundTripLaws(mapping).checkValue(derived)
    return derived
  }

  static func collections<Codable: Swift.Codable & Equatable, Derived: Equatable>(
    _ payload: String, _: Codable.Type, _ mapping: some MappingProtocol<Derived>
  ) throws -> [Derived] {
    let data = Data(payload.utf8)
    let codable = try CodableGitHub.decoder.decode([Codable].self, from: data)
    let derived = try mapping.mapCollection(data)
    #expect(shown(derived) == shown(codable))
    let written = try CodableGitHub.encoder.encode(codable)
    #expect(try CodableGitHub.decoder.decode([Codable].self, from: written) == codable)
    let body = try mapping.serializeCollection(derived)
    #expect(try mapping.mapCollection(body) == derived)
    for value in derived { try RoundTripLaws(mapping).checkValue(value) }
    return derived
  }

  @Test func usersAndLabels() throws {
    let user = try Self.both(
      GitHubPayloads.hubot, CodableGitHub.User.self,
      Mapping(DerivedGitHub.User.self, keys: .snakeCase))
    #expect(user.login == "hubot" && user.siteAdmin && user.type == "Bot")
    #expect(user.avatarUrl == URL(string: "https://github.com/images/error/hubot_happy.gif"))
    let labels = try Self.collections(
      GitHubPayloads.labels, CodableGitHub.Label.self, DerivedGitHub.label)
    #expect(labels.map(\.isDefault) == [true, false])
    #expect(labels.map(\.description) == ["Something isn't working", nil])
  }

  @Test func milestonesAndRepositories() throws {
    let milestones = try Self.collections(
      GitHubPayloads.milestones, CodableGitHub.Milestone.self, DerivedGitHub.milestone)
    #expect(milestones.map(\.state) == [.open, .closed])
    #expect(milestones.map(\.dueOn) == [Date(timeIntervalSince1970: 1_349_825_941), nil])
    #expect(milestones.map(\.creator.login) == ["octocat", "hubot"])
    let repositories = try Self.collections(
      GitHubPayloads.repositories, CodableGitHub.Repository.self, DerivedGitHub.repository)
    #expect(repositories.map(\.isPrivate) == [false, true])
    #expect(repositories.map(\.license?.spdxId) == ["MIT", nil])
    #expect(repositories[0].topics == ["octocat", "atom", "electron", "api"])
    #expect(repositories.map(\.pushedAt) == [Date(timeIntervalSince1970: 1_296_068_803), nil])
  }

  @Test func issuesAndComments() throws {
    let issues = try Self.collections(
      GitHubPayloads.issues, CodableGitHub.Issue.self, DerivedGitHub.issue)
    #expect(
      issues.map(\.pullRequestUrl)
        == [URL(string: "https://api.github.com/repos/octocat/Hello-World/pulls/1347"), nil])
    #expect(issues.map(\.reactionCount) == [5, 0])
    #expect(issues.map(\.state) == [.open, .closed])
    #expect(issues[0].labels.map(\.isDefault) == [true, false])
    #expect(issues[0].milestone?.title == "v1.0" && issues[1].milestone == nil)
    #expect(issues[0].assignees.map(\.login) == ["hubot", "octocat"])
    #expect(issues.map(\.body) == ["I'm having a problem with this.", nil])
    let comments = try Self.collections(
      GitHubPayloads.comments, CodableGitHub.Comment.self, DerivedGitHub.comment)
    #expect(comments.map(\.body) == ["Me too", "Fixed in #1350 🎉"])
    #expect(comments[1].updatedAt == Date(timeIntervalSince1970: 1_302_858_000))
  }

  @Test func pullRequests() throws {
    let pulls = try Self.collections(
      GitHubPayloads.pullRequests, CodableGitHub.PullRequest.self, DerivedGitHub.pullRequest)
    #expect(pulls.map(\.headRef) == ["new-topic", "faster-search"])
    #expect(pulls.map(\.baseRef) == ["master", "master"])
    #expect(pulls.map(\.repository.fullName) == ["octocat/Hello-World", "hubot/Spoon-Knife"])
    #expect(pulls.map(\.repository.isPrivate) == [false, true])
    #expect(pulls.map(\.mergeCommitSha) == ["e5bd3914e2e596debea16f433f57875b5b90bcd6", nil])
    #expect(pulls.map(\.draft) == [false, true] && pulls.map(\.merged) == [true, false])
  }

  @Test func eventsWithAPayloadChosenByTheirType() throws {
    let events = try Self.collections(
      GitHubPayloads.events, CodableGitHub.Event.self, DerivedGitHub.event)
    #expect(events.map(\.isPublic) == [true, true, true, false, true])
    guard case .watch(let watch) = events[0].payload, case .push(let push) = events[1].payload,
      case .issues(let closed) = events[2].payload,
      case .issueComment(let commented) = events[3].payload,
      case .pullRequest(let opened) = events[4].payload
    else {
      Issue.record("payloads: \(events.map(\.payload))")
      return
    }
    #expect(watch.action == "started")
    #expect(
      push.pushId == 10_115_855_396 && push.commits.map(\.author.name) == ["Monalisa", "Hubot"])
    #expect(closed.action == "closed" && closed.issue.number == 1348)
    #expect(commented.issue.pullRequestUrl != nil && commented.comment.body == "Me too")
    #expect(opened.pullRequest.headRef == "faster-search" && opened.number == 1350)
    let body = String(decoding: try DerivedGitHub.event.serialize(events[0]), as: UTF8.self)
    #expect(
      body.contains(#""type":"WatchEvent""#) && body.contains(#""payload":{"action":"started"}"#))
  }

  @Test func bothClientsRejectAnEventOfAnUnknownType() throws {
    let payload = GitHubPayloads.events.replacingOccurrences(
      of: #""type": "WatchEvent""#, with: #""type": "SponsorshipEvent""#)
    let codableError = try #require(throws: DecodingError.self) {
      try CodableGitHub.decoder.decode([CodableGitHub.Event].self, from: Data(payload.utf8))
    }
    guard case .dataCorrupted(let context) = codableError else {
      Issue.record("\(codableError)")
      return
    }
    #expect(context.debugDescription == "unknown event type SponsorshipEvent")
    let errors = try #require(throws: MappingErrors.self) {
      try DerivedGitHub.event.mapCollection(payload)
    }
    #expect(errors.description == #"/0: no mapping matches: type is "SponsorshipEvent""#)
  }

  /// Non-blank lines that are not comments, as `Scripts/count-lines.sh` counts them.
  static func codeLines(_ file: String) throws -> Int {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("GitHubClient")
    let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
    return text.split(separator: "\n").filter { line in
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      return !trimmed.isEmpty && !trimmed.hasPrefix("//")
    }.count
  }

  @Test func theDerivedClientTakesAtMostFourFifthsOfTheLines() throws {
    let codable = try Self.codeLines("CodableGitHubClient.swift")
    let derived = try Self.codeLines("DerivedGitHubClient.swift")
    print("GitHub client: Codable \(codable) lines, derived \(derived) lines")
    #expect(Double(derived) <= 0.8 * Double(codable))
  }
}
