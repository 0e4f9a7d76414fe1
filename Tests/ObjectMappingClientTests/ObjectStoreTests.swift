import Foundation
import ObjectMapping
import ObjectMappingClient
import ObjectMappingTestSupport
import Testing

/// The identity store against a real server (issue 33): transactional loads, the shapes
/// `getCollection` accepts, missing identities, concurrent loads, and models that need not be
/// `Sendable` because loads run in the caller's isolation.
@Suite("ObjectManager identity store")
@MainActor
struct ObjectStoreTests {
  /// Not `Sendable`: the store and its loads keep it on the main actor.
  final class Human {
    var id: Int?
    var name = ""
  }

  static let humanMapping = Mapping(Human.init) {
    Attribute("id", \.id)
    Attribute("name", \.name)
  }

  static func identity(_ human: Human) -> String? { human.id.map { "\($0)" } }

  /// A server answering each path with its JSON.
  final class Bodies: @unchecked Sendable {
    // @unchecked: `bodies` is only touched under `lock`.
    private let lock = NSLock()
    private var bodies: [String: String] = [:]

    subscript(path: String) -> String? {
      get { lock.withLock { bodies[path] } }
      set { lock.withLock { bodies[path] = newValue } }
    }
  }

  static func serve(_ bodies: Bodies) throws -> (LoopbackServer, ObjectManager) {
    let server = try LoopbackServer { request in
      .json(bodies[request.path] ?? "[]")
    }
    let provider = MappingProvider { Route("people.humans", humanMapping, name: "humans") }
    return (server, ObjectManager(baseURL: server.baseURL, provider: provider, limits: .loopback))
  }

