import Foundation
import ObjectMapping
import Testing

@testable import ObjectMappingStore

@Suite("SQLiteStore: typed queries")
struct StoreQueryTests {
  static let library = [
    Fixtures.article(1, "Alpha", state: .draft, rating: 4.5, day: 3, author: "Ann"),
    Fixtures.article(2, "Beta", state: .published, rating: 2, day: 1, author: "Bob", editor: "Eve"),
    Fixtures.article(
      3, "Gamma", state: .published, rating: 3.5, day: 2, author: "Ann", subtitle: "III"),
    Fixtures.article(4, "Delta", state: .archived, rating: 5, day: 5, author: "Cid"),
    Fixtures.article(5, "Epsilon", state: .published, rating: 1, day: 4, author: "Bob"),
  ]

  /// The identities of the articles `predicate` selects, in stored order.
  func ids(
    _ predicate: StorePredicate<Article>?, orderBy order: [StoreOrder<Article>] = [],
    limit: Int? = nil, offset: Int = 0
  ) async throws -> [Int] {
    try await withStore { store, _ in
      try await store.save(Self.library, to: Fixtures.articles)
      return try await store.fetch(
        Fixtures.articles, where: predicate, orderBy: order, limit: limit, offset: offset
      ).objects.map(\.id)
    }
  }

  @Test func equalityAndInequality() async throws {
    #expect(try await ids(\.title == "Gamma") == [3])
    #expect(try await ids(\.title != "Gamma") == [1, 2, 4, 5])
    #expect(try await ids(\.id == 4) == [4])
  }

  @Test func valuesAreWrittenAsTheMappingWritesThem() async throws {
    // An enum by its raw value, a date in the mapping's date format.
    #expect(try await ids(\.state == .published) == [2, 3, 5])
    let day2 = Date(timeIntervalSince1970: 2 * 86_400)
    #expect(try await ids(\.publishedAt == day2) == [3])
    #expect(try await ids(\.publishedAt > day2) == [1, 4, 5])
  }

