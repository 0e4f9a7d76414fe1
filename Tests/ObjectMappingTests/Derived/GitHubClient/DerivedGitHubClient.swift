import Foundation
import ObjectMapping

/// The GitHub client of `GitHubClientTests`, written with mappings derived from the models'
/// `Codable` conformances: the same models, and only what differs from them (issue 41's line
/// count).
enum DerivedGitHub {
  struct User: Codable, Equatable {
    var login: String
    var id: Int
    var nodeId: String
    var avatarUrl: URL
    var htmlUrl: URL
    var type: String
    var siteAdmin: Bool
  }

  struct Label: Codable, Equatable {
    var id: Int
    var nodeId: String
    var name: String
    var description: String?
    var color: String
    var isDefault: Bool
  }

  enum State: String, Codable, Equatable {
    case open, closed
  }

  struct Milestone: Codable, Equatable {
    var id: Int
    var number: Int
    var state: State
    var title: String
    var description: String?
    var creator: User
    var openIssues: Int
    var closedIssues: Int
    var createdAt: Date
    var dueOn: Date?
  }

  struct License: Codable, Equatable {
    var key: String
    var name: String
    var spdxId: String?
  }

  struct Repository: Codable, Equatable {
    var id: Int
    var nodeId: String
    var name: String
    var fullName: String
    var owner: User
    var isPrivate: Bool
    var htmlUrl: URL
    var description: String?
    var fork: Bool
    var language: String?
    var forksCount: Int
    var stargazersCount: Int
    var defaultBranch: String
    var openIssuesCount: Int
    var topics: [String]
    var pushedAt: Date?
    var createdAt: Date
    var license: License?
  }

  struct Issue: Codable, Equatable {
    var id: Int
    var nodeId: String
    var number: Int
    var state: State
    var title: String
    var body: String?
    var user: User
    var labels: [Label]
    var assignees: [User]
    var milestone: Milestone?
    var locked: Bool
    var comments: Int
    var pullRequestUrl: URL?
    var closedAt: Date?
    var createdAt: Date
    var updatedAt: Date
    var authorAssociation: String
    var reactionCount: Int
  }

  struct PullRequest: Codable, Equatable {
    var id: Int
    var number: Int
    var state: State
    var title: String
    var body: String?
    var user: User
    var labels: [Label]
    var draft: Bool
    var merged: Bool
    var mergeCommitSha: String?
    var headRef: String
    var headSha: String
    var baseRef: String
    var repository: Repository
    var additions: Int
    var deletions: Int
    var changedFiles: Int
    var createdAt: Date
    var updatedAt: Date
    var closedAt: Date?
    var mergedAt: Date?
  }

  struct Comment: Codable, Equatable {
    var id: Int
    var nodeId: String
    var htmlUrl: URL
    var body: String
    var user: User
    var createdAt: Date
    var updatedAt: Date
    var authorAssociation: String
  }

  struct Actor: Codable, Equatable {
    var id: Int
    var login: String
    var displayLogin: String
    var avatarUrl: URL
  }

  struct EventRepository: Codable, Equatable {
    var id: Int
    var name: String
    var url: URL
  }

  struct Commit: Codable, Equatable {
    var sha: String
    var author: CommitAuthor
    var message: String
    var distinct: Bool
    var url: URL
  }

  struct CommitAuthor: Codable, Equatable {
    var email: String
    var name: String
  }

  struct Push: Codable, Equatable {
    var pushId: Int
    var size: Int
    var ref: String
    var head: String
    var before: String
    var commits: [Commit]
  }

  struct IssueAction: Codable, Equatable {
    var action: String
    var issue: Issue
  }

  struct CommentAction: Codable, Equatable {
    var action: String
    var issue: Issue
    var comment: Comment
  }

  struct PullRequestAction: Codable, Equatable {
    var action: String
    var number: Int
    var pullRequest: PullRequest
  }

  struct Watch: Codable, Equatable {
    var action: String
  }

  enum EventPayload: Codable, Equatable {
    case push(Push)
    case issues(IssueAction)
    case issueComment(CommentAction)
    case pullRequest(PullRequestAction)
    case watch(Watch)
  }

  struct Event: Codable, Equatable {
    var id: String
    var actor: Actor
    var repo: EventRepository
    var payload: EventPayload
    var isPublic: Bool
    var createdAt: Date
  }

  /// An event's payload, read from the event (under `payload`) by the case its `type` chose.
  struct In<Body: Codable & Equatable & Sendable>: Codable, Equatable {
    var payload: Body
  }

  static let label = Mapping(Label.self, keys: .snakeCase) { Attribute("default", \.isDefault) }
  static let repository = Mapping(Repository.self, keys: .snakeCase) {
    Attribute("private", \.isPrivate)
  }
  static let issue = Mapping(Issue.self, keys: .snakeCase) {
    Attribute("pull_request.url", \.pullRequestUrl)
    Attribute("reactions.total_count", \.reactionCount)
    Relationship(\.labels, label)
  }
  static let pullRequest = Mapping(PullRequest.self, keys: .snakeCase) {
    Attribute("head.ref", \.headRef)
    Attribute("head.sha", \.headSha)
    Attribute("base.ref", \.baseRef)
    Relationship("base.repo", \.repository, repository)
    Relationship(\.labels, label)
  }
  static let milestone = Mapping(Milestone.self, keys: .snakeCase)
  static let comment = Mapping(Comment.self, keys: .snakeCase)
  static let event = Mapping(Event.self, keys: .snakeCase) {
    Attribute("public", \.isPublic)
    Relationship(.root, \.payload, payload)
  }
  static let issueAction = Mapping(IssueAction.self, keys: .snakeCase) {
    Relationship(\.issue, issue)
  }
  static let commentAction = Mapping(CommentAction.self, keys: .snakeCase) {
    Relationship(\.issue, issue)
  }
  static let pullRequestAction = Mapping(PullRequestAction.self, keys: .snakeCase) {
    Relationship(\.pullRequest, pullRequest)
  }
  static let payload = DynamicMapping<EventPayload> {
    on("PushEvent", Mapping(Push.self, keys: .snakeCase), EventPayload.push) {
      if case .push(let value) = $0 { value } else { nil }
    }
    on("IssuesEvent", issueAction, EventPayload.issues) {
      if case .issues(let value) = $0 { value } else { nil }
    }
    on("IssueCommentEvent", commentAction, EventPayload.issueComment) {
      if case .issueComment(let value) = $0 { value } else { nil }
    }
    on("PullRequestEvent", pullRequestAction, EventPayload.pullRequest) {
      if case .pullRequest(let value) = $0 { value } else { nil }
    }
    on("WatchEvent", Mapping(Watch.self), EventPayload.watch) {
      if case .watch(let value) = $0 { value } else { nil }
    }
  }
  /// The case of events of `type`: `body` reads the event's `payload`.
  static func on<Body: Codable & Equatable & Sendable>(
    _ type: String, _ body: Mapping<Body>, _ embed: @escaping @Sendable (Body) -> EventPayload,
    extract: @escaping @Sendable (EventPayload) -> Body?
  ) -> Match<EventPayload> {
    let mapping = Mapping(In<Body>.self) { Relationship(\.payload, body) }
    return Match(
      "type", equals: .string(type), mapping, case: { embed($0.payload) },
      extract: { extract($0).map(In.init) })
  }
}
