import Foundation
import ObjectMapping
import ObjectMappingStore
import Testing

@Suite("SQLiteStore: loads and orphans")
struct StoreLoadTests {
  @Test func aLoadReportsOrRemovesTheObjectsItNoLongerLists() async throws {
    try await withStore { store, _ in
      try await store.save((1...4).map { Fixtures.article($0, "A\($0)") }, to: Fixtures.articles)
      let reported = try await store.load(
        [Fixtures.article(2, "A2, edited"), Fixtures.article(5, "A5")], into: Fixtures.articles,
        orphans: .report())
      #expect(reported.objects.map(\.id) == [2, 5])
      #expect(reported.orphans.map(\.id) == [1, 3, 4])
      #expect(try await store.count(Fixtures.articles) == 5)
      let removed = try await store.load(
        [Fixtures.article(2, "A2"), Fixtures.article(5, "A5")], into: Fixtures.articles,
        orphans: .remove())
      #expect(removed.orphans.map(\.id) == [1, 3, 4])
      #expect(try await store.fetch(Fixtures.articles).objects.map(\.id) == [2, 5])
    }
  }

  @Test func theOrphanScopeLimitsWhatALoadSpeaksFor() async throws {
    try await withStore { store, _ in
      try await store.save(
        [
          Fixtures.article(1, "Ann 1", author: "Ann"), Fixtures.article(2, "Bob 2", author: "Bob"),
          Fixtures.article(3, "Ann 3", author: "Ann"),
        ], to: Fixtures.articles)
      // The response lists Ann's articles: Bob's are out of its scope.
      let result = try await store.load(
        [Fixtures.article(3, "Ann 3", author: "Ann")], into: Fixtures.articles,
        orphans: .remove(in: \.author.name == "Ann"))
      #expect(result.orphans.map(\.id) == [1])
      #expect(try await store.fetch(Fixtures.articles).objects.map(\.id) == [2, 3])
      // Without a rule, nothing is an orphan.
      let plain = try await store.load([], into: Fixtures.articles, orphans: nil)
      #expect(plain.orphans.isEmpty)
      #expect(try await store.count(Fixtures.articles) == 2)
    }
  }

  @Test func aFailedLoadChangesNothing() async throws {
    try await withStore { store, _ in
      try await store.save((1...3).map { Fixtures.article($0, "A\($0)") }, to: Fixtures.articles)
      var broken = Fixtures.article(9, "Broken")
      broken.rating = .infinity
      await #expect(throws: StoreError.self) {
        try await store.load(
          [Fixtures.article(1, "changed"), broken], into: Fixtures.articles, orphans: .remove())
      }
      #expect(
        try await store.fetch(Fixtures.articles).objects
          == (1...3).map { Fixtures.article($0, "A\($0)") })
    }
  }

  @Test func loadedInstancesBecomeTheLiveOnesAndOrphansAreTheLiveInstances() async throws {
    try await withStore { store, _ in
      let kept = Fixtures.note(1, "one")
      let orphan = Fixtures.note(2, "two")
      try await store.save([kept, orphan], to: Fixtures.notes)
      let loaded = Fixtures.note(1, "one, loaded")
      let result = try await store.load([loaded], into: Fixtures.notes, orphans: .remove())
      #expect(result.orphans.count == 1 && result.orphans[0] === orphan)
      #expect(try await store.fetch(Fixtures.notes, id: 1) === loaded)
      #expect(try await store.fetch(Fixtures.notes, id: 2) == nil)
    }
  }
}
