import Foundation
import ObjectMapping
import ObjectMappingClient
import ObjectMappingStore
import ObjectMappingTestSupport

/// The persistent store section of `swift run showcase`: the object manager loads tasks from a
/// loopback server into a database file in a temporary folder (then again, removing what the
/// server no longer lists, and a failing response that changes nothing), the server stops, and
/// the file is opened again read-only and read offline.
public enum PersistentStoreShowcase {
  /// A to-do of the demo.
  public struct Todo: Sendable, Equatable {
    public var id = 0
    public var title = ""
    public var done = false
    public var owner = ""

    public init(id: Int = 0, title: String = "", done: Bool = false, owner: String = "") {
      self.id = id
      self.title = title
      self.done = done
      self.owner = owner
    }
  }

  @Sendable static func empty() -> Todo { Todo() }

  /// The task's mapping: the store's schema too.
  public static let taskMapping = Mapping(empty) {
    Attribute("id", \.id)
    Attribute("title", \.title)
    Attribute("done", \.done, default: false)
    Attribute("owner", \.owner)
  }.identified(by: \.id)

  /// The tasks entity, indexed by owner.
  public static let tasks = StoreEntity("Task", mapping: taskMapping).indexed(by: \.owner)

  /// What the demo's server answers to its successive `GET /tasks`: three tasks; then task 2 is
  /// gone, task 1 done and task 4 new; then a server error.
  static let responses: [LoopbackServer.Response] = [
    .json(
      """
      [{"id": 1, "title": "Map the timeline", "owner": "ann"},
       {"id": 2, "title": "Serialize a form body", "owner": "bob"},
       {"id": 3, "title": "Write the store guide", "owner": "bob"}]
      """),
    .json(
      """
      [{"id": 1, "title": "Map the timeline", "done": true, "owner": "ann"},
       {"id": 3, "title": "Write the store guide", "owner": "bob"},
       {"id": 4, "title": "Read offline", "owner": "ann"}]
      """),
    .json(#"{"error": "maintenance"}"#, status: 500),
  ]

  /// The demo's server: each `GET /tasks` gets the next of ``responses``.
  final class TaskServer: @unchecked Sendable {
    // @unchecked: `served` is only touched under `lock`.
    private let lock = NSLock()
    private var served = 0

    func answer(_ request: LoopbackServer.Request) -> LoopbackServer.Response {
      guard request.method == "GET", request.path == "/tasks" else {
        return .json(#"{"error": "not found"}"#, status: 404)
      }
      return lock.withLock {
        defer { served += 1 }
        return responses[min(served, responses.count - 1)]
      }
    }
  }

  /// Runs the demo and describes each step.
  ///
  /// - Parameter limits: The object manager's limits (a test on a busy machine waits longer).
  /// - Returns: The section.
  public static func section(limits: RequestLimits = .standard) async -> Showcase.Section {
    let title = "8. A persistent store: load from the server, read offline"
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("object-mapping-showcase-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let path = folder.appendingPathComponent("Tasks.sqlite").path
      var lines = try await load(into: path, limits: limits)
      lines += try await readOffline(path)
      return Showcase.Section(title: title, lines: lines)
    } catch {
      return Showcase.Section(title: title, lines: ["the store failed: \(error)"])
    }
  }

  /// Loads the server's tasks into the file three times, then stops the server.
  private static func load(into path: String, limits: RequestLimits) async throws -> [String] {
    let tasksServer = TaskServer()
    let server = try LoopbackServer { tasksServer.answer($0) }
    defer { server.stop() }
    let manager = ObjectManager(baseURL: server.baseURL, limits: limits)
    let store = try SQLiteStore(path: path)
    var lines: [String] = []
    do {
      let first = try await manager.getCollection("/tasks", entity: tasks, store: store)
      lines.append(
        "loaded GET /tasks from the loopback server into Tasks.sqlite: \(first.objects.count) "
          + "tasks, one transaction")
      let again = try await manager.getCollection(
        "/tasks", entity: tasks, store: store, orphans: .remove())
      lines.append(
        "loaded it again: \(again.objects.count) tasks; removed the ones it no longer lists: "
          + again.orphans.map { "#\($0.id) \"\($0.title)\"" }.joined(separator: ", "))
      do {
        try await manager.getCollection("/tasks", entity: tasks, store: store, orphans: .remove())
      } catch {
        lines.append(
          "a failing response (\(error)) changed nothing: "
            + "\(try await store.count(tasks)) tasks stored")
      }
    } catch {
      await store.close()
      throw error
    }
    await store.close()
    server.stop()
    lines.append("stopped the server; reopened the file read-only, offline")
    return lines
  }

  /// Opens the file read-only and queries it.
  private static func readOffline(_ path: String) async throws -> [String] {
    var lines: [String] = []
    var options = SQLiteStore.Options()
    options.readOnly = true
    let offline = try SQLiteStore(path: path, options: options)
    let open = try await offline.fetch(
      tasks, where: \.done == false, orderBy: [.ascending(\.title)])
    lines.append(
      "open tasks: "
        + open.objects.map { "#\($0.id) \($0.title) (\($0.owner))" }.joined(
          separator: "; "))
    let anns = try await offline.fetch(tasks, where: \.owner == "ann", orderBy: [.descending(\.id)])
    lines.append(
      "ann's tasks, newest first: " + anns.objects.map { "#\($0.id)" }.joined(separator: ", "))
    if let first = try await offline.fetch(tasks, id: 1) {
      lines.append("task 1: \(first.title), done: \(first.done)")
    }
    do {
      try await offline.save([Todo(id: 5, title: "Not now")], to: tasks)
    } catch {
      lines.append("saving offline: open read-only, refused")
    }
    do {
      _ = try await offline.fetch(tasks, where: \.title.count > 3)
    } catch {
      lines.append("a query on a key path the mapping does not write: \(error)")
    }
    await offline.close()
    return lines
  }
}
