import Foundation
import Testing

@testable import ObjectMapping

/// Key paths that could trap (force unwraps, array subscripts) are definition problems, and no
/// payload or model makes a mapping that uses them stop the program.
@Suite struct KeyPathSafetyTests {
  struct Address: Equatable, Hashable {
    var city = ""
    var code = 0
  }

  struct Person: Equatable {
    var name = ""
    var address: Address?
    var items: [Address] = []
    var lists: [[Address]] = []
    var extras: [String: String] = [:]
    var boxed = Boxed()
    var upper: String {
      get { name.uppercased() }
      set { name = newValue.lowercased() }
    }
  }

  /// Holds every relationship shape behind an optional.
  struct Inner: Equatable {
    var one = Address()
    var maybe: Address?
    var many: [Address] = []
    var set: Set<Address> = []
    var byName: [String: Address] = [:]
  }

  struct Holder: Equatable {
    var inner: Inner?
    var lists: [[Address]] = []
  }

  final class Boxed: Equatable {
    var address: Address?
    static func == (lhs: Boxed, rhs: Boxed) -> Bool { lhs.address == rhs.address }
  }

  static let addressMapping = Mapping(Address.init) {
    Attribute("city", \.city)
    Attribute("code", \.code).optional()
  }

  static let forceUnwrap =
    #"Attribute "zip" uses the key path \Person.address!.city, whose force unwrap (!) would stop the program when the value is nil (a null or absent payload value, or a nil property when serializing); map the optional with a Relationship and a mapping of its own, or give the model a property of its own for the value"#

  static let subscripted =
    #"Attribute "first" uses the key path \Person.items[…].city, whose array subscript ([…]) would stop the program when the array is too short; map the whole array (an Attribute or a to-many Relationship), or give the model a property of its own for the element"#

  private func messages(_ body: () throws -> Void) -> [String] {
    do {
      try body()
      return []
    } catch let errors as MappingErrors {
      return errors.errors.map(\.description)
    } catch {
      return ["\(error)"]
    }
  }

