import Foundation
import ObjectMapping
import ObjectMappingStore

/// The persistent store section of `swift run showcase`: tasks saved to a database file in a
/// temporary folder, a load that removes what the "server" no longer lists, then the file opened
/// again read-only and read offline.
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

  /// What a server returns for `/tasks` in the demo: task 2 is gone, task 4 is new.
  static let response = """
    [{"id": 1, "title": "Map the timeline", "done": true, "owner": "ann"},
     {"id": 3, "title": "Write the store guide", "owner": "bob"},
     {"id": 4, "title": "Read offline", "owner": "ann"}]
    """

  /// Runs the demo and describes each step.
  public static func section() async -> Showcase.Section {
    let title = "8. A persistent store: save, load, read offline"
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("object-mapping-showcase-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      return Showcase.Section(
        title: title, lines: try await run(path: folder.appendingPathComponent("Tasks.sqlite").path)
      )
    } catch {
      return Showcase.Section(title: title, lines: ["the store failed: \(error)"])
    }
  }

  private static func run(path: String) async throws -> [String] {
    var lines: [String] = []
    let store = try SQLiteStore(path: path)
    try await store.save(
      [
        Todo(id: 1, title: "Map the timeline", owner: "ann"),
        Todo(id: 2, title: "Serialize a form body", owner: "bob"),
        Todo(id: 3, title: "Write the store guide", owner: "bob"),
      ], to: tasks)
    lines.append("saved 3 tasks to Tasks.sqlite in one transaction")
    let loaded = try taskMapping.mapCollection(response)
    let load = try await store.load(loaded, into: tasks, orphans: .remove())
    lines.append(
      "loaded \(load.objects.count) tasks from the server; removed the ones it no longer lists: "
        + load.orphans.map { "#\($0.id) \"\($0.title)\"" }.joined(separator: ", "))
    await store.close()

    var options = SQLiteStore.Options()
    options.readOnly = true
    let offline = try SQLiteStore(path: path, options: options)
    lines.append("reopened the file read-only, offline")
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
