import Foundation
import ObjectMapping
import ObjectMappingTesting
import Testing

/// A key convention declared by a whole call (`MappingOptions(keys:)`, issue 20): it makes the
/// keys of every keyless rule, in every mapping the call reaches, that has no convention of its
/// own; both directions.
@Suite("Key conventions per call")
struct CallKeyConventionTests {
  struct User: Equatable, Sendable {
    var userID = 0
    var displayName = ""
  }

  final class Comment: @unchecked Sendable {
    // @unchecked: built and read by one test at a time.
    var commentID = 0
    var bodyText = ""
    var replies: [Comment] = []
  }

  struct Issue: Equatable, Sendable {
    var issueNumber = 0
    var createdAt = ""
    var closedBy: User?
    var assignees: [User] = []
    var watchersByName: [String: User] = [:]
    var title = ""
  }

  /// No convention of its own: the call decides.
  static let user = Mapping(User.init) {
    Attribute(\.userID)
    Attribute(\.displayName)
  }.identified(by: \.userID)

  static let issue = Mapping(Issue.init) {
    Attribute(\.issueNumber)
    Attribute(\.createdAt)
    Relationship(\.closedBy, user)
    Relationship(\.assignees, user)
    Relationship(\.watchersByName, user).optional()
    Attribute("Title", \.title)  // spelled: no convention changes it
  }

  static let snake = MappingOptions(keys: .snakeCase)

  static let snakePayload = """
    {"issue_number": 7, "created_at": "2024", "Title": "Crash",
     "closed_by": {"user_id": 1, "display_name": "Ann"},
     "assignees": [{"user_id": 2, "display_name": "Bob"}, {"user_id": 3, "display_name": "Cy"}],
     "watchers_by_name": {"dee": {"user_id": 4, "display_name": "Dee"}}}
    """

  static let expected = Issue(
    issueNumber: 7, createdAt: "2024", closedBy: User(userID: 1, displayName: "Ann"),
    assignees: [User(userID: 2, displayName: "Bob"), User(userID: 3, displayName: "Cy")],
    watchersByName: ["dee": User(userID: 4, displayName: "Dee")], title: "Crash")

  @Test func theCallsConventionMakesTheKeysOfEveryMappingItReaches() throws {
    #expect(try Self.issue.map(Self.snakePayload, with: Self.snake) == Self.expected)
    let collection = try Self.issue.mapCollection("[\(Self.snakePayload)]", with: Self.snake)
    #expect(collection == [Self.expected])
  }

