import Foundation
import ObjectMapping
import ObjectMappingClient
import ObjectMappingTestSupport
import Synchronization
import Testing

/// The store-backed load with a mapping that declares its identity (issue 37): the identity is
/// read from each element's payload, so an updated instance is never mapped new and the user's
/// initializer runs once per new element only.
@Suite("ObjectManager identity store with the mapping's identity")
@MainActor
struct ObjectStoreIdentityTests {
  /// Counts initializer runs.
  final class InitCounter: Sendable {
    private let count = Atomic<Int>(0)
    func increment() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
  }

  /// A model whose initializer has a side effect.
  final class Person {
    var id = 0
    var code: String?
    var name = ""

    init(counter: InitCounter) {
      counter.increment()
    }
  }

  static func mapping(_ counter: InitCounter) -> Mapping<Person> {
    Mapping({ Person(counter: counter) }) {
      Attribute("id", \.id)
      Attribute("name", \.name)
    }.identified(by: \.id)
  }

  /// A server answering each path with its JSON (`[]` for any other).
  static func serve(_ bodies: ObjectStoreTests.Bodies) throws -> (LoopbackServer, ObjectManager) {
    let server = try LoopbackServer { request in .json(bodies[request.path] ?? "[]") }
    return (server, ObjectManager(baseURL: server.baseURL, limits: .loopback))
  }

  @Test func initializersRunOncePerNewElementAndNeverForAnUpdate() async throws {
    let bodies = ObjectStoreTests.Bodies()
    bodies["/people"] = #"[{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bob"}]"#
    let (server, manager) = try Self.serve(bodies)
    defer { server.stop() }
    let counter = InitCounter()
    let mapping = Self.mapping(counter)
    let store = InMemoryObjectStore()
    let first = try await manager.getCollection("/people", mapping: mapping, store: store)
    #expect(counter.value == 2)
    #expect(store.ids(of: Person.self) == ["1", "2"])
    // Two updates, one new identity twice (one instance), and a coerced id of a stored one.
    bodies["/people"] =
      #"[{"id": 1, "name": "Ann 2"}, {"id": "2", "name": "Bob 2"}, {"id": 3, "name": "Cy"}, {"id": 3, "name": "Cy 2"}]"#
    let second = try await manager.getCollection(
      "/people", mapping: mapping, store: store, orphans: .remove)
    #expect(counter.value == 3)
    #expect(second.objects.count == 4)
    #expect(second.objects[0] === first.objects[0] && second.objects[1] === first.objects[1])
    #expect(second.objects[2] === second.objects[3])
    #expect(second.objects.map(\.name) == ["Ann 2", "Bob 2", "Cy 2", "Cy 2"])
    #expect(second.orphans.isEmpty)
    #expect(store.ids(of: Person.self) == ["1", "2", "3"])
  }

  @Test func theMappingsIdentityWinsOverAClosure() async throws {
    let bodies = ObjectStoreTests.Bodies()
    bodies["/people"] = #"[{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bob"}]"#
    let (server, manager) = try Self.serve(bodies)
    defer { server.stop() }
    let counter = InitCounter()
    let store = InMemoryObjectStore()
    var calls = 0
    let load = try await manager.getCollection(
      "/people", mapping: Self.mapping(counter), store: store,
      identity: { person in
        calls += 1
        return "closure-\(person.id)"
      })
    #expect(calls == 0)
    #expect(store.ids(of: Person.self) == ["1", "2"])
    #expect(store.object(of: Person.self, id: "2") === load.objects[1])
    #expect(counter.value == 2)
  }

