import Foundation
import ObjectMapping
import Testing

/// Relationships and top-level payloads whose objects sit in nested containers:
/// `[String: T]?`, `[String: [T]]`, `[[T]]`, `lazy:` dictionaries, and ObjectMapper's
/// `map(_:as: .dictionary)` / `.dictionaryOfArrays` / `.arrayOfArrays` (issues 17 and 37).
@Suite("Relationships: nested shapes")
struct RelationshipShapeTests {
  struct Task: Equatable, Sendable {
    var taskId = 0
    var title = ""
  }

  struct Board: Equatable, Sendable {
    var byState: [String: [Task]] = [:]
    var grid: [[Task]] = []
    var pinned: [String: Task]?
    var archive: [String: [Task]]?
    var pages: [[Task]]?
  }

  static let task = Mapping(Task.init) {
    Attribute("taskId", \.taskId)
    Attribute("title", \.title)
  }

  static let board = Mapping(Board.init) {
    Relationship("tasks", \.byState, task)
    Relationship("grid", \.grid, task)
    Relationship("pinned", \.pinned, task)
    Relationship("archive", \.archive, task)
    Relationship("pages", \.pages, task)
  }

  static let payload = """
    {"tasks": {"open": [{"taskId": 1, "title": "a"}], "done": [{"taskId": 2, "title": "b"},
      {"taskId": 3, "title": "c"}]},
     "grid": [[{"taskId": 4, "title": "d"}, {"taskId": 5, "title": "e"}], []],
     "pinned": {"top": {"taskId": 6, "title": "f"}}}
    """

  @Test func nestedShapesMapWithoutHelperCode() throws {
    let board = try Self.board.map(Self.payload)
    #expect(board.byState["open"] == [Task(taskId: 1, title: "a")])
    #expect(board.byState["done"]?.map(\.taskId) == [2, 3])
    #expect(board.grid.map { $0.map(\.taskId) } == [[4, 5], []])
    #expect(board.pinned == ["top": Task(taskId: 6, title: "f")])
    #expect(board.archive == nil)
    #expect(board.pages == nil)
  }

