import Foundation
import ObjectMapping
import Testing

/// The smaller RestKit behaviours of issue 36: a `nil` relationship that stays `nil` is not
/// written, `null` under combining policies keeps an optional collection, a mapper target of
/// the wrong class is a type mismatch, and routes overlapping a whole-payload route are
/// diagnosed once, when the provider is built.
@Suite("RestKit behaviours: unchanged nil relationships, null collections, targets, routes")
struct RestKitBehaviourTests {
  struct Avatar: Equatable, Sendable {
    var url = ""
  }

  /// Counts the writes of its relationships, as `didSet` observers would see them.
  final class Account: @unchecked Sendable {
    var id = 0
    var writes: [String] = []
    var avatar: Avatar? { didSet { writes.append("avatar") } }
    var badges: [Avatar]? { didSet { writes.append("badges") } }

    init(id: Int = 0, avatar: Avatar? = nil, badges: [Avatar]? = nil) {
      self.id = id
      self.avatar = avatar
      self.badges = badges
      writes = []
    }
  }

  static let avatar = Mapping(Avatar.init) { Attribute("url", \.url) }

  static let account = Mapping({ Account() }) {
    Attribute("id", \.id)
    Relationship("avatar", \.avatar, avatar)
    Relationship("badges", \.badges, avatar)
  }.missingKeys(.assignNilToRelationships)

