import Foundation
import ObjectMapping
import Testing

/// A mapping's plan is compiled once, on first use, however many modifiers built it (issue 37):
/// each modifier's effect is in that one plan, definition problems are reported when they were
/// before (first use and `validate()`), and tasks that use a fresh mapping at once agree.
@Suite("Mapping: the plan is compiled on first use")
struct LazyPlanTests {
  struct Member: Equatable, Sendable {
    var id = 0
    var name = ""
    var nickname: String?
  }

  /// A mapping built with five modifiers, each of which used to compile the whole plan.
  static func modified() -> Mapping<Member> {
    Mapping(Member.init) {
      Attribute("id", \.id)
      Attribute("name", \.name)
      Attribute("nickname", \.nickname)
    }
    .coercion(.strict)
    .nulls(.include)
    .rejectingUnknownKeys()
    .identified(by: \.id)
    .missingKeys([.assignDefaults])
  }

  @Test func everyModifierIsInThePlanCompiledOnFirstUse() throws {
    let mapping = Self.modified()
    #expect(try mapping.map(#"{"id": 1, "name": "Ann"}"#) == Member(id: 1, name: "Ann"))
    // .coercion(.strict) and .rejectingUnknownKeys()
    let error = try #require(throws: MappingErrors.self) {
      try mapping.map(#"{"id": "2", "name": "Bo", "extra": 1}"#)
    }
    #expect(
      error.errors.map(\.description) == [
        #"/id: expected an integer, found "2""#, "/extra: unknown key",
      ])
    // .nulls(.include)
    let body = try mapping.serialize(Member(id: 3, name: "Cy"))
    #expect(String(decoding: body, as: UTF8.self) == #"{"id":3,"name":"Cy","nickname":null}"#)
    // .missingKeys([.assignDefaults]): onto an instance, an absent optional becomes nil.
    var member = Member(id: 4, name: "Di", nickname: "D")
    try mapping.map(#"{"id": 4}"#, onto: &member)
    #expect(member == Member(id: 4, name: "Di", nickname: nil))
  }

  @Test func aModifierAfterFirstUseMakesAPlanOfItsOwn() throws {
    let lenient = Mapping(Member.init) {
      Attribute("id", \.id)
      Attribute("name", \.name)
    }
    #expect(try lenient.map(#"{"id": "5", "name": "Ed"}"#).id == 5)
    let strict = lenient.coercion(.strict)
    #expect(throws: MappingErrors.self) { try strict.map(#"{"id": "5", "name": "Ed"}"#) }
    // The first mapping keeps its own plan.
    #expect(try lenient.map(#"{"id": "6", "name": "Fi"}"#).id == 6)
  }

  @Test func definitionProblemsOfAModifiedMappingAreReportedOnFirstUseAndByValidate() throws {
    let mapping = Mapping(Member.init) {
      Attribute("id", \.id)
      Attribute("identifier", \.id)
    }.coercion(.strict).nulls(.include).roundTrip()
    let expected = [
      "invalid mapping definition: \"id\" and \"identifier\" both write \\Member.id; keep one, or put the alternatives in included mappings (later wins)"
    ]
    let first = try #require(throws: MappingErrors.self) { try mapping.map(#"{"id": 1}"#) }
    #expect(first.errors.map(\.description) == expected)
    let validated = try #require(throws: MappingErrors.self) { try mapping.validate() }
    #expect(validated.errors.map(\.description) == expected)
  }

  @Test func tasksUsingAFreshMappingAtOnceAgree() async throws {
    let mapping = Self.modified()
    let results = try await withThrowingTaskGroup(of: Member.self) { group in
      for id in 0..<16 {
        group.addTask { try mapping.map(#"{"id": \#(id), "name": "n\#(id)"}"#) }
      }
      var members: [Member] = []
      for try await member in group { members.append(member) }
      return members
    }
    #expect(results.map(\.id).sorted() == Array(0..<16))
    #expect(results.allSatisfy { $0.name == "n\($0.id)" })
  }
}
