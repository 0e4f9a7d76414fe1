import Foundation
import ObjectMapping
import Testing

/// RestKit's key paths across arrays: `friends.name` over `[{…}, {…}, {}]` reads
/// `["A", "B", nil]` into a collection property (issue 17).
@Suite("Key paths: across arrays")
struct FanOutPathTests {
  struct Person: Equatable, Sendable {
    var friendNames: [String?] = []
    var strictNames: [String] = []
    var ages: Set<Int>?
    var cities: [City] = []
    var grid: [[Int?]] = []
    var single: String?
  }

  struct City: Equatable, Sendable {
    var name = ""
  }

  static let city = Mapping(City.init) { Attribute("name", \.name) }

  static let payload = """
    {"friends": [{"name": "A", "age": 30, "address": {"city": {"name": "Oslo"}}},
                 {"name": "B", "age": 31, "address": {"city": {"name": "Rome"}}},
                 {"age": 30}],
     "rows": [{"cells": [{"v": 1}, {"v": 2}]}, {"cells": [{}, {"v": 4}]}]}
    """

  @Test func aPathThroughAnArrayFansOutWithNullForMissingElements() throws {
    let mapping = Mapping(Person.init) {
      Attribute("friends.name", \.friendNames).required()
      Attribute("friends.age", \.ages)
    }
    let person = try mapping.map(Self.payload)
    #expect(person.friendNames == ["A", "B", nil])
    #expect(person.ages == [30, 31])
  }

  @Test func relationshipsFanOutToo() throws {
    let mapping = Mapping(Person.init) {
      Relationship("friends.address.city", \.cities, Self.city).onChildFailure(.dropChild)
    }
    let report = mapping.report(Self.payload)
    // The third friend has no address: its slot is null, which a child mapping cannot map.
    #expect(report.object?.cities.map(\.name) == ["Oslo", "Rome"])
    // Dropped at the payload's path as far as it goes, as its error would be (it read
    // `/friends/address/city/2`).
    #expect(
      report.diagnostics.map(\.description) == [
        "/friends/2/address: element skipped: /friends/2/address: expected an object, found null"
      ])
  }

  @Test func nestedArraysFanOutIntoNestedCollections() throws {
    let mapping = Mapping(Person.init) { Attribute("rows.cells.v", \.grid) }
    #expect(try mapping.map(Self.payload).grid == [[1, 2], [nil, 4]])
  }

  @Test func errorsNameTheElementsPayloadPath() throws {
    let mapping = Mapping(Person.init) { Attribute("friends.name", \.strictNames) }
    do {
      _ = try mapping.map(Self.payload)
      Issue.record("expected an error for the friend without a name")
    } catch {
      #expect(error.errors.map(\.path) == ["/friends/2/name"])
    }
    let wrongType = #"{"friends": [{"name": "A"}, {"name": {"first": "B"}}]}"#
    do {
      _ = try mapping.map(wrongType)
      Issue.record("expected a type mismatch")
    } catch {
      #expect(error.errors.map(\.path) == ["/friends/1/name"])
    }
  }

  @Test func scalarPropertiesDoNotFanOut() throws {
    let mapping = Mapping(Person.init) { Attribute("friends.name", \.single) }
      .allowingUnmappableRepresentation()
    #expect(try mapping.map(Self.payload).single == nil)
    let required = Mapping(Person.init) { Attribute("friends.name", \.single).required() }
    #expect(throws: MappingErrors.self) { try required.map(Self.payload) }
  }

  @Test func anAbsentOrEmptyArrayIsNotAFanOut() throws {
    let mapping = Mapping(Person.init) { Attribute("friends.name", \.friendNames).required() }
    #expect(try mapping.map(#"{"friends": []}"#).friendNames == [])
    do {
      _ = try mapping.map(#"{"enemies": []}"#)
      Issue.record("expected a missing key")
    } catch {
      #expect(error.errors.map(\.path) == ["/friends/name"])
    }
  }

  @Test func fanOutWorksOntoExistingInstances() throws {
    let mapping = Mapping(Person.init) { Attribute("friends.name", \.friendNames) }
    var person = Person(friendNames: ["old"])
    try mapping.map(#"{"friends": [{"name": "Z"}]}"#, onto: &person)
    #expect(person.friendNames == ["Z"])
  }

  @Test func anArrayIndexStillWinsOverAFanOut() throws {
    let mapping = Mapping(Person.init) { Attribute("friends.1.name", \.friendNames) }
    // `friends.1.name` reads one element's name: a string, not a collection of them (a
    // one-element array under lenient coercion, an error under strict).
    #expect(try mapping.map(Self.payload).friendNames == ["B"])
    #expect(throws: MappingErrors.self) {
      try mapping.map(Self.payload, with: MappingOptions(coercion: .strict))
    }
    let single = Mapping(Person.init) { Attribute("friends.1.name", \.single) }
    #expect(try single.map(Self.payload).single == "B")
  }

  /// A child read across an array, for the tests below: its position, and what `@parent` and
  /// `@payload` read from it.
  struct Kid: Equatable, Sendable {
    var id = 0
    var position = -1
    var parentName: String?
    var payloadName: String?
  }

  struct Holder: Equatable, Sendable {
    var name = ""
    var kids: [Kid] = []
  }

  static let kid = Mapping(Kid.init) {
    Attribute("id", \.id)
    Attribute(.index, \.position)
    Attribute("@parent.name", \.parentName)
    Attribute("@payload.name", \.payloadName)
  }

  /// Children read across an array are mapped where they are in the payload (no copy of them,
  /// which in a recursion held every level below): their position is their element's, their
  /// parent is the object holding the rule, and the payload is the whole payload.
  @Test func aRelationshipAcrossAnArrayMapsTheChildrenInThePayload() throws {
    let mapping = Mapping(Holder.init) {
      Attribute("name", \.name)
      Relationship("kids.node", \.kids, Self.kid)
    }
    let holder = try mapping.map(
      #"{"name": "top", "kids": [{"node": {"id": 1}}, {"node": {"id": 2}}]}"#)
    #expect(
      holder.kids == [
        Kid(id: 1, position: 0, parentName: "top", payloadName: "top"),
        Kid(id: 2, position: 1, parentName: "top", payloadName: "top"),
      ])
    let empty = try mapping.map(#"{"name": "top", "kids": []}"#)
    #expect(empty.kids.isEmpty)
    do {
      _ = try mapping.map(
        #"{"name": "top", "kids": [{"node": {"id": "x"}}, {"other": 1}, {"node": null}, {"node": 5}]}"#
      )
      Issue.record("expected errors for the bad, missing, null and scalar children")
    } catch {
      #expect(
        error.errors.map(\.description) == [
          #"/kids/0/node/id: cannot convert "x" to an integer"#,
          "/kids/1/node: expected an object, found null",
          "/kids/2/node: expected an object, found null",
          "/kids/3/node: expected an object, found 5",
        ])
    }
  }

  /// An element that is itself an array fans out again: such values are still read from a
  /// copy, whose diagnostics now name the payload's path as its errors and the children mapped
  /// in place do (the diagnostic read `/kids/node/1`).
  @Test func aCopysDiagnosticsNameThePayloadsPath() throws {
    let mapping = Mapping(Holder.init) {
      Relationship("kids.node", \.kids, Self.kid).onChildFailure(.dropChild)
    }
    let report = mapping.report(#"{"kids": [{"node": {"id": 1}}, [{"node": {"id": 2}}]]}"#)
    #expect(report.object?.kids.map(\.id) == [1])
    #expect(report.diagnostics.map(\.path) == ["/kids/1"])
  }
}
