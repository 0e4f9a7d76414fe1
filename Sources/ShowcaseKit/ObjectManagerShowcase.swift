import Foundation
import ObjectMapping
import ObjectMappingClient
import ObjectMappingTestSupport

/// The object manager section of `swift run showcase`: a short session against a small notes API
/// that the showcase serves itself on 127.0.0.1 (list, create, update, a 422, delete, a response
/// over the size limit).
public enum ObjectManagerShowcase {
  /// A note of the demo API.
  public struct Note: Sendable, Equatable {
    public var id = 0
    public var title = ""
    public var done = false

    public init(id: Int = 0, title: String = "", done: Bool = false) {
      self.id = id
      self.title = title
      self.done = done
    }
  }

  /// A fresh note for the mapping to fill.
  @Sendable static func empty() -> Note { Note() }

  /// The note's mapping: reads responses, writes request bodies.
  public static let noteMapping = Mapping(empty) {
    Attribute("id", \.id)
    Attribute("title", \.title)
    Attribute("done", \.done, default: false)
  }

  /// The routes of the demo API.
  ///
  /// - Throws: ``RouterError`` for a mistake in a route (there is none).
  public static func makeRouter() throws(RouterError) -> Router {
    var router = Router()
    try router.add(Note.self, "/notes/:id") { ["id": "\($0.id)"] }
    try router.add(Note.self, .post, "/notes")
    return router
  }

  /// Runs the session and describes each step.
  ///
  /// - Parameter limits: The object manager's limits (a test on a busy machine waits longer).
  public static func section(limits: RequestLimits = .standard) async -> Showcase.Section {
    let title = "6. The object manager against a loopback server"
    let api = NotesAPI()
    let server: LoopbackServer
    let router: Router
    do {
      server = try LoopbackServer { api.answer($0) }
      router = try makeRouter()
    } catch {
      return Showcase.Section(title: title, lines: ["cannot start the session: \(error)"])
    }
    defer { server.stop() }
    let manager = ObjectManager(baseURL: server.baseURL, router: router, limits: limits)
    var lines: [String] = []
    do {
      let notes = try await manager.getCollection("/notes", mapping: noteMapping)
      lines.append(
        "GET /notes -> \(notes.count) notes: \(notes.map(\.title).joined(separator: ", "))")
      let created = try await manager.post(Note(title: "Write the guide"), mapping: noteMapping)
      lines.append("POST /notes with body \(server.requests.last?.bodyText ?? "")")
      lines.append("  -> created #\(created.id) \"\(created.title)\"")
      var done = created
      done.done = true
      let updated = try await manager.put(done, mapping: noteMapping)
      lines.append("PUT /notes/\(updated.id) -> done: \(updated.done)")
      do {
        _ = try await manager.post(Note(title: ""), mapping: noteMapping)
      } catch {
        if case ObjectManagerError.status(let failure) = error {
          lines.append("POST /notes with an empty title -> status \(failure.statusCode):")
          lines += failure.messages.map { "  \($0.message)" }
        } else {
          lines.append("POST /notes with an empty title -> \(error)")
        }
      }
      try await manager.delete(updated)
      let remaining = try await manager.getCollection("/notes", mapping: noteMapping)
      lines.append("DELETE /notes/\(updated.id) -> \(remaining.count) notes left")
      do {
        // A megabyte, where the request accepts 64 KiB: the transfer stops at the limit.
        _ = try await manager.send(
          .get, "/notes/export",
          limits: RequestLimits(maximumResponseSize: 64 << 10, timeout: limits.timeout))
      } catch {
        lines.append("GET /notes/export with a 64 KiB limit -> \(error)")
      }
    } catch {
      lines.append("the session failed: \(error)")
    }
    return Showcase.Section(title: title, lines: lines)
  }
}

/// The demo API's state: notes in memory, GitHub-style 422s for an empty title.
private final class NotesAPI: @unchecked Sendable {
  // @unchecked: `notes` and `nextID` are only touched under `lock`.
  private let lock = NSLock()
  private var notes: [ObjectManagerShowcase.Note] = [
    .init(id: 1, title: "Map the timeline"),
    .init(id: 2, title: "Serialize a form body", done: true),
  ]
  private var nextID = 3

  func answer(_ request: LoopbackServer.Request) -> LoopbackServer.Response {
    lock.withLock {
      let mapping = ObjectManagerShowcase.noteMapping
      let id = Int(request.path.split(separator: "/").last ?? "") ?? 0
      switch (request.method, request.path) {
      case ("GET", "/notes/export"):
        return LoopbackServer.Response(
          status: 200, headers: ["Content-Type": "application/json"],
          body: [UInt8](repeating: UInt8(ascii: " "), count: 1 << 20))
      case ("GET", "/notes"):
        return .json(Self.json(try? mapping.serializeCollection(notes)))
      case ("POST", "/notes"):
        guard var note = try? mapping.map(Data(request.body)), !note.title.isEmpty else {
          return .json(
            #"{"message": "Validation Failed", "errors": [{"resource": "Note", "field": "title", "code": "missing_field"}]}"#,
            status: 422)
        }
        note.id = nextID
        nextID += 1
        notes.append(note)
        return .json(Self.json(try? mapping.serialize(note)), status: 201)
      case ("PUT", _):
        guard let index = notes.firstIndex(where: { $0.id == id }),
          let note = try? mapping.map(Data(request.body))
        else { return .json(#"{"error": "no such note"}"#, status: 404) }
        notes[index] = note
        return .json(Self.json(try? mapping.serialize(note)))
      case ("DELETE", _):
        notes.removeAll { $0.id == id }
        return LoopbackServer.Response(status: 204)
      default:
        return .json(#"{"error": "not found"}"#, status: 404)
      }
    }
  }

  private static func json(_ data: Data?) -> String {
    data.map { String(decoding: $0, as: UTF8.self) } ?? "{}"
  }
}
