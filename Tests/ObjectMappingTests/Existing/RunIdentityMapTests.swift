import Foundation
import ObjectMapping
import Synchronization
import Testing

// One identity map per mapping run (the reference's "Ours" for RestKit's duplicate objects,
// #2000, #1194, #661): in one call, the same id twice is the same class instance, the later
// representation mapped onto it as `map(_:onto:)` maps; structs, mappings without an identity
// and payloads without an id keep one value per representation.
// `theSameIdTwiceInOnePayloadIsOneInstance` runs the sample of UpdatingExistingObjects.md's "One
// instance per id in every call".

/// Counts the initializer runs of the models made with it.
private final class MadeCount: Sendable {
  private let count = Atomic<Int>(0)
  func increment() { count.add(1, ordering: .relaxed) }
  var value: Int { count.load(ordering: .relaxed) }
}

private final class RunAuthor {
  var id: Int?
  var name = ""
  var age = 0
  init(_ made: MadeCount) { made.increment() }
}

private final class RunArticle {
  var title = ""
  var author: RunAuthor?
  var editors: [RunAuthor] = []
}

private final class RunPerson {
  var id = 0
  var name = ""
  var friends: [RunPerson] = []
  var parent: RunPerson?
}

private struct RunAuthorValue {
  var id = 0
  var name = ""
}

private struct RunArticleValue {
  var title = ""
  var author = RunAuthorValue()
}

private func runAuthorMapping(_ made: MadeCount, identified: Bool = true) -> Mapping<RunAuthor> {
  let make: @Sendable () -> RunAuthor = { RunAuthor(made) }
  let mapping = Mapping(make) {
    Attribute("id", \.id)
    Attribute("name", \.name)
    Attribute("age", \.age, default: 0)
  }
  return identified ? mapping.identified(by: \.id) : mapping
}

private func runArticleMapping(_ made: MadeCount, identified: Bool = true) -> Mapping<RunArticle> {
  Mapping(RunArticle.init) {
    Attribute("title", \.title)
    Relationship("author", \.author, runAuthorMapping(made, identified: identified))
    Relationship("editors", \.editors, runAuthorMapping(made, identified: identified))
      .optional()
  }
}

