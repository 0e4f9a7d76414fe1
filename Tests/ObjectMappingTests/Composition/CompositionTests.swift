import Foundation
import ObjectMapping
import Testing

class Human {
  var name = ""
  var age: Int?
  required init() {}
}

final class Coder: Human {
  var skills: [String] = []
}

private let humanMapping = Mapping(Human.init) {
  Attribute("person_name", \.name)
  Attribute("person_age", \.age)
}

private let resourceMapping = Mapping(Human.init) {
  Attribute("resource_name", \.name)
}

private let coderMapping = Mapping(Coder.init) {
  Include(humanMapping)
  Include(resourceMapping)
  Attribute("programming_skills", \.skills, default: [])
}

@Suite("Composition, groups, unknown keys and definition checks")
struct CompositionTests {
  @Test func laterIncludedRulesWinWhenTheirSourceIsPresent() throws {
    let programmer = try coderMapping.map(
      #"{"person_name": "Ann", "resource_name": "Dr. Ann", "person_age": 40, "programming_skills": ["swift"]}"#
    )
    #expect(programmer.name == "Dr. Ann")
    #expect(programmer.age == 40)
    #expect(programmer.skills == ["swift"])
  }

  @Test func anAbsentSourceNeverOverwritesAnotherRulesValue() throws {
    let programmer = try coderMapping.map(#"{"person_name": "Ann"}"#)
    #expect(programmer.name == "Ann")
    #expect(programmer.skills == [])
  }

  @Test func aPropertyWithSeveralRulesIsRequiredOnlyWhenEveryoneIsAbsent() throws {
    let onlyLater = try coderMapping.map(#"{"resource_name": "R"}"#)
    #expect(onlyLater.name == "R")
    let error = try #require(throws: MappingErrors.self) {
      try coderMapping.map(#"{"person_age": 3}"#)
    }
    #expect(error.errors.map(\.description) == ["/resource_name: required value is missing"])
  }

  @Test func includedRulesMergeOntoAnExistingSubclassInstance() throws {
    var programmer = try coderMapping.map(#"{"person_name": "Ann", "person_age": 1}"#)
    try coderMapping.map(
      #"{"resource_name": "Res", "programming_skills": ["c"]}"#, onto: &programmer)
    #expect(programmer.name == "Res")
    #expect(programmer.age == 1)
    #expect(programmer.skills == ["c"])
  }

  @Test func theInverseIncludesTheIncludedRules() throws {
    let programmer = Coder()
    programmer.name = "Ann"
    programmer.skills = ["swift"]
    let node = try coderMapping.inverted().node(programmer)
    #expect(
      node == ["person_name": "Ann", "resource_name": "Ann", "programming_skills": ["swift"]])
    let back = try coderMapping.map(node)
    #expect(back.name == "Ann" && back.skills == ["swift"])
  }

  @Test func aStructMappingIncludesASharedRuleSet() throws {
    struct Item: Equatable {
      var id = 0
      var title = ""
    }
    let common = Mapping(Item.init) { Attribute("id", \.id) }
    let mapping = Mapping(Item.init) {
      Include(common)
      Attribute("title", \.title)
    }
    #expect(try mapping.map(#"{"id": 3, "title": "T"}"#) == Item(id: 3, title: "T"))
  }

  @Test func includingAnUnrelatedTypeIsADefinitionProblem() throws {
    struct Other {
      var name = ""
    }
    let mapping = Mapping(Coder.init) {
      Include(Mapping(Other.init) { Attribute("name", \.name) })
    }
    let error = try #require(throws: MappingErrors.self) { try mapping.validate() }
    #expect(
      error.errors.map(\.description) == [
        "invalid mapping definition: Include(Mapping<Other>) in a Mapping<Coder>: Coder is not Other or a subclass of it"
      ])
  }

  // MARK: Groups

  struct User: Equatable {
    var id = 0
    var name = ""
    var biography: String?
  }

  static let userMapping = Mapping(User.init) {
    Attribute("id", \.id)
    Attribute("name", \.name, default: "").groups("list", "detail")
    Attribute("biography", \.biography).groups("detail")
  }

  static let userJSON = #"{"id": 1, "name": "Ann", "biography": "Long"}"#

  @Test func groupsRestrictMapping() throws {
    #expect(
      try Self.userMapping.groups(["list"]).map(Self.userJSON)
        == User(id: 1, name: "Ann", biography: nil))
    #expect(
      try Self.userMapping.groups(["detail"]).map(Self.userJSON)
        == User(id: 1, name: "Ann", biography: "Long"))
    // An empty selection selects every rule, as no selection does (issue 35).
    #expect(
      try Self.userMapping.groups([]).map(Self.userJSON)
        == User(id: 1, name: "Ann", biography: "Long"))
    #expect(
      try Self.userMapping.map(Self.userJSON) == User(id: 1, name: "Ann", biography: "Long"))
  }

  @Test func groupsRestrictSerialization() throws {
    let user = User(id: 1, name: "Ann", biography: "Long")
    #expect(
      try Self.userMapping.groups(["list"]).inverted().node(user) == ["id": 1, "name": "Ann"])
    #expect(try Self.userMapping.groups(["other"]).inverted().node(user) == ["id": 1])
  }

  @Test func rulesInDisjointGroupsMayWriteOneProperty() throws {
    let mapping = Mapping(User.init) {
      Attribute("id", \.id)
      Attribute("short_name", \.name).groups("list")
      Attribute("full_name", \.name).groups("detail")
    }
    try mapping.validate()
    #expect(try mapping.groups(["list"]).map(#"{"id": 1, "short_name": "A"}"#).name == "A")
    #expect(try mapping.groups(["detail"]).map(#"{"id": 1, "full_name": "Ann"}"#).name == "Ann")
  }

  // MARK: Unknown keys

  @Test func unknownKeysAreIgnoredByDefault() throws {
    #expect(try Self.userMapping.map(#"{"id": 1, "extra": true}"#).id == 1)
  }

  @Test func rejectingUnknownKeysReportsEachWithItsPath() throws {
    struct Team: Equatable {
      var members: [User] = []
    }
    let strictUser = Self.userMapping.rejectingUnknownKeys()
    let mapping = Mapping(Team.init) {
      Relationship("members", \.members, strictUser)
    }.rejectingUnknownKeys()
    let error = try #require(throws: MappingErrors.self) {
      try mapping.map(
        #"{"members": [{"id": 1}, {"id": 2, "nickname": "b", "age": 3}], "size": 2}"#)
    }
    #expect(
      error.errors.map(\.description) == [
        "/members/1/nickname: unknown key", "/members/1/age: unknown key", "/size: unknown key",
      ])
    #expect(try mapping.map(#"{"members": [{"id": 1, "name": "A"}]}"#).members.count == 1)
  }

  @Test func keysReadByCompoundAndFlatChildRulesAreKnown() throws {
    struct Point: Equatable {
      var x = 0
      var y = 0
    }
    struct Shape: Equatable {
      var label = ""
      var origin: Point?
    }
    let mapping = Mapping(Shape.init) {
      Attribute(sources: ["kind", "size"], \.label, .joined("/"))
      Relationship(
        .root, \.origin,
        Mapping(Point.init) {
          Attribute("x", \.x)
          Attribute("y", \.y)
        })
    }.rejectingUnknownKeys()
    let shape = try mapping.map(#"{"kind": "box", "size": "L", "x": 1, "y": 2}"#)
    #expect(shape == Shape(label: "box/L", origin: Point(x: 1, y: 2)))
    #expect(throws: MappingErrors.self) { try mapping.map(#"{"kind": "a", "size": "b", "z": 1}"#) }
  }

  // MARK: Definition checks

  @Test func definitionProblemsAreReportedTogether() throws {
    let mapping = Mapping(User.init) {
      Attribute("id", \.id)
      Attribute("identifier", \.id)
      Attribute("name", \.name, decodeOnly: { (text: String) in text.uppercased() })
      Attribute("(missing).bio", \.biography)
    }.roundTrip()
    let error = try #require(throws: MappingErrors.self) { try mapping.validate() }
    #expect(
      error.errors.map(\.description) == [
        "invalid mapping definition: the placeholder (missing) in \"bio\" names no key attribute",
        "invalid mapping definition: \"id\" and \"identifier\" both write \\User.id; keep one, or put the alternatives in included mappings (later wins)",
        "invalid mapping definition: Attribute \"name\" is one-way (it converts with a one-way closure or transform), but the mapping is declared roundTrip()",
      ])
    // Also on first use.
    #expect(throws: MappingErrors.self) { try mapping.map(#"{"id": 1}"#) }
  }

  @Test func aRoundTripMappingOfTwoWayRulesIsValid() throws {
    try Self.userMapping.roundTrip().validate()
  }

  @Test func anEmptyDynamicMappingIsADefinitionProblem() throws {
    let empty = DynamicMapping<User> {}
    let error = try #require(throws: MappingErrors.self) { try empty.validate() }
    #expect(
      error.errors.map(\.description) == [
        "invalid mapping definition: DynamicMapping<User> has no matchers, so it maps nothing"
      ])
    #expect(throws: MappingErrors.self) { try empty.map(#"{"id": 1}"#) }
  }
}