  @Test func withoutAnyIdentityTheLoadFailsAndChangesNothing() async throws {
    let bodies = ObjectStoreTests.Bodies()
    bodies["/people"] = #"[{"id": 1, "name": "Ann"}]"#
    let (server, manager) = try Self.serve(bodies)
    defer { server.stop() }
    let counter = InitCounter()
    let make: @Sendable () -> Person = { Person(counter: counter) }
    let unidentified = Mapping(make) {
      Attribute("id", \.id)
      Attribute("name", \.name)
    }
    let store = InMemoryObjectStore()
    let error = await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.getCollection("/people", mapping: unidentified, store: store)
    }
    #expect(
      error?.description
        == "the response (status 200) could not be mapped: invalid mapping definition: a "
        + "store-backed load of Person needs an identity: declare identified(by:) on the "
        + "mapping or pass identity:")
    #expect(counter.value == 0)
    #expect(store.ids(of: Person.self).isEmpty)
    // The closure alone still works, mapping each element once.
    let load = try await manager.getCollection(
      "/people", mapping: unidentified, store: store, identity: { "\($0.id)" })
    #expect(counter.value == 1)
    #expect(store.object(of: Person.self, id: "1") === load.objects[0])
  }

  @Test func aFailingElementChangesNothingInTheStore() async throws {
    let bodies = ObjectStoreTests.Bodies()
    bodies["/people"] = #"[{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bob"}]"#
    let (server, manager) = try Self.serve(bodies)
    defer { server.stop() }
    let counter = InitCounter()
    let mapping = Self.mapping(counter)
    let store = InMemoryObjectStore()
    let first = try await manager.getCollection("/people", mapping: mapping, store: store)
    // An update of 1, an id that does not convert and a missing one (new elements, which fail:
    // the id is required), and an update of 2 that fails.
    bodies["/people"] =
      #"[{"id": 1, "name": "Ann 2"}, {"id": [1], "name": "List"}, {"name": "No id"}, {"id": 2, "name": {"x": 1}}]"#
    let error = await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.getCollection(
        "/people", mapping: mapping, store: store, orphans: .remove)
    }
    #expect(
      error?.description
        == "the response (status 200) could not be mapped: /1/id: expected an integer, found an "
        + "array\n/2/id: required value is missing\n/3/name: expected a string, found an object")
    #expect(first.objects.map(\.name) == ["Ann", "Bob"])
    #expect(store.ids(of: Person.self) == ["1", "2"])
    #expect(store.object(of: Person.self, id: "1") === first.objects[0])
    // Without the failing elements: a new identity is made once, 2 is updated, 1 is an orphan.
    bodies["/people"] = #"[{"id": 4, "name": "Di"}, {"id": 2, "name": "Bob 2"}]"#
    let before = counter.value
    let load = try await manager.getCollection(
      "/people", mapping: mapping, store: store, orphans: .remove)
    #expect(counter.value == before + 1)
    #expect(load.objects[1] === first.objects[1] && first.objects[1].name == "Bob 2")
    #expect(load.orphans.map(\.name) == ["Ann"])
    #expect(store.ids(of: Person.self) == ["2", "4"])
  }

  @Test func anElementWithoutAnIdInItsPayloadIsAlwaysNewAndNotStored() async throws {
    let bodies = ObjectStoreTests.Bodies()
    bodies["/people"] =
      #"[{"name": "No code"}, {"code": null, "name": "Null code"}, {"code": "a", "name": "A"}]"#
    let (server, manager) = try Self.serve(bodies)
    defer { server.stop() }
    let counter = InitCounter()
    let byCode = Mapping({ Person(counter: counter) }) {
      Attribute("code", \.code)
      Attribute("name", \.name)
    }.identified(by: \.code)
    let store = InMemoryObjectStore()
    let first = try await manager.getCollection("/people", mapping: byCode, store: store)
    #expect(first.objects.map(\.name) == ["No code", "Null code", "A"])
    #expect(first.objects[0] !== first.objects[1])
    #expect(store.ids(of: Person.self) == ["a"])
    let second = try await manager.getCollection("/people", mapping: byCode, store: store)
    #expect(second.objects[0] !== first.objects[0] && second.objects[1] !== first.objects[1])
    #expect(second.objects[2] === first.objects[2])
    #expect(counter.value == 5)
  }
}
