import Foundation
import ObjectMapping
import ObjectMappingTesting
import Testing

/// Keyless forms of rule shapes that had only a spelled form (issue 41).
@Suite("Keyless rule shapes")
struct KeylessShapesTests {
  enum State: String, Sendable { case open, closed }

  struct Issue: Equatable, Sendable {
    var state = State.open
    var stateReason: State?
    var closedAt: Date?
    var updatedAt = Date(timeIntervalSince1970: 0)
    var titleLength = 0
  }

  static let mapping = Mapping(Issue.init, keys: .snakeCase) {
    Attribute(\.state)
    Attribute(\.stateReason)
    Attribute(\.closedAt, .epochSeconds)
    Attribute(\.updatedAt, .epochSeconds, default: Date(timeIntervalSince1970: 1))
    Attribute(\.titleLength, decodeOnly: { (title: String) in title.count })
  }

  @Test func eachShapeReadsTheConventionsKey() throws {
    let issue = try Self.mapping.map(
      #"{"state": "closed", "state_reason": "open", "closed_at": 60, "title_length": "four"}"#)
    #expect(
      issue
        == Issue(
          state: .closed, stateReason: .open, closedAt: Date(timeIntervalSince1970: 60),
          updatedAt: Date(timeIntervalSince1970: 1), titleLength: 4))
    let none = try Self.mapping.map(#"{"state": "open", "closed_at": null, "title_length": ""}"#)
    #expect(none.closedAt == nil && none.stateReason == nil)
  }

  @Test func eachTwoWayShapeWritesTheConventionsKey() throws {
    let issue = Issue(
      state: .closed, stateReason: .open, closedAt: Date(timeIntervalSince1970: 60),
      updatedAt: Date(timeIntervalSince1970: 2), titleLength: 4)
    let json = String(decoding: try Self.mapping.serialize(issue), as: UTF8.self)
    #expect(json == #"{"state":"closed","state_reason":"open","closed_at":60,"updated_at":2}"#)
    #expect(Self.mapping.inverted().omitted.map(\.rule) == [#"Attribute "title_length""#])
  }
}
