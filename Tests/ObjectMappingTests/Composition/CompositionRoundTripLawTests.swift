import Foundation
import ObjectMapping
import ObjectMappingTesting
import Testing

/// The round-trip laws for compound sources, groups, includes and empty-source relationships.
@Suite("Round-trip laws: composition")
struct CompositionRoundTripLawTests {
  struct Card: Equatable {
    var id = 0
    var badge = ""
    var title = ""
    var notes: String?
    var origin: Origin?
  }

  struct Origin: Equatable {
    var city = ""
  }

  static let cardMapping = Mapping(Card.init) {
    Attribute("id", \.id)
    Attribute(sources: ["badge_prefix", "badge_number"], \.badge, .joined("-"))
    Attribute("title", \.title, default: "").groups("list", "detail")
    Attribute("notes", \.notes).groups("detail")
    Relationship(.root, \.origin, Mapping(Origin.init) { Attribute("city", \.city) })
  }

  @Test func valueLawForCompoundSources() throws {
    try RoundTripLaws(Self.cardMapping).checkValue(
      Card(id: 1, badge: "A-7", title: "T", notes: "n", origin: Origin(city: "Oslo")))
    try RoundTripLaws(Self.cardMapping).checkValue(Card(id: 2, badge: "B-8"))
  }

  @Test func payloadLawForCompoundSources() throws {
    try RoundTripLaws(Self.cardMapping).checkPayload(
      json: #"{"id": 1, "badge_prefix": "A", "badge_number": "7", "title": "T", "city": "Oslo"}"#)
  }

  @Test func valueLawForGroups() throws {
    let list = Self.cardMapping.groups(["list"])
    try RoundTripLaws(list).checkValue(Card(id: 1, badge: "A-7", title: "T"))
    let detail = Self.cardMapping.groups(["detail"])
    try RoundTripLaws(detail).checkValue(Card(id: 1, badge: "A-7", title: "T", notes: "n"))
  }

  @Test func payloadLawForGroupsDropsOtherGroupsKeys() throws {
    let list = Self.cardMapping.groups(["list"])
    let payload =
      #"{"id": 1, "badge_prefix": "A", "badge_number": "7", "title": "T", "notes": "n"}"#
    try RoundTripLaws(list).checkPayload(json: payload, allowing: ["/notes"])
    #expect(throws: RoundTripViolation.self) {
      try RoundTripLaws(list).checkPayload(json: payload)
    }
  }

  @Test func valueLawForIncludedMappings() throws {
    struct Named: Equatable {
      var name = ""
      var kind = ""
    }
    let base = Mapping(Named.init) { Attribute("name", \.name) }
    let mapping = Mapping(Named.init) {
      Include(base)
      Attribute("kind", \.kind)
    }
    try RoundTripLaws(mapping).checkValue(Named(name: "a", kind: "b"))
    try RoundTripLaws(mapping).checkPayload(json: #"{"name": "a", "kind": "b"}"#)
  }
}
