import Foundation
import ObjectMapping
import Testing

/// ObjectMapper's `MapContext` (its `MapContextTests`), spelled as the ObjectMapper guide
/// teaches: the context is the call's ``MappingOptions/metadata``; a rule reads it through
/// `@metadata`, and a mapping that maps differently with it is a ``DynamicMapping`` choosing on
/// it. Each test is one of ObjectMapper's, with its assertions.
@Suite("ObjectMapper's MapContext: metadata and a dynamic mapping")
struct MapContextMigrationTests {
  struct Person: Equatable, Sendable {
    var name: String?
  }

  struct NestedPerson: Equatable, Sendable {
    var person: Person?
  }

  struct PersonList: Equatable, Sendable {
    var persons: [Person]?
  }

  /// `if (map.context as? Context)?.shouldMap == true { name <- map["name"] }`.
  static let person = DynamicMapping<Person> {
    Match("@metadata.shouldMap", equals: true, Mapping(Person.init) { Attribute("name", \.name) })
    Match.otherwise(Mapping(Person.init) {})
  }

  static let nestedPerson = Mapping(NestedPerson.init) {
    Relationship("person", \.person, person)
  }

  static let personList = Mapping(PersonList.init) {
    Relationship("persons", \.persons, person)
  }

  /// `Context(shouldMap: true)`.
  static let context = MappingOptions(metadata: ["shouldMap": true])

  @Test func mappingWithAndWithoutContext() throws {
    let json = #"{"name": "Tristan"}"#
    #expect(try Self.person.map(json, with: Self.context).name == "Tristan")
    #expect(try Self.person.map(json).name == nil)
    // The metadata is not the payload's: serializing writes no discriminator for it.
    let written = try Self.person.serialize(Person(name: "Tristan"), as: .json)
    #expect(String(decoding: written, as: UTF8.self) == #"{"name":"Tristan"}"#)
    // Another special source is still a definition problem in a matcher.
    let parent = DynamicMapping<Person> {
      Match("@parent.kind", equals: "a", Mapping(Person.init) {})
    }
    #expect(throws: MappingErrors.self) { try parent.validate() }
  }

  @Test func nestedMappingWithAndWithoutContext() throws {
    let json = #"{"person": {"name": "Tristan"}}"#
    #expect(try Self.nestedPerson.map(json, with: Self.context).person?.name == "Tristan")
    let without = try Self.nestedPerson.map(json)
    #expect(without.person != nil && without.person?.name == nil)
  }

  @Test func arrayMappingWithAndWithoutContext() throws {
    let json = #"{"persons": [{"name": "Tristan"}, {"name": "Anton"}]}"#
    let mapped = try Self.personList.map(json, with: Self.context)
    #expect(mapped.persons?.map(\.name) == ["Tristan", "Anton"])
    let without = try Self.personList.map(json)
    #expect(without.persons?.map(\.name) == [nil, nil])
  }

  /// ImmutableMappable: `isDeveloper = (map.context as? ImmutableContext)?.isDeveloper ?? false`
  /// reads the context into a property.
  struct Developer: Equatable, Sendable {
    var name = ""
    var isDeveloper = false
  }

  static let developer = Mapping(Developer.init) {
    Attribute("name", \.name)
    Attribute("@metadata.isDeveloper", \.isDeveloper, default: false)
  }

  @Test func immutableMappingReadsTheContext() throws {
    let json = #"{"name": "Anton"}"#
    let developer = try Self.developer.map(
      json, with: MappingOptions(metadata: ["isDeveloper": true]))
    #expect(developer == Developer(name: "Anton", isDeveloper: true))
    #expect(try Self.developer.map(json) == Developer(name: "Anton", isDeveloper: false))
    let list = try Self.developer.mapCollection(
      #"[{"name": "Anton"}, {"name": "Tristan"}]"#,
      with: MappingOptions(metadata: ["isDeveloper": true]))
    #expect(list.allSatisfy(\.isDeveloper) && list.count == 2)
  }
}
