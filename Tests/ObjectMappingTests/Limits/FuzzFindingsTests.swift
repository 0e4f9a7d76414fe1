import Foundation
import ObjectMapping
import Testing

/// Findings of the fuzzers (Documentation/Fuzzing.md, "Findings"), each pinned by a
/// regression test of the fixed behaviour.
@Suite struct FuzzFindingsTests {
  final class Owner {
    var id = 0
    var name = ""
    var badge: Badge?
  }

  struct Badge: Equatable {
    var code = ""
  }

  final class Team {
    var owner: Owner?
  }

  static let badgeMapping = Mapping(Badge.init) { Attribute("code", \.code) }
  static let ownerMapping = Mapping(Owner.init) {
    Attribute("id", \.id)
    Attribute("name", \.name)
    Relationship("badge", \.badge, badgeMapping)
  }.identified(by: \.badge?.code)
  static let teamMapping = Mapping(Team.init) {
    Relationship("owner", \.owner, ownerMapping)
  }

  /// F1: an identity read through an optional (`\.badge?.code`) is written by no rule, so it
  /// could never match and the owner would be replaced, silently: it is a definition problem,
  /// reported by `validate()` and by the first use, and the existing owner is left alone.
  @Test func anIdentityNoRuleWritesIsADefinitionProblem() throws {
    let problem =
      "invalid mapping definition: identified(by: \\Owner.badge?.code) names a property that "
      + "no rule of this mapping writes, so a payload object could never match an existing one; "
      + "identify by a property an Attribute writes"
    let invalid = #expect(throws: MappingErrors.self) { try Self.ownerMapping.validate() }
    #expect(invalid?.errors.map(\.description) == [problem])
    var team = Team()
    let owner = Owner()
    owner.name = "Ann"
    team.owner = owner
    let failure = #expect(throws: MappingErrors.self) {
      try Self.teamMapping.map(
        #"{"owner": {"id": 1, "name": "Bo", "badge": {"code": "A"}}}"#, onto: &team)
    }
    #expect(failure?.errors.map(\.description) == ["/owner: " + problem])
    #expect(team.owner === owner)
    #expect(owner.name == "Ann")
  }

  struct Event: Equatable {
    var when: Date?
  }

  /// F5: a date read from epoch seconds far beyond any calendar (`1e292`) maps, and then
  /// serializing it as ISO 8601 traps converting its seconds to `Int` (`DateFormat.swift`,
  /// `Civil.fields(of:)`). Either reading refuses it or writing throws; the process must not
  /// crash.
  @Test func farAwayEpochDatesDoNotCrashSerialization() async {
    await #expect(processExitsWith: .success) {
      let mapping = Mapping(Event.init) { Attribute("when", \.when) }
      if let event = try? mapping.map(#"{"when": "1e292"}"#) {
        _ = try? mapping.serialize(event)
      }
      let far = Event(when: Date(timeIntervalSince1970: 1e292))
      _ = try? mapping.serialize(far)
    }
    let mapping = Mapping(Event.init) { Attribute("when", \.when) }
    #expect(throws: MappingErrors.self) { try mapping.map(#"{"when": "1e292"}"#) }
  }

  /// F2: form data cannot carry a repeated key; writing one must refuse, not write text that
  /// reads back as something else (`id=1&id=2` reads as `{"id": ["1", "2"]}`).
  @Test func formWritingRefusesRepeatedKeys() {
    let node = Node.object([Node.Member("id", .integer(1)), Node.Member("id", .integer(2))])
    #expect(
      throws: FormatError(
        .notRepresentable(
          reason: "the key \"id\" appears twice in one object, which form URL-encoded data "
            + "reads back as an array"))
    ) { try node.formURLEncodedString() }
    let nested: Node = ["user": .object([Node.Member("a", 1), Node.Member("a", 2)])]
    #expect(
      throws: FormatError(
        path: "/user",
        .notRepresentable(
          reason: "the key \"a\" appears twice in one object, which form URL-encoded data "
            + "reads back as an array"))
    ) { try nested.formURLEncodedString() }
    #expect((try? Node(formURLEncoded: "id=1&id=2")) == ["id": ["1", "2"]])
  }

  struct Record: Equatable {
    var id: Int?
  }

  /// F4: an integral double of 2^53 or more maps from a `Node` as its JSON text does: to the
  /// integer its shortest text names, not to its exact binary value.
  @Test func largeIntegralDoublesMapAsTheirJSONText() throws {
    let mapping = Mapping(Record.init) { Attribute("id", \.id) }
    let node: Node = ["id": .double(220_976_571_250_446_592)]
    let json = try node.jsonString()
    #expect(json == #"{"id":2.209765712504466e+17}"#)
    #expect(try mapping.map(node) == mapping.map(json))
    #expect(try mapping.map(node).id == 220_976_571_250_446_600)
    #expect(
      try mapping.map(["id": .double(9_007_199_254_740_991)] as Node).id == 9_007_199_254_740_991)
  }
}
