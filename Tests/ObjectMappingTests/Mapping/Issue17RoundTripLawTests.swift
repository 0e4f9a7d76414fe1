import Foundation
import ObjectMapping
import ObjectMappingTesting
import Testing

/// The round-trip laws for the two-way behaviours of issue 17: nested relationship shapes,
/// index paths written as arrays, raw-value enums without a conformance.
@Suite("Round-trip laws: shapes, index paths, enums")
struct Issue17RoundTripLawTests {
  enum Kind: String, Sendable {
    case bug, feature
  }

  struct Cell: Equatable, Sendable {
    var id = 0
  }

  struct Board: Equatable, Sendable {
    var rows: [[Cell]] = []
    var byState: [String: [Cell]] = [:]
    var pinned: [String: Cell]?
    var first = ""
    var third: Int?
    var kind = Kind.bug
  }

  static let cell = Mapping(Cell.init) { Attribute("id", \.id) }

  static let board = Mapping(Board.init) {
    Relationship("rows", \.rows, cell)
    Relationship("byState", \.byState, cell)
    Relationship("pinned", \.pinned, cell)
    Attribute("tags.0", \.first)
    Attribute("tags.2", \.third)
    Attribute("kind", \.kind)
  }

  @Test func valuesSurviveSerializeThenMap() throws {
    let laws = RoundTripLaws(Self.board)
    try laws.checkValue(
      Board(
        rows: [[Cell(id: 1), Cell(id: 2)], []], byState: ["open": [Cell(id: 3)], "done": []],
        pinned: ["top": Cell(id: 4)], first: "a", third: 3, kind: .feature))
    try laws.checkValue(Board(first: "only", third: nil))
  }

  @Test func payloadsSurviveMapThenSerialize() throws {
    try RoundTripLaws(Self.board).checkPayload(
      json: #"""
        {"rows":[[{"id":1}],[]],"byState":{"a":[{"id":2}]},"pinned":{"p":{"id":3}},
         "tags":["x",null,7],"kind":"bug"}
        """#)
  }
}
