import Foundation
import ObjectMapping
import ObjectMappingStore
import Testing

@Suite("SQLiteStore: the identity map")
struct StoreIdentityMapTests {
  @Test func aLiveInstanceIsFetchedAgainAsTheSameInstance() async throws {
    try await withStore { store, _ in
      try await store.save([Fixtures.note(1, "one"), Fixtures.note(2, "two")], to: Fixtures.notes)
      let first = try #require(try await store.fetch(Fixtures.notes, id: 1))
      let again = try #require(try await store.fetch(Fixtures.notes, id: 1))
      #expect(first === again)
      let all = try await store.fetch(Fixtures.notes).objects
      #expect(all[0] === first)
      // Unsaved changes are the instance's own until saved; the instance is what comes back.
      first.text = "one, edited"
      #expect(try await store.fetch(Fixtures.notes, id: 1)?.text == "one, edited")
    }
  }

  @Test func aSavedInstanceIsTheLiveOne() async throws {
    try await withStore { store, _ in
      let note = Fixtures.note(1, "one")
      try await store.save([note], to: Fixtures.notes)
      #expect(try await store.fetch(Fixtures.notes, id: 1) === note)
      let replacement = Fixtures.note(1, "replaced")
      try await store.save([replacement], to: Fixtures.notes)
      #expect(try await store.fetch(Fixtures.notes, id: 1) === replacement)
    }
  }

  @Test func instancesAreHeldWeakly() async throws {
    try await withStore { store, _ in
      try await store.save([Fixtures.note(1, "one")], to: Fixtures.notes)
      weak var released: Fixtures.Note?
      do {
        let fetched = try await store.fetch(Fixtures.notes, id: 1)
        released = fetched
        #expect(released != nil)
      }
      #expect(released == nil)
      let fresh = try await store.fetch(Fixtures.notes, id: 1)
      #expect(fresh?.text == "one")
    }
  }

  @Test func aLiveInstanceIsRefreshedWhenAnotherConnectionChangedItsRow() async throws {
    try await withStore { store, folder in
      try await store.save([Fixtures.note(1, "one")], to: Fixtures.notes)
      let live = try #require(try await store.fetch(Fixtures.notes, id: 1))
      // Another store on the same file (another process, say) writes the row.
      let other = try SQLiteStore(path: folder.path("store.sqlite"))
      try await other.save([Fixtures.note(1, "one, from elsewhere")], to: Fixtures.notes)
      await other.close()
      let fetched = try await store.fetch(Fixtures.notes, id: 1)
      #expect(fetched === live)
      #expect(live.text == "one, from elsewhere")
    }
  }

  @Test func deletedIdentitiesAreForgotten() async throws {
    try await withStore { store, _ in
      let note = Fixtures.note(1, "one")
      try await store.save([note], to: Fixtures.notes)
      try await store.delete(Fixtures.notes, ids: [1])
      #expect(try await store.fetch(Fixtures.notes, id: 1) == nil)
      try await store.save([Fixtures.note(1, "again")], to: Fixtures.notes)
      let fetched = try await store.fetch(Fixtures.notes, id: 1)
      #expect(fetched !== note)
      #expect(fetched?.text == "again")
    }
  }

  @Test func concurrentFetchesOfOneIdentityGiveOneInstance() async throws {
    try await withStore { store, _ in
      try await store.save((1...50).map { Fixtures.note($0, "n\($0)") }, to: Fixtures.notes)
      let batches = try await withThrowingTaskGroup(of: [Fixtures.Note].self) { group in
        for _ in 0..<8 {
          group.addTask { try await store.fetch(Fixtures.notes).objects }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      for batch in batches {
        for (index, note) in batch.enumerated() { #expect(note === batches[0][index]) }
      }
    }
  }

  @Test func structsAreValues() async throws {
    try await withStore { store, _ in
      try await store.save([Fixtures.article(1, "One")], to: Fixtures.articles)
      var first = try #require(try await store.fetch(Fixtures.articles, id: 1))
      first.title = "changed locally"
      #expect(try await store.fetch(Fixtures.articles, id: 1)?.title == "One")
    }
  }
}
