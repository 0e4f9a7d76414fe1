import Foundation
import ObjectMapping
import Testing

/// `GroupMatching`: any-of (the default) and all-of (CSMapper) selection of grouped rules,
/// per call and per mapping, reaching child mappings, when mapping and when serializing.
@Suite("Groups: any-of and all-of matching")
struct GroupMatchingTests {
  struct Person: Equatable {
    var name: String?
    var age: Int?
    var address: String?
    var height: Int?
    var friend: Friend?
  }

  struct Friend: Equatable {
    var nick: String?
    var bio: String?
  }

  static let friendMapping = Mapping(Friend.init) {
    Attribute("nick", \.nick).groups("list", "detail")
    Attribute("bio", \.bio).groups("detail")
  }

  static let personMapping = Mapping(Person.init) {
    Attribute("person_name", \.name).groups("list")
    Attribute("person_age", \.age).groups(["detail", "list"])
    Attribute("address", \.address).groups("detail")
    Attribute("person_height", \.height)
    Relationship("friend", \.friend, friendMapping)
  }

  static let payload = #"""
    {"person_name": "Ann", "person_age": 41, "address": "Main St", "person_height": 170,
     "friend": {"nick": "bo", "bio": "hi"}}
    """#

  @Test func callOptionsReachChildren() throws {
    let allOf = try Self.personMapping.map(
      Self.payload, with: MappingOptions(groups: ["list", "detail"], groupMatching: .allOf))
    #expect(
      allOf == Person(name: nil, age: 41, address: nil, height: 170, friend: Friend(nick: "bo")))
    let anyOf = try Self.personMapping.map(
      Self.payload, with: MappingOptions(groups: ["list", "detail"]))
    #expect(anyOf.name == "Ann")
    #expect(anyOf.address == "Main St")
    #expect(anyOf.friend == Friend(nick: "bo", bio: "hi"))
  }

  @Test func mappingOwnMatchingWhenSerializing() throws {
    let person = Person(
      name: "Ann", age: 41, address: "Main St", height: 170, friend: Friend(nick: "bo", bio: "hi"))
    let restricted = Self.personMapping.groups(["list", "detail"], matching: .allOf)
    #expect(
      try restricted.node(person)
        == [
          "person_age": 41, "person_height": 170, "friend": ["nick": "bo"],
        ])
    let perCall = try Self.personMapping.node(
      person, with: MappingOptions(groups: ["detail"], groupMatching: .allOf))
    #expect(perCall["person_name"] == nil)
    #expect(perCall["address"] == "Main St")
    #expect(perCall["friend"]?["bio"] == "hi")
  }
}
