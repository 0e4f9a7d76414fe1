import Foundation
import Testing

@testable import ObjectMapping

@Suite struct RelationshipTests {
  struct Comment: Equatable, Hashable {
    var text = ""
    var replies: [Comment] = []

    static let mapping: Mapping<Comment> = Mapping(Comment.init) {
      Attribute("text", \.text)
      Relationship("replies", \.replies, lazy: { Comment.mapping }).optional()
    }
  }

  struct Thread: Equatable {
    var lead = Comment()
    var pinned: Comment?
    var comments: [Comment] = []
    var optionalComments: [Comment]?
    var unique: Set<Comment> = []
    var byUser: [String: Comment] = [:]
  }

  static let threadMapping = Mapping(Thread.init) {
    Relationship("lead", \.lead, Comment.mapping)
    Relationship("pinned", \.pinned, Comment.mapping)
    Relationship("comments", \.comments, Comment.mapping)
    Relationship("optional_comments", \.optionalComments, Comment.mapping)
    Relationship("unique", \.unique, Comment.mapping).optional()
    Relationship("by_user", \.byUser, Comment.mapping).optional()
  }

  @Test func mapsEveryShapeAndRecursion() throws {
    let json = """
      {"lead": {"text": "a", "replies": [{"text": "b", "replies": [{"text": "c"}]}]},
       "pinned": null,
       "comments": {"text": "single"},
       "optional_comments": null,
       "unique": [{"text": "x"}, {"text": "x"}],
       "by_user": {"ann": {"text": "hi"}, "bob": {"text": "yo"}}}
      """
    let thread = try Self.threadMapping.map(json)
    #expect(
      thread.lead
        == Comment(text: "a", replies: [Comment(text: "b", replies: [Comment(text: "c")])]))
    #expect(thread.pinned == nil)
    #expect(thread.comments == [Comment(text: "single")])
    #expect(thread.optionalComments == nil)
    #expect(thread.unique == [Comment(text: "x")])
    #expect(thread.byUser == ["ann": Comment(text: "hi"), "bob": Comment(text: "yo")])
  }

  /// The to-many step takes a path of its own for `[]`, for arrays of children and for every
  /// other value: each kind of collection (array, optional array, set) gets the elements in
  /// order (a set without duplicates), `[]` is an empty collection (not `nil`), and `null` is
  /// `nil` for an optional array and an error for a required one.
  @Test func toManyCollectionsOfEverySizeAndEmptyArrays() throws {
    for count in [0, 1, 2, 17] {
      let objects = (0..<count).map { #"{"text": "c\#($0)"}"# }
      let elements = objects.joined(separator: ",")
      let twice = (objects + objects).joined(separator: ",")
      let json = """
        {"lead": {"text": "l", "replies": []}, "comments": [\(elements)],
         "optional_comments": [\(elements)], "unique": [\(twice)]}
        """
      let thread = try Self.threadMapping.map(json)
      let expected = (0..<count).map { Comment(text: "c\($0)") }
      #expect(thread.lead.replies.isEmpty)
      #expect(thread.comments == expected)
      #expect(thread.optionalComments == expected)
      #expect(thread.unique == Set(expected))
    }
    let nulls = try Self.threadMapping.map(
      #"{"lead": {"text": "l"}, "comments": [], "optional_comments": null}"#)
    #expect(nulls.optionalComments == nil)
    #expect(nulls.lead.replies.isEmpty)
    // `null` for a non-optional array is an error, also under `.optional()` (absence only).
    #expect(
      errorLines {
        try Self.threadMapping.map(#"{"lead": {"text": "l", "replies": null}, "comments": []}"#)
      } == ["/lead/replies: expected an array, found null"])
    #expect(throws: MappingErrors.self) {
      try Self.threadMapping.map(#"{"lead": {"text": "l"}, "comments": null}"#)
    }
    #expect(throws: MappingErrors.self) {
      try Self.threadMapping.map(#"{"lead": {"text": "l"}, "comments": 3}"#)
    }
  }

  @Test func requiredRelationshipsAndChildErrorsCarryPaths() {
    let json = """
      {"comments": [{"text": "ok"}, {"replies": [{"text": [1]}]}, "nope"]}
      """
    #expect(
      errorLines { try Self.threadMapping.coercion(.strict).map(json) } == [
        "/lead: required value is missing",
        "/comments/1/text: required value is missing",
        "/comments/1/replies/0/text: expected a string, found an array",
        #"/comments/2: expected an object, found "nope""#,
      ])
  }

  @Test func collectionsThrowWithEveryErrorAndKeepValidElements() throws {
    let json = #"[{"text": "a"}, {"text": 5}, {"text": "c"}, {}]"#
    do {
      _ = try Comment.mapping.coercion(.strict).mapCollection(json)
      Issue.record("expected a failure")
    } catch {
      #expect(
        error.errors.map(\.description) == [
          "/1/text: expected a string, found 5",
          "/3/text: required value is missing",
        ])
      #expect(
        error.partialResult(as: [Comment].self) == [Comment(text: "a"), Comment(text: "c")])
    }
    #expect(try Comment.mapping.mapCollection(#"{"text": "one"}"#) == [Comment(text: "one")])
    #expect(try Comment.mapping.mapCollection("[]") == [])
  }
}
