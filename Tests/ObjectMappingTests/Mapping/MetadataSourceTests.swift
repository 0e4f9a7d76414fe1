import Foundation
import ObjectMapping
import Testing

/// `SourcePath.metadata`: facts about the call (RestKit's `@metadata`) that mappings read,
/// passed with `MappingOptions(metadata:)` (issue 18).
@Suite("Metadata source")
struct MetadataSourceTests {
  struct Page: Equatable, Sendable {
    var items: [String] = []
    var number = 0
    var etag: String?
    var firstTag: String?
  }

  static let mapping = Mapping(Page.init) {
    Attribute("items", \.items)
    Attribute(SourcePath.metadata.appending("request.page"), \.number, default: 1)
    Attribute(SourcePath.metadata.appending("headers.etag"), \.etag)
    Attribute(SourcePath.metadata.appending("tags.0"), \.firstTag)
  }

  @Test func mappingsReadTheCallsMetadata() throws {
    let metadata: Node = [
      "request": ["page": 3], "headers": ["etag": "\"abc\""], "tags": ["t1", "t2"],
    ]
    let page = try Self.mapping.map(
      #"{"items": ["a"]}"#, with: MappingOptions(metadata: metadata))
    #expect(page == Page(items: ["a"], number: 3, etag: "\"abc\"", firstTag: "t1"))
    // Without metadata the sources are absent: defaults and nil.
    let plain = try Self.mapping.map(#"{"items": []}"#)
    #expect(plain == Page(items: [], number: 1, etag: nil, firstTag: nil))
    // A wrong type in the metadata is an error at the rule's property, like any other value.
    #expect(throws: MappingErrors.self) {
      try Self.mapping.map(
        #"{"items": []}"#, with: MappingOptions(metadata: ["request": ["page": "x"]]))
    }
  }

  /// RestKit's `@metadata.mapping.rootKeyPath`: under a mapper route it is the key path the
  /// route matched (`null` for the whole payload), beside the caller's own metadata, which it
  /// shadows; outside a mapper there is none.
  @Test func aMapperRouteCarriesTheKeyPathItMatched() throws {
    struct Tagged: Equatable, Sendable {
      var id = 0
      var rootKeyPath: String?
      var page = 0
    }
    let tagged = Mapping(Tagged.init) {
      Attribute("id", \.id)
      Attribute("@metadata.mapping.rootKeyPath", \.rootKeyPath)
      Attribute("@metadata.page", \.page, default: -1)
    }
    let mapper = Mapper(
      MappingProvider {
        Route("data.articles", tagged)
        Route("featured", tagged)
        Route("", tagged, name: "whole")
      })
    let result = try mapper.map(
      #"{"id": 9, "data": {"articles": [{"id": 1}, {"id": 2}]}, "featured": {"id": 3}}"#,
      with: MappingOptions(metadata: ["page": 4, "mapping": ["rootKeyPath": "mine", "x": 1]]))
    #expect(result.errors.isEmpty)
    #expect(
      result.all(Tagged.self, at: "data.articles") == [
        Tagged(id: 1, rootKeyPath: "data.articles", page: 4),
        Tagged(id: 2, rootKeyPath: "data.articles", page: 4),
      ])
    #expect(
      result.all(Tagged.self, at: "featured") == [Tagged(id: 3, rootKeyPath: "featured", page: 4)])
    #expect(result.all(Tagged.self, at: "") == [Tagged(id: 9, rootKeyPath: nil, page: 4)])
    // The caller's other `mapping` members stay readable beside it.
    let other = Mapping(Tagged.init) { Attribute("@metadata.mapping.x", \.id) }
    let kept = try Mapper(MappingProvider { Route("featured", other) }).map(
      #"{"featured": {}}"#, with: MappingOptions(metadata: ["mapping": ["x": 5]]))
    #expect(kept.all(Tagged.self).map(\.id) == [5])
    // Outside a mapper the key is the caller's, or absent.
    #expect(try tagged.map(#"{"id": 1}"#).rootKeyPath == nil)
    #expect(
      try tagged.map(
        #"{"id": 1}"#, with: MappingOptions(metadata: ["mapping": ["rootKeyPath": "mine"]])
      )
      .rootKeyPath == "mine")
  }