  @Test func errorsInsideNestedShapesKeepTheFullPath() throws {
    let bad = """
      {"tasks": {"t1": [{"taskId": "x", "title": "a"}]},
       "grid": [[], [{"taskId": 1, "title": "a"}, {"taskId": 2, "title": {}}]],
       "pinned": {"p": {"taskId": [], "title": "x"}}}
      """
    do {
      _ = try Self.board.map(bad)
      Issue.record("expected errors")
    } catch {
      #expect(
        Set(error.errors.map(\.path)) == [
          "/tasks/t1/0/taskId", "/grid/1/1/title", "/pinned/p/taskId",
        ])
    }
  }

  @Test func requiredShapesReportAbsenceAndOptionalOnesClearOnNull() throws {
    do {
      _ = try Self.board.map(#"{"grid": []}"#)
      Issue.record("expected a missing key")
    } catch {
      #expect(error.errors.map(\.path) == ["/tasks"])
    }
    var board = try Self.board.map(Self.payload)
    try Self.board.map(#"{"pinned": null, "pages": [[{"taskId": 9, "title": "z"}]]}"#, onto: &board)
    #expect(board.pinned == nil)
    #expect(board.pages?.first?.first?.taskId == 9)
    #expect(board.byState["done"]?.count == 2)  // absent onto an existing instance: kept
  }

  @Test func wrongContainersAreTypeMismatches() throws {
    do {
      _ = try Self.board.map(#"{"tasks": {"open": {"taskId": 1}}, "grid": [{"taskId": 1}]}"#)
      Issue.record("expected errors")
    } catch {
      let byPath = Dictionary(
        error.errors.map { ($0.path, "\($0)") }, uniquingKeysWith: { first, _ in first })
      #expect(byPath["/tasks/open"]?.contains("expected an array") == true)
      #expect(byPath["/grid/0"]?.contains("expected an array") == true)
    }
  }

  @Test func nestedShapesRoundTrip() throws {
    let board = try Self.board.map(Self.payload)
    let json = try Self.board.serialize(board)
    #expect(try Self.board.map(json) == board)
    let text = String(decoding: json, as: UTF8.self)
    #expect(text.contains(#""done":[{"taskId":2,"title":"b"},{"taskId":3,"title":"c"}]"#))
    #expect(text.contains(#""grid":[[{"taskId":4,"title":"d"},{"taskId":5,"title":"e"}],[]]"#))
    #expect(!text.contains("archive"))  // nil is omitted by default
    let withNulls = try Self.board.serialize(board, with: MappingOptions(nulls: .include))
    #expect(String(decoding: withNulls, as: UTF8.self).contains(#""archive":null"#))
  }

  struct Node: Equatable, Sendable {
    var name = ""
    var children: [String: Node] = [:]
    static let mapping: Mapping<Node> = Mapping(Node.init) {
      Attribute("name", \.name)
      Relationship("children", \.children, lazy: { Node.mapping }).optional()
    }
  }

  @Test func dictionaryRelationshipsRecurseWithLazy() throws {
    let tree = try Node.mapping.map(
      #"{"name": "root", "children": {"a": {"name": "A", "children": {"b": {"name": "B"}}}}}"#)
    #expect(tree.children["a"]?.children["b"]?.name == "B")
    #expect(try Node.mapping.map(Node.mapping.serialize(tree)) == tree)
  }

  @Test func collectionPoliciesOnNestedShapesAreDefinitionProblems() throws {
    let mapping = Mapping(Board.init) {
      Relationship("grid", \.grid, Self.task).policy(.append)
    }
    #expect(throws: MappingErrors.self) { try mapping.validate() }
  }

  // MARK: Top-level entry points

  @Test func topLevelDictionaryOfObjects() throws {
    let tasks = try Self.task.map(
      #"{"x": {"taskId": 1, "title": "a"}, "y": {"taskId": 2, "title": "b"}}"#, as: .dictionary)
    #expect(tasks == ["x": Task(taskId: 1, title: "a"), "y": Task(taskId: 2, title: "b")])
    let json = try Self.task.serialize(tasks, as: .dictionary)
    #expect(
      String(decoding: json, as: UTF8.self)
        == #"{"x":{"taskId":1,"title":"a"},"y":{"taskId":2,"title":"b"}}"#)
    #expect(try Self.task.map(json, as: .dictionary) == tasks)
    let foundation: Any = ["z": ["taskId": 3, "title": "c"]]
    #expect(try Self.task.map(.foundation(foundation), as: .dictionary)["z"]?.taskId == 3)
  }

  @Test func topLevelDictionaryOfArraysAndArrayOfArrays() throws {
    let byKey = try Self.task.map(
      #"{"a": [{"taskId": 1, "title": "a"}], "b": []}"#, as: .dictionaryOfArrays)
    #expect(byKey.mapValues { $0.map(\.taskId) } == ["a": [1], "b": []])
    #expect(
      try Self.task.map(
        Self.task.serialize(byKey, as: .dictionaryOfArrays), as: .dictionaryOfArrays) == byKey)

    let rows = try Self.task.map(#"[[{"taskId": 1, "title": "a"}], []]"#, as: .arrayOfArrays)
    #expect(rows.map { $0.map(\.taskId) } == [[1], []])
    let json = try Self.task.serialize(rows, as: .arrayOfArrays)
    #expect(String(decoding: json, as: UTF8.self) == #"[[{"taskId":1,"title":"a"}],[]]"#)
    #expect(try Self.task.map(json, as: .arrayOfArrays) == rows)
  }

  @Test func topLevelShapesReportWrongContainersAndPaths() throws {
    #expect(throws: MappingErrors.self) { try Self.task.map("[]", as: .dictionary) }
    #expect(throws: MappingErrors.self) {
      try Self.task.map(#"[{"taskId": 1}]"#, as: .arrayOfArrays)
    }
    do {
      _ = try Self.task.map(
        #"[[], [{"taskId": 1, "title": "a"}, {"taskId": "two", "title": "b"}]]"#, as: .arrayOfArrays
      )
      Issue.record("expected errors")
    } catch {
      #expect(error.errors.map(\.path) == ["/1/1/taskId"])
    }
  }

  @Test func topLevelDictionaryOfArraysReportsTheWholePathAndWritesForms() throws {
    do {
      _ = try Self.task.map(
        #"{"open": [], "done": [{"taskId": 1, "title": "a"}, {"taskId": "two", "title": "b"}]}"#,
        as: .dictionaryOfArrays)
      Issue.record("expected errors")
    } catch {
      #expect(error.errors.map(\.path) == ["/done/1/taskId"])
    }
    #expect(throws: MappingErrors.self) {
      try Self.task.map(#"{"open": {}}"#, as: .dictionaryOfArrays)
    }
    // The format is the serializing call's own choice, as for one object.
    let form = try Self.task.serialize(
      ["x": Task(taskId: 1, title: "a b")], as: .dictionary, format: .formURLEncoded)
    #expect(String(decoding: form, as: UTF8.self) == "x[taskId]=1&x[title]=a+b")
  }

  struct Keyed: Equatable, Sendable {
    var login = ""
    var id = 0
  }

  @Test func topLevelDictionaryWithANestedKeyMappingReadsEachKey() throws {
    let keyed = Mapping(Keyed.init) {
      KeyAttribute("login", \.login)
      Attribute("id", \.id)
    }
    let users = try keyed.map(#"{"blake": {"id": 1}, "rachit": {"id": 2}}"#, as: .dictionary)
    #expect(users["rachit"] == Keyed(login: "rachit", id: 2))
    #expect(
      String(decoding: try keyed.serialize(users, as: .dictionary), as: UTF8.self)
        == #"{"blake":{"id":1},"rachit":{"id":2}}"#)
  }
}
