import Foundation
import ObjectMapping
import Testing

/// Derived mappings behave as hand-written ones where the two meet: empty-source dynamic
/// children, declined and `null` children, key conventions and date formats of a call, and
/// mapping onto existing instances (issue 41).
@Suite("Derived mappings: as hand-written ones")
struct DerivedGapTests {
  struct Star: Codable, Equatable, Sendable { var action: String }
  struct Fork: Codable, Equatable, Sendable { var forkee: String }
  enum Payload: Codable, Equatable, Sendable {
    case star(Star)
    case fork(Fork)
  }

  /// The `type` beside the members a payload's case reads.
  static let payload = DynamicMapping<Payload> {
    Match("type", equals: "star", Mapping(Star.self), case: Payload.star) {
      if case .star(let star) = $0 { star } else { nil }
    }
    Match("type", equals: "fork", Mapping(Fork.self), case: Payload.fork) {
      if case .fork(let fork) = $0 { fork } else { nil }
    }
  }

  struct Event: Codable, Equatable, Sendable {
    var id: Int
    var payload: Payload
  }

  static let derived = Mapping(Event.self) { Relationship(.root, \.payload, payload) }
  static func blankEvent() -> Event { Event(id: 0, payload: .star(Star(action: ""))) }
  static let handWritten = Mapping(blankEvent) {
    Attribute(\.id)
    Relationship(.root, \.payload, payload)
  }

  @Test func anEmptySourceRelationshipReadsAndWritesADynamicChild() throws {
    let star = #"{"id": 1, "type": "star", "action": "started"}"#
    let fork = #"{"id": 2, "type": "fork", "forkee": "o/r"}"#
    for mapping in [Self.derived, Self.handWritten] {
      #expect(try mapping.map(star) == Event(id: 1, payload: .star(Star(action: "started"))))
      #expect(try mapping.map(fork) == Event(id: 2, payload: .fork(Fork(forkee: "o/r"))))
    }
    let event = Event(id: 2, payload: .fork(Fork(forkee: "o/r")))
    #expect(
      String(decoding: try Self.handWritten.serialize(event, as: .json(.sortedKeys)), as: UTF8.self)
        == #"{"forkee":"o/r","id":2,"type":"fork"}"#)
    #expect(
      String(decoding: try Self.derived.serialize(event, as: .json(.sortedKeys)), as: UTF8.self)
        == #"{"forkee":"o/r","id":2,"type":"fork"}"#)
    #expect(try Self.derived.map(try Self.derived.serialize(event)) == event)
  }

