import Foundation
import ObjectMapping
import ObjectMappingStore
import Testing

/// Identities are compared by their bytes, as SQLite compares them: two identities Swift's
/// `String` calls equal (canonically equivalent, `"caf\u{E9}"` and `"cafe\u{301}"`) are two
/// objects (found by a probe of the persistent store: the identity map, keyed by `String`, gave
/// one object's instance for the other's row).
@Suite("SQLiteStore: identities compare by bytes")
struct StoreIdentityBytesTests {
  final class Tag: @unchecked Sendable {
    // @unchecked: the tests touch a tag from one task at a time.
    var slug = ""
    var label = ""
    init() {}
  }

  struct Label: Equatable, Sendable {
    var slug = ""
    var label = ""
  }

  static let tags = StoreEntity(
    "Tag",
    mapping: Mapping(Tag.init) {
      Attribute("slug", \.slug)
      Attribute("label", \.label)
    }.identified(by: \.slug))

  static let labels = StoreEntity(
    "Label",
    mapping: Mapping(Label.init) {
      Attribute("slug", \.slug)
      Attribute("label", \.label)
    }.identified(by: \.slug))

  static let composed = "caf\u{E9}"
  static let decomposed = "cafe\u{301}"

  static func tag(_ slug: String, _ label: String) -> Tag {
    let tag = Tag()
    tag.slug = slug
    tag.label = label
    return tag
  }

  @Test func canonicallyEquivalentIdentitiesAreTwoLiveInstances() async throws {
    #expect(Self.composed == Self.decomposed)  // to Swift, one string
    try await withStore { store, _ in
      let first = Self.tag(Self.composed, "composed")
      let second = Self.tag(Self.decomposed, "decomposed")
      try await store.save([first, second], to: Self.tags)
      #expect(try await store.count(Self.tags) == 2)
      #expect(try await store.fetch(Self.tags, id: Self.composed) === first)
      #expect(try await store.fetch(Self.tags, id: Self.decomposed) === second)
      let all = try await store.fetch(Self.tags).objects
      #expect(all.count == 2)
      #expect(Set(all.map { ObjectIdentifier($0) }).count == 2)
      #expect(Set(all.map(\.label)) == ["composed", "decomposed"])
    }
  }

  @Test func canonicallyEquivalentIdentitiesAreTwoValues() async throws {
    try await withStore { store, _ in
      try await store.save(
        [
          Label(slug: Self.composed, label: "composed"),
          Label(slug: Self.decomposed, label: "decomposed"),
        ], to: Self.labels)
      let fetched = try await store.fetch(Self.labels, ids: [Self.decomposed, Self.composed])
      #expect(fetched.objects.map(\.label) == ["decomposed", "composed"])
      #expect(
        try await store.fetch(Self.labels, id: Self.composed)
          == Label(slug: Self.composed, label: "composed"))
      // The same bytes twice are one identity: the last wins.
      try await store.save(
        [Label(slug: Self.composed, label: "a"), Label(slug: Self.composed, label: "b")],
        to: Self.labels)
      #expect(try await store.fetch(Self.labels, id: Self.composed)?.label == "b")
      #expect(try await store.count(Self.labels) == 2)
    }
  }
}
