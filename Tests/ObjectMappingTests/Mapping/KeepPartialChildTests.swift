import Foundation
import ObjectMapping
import Testing

/// `ChildFailurePolicy.keepPartial`: a failed child is kept with what did map, as RestKit
/// attached it (the reference's "child policy `.drop/.keepPartial/.failParent`"), and each of
/// its errors becomes a diagnostic at its own path.
@Suite("Relationship: keepPartial")
struct KeepPartialChildTests {
  struct KPAuthor: Equatable, Sendable {
    var name = "?"
    var age = 0
  }
  struct KPComment: Equatable, Sendable {
    var id = 0
    var body = ""
  }
  struct KPArticle: Equatable, Sendable {
    var title = ""
    var author: KPAuthor?
    var comments: [KPComment] = []
  }

  static let authorMapping = Mapping(KPAuthor.init) {
    Attribute("name", \.name)
    Attribute("age", \.age)
  }
  static let commentMapping = Mapping(KPComment.init) {
    Attribute("id", \.id)
    Attribute("body", \.body)
  }

  static func articleMapping(_ policy: ChildFailurePolicy) -> Mapping<KPArticle> {
    Mapping(KPArticle.init) {
      Attribute("title", \.title)
      Relationship("author", \.author, authorMapping).onChildFailure(policy)
      Relationship("comments", \.comments, commentMapping).onChildFailure(policy)
    }
  }

  static let payload = """
    {"title": "T", "author": {"name": [42], "age": 30},
     "comments": [{"id": 1, "body": "a"}, {"id": "two", "body": "b"}, {"body": "c"}]}
    """