@Suite struct RunIdentityMapTests {
  @Test func theSameIdTwiceInOnePayloadIsOneInstance() throws {
    let made = MadeCount()
    let articles = try runArticleMapping(made).mapCollection(
      #"""
      [{"title": "a", "author": {"id": 7, "name": "Ann", "age": 40}},
       {"title": "b", "author": {"id": 7, "name": "Ann B."}, "editors": [{"id": 7}, {"id": 8, "name": "Bo"}]},
       {"title": "c", "author": {"id": 8}}]
      """#)
    #expect(articles.count == 3)
    let ann = try #require(articles[0].author)
    #expect(articles[1].author === ann)
    #expect(articles[1].editors.first === ann)
    #expect(articles[2].author === articles[1].editors.last)
    // The later representation is mapped onto the instance: its keys written, the absent kept.
    #expect(ann.name == "Ann B." && ann.age == 40)
    #expect(articles[2].author?.name == "Bo")
    // One initializer run per id: a later occurrence makes no model.
    #expect(made.value == 2)
  }

  @Test func withoutAnIdentityEveryRepresentationIsItsOwnInstance() throws {
    let made = MadeCount()
    let articles = try runArticleMapping(made, identified: false).mapCollection(
      #"[{"title": "a", "author": {"id": 7, "name": "Ann"}}, {"title": "b", "author": {"id": 7, "name": "Ann"}}]"#
    )
    #expect(articles[0].author !== articles[1].author)
    #expect(made.value == 2)
  }

  @Test func aMissingIdNeverMatches() throws {
    let made = MadeCount()
    let articles = try runArticleMapping(made).mapCollection(
      #"""
      [{"title": "a", "author": {"name": "Ann"}}, {"title": "b", "author": {"name": "Ann"}},
       {"title": "c", "author": {"id": null, "name": "Ann"}}, {"title": "d", "author": {"id": null, "name": "Ann"}}]
      """#)
    let authors = articles.compactMap(\.author)
    #expect(authors.count == 4)
    #expect(Set(authors.map(ObjectIdentifier.init)).count == 4)
  }

  @Test func theMapIsPerCall() throws {
    let made = MadeCount()
    let mapping = runArticleMapping(made)
    let payload = #"{"title": "a", "author": {"id": 7, "name": "Ann"}}"#
    let first = try mapping.map(payload)
    let second = try mapping.map(payload)
    #expect(first.author !== second.author)
  }

  @Test func anotherModelTypeWithTheSameIdIsAnotherObject() throws {
    let made = MadeCount()
    let personMapping = Mapping(RunPerson.init) {
      Attribute("id", \.id)
      Attribute("name", \.name)
    }.identified(by: \.id)
    struct Pair {
      var author: RunAuthor?
      var person: RunPerson?
    }
    let pair = try Mapping(Pair.init) {
      Relationship("author", \.author, runAuthorMapping(made))
      Relationship("person", \.person, personMapping)
    }.map(#"{"author": {"id": 1, "name": "A"}, "person": {"id": 1, "name": "P"}}"#)
    #expect(pair.author?.name == "A" && pair.person?.name == "P")
  }

  @Test func aRepresentationThatFailsLeavesTheInstanceAsItWas() throws {
    let made = MadeCount()
    let mapped = try runArticleMapping(made).mapCollection(
      #"""
      [{"title": "a", "author": {"id": 7, "name": "Ann", "age": 40}},
       {"title": "b", "author": {"id": 7, "name": "Changed", "age": "forty"}},
       {"title": "c", "author": {"id": 7}}]
      """#, options: .skippingInvalidElements)
    #expect(mapped.objects.map(\.title) == ["a", "c"])
    #expect(mapped.errors.map(\.path) == ["/1/author/age"])
    let ann = try #require(mapped.objects[0].author)
    #expect(mapped.objects[1].author === ann)
    #expect(ann.name == "Ann" && ann.age == 40)

    // Throwing: the call fails with the failed representation's error at its path.
    #expect {
      _ = try runArticleMapping(made).mapCollection(
        #"[{"title": "a", "author": {"id": 7, "name": "Ann"}}, {"title": "b", "author": {"id": 7, "age": "x"}}]"#
      )
    } throws: { error in
      (error as? MappingErrors)?.errors.map(\.path) == ["/1/author/age"]
    }
  }

  @Test func anObjectNestedInItselfIsTwoInstancesAndTheOuterOneIsKept() throws {
    let mapping = Mapping(RunPerson.init) {
      Attribute("id", \.id)
      Attribute("name", \.name)
      Relationship("parent", \.parent, lazy: { memberMapping })
      Relationship("friends", \.friends, lazy: { memberMapping }).optional()
    }.identified(by: \.id)
    let people = try mapping.mapCollection(
      #"""
      [{"id": 1, "name": "outer", "parent": {"id": 1, "name": "inner"}},
       {"id": 2, "name": "two", "friends": [{"id": 1, "name": "renamed"}]}]
      """#)
    let outer = people[0]
    let inner = try #require(outer.parent)
    #expect(inner !== outer)
    #expect(inner.name == "inner")
    #expect(people[1].friends.first === outer)
    #expect(outer.name == "renamed")
  }

  @Test func friendsOfFriendsShareInstances() throws {
    let people = try memberMapping.mapCollection(
      #"""
      [{"id": 1, "name": "Ann", "friends": [{"id": 2, "name": "Bo"}, {"id": 3, "name": "Cy"}]},
       {"id": 2, "friends": [{"id": 3}]}]
      """#)
    let ann = people[0]
    let bo = people[1]
    #expect(ann.friends.first === bo)
    #expect(bo.name == "Bo")
    #expect(bo.friends.first === ann.friends.last)
  }

  @Test func aMappersRoutesShareOneMap() throws {
    let made = MadeCount()
    let provider = MappingProvider {
      Route("articles", runArticleMapping(made))
      Route("featured", runAuthorMapping(made))
    }
    let result = try Mapper(provider).map(
      #"{"articles": [{"title": "a", "author": {"id": 7, "name": "Ann"}}], "featured": {"id": 7}}"#)
    let article = try #require(result.first(RunArticle.self, at: "articles"))
    let featured = try #require(result.first(RunAuthor.self, at: "featured"))
    #expect(article.author === featured)
    #expect(featured.name == "Ann")
  }

  @Test func structsKeepOneValuePerRepresentation() throws {
    let author = Mapping(RunAuthorValue.init) {
      Attribute("id", \.id)
      Attribute("name", \.name)
    }.identified(by: \.id)
    let mapping = Mapping(RunArticleValue.init) {
      Attribute("title", \.title)
      Relationship("author", \.author, author)
    }
    let articles = try mapping.mapCollection(
      #"[{"title": "a", "author": {"id": 7, "name": "Ann"}}, {"title": "b", "author": {"id": 7, "name": "Other"}}]"#
    )
    #expect(articles.map(\.author.name) == ["Ann", "Other"])
    // A value is not an instance to map onto: the second still needs its required name.
    #expect(throws: MappingErrors.self) {
      _ = try mapping.mapCollection(
        #"[{"title": "a", "author": {"id": 7, "name": "Ann"}}, {"title": "b", "author": {"id": 7}}]"#
      )
    }
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
  @Test func aStreamKeepsNoIdentityAcrossElements() async throws {
    let made = MadeCount()
    let payload = Data(
      #"[{"title": "a", "author": {"id": 7, "name": "Ann"}}, {"title": "b", "author": {"id": 7, "name": "Ann"}}]"#
        .utf8)
    var streamed: [RunArticle] = []
    for try await article in runArticleMapping(made).elements(
      of: ProbedChunks(Array(payload), size: 16))
    { streamed.append(article) }
    #expect(streamed.count == 2)
    #expect(streamed[0].author !== streamed[1].author)
    // The same payload mapped whole: one instance.
    let whole = try runArticleMapping(made).mapCollection(payload)
    #expect(whole[0].author === whole[1].author)
  }
}

private let memberMapping: Mapping<RunPerson> = Mapping(RunPerson.init) {
  Attribute("id", \.id)
  Attribute("name", \.name)
  Relationship("friends", \.friends, lazy: { memberMapping }).optional()
}.identified(by: \.id)

extension RunIdentityMapTests {
  @Test func aReportsPartialObjectHoldsTheInstanceAsItWas() throws {
    let made = MadeCount()
    let report = runArticleMapping(made).report(
      #"{"title": "a", "author": {"id": 7, "name": "Ann", "age": 40}, "editors": [{"id": 7, "name": "Changed", "age": "x"}]}"#
    )
    #expect(report.object == nil)
    #expect(report.errors.map(\.path) == ["/editors/0/age"])
    let partial = try #require(report.partialObject)
    let ann = try #require(partial.author)
    #expect(partial.editors.count == 1)
    #expect(partial.editors.first === ann)
    #expect(ann.name == "Ann" && ann.age == 40)
  }
}

extension RunIdentityMapTests {
  /// A distinct union's objects are mapped from a tape of their own, in a run of their own:
  /// the call's instances go with them.
  @Test func objectsUnderACollectionOperatorShareTheCallsInstances() throws {
    let made = MadeCount()
    struct Shelf {
      var lead: RunAuthor?
      var all: [RunAuthor] = []
    }
    let shelf = try Mapping(Shelf.init) {
      Relationship("lead", \.lead, runAuthorMapping(made))
      Relationship("rows.@distinctUnionOfObjects", \.all, runAuthorMapping(made)).optional()
    }.map(
      #"{"lead": {"id": 7, "name": "Ann"}, "rows": [{"id": 7, "age": 3}, {"id": 8, "name": "Bo"}]}"#
    )
    let ann = try #require(shelf.lead)
    #expect(shelf.all.count == 2)
    #expect(shelf.all.first === ann)
    #expect(ann.name == "Ann" && ann.age == 3)
    #expect(made.value == 2)
  }
}

extension RunIdentityMapTests {
  /// One class identified by two properties in two mappings: an equal value of the other
  /// property is not the same object.
  @Test func anotherIdentityPropertyWithAnEqualValueIsAnotherObject() throws {
    final class Account {
      var id = 0
      var number = 0
    }
    struct Pair {
      var byId: Account?
      var byNumber: Account?
    }
    let byId = Mapping(Account.init) {
      Attribute("id", \.id)
      Attribute("number", \.number)
    }.identified(by: \.id)
    let byNumber = Mapping(Account.init) {
      Attribute("id", \.id)
      Attribute("number", \.number)
    }.identified(by: \.number)
    let pair = try Mapping(Pair.init) {
      Relationship("a", \.byId, byId)
      Relationship("b", \.byNumber, byNumber)
    }.map(#"{"a": {"id": 7, "number": 1}, "b": {"id": 2, "number": 7}}"#)
    #expect(pair.byId !== pair.byNumber)
    #expect(pair.byId?.id == 7 && pair.byNumber?.id == 2)
  }
}

extension RunIdentityMapTests {
  /// A later occurrence's `[String: T]` relationship replaces the earlier entries even under
  /// `.policy(.merge)` (the later values win; merging would accumulate across repeats).
  @Test func aLaterOccurrencesDictionaryReplacesTheEarlierOneUnderMerge() throws {
    final class Shelf {
      var id = 0
      var byKey: [String: RunAuthor] = [:]
    }
    let made = MadeCount()
    let shelves = try Mapping(Shelf.init) {
      Attribute("id", \.id)
      Relationship("byKey", \.byKey, runAuthorMapping(made)).policy(.merge).optional()
    }.identified(by: \.id).mapCollection(
      #"""
      [{"id": 1, "byKey": {"a": {"id": 7, "name": "Ann"}}},
       {"id": 1, "byKey": {"b": {"id": 8, "name": "Bo"}}}]
      """#)
    #expect(shelves[0] === shelves[1])
    #expect(shelves[0].byKey.keys.sorted() == ["b"])
    #expect(shelves[0].byKey["b"]?.name == "Bo")
  }
}

extension RunIdentityMapTests {
  /// In `map(_:onto:)` an existing child is found through its own relationship; the map holds
  /// the instances the call makes and does not search the rest of the target (the guide's "One
  /// instance per id in every call"). The existing author is merged; an editor with its id is
  /// a new instance (under `.replace`, the same id twice in one relationship's elements is one
  /// element, the later values written onto it).
  @Test func ontoAnExistingObjectTheMapHoldsTheInstancesTheCallMakes() throws {
    let made = MadeCount()
    let existingAuthor = RunAuthor(made)
    existingAuthor.id = 7
    existingAuthor.name = "Ann"
    var article = RunArticle()
    article.author = existingAuthor
    try runArticleMapping(made).map(
      #"{"author": {"id": 7, "name": "Ann B."}, "editors": [{"id": 7, "name": "Ed"}, {"id": 7}]}"#,
      onto: &article)
    #expect(article.author === existingAuthor)
    #expect(existingAuthor.name == "Ann B.")
    #expect(article.editors.count == 1)
    #expect(article.editors[0] !== existingAuthor)
    #expect(article.editors[0].id == 7 && article.editors[0].name == "Ed")
    #expect(made.value == 2)
  }
}

private let runPersonMapping: Mapping<RunPerson> = Mapping(RunPerson.init) {
  Attribute("id", \.id)
  Attribute("name", \.name, default: "")
  Relationship("parent", \.parent, lazy: { runPersonMapping }).optional()
}.identified(by: \.id)

/// Models of the review's cases: a later occurrence nested in itself, two cases of one
/// dynamic mapping sharing an identity, an identity property with a default.
private class RunAnimal {
  var id = 0
  var name = ""
  required init() {}
}
private final class RunDog: RunAnimal {}
private final class RunCat: RunAnimal {}

extension RunIdentityMapTests {
  /// A later occurrence that holds its own id is two instances, as a first occurrence nested in
  /// itself is: before, the instance was merged into itself and held itself (a cycle nothing
  /// freed, which serializing reported as one).
  @Test func aLaterOccurrenceNestedInItselfDoesNotHoldItself() throws {
    let people = try runPersonMapping.mapCollection(
      #"[{"id": 1, "name": "a"}, {"id": 1, "parent": {"id": 1, "name": "inner"}}]"#)
    #expect(people[0] === people[1])
    let parent = try #require(people[0].parent)
    #expect(parent !== people[0])
    #expect(parent.name == "inner" && people[0].name == "a")
    #expect(throws: Never.self) { try runPersonMapping.serializeCollection(people) }
  }

  /// Two cases of one dynamic mapping whose `Mapping<Animal>`s share an identity: the cat case
  /// makes a cat for id 1 even though the dog case made a dog for it (it mapped onto the dog
  /// before); each case's repeats are still one instance.
  @Test func anotherCaseOfADynamicMappingMakesItsOwnInstance() throws {
    let dogs = Mapping<RunAnimal>({ RunDog() }) {
      Attribute("id", \.id)
      Attribute("name", \.name)
    }.identified(by: \.id)
    let cats = Mapping<RunAnimal>({ RunCat() }) {
      Attribute("id", \.id)
      Attribute("name", \.name)
    }.identified(by: \.id)
    let animals = DynamicMapping<RunAnimal> {
      Match("type", equals: "dog", dogs)
      Match("type", equals: "cat", cats)
    }
    let mapped = try animals.mapCollection(
      #"""
      [{"type": "dog", "id": 1, "name": "d"}, {"type": "cat", "id": 1, "name": "c"},
       {"type": "dog", "id": 1, "name": "d2"}]
      """#)
    #expect(mapped[0] is RunDog && mapped[1] is RunCat)
    #expect(mapped[0] === mapped[2] && mapped[0] !== mapped[1])
    #expect(mapped.map(\.name) == ["d2", "c", "d2"])
  }

  /// A payload without an id is never kept for the id its object has (here the property's
  /// default, 0), so a later `{"id": 0}` does not map onto it.
  @Test func aPayloadWithoutAnIdIsNotKeptUnderTheDefault() throws {
    final class Tagged {
      var id = 0
      var name = ""
    }
    let tagged = try Mapping(Tagged.init) {
      Attribute("id", \.id, default: 0)
      Attribute("name", \.name)
    }.identified(by: \.id).mapCollection(
      #"[{"name": "a"}, {"name": "b"}, {"id": 0, "name": "c"}, {"id": 0, "name": "d"}]"#)
    #expect(tagged.map(\.name) == ["a", "b", "d", "d"])
    #expect(tagged[0] !== tagged[1] && tagged[1] !== tagged[2] && tagged[2] === tagged[3])
  }

  /// A collection operator's relationship on a repeated id is replaced too, whatever its policy
  /// (it was merged under `.append` and `.union`).
  @Test func aRepeatedIdsCollectionOperatorIsReplaced() throws {
    final class Shelf {
      var id = 0
      var items: [RunAuthor] = []
    }
    let made = MadeCount()
    for source in ["rows.@unionOfObjects", "rows.@distinctUnionOfObjects"] {
      for policy in [CollectionPolicy.append, .union] {
        let shelves = try Mapping(Shelf.init) {
          Attribute("id", \.id)
          Relationship(SourcePath(source), \.items, runAuthorMapping(made)).policy(policy)
            .optional()
        }.identified(by: \.id).mapCollection(
          #"[{"id": 1, "rows": [{"id": 10, "name": "a"}]}, {"id": 1, "rows": [{"id": 11, "name": "b"}]}]"#
        )
        #expect(shelves[0] === shelves[1])
        #expect(shelves[0].items.compactMap(\.id) == [11], "\(source) \(policy)")
      }
    }
  }
}

/// Friends and a buddy, for the review's dropped-element cases.
private final class RunFriend {
  var id = 0
  var name = ""
  var friends: [RunFriend] = []
  var buddy: RunFriend?
}

private let runFriendMapping: Mapping<RunFriend> = Mapping(RunFriend.init) {
  Attribute("id", \.id)
  Attribute("name", \.name, default: "")
  Relationship("friends", \.friends, lazy: { runFriendMapping }).optional()
  Relationship("buddy", \.buddy, lazy: { runFriendMapping }).optional()
}.identified(by: \.id)

extension RunIdentityMapTests {
  /// A later occurrence inside an element that is then dropped leaves nothing behind: its
  /// writes into the call's instance wait for the end of the call and go with the element.
  /// Before, element 1 was skipped and still renamed friend 2.
  @Test func aSkippedElementsLaterOccurrenceLeavesTheInstanceAsItWas() throws {
    let mapped = try runFriendMapping.mapCollection(
      #"""
      [{"id": 1, "name": "a", "friends": [{"id": 2, "name": "b"}]},
       {"id": 3, "friends": [{"id": 2, "name": "changed"}], "buddy": {"id": "x"}},
       {"id": 4, "friends": [{"id": 2}]}]
      """#, options: .skippingInvalidElements)
    #expect(mapped.objects.map(\.id) == [1, 4])
    #expect(mapped.errors.map(\.path) == ["/1/buddy/id"])
    let two = try #require(mapped.objects[0].friends.first)
    #expect(two.name == "b")
    #expect(mapped.objects[1].friends.first === two)
  }

  /// The same inside a relationship that drops failed children, and for a new instance a
  /// dropped element made (it is not the call's instance for its id afterwards).
  @Test func aDroppedChildsLaterOccurrenceAndNewInstancesLeaveNothingBehind() throws {
    final class Group {
      var members: [RunFriend] = []
    }
    let groups = try Mapping(Group.init) {
      Relationship("members", \.members, runFriendMapping).onChildFailure(.dropChild)
    }.map(
      #"""
      {"members": [{"id": 1, "name": "a", "friends": [{"id": 2, "name": "b"}]},
                   {"id": 3, "friends": [{"id": 2, "name": "changed"}, {"id": 5, "name": "new"}],
                    "buddy": {"id": []}},
                   {"id": 6, "friends": [{"id": 2}, {"id": 5}]}]}
      """#)
    #expect(groups.members.map(\.id) == [1, 6])
    let two = try #require(groups.members[0].friends.first)
    #expect(two.name == "b")
    #expect(groups.members[1].friends.first === two)
    // Friend 5 was first made inside the dropped member: member 6's 5 is a new instance.
    #expect(groups.members[1].friends.last?.name == "")
  }

  /// A child a relationship validator rejects leaves the call's instance as it was (here the
  /// validator rejects its second call, the later occurrence of author 7). A validator is given
  /// a repeated id's instance as it is before the later values are written, as `map(_:onto:)`
  /// gives it an existing class child.
  @Test func aRejectedChildsLaterOccurrenceLeavesTheInstanceAsItWas() throws {
    final class Post {
      var title = ""
      var author: RunFriend?
    }
    let calls = MadeCount()
    let posts = try Mapping(Post.init) {
      Attribute("title", \.title)
      Relationship("author", \.author, runFriendMapping).optional()
        .validate("one look at each author") { (author: inout RunFriend?) in
          calls.increment()
          return calls.value < 2 || author?.name == "seen"
        }
    }.mapCollection(
      #"""
      [{"title": "a", "author": {"id": 7, "name": "Ann"}},
       {"title": "b", "author": {"id": 7, "name": "changed", "buddy": {"id": 8, "name": "B"}}}]
      """#)
    #expect(calls.value == 2)
    #expect(posts[0].author?.name == "Ann")
    #expect(posts[0].author?.buddy == nil)
    #expect(posts[1].author == nil)
  }

  /// A report that fails returns its partial object with the call's instances as they were
  /// first mapped; one that succeeds applies the later values.
  @Test func aFailedReportsPartialObjectHoldsTheFirstValues() throws {
    let failed = runFriendMapping.report(
      #"{"id": 1, "friends": [{"id": 2, "name": "b"}, {"id": 2, "name": "changed"}], "buddy": {"id": "x"}}"#
    )
    #expect(failed.errors.map(\.path) == ["/buddy/id"])
    let partial = try #require(failed.partialObject)
    #expect(partial.friends.map(\.name) == ["b", "b"])
    let succeeded = runFriendMapping.report(
      #"{"id": 1, "friends": [{"id": 2, "name": "b"}, {"id": 2, "name": "changed"}]}"#)
    #expect(succeeded.object?.friends.map(\.name) == ["changed", "changed"])
  }
}

extension RunIdentityMapTests {
  /// An id repeated inside one to-many relationship of a later occurrence: its writes wait in
  /// order with the others, so the last occurrence's values win (the first write of the later
  /// occurrence was applied after the second one), and a skipped element's go with it.
  @Test func anIdRepeatedInsideALaterOccurrencesListKeepsTheLastValues() throws {
    let payload =
      #"[{"id": 3, "name": "c0"}, {"id": 1}, {"id": 1, "friends": [{"id": 3, "name": "c1"}, {"id": 3, "name": "c2"}]}]"#
    let friends = try runFriendMapping.mapCollection(payload)
    #expect(friends[0].name == "c2")
    // Mapped onto instance 1, the list merges as lists onto existing instances do: the
    // repeated id is one element.
    #expect(friends[1] === friends[2])
    #expect(friends[2].friends.count == 1 && friends[2].friends[0] === friends[0])

    let skipped = try runFriendMapping.mapCollection(
      #"[{"id": 3, "name": "c0"}, {"id": 1}, {"id": 1, "friends": [{"id": 3, "name": "c1"}, {"id": 3, "name": "c2"}], "buddy": {"id": "x"}}]"#,
      options: .skippingInvalidElements)
    #expect(skipped.objects.map(\.id) == [3, 1])
    #expect(skipped.objects[0].name == "c0")
  }
}

extension RunIdentityMapTests {
  /// The same through a collection operator, whose objects are mapped from a copy in a scratch
  /// run onto a repeated id: the scratch run shares which instances have writes pending.
  @Test func anIdRepeatedInsideALaterOccurrencesUnionKeepsTheLastValues() throws {
    let mapping: Mapping<RunFriend> = Mapping(RunFriend.init) {
      Attribute("id", \.id)
      Attribute("name", \.name, default: "")
      Relationship("rows.@unionOfObjects", \.friends, runFriendMapping).optional()
      Relationship("buddy", \.buddy, runFriendMapping).optional()
    }.identified(by: \.id)
    let payload =
      #"[{"id": 3, "name": "c0"}, {"id": 1}, {"id": 1, "rows": [{"id": 3, "name": "c1"}, {"id": 3, "name": "c2"}]}]"#
    let friends = try mapping.mapCollection(payload)
    #expect(friends[0].name == "c2")
    let skipped = try mapping.mapCollection(
      #"[{"id": 3, "name": "c0"}, {"id": 1}, {"id": 1, "rows": [{"id": 3, "name": "c1"}, {"id": 3, "name": "c2"}], "buddy": {"id": "x"}}]"#,
      options: .skippingInvalidElements)
    #expect(skipped.objects.map(\.id) == [3, 1])
    #expect(skipped.objects[0].name == "c0")
  }
}