  @Test func anOptionalEmptySourceDynamicChildIsNilWhenDeclined() throws {
    struct Maybe: Codable, Equatable, Sendable {
      var id: Int
      var payload: Payload?
    }
    let mapping = Mapping(Maybe.self) { Relationship(.root, \.payload, Self.payload) }
    let report = mapping.report(#"{"id": 3, "type": "watch"}"#)
    #expect(report.object == Maybe(id: 3, payload: nil))
    #expect(
      report.diagnostics.map(\.description) == [#"skipped: no mapping matches: type is "watch""#])
  }

  @Test func aDeclinedOrNullRequiredChildFailsAsInAHandWrittenMapping() throws {
    let declined = #"[{"id": 1, "type": "star", "action": "x"}, {"id": 4, "type": "watch"}]"#
    for mapping in [Self.derived, Self.handWritten] {
      let error = try #require(throws: MappingErrors.self) { try mapping.mapCollection(declined) }
      #expect(error.description == #"/1: no mapping matches: type is "watch""#)
    }
    struct Owner: Codable, Equatable, Sendable { var login: String }
    struct Repo: Codable, Equatable, Sendable {
      var name: String
      var owner: Owner
    }
    let owner = Mapping(Owner.self)
    let derived = Mapping(Repo.self) { Relationship(\.owner, owner) }
    let blank: @Sendable () -> Repo = { Repo(name: "", owner: Owner(login: "")) }
    let handWritten = Mapping(blank) {
      Attribute(\.name)
      Relationship(\.owner, owner)
    }
    for mapping in [derived, handWritten] {
      let error = try #require(throws: MappingErrors.self) {
        try mapping.map(#"{"name": "r", "owner": null}"#)
      }
      #expect(error.description == "/owner: expected an object, found null")
      let missing = try #require(throws: MappingErrors.self) { try mapping.map(#"{"name": "r"}"#) }
      #expect(missing.description == "/owner: required value is missing")
    }
  }

  struct Label: Codable, Equatable, Sendable {
    var name: String
    var colorCode: String
    var isDefault: Bool
  }

  static let labels = """
    [{"name": "bug", "color_code": "d73a4a", "is_default": true},
     {"name": "docs", "color_code": "0075ca", "is_default": false}]
    """

  @Test func aCallsConventionReachesADerivedMappingThatDeclaresNone() throws {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let expected = try decoder.decode([Label].self, from: Data(Self.labels.utf8))
    let snakeCase = MappingOptions(keys: .snakeCase)
    let derived = Mapping(Label.self)
    #expect(try derived.mapCollection(Self.labels, with: snakeCase) == expected)
    #expect(try derived.keys(.snakeCase).mapCollection(Self.labels) == expected)
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.outputFormatting = .sortedKeys
    let written = try derived.serialize(
      expected[0], as: .json(.sortedKeys), with: snakeCase)
    #expect(written == (try encoder.encode(expected[0])))
    #expect(
      try derived.keys(.snakeCase).serialize(expected[0], as: .json(.sortedKeys))
        == (try encoder.encode(expected[0])))
    // Without a convention, the coding keys as they are.
    #expect(
      String(decoding: try derived.serialize(expected[0], as: .json(.sortedKeys)), as: UTF8.self)
        == #"{"colorCode":"d73a4a","isDefault":true,"name":"bug"}"#)
  }

  @Test func aDerivedMappingsOwnConventionWinsOverTheCalls() throws {
    let own = Mapping(Label.self, keys: .kebabCase)
    let label = try own.map(
      #"{"name": "bug", "color-code": "d73a4a", "is-default": true}"#,
      with: MappingOptions(keys: .snakeCase))
    #expect(label == Label(name: "bug", colorCode: "d73a4a", isDefault: true))
    #expect(
      String(
        decoding: try own.serialize(
          label, as: .json(.sortedKeys), with: MappingOptions(keys: .snakeCase)), as: UTF8.self)
        == #"{"color-code":"d73a4a","is-default":true,"name":"bug"}"#)
  }

  @Test func aParentsConventionReachesADerivedChildThatDeclaresNone() throws {
    struct Repo: Equatable, Sendable {
      var fullName = ""
      var labels: [Label] = []
    }
    let repo = Mapping(Repo.init, keys: .snakeCase) {
      Attribute(\.fullName)
      Relationship(\.labels, Mapping(Label.self))
    }
    let payload = #"{"full_name": "o/r", "labels": \#(Self.labels)}"#
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let expected = try decoder.decode([Label].self, from: Data(Self.labels.utf8))
    let mapped = try repo.map(payload)
    #expect(mapped == Repo(fullName: "o/r", labels: expected))
    #expect(try repo.map(try repo.serialize(mapped)) == mapped)
  }

  struct Member: Codable, Equatable, Sendable {
    var login: String
  }

  struct Org: Codable, Equatable, Sendable {
    var name: String
    var teams: [String: Member]
    var backups: [String: Member]?
    var rotas: [String: [Member]]
    var grid: [[Member]]
    var spare: [[Member]]?
  }

  struct Scoreboard: Codable, Equatable, Sendable {
    var topScore: Int
    var byPlayer: [Int: Int]
    var byName: [String: Int]
  }

  /// A dictionary's keys are data under every convention, in both directions: a `[String: V]`'s
  /// always were; an `[Int: V]`'s were written through the convention (`im:7` under
  /// `.identity.prefixed("im:")`) and could not be read back under any spelling.
  @Test func integerDictionaryKeysAreDataUnderEveryConvention() throws {
    let board = Scoreboard(topScore: 9, byPlayer: [7: 9, -1: 0], byName: ["top_score": 1])
    for keys in [nil, KeyConvention.snakeCase, .identity.prefixed("im:"), .kebabCase] {
      let mapping = Mapping(Scoreboard.self, keys: keys)
      let data = try mapping.serialize(board)
      let written = try Node(jsonData: data)
      let players = written[keys?.key(for: "byPlayer") ?? "byPlayer"]
      #expect(players?["7"] == .integer(9), "\(String(describing: keys)): \(written)")
      #expect(players?["-1"] == .integer(0))
      #expect(written[keys?.key(for: "byName") ?? "byName"]?["top_score"] == .integer(1))
      #expect(try mapping.map(data) == board, "\(String(describing: keys))")
    }
  }

  @Test func dictionaryAndNestedCollectionOverridesReadAsInAFullMapping() throws {
    // The child mapping reads "user_login": the overrides' shapes, not the model's Codable.
    let member = Mapping(Member.self) { Attribute("user_login", \.login) }
    let derived = Mapping(Org.self) {
      Relationship(\.teams, member)
      Relationship(\.backups, member)
      Relationship(\.rotas, member)
      Relationship(\.grid, member)
      Relationship(\.spare, member)
    }
    let blank: @Sendable () -> Org = {
      Org(name: "", teams: [:], backups: nil, rotas: [:], grid: [], spare: nil)
    }
    let handWritten = Mapping(blank) {
      Attribute(\.name)
      Relationship(\.teams, member)
      Relationship(\.backups, member)
      Relationship(\.rotas, member)
      Relationship(\.grid, member)
      Relationship(\.spare, member)
    }
    let payload = """
      {"name": "o", "teams": {"core": {"user_login": "ann"}}, "backups": null,
       "rotas": {"mon": [{"user_login": "bob"}, {"user_login": "cy"}]},
       "grid": [[{"user_login": "a"}], []], "spare": [[{"user_login": "z"}]]}
      """
    let org = try derived.map(payload)
    #expect(org == (try handWritten.map(payload)))
    #expect(org.teams == ["core": Member(login: "ann")] && org.backups == nil)
    #expect(org.rotas["mon"]?.map(\.login) == ["bob", "cy"])
    #expect(org.grid == [[Member(login: "a")], []] && org.spare == [[Member(login: "z")]])
    #expect(
      try derived.serialize(org, as: .json(.sortedKeys))
        == (try handWritten.serialize(org, as: .json(.sortedKeys))))
    #expect(try derived.map(try derived.serialize(org)) == org)
    let cases = [
      (
        #"{"name": "o", "teams": null, "rotas": {}, "grid": []}"#,
        "/teams: expected an object, found null"
      ),
      (
        #"{"name": "o", "teams": {"x": {"user_login": 1}}, "rotas": {}, "grid": []}"#,
        "/teams/x/user_login: expected a string, found 1"
      ),
      (
        #"{"name": "o", "teams": {}, "rotas": {"mon": [{}]}, "grid": [[{"user_login": 2}]]}"#,
        "/rotas/mon/0/user_login: required value is missing\n"
          + "/grid/0/0/user_login: expected a string, found 2"
      ),
    ]
    for (bad, expected) in cases {
      let derivedError = try #require(throws: MappingErrors.self) {
        try derived.map(bad, with: MappingOptions(coercion: .strict))
      }
      let handError = try #require(throws: MappingErrors.self) {
        try handWritten.map(bad, with: MappingOptions(coercion: .strict))
      }
      #expect(derivedError.description == expected)
      #expect(handError.description == expected)
    }
  }

  final class Profile: Codable, Sendable {
    let login: String
    let followers: Int

    init(login: String, followers: Int) {
      self.login = login
      self.followers = followers
    }
  }

  struct Counter: Codable, Equatable, Sendable {
    var login: String
    var followers: Int
    var bio: String?
  }

  @Test func ontoAnExistingInstanceAStructIsReplacedAndAClassIsAnError() throws {
    let counters = Mapping(Counter.self)
    var counter = Counter(login: "ann", followers: 1, bio: "hi")
    try counters.map(#"{"login": "ann", "followers": 2}"#, onto: &counter)
    // The whole value `init(from:)` made: the absent optional is nil, not kept.
    #expect(counter == Counter(login: "ann", followers: 2, bio: nil))
    let incomplete = try #require(throws: MappingErrors.self) {
      try counters.map(#"{"followers": 3}"#, onto: &counter)
    }
    #expect(incomplete.description == "/login: required value is missing")
    #expect(counter == Counter(login: "ann", followers: 2, bio: nil))

    let profiles = Mapping(Profile.self)
    let profile = Profile(login: "ann", followers: 1)
    var target = profile
    let error = try #require(throws: MappingErrors.self) {
      try profiles.map(#"{"login": "ann", "followers": 2}"#, onto: &target)
    }
    let expected =
      "invalid mapping definition: a mapping derived from Profile's Codable conformance "
      + "makes new instances with its init(from:) and cannot update an existing Profile in "
      + "place; use the instance map(_:) returns, or write a full mapping"
    #expect(error.description == expected)
    #expect(target === profile)
    #expect(profile.followers == 1)
    #expect(try profiles.map(#"{"login": "ann", "followers": 2}"#).followers == 2)
  }

  struct Author: Codable, Equatable, Sendable {
    var login: String
    var since: Date
  }

  struct Post: Codable, Equatable, Sendable {
    var title: String
    var opened: Date
    var author: Author
  }

  @Test func aDerivedMappingsDateFormatsReachItsOverridesChildren() throws {
    let payload = """
      {"title": "t", "opened": "01/02/2024", "author": {"login": "a", "since": "03/04/2020"}}
      """
    let usDates = [DateFormat.pattern("MM/dd/yyyy")]
    let blankAuthor: @Sendable () -> Author = { Author(login: "", since: .distantPast) }
    let blankPost: @Sendable () -> Post = {
      Post(title: "", opened: .distantPast, author: Author(login: "", since: .distantPast))
    }
    let expected = Post(
      title: "t", opened: Date(timeIntervalSince1970: 1_704_153_600),
      author: Author(login: "a", since: Date(timeIntervalSince1970: 1_583_280_000)))
    for author in [
      Mapping(Author.self),
      Mapping(blankAuthor) {
        Attribute(\.login)
        Attribute(\.since)
      },
    ] {
      let derived = Mapping(Post.self) { Relationship(\.author, author) }.dateFormats(usDates)
      let handWritten = Mapping(blankPost) {
        Attribute(\.title)
        Attribute(\.opened)
        Relationship(\.author, author)
      }.dateFormats(usDates)
      #expect(try derived.map(payload) == expected)
      #expect(try handWritten.map(payload) == expected)
      #expect(
        try derived.serialize(expected, as: .json(.sortedKeys))
          == (try handWritten.serialize(expected, as: .json(.sortedKeys))))
    }
  }

  struct Settings: Codable, Equatable, Sendable {
    var theme: String
    var fontSize: Int
  }

  @Test func keylessOverridesTakeACallsConventionToo() throws {
    let derived = Mapping(Settings.self) { Attribute(\.fontSize, default: 10) }
    let snakeCase = MappingOptions(keys: .snakeCase)
    let payload = #"{"theme": "dark", "font_size": 12}"#
    #expect(try derived.map(payload, with: snakeCase) == Settings(theme: "dark", fontSize: 12))
    #expect(try derived.map(#"{"theme": "dark"}"#, with: snakeCase).fontSize == 10)
    #expect(try derived.keys(.snakeCase).map(payload) == Settings(theme: "dark", fontSize: 12))
    let settings = Settings(theme: "dark", fontSize: 12)
    #expect(
      String(
        decoding: try derived.serialize(settings, as: .json(.sortedKeys), with: snakeCase),
        as: UTF8.self) == #"{"font_size":12,"theme":"dark"}"#)
    // Without a convention: the property names.
    #expect(
      String(decoding: try derived.serialize(settings, as: .json(.sortedKeys)), as: UTF8.self)
        == #"{"fontSize":12,"theme":"dark"}"#)
    #expect(try derived.map(#"{"theme": "dark", "fontSize": 12}"#) == settings)
  }

  @Test func callConventionsFromManyThreadsShareOneDerivedMapping() async throws {
    let derived = Mapping(Settings.self) { Attribute(\.fontSize, default: 10) }
    let conventions: [(KeyConvention, String)] = [
      (.snakeCase, #"{"theme": "a", "font_size": 1}"#),
      (.kebabCase, #"{"theme": "a", "font-size": 1}"#),
      (.pascalCase, #"{"Theme": "a", "FontSize": 1}"#),
    ]
    let expected = Settings(theme: "a", fontSize: 1)
    let results = try await withThrowingTaskGroup(of: Bool.self) { group in
      for task in 0..<12 {
        let (convention, payload) = conventions[task % conventions.count]
        group.addTask {
          var same = true
          for _ in 0..<40 {
            let options = MappingOptions(keys: convention)
            let settings = try derived.map(payload, with: options)
            same = same && settings == expected
            let body = try derived.serialize(settings, with: options)
            let again = try derived.map(body, with: options)
            same = same && again == expected
          }
          return same
        }
      }
      return try await group.reduce(into: [Bool]()) { $0.append($1) }
    }
    #expect(results == Array(repeating: true, count: 12))
  }
}
