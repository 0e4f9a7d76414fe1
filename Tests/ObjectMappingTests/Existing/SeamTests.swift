import Foundation
import ObjectMapping
import Testing

// Issue 22: where mapping onto existing instances met the other mapping kinds, data was lost.

private final class Member {
  var username = ""
  var email = ""
}

private let memberMapping = Mapping(Member.init) {
  KeyAttribute("username", \.username)
  Attribute("email", \.email)
}

private struct KeyedUser: Equatable {
  var username = ""
  var email = ""
  var age = 0
}

private let keyedUserMapping = Mapping(KeyedUser.init) {
  KeyAttribute("username", \.username)
  Attribute("email", \.email)
  Attribute("age", \.age)
}

@Suite("Seams: dynamic and nested-key mappings onto existing instances")
struct OntoSeamTests {
  @Test func aDynamicMappingUpdatesAnExistingClassInstanceInPlace() throws {
    let boy = try #require(try People.person.map(#"{"type": "Boy", "name": "Blake"}"#) as? Boy)
    var target: Person = boy
    try People.person.map(#"{"type": "Boy", "name": "Blake Watters"}"#, onto: &target)
    #expect(target === boy)
    #expect(boy.name == "Blake Watters")
  }

  @Test func aDynamicMappingOntoAClassReferenceUpdatesIt() throws {
    let girl = Girl()
    girl.name = "Sarah"
    var target: Person = girl
    try People.person.map(#"{"type": "Girl", "favorite_color": "red"}"#, onto: &target)
    #expect(target === girl)
    #expect(girl.name == "Sarah" && girl.favoriteColor == "red")
  }

  @Test func aPayloadOfAnotherCaseFailsNamingBothTypesAndLeavesTheTargetAlone() throws {
    let boy = Boy()
    boy.name = "Blake"
    var target: Person = boy
    let error = #expect(throws: MappingErrors.self) {
      try People.person.map(#"{"type": "Girl", "name": "Sarah"}"#, onto: &target)
    }
    #expect(
      error?.errors.map(\.description) == [
        "expected a payload for the existing Boy, found a Girl"
      ])
    #expect(target === boy && boy.name == "Blake")
  }

  @Test func aDeclinedPayloadOntoAnExistingInstanceIsAnError() throws {
    let boy = Boy()
    var target: Person = boy
    let error = #expect(throws: MappingErrors.self) {
      try People.person.map(#"{"type": "Cat", "name": "Tom"}"#, onto: &target)
    }
    #expect(error?.errors.map(\.description) == [#"no mapping matches: type is "Cat""#])
    #expect(target === boy && boy.name == "")
  }

  @Test func aNestedKeyMappingUpdatesAnExistingClassInstanceInPlace() throws {
    let member = Member()
    member.username = "ann"
    member.email = "old@x"
    var target = member
    try memberMapping.map(#"{"blake": {"email": "blake@restkit.org"}}"#, onto: &target)
    #expect(target === member)
    #expect(member.username == "blake" && member.email == "blake@restkit.org")
  }

  @Test func aNestedKeyMappingOntoAStructWritesOnlyPresentKeys() throws {
    var user = KeyedUser(username: "ann", email: "ann@x", age: 30)
    try keyedUserMapping.map(#"{"blake": {"email": "blake@x"}}"#, onto: &user)
    #expect(user == KeyedUser(username: "blake", email: "blake@x", age: 30))
  }

  @Test func aFailingNestedKeyPayloadLeavesTheInstanceAlone() throws {
    var member = Member()
    member.username = "ann"
    member.email = "old@x"
    let error = #expect(throws: MappingErrors.self) {
      try memberMapping.map(#"{"blake": {"email": []}}"#, onto: &member)
    }
    #expect(
      error?.errors.map(\.description) == ["/blake/email: expected a string, found an array"])
    #expect(member.username == "ann" && member.email == "old@x")
  }

  @Test func aMapperTargetThroughADynamicRouteIsUpdatedInPlace() throws {
    let provider = MappingProvider { Route("person", People.person) }
    let boy = Boy()
    boy.name = "Blake"
    let result = try Mapper(provider).map(
      #"{"person": {"type": "Boy", "name": "Blake Watters"}}"#, target: boy)
    #expect(result.errors.isEmpty && result.diagnostics.isEmpty)
    #expect(boy.name == "Blake Watters")
    #expect(result.first(Person.self) === boy)
  }

  @Test func aMapperTargetOfAnotherCaseFailsAndIsLeftAlone() throws {
    let provider = MappingProvider { Route("person", People.person) }
    let boy = Boy()
    boy.name = "Blake"
    let result = try Mapper(provider).map(
      #"{"person": {"type": "Girl", "name": "Sarah"}}"#, target: boy)
    #expect(
      result.errors.map(\.description) == [
        "/person: expected a payload for the existing Boy, found a Girl"
      ])
    #expect(boy.name == "Blake")
  }
}

private struct Note: Equatable {
  var id = 0
  var text = ""
}

private struct Notebook: Equatable {
  var pinned = Note()
  var latest: Note?
  var notes: [Note] = []
  var byName: [String: Note] = [:]
}

private let noteMapping = Mapping(Note.init) {
  Attribute("id", \.id)
  Attribute("text", \.text)
}.identified(by: \.id)

@Suite("Seams: collection policies need a collection")
struct PolicyShapeTests {
  @Test func aPolicyOnAToOneRelationshipIsADefinitionProblem() throws {
    let mapping = Mapping(Notebook.init) {
      Relationship("pinned", \.pinned, noteMapping).policy(.union)
      Relationship("latest", \.latest, noteMapping).policy(.append)
    }
    let expected = [
      #"invalid mapping definition: Relationship "pinned" is to-one, so .policy(.union) has no collection to combine; collection policies apply to array and set relationships"#,
      #"invalid mapping definition: Relationship "latest" is to-one, so .policy(.append) has no collection to combine; collection policies apply to array and set relationships"#,
    ]
    let validated = #expect(throws: MappingErrors.self) { try mapping.validate() }
    #expect(validated?.errors.map(\.description) == expected)
    var notebook = Notebook()
    let used = #expect(throws: MappingErrors.self) {
      try mapping.map(#"{"pinned": {"id": 1, "text": "a"}}"#, onto: &notebook)
    }
    #expect(used?.errors.map(\.description) == expected)
    #expect(notebook == Notebook())
  }

  @Test func aPolicyOnADictionaryRelationshipIsADefinitionProblem() throws {
    let mapping = Mapping(Notebook.init) {
      Relationship("by_name", \.byName, noteMapping).policy(.prepend)
    }
    let error = #expect(throws: MappingErrors.self) { try mapping.validate() }
    #expect(
      error?.errors.map(\.description) == [
        #"invalid mapping definition: Relationship "by_name" maps a dictionary, which is replaced as a whole, so .policy(.prepend) would be ignored; collection policies apply to array and set relationships"#
      ])
  }

  @Test func policiesOnToManyAndReplaceOnToOneAreFine() throws {
    let mapping = Mapping(Notebook.init) {
      Relationship("pinned", \.pinned, noteMapping).policy(.replace)
      Relationship("notes", \.notes, noteMapping).policy(.union)
    }
    try mapping.validate()
    var notebook = Notebook(notes: [Note(id: 1, text: "a")])
    try mapping.map(#"{"notes": [{"id": 2, "text": "b"}]}"#, onto: &notebook)
    #expect(notebook.notes == [Note(id: 1, text: "a"), Note(id: 2, text: "b")])
  }
}

private enum Reason: String {
  case late, sick
}

private struct Excuse: Equatable {
  var id = 0
  var reason: Reason?
}

/// The general transform initializer with an optional `Value`: not the optional-property one.
private let reasonTransform = ValueTransform<String, Reason?>(
  forward: { text in
    guard let reason = Reason(rawValue: text) else {
      throw ConversionFailure.invalidValue(expected: "a reason", raw: text, reason: nil)
    }
    return reason
  },
  reverse: { $0?.rawValue ?? "" })

private let excuseMapping = Mapping(Excuse.init) {
  Attribute("id", \.id)
  Attribute("r", \.reason, reasonTransform)
}

@Suite("Seams: a transform whose value type is optional")
struct OptionalTransformValueTests {
  @Test func nullAndAbsenceGiveNil() throws {
    #expect(try excuseMapping.map(#"{"id": 1}"#) == Excuse(id: 1, reason: nil))
    #expect(try excuseMapping.map(#"{"id": 1, "r": null}"#) == Excuse(id: 1, reason: nil))
    #expect(try excuseMapping.map(#"{"id": 1, "r": "late"}"#) == Excuse(id: 1, reason: .late))
  }

  @Test func nullOntoAnExistingInstanceClearsItAndAbsenceKeepsIt() throws {
    var excuse = Excuse(id: 1, reason: .sick)
    try excuseMapping.map(#"{"id": 2}"#, onto: &excuse)
    #expect(excuse == Excuse(id: 2, reason: .sick))
    try excuseMapping.map(#"{"r": null}"#, onto: &excuse)
    #expect(excuse == Excuse(id: 2, reason: nil))
  }

  @Test func nilIsSerializedByTheNullPolicyNotTheReverseClosure() throws {
    let excuse = Excuse(id: 1, reason: nil)
    let omitted = String(decoding: try excuseMapping.serialize(excuse), as: UTF8.self)
    #expect(omitted == #"{"id":1}"#)
    let included = String(
      decoding: try excuseMapping.nulls(.include).serialize(excuse), as: UTF8.self)
    #expect(included == #"{"id":1,"r":null}"#)
    let late = String(
      decoding: try excuseMapping.serialize(Excuse(id: 1, reason: .late)), as: UTF8.self)
    #expect(late == #"{"id":1,"r":"late"}"#)
  }

  @Test func aBadValueIsStillAnError() throws {
    let error = #expect(throws: MappingErrors.self) {
      try excuseMapping.map(#"{"id": 1, "r": "bored"}"#)
    }
    #expect(error?.errors.map(\.description) == ["/r: cannot convert bored to a reason"])
  }
}

/// A mapping type of the user's own, conforming by forwarding another mapping's opaque plan.
private struct ExcuseMapping: MappingProtocol {
  let base = excuseMapping
  var plan: MappingPlan<Excuse> { base.plan }
}

private struct Absence: Equatable {
  var excuse = Excuse()
}

@Suite("The opaque plan")
struct OpaquePlanTests {
  @Test func aTypeForwardingAPlanMapsAndIsUsableAsAChildMapping() throws {
    #expect(try ExcuseMapping().map(#"{"id": 3, "r": "sick"}"#) == Excuse(id: 3, reason: .sick))
    let absence = Mapping(Absence.init) { Relationship("excuse", \.excuse, ExcuseMapping()) }
    #expect(
      try absence.map(#"{"excuse": {"id": 4}}"#) == Absence(excuse: Excuse(id: 4, reason: nil)))
  }
}