  @Test func aFailingElementChangesNothingInTheStore() async throws {
    let bodies = Bodies()
    bodies["/humans"] = #"[{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bob"}]"#
    let (server, manager) = try Self.serve(bodies)
    defer { server.stop() }
    let store = InMemoryObjectStore()
    let first = try await manager.getCollection(
      "/humans", mapping: Self.humanMapping, store: store, identity: Self.identity)
    // Updates 1, inserts 3, then an element that fails; and an update of 2 that fails.
    bodies["/humans"] =
      #"[{"id": 1, "name": "Ann, renamed"}, {"id": 3, "name": "Cy"}, {"id": 4, "name": [1]}, {"id": 2, "name": {"x": 1}}]"#
    let error = await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.getCollection(
        "/humans", mapping: Self.humanMapping, store: store, identity: Self.identity,
        orphans: .remove)
    }
    #expect(
      error?.description
        == "the response (status 200) could not be mapped: /2/name: expected a string, found an "
        + "array\n/3/name: expected a string, found an object"
    )
    #expect(first.objects.map(\.name) == ["Ann", "Bob"])
    #expect(store.ids(of: Human.self) == ["1", "2"])
    #expect(store.object(of: Human.self, id: "1") === first.objects[0])
  }

  @Test func aSingleObjectAKeyPathAndAProviderRouteAllLoadIntoTheStore() async throws {
    let bodies = Bodies()
    bodies["/one"] = #"{"id": 1, "name": "Ann"}"#
    bodies["/wrapped"] = #"{"humans": [{"id": 1, "name": "Ann 2"}, {"id": 2, "name": "Bob"}]}"#
    bodies["/each"] =
      #"[{"human": {"id": 2, "name": "Bob 2"}}, {"human": {"id": 3, "name": "Cy"}}]"#
    bodies["/routed"] = #"{"people": {"humans": [{"id": 3, "name": "Cy 2"}]}}"#
    let (server, manager) = try Self.serve(bodies)
    defer { server.stop() }
    let store = InMemoryObjectStore()
    let one = try await manager.getCollection(
      "/one", mapping: Self.humanMapping, store: store, identity: Self.identity)
    let ann = try #require(one.objects.first)
    let wrapped = try await manager.getCollection(
      "/wrapped", mapping: Self.humanMapping, rootKey: "humans", store: store,
      identity: Self.identity)
    #expect(wrapped.objects[0] === ann && ann.name == "Ann 2")
    let bob = wrapped.objects[1]
    let each = try await manager.getCollection(
      "/each", mapping: Self.humanMapping, rootKey: "human", store: store,
      identity: Self.identity)
    #expect(each.objects[0] === bob && bob.name == "Bob 2")
    let cy = each.objects[1]
    let routed = try await manager.getCollection(
      "/routed", route: "humans", as: Human.self, store: store, identity: Self.identity)
    #expect(routed.objects.count == 1 && routed.objects[0] === cy && cy.name == "Cy 2")
    #expect(routed.orphans.map(\.name) == ["Ann 2", "Bob 2"])
    #expect(store.ids(of: Human.self) == ["1", "2", "3"])
    let unknown = await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.getCollection(
        "/routed", route: "robots", as: Human.self, store: store, identity: Self.identity)
    }
    #expect(unknown?.description == #"no route for the provider route named "robots" for Human"#)
  }

  @Test func anElementWithoutIdentityIsAlwaysNew() async throws {
    let bodies = Bodies()
    bodies["/humans"] = #"[{"name": "No id"}, {"name": "No id either"}, {"id": 5, "name": "Five"}]"#
    let (server, manager) = try Self.serve(bodies)
    defer { server.stop() }
    let store = InMemoryObjectStore()
    let first = try await manager.getCollection(
      "/humans", mapping: Self.humanMapping, store: store, identity: Self.identity)
    #expect(first.objects.map(\.name) == ["No id", "No id either", "Five"])
    #expect(first.objects[0] !== first.objects[1])
    #expect(store.ids(of: Human.self) == ["5"])
    let second = try await manager.getCollection(
      "/humans", mapping: Self.humanMapping, store: store, identity: Self.identity)
    #expect(second.objects[0] !== first.objects[0] && second.objects[1] !== first.objects[1])
    #expect(second.objects[2] === first.objects[2])
  }

  @Test func theSameIdentityTwiceInOneResponseIsOneInstance() async throws {
    let bodies = Bodies()
    bodies["/humans"] = #"[{"id": 1, "name": "first"}, {"id": 1, "name": "second"}]"#
    let (server, manager) = try Self.serve(bodies)
    defer { server.stop() }
    let store = InMemoryObjectStore()
    let new = try await manager.getCollection(
      "/humans", mapping: Self.humanMapping, store: store, identity: Self.identity)
    #expect(new.objects[0] === new.objects[1] && new.objects[0].name == "second")
    bodies["/humans"] = #"[{"id": 1, "name": "third"}, {"id": 1, "name": "fourth"}]"#
    let stored = try await manager.getCollection(
      "/humans", mapping: Self.humanMapping, store: store, identity: Self.identity)
    #expect(stored.objects[0] === new.objects[0] && stored.objects[1] === new.objects[0])
    #expect(new.objects[0].name == "fourth")
  }

  /// Holds every response until two requests have arrived, so two loads are in flight at once.
  final class Barrier: @unchecked Sendable {
    // @unchecked: `arrived` is only touched under `condition`.
    private let condition = NSCondition()
    private var arrived = 0

    func wait(for count: Int) {
      condition.lock()
      defer { condition.unlock() }
      arrived += 1
      condition.broadcast()
      let deadline = Date().addingTimeInterval(5)
      while arrived < count, condition.wait(until: deadline) {}
    }
  }

  @Test func twoConcurrentLoadsOfANewIdentityInsertOneInstance() async throws {
    let barrier = Barrier()
    let server = try LoopbackServer { request in
      barrier.wait(for: 2)
      return .json(#"[{"id": 7, "name": "\#(request.path)"}]"#)
    }
    defer { server.stop() }
    let manager = ObjectManager(baseURL: server.baseURL, limits: .loopback)
    let store = InMemoryObjectStore()
    // Both tasks run their merge on the main actor, where the store lives; the compiler
    // rejects sharing the store with a task of another isolation.
    let first = Task { @MainActor in
      try await manager.getCollection(
        "/a", mapping: Self.humanMapping, store: store, identity: Self.identity
      ).objects.map(ObjectIdentifier.init)
    }
    let second = Task { @MainActor in
      try await manager.getCollection(
        "/b", mapping: Self.humanMapping, store: store, identity: Self.identity
      ).objects.map(ObjectIdentifier.init)
    }
    let (a, b) = (try await first.value, try await second.value)
    #expect(server.requests.count == 2)
    #expect(a == b)
    #expect(store.ids(of: Human.self) == ["7"])
    let stored = try #require(store.object(of: Human.self, id: "7") as? Human)
    #expect([ObjectIdentifier(stored)] == a)
    #expect(["/a", "/b"].contains(stored.name))
  }
}
