import Foundation
import ObjectMapping
import ObjectMappingClient
import ObjectMappingDefinitions
import ObjectMappingTestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A mapping loaded from a definition file works with the object manager like any mapping:
/// responses mapped, request bodies written by its inverse.
@Suite("ObjectManager with a definition file")
struct DefinitionFileClientTests {
  struct Note: DefinableModel, Equatable, Sendable {
    var id = 0
    var text = ""
    var pinned = false

    static let properties = PropertyTable(Note.init) {
      Property(\.id)
      Property(\.text)
      Property(\.pinned)
    }
  }

  static let definitions = """
    // The notes API, in AppCoreKit's .mappings syntax.
    {
      "$Note": {
        "@class": "Note",
        "id": "id",
        "text": "body",
        "pinned": { "@keyPath": "flags.pinned", "@defaultValue": false }
      }
    }
    """

  @Test func getAndPostThroughALoadedMapping() async throws {
    let catalog = try DefinitionCatalog(
      appCoreKitFiles: [.string(Self.definitions, name: "Notes.mappings")], types: [Note.self])
    let mapping: Mapping<Note> = try catalog.mapping("$Note")
    let server = try LoopbackServer(handler: { request in
      switch request.method {
      case "POST": .json(#"{"id": 3, "body": "new", "flags": {"pinned": true}}"#, status: 201)
      default:
        .json(#"[{"id": 1, "body": "one"}, {"id": 2, "body": "two", "flags": {"pinned": true}}]"#)
      }
    })
    defer { server.stop() }
    let manager = ObjectManager(baseURL: server.baseURL, limits: .loopback)
    let notes = try await manager.getCollection("/notes", mapping: mapping)
    #expect(notes == [Note(id: 1, text: "one"), Note(id: 2, text: "two", pinned: true)])
    let created = try await manager.post(Note(text: "new"), mapping: mapping, path: "/notes")
    #expect(created == Note(id: 3, text: "new", pinned: true))
    let sent = try #require(server.requests.last)
    let body = try Node(jsonString: String(decoding: sent.body, as: UTF8.self))
    #expect(body == ["id": 0, "body": "new", "flags": ["pinned": false]])
  }
}
