import Foundation
import Testing

@testable import ObjectMapping

/// Settings that flow from the call and from parent mappings to child mappings when serializing,
/// with ``MappingOptions``' precedence: rule, then the child's own setting, then the parent's
/// (the root's being the call's options when given, else its own).
@Suite struct EncodeOptionsTests {
  struct Pet: Equatable {
    var name: String?
    var born: Date?
  }

  struct Owner: Equatable {
    var name: String?
    var pet: Pet?
    var pets: [Pet] = []
  }

  static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  static let pet = Mapping(Pet.init) {
    Attribute("name", \.name)
    Attribute("born", \.born)
  }

  static func owner(_ pet: Mapping<Pet>) -> Mapping<Owner> {
    Mapping(Owner.init) {
      Attribute("name", \.name)
      Relationship("pet", \.pet, pet)
      Relationship("pets", \.pets, pet)
    }
  }

  static let sample = Owner(name: nil, pet: Pet(name: nil, born: nil), pets: [Pet()])

  @Test func aCallsNullPolicyReachesEveryChildMapping() throws {
    let json = try Self.owner(Self.pet).inverted()
      .encodedJSON(Self.sample, options: MappingOptions(nulls: .include))
    #expect(
      Self.text(json)
        == #"{"name":null,"pet":{"name":null,"born":null},"pets":[{"name":null,"born":null}]}"#)
    // Without options, the mappings' own (default) policy leaves nils out.
    let plain = try Self.owner(Self.pet).inverted().encodedJSON(Self.sample, options: .none)
    #expect(Self.text(plain) == #"{"pet":{},"pets":[{}]}"#)
  }

  @Test func aParentsNullPolicyReachesItsChildren() throws {
    let json = try Self.owner(Self.pet).nulls(.include).serialize(Self.sample)
    #expect(
      String(decoding: json, as: UTF8.self)
        == #"{"name":null,"pet":{"name":null,"born":null},"pets":[{"name":null,"born":null}]}"#)
    let node = try Self.owner(Self.pet).nulls(.include).node(Self.sample)
    #expect(node["pet"] == ["name": .null, "born": .null])
  }

  @Test func aChildsOwnSettingWinsOverTheParentsAndTheCalls() throws {
    let mapping = Self.owner(Self.pet.nulls(.omit)).nulls(.include)
    #expect(
      String(decoding: try mapping.serialize(Self.sample), as: UTF8.self)
        == #"{"name":null,"pet":{},"pets":[{}]}"#)
    let json = try Self.owner(Self.pet.nulls(.omit)).inverted()
      .encodedJSON(Self.sample, options: MappingOptions(nulls: .include))
    #expect(Self.text(json) == #"{"name":null,"pet":{},"pets":[{}]}"#)
  }

  @Test func theCallsOptionsWinOverTheRootMappingsOwn() throws {
    let json = try Self.owner(Self.pet).nulls(.include).inverted()
      .encodedJSON(Self.sample, options: MappingOptions(nulls: .omit))
    #expect(Self.text(json) == #"{"pet":{},"pets":[{}]}"#)
  }

  @Test func aRulesOwnPolicyWinsOverEverything() throws {
    let pet = Mapping(Pet.init) {
      Attribute("name", \.name).nulls(.include)
      Attribute("born", \.born)
    }.nulls(.omit)
    let json = try Self.owner(pet).inverted()
      .encodedJSON(Owner(pet: Pet()), options: MappingOptions(nulls: .omit))
    #expect(Self.text(json) == #"{"pet":{"name":null},"pets":[]}"#)
  }

  @Test func dateFormatsFlowLikeNullPolicies() throws {
    let epoch = Date(timeIntervalSince1970: 86_400)
    let owner = Owner(pet: Pet(name: "Rex", born: epoch))
    // The call's first date format reaches the child.
    let called = try Self.owner(Self.pet).inverted()
      .encodedJSON(owner, options: MappingOptions(dateFormats: [.epochSeconds]))
    #expect(Self.text(called) == #"{"pet":{"name":"Rex","born":86400},"pets":[]}"#)
    // So does the parent's.
    let inherited = try Self.owner(Self.pet).dateFormats([.epochSeconds]).serialize(owner)
    #expect(
      String(decoding: inherited, as: UTF8.self)
        == #"{"pet":{"name":"Rex","born":86400},"pets":[]}"#)
    // The child's own wins.
    let own = try Self.owner(Self.pet.dateFormats([.iso8601])).inverted()
      .encodedJSON(owner, options: MappingOptions(dateFormats: [.epochSeconds]))
    #expect(
      Self.text(own) == #"{"pet":{"name":"Rex","born":"1970-01-02T00:00:00Z"},"pets":[]}"#)
    // And a node gets the same.
    let node = try Self.owner(Self.pet).inverted()
      .encodedNode(owner, options: MappingOptions(dateFormats: [.epochSeconds]))
    #expect(node["pet"]?["born"] == .integer(86_400))
  }
}
