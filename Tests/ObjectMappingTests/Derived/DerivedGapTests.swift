import Foundation
import ObjectMapping
import Testing

/// Derived mappings behave as hand-written ones where the two meet: empty-source dynamic
/// children, declined and `null` children, key conventions and date formats of a call, and
/// mapping onto existing instances (issue 41).
@Suite("Derived mappings: as hand-written ones")
struct DerivedGapTests {
  struct Star: Codable, Equatable, Sendable { var action: String }
  struct Fork: Codable, Equatable, Sendable { var forkee: String }
  enum Payload: Codable, Equatable, Sendable {
    case star(Star)
    case fork(Fork)
  }

  /// The `type` beside the members a payload's case reads.
  static let payload = DynamicMapping<Payload> {
    Match("type", equals: "star", Mapping(Star.self), case: Payload.star) {
      if case .star(let star) = $0 { star } else { nil }
    }
    Match("type", equals: "fork", Mapping(Fork.self), case: Payload.fork) {
      if case .fork(let fork) = $0 { fork } else { nil }
    }
  }

  struct Event: Codable, Equatable, Sendable {
    var id: Int
    var payload: Payload
  }

  static let derived = Mapping(Event.self) { Relationship(.root, \.payload, payload) }
  static func blankEvent() -> Event { Event(id: 0, payload: .star(Star(action: ""))) }
  static let handWritten = Mapping(blankEvent) {
    Attribute(\.id)
    Relationship(.root, \.payload, payload)
  }

  @Test func anEmptySourceRelationshipReadsAndWritesADynamicChild() throws {
    let star = #"{"id": 1, "type": "star", "action": "started"}"#
    let fork = #"{"id": 2, "type": "fork", "forkee": "o/r"}"#
    for mapping in [Self.derived, Self.handWritten] {
      #expect(try mapping.map(star) == Event(id: 1, payload: .star(Star(action: "started"))))
      #expect(try mapping.map(fork) == Event(id: 2, payload: .fork(Fork(forkee: "o/r"))))
    }
    let event = Event(id: 2, payload: .fork(Fork(forkee: "o/r")))
    #expect(
      String(decoding: try Self.handWritten.serialize(event, as: .json(.sortedKeys)), as: UTF8.self)
        == #"{"forkee":"o/r","id":2,"type":"fork"}"#)
    #expect(
      String(decoding: try Self.derived.serialize(event, as: .json(.sortedKeys)), as: UTF8.self)
        == #"{"forkee":"o/r","id":2,"type":"fork"}"#)
    #expect(try Self.derived.map(try Self.derived.serialize(event)) == event)
  }

  @Test func anOptionalEmptySourceDynamicChildIsNilWhenDeclined() throws {
    struct Maybe: Codable, Equatable, Sendable {
      var id: Int
      var payload: Payload?
    }
    let mapping = Mapping(Maybe.self) { Relationship(.root, \.payload, Self.payload) }
    let report = mapping.report(#"{"id": 3, "type": "watch"}"#)
    #expect(report.object == Maybe(id: 3, payload: nil))
    #expect(
      report.diagnostics.map(\.description) == [#"skipped: no mapping matches: type is "watch""#])
  }

  @Test func aDeclinedOrNullRequiredChildFailsAsInAHandWrittenMapping() throws {
    let declined = #"[{"id": 1, "type": "star", "action": "x"}, {"id": 4, "type": "watch"}]"#
    for mapping in [Self.derived, Self.handWritten] {
      let error = try #require(throws: MappingErrors.self) { try mapping.mapCollection(declined) }
      #expect(error.description == #"/1: no mapping matches: type is "watch""#)
    }
    struct Owner: Codable, Equatable, Sendable { var login: String }
    struct Repo: Codable, Equatable, Sendable {
      var name: String
      var owner: Owner
    }
    let owner = Mapping(Owner.self)
    let derived = Mapping(Repo.self) { Relationship(\.owner, owner) }
    let blank: @Sendable () -> Repo = { Repo(name: "", owner: Owner(login: "")) }
    let handWritten = Mapping(blank) {
      Attribute(\.name)
      Relationship(\.owner, owner)
    }
    for mapping in [derived, handWritten] {
      let error = try #require(throws: MappingErrors.self) {
        try mapping.map(#"{"name": "r", "owner": null}"#)
      }
      #expect(error.description == "/owner: expected an object, found null")
      let missing = try #require(throws: MappingErrors.self) { try mapping.map(#"{"name": "r"}"#) }
      #expect(missing.description == "/owner: required value is missing")
    }
  }
}
