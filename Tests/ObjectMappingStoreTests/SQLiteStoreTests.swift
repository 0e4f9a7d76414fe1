import Foundation
import ObjectMapping
import Testing

@testable import ObjectMappingStore

@Suite("SQLiteStore: saving, fetching, deleting")
struct SQLiteStoreTests {
  @Test func savedObjectsComeBackEqualInTheOrderTheyWereFirstSaved() async throws {
    try await withStore { store, _ in
      let saved = [
        Fixtures.article(3, "Three", editor: "Eve", subtitle: "sub"),
        Fixtures.article(1, "One"), Fixtures.article(2, "Two"),
      ]
      try await store.save(saved, to: Fixtures.articles)
      let fetched = try await store.fetch(Fixtures.articles)
      #expect(fetched.objects == saved)
      #expect(fetched.unmappable.isEmpty)
      #expect(try await store.count(Fixtures.articles) == 3)
    }
  }

  @Test func theStoredRowIsTheMappingsOwnSerialization() async throws {
    try await withStore { store, folder in
      let article = Fixtures.article(7, "Seven", editor: "Eve")
      try await store.save([article], to: Fixtures.articles)
      let connection = try SQLiteConnection(path: folder.path("store.sqlite"), mode: .readOnly)
      let statement = try connection.prepare(
        "SELECT entity, id, payload FROM om_objects")
      #expect(try statement.step())
      #expect(statement.string(at: 0) == "Article")
      #expect(statement.string(at: 1) == "7")
      let serialized = try Fixtures.articleMapping.serialize(article)
      #expect(statement.textBytes(at: 2) == Array(serialized))
      #expect(try statement.step() == false)
    }
  }

  @Test func savingAStoredIdentityReplacesItsRowAndKeepsItsPlace() async throws {
    try await withStore { store, _ in
      try await store.save(
        [Fixtures.article(1, "One"), Fixtures.article(2, "Two")], to: Fixtures.articles)
      try await store.save([Fixtures.article(1, "One, edited")], to: Fixtures.articles)
      let titles = try await store.fetch(Fixtures.articles).objects.map(\.title)
      #expect(titles == ["One, edited", "Two"])
      // The last of several objects with one identity wins.
      try await store.save(
        [Fixtures.article(2, "first"), Fixtures.article(2, "second")], to: Fixtures.articles)
      #expect(try await store.fetch(Fixtures.articles, id: 2)?.title == "second")
    }
  }

  @Test func fetchingByIdentityGivesTheObjectsInTheOrderAsked() async throws {
    try await withStore { store, _ in
      try await store.save((1...5).map { Fixtures.article($0, "A\($0)") }, to: Fixtures.articles)
      let some = try await store.fetch(Fixtures.articles, ids: [4, 9, 2, 4])
      #expect(some.objects.map(\.id) == [4, 2])
      #expect(try await store.fetch(Fixtures.articles, id: 3)?.title == "A3")
      #expect(try await store.fetch(Fixtures.articles, id: 42) == nil)
    }
  }

  @Test func deletingRemovesTheIdentitiesAndCountsThoseThatWereStored() async throws {
    try await withStore { store, _ in
      try await store.save((1...4).map { Fixtures.article($0, "A\($0)") }, to: Fixtures.articles)
      #expect(try await store.delete(Fixtures.articles, ids: [2, 4, 8]) == 2)
      #expect(try await store.fetch(Fixtures.articles).objects.map(\.id) == [1, 3])
    }
  }

  @Test func entitiesWithTheSameIdentitiesAreKeptApart() async throws {
    try await withStore { store, _ in
      let drafts = StoreEntity("Draft", mapping: Fixtures.articleMapping)
      try await store.save([Fixtures.article(1, "Published")], to: Fixtures.articles)
      try await store.save([Fixtures.article(1, "Draft")], to: drafts)
      #expect(try await store.fetch(Fixtures.articles, id: 1)?.title == "Published")
      #expect(try await store.fetch(drafts, id: 1)?.title == "Draft")
      try await store.delete(drafts, ids: [1])
      #expect(try await store.count(Fixtures.articles) == 1)
    }
  }

  @Test func theDatabaseOutlivesTheStore() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.path("reopened.sqlite")
    let first = try SQLiteStore(path: path)
    try await first.save([Fixtures.article(1, "Kept")], to: Fixtures.articles)
    await first.close()
    let second = try SQLiteStore(path: path)
    #expect(try await second.fetch(Fixtures.articles).objects == [Fixtures.article(1, "Kept")])
    await second.close()
  }

  @Test func aMappingWithoutIdentityCannotBeAnEntity() async throws {
    try await withStore { store, _ in
      let plain = StoreEntity("Plain", mapping: Mapping(Author.init) { Attribute("name", \.name) })
      await #expect(throws: StoreError(.notIdentified(entity: "Plain"))) {
        try await store.save([Author(name: "Ann")], to: plain)
      }
      #expect(
        StoreError(.notIdentified(entity: "Plain")).description
          == "Plain: the mapping has no identity; add .identified(by:) with the property that "
          + "keys its objects")
    }
  }

  @Test func anObjectWithoutIdentityFailsTheWholeSave() async throws {
    struct Tagged: Equatable, Sendable {
      var key: String?
      var value = 0
    }
    let mapping = Mapping(Tagged.init) {
      Attribute("key", \.key)
      Attribute("value", \.value)
    }.identified(by: \.key)
    let tagged = StoreEntity("Tagged", mapping: mapping)
    try await withStore { store, _ in
      await #expect(throws: StoreError(.missingIdentity(entity: "Tagged"))) {
        try await store.save([Tagged(key: "a", value: 1), Tagged(key: nil, value: 2)], to: tagged)
      }
      let count = try await store.count(tagged)
      #expect(count == 0)
      #expect(
        StoreError(.missingIdentity(entity: "Tagged")).description
          == "Tagged: an object's identity is nil, so it has no key to be stored under")
    }
  }

  @Test func anObjectTheMappingCannotSerializeFailsTheWholeSave() async throws {
    struct Reading: Equatable, Sendable {
      var id = 0
      var value = 0.0
    }
    let mapping = Mapping(Reading.init) {
      Attribute("id", \.id)
      Attribute("value", \.value)
    }.identified(by: \.id)
    let readings = StoreEntity("Reading", mapping: mapping)
    try await withStore { store, _ in
      try await store.save([Reading(id: 1, value: 1)], to: readings)
      do {
        try await store.save(
          [Reading(id: 2, value: 2), Reading(id: 3, value: .nan)], to: readings)
        Issue.record("saved a NaN")
      } catch {
        #expect(
          "\(error)"
            == "Reading: cannot serialize an object: /value: cannot write the non-finite number nan"
        )
      }
      #expect(try await store.fetch(readings).objects == [Reading(id: 1, value: 1)])
    }
  }
}
