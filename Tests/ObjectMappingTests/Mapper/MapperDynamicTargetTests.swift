import Foundation
import ObjectMapping
import Testing

/// `Mapper.map(_:target:)` through a dynamic route maps onto the target or fails leaving it
/// alone; it never hands back a new object while the caller's target keeps its old data
/// (issue 22).
@Suite("Mapper targets through dynamic routes")
struct MapperDynamicTargetTests {
  static let provider = MappingProvider {
    Route("person", People.person)
  }

  @Test("A payload of another class fails and leaves the target alone")
  func anotherClassFails() throws {
    let boy = Boy()
    boy.name = "Old"
    let result = try Mapper(Self.provider).map(
      #"{"person": {"type": "Girl", "name": "Sarah"}}"#, target: boy)
    #expect(boy.name == "Old")
    #expect(result.first(Person.self) == nil)
    #expect(
      result.errors.map(\.description) == [
        "/person: expected a payload for the existing Boy, found a Girl"
      ])
  }

  @Test("A payload of the target's class updates it in place")
  func sameClassUpdatesInPlace() throws {
    let boy = Boy()
    boy.name = "Old"
    let result = try Mapper(Self.provider).map(
      #"{"person": {"type": "Boy", "name": "New"}}"#, target: boy)
    let mapped = try #require(result.first(Person.self))
    #expect(mapped === boy)
    #expect(boy.name == "New")
    #expect(result.errors.isEmpty)
  }
}
