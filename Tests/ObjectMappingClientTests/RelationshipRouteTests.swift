import Foundation
import ObjectMapping
import ObjectMappingClient
import ObjectMappingTestSupport
import Testing

/// Relationship routes (RestKit's `routeWithRelationshipName:objectClass:pathPattern:method:`,
/// R-1.16.5): looked up by relationship name, the object's class (nearest first) and method.
@Suite("Router: relationship routes")
struct RelationshipRouteTests {
  class Person: @unchecked Sendable {
    // @unchecked: immutable after init.
    let id: Int
    init(id: Int) { self.id = id }
  }
  final class Employee: Person, @unchecked Sendable {}

  struct Friend: Equatable, Sendable {
    var id = 0
  }

  @Test func aRelationshipRouteIsFoundByNameTypeAndMethod() throws {
    var router = Router()
    try router.add(Person.self, "/people/:id") { ["id": "\($0.id)"] }
    try router.add(relationship: "friends", of: Person.self, .get, "/people/:id/friends") {
      ["id": "\($0.id)"]
    }
    try router.add(relationship: "friends", of: Person.self, .post, "/people/:id/friendships") {
      ["id": "\($0.id)"]
    }
    try router.add(relationship: "photos", of: Person.self, "/people/:id/photos") {
      ["id": "\($0.id)"]
    }
    let person = Person(id: 7)
    #expect(try router.path(forRelationship: "friends", of: person) == "/people/7/friends")
    #expect(
      try router.path(forRelationship: "friends", of: person, method: .post)
        == "/people/7/friendships")
    // An any-method relationship route serves every method.
    #expect(
      try router.path(forRelationship: "photos", of: person, method: .delete)
        == "/people/7/photos")
    // The object's own route is not a relationship's, nor the reverse.
    #expect(try router.path(for: person, method: .get) == "/people/7")
    let missing = #expect(throws: ObjectManagerError.self) {
      try router.path(forRelationship: "enemies", of: person)
    }
    #expect(missing?.description == "no route for GET Person.enemies")
    #expect(throws: ObjectManagerError.self) {
      try router.path(forRelationship: "friends", of: person, method: .delete)
    }
  }

  @Test func aSubclassUsesItsOwnRouteFirstThenItsSuperclasses() throws {
    var router = Router()
    try router.add(relationship: "friends", of: Person.self, .get, "/people/:id/friends") {
      ["id": "\($0.id)"]
    }
    #expect(
      try router.path(forRelationship: "friends", of: Employee(id: 3)) == "/people/3/friends")
    // A nearer class's any-method route wins over a farther class's exact method (RestKit).
    try router.add(relationship: "friends", of: Employee.self, "/employees/:id/colleagues") {
      ["id": "\($0.id)"]
    }
    #expect(
      try router.path(forRelationship: "friends", of: Employee(id: 3))
        == "/employees/3/colleagues")
    #expect(try router.path(forRelationship: "friends", of: Person(id: 3)) == "/people/3/friends")
  }

  @Test func aSecondRouteForTheSameRelationshipAndMethodIsAnError() throws {
    var router = Router()
    try router.add(relationship: "friends", of: Person.self, .get, "/a/:id") { ["id": "\($0.id)"] }
    let error = #expect(throws: RouterError.self) {
      try router.add(relationship: "friends", of: Person.self, .get, "/b/:id") {
        ["id": "\($0.id)"]
      }
    }
    #expect(
      error?.description
        == #"Person.friends already has a route for GET ("/a/:id"); "/b/:id" would make the choice ambiguous"#
    )
    // Another relationship, or the object's own route, with the same method is not a clash.
    try router.add(relationship: "photos", of: Person.self, .get, "/c/:id") { ["id": "\($0.id)"] }
    try router.add(Person.self, .get, "/d/:id") { ["id": "\($0.id)"] }
    #expect(try router.path(for: Person(id: 1), method: .get) == "/d/1")
  }

  @Test func matchingAPathNamesTheRelationship() throws {
    var router = Router()
    try router.add(relationship: "friends", of: Person.self, .get, "/people/:id/friends") {
      ["id": "\($0.id)"]
    }
    let match = try #require(router.match("/people/12/friends?page=2", method: .get))
    #expect(match.relationship == "friends")
    #expect(match.typeName == "Person")
    #expect(match.parameters == ["id": "12"])
    #expect(match.arguments == ["id": "12", "page": "2"])
  }

  /// End to end, as RestKit's `getObjectsAtPathForRelationship:ofObject:` was used.
  @Test func theRelatedObjectsAreLoadedFromTheRelationshipsPath() async throws {
    var router = Router()
    try router.add(relationship: "friends", of: Person.self, .get, "/people/:id/friends") {
      ["id": "\($0.id)"]
    }
    let server = try LoopbackServer { request in
      request.target == "/api/people/7/friends"
        ? .json(#"[{"id": 1}, {"id": 2}]"#) : LoopbackServer.Response(status: 404)
    }
    defer { server.stop() }
    let base = try #require(URL(string: "http://127.0.0.1:\(server.port)/api"))
    let manager = ObjectManager(baseURL: base, router: router, limits: .loopback)
    let friendMapping = Mapping(Friend.init) { Attribute("id", \.id) }
    let path = try manager.router.path(forRelationship: "friends", of: Person(id: 7))
    let friends = try await manager.getCollection(path, mapping: friendMapping)
    #expect(friends == [Friend(id: 1), Friend(id: 2)])
    #expect(server.requests.map(\.target) == ["/api/people/7/friends"])
  }
}
