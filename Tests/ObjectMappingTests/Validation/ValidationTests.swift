import Foundation
import ObjectMapping
import Testing

// RestKit's key-value validation cases (seed 001): uppercase the title (replace), article id 0
// (reject, old value kept), empty body (fail).
struct Story: Equatable {
  var id = 0
  var title = ""
  var body = ""
}

enum StoryError: Error, CustomStringConvertible {
  case emptyBody
  var description: String { "the body is empty" }
}

private let storyMapping = Mapping(Story.init) {
  Attribute("id", \.id).validate("id 0 is a placeholder") { $0 != 0 }
  Attribute("title", \.title).validate { title in
    title = title.uppercased()
    return true
  }
  Attribute("body", \.body).validate { body in
    if body.isEmpty { throw StoryError.emptyBody }
    return true
  }
}

@Suite("Key-value validation")
struct ValidationTests {
  @Test func replaceRejectAndFailOnNewObjects() throws {
    let story = try storyMapping.map(#"{"id": 3, "title": "hello", "body": "text"}"#)
    #expect(story == Story(id: 3, title: "HELLO", body: "text"))

    let report = storyMapping.report(#"{"id": 0, "title": "hello", "body": "text"}"#)
    // The rejected id keeps its previous value: 0, from Story.init.
    #expect(report.object == Story(id: 0, title: "HELLO", body: "text"))
    #expect(report.diagnostics.map(\.description) == ["/id: value rejected: id 0 is a placeholder"])

    let lines = errorLines { try storyMapping.map(#"{"id": 3, "title": "hello", "body": ""}"#) }
    #expect(lines == ["/body: validation failed: the body is empty"])
  }

  @Test func replaceRejectAndFailOnExistingInstances() throws {
    var story = Story(id: 5, title: "OLD", body: "old body")
    try storyMapping.map(#"{"title": "new title"}"#, onto: &story)
    #expect(story == Story(id: 5, title: "NEW TITLE", body: "old body"))

    let rejected = storyMapping.report(#"{"id": 0, "title": "again"}"#, onto: story)
    story = try #require(rejected.object)
    #expect(story == Story(id: 5, title: "AGAIN", body: "old body"))
    #expect(
      rejected.diagnostics.map(\.description) == ["/id: value rejected: id 0 is a placeholder"])

    let before = story
    let lines = errorLines {
      try storyMapping.map(#"{"id": 9, "title": "changed", "body": ""}"#, onto: &story)
    }
    #expect(lines == ["/body: validation failed: the body is empty"])
    #expect(story == before)
  }

  @Test func aFailedValidationLeavesAnExistingClassInstanceUnchanged() throws {
    final class Box {
      var name = ""
      var size = 0
    }
    let mapping = Mapping(Box.init) {
      Attribute("name", \.name)
      Attribute("size", \.size).validate { size in
        if size < 0 { throw ValidationMessage("size must not be negative") }
        return true
      }
    }
    var box = Box()
    box.name = "kept"
    box.size = 1
    let lines = errorLines { try mapping.map(#"{"name": "changed", "size": -1}"#, onto: &box) }
    #expect(lines == ["/size: validation failed: size must not be negative"])
    #expect(box.name == "kept" && box.size == 1)
  }

  @Test func validationCanBeSwitchedOff() throws {
    let story = try storyMapping.validation(false).map(#"{"id": 0, "title": "hi", "body": ""}"#)
    #expect(story == Story(id: 0, title: "hi", body: ""))
  }

  @Test func modelHookRunsAfterTheAttributeHook() throws {
    let mapping = Mapping(Headline.init) {
      Attribute("text", \.text).validate { text in
        text += "!"
        return true
      }
      Attribute("rank", \.rank)
    }
    let headline = try mapping.map(#"{"text": "news", "rank": 2}"#)
    // The attribute hook appended "!", then the model hook uppercased: "NEWS!".
    #expect(headline.text == "NEWS!")
    let report = mapping.report(#"{"text": "news", "rank": 99}"#)
    #expect(report.object?.rank == 0)
    #expect(
      report.diagnostics.map(\.description) == [
        "/rank: value rejected: rejected 99 (Headline.validateValue)"
      ])
    #expect(
      errorLines { try mapping.map(#"{"text": "forbidden", "rank": 1}"#) } == [
        "/text: validation failed: forbidden word"
      ])
  }

  @Test func relationshipValidatorsReplaceRejectAndFail() throws {
    struct Thread: Equatable {
      var title = ""
      var posts: [Author] = []
    }
    let mapping = Mapping(Thread.init) {
      Attribute("title", \.title)
      Relationship("posts", \.posts, authorMapping)
        .validate("too many posts") { (posts: inout [Author]) in posts.count <= 2 }
        .validate { (posts: inout [Author]) in
          posts.sort { $0.name < $1.name }
          return true
        }
    }
    let sorted = try mapping.map(#"{"title": "t", "posts": [{"name": "b"}, {"name": "a"}]}"#)
    #expect(sorted.posts.map(\.name) == ["a", "b"])
    let report = mapping.report(
      #"{"title": "t", "posts": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}"#)
    #expect(report.object?.posts == [])
    #expect(report.diagnostics.map(\.description) == ["/posts: value rejected: too many posts"])
  }

  @Test func fiftyArticlesWithSevenInvalidReportExactlySevenErrors() throws {
    var elements: [String] = []
    let invalid: Set<Int> = [3, 8, 15, 21, 30, 42, 49]
    for index in 0..<50 {
      let body = invalid.contains(index) ? "" : "body \(index)"
      elements.append(#"{"id": \#(index + 1), "title": "t\#(index)", "body": "\#(body)"}"#)
    }
    let payload = "[" + elements.joined(separator: ",") + "]"
    do {
      _ = try storyMapping.mapCollection(payload)
      Issue.record("expected errors")
    } catch {
      #expect(error.errors.count == 7)
      #expect(
        error.errors.map(\.description)
          == invalid.sorted().map { "/\($0)/body: validation failed: the body is empty" })
      #expect(error.partialResult(as: [Story].self)?.count == 43)
    }
  }

  @Test func theSummaryListsMissingKeysRejectionsAndFailures() throws {
    let report = storyMapping.report(#"{"id": 0, "body": ""}"#)
    #expect(report.object == nil)
    #expect(
      report.summary == [
        "/title: required value is missing",
        "/body: validation failed: the body is empty",
        "/id: value rejected: id 0 is a placeholder",
      ])
  }
}

struct ValidationMessage: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

struct Headline: Equatable, KeyValueValidating {
  var text = ""
  var rank = 0

  func validateValue(_ value: inout Any, forKeyPath keyPath: PartialKeyPath<Headline>) throws
    -> Bool
  {
    if keyPath == \Headline.text, let text = value as? String {
      if text.hasPrefix("forbidden") { throw ValidationMessage("forbidden word") }
      value = text.uppercased()
    }
    if keyPath == \Headline.rank, let rank = value as? Int, rank > 10 { return false }
    return true
  }
}

@Suite("Key-value validation: definition mistakes")
struct ValidationMistakeTests {
  // A relationship's validator is typed when the plan is compiled: one that takes neither the
  // property's type nor, for an optional property, the type it wraps is a definition problem,
  // reported before any payload is read (it used to fail each value at run time).
  @Test func aRelationshipValidatorOfTheWrongTypeIsADefinitionProblem() throws {
    struct Holder: Equatable { var authors: [Author] = [] }
    let mapping = Mapping(Holder.init) {
      Relationship("authors", \.authors, authorMapping).validate { (_: inout Int) in true }
    }
    let expected = [
      "invalid mapping definition: Relationship \"authors\" has a validator that takes a Int, "
        + "but the property holds a Array<Author>; a relationship's validator takes the "
        + "property's type (or, for an optional property, the type it wraps)"
    ]
    #expect(errorLines { try mapping.map(#"{"authors": [{"name": "A"}]}"#) } == expected)
    // Also with no value to validate: the definition is wrong whatever the payload holds.
    #expect(errorLines { try mapping.map("{}") } == expected)
  }

  @Test func aValidatorOfAnOptionalPropertyMayTakeTheWrappedType() throws {
    struct Holder: Equatable {
      var lead: Author?
      var posts: [Author]?
    }
    let mapping = Mapping(Holder.init) {
      Relationship("lead", \.lead, authorMapping).validate { (lead: inout Author) in
        lead.name = lead.name.uppercased()
        return true
      }
      Relationship("posts", \.posts, authorMapping)
        .validate("too many posts") { (posts: inout [Author]) in posts.count <= 1 }
    }
    let mapped = try mapping.map(#"{"lead": {"name": "a"}, "posts": [{"name": "b"}]}"#)
    #expect(mapped == Holder(lead: Author(name: "A"), posts: [Author(name: "b")]))
    // `null` leaves nothing to validate: it passes.
    #expect(try mapping.map(#"{"lead": null, "posts": null}"#) == Holder())
    let report = mapping.report(#"{"posts": [{"name": "b"}, {"name": "c"}]}"#)
    #expect(report.object == Holder())
    #expect(report.diagnostics.map(\.description) == ["/posts: value rejected: too many posts"])
    // Onto an existing instance the validator sees the value about to be set.
    var existing = Holder(lead: Author(name: "x"), posts: [Author(name: "p")])
    try mapping.map(
      #"{"lead": {"name": "b"}, "posts": [{"name": "c"}, {"name": "d"}]}"#,
      onto: &existing)
    #expect(existing == Holder(lead: Author(name: "B"), posts: [Author(name: "p")]))
  }

  @Test func aValidatorOfAnOptionalPropertyMayTakeTheOptional() throws {
    struct Holder: Equatable { var lead: Author? }
    let mapping = Mapping(Holder.init) {
      Relationship("lead", \.lead, authorMapping).validate("a lead is required") {
        (lead: inout Author?) in lead != nil
      }
    }
    #expect(try mapping.map(#"{"lead": {"name": "a"}}"#) == Holder(lead: Author(name: "a")))
    let report = mapping.report(#"{"lead": null}"#)
    #expect(report.diagnostics.map(\.description) == ["/lead: value rejected: a lead is required"])
  }
}

// The overrides of a derived mapping read a relationship into an optional slot; its validators
// are lifted to the slot's type and still run.
@Suite("Key-value validation: overrides of derived mappings")
struct DerivedOverrideValidationTests {
  struct Member: Codable, Hashable, Sendable { var name: String }
  struct Team: Codable, Equatable, Sendable {
    var lead: Member
    var deputy: Member?
    var members: [Member]
  }
  static let member = Mapping(Member.self)
  static let team = Mapping(Team.self) {
    Relationship("head", \.lead, member).validate { (lead: inout Member) in
      lead.name = lead.name.uppercased()
      return true
    }
    Relationship("second", \.deputy, member).validate { (deputy: inout Member) in
      deputy.name += "!"
      return true
    }
    Relationship("people.items", \.members, member).validate("too many members") {
      (members: inout [Member]) in
      members.sort { $0.name < $1.name }
      return members.count <= 2
    }
  }

  @Test func overridesRunTheirValidators() throws {
    let team = try Self.team.map(
      #"{"head": {"name": "ann"}, "second": {"name": "bo"}, "#
        + #""people": {"items": [{"name": "cy"}, {"name": "al"}]}}"#)
    #expect(
      team
        == Team(
          lead: Member(name: "ANN"), deputy: Member(name: "bo!"),
          members: [Member(name: "al"), Member(name: "cy")]))
    let withoutDeputy = try Self.team.map(
      #"{"head": {"name": "ann"}, "people": {"items": []}}"#)
    #expect(withoutDeputy.deputy == nil)
  }

  // An optional property's override reads into a doubly optional slot (`[Member]??`): a
  // validator of the wrapped type is lifted twice, and still runs.
  @Test func anOptionalOverrideRunsAValidatorOfTheWrappedType() throws {
    struct Club: Codable, Equatable, Sendable { var members: [Member]? }
    let club = Mapping(Club.self) {
      Relationship("people", \.members, Self.member).validate("too many") {
        (members: inout [Member]) in
        members.reverse()
        return members.count <= 2
      }
    }
    #expect(
      try club.map(#"{"people": [{"name": "a"}, {"name": "b"}]}"#)
        == Club(members: [Member(name: "b"), Member(name: "a")]))
    #expect(try club.map(#"{"people": null}"#) == Club(members: nil))
    let report = club.report(#"{"people": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}"#)
    #expect(report.diagnostics.map(\.description) == ["/people: value rejected: too many"])
  }

  // An override's validator is checked against the model's property, as in a full mapping:
  // the optional slot it reads into must not widen what it accepts.
  @Test func aMistypedOverrideValidatorIsADefinitionProblem() throws {
    let wrongType = Mapping(Team.self) {
      Relationship("head", \.lead, Self.member).validate { (_: inout Int) in false }
    }
    let wrongCollection = Mapping(Team.self) {
      Relationship("people", \.members, Self.member).validate { (_: inout Set<Member>) in true }
    }
    let optionalForRequired = Mapping(Team.self) {
      Relationship("head", \.lead, Self.member).validate { (_: inout Member?) in true }
    }
    let payload = #"{"head": {"name": "ann"}, "people": [{"name": "bo"}]}"#
    #expect(
      errorLines { try wrongType.map(payload) } == [
        "invalid mapping definition: Relationship \"head\" has a validator that takes a Int, but "
          + "the property holds a Member; a relationship's validator takes the property's type "
          + "(or, for an optional property, the type it wraps)"
      ])
    #expect(
      errorLines { try wrongCollection.map(payload) } == [
        "invalid mapping definition: Relationship \"people\" has a validator that takes a "
          + "Set<Member>, but the property holds a Array<Member>; a relationship's validator "
          + "takes the property's type (or, for an optional property, the type it wraps)"
      ])
    #expect(
      errorLines { try optionalForRequired.map(payload) } == [
        "invalid mapping definition: Relationship \"head\" has a validator that takes a "
          + "Optional<Member>, but the property holds a Member; a relationship's validator takes "
          + "the property's type (or, for an optional property, the type it wraps)"
      ])
    #expect(throws: MappingErrors.self) { try wrongType.validate() }
  }

  @Test func aRejectedOverrideValueIsLeftOut() throws {
    let report = Self.team.report(
      #"{"head": {"name": "ann"}, "people": {"items": [{"name": "a"}, {"name": "b"}, "#
        + #"{"name": "c"}]}}"#)
    #expect(
      report.diagnostics.map(\.description) == ["/people/items: value rejected: too many members"])
    // A derived model has no previous value to keep: its `init(from:)` finds the key missing.
    #expect(report.errors.map(\.description) == ["/people/items: required value is missing"])
    #expect(report.object == nil)
  }
}
