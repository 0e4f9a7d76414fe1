import Foundation
import ObjectMapping
import Testing

// Classes, so "the same instance" can be checked with ===.
final class Writer: CustomStringConvertible {
  var id = 0
  var name = ""
  var email: String?
  var description: String { "Writer(\(id), \(name))" }
}

final class Post {
  var id = 0
  var title = ""
  var writer: Writer?
  var comments: [Remark] = []
  var tags: [String] = []
}

final class Remark: Equatable, CustomStringConvertible {
  var id: Int?
  var text = ""
  static func == (lhs: Remark, rhs: Remark) -> Bool { lhs.id == rhs.id && lhs.text == rhs.text }
  var description: String { "Comment(\(id.map(String.init) ?? "nil"), \(text))" }
}

private let writerMapping = Mapping(Writer.init) {
  Attribute("id", \.id)
  Attribute("name", \.name)
  Attribute("email", \.email)
}.identified(by: \.id)

private let commentMapping = Mapping(Remark.init) {
  Attribute("id", \.id)
  Attribute("text", \.text)
}.identified(by: \.id)

private func postMapping(_ policy: CollectionPolicy = .replace) -> Mapping<Post> {
  Mapping(Post.init) {
    Attribute("id", \.id)
    Attribute("title", \.title)
    Relationship("writer", \.writer, writerMapping)
    Relationship("comments", \.comments, commentMapping).policy(policy)
    Attribute("tags", \.tags, default: [])
  }
}

private func existingPost() throws -> Post {
  try postMapping().map(
    #"{"id": 1, "title": "Old", "writer": {"id": 7, "name": "Ann", "email": "ann@x"}, "comments": [{"id": 1, "text": "a"}, {"id": 2, "text": "b"}], "tags": ["x"]}"#
  )
}

/// The existing post's comments, described, after mapping `payload` onto it with `policy`.
private func commentsAfter(_ policy: CollectionPolicy, _ payload: String) throws -> [String] {
  var post = try existingPost()
  try postMapping(policy).map(payload, onto: &post)
  return post.comments.map(\.description)
}

@Suite("Mapping onto existing instances")
struct OntoExistingTests {
  @Test func onlyPresentKeysAreWrittenAndAbsenceIsNotAnError() throws {
    var post = try existingPost()
    try postMapping().map(#"{"title": "New"}"#, onto: &post)
    #expect(post.title == "New")
    #expect(post.id == 1 && post.writer?.name == "Ann" && post.comments.count == 2)
    #expect(post.tags == ["x"])
  }

  @Test func structsAreUpdatedInPlace() throws {
    var article = try articleMapping.map(
      #"{"id": 1, "title": "Old", "body": "text", "meta": {"tags": ["a"]}}"#)
    try articleMapping.map(#"{"title": "New", "author": {"name": "Bo"}}"#, onto: &article)
    #expect(
      article == Article(id: 1, title: "New", body: "text", author: Author(name: "Bo"), tags: ["a"])
    )
  }

  @Test func aChildWithTheSameIdIsUpdatedInPlaceAndAnotherIdReplacesIt() throws {
    var post = try existingPost()
    let original = try #require(post.writer)
    try postMapping().map(#"{"writer": {"id": 7, "name": "New"}}"#, onto: &post)
    #expect(post.writer === original)
    #expect(original.name == "New" && original.email == "ann@x")

    try postMapping().map(#"{"writer": {"id": 8, "name": "Other"}}"#, onto: &post)
    #expect(post.writer !== original)
    #expect(post.writer?.id == 8 && post.writer?.name == "Other" && post.writer?.email == nil)
    #expect(original.name == "New")
  }

  @Test func aFailingElementLeavesTheObjectAndItsChildrenUnchanged() throws {
    var post = try existingPost()
    let comments = post.comments
    let lines = errorLines {
      try postMapping().map(
        #"{"title": "Changed", "writer": {"id": 7, "name": "Changed"}, "comments": [{"id": 1, "text": "changed"}, {"id": 2, "text": 5, "extra": []}, {"id": 3, "text": {}}]}"#,
        onto: &post)
    }
    #expect(lines == [#"/comments/2/text: expected a string, found an object"#])
    #expect(post.title == "Old")
    #expect(post.writer?.name == "Ann")
    #expect(
      post.comments.count == 2 && post.comments[0] === comments[0]
        && post.comments[1] === comments[1])
    #expect(comments.map(\.text) == ["a", "b"])
  }

  @Test func replaceMergesByIdentityInPayloadOrder() throws {
    var post = try existingPost()
    let first = post.comments[0]
    try postMapping().map(
      #"{"comments": [{"id": 3, "text": "c"}, {"id": 1, "text": "a2"}]}"#, onto: &post)
    #expect(post.comments.map(\.description) == ["Comment(3, c)", "Comment(1, a2)"])
    #expect(post.comments[1] === first)
  }

  @Test func appendPrependUnionAndClearThenAppend() throws {
    let payload =
      #"{"comments": [{"id": 3, "text": "c"}, {"id": 4, "text": "d"}, {"id": 1, "text": "a2"}]}"#

    #expect(
      try commentsAfter(.append, payload) == [
        "Comment(1, a)", "Comment(2, b)", "Comment(3, c)", "Comment(4, d)", "Comment(1, a2)",
      ])
    #expect(
      try commentsAfter(.prepend, payload) == [
        "Comment(3, c)", "Comment(4, d)", "Comment(1, a2)", "Comment(1, a)", "Comment(2, b)",
      ])

    var united = try existingPost()
    let first = united.comments[0]
    try postMapping(.union).map(payload, onto: &united)
    #expect(
      united.comments.map(\.description) == [
        "Comment(1, a2)", "Comment(2, b)", "Comment(3, c)", "Comment(4, d)",
      ])
    #expect(united.comments[0] === first)

    var cleared = try existingPost()
    let old = cleared.comments[0]
    try postMapping(.clearThenAppend).map(payload, onto: &cleared)
    #expect(
      cleared.comments.map(\.description) == ["Comment(3, c)", "Comment(4, d)", "Comment(1, a2)"])
    #expect(cleared.comments[2] !== old && old.text == "a")
  }

