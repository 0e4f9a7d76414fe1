import Foundation
import ObjectMapping
import ObjectMappingTesting
import Testing

// RestKit's "Handling Dynamic Nesting Attributes" (seed 001).
struct User: Equatable {
  var username = ""
  var email = ""
  var favoriteAnimal = ""
}

private let userMapping = Mapping(User.init) {
  KeyAttribute("username", \.username)
  Attribute("(username).email", \.email)
  Attribute("{username}.favorite_animal", \.favoriteAnimal)
}

private let relativeUserMapping = Mapping(User.init) {
  KeyAttribute("username", \.username)
  Attribute("email", \.email)
  Attribute("favorite_animal", \.favoriteAnimal)
}

private let oneUser = #"{"blake":{"email":"blake@restkit.org","favorite_animal":"Monkey"}}"#
private let twoUsers =
  #"{"blake":{"email":"blake@restkit.org","favorite_animal":"Monkey"},"sarah":{"email":"sarah@restkit.org","favorite_animal":"Cat"}}"#

private func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

@Suite("Nested-dictionary-key mappings")
struct NestedKeyMappingTests {
  @Test func oneUserMapsAndSerializesBackByteForByte() throws {
    for mapping in [userMapping, relativeUserMapping] {
      let user = try mapping.map(oneUser)
      #expect(user == User(username: "blake", email: "blake@restkit.org", favoriteAnimal: "Monkey"))
      #expect(text(try mapping.serialize(user)) == oneUser)
      try RoundTripLaws(mapping).checkValue(user)
      try RoundTripLaws(mapping).checkPayload(json: oneUser)
    }
  }

  @Test func collectionModeMapsOneObjectPerKeyInPayloadOrder() throws {
    let users = try userMapping.mapCollection(twoUsers)
    #expect(users.map(\.username) == ["blake", "sarah"])
    #expect(users.map(\.favoriteAnimal) == ["Monkey", "Cat"])
    #expect(text(try userMapping.serializeCollection(users)) == twoUsers)
  }

  @Test func severalKeysInSingleObjectModeIsAnErrorNamingThem() throws {
    let lines = errorLines { try userMapping.map(twoUsers) }
    #expect(lines == [#"expected one key (the username), found 2 keys: "blake", "sarah""#])
    let none = errorLines { try userMapping.map("{}") }
    #expect(none == ["expected one key (the username), found none"])
  }

  @Test func errorsInsideAKeyedValueNameTheKey() throws {
    let lines = errorLines {
      try userMapping.mapCollection(
        #"{"blake":{"email":"b"},"sarah":{"email":3,"favorite_animal":"Cat"}}"#)
    }
    #expect(
      lines == [
        "/blake/favorite_animal: required value is missing"
        // Lenient coercion turns the number 3 into "3"; strict would refuse it.
      ])
    let strict = userMapping.coercion(.strict)
    let strictLines = errorLines {
      try strict.mapCollection(#"{"sarah":{"email":3,"favorite_animal":"Cat"}}"#)
    }
    #expect(strictLines == ["/sarah/email: expected a string, found 3"])
  }

  @Test func placeholdersWithoutAKeyAttributeAreDefinitionErrors() throws {
    let broken = Mapping(User.init) {
      Attribute("(username).email", \.email)
      Attribute("(login).favorite_animal", \.favoriteAnimal)
    }
    let expected = [
      #"invalid mapping definition: the placeholder (username) in "email" names no key attribute"#,
      #"invalid mapping definition: the placeholder (login) in "favorite_animal" names no key attribute"#,
    ]
    #expect(errorLines { try broken.validate() } == expected)
    #expect(errorLines { try broken.map(oneUser) } == expected)
    let mismatched = Mapping(User.init) {
      KeyAttribute("username", \.username)
      Attribute("(login).email", \.email)
    }
    #expect(
      errorLines { try mismatched.validate() } == [
        #"invalid mapping definition: the placeholder (login) in "email" does not match the key attribute "username""#
      ])
  }

  @Test func duplicateKeysOnSerializationAreAnErrorNamingBothPaths() throws {
    let users = [User(username: "blake"), User(username: "sarah"), User(username: "blake")]
    let lines = errorLines {
      try userMapping.inverted().rootKey("users").serializeCollection(users)
    }
    #expect(lines == [#"/users/2: duplicate key "blake" (also written at /users/0)"#])
  }

  struct Ticket: Equatable {
    var id = 0
    var title = ""
  }

  @Test func integerKeysConvertBothWays() throws {
    let mapping = Mapping(Ticket.init) {
      KeyAttribute("id", \.id)
      Attribute("title", \.title)
    }
    let payload = #"{"42":{"title":"Broken"},"7":{"title":"Slow"}}"#
    let tickets = try mapping.mapCollection(payload)
    #expect(tickets == [Ticket(id: 42, title: "Broken"), Ticket(id: 7, title: "Slow")])
    #expect(text(try mapping.serializeCollection(tickets)) == payload)
    let lines = errorLines { try mapping.mapCollection(#"{"x1":{"title":"?"}}"#) }
    #expect(lines == [#"/x1: cannot convert "x1" to an integer"#])
  }

  // Two levels: teams keyed by name, each with members keyed by login.
  struct Member: Equatable {
    var login = ""
    var email = ""
  }
  struct Team: Equatable {
    var name = ""
    var members: [Member] = []
  }
  struct Organization: Equatable {
    var teams: [Team] = []
    var byName: [String: Team] = [:]
  }

  static let memberMapping = Mapping(Member.init) {
    KeyAttribute("login", \.login)
    Attribute("(login).email", \.email)
  }
  static let teamMapping = Mapping(Team.init) {
    KeyAttribute("name", \.name)
    Relationship("(name).members", \.members, memberMapping)
  }
  static let organizationMapping = Mapping(Organization.init) {
    Relationship("teams", \.teams, teamMapping)
    Relationship("teams", \.byName, teamMapping)
  }

  @Test func teamsAndMembersRoundTripAtTwoLevels() throws {
    let payload =
      #"{"teams":{"core":{"members":{"ann":{"email":"ann@x.org"},"bob":{"email":"bob@x.org"}}},"web":{"members":{"cy":{"email":"cy@x.org"}}}}}"#
    let organization = try Self.organizationMapping.map(payload)
    #expect(organization.teams.map(\.name) == ["core", "web"])
    #expect(organization.teams.first?.members.map(\.login) == ["ann", "bob"])
    #expect(organization.teams.last?.members == [Member(login: "cy", email: "cy@x.org")])
    #expect(organization.byName["web"] == organization.teams.last)
    // Both relationships read "teams"; the inverse writes it once, from the first.
    #expect(text(try Self.organizationMapping.serialize(organization)) == payload)
    try RoundTripLaws(Self.organizationMapping).checkPayload(json: payload)
    try RoundTripLaws(Self.organizationMapping).checkValue(organization)
  }
}