  @Test func valuesGoThroughTheAttributesOwnFormat() async throws {
    struct Event: Equatable, Sendable {
      var id = 0
      var day = Date(timeIntervalSince1970: 0)
    }
    let mapping = Mapping(Event.init) {
      Attribute("id", \.id)
      Attribute("day", \.day, .date(format: "yyyyMMdd"))
    }.identified(by: \.id)
    let events = StoreEntity("Event", mapping: mapping).indexed(by: \.day)
    let day = { (offset: Double) in Date(timeIntervalSince1970: 1_700_000_000 + offset * 86_400) }
    try await withStore { store, _ in
      try await store.save(
        [Event(id: 1, day: day(30)), Event(id: 2, day: day(0)), Event(id: 3, day: day(400))],
        to: events)
      #expect(
        try events.field(\.day).node(for: day(0)) == .string("20231114"))
      let later = try await store.fetch(
        events, where: \.day > day(10), orderBy: [.ascending(\.day)])
      #expect(later.objects.map(\.id) == [1, 3])
      #expect(try await store.fetch(events, where: \.day == day(0)).objects.map(\.id) == [2])
    }
  }

  @Test func comparisons() async throws {
    #expect(try await ids(\.rating < 3) == [2, 5])
    #expect(try await ids(\.rating <= 3.5) == [2, 3, 5])
    #expect(try await ids(\.rating > 4.5) == [4])
    #expect(try await ids(\.rating >= 4.5) == [1, 4])
    #expect(try await ids(\.title >= "Delta") == [3, 4, 5])
  }

  @Test func membership() async throws {
    #expect(try await ids(.in(\.state, [.draft, .archived])) == [1, 4])
    #expect(try await ids(.in(\.id, [5, 1, 9])) == [1, 5])
    #expect(try await ids(.in(\.id, [Int]())) == [])
    #expect(try await ids(.in(\.subtitle, ["III", nil])) == [1, 2, 3, 4, 5])
  }

  @Test func nilMatchesNullAndAbsent() async throws {
    #expect(try await ids(\.subtitle == nil) == [1, 2, 4, 5])
    #expect(try await ids(\.subtitle != nil) == [3])
    #expect(try await ids(\.subtitle != "III") == [1, 2, 4, 5])
  }

  @Test func andOrNot() async throws {
    #expect(try await ids(\.state == .published && \.rating > 1.5) == [2, 3])
    #expect(try await ids(\.author.name == "Cid" || \.rating < 2) == [4, 5])
    #expect(try await ids(!(\.state == .published)) == [1, 4])
    #expect(try await ids(!(\.subtitle == "III")) == [1, 2, 4, 5])
    #expect(try await ids(.all) == [1, 2, 3, 4, 5])
  }

  @Test func keyPathsThroughToOneRelationships() async throws {
    #expect(try await ids(\.author.name == "Ann") == [1, 3])
    #expect(try await ids(\.author.email == "bob@example.com") == [2, 5])
    // An optional relationship's field is named through `!`: the key path is never evaluated.
    #expect(try await ids(\.editor!.name == "Eve") == [2])
  }

  @Test func orderingLimitAndOffset() async throws {
    #expect(try await ids(nil, orderBy: [.ascending(\.publishedAt)]) == [2, 3, 1, 5, 4])
    #expect(try await ids(nil, orderBy: [.descending(\.rating)], limit: 2) == [4, 1])
    #expect(
      try await ids(
        \.state == .published, orderBy: [.ascending(\.author.name), .descending(\.id)])
        == [3, 5, 2])
    #expect(try await ids(nil, orderBy: [.ascending(\.id)], limit: 2, offset: 1) == [2, 3])
    #expect(try await ids(nil, limit: nil, offset: 3) == [4, 5])
  }

  @Test func aKeyPathTheMappingDoesNotWriteIsAnError() async throws {
    try await withStore { store, _ in
      let expected = StoreError(
        .unknownKeyPath(entity: "Article", keyPath: "\\Article.title.<computed (Int)>"))
      await #expect(throws: expected) {
        try await store.fetch(Fixtures.articles, where: \.title.count == 3)
      }
      #expect(
        expected.description
          == "Article: \\Article.title.<computed (Int)> is not written by the mapping; query, order or "
          + "index a property an Attribute writes (through a to-one relationship: "
          + "\\.author.name, or \\.author!.name when it is optional)")
      // Orderings and indexes too; a to-many relationship's elements are not queryable.
      await #expect(
        throws: StoreError(
          .unknownKeyPath(entity: "Article", keyPath: "\\Article.tags.<computed (Int)>"))
      ) {
        try await store.fetch(Fixtures.articles, orderBy: [.ascending(\.tags.count)])
      }
      let misindexed = Fixtures.articles.indexed(by: \.title.isEmpty)
      await #expect(
        throws: StoreError(
          .unknownKeyPath(entity: "Article", keyPath: "\\Article.title.<computed (Bool)>"))
      ) {
        try await store.save([Fixtures.article(1, "A")], to: misindexed)
      }
    }
  }

  @Test func declaredQueryKeysAreIndexedAndQueriesUseTheIndexes() async throws {
    try await withStore { store, folder in
      try await store.save(Self.library, to: Fixtures.articles)
      let connection = try SQLiteConnection(path: folder.path("store.sqlite"), mode: .readOnly)
      func plan(_ predicate: StorePredicate<Article>?, _ order: [StoreOrder<Article>]) throws
        -> String
      {
        let condition = try predicate?.resolved(for: Fixtures.articles)
        let orderings = try order.map { try $0.resolved(for: Fixtures.articles) }
        let sql = try StoreSQL.select(
          entity: "Article", condition: condition, order: orderings, limit: 20, offset: 0)
        let explain = try connection.prepare("EXPLAIN QUERY PLAN " + sql.text)
        try explain.bind(sql.values)
        var details: [String] = []
        while try explain.step() { details.append(explain.string(at: 3)) }
        return details.joined(separator: "; ")
      }
      let byName = StoreSQL.indexName(entity: "Article", paths: [["author", "name"]])
      let byDate = StoreSQL.indexName(entity: "Article", paths: [["published_at"]])
      #expect(try plan(\.author.name == "Ann", []).contains("USING INDEX \(byName)"))
      let ordered = try plan(nil, [.descending(\.publishedAt)])
      #expect(ordered.contains("USING INDEX \(byDate)"))
      #expect(!ordered.contains("TEMP B-TREE"))
      // Not indexed: answered by reading the entity's rows (through the identity index).
      let unindexed = try plan(\.title == "Beta", [])
      #expect(unindexed.contains("(entity=?)"), "\(unindexed)")
    }
  }

  @Test func theResolvedConditionIsOnPayloadKeys() throws {
    let predicate: StorePredicate<Article> =
      \.author.name == "Ann" && (\.rating > 2 || .in(\.state, [.draft]))
    #expect(
      try predicate.resolved(for: Fixtures.articles)
        == .and([
          .equal(["author", "name"], .string("Ann")),
          .or([
            .compare(["rating"], .greater, .double(2)),
            .oneOf(["state"], [.string("draft")]),
          ]),
        ]))
  }
}