  @Test func aNilRelationshipThatStaysNilIsNotWritten() throws {
    var account = Account(id: 1)
    try Self.account.map(#"{"id": 1}"#, onto: &account)
    #expect(account.writes.isEmpty)
    #expect(account.avatar == nil && account.badges == nil)
    // A relationship that held something is still cleared, and that is one write each.
    var holding = Account(id: 1, avatar: Avatar(url: "x"), badges: [Avatar(url: "b")])
    try Self.account.map(#"{"id": 1}"#, onto: &holding)
    #expect(holding.avatar == nil && holding.badges == nil)
    #expect(holding.writes == ["avatar", "badges"])
  }

  struct Feed: Equatable, Sendable {
    var items: [Avatar]?
    var pinned: [Avatar] = []
    var seen: Set<String>?
  }

  @Test(arguments: [CollectionPolicy.union, .append, .prepend])
  func nullUnderACombiningPolicyKeepsTheElements(policy: CollectionPolicy) throws {
    struct Tag: Hashable, Sendable {
      var name = ""
    }
    struct Bag: Equatable, Sendable {
      var tags: Set<Tag>?
    }
    let identified = Mapping(Avatar.init) { Attribute("url", \.url) }.identified(by: \.url)
    let feed = Mapping(Feed.init) {
      Relationship("items", \.items, identified).policy(policy)
      Relationship("pinned", \.pinned, identified).policy(policy)
    }
    var existing = Feed(items: [Avatar(url: "a")], pinned: [Avatar(url: "p")])
    try feed.map(#"{"items": null, "pinned": null}"#, onto: &existing)
    #expect(existing == Feed(items: [Avatar(url: "a")], pinned: [Avatar(url: "p")]))
    let tagMapping = Mapping(Tag.init) { Attribute("name", \.name) }.identified(by: \.name)
    let bag = Mapping(Bag.init) { Relationship("tags", \.tags, tagMapping).policy(policy) }
    var tags = Bag(tags: [Tag(name: "x")])
    try bag.map(#"{"tags": null}"#, onto: &tags)
    #expect(tags.tags == [Tag(name: "x")])
  }

  @Test func nullUnderReplaceClearsAnOptionalCollection() throws {
    let feed = Mapping(Feed.init) {
      Relationship("items", \.items, Self.avatar)
      Relationship("pinned", \.pinned, Self.avatar).policy(.clearThenAppend)
    }
    var existing = Feed(items: [Avatar(url: "a")], pinned: [Avatar(url: "p")])
    let error = try #require(throws: MappingErrors.self) {
      try feed.map(#"{"items": null, "pinned": null}"#, onto: &existing)
    }
    #expect(error.errors.map(\.description) == ["/pinned: expected an array, found null"])
    try feed.map(#"{"items": null}"#, onto: &existing)
    #expect(existing.items == nil)
  }

  // MARK: Mapper targets

  struct Article: Equatable, Sendable {
    var id = 0
    var title = ""
  }

  struct Person: Equatable, Sendable {
    var name = ""
  }

  static let article = Mapping(Article.init) {
    Attribute("id", \.id)
    Attribute("title", \.title)
  }

  static let person = Mapping(Person.init) { Attribute("name", \.name) }

  @Test func aTargetOfTheWrongClassIsATypeMismatchNamingBothTypes() throws {
    let provider = MappingProvider { Route("article", Self.article) }
    let result = try Mapper(provider).map(
      #"{"article": {"id": 1, "title": "Hi"}}"#, target: Person(name: "Ann"))
    #expect(result.isEmpty)
    #expect(
      result.errors.map(\.description) == [
        "/article: expected a target of type Article, found a target of type Person"
      ])
    #expect(
      result.errors.first?.kind
        == .typeMismatch(expected: "a target of type Article", found: "a target of type Person"))
    #expect(result.diagnostics.isEmpty)
  }

  /// RestKit's error 1002 needs the target's key path to be the only one of the mappings
  /// dictionary (R-1.7.2); with several, every object was mapped fresh and the target left
  /// alone. An error payload never takes a target or trips the mismatch (R-1.7.5).
  @Test func aWrongClassTargetUnderSeveralKeyPathsLeavesEveryObjectFresh() throws {
    let provider = MappingProvider {
      Route("author", Self.person)
      Route("article", Self.article)
    }
    let result = try Mapper(provider).map(
      #"{"author": {"name": "Bo"}, "article": {"id": 1, "title": "Hi"}}"#,
      target: [String]())
    #expect(result.errors.isEmpty)
    #expect(result.all(Person.self) == [Person(name: "Bo")])
    #expect(result.all(Article.self) == [Article(id: 1, title: "Hi")])
    #expect(
      result.diagnostics.map(\.description) == [
        "target object ignored: no single object of type Array<String> was reached by a route"
      ])
    // One key path of yours: the mismatch, whatever the error routes found beside it.
    let single = try Mapper(MappingProvider { Route("article", Self.article) }).map(
      #"{"article": {"id": 1}, "error": "Gone"}"#, target: Person())
    #expect(single.errors.map(\.path) == ["/article"])
    #expect(single.first(ErrorMessage.self)?.message == "Gone")
    // An error payload alone never takes the target and is no mismatch.
    let failure = try Mapper(MappingProvider { Route("article", Self.article) }).map(
      #"{"error": "Gone"}"#, target: Person())
    #expect(failure.errors.isEmpty && failure.asError()?.messages == ["Gone"])
  }

  /// A dynamic mapping that declines the one object a route reached is an error (RestKit's
  /// "could not find an object mapping for key path", R-1.10.4), as `map` throws for it; in a
  /// collection a declined element is skipped with a diagnostic.
  @Test func aDeclinedSingleObjectAtARouteIsAnError() throws {
    let people = DynamicMapping<Person> {
      Match("type", equals: "person", Self.person)
    }
    let provider = MappingProvider { Route("who", people) }
    let single = try Mapper(provider).map(#"{"who": {"type": "alien", "name": "Zed"}}"#)
    #expect(single.isEmpty)
    #expect(single.errors.map(\.description) == [#"/who: no mapping matches: type is "alien""#])
    #expect(throws: MappingErrors.self) { try people.map(#"{"type": "alien", "name": "Zed"}"#) }
    let many = try Mapper(provider).map(
      #"{"who": [{"type": "alien"}, {"type": "person", "name": "Ann"}]}"#)
    #expect(many.errors.isEmpty)
    #expect(many.all(Person.self) == [Person(name: "Ann")])
    #expect(many.diagnostics.map(\.path) == ["/who/0"])
  }

  @Test func aTargetOneRouteTakesLeavesTheOtherRoutesFresh() throws {
    let provider = MappingProvider {
      Route("author", Self.person)
      Route("article", Self.article)
    }
    let result = try Mapper(provider).map(
      #"{"author": {"name": "Bo"}, "article": {"title": "New"}}"#,
      target: Article(id: 7, title: "Old"))
    #expect(result.errors.isEmpty)
    #expect(result.all(Article.self) == [Article(id: 7, title: "New")])
    #expect(result.all(Person.self) == [Person(name: "Bo")])
  }

  @Test func collectionsNeverTakeATarget() throws {
    let provider = MappingProvider { Route("articles", Self.article) }
    let result = try Mapper(provider).map(
      #"{"articles": [{"id": 1, "title": "a"}]}"#, target: Person())
    #expect(result.errors.isEmpty)
    #expect(result.all(Article.self) == [Article(id: 1, title: "a")])
    #expect(
      result.diagnostics.map(\.description) == [
        "target object ignored: no single object of type Person was reached by a route"
      ])
  }

  // MARK: Overlapping routes

  @Test func routesInsideAWholePayloadRouteAreDiagnosedOnceWhenTheProviderIsBuilt() throws {
    let provider = MappingProvider {
      Route("", Self.article)
      Route("meta", Self.person)
      Route("data.author", Self.person)
    }
    #expect(
      provider.diagnostics.map(\.description) == [
        #"the routes "data.author", "meta" read values inside the whole payload, which a "#
          + "whole-payload route also maps: those values are mapped twice"
      ])
    #expect(
      provider.diagnostics.first?.kind == .overlappingRoutes(keyPaths: ["data.author", "meta"]))
    // Not repeated in every run.
    let result = try Mapper(provider).map(#"{"id": 1, "title": "x", "meta": {"name": "m"}}"#)
    #expect(result.diagnostics.isEmpty)
    // The error routes and providers without a whole-payload route are not overlapping.
    #expect(MappingProvider { Route("", Self.article) }.diagnostics.isEmpty)
    let keyed = MappingProvider {
      Route("a", Self.article)
      Route("b", Self.person)
    }
    #expect(keyed.diagnostics.isEmpty)
    let one = MappingProvider(errorRoutes: []) {
      Route("", Self.article)
      Route("meta", Self.person)
    }
    #expect(
      one.diagnostics.map(\.description) == [
        #"the route "meta" reads values inside the whole payload, which a whole-payload route "#
          + "also maps: those values are mapped twice"
      ])
  }
}

/// RestKit's order of work inside one object (R-1.3.1): attributes whose source is a key path
/// run after the relationships, so they can write into the object a relationship just made.
@Suite("RestKit behaviours: key-path attributes after relationships")
struct RestKitPhaseOrderTests {
  struct Address: Equatable, Sendable {
    var street = ""
    var city = ""
  }

  struct Person: Equatable, Sendable {
    var name = ""
    var address = Address()
    var mark = ""
  }

  static let address = Mapping(Address.init) {
    Attribute("street", \.street)
    Attribute("city", \.city)
  }

  static let payload = #"""
    {"name": "Ann", "nested": {"city": "Lyon"}, "address": {"street": "Rue A", "city": "Paris"}}
    """#

  /// The key-path attribute is declared before the relationship, as in RestKit's test
  /// (`nested.city → address.city` overrides the city the `address` relationship mapped).
  static let person = Mapping(Person.init) {
    Attribute("name", \.name)
    Attribute("nested.city", \.address.city)
    Relationship("address", \.address, address)
  }

  @Test func aKeyPathAttributeWritesIntoTheObjectARelationshipMade() throws {
    let person = try Self.person.map(Self.payload)
    #expect(person.address == Address(street: "Rue A", city: "Lyon"))
    #expect(person.name == "Ann")
  }

  @Test func theOrderHoldsOntoAnExistingInstanceAndInAReport() throws {
    var existing = Person(name: "Old", address: Address(street: "Old", city: "Old"))
    try Self.person.map(Self.payload, onto: &existing)
    #expect(existing.address == Address(street: "Rue A", city: "Lyon"))
    let report = Self.person.report(Self.payload)
    #expect(report.object?.address.city == "Lyon")
  }

  @Test func declaredAfterTheRelationshipItWinsAsBefore() throws {
    let person = Mapping(Person.init) {
      Relationship("address", \.address, Self.address)
      Attribute("nested.city", \.address.city)
    }
    #expect(try person.map(Self.payload).address.city == "Lyon")
  }

  @Test func simpleAttributesKeepTheirPlace() throws {
    // A simple attribute declared after the relationship still runs after it (RestKit would
    // run it first; see MigratingFromRestKit.md): the declared order decides.
    let person = Mapping(Person.init) {
      Relationship("address", \.address, Self.address)
      Attribute("town", \.address.city)
    }
    let json = #"{"town": "Nice", "address": {"street": "Rue A", "city": "Paris"}}"#
    #expect(try person.map(json).address.city == "Nice")
  }

  @Test func metadataAndParentKeyPathsRunLastToo() throws {
    let person = Mapping(Person.init) {
      Attribute("@metadata.defaults.city", \.address.city)
      Relationship("address", \.address, Self.address)
    }
    let options = MappingOptions(metadata: ["defaults": ["city": "Metz"]])
    let json = #"{"address": {"street": "Rue A", "city": "Paris"}}"#
    #expect(try person.map(json, with: options).address.city == "Metz")
  }

  @Test func includedAlternativesKeepTheirOrder() throws {
    // Rules writing one property (composition: the later wins) are not reordered, even when
    // the earlier one reads a key path.
    let base = Mapping(Person.init) {
      Attribute("profile.mark", \.mark)
      Relationship("address", \.address, Self.address)
    }
    let person = Mapping(Person.init) {
      Include(base)
      Attribute("mark", \.mark)
    }
    let json =
      #"{"mark": "own", "profile": {"mark": "nested"}, "address": {"street": "", "city": ""}}"#
    #expect(try person.map(json).mark == "own")
    #expect(try base.map(json).mark == "nested")
  }
}