  @Test func aFailedChildIsKeptWithWhatMappedAndItsErrorsAreDiagnostics() throws {
    let report = Self.articleMapping(.keepPartial).report(Self.payload)
    #expect(report.errors.isEmpty)
    let article = try #require(report.object)
    #expect(article.author == KPAuthor(name: "?", age: 30))
    #expect(
      article.comments == [
        KPComment(id: 1, body: "a"), KPComment(id: 0, body: "b"), KPComment(id: 0, body: "c"),
      ])
    #expect(
      report.diagnostics.map(\.description) == [
        "/author/name: value skipped: expected a string, found an array",
        #"/comments/1/id: value skipped: cannot convert "two" to an integer"#,
        "/comments/2/id: value skipped: required value is missing",
      ])
    // The throwing verb maps it too.
    #expect(try Self.articleMapping(.keepPartial).map(Self.payload) == article)
  }

  /// The same payload under the other two policies, side by side: the default fails the
  /// parent, `.dropChild` leaves the children out.
  @Test func theOtherPoliciesFailTheParentOrDropTheChild() throws {
    let failing = Self.articleMapping(.failParent).report(Self.payload)
    #expect(failing.object == nil)
    #expect(failing.errors.map(\.path) == ["/author/name", "/comments/1/id", "/comments/2/id"])
    let dropped = try Self.articleMapping(.dropChild).map(Self.payload)
    #expect(dropped.author == nil)
    #expect(dropped.comments == [KPComment(id: 1, body: "a")])
  }

  /// Below a kept child, what failed is kept as far as it mapped too (a grandchild under the
  /// default policy is attached partially to the child the outer relationship keeps).
  @Test func aGrandchildThatFailedIsKeptPartiallyInsideTheKeptChild() throws {
    struct KPShelf: Equatable, Sendable {
      var label = ""
      var article: KPArticle?
    }
    let shelf = Mapping(KPShelf.init) {
      Attribute("label", \.label)
      Relationship("article", \.article, Self.articleMapping(.failParent))
        .onChildFailure(.keepPartial)
    }
    let mapped = try shelf.map(#"{"label": "S", "article": {"title": {}, "author": {"age": 3}}}"#)
    #expect(mapped.article == KPArticle(title: "", author: KPAuthor(name: "?", age: 3)))
  }

  /// Onto an existing instance writes are all or nothing per object: a failed to-one child
  /// keeps its values, a failed to-many element is left out; the errors are diagnostics.
  @Test func ontoAnExistingInstanceAFailedChildIsNotWritten() throws {
    let mapping = Self.articleMapping(.keepPartial)
    var article = KPArticle(
      title: "old", author: KPAuthor(name: "Ann", age: 40),
      comments: [KPComment(id: 9, body: "kept?")])
    try mapping.map(
      #"{"title": "new", "author": {"name": [], "age": 41}, "comments": [{"id": "x"}, {"id": 2, "body": "b"}]}"#,
      onto: &article)
    #expect(article.title == "new")
    #expect(article.author == KPAuthor(name: "Ann", age: 40))
    #expect(article.comments == [KPComment(id: 2, body: "b")])
  }

  /// The diagnostics are bounded by the call's error limit, like the errors they replace.
  @Test func manyFailedChildrenStayWithinTheErrorLimit() throws {
    let elements = Array(repeating: #"{"id": "x", "body": []}"#, count: 5_000)
    let payload = #"{"title": "T", "comments": ["# + elements.joined(separator: ",") + "]}"
    let report = Self.articleMapping(.keepPartial).report(
      payload, with: MappingOptions(errorLimit: 10))
    #expect(report.errors.isEmpty)
    #expect(report.object?.comments.count == 5_000)
    #expect(report.diagnostics.count == 10)
    #expect(report.omittedDiagnosticCount == 9_990)
  }

  /// A dynamic mapping's child is made by its case: a case that failed made no child to keep,
  /// so the child is left out; its errors are diagnostics all the same.
  @Test func aDynamicChildWhoseCaseFailedIsLeftOutWithDiagnostics() throws {
    struct KPPost: Equatable, Sendable {
      var authors: [KPAuthor] = []
    }
    let dynamic = DynamicMapping<KPAuthor> {
      Match("kind", equals: "person", Self.authorMapping)
    }
    let post = Mapping(KPPost.init) {
      Relationship("authors", \.authors, dynamic).onChildFailure(.keepPartial)
    }
    let report = post.report(
      #"{"authors": [{"kind": "person", "name": "A", "age": 1}, {"kind": "person", "name": {}, "age": 2}]}"#
    )
    #expect(report.errors.isEmpty)
    #expect(report.object?.authors == [KPAuthor(name: "A", age: 1)])
    #expect(report.diagnostics.map(\.path) == ["/authors/1/name"])
  }

  /// A child kept partially is validated as one that mapped is: the relationship's validator
  /// sees the kept value, may change it, and rejecting it leaves the property as it was.
  @Test func aKeptPartialValueIsValidated() throws {
    let filtering = Mapping(KPArticle.init) {
      Relationship("comments", \.comments, Self.commentMapping)
        .onChildFailure(.keepPartial)
        .validate { (comments: inout [KPComment]) in
          comments.removeAll { $0.id == 0 }
          return true
        }
      Relationship("author", \.author, Self.authorMapping)
        .onChildFailure(.keepPartial)
        .validate { (author: inout KPAuthor) in
          author.name = author.name == "?" ? "anonymous" : author.name
          return true
        }
    }
    let filtered = try filtering.map(Self.payload)
    #expect(filtered.comments == [KPComment(id: 1, body: "a")])
    #expect(filtered.author == KPAuthor(name: "anonymous", age: 30))

    let rejecting = Mapping(KPArticle.init) {
      Relationship("comments", \.comments, Self.commentMapping)
        .onChildFailure(.keepPartial)
        .validate("at most two comments") { (comments: inout [KPComment]) in comments.count <= 2 }
    }
    let report = rejecting.report(Self.payload)
    #expect(report.errors.isEmpty)
    #expect(try #require(report.object).comments == [])
    #expect(
      report.diagnostics.map(\.description).contains { $0.contains("at most two comments") },
      "\(report.diagnostics)")

    // Under `.dropChild` the validator sees the children that mapped.
    let dropping = Mapping(KPArticle.init) {
      Relationship("comments", \.comments, Self.commentMapping)
        .onChildFailure(.dropChild)
        .validate("at most two comments") { (comments: inout [KPComment]) in comments.count <= 2 }
    }
    #expect(try dropping.map(Self.payload).comments == [KPComment(id: 1, body: "a")])
  }
}
