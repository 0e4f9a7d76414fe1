import Foundation

/// The GitHub client of `GitHubClientTests`, written with `Codable` and `JSONDecoder`: models,
/// coding keys, the hand-written conformances the payloads need and the coders' settings
/// (issue 41's line count; keep it the shortest correct `Codable` code for the same checks).
enum CodableGitHub {
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

    enum CodingKeys: String, CodingKey {
      case id, nodeId, name, description, color
      case isDefault = "default"
    }
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

    enum CodingKeys: String, CodingKey {
      case id, nodeId, name, fullName, owner, htmlUrl, description, fork, language, forksCount
      case stargazersCount, defaultBranch, openIssuesCount, topics, pushedAt, createdAt, license
      case isPrivate = "private"
    }
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

    enum CodingKeys: String, CodingKey {
      case id, nodeId, number, state, title, body, user, labels, assignees, milestone, locked
      case comments, pullRequest, closedAt, createdAt, updatedAt, authorAssociation, reactions
    }
    enum PullRequestKeys: String, CodingKey { case url }
    enum ReactionsKeys: String, CodingKey { case totalCount }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      id = try container.decode(Int.self, forKey: .id)
      nodeId = try container.decode(String.self, forKey: .nodeId)
      number = try container.decode(Int.self, forKey: .number)
      state = try container.decode(State.self, forKey: .state)
      title = try container.decode(String.self, forKey: .title)
      body = try container.decodeIfPresent(String.self, forKey: .body)
      user = try container.decode(User.self, forKey: .user)
      labels = try container.decode([Label].self, forKey: .labels)
      assignees = try container.decode([User].self, forKey: .assignees)
      milestone = try container.decodeIfPresent(Milestone.self, forKey: .milestone)
      locked = try container.decode(Bool.self, forKey: .locked)
      comments = try container.decode(Int.self, forKey: .comments)
      if container.contains(.pullRequest) {
        let pullRequest = try container.nestedContainer(
          keyedBy: PullRequestKeys.self, forKey: .pullRequest)
        pullRequestUrl = try pullRequest.decodeIfPresent(URL.self, forKey: .url)
      }
      closedAt = try container.decodeIfPresent(Date.self, forKey: .closedAt)
      createdAt = try container.decode(Date.self, forKey: .createdAt)
      updatedAt = try container.decode(Date.self, forKey: .updatedAt)
      authorAssociation = try container.decode(String.self, forKey: .authorAssociation)
      let reactions = try container.nestedContainer(keyedBy: ReactionsKeys.self, forKey: .reactions)
      reactionCount = try reactions.decode(Int.self, forKey: .totalCount)
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(id, forKey: .id)
      try container.encode(nodeId, forKey: .nodeId)
      try container.encode(number, forKey: .number)
      try container.encode(state, forKey: .state)
      try container.encode(title, forKey: .title)
      try container.encodeIfPresent(body, forKey: .body)
      try container.encode(user, forKey: .user)
      try container.encode(labels, forKey: .labels)
      try container.encode(assignees, forKey: .assignees)
      try container.encodeIfPresent(milestone, forKey: .milestone)
      try container.encode(locked, forKey: .locked)
      try container.encode(comments, forKey: .comments)
      if let pullRequestUrl {
        var pullRequest = container.nestedContainer(
          keyedBy: PullRequestKeys.self, forKey: .pullRequest)
        try pullRequest.encode(pullRequestUrl, forKey: .url)
      }
      try container.encodeIfPresent(closedAt, forKey: .closedAt)
      try container.encode(createdAt, forKey: .createdAt)
      try container.encode(updatedAt, forKey: .updatedAt)
      try container.encode(authorAssociation, forKey: .authorAssociation)
      var reactions = container.nestedContainer(keyedBy: ReactionsKeys.self, forKey: .reactions)
      try reactions.encode(reactionCount, forKey: .totalCount)
    }
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

    enum CodingKeys: String, CodingKey {
      case id, number, state, title, body, user, labels, draft, merged, mergeCommitSha, head, base
      case additions, deletions, changedFiles, createdAt, updatedAt, closedAt, mergedAt
    }
    enum BranchKeys: String, CodingKey { case ref, sha, repo }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      id = try container.decode(Int.self, forKey: .id)
      number = try container.decode(Int.self, forKey: .number)
      state = try container.decode(State.self, forKey: .state)
      title = try container.decode(String.self, forKey: .title)
      body = try container.decodeIfPresent(String.self, forKey: .body)
      user = try container.decode(User.self, forKey: .user)
      labels = try container.decode([Label].self, forKey: .labels)
      draft = try container.decode(Bool.self, forKey: .draft)
      merged = try container.decode(Bool.self, forKey: .merged)
      mergeCommitSha = try container.decodeIfPresent(String.self, forKey: .mergeCommitSha)
      let head = try container.nestedContainer(keyedBy: BranchKeys.self, forKey: .head)
      headRef = try head.decode(String.self, forKey: .ref)
      headSha = try head.decode(String.self, forKey: .sha)
      let base = try container.nestedContainer(keyedBy: BranchKeys.self, forKey: .base)
      baseRef = try base.decode(String.self, forKey: .ref)
      repository = try base.decode(Repository.self, forKey: .repo)
      additions = try container.decode(Int.self, forKey: .additions)
      deletions = try container.decode(Int.self, forKey: .deletions)
      changedFiles = try container.decode(Int.self, forKey: .changedFiles)
      createdAt = try container.decode(Date.self, forKey: .createdAt)
      updatedAt = try container.decode(Date.self, forKey: .updatedAt)
      closedAt = try container.decodeIfPresent(Date.self, forKey: .closedAt)
      mergedAt = try container.decodeIfPresent(Date.self, forKey: .mergedAt)
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(id, forKey: .id)
      try container.encode(number, forKey: .number)
      try container.encode(state, forKey: .state)
      try container.encode(title, forKey: .title)
      try container.encodeIfPresent(body, forKey: .body)
      try container.encode(user, forKey: .user)
      try container.encode(labels, forKey: .labels)
      try container.encode(draft, forKey: .draft)
      try container.encode(merged, forKey: .merged)
      try container.encodeIfPresent(mergeCommitSha, forKey: .mergeCommitSha)
      var head = container.nestedContainer(keyedBy: BranchKeys.self, forKey: .head)
      try head.encode(headRef, forKey: .ref)
      try head.encode(headSha, forKey: .sha)
      var base = container.nestedContainer(keyedBy: BranchKeys.self, forKey: .base)
      try base.encode(baseRef, forKey: .ref)
      try base.encode(repository, forKey: .repo)
      try container.encode(additions, forKey: .additions)
      try container.encode(deletions, forKey: .deletions)
      try container.encode(changedFiles, forKey: .changedFiles)
      try container.encode(createdAt, forKey: .createdAt)
      try container.encode(updatedAt, forKey: .updatedAt)
      try container.encodeIfPresent(closedAt, forKey: .closedAt)
      try container.encodeIfPresent(mergedAt, forKey: .mergedAt)
    }
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

  enum EventPayload: Equatable {
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

    enum CodingKeys: String, CodingKey {
      case id, type, actor, repo, payload, createdAt
      case isPublic = "public"
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      id = try container.decode(String.self, forKey: .id)
      actor = try container.decode(Actor.self, forKey: .actor)
      repo = try container.decode(EventRepository.self, forKey: .repo)
      isPublic = try container.decode(Bool.self, forKey: .isPublic)
      createdAt = try container.decode(Date.self, forKey: .createdAt)
      switch try container.decode(String.self, forKey: .type) {
      case "PushEvent": payload = .push(try container.decode(Push.self, forKey: .payload))
      case "IssuesEvent":
        payload = .issues(try container.decode(IssueAction.self, forKey: .payload))
      case "IssueCommentEvent":
        payload = .issueComment(try container.decode(CommentAction.self, forKey: .payload))
      case "PullRequestEvent":
        payload = .pullRequest(try container.decode(PullRequestAction.self, forKey: .payload))
      case "WatchEvent": payload = .watch(try container.decode(Watch.self, forKey: .payload))
      case let type:
        throw DecodingError.dataCorruptedError(
          forKey: .type, in: container, debugDescription: "unknown event type \(type)")
      }
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(id, forKey: .id)
      try container.encode(actor, forKey: .actor)
      try container.encode(repo, forKey: .repo)
      try container.encode(isPublic, forKey: .isPublic)
      try container.encode(createdAt, forKey: .createdAt)
      switch payload {
      case .push(let push):
        try container.encode("PushEvent", forKey: .type)
        try container.encode(push, forKey: .payload)
      case .issues(let action):
        try container.encode("IssuesEvent", forKey: .type)
        try container.encode(action, forKey: .payload)
      case .issueComment(let action):
        try container.encode("IssueCommentEvent", forKey: .type)
        try container.encode(action, forKey: .payload)
      case .pullRequest(let action):
        try container.encode("PullRequestEvent", forKey: .type)
        try container.encode(action, forKey: .payload)
      case .watch(let watch):
        try container.encode("WatchEvent", forKey: .type)
        try container.encode(watch, forKey: .payload)
      }
    }
  }

  static let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }()

  static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.dateEncodingStrategy = .iso8601
    return encoder
  }()
}
