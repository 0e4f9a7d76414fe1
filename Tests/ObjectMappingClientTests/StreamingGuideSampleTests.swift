import Foundation
import ObjectMapping
import ObjectMappingClient
import ObjectMappingTestSupport
import Testing

/// The object manager samples of `Documentation/Streaming.md`, against a loopback server.
@Suite("Streaming guide samples")
struct StreamingGuideSampleTests {
  struct Event: Equatable, Sendable {
    var id = 0
    var kind = ""
  }

  static let eventMapping = Mapping(Event.init) {
    Attribute("id", \.id)
    Attribute("kind", \.kind)
  }

  @Test func readingFromTheNetwork() async throws {
    let server = try LoopbackServer { _ in
      LoopbackServer.Response(
        status: 200, headers: ["Content-Type": "application/x-ndjson"],
        body: Array(#"{"id": 1, "kind": "login"}\#n{"id": 2, "kind": "view"}\#n"#.utf8))
    }
    defer { server.stop() }
    let api = server.baseURL
    var shown: [Event] = []
    func show(_ event: Event) { shown.append(event) }

    let manager = ObjectManager(baseURL: api, limits: .loopback)
    let feed = try await manager.elements("/events", mapping: Self.eventMapping)
    for try await event in feed {
      show(event)
    }

    #expect(shown == [Event(id: 1, kind: "login"), Event(id: 2, kind: "view")])
    #expect(feed.summary.isComplete)
  }
}