  @Test func withoutOneTheSameMappingReadsThePropertyNames() throws {
    // Used with a convention first: what it derived must not leak into calls without one.
    _ = try Self.issue.map(Self.snakePayload, with: Self.snake)
    let plain = try Self.issue.map(
      #"{"issueNumber": 1, "createdAt": "x", "closedBy": {"userID": 5, "displayName": "E"}, "#
        + #""assignees": [], "Title": "t"}"#)
    #expect(plain.issueNumber == 1 && plain.createdAt == "x")
    #expect(plain.closedBy == User(userID: 5, displayName: "E"))
    // And the snake_case keys are not read without the convention.
    let missed = #expect(throws: MappingErrors.self) {
      try Self.issue.map(#"{"issue_number": 1, "createdAt": "y", "assignees": [], "Title": ""}"#)
    }
    #expect(missed?.errors.map(\.path) == ["/issueNumber"])
  }

  @Test func serializingUsesTheCallsConventionAndRoundTrips() throws {
    let json = String(
      decoding: try Self.issue.serialize(Self.expected, with: Self.snake), as: UTF8.self)
    #expect(json.hasPrefix(#"{"issue_number":7,"created_at":"2024","closed_by":{"user_id":1,"#))
    #expect(json.contains(#""watchers_by_name":{"dee":{"user_id":4,"display_name":"Dee"}}"#))
    #expect(json.contains(#""Title":"Crash""#))
    #expect(try Self.issue.map(json, with: Self.snake) == Self.expected)
    // The same mapping without the convention writes the property names.
    let plain = String(decoding: try Self.issue.serialize(Self.expected), as: UTF8.self)
    #expect(plain.hasPrefix(#"{"issueNumber":7,"createdAt":"2024","closedBy":{"userID":1,"#))
    #expect(try Self.issue.map(plain) == Self.expected)
    // Nodes and form bodies take the call's convention too.
    let node = try Self.issue.node(Self.expected, with: Self.snake)
    #expect(node["closed_by"]?["display_name"] == .string("Ann"))
    let form = String(
      decoding: try Self.user.serialize(
        User(userID: 9, displayName: "Zed"), as: .formURLEncoded, with: Self.snake),
      as: UTF8.self)
    #expect(form == "user_id=9&display_name=Zed")
  }

  @Test func aMappingsOwnConventionWinsOverTheCalls() throws {
    let kebabUser = Self.user.keys(.kebabCase)
    let issue = Mapping(Issue.init) {
      Attribute(\.issueNumber)
      Relationship(\.closedBy, kebabUser)
    }
    let mapped = try issue.map(
      #"{"issue_number": 3, "closed_by": {"user-id": 8, "display-name": "Kay"}}"#, with: Self.snake)
    #expect(mapped.issueNumber == 3)
    #expect(mapped.closedBy == User(userID: 8, displayName: "Kay"))
    let json = String(decoding: try issue.serialize(mapped, with: Self.snake), as: UTF8.self)
    #expect(json == #"{"issue_number":3,"closed_by":{"user-id":8,"display-name":"Kay"}}"#)
  }

  @Test func recursiveMappingsFollowTheConventionAtEveryLevel() throws {
    let comments = Self.commentMapping
    let payload = """
      {"comment_id": 1, "body_text": "a", "replies": [
        {"comment_id": 2, "body_text": "b", "replies": [{"comment_id": 3, "body_text": "c"}]}]}
      """
    let root = try comments.map(payload, with: MappingOptions(keys: .snakeCase))
    #expect(root.commentID == 1 && root.replies.first?.bodyText == "b")
    #expect(root.replies.first?.replies.first?.commentID == 3)
    let json = String(
      decoding: try comments.serialize(root, with: MappingOptions(keys: .kebabCase)),
      as: UTF8.self)
    #expect(json.contains(#""comment-id":3,"body-text":"c""#))
  }

  static let commentMapping: Mapping<Comment> = Mapping(Comment.init) {
    Attribute(\.commentID)
    Attribute(\.bodyText)
    Relationship(\.replies, lazy: { CallKeyConventionTests.commentMapping }).optional()
  }

  @Test func dynamicCasesFollowItAndTheDiscriminatorIsWrittenBack() throws {
    let dynamic = DynamicMapping<User> {
      Match("kind", equals: "user", Self.user)
    }
    let user = try dynamic.map(
      #"{"kind": "user", "user_id": 6, "display_name": "Fay"}"#, with: Self.snake)
    #expect(user == User(userID: 6, displayName: "Fay"))
    let json = String(decoding: try dynamic.serialize(user, with: Self.snake), as: UTF8.self)
    #expect(json.contains(#""user_id":6"#) && json.contains(#""kind":"user""#))
  }

  @Test func mappingOntoExistingInstancesMergesByTheConventionsIdentityKey() throws {
    var issue = Self.expected
    try Self.issue.map(
      #"{"assignees": [{"user_id": 3, "display_name": "Cyrus"}], "created_at": "2025"}"#,
      onto: &issue, with: Self.snake)
    #expect(issue.createdAt == "2025" && issue.issueNumber == 7)
    #expect(issue.assignees == [User(userID: 3, displayName: "Cyrus")])
    #expect(issue.closedBy == Self.expected.closedBy)
  }

  @Test func unknownKeysAreJudgedByTheConventionsKeys() throws {
    let strict = Self.user.rejectingUnknownKeys()
    #expect(
      try strict.map(#"{"user_id": 1, "display_name": "A"}"#, with: Self.snake)
        == User(userID: 1, displayName: "A"))
    let error = #expect(throws: MappingErrors.self) {
      try strict.map(#"{"userID": 1, "display_name": "A"}"#, with: Self.snake)
    }
    // The property name is an unknown key, and the convention's key is missing.
    #expect(error?.errors.map(\.path) == ["/user_id", "/userID"])
    #expect(error?.errors.last?.description.contains("unknown") == true)
  }

  @Test func theCallsOptionsStillWinAtTheRoot() throws {
    let strictUser = Self.user.coercion(.strict)
    let lenient = MappingOptions(coercion: .lenient, keys: .snakeCase)
    let user = try strictUser.map(#"{"user_id": "12", "display_name": "G"}"#, with: lenient)
    #expect(user == User(userID: 12, displayName: "G"))
    #expect(throws: MappingErrors.self) {
      try strictUser.map(#"{"user_id": "12"}"#, with: MappingOptions(keys: .snakeCase))
    }
  }

  struct Place: Equatable, Sendable {
    var cityName = ""
    var postCode = ""
  }

  struct Venue: Equatable, Sendable {
    var venueName = ""
    var place = Place()
  }

  static let place = Mapping(Place.init) {
    Attribute(\.cityName)
    Attribute(\.postCode, default: "")
  }

  /// The place's fields sit in the venue's own object (an empty-source relationship).
  static let venue = Mapping(Venue.init) {
    Attribute(\.venueName)
    Relationship(.root, \.place, place)
  }

  @Test func aChildReadFromItsParentsFieldsFollowsItBothWays() throws {
    let json = #"{"venue_name": "Hall", "city_name": "Oslo", "post_code": "0150"}"#
    let venue = try Self.venue.map(json, with: Self.snake)
    #expect(venue == Venue(venueName: "Hall", place: Place(cityName: "Oslo", postCode: "0150")))
    let written = String(decoding: try Self.venue.serialize(venue, with: Self.snake), as: UTF8.self)
    #expect(written == #"{"venue_name":"Hall","city_name":"Oslo","post_code":"0150"}"#)
    // Without the convention: the property names, both ways.
    let plain = String(decoding: try Self.venue.serialize(venue), as: UTF8.self)
    #expect(plain == #"{"venueName":"Hall","cityName":"Oslo","postCode":"0150"}"#)
    #expect(try Self.venue.map(plain) == venue)
    // Under the convention, the property names are not the child's fields.
    #expect(throws: MappingErrors.self) {
      try Self.venue.map(#"{"venue_name": "Hall", "cityName": "Oslo"}"#, with: Self.snake)
    }
  }

  @Test func unknownKeysNextToAChildReadFromItsParentsFieldsAreJudgedByItsKeys() throws {
    let strict = Self.venue.rejectingUnknownKeys()
    let json = #"{"venue_name": "Hall", "city_name": "Oslo", "post_code": "0150"}"#
    #expect(try strict.map(json, with: Self.snake).place.cityName == "Oslo")
    let error = #expect(throws: MappingErrors.self) {
      try strict.map(#"{"venue_name": "H", "city_name": "O", "postCode": "1"}"#, with: Self.snake)
    }
    #expect(error?.errors.map(\.path) == ["/postCode"])
    // Without the convention, the property names are the known ones.
    #expect(try strict.map(#"{"venueName": "H", "cityName": "O"}"#).place.cityName == "O")
  }

  class Base: @unchecked Sendable {
    // @unchecked: built and read by one test at a time.
    var place = Place()
    required init() {}
  }

  final class Branch: Base, @unchecked Sendable {
    var branchName = ""
  }

  @Test func aSuperclassMappingsFlattenedChildRoundTripsThroughAnInclude() throws {
    let makeBase: @Sendable () -> Base = { Base() }
    let makeBranch: @Sendable () -> Branch = { Branch() }
    let base = Mapping(makeBase) { Relationship(.root, \.place, Self.place) }
    let branch = Mapping(makeBranch) {
      Include(base)
      Attribute(\.branchName)
    }
    let value = Branch()
    value.place = Place(cityName: "Oslo", postCode: "1")
    value.branchName = "north"
    let json = String(decoding: try branch.serialize(value, with: Self.snake), as: UTF8.self)
    #expect(json == #"{"city_name":"Oslo","post_code":"1","branch_name":"north"}"#)
    let again = try branch.map(json, with: Self.snake)
    #expect(again.place == value.place && again.branchName == "north")
  }

  struct Account: Equatable, Sendable {
    var userID = 0
    var legacy = 0
  }

  @Test func keysTheConventionMakesCollideAreAnErrorNotALoss() throws {
    // `userID` becomes "user_id" under snake_case, which another rule spells.
    let mapping = Mapping(Account.init) {
      Attribute(\.userID)
      Attribute("user_id", \.legacy)
    }
    let account = Account(userID: 1, legacy: 2)
    let plain = String(decoding: try mapping.serialize(account), as: UTF8.self)
    #expect(plain == #"{"userID":1,"user_id":2}"#)
    let error = #expect(throws: MappingErrors.self) {
      try mapping.serialize(account, with: Self.snake)
    }
    #expect(error?.description.contains("with the call's key convention") == true)
    // Declared round-trip, mapping with the convention says so too.
    let roundTrip = mapping.roundTrip()
    try roundTrip.validate()
    let mapped = #expect(throws: MappingErrors.self) {
      try roundTrip.map(#"{"user_id": 1}"#, with: Self.snake)
    }
    #expect(mapped?.description.contains("declared roundTrip()") == true)
  }

  @Test func aMapperPassesItToEveryRoute() throws {
    let mapper = Mapper(MappingProvider { Route("issues", Self.issue) })
    let result = try mapper.map("{\"issues\": [\(Self.snakePayload)]}", with: Self.snake)
    #expect(result.all(Issue.self) == [Self.expected])
  }

  @Test func customAndPrefixedConventionsWorkAndManyDoNotGrowWithoutBound() throws {
    let upper = KeyConvention.custom { $0.uppercased() }
    #expect(
      try Self.user.map(#"{"USERID": 1, "DISPLAYNAME": "H"}"#, with: MappingOptions(keys: upper))
        == User(userID: 1, displayName: "H"))
    let prefixed = KeyConvention.snakeCase.prefixed("u:")
    #expect(
      try Self.user.map(
        #"{"u:user_id": 2, "u:display_name": "I"}"#, with: MappingOptions(keys: prefixed))
        == User(userID: 2, displayName: "I"))
    // More conventions than a mapping keeps: each call still gets its own keys.
    for round in 0..<20 {
      let convention = KeyConvention.custom { "k\(round)_" + $0 }
      let json = "{\"k\(round)_userID\": \(round), \"k\(round)_displayName\": \"n\"}"
      #expect(
        try Self.user.map(json, with: MappingOptions(keys: convention))
          == User(userID: round, displayName: "n"))
    }
    // The first ones again, after being forgotten.
    #expect(
      try Self.user.map(#"{"USERID": 5, "DISPLAYNAME": ""}"#, with: MappingOptions(keys: upper))
        .userID == 5)
  }

  @Test func manyTasksWithDifferentConventionsShareOneMapping() async throws {
    let conventions: [(KeyConvention, String, String)] = [
      (.snakeCase, "user_id", "display_name"), (.kebabCase, "user-id", "display-name"),
      (.pascalCase, "UserID", "DisplayName"), (.identity, "userID", "displayName"),
    ]
    try await withThrowingTaskGroup(of: Bool.self) { group in
      for task in 0..<64 {
        let (convention, idKey, nameKey) = conventions[task % conventions.count]
        group.addTask {
          let json = "{\"\(idKey)\": \(task), \"\(nameKey)\": \"t\(task)\"}"
          let user = try Self.user.map(json, with: MappingOptions(keys: convention))
          let written = try Self.user.serialize(user, with: MappingOptions(keys: convention))
          let compact = json.replacingOccurrences(of: " ", with: "")
          return user == User(userID: task, displayName: "t\(task)")
            && String(decoding: written, as: UTF8.self) == compact
        }
      }
      for try await matched in group { #expect(matched) }
    }
  }
}
