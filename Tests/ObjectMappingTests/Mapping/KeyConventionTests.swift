import Foundation
import ObjectMapping
import ObjectMappingTesting
import Testing

/// Keys derived from property names through a mapping's key convention (issue 20).
@Suite("Key conventions")
struct KeyConventionTests {
  struct User: Equatable, Sendable {
    var login = ""
    var htmlURL = ""
    var userID = 0
  }

  struct Issue: Equatable, Sendable {
    var number = 0
    var createdAt = ""
    var closedBy: User?
    var assignees: [User] = []
    var labelsByName: [String: User] = [:]
    var stateReason: String?
    var title = ""
  }

  static let user = Mapping(User.init, keys: .snakeCase) {
    Attribute(\.login)
    Attribute(\.htmlURL)
    Attribute(\.userID)
  }

  static let issue = Mapping(Issue.init, keys: .snakeCase) {
    Attribute("id", \.number)  // an explicit key wins
    Attribute(\.createdAt)
    Relationship(\.closedBy, user)
    Relationship(\.assignees, user)
    Relationship(\.labelsByName, user).optional()
    Attribute(\.stateReason)
    Attribute(\.title, default: "untitled")
  }

  static let payload = """
    {"id": 7, "created_at": "2024", "closed_by": {"login": "ann", "html_url": "u", "user_id": 1},
     "assignees": [{"login": "bob", "html_url": "v", "user_id": 2}], "state_reason": null}
    """

  @Test func keylessRulesReadTheConventionsKeys() throws {
    let issue = try Self.issue.map(Self.payload)
    #expect(issue.number == 7 && issue.createdAt == "2024" && issue.title == "untitled")
    #expect(issue.closedBy == User(login: "ann", htmlURL: "u", userID: 1))
    #expect(issue.assignees.map(\.login) == ["bob"])
  }

  @Test func theInverseWritesTheSameKeys() throws {
    let issue = try Self.issue.map(Self.payload)
    let json = String(decoding: try Self.issue.serialize(issue), as: UTF8.self)
    #expect(json.contains(#""created_at":"2024""#))
    #expect(json.contains(#""closed_by":{"login":"ann","html_url":"u","user_id":1}"#))
    try RoundTripLaws(Self.issue).checkValue(issue)
  }

  @Test func conventionsMakeTheExpectedKeys() {
    let cases: [(String, String, String, String)] = [
      ("createdAt", "created_at", "created-at", "CreatedAt"),
      ("htmlURL", "html_url", "html-url", "HtmlURL"),
      ("userID", "user_id", "user-id", "UserID"),
      ("htmlURLString", "html_url_string", "html-url-string", "HtmlURLString"),
      ("line2Text", "line2_text", "line2-text", "Line2Text"),
      ("name", "name", "name", "Name"),
    ]
    for (name, snake, kebab, pascal) in cases {
      #expect(KeyConvention.snakeCase.key(for: name) == snake)
      #expect(KeyConvention.kebabCase.key(for: name) == kebab)
      #expect(KeyConvention.pascalCase.key(for: name) == pascal)
      #expect(KeyConvention.identity.key(for: name) == name)
    }
    #expect(KeyConvention.identity.prefixed("im:").key(for: "name") == "im:name")
    #expect(KeyConvention.custom { $0.uppercased() }.key(for: "id") == "ID")
  }

  @Test func withoutAConventionTheNameIsTheKey() throws {
    let plain = Mapping(User.init) {
      Attribute(\.login)
      Attribute(\.userID)
    }
    #expect(try plain.map(#"{"login": "x", "userID": 3}"#) == User(login: "x", userID: 3))
    // The same rules under a convention set later.
    let kebab = plain.keys(.kebabCase)
    #expect(try kebab.map(#"{"login": "y", "user-id": 4}"#) == User(login: "y", userID: 4))
  }

  @Test func prefixedConventionsReadNamespacedKeys() throws {
    struct Track: Equatable, Sendable {
      var name = ""
      var artist = ""
    }
    let mapping = Mapping(Track.init, keys: .identity.prefixed("im:")) {
      Attribute(\.name)
      Attribute(\.artist)
    }
    #expect(
      try mapping.map(#"{"im:name": "Song", "im:artist": "Band"}"#)
        == Track(name: "Song", artist: "Band"))
  }

  @Test func nestedKeyPathsConvertEachComponent() throws {
    struct Address: Equatable, Sendable { var postCode = "" }
    struct Person: Equatable, Sendable { var homeAddress = Address() }
    let mapping = Mapping(Person.init, keys: .snakeCase) { Attribute(\.homeAddress.postCode) }
    #expect(
      try mapping.map(#"{"home_address": {"post_code": "0150"}}"#).homeAddress.postCode == "0150")
  }

  struct Computed: Sendable {
    var stored = 0
    var doubled: Int {
      get { stored * 2 }
      set { stored = newValue / 2 }
    }
  }

  @Test func aNameThatCannotBeReadIsADefinitionProblem() throws {
    let mapping = Mapping(Computed.init, keys: .snakeCase) { Attribute(\.doubled) }
    let error = #expect(throws: MappingErrors.self) { try mapping.validate() }
    #expect(error?.description.contains("has no key, and the property name cannot be read") == true)
    #expect(error?.description.contains("spell the key") == true)
    #expect(throws: MappingErrors.self) { try mapping.map(#"{"doubled": 4}"#) }
    // Spelled, it works.
    let spelled = Mapping(Computed.init) { Attribute("doubled", \.doubled) }
    #expect(try spelled.map(#"{"doubled": 4}"#).stored == 2)
  }

  @Test func dynamicAndNestedKeyMappingsUseTheirCasesConventions() throws {
    let dynamic = DynamicMapping<User> {
      Match("kind", equals: "user", Self.user)
    }
    #expect(
      try dynamic.map(#"{"kind": "user", "login": "z", "html_url": "h", "user_id": 9}"#).userID == 9
    )
    let keyed = Mapping(User.init, keys: .snakeCase) {
      KeyAttribute("login", \.login)
      Attribute("(login).user_id", \.userID)
    }
    #expect(try keyed.map(#"{"ann": {"user_id": 5}}"#) == User(login: "ann", userID: 5))
  }
}
