import Foundation
import ObjectMapping
import ObjectMappingTesting
import Testing

/// A mapping's own key convention reaches the child mappings that declare none (issue 41).
@Suite("A convention said once")
struct ConventionReachesChildrenTests {
  struct User: Equatable, Sendable {
    var login = ""
    var nodeId: String?
    var siteAdmin = false
  }

  struct Issue: Equatable, Sendable {
    var number = 0
    var user = User()
    var assignees: [User] = []
    var closedBy: User?
  }

  static let user = Mapping(User.init) {
    Attribute(\.login)
    Attribute(\.nodeId)
    Attribute(\.siteAdmin, default: false)
  }

  static let issue = Mapping(Issue.init, keys: .snakeCase) {
    Attribute(\.number)
    Relationship(\.user, user)
    Relationship(\.assignees, user)
    Relationship(\.closedBy, user)
  }

  static let payload = """
    {"number": 1, "user": {"login": "ann", "node_id": "U1", "site_admin": true},
     "assignees": [{"login": "bob", "node_id": "U2", "site_admin": false}],
     "closed_by": {"login": "cid", "node_id": "U3"}}
    """

  static let expected = Issue(
    number: 1, user: User(login: "ann", nodeId: "U1", siteAdmin: true),
    assignees: [User(login: "bob", nodeId: "U2", siteAdmin: false)],
    closedBy: User(login: "cid", nodeId: "U3", siteAdmin: false))

  @Test func aChildWithoutAConventionReadsTheParents() throws {
    #expect(try Self.issue.map(Self.payload) == Self.expected)
    // Alone, the child still reads its property names.
    #expect(
      try Self.user.map(#"{"login": "ann", "nodeId": "U1"}"#)
        == User(login: "ann", nodeId: "U1", siteAdmin: false))
  }

  @Test func aChildWithoutAConventionWritesTheParents() throws {
    let json = String(decoding: try Self.issue.serialize(Self.expected), as: UTF8.self)
    #expect(
      json
        == #"{"number":1,"user":{"login":"ann","node_id":"U1","site_admin":true},"#
        + #""assignees":[{"login":"bob","node_id":"U2","site_admin":false}],"#
        + #""closed_by":{"login":"cid","node_id":"U3","site_admin":false}}"#)
    try RoundTripLaws(Self.issue).checkValue(Self.expected)
  }

  @Test func aChildsOwnConventionWins() throws {
    let kebabUser = Self.user.keys(.kebabCase)
    let issue = Mapping(Issue.init, keys: .snakeCase) {
      Attribute(\.number)
      Relationship(\.user, kebabUser)
    }
    let mapped = try issue.map(
      #"{"number": 2, "user": {"login": "a", "node-id": "N", "site-admin": true}}"#)
    #expect(mapped.user == User(login: "a", nodeId: "N", siteAdmin: true))
    let json = String(decoding: try issue.serialize(mapped), as: UTF8.self)
    #expect(json == #"{"number":2,"user":{"login":"a","node-id":"N","site-admin":true}}"#)
  }

  @Test func theNearestConventionBeatsTheCalls() throws {
    let options = MappingOptions(keys: .kebabCase)
    #expect(try Self.issue.map(Self.payload, with: options) == Self.expected)
  }

  struct Status: Equatable, Sendable {
    var state = ""
    var targetURL = ""
    var mergeCommitSha = ""
  }

  @Test func inverseEditingUsesTheConventionsKeys() throws {
    let mapping = Mapping(Status.init, keys: .snakeCase) {
      Attribute(\.state)
      Attribute(\.targetURL)
    }
    let status = Status(state: "ok", targetURL: "https://ci", mergeCommitSha: "abc")
    let kept = mapping.inverted().keeping("state", "target_url")
    #expect(kept.omitted.isEmpty)
    #expect(
      String(decoding: try kept.serialize(status), as: UTF8.self)
        == #"{"state":"ok","target_url":"https://ci"}"#)
    let byName = mapping.inverted().keeping("targetURL")
    #expect(byName.omitted.isEmpty)
    #expect(
      String(decoding: try byName.serialize(status), as: UTF8.self)
        == #"{"target_url":"https://ci"}"#)
    let added = mapping.inverted().adding(Attribute(\.mergeCommitSha))
    #expect(
      String(decoding: try added.serialize(status), as: UTF8.self)
        == #"{"state":"ok","target_url":"https://ci","merge_commit_sha":"abc"}"#)
  }
}
