import Foundation
import ObjectMapping
import Testing

/// Every rule shape with a spelled key has a keyless form that reads and writes the key the
/// mapping's convention makes; each is checked against the spelled form on the same payload
/// (issue 41).
@Suite("Keyless rules for every shape")
struct KeylessShapeTests {
  enum Priority: String, Sendable {
    case low, high
  }

  struct Reactions: Codable, Equatable, Sendable {
    var plusOne: Int
    var heart: Int
  }

  struct Milestone: Codable, Equatable, Sendable {
    var title: String
  }

  struct Item: Equatable, Sendable {
    var name = ""
  }

  struct Board: Equatable, Sendable {
    var priorityLevel = Priority.low
    var previousLevel: Priority?
    var closedAt: Date?
    var createdAt = Date(timeIntervalSince1970: 0)
    var titleLength = 0
    var reactions = Reactions(plusOne: 0, heart: 0)
    var mainMilestone = Milestone(title: "")
    var nextMilestone: Milestone?
    var teamsByName: [String: Item]?
    var tasksByState: [String: [Item]] = [:]
    var archivedByState: [String: [Item]]?
    var cellRows: [[Item]] = []
    var spareRows: [[Item]]?
    var ownerItem = Item()
    var parentItem: Item?
  }

  static let item = Mapping(Item.init) { Attribute(\.name) }

  static let keyless = Mapping(Board.init, keys: .snakeCase) {
    Attribute(\.priorityLevel)
    Attribute(\.previousLevel)
    Attribute(\.closedAt, .epochSeconds)
    Attribute(\.createdAt, .epochSeconds, default: Date(timeIntervalSince1970: 1))
    Attribute(\.titleLength, decodeOnly: { (title: String) in title.count })
    Attribute(\.reactions)
    Relationship(\.mainMilestone)
    Relationship(\.nextMilestone)
    Relationship(\.teamsByName, item)
    Relationship(\.tasksByState, item)
    Relationship(\.archivedByState, item)
    Relationship(\.cellRows, item)
    Relationship(\.spareRows, item)
    Relationship(\.ownerItem, lazy: { item })
    Relationship(\.parentItem, lazy: { item })
  }

  static let spelled = Mapping(Board.init) {
    Attribute("priority_level", \.priorityLevel)
    Attribute("previous_level", \.previousLevel)
    Attribute("closed_at", \.closedAt, .epochSeconds)
    Attribute("created_at", \.createdAt, .epochSeconds, default: Date(timeIntervalSince1970: 1))
    Attribute("title_length", \.titleLength, decodeOnly: { (title: String) in title.count })
    Attribute("reactions", \.reactions)
    Relationship("main_milestone", \.mainMilestone)
    Relationship("next_milestone", \.nextMilestone)
    Relationship("teams_by_name", \.teamsByName, item)
    Relationship("tasks_by_state", \.tasksByState, item)
    Relationship("archived_by_state", \.archivedByState, item)
    Relationship("cell_rows", \.cellRows, item)
    Relationship("spare_rows", \.spareRows, item)
    Relationship("owner_item", \.ownerItem, lazy: { item })
    Relationship("parent_item", \.parentItem, lazy: { item })
  }

  static let payload = """
    {"priority_level": "high", "previous_level": "low", "closed_at": 1700000000,
     "title_length": "four", "reactions": {"plusOne": 2, "heart": 1},
     "main_milestone": {"title": "v1"}, "next_milestone": {"title": "v2"},
     "teams_by_name": {"core": {"name": "Ann"}},
     "tasks_by_state": {"open": [{"name": "a"}, {"name": "b"}], "done": []},
     "archived_by_state": {"old": [{"name": "z"}]},
     "cell_rows": [[{"name": "r0c0"}, {"name": "r0c1"}], [{"name": "r1c0"}]],
     "spare_rows": [[]], "owner_item": {"name": "own"}, "parent_item": {"name": "up"}}
    """

  @Test func everyShapeReadsTheConventionsKeyAsTheSpelledFormDoes() throws {
    let board = try Self.keyless.map(Self.payload)
    #expect(board == (try Self.spelled.map(Self.payload)))
    #expect(board.priorityLevel == .high && board.previousLevel == .low)
    #expect(board.closedAt == Date(timeIntervalSince1970: 1_700_000_000))
    #expect(board.createdAt == Date(timeIntervalSince1970: 1))
    #expect(board.titleLength == 4 && board.reactions == Reactions(plusOne: 2, heart: 1))
    #expect(board.mainMilestone.title == "v1" && board.nextMilestone?.title == "v2")
    #expect(board.teamsByName == ["core": Item(name: "Ann")])
    #expect(board.tasksByState == ["open": [Item(name: "a"), Item(name: "b")], "done": []])
    #expect(board.archivedByState == ["old": [Item(name: "z")]])
    #expect(board.cellRows.map { $0.map(\.name) } == [["r0c0", "r0c1"], ["r1c0"]])
    #expect(board.spareRows == [[]])
    #expect(board.ownerItem.name == "own" && board.parentItem?.name == "up")
  }

  @Test func everyShapeWritesTheConventionsKeyAsTheSpelledFormDoes() throws {
    let board = try Self.keyless.map(Self.payload)
    let written = try Self.keyless.serialize(board, as: .json(.sortedKeys))
    #expect(written == (try Self.spelled.serialize(board, as: .json(.sortedKeys))))
    #expect(
      String(decoding: written, as: UTF8.self)
        == #"{"archived_by_state":{"old":[{"name":"z"}]},"#
        + #""cell_rows":[[{"name":"r0c0"},{"name":"r0c1"}],[{"name":"r1c0"}]],"#
        + #""closed_at":1700000000,"created_at":1,"main_milestone":{"title":"v1"},"#
        + #""next_milestone":{"title":"v2"},"owner_item":{"name":"own"},"#
        + #""parent_item":{"name":"up"},"previous_level":"low","priority_level":"high","#
        + #""reactions":{"heart":1,"plusOne":2},"spare_rows":[[]],"#
        + #""tasks_by_state":{"done":[],"open":[{"name":"a"},{"name":"b"}]},"#
        + #""teams_by_name":{"core":{"name":"Ann"}}}"#)
  }

  @Test func absentOptionalShapesStayNil() throws {
    let board = try Self.keyless.map(
      #"{"priority_level": "low", "title_length": "", "reactions": {"plusOne": 0, "heart": 0},"#
        + #""main_milestone": {"title": ""}, "tasks_by_state": {}, "cell_rows": [],"#
        + #""owner_item": {"name": ""}}"#)
    #expect(board == Board(createdAt: Date(timeIntervalSince1970: 1)))
  }

  @Test func anEncodeOnlyMemberAddedKeylessTakesTheConventionsKey() throws {
    struct Pull: Equatable, Sendable {
      var title = ""
      var mergeCommitSha = ""
    }
    let mapping = Mapping(Pull.init, keys: .snakeCase) { Attribute(\.title) }
    let inverse = mapping.inverted().adding(Attribute(\.mergeCommitSha))
    #expect(
      try inverse.node(Pull(title: "t", mergeCommitSha: "e5bd")) == [
        "title": "t", "merge_commit_sha": "e5bd",
      ])
  }
}