  /// A route whose key path crosses an array gives each value it reached the position of its
  /// element in that array, as RestKit's fanned-out array did (`[A, NSNull, B]`: `0` and `2`);
  /// a to-one child of it has none.
  @Test func aFannedOutValueReadsItsPositionInTheCrossedArray() throws {
    struct Human: Equatable, Sendable {
      var name = ""
      var index: Int?
      var pet: Pet?
    }
    struct Pet: Equatable, Sendable {
      var index: Int?
    }
    let pet = Mapping(Pet.init) { Attribute("@metadata.mapping.collectionIndex", \.index) }
    let human = Mapping(Human.init) {
      Attribute("name", \.name)
      Attribute("@metadata.mapping.collectionIndex", \.index)
      Relationship("pet", \.pet, pet)
    }
    let result = try Mapper(MappingProvider { Route("human", human) }).map(
      #"[{"human": {"name": "A", "pet": {}}}, {"robot": {}}, {"human": {"name": "B"}}]"#)
    #expect(result.errors.isEmpty)
    #expect(
      result.all(Human.self) == [
        Human(name: "A", index: 0, pet: Pet(index: nil)), Human(name: "B", index: 2, pet: nil),
      ])
    // A route reaching an array directly keeps its elements' own positions.
    let direct = try Mapper(MappingProvider { Route("people", human) }).map(
      #"{"people": [{"name": "A"}, null, {"name": "B"}]}"#)
    #expect(direct.all(Human.self).map(\.index) == [0, 2])
  }

  /// Every mapper route reads the call's metadata, merged over the mapper's own (inner members
  /// shadow outer ones, RestKit's metadata stack), whether it reaches one object, an array or
  /// the whole payload. (Before issue 37's last session a mapper dropped the metadata.)
  @Test func everyMapperRouteReadsTheMergedMetadata() throws {
    let mapping = Self.mapping
    let mapper = Mapper(
      MappingProvider {
        Route("one", mapping)
        Route("many", mapping)
        Route("", mapping, name: "whole")
      },
      options: MappingOptions(metadata: ["request": ["page": 2], "headers": ["etag": "m"]]))
    let json = #"{"items": ["w"], "one": {"items": ["o"]}, "many": [{"items": []}]}"#
    let call = MappingOptions(metadata: ["request": ["page": 7], "tags": ["c"]])
    let result = try mapper.map(json, with: call)
    #expect(result.errors.isEmpty)
    // The call's `request.page` shadows the mapper's; the mapper's `headers` stay.
    let expected = { (items: [String]) in
      Page(items: items, number: 7, etag: "m", firstTag: "c")
    }
    #expect(result.all(Page.self, at: "one") == [expected(["o"])])
    #expect(result.all(Page.self, at: "many") == [expected([])])
    #expect(result.all(Page.self, at: "") == [expected(["w"])])
    // The same mapping through `map` reads the same merged facts when given them.
    #expect(
      try mapping.map(
        #"{"items": ["o"]}"#,
        with: MappingOptions(metadata: [
          "request": ["page": 7], "headers": ["etag": "m"], "tags": ["c"],
        ]))
        == expected(["o"]))
    // Without the call's metadata the mapper's own is read.
    #expect(
      try mapper.map(#"{"one": {"items": []}}"#).all(Page.self, at: "one").map(\.number) == [2])
  }

  /// The stack merges objects member by member at any depth a mapping reads, and two deep
  /// metadata trees merge without deep recursion (the inner one's member wins whole below 32
  /// levels).
  @Test func metadataMergesMemberByMember() throws {
    struct Read: Equatable, Sendable {
      var kept = 0
      var shadowed = 0
      var added = 0
    }
    let reader = Mapping(Read.init) {
      Attribute("@metadata.a.b.kept", \.kept)
      Attribute("@metadata.a.b.shadowed", \.shadowed)
      Attribute("@metadata.a.b.added", \.added)
    }
    let mapper = Mapper(
      MappingProvider { Route("", reader) },
      options: MappingOptions(metadata: ["a": ["b": ["kept": 1, "shadowed": 2]]]))
    let result = try mapper.map(
      #"{"x": 1}"#, with: MappingOptions(metadata: ["a": ["b": ["shadowed": 3, "added": 4]]]))
    #expect(result.errors.isEmpty)
    #expect(result.all(Read.self) == [Read(kept: 1, shadowed: 3, added: 4)])

    func deep(_ levels: Int, leaf: Node) -> Node {
      var node = leaf
      for _ in 0..<levels { node = ["a": node] }
      return node
    }
    let deepReader = Mapping(Read.init) {
      Attribute(SourcePath(keys: Array(repeating: "a", count: 40) + ["kept"]), \.kept)
    }
    let deepResult = try Mapper(
      MappingProvider { Route("", deepReader) },
      options: MappingOptions(metadata: deep(40, leaf: ["kept": 1]))
    ).map(#"{"x": 1}"#, with: MappingOptions(metadata: deep(40, leaf: ["other": 2])))
    // Below 32 levels the call's member replaced the mapper's: `kept` is gone.
    #expect(deepResult.all(Read.self).isEmpty && !deepResult.errors.isEmpty)
  }

  @Test func theInverseWritesNothingForMetadata() throws {
    let json = String(
      decoding: try Self.mapping.serialize(Page(items: ["a"], number: 3, etag: "e")),
      as: UTF8.self)
    #expect(json == #"{"items":["a"]}"#)
    #expect(SourcePath.metadata.appending("request.page").description == "@metadata.request.page")
  }
}