  @Test func aForceUnwrapIsADefinitionProblemAndNeverTraps() throws {
    let mapping = Mapping(Person.init) {
      Attribute("name", \.name)
      Attribute("zip", \.address!.city)
    }
    #expect(
      messages { try mapping.validate() } == ["invalid mapping definition: \(Self.forceUnwrap)"])
    // First use reports it, whatever the payload: `null`, absent, or an object.
    for payload in [#"{"name": "a", "zip": null}"#, #"{"name": "a"}"#, #"{"zip": "x"}"#] {
      #expect(
        messages { _ = try mapping.map(payload) }
          == ["invalid mapping definition: \(Self.forceUnwrap)"])
    }
    // Serializing a model whose address is nil.
    #expect(
      messages { _ = try mapping.serialize(Person(name: "a")) }
        == ["/zip: invalid mapping definition: \(Self.forceUnwrap)"])
  }

  @Test func anArraySubscriptIsADefinitionProblemAndNeverTraps() throws {
    let mapping = Mapping(Person.init) {
      Attribute("first", \.items[0].city)
    }
    #expect(
      messages { try mapping.validate() } == ["invalid mapping definition: \(Self.subscripted)"])
    #expect(
      messages { _ = try mapping.map(#"{"first": "x"}"#) }
        == ["invalid mapping definition: \(Self.subscripted)"])
    #expect(
      messages { _ = try mapping.serialize(Person()) }
        == ["/first: invalid mapping definition: \(Self.subscripted)"])
  }

  struct Buffers {
    var numbers: [Double] = []
    var slice: ArraySlice<String> = []
    var bytes = Data()
  }

  /// Range subscripts of arrays and `Data`'s byte subscript trap past the end as well; a
  /// dictionary subscript (optional) and whole collections stay allowed.
  @Test func rangeAndDataSubscriptsAreProblemsToo() {
    #expect(KeyPathCheck.problem(\Buffers.numbers[0..<1], rule: "r") != nil)
    #expect(KeyPathCheck.problem(\Buffers.slice[1..<2], rule: "r") != nil)
    #expect(KeyPathCheck.problem(\Buffers.bytes[0], rule: "r") != nil)
    #expect(KeyPathCheck.problem(\Buffers.numbers[3], rule: "r") != nil)
    #expect(KeyPathCheck.problem(\Buffers.numbers, rule: "r") == nil)
    #expect(KeyPathCheck.problem(\Buffers.bytes, rule: "r") == nil)
    #expect(KeyPathCheck.problem(\Buffers.numbers.count, rule: "r") == nil)
  }

  /// A child mapping is not checked by itself when its parent is used: its steps report the
  /// problem at the child's path instead of touching the key path.
  @Test func aChildMappingWithATrappingKeyPathFailsItsParentWithoutTrapping() throws {
    let child = Mapping(Person.init) {
      Attribute("zip", \.address!.city)
    }
    struct Team { var lead = Person() }
    let team = Mapping(Team.init) {
      Relationship("lead", \.lead, child)
    }
    #expect(
      messages { _ = try team.map(#"{"lead": {"zip": null}}"#) }
        == ["/lead: invalid mapping definition: \(Self.forceUnwrap)"])
    #expect(
      messages { _ = try team.serialize(Team()) }
        == ["/lead/zip: invalid mapping definition: \(Self.forceUnwrap)"])
  }

  @Test(arguments: [
    ("one", "inner!.one", #"{"one": {"city": "a"}}"#),
    ("maybe", "inner!.maybe", #"{"maybe": null}"#),
    ("many", "inner!.many", #"{"many": []}"#),
    ("set", "inner!.set", #"{"set": [{"city": "a"}]}"#),
    ("byName", "inner!.byName", #"{"byName": {"a": {"city": "a"}}}"#),
    ("lists", "lists[…]", #"{"lists": [{"city": "a"}]}"#),
  ])
  func everyRelationshipShapeRejectsATrappingKeyPath(
    source: String, shown: String, payload: String
  ) throws {
    let m = Self.addressMapping
    let mapping: Mapping<Holder> =
      switch source {
      case "one": Mapping(Holder.init) { Relationship(source, \.inner!.one, m) }
      case "maybe": Mapping(Holder.init) { Relationship(source, \.inner!.maybe, m) }
      case "many": Mapping(Holder.init) { Relationship(source, \.inner!.many, m) }
      case "set": Mapping(Holder.init) { Relationship(source, \.inner!.set, m) }
      case "byName": Mapping(Holder.init) { Relationship(source, \.inner!.byName, m) }
      default: Mapping(Holder.init) { Relationship(source, \.lists[0], m) }
      }
    let reason =
      shown.hasSuffix("[…]")
      ? "whose array subscript ([…]) would stop the program when the array is too short; map the whole array (an Attribute or a to-many Relationship), or give the model a property of its own for the element"
      : "whose force unwrap (!) would stop the program when the value is nil (a null or absent payload value, or a nil property when serializing); map the optional with a Relationship and a mapping of its own, or give the model a property of its own for the value"
    let expected =
      "invalid mapping definition: Relationship \"\(source)\" uses the key path \\Holder.\(shown), \(reason)"
    #expect(messages { try mapping.validate() } == [expected])
    #expect(messages { _ = try mapping.map(payload) } == [expected])
    let atSource = "/\(source): \(expected)"
    #expect(messages { _ = try mapping.serialize(Holder()) } == [atSource])
    // Onto an existing instance (no definition check first would still not trap).
    var existing = Holder()
    #expect(messages { try mapping.map(payload, onto: &existing) } == [expected])
  }

  @Test func keyAttributesIdentitiesIncludesAndCompoundSourcesAreChecked() throws {
    let keyed = Mapping(Holder.init) {
      KeyAttribute("name", \.inner!.one.city)
      Attribute("code", \.inner!.one.code)
    }
    let reason =
      "whose force unwrap (!) would stop the program when the value is nil (a null or absent payload value, or a nil property when serializing); map the optional with a Relationship and a mapping of its own, or give the model a property of its own for the value"
    #expect(
      messages { try keyed.validate() } == [
        "invalid mapping definition: Attribute \"code\" uses the key path \\Holder.inner!.one.code, \(reason)",
        "invalid mapping definition: KeyAttribute \"name\" uses the key path \\Holder.inner!.one.city, \(reason)",
      ])
    #expect(messages { _ = try keyed.mapCollection(#"{"a": {"code": 1}}"#) }.count == 2)
    #expect(messages { _ = try keyed.serializeCollection([Holder()]) }.count == 1)

    let identified = Self.addressMapping.identified(by: \.city)
    try identified.validate()
    let byUnwrap = Mapping(Person.init) { Attribute("name", \.name) }.identified(
      by: \.address!.code)
    #expect(
      messages { try byUnwrap.validate() } == [
        "invalid mapping definition: identified(by:) uses the key path \\Person.address!.code, \(reason)"
      ])

    let base = Mapping(Person.init) { Attribute("zip", \.address!.city) }
    let including = Mapping(Person.init) {
      Include(base)
      Attribute("name", \.name)
    }
    #expect(
      messages { _ = try including.map(#"{"zip": null}"#) }
        == ["invalid mapping definition: \(Self.forceUnwrap)"])

    let compound = Mapping(Person.init) {
      Attribute(sources: ["a", "b"], \.address!.city, .joined(":"))
    }
    #expect(
      messages { _ = try compound.serialize(Person()) } == [
        "/a: invalid mapping definition: Attribute \"a+b\" uses the key path \\Person.address!.city, \(reason)"
      ])
  }

  @Test func anInverseCustomizationAddingATrappingRuleReportsIt() throws {
    let mapping = Mapping(Person.init) {
      Attribute("name", \.name)
    }.customizingInverse { $0.adding(Attribute("zip", \.address!.city)) }
    #expect(
      messages { _ = try mapping.serialize(Person(name: "a")) }
        == ["/zip: invalid mapping definition: \(Self.forceUnwrap)"])
  }

  @Test func aDynamicCaseWithATrappingKeyPathFailsWithoutTrapping() throws {
    let person = Mapping(Person.init) { Attribute("zip", \.address!.city) }
    let dynamic = DynamicMapping<Person> {
      Match("kind", equals: "person", person)
    }
    #expect(
      messages { _ = try dynamic.map(#"{"kind": "person", "zip": null}"#) }
        == ["invalid mapping definition: \(Self.forceUnwrap)"])
  }

  /// Optional chaining never traps: `\.address?.city` is a read-only key path (Swift makes no
  /// optional-chaining key path writable, so no rule can write through one and lose the value
  /// silently). Computed properties, class properties and dictionary subscripts are the model's
  /// own code and stay allowed. (An identity through optional chaining is written by no rule:
  /// `FuzzFindingsTests` checks it is reported.)
  @Test func optionalChainingComputedPropertiesAndDictionarySubscriptsStayAllowed() throws {
    let mapping = Mapping(Person.init) {
      Attribute("upper", \.upper)
      Attribute("color", \.extras["color"])
      Relationship("boxed", \.boxed.address, Self.addressMapping)
    }
    try mapping.validate()
    let person = try mapping.map(
      #"{"upper": "ANN", "color": "red", "boxed": {"city": "Oslo"}}"#)
    #expect(person.name == "ann")
    #expect(person.extras == ["color": "red"])
    #expect(person.boxed.address?.city == "Oslo")
    let json = String(decoding: try mapping.serialize(person), as: UTF8.self)
    #expect(json == #"{"upper":"ANN","color":"red","boxed":{"city":"Oslo","code":0}}"#)
    var existing = Person(address: Address(city: "Rome"))
    try mapping.map(#"{"color": "blue"}"#, onto: &existing)
    #expect(existing.extras == ["color": "blue"])
  }
}