  @Test func nullAddsNothingUnderACombiningPolicyAndIsAnErrorOtherwise() throws {
    for policy in [CollectionPolicy.union, .append, .prepend] {
      var post = try existingPost()
      let before = post.comments
      try postMapping(policy).map(#"{"title": "t2", "comments": null}"#, onto: &post)
      #expect(post.title == "t2")
      #expect(post.comments.count == before.count)
      #expect(zip(post.comments, before).allSatisfy { $0 === $1 })
    }
    for policy in [CollectionPolicy.replace, .clearThenAppend] {
      var post = try existingPost()
      #expect(throws: MappingErrors.self) {
        try postMapping(policy).map(#"{"title": "t2", "comments": null}"#, onto: &post)
      }
      #expect(post.title != "t2")
    }
  }

  @Test func theSameIdTwiceInOnePayloadIsOneObjectWithTheLaterValues() throws {
    var post = try existingPost()
    try postMapping().map(
      #"{"comments": [{"id": 5, "text": "first"}, {"id": 6, "text": "x"}, {"id": 5, "text": "second"}]}"#,
      onto: &post)
    #expect(post.comments.map(\.description) == ["Comment(5, second)", "Comment(6, x)"])
  }

  // Issue 37's decision: `.append` and `.prepend` read the payload's identities (an id twice in
  // one payload is one object) but never the existing children's; `.clearThenAppend` merges none:
  // its children are all new, one per element, and the call's identity map makes the same id
  // twice the same instance (twice in the list, with the later values).
  @Test func combiningPoliciesMergeRepeatedIdsWithinThePayloadOnly() throws {
    let payload =
      #"{"comments": [{"id": 5, "text": "first"}, {"id": 6, "text": "x"}, {"id": 5, "text": "second"}, {"id": 1, "text": "a3"}]}"#

    var appended = try existingPost()
    let first = appended.comments[0]
    try postMapping(.append).map(payload, onto: &appended)
    #expect(
      appended.comments.map(\.description) == [
        "Comment(1, a)", "Comment(2, b)", "Comment(5, second)", "Comment(6, x)", "Comment(1, a3)",
      ])
    #expect(appended.comments[0] === first && first.text == "a")

    #expect(
      try commentsAfter(.prepend, payload) == [
        "Comment(5, second)", "Comment(6, x)", "Comment(1, a3)", "Comment(1, a)", "Comment(2, b)",
      ])
    var cleared = try existingPost()
    let existing = cleared.comments
    try postMapping(.clearThenAppend).map(payload, onto: &cleared)
    #expect(
      cleared.comments.map(\.description) == [
        "Comment(5, second)", "Comment(6, x)", "Comment(5, second)", "Comment(1, a3)",
      ])
    #expect(cleared.comments[0] === cleared.comments[2])
    #expect(!cleared.comments.contains { child in existing.contains { $0 === child } })
    #expect(existing[0].description == "Comment(1, a)")
  }

  @Test func aMissingIdNeverMatches() throws {
    var post = try postMapping().map(#"{"id": 1, "title": "t", "comments": [{"text": "no id"}]}"#)
    let idless = post.comments[0]
    try postMapping().map(#"{"comments": [{"text": "again"}, {"text": "and again"}]}"#, onto: &post)
    #expect(post.comments.count == 2)
    #expect(post.comments.allSatisfy { $0 !== idless })
  }

  @Test func droppingFailedChildrenKeepsTheValidOnesAndReportsTheRest() throws {
    let tolerant = Mapping(Post.init) {
      Attribute("id", \.id)
      Relationship("comments", \.comments, commentMapping).onChildFailure(.dropChild)
    }
    let post = try tolerant.map(
      #"{"id": 1, "comments": [{"id": 1, "text": "ok"}, {"id": 2, "text": []}, {"id": 3, "text": "fine"}]}"#
    )
    #expect(post.comments.map(\.description) == ["Comment(1, ok)", "Comment(3, fine)"])
    let result = try Mapper(MappingProvider { Route("post", tolerant) }).map(
      #"{"post": {"id": 1, "comments": [{"id": 2, "text": []}]}}"#)
    #expect(result.errors.isEmpty)
    #expect(
      result.diagnostics.map(\.description) == [
        "/post/comments/0: element skipped: /post/comments/0/text: expected a string, found an array"
      ])
  }
}

@Suite("Collections: skipping invalid elements")
struct SkippingInvalidElementsTests {
  @Test func throwingAPIThrowsWithPartialResultsAndOptionKeepsTheValidOnes() throws {
    let payload = #"[{"name": "Ann"}, {"name": 5, "email": []}, {"name": "Cy"}]"#
    do {
      _ = try authorMapping.mapCollection(payload)
      Issue.record("expected a failure")
    } catch {
      #expect(error.errors.map(\.description) == ["/1/email: expected a string, found an array"])
      #expect(error.partialResult(as: [Author].self)?.map(\.name) == ["Ann", "Cy"])
    }
    let mapped = try Mapper(MappingProvider { Route("", authorMapping) }).map(payload)
    #expect(mapped.all(Author.self).map(\.name) == ["Ann", "Cy"])
    #expect(mapped.errors.map(\.description) == ["/1/email: expected a string, found an array"])
  }
}

@Suite("Mapper: target objects")
struct MapperTargetTests {
  static let provider = MappingProvider {
    Route("post", postMapping())
    Route("posts", postMapping())
  }

  @Test func aSingleObjectIsMappedOntoTheTarget() throws {
    let post = try existingPost()
    let writer = post.writer
    let result = try Mapper(Self.provider).map(
      #"{"post": {"title": "Via mapper", "writer": {"id": 7, "name": "Renamed"}}}"#, target: post)
    #expect(result.errors.isEmpty && result.diagnostics.isEmpty)
    #expect(post.title == "Via mapper" && post.id == 1)
    #expect(post.writer === writer && writer?.name == "Renamed")
    #expect(result.first(Post.self) === post)
  }

  @Test func aTargetForACollectionIsIgnoredWithADiagnostic() throws {
    let post = try existingPost()
    let result = try Mapper(Self.provider).map(
      #"{"posts": [{"id": 2, "title": "a", "comments": []}, {"id": 3, "title": "b", "comments": []}]}"#,
      target: post)
    #expect(result.all(Post.self).map(\.id) == [2, 3])
    #expect(post.title == "Old")
    #expect(
      result.diagnostics.map(\.description) == [
        "target object ignored: no single object of type Post was reached by a route"
      ])
  }

  @Test func aFailingPayloadLeavesTheTargetUnchanged() throws {
    let post = try existingPost()
    let result = try Mapper(Self.provider).map(
      #"{"post": {"title": "x", "comments": [{"id": 1, "text": []}]}}"#, target: post)
    #expect(
      result.errors.map(\.description) == [
        "/post/comments/0/text: expected a string, found an array"
      ])
    #expect(post.title == "Old")
  }
}

@Suite("Failed to-one children")
struct DroppedToOneChildTests {
  @Test func aFailedToOneChildIsDroppedWithADiagnostic() throws {
    let tolerant = Mapping(Post.init) {
      Attribute("id", \.id)
      Relationship("writer", \.writer, writerMapping).onChildFailure(.dropChild)
    }
    let report = tolerant.report(#"{"id": 4, "writer": {"id": "x", "name": "Ann"}}"#)
    #expect(report.object?.id == 4)
    #expect(report.object?.writer == nil)
    #expect(report.errors.isEmpty)
    #expect(
      report.diagnostics.map(\.description) == [
        #"/writer: element skipped: /writer/id: cannot convert "x" to an integer"#
      ])
    var post = try existingPost()
    let writer = post.writer
    try tolerant.map(#"{"id": 9, "writer": {"id": 7, "name": []}}"#, onto: &post)
    #expect(post.id == 9 && post.writer === writer && writer?.name == "Ann")
    // Without the option, the child's failure fails the parent.
    #expect(
      errorLines {
        try postMapping().map(
          #"{"id": 1, "title": "t", "comments": [], "writer": {"id": "x", "name": "A"}}"#)
      }
        == [#"/writer/id: cannot convert "x" to an integer"#])
  }
}
