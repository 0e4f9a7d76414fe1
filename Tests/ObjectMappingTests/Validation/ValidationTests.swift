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
  @Test func aRelationshipValidatorOfTheWrongTypeFailsWithAMessage() throws {
    struct Holder: Equatable { var authors: [Author] = [] }
    let mapping = Mapping(Holder.init) {
      Relationship("authors", \.authors, authorMapping).validate { (_: inout Int) in true }
    }
    let lines = errorLines { try mapping.map(#"{"authors": [{"name": "A"}]}"#) }
    #expect(
      lines == [
        "/authors: validation failed: the validator takes a Int, the property holds a Array<Author>"
      ])
  }
}
