import Foundation
import ObjectMapping
import Testing

// Collections a user brings (issue 36): an ordered set written here (the shape of
// swift-collections' `OrderedSet`, without depending on it), a deque-like ring buffer that is a
// `RangeReplaceableCollection` (the shape of `Deque`), and the standard `ContiguousArray`.

/// An ordered collection of unique elements: a `RandomAccessCollection`, not range-replaceable,
/// built from a sequence, as swift-collections' `OrderedSet` is.
struct TestOrderedSet<Element: Hashable>: RandomAccessCollection, Hashable {
  private(set) var elements: [Element] = []
  private var members: Set<Element> = []

  init() {}

  init(_ sequence: some Sequence<Element>) {
    for element in sequence where members.insert(element).inserted { elements.append(element) }
  }

  var startIndex: Int { elements.startIndex }
  var endIndex: Int { elements.endIndex }
  subscript(position: Int) -> Element { elements[position] }

  static func == (lhs: Self, rhs: Self) -> Bool { lhs.elements == rhs.elements }
  func hash(into hasher: inout Hasher) { hasher.combine(elements) }
}

// The conformance the migration guide shows for `OrderedSet`: one initializer, plus the value
// conformance for attributes.
extension TestOrderedSet: MappableCollection {
  init(mappedElements elements: [Element]) { self.init(elements) }
}
extension TestOrderedSet: MappableValue where Element: MappableValue {}
extension TestOrderedSet: Sendable where Element: Sendable {}

/// A ring buffer, range-replaceable, as swift-collections' `Deque`: it conforms with empty
/// extensions.
struct TestRing<Element>: RangeReplaceableCollection, RandomAccessCollection {
  private var storage: [Element] = []
  private var head = 0

  init() {}

  var startIndex: Int { 0 }
  var endIndex: Int { storage.count }
  subscript(position: Int) -> Element { storage[(head + position) % storage.count] }

  mutating func replaceSubrange<C: Collection<Element>>(_ range: Range<Int>, with new: C) {
    var linear = Array(self)
    linear.replaceSubrange(range, with: new)
    storage = linear
    head = 0
  }

  /// Moves the first element to the end without copying the others.
  mutating func rotate() {
    guard !storage.isEmpty else { return }
    head = (head + 1) % storage.count
  }
}

extension TestRing: MappableCollection {}
extension TestRing: MappableValue where Element: MappableValue {}
extension TestRing: Equatable where Element: Equatable {
  static func == (lhs: Self, rhs: Self) -> Bool { lhs.elementsEqual(rhs) }
}
extension TestRing: Sendable where Element: Sendable {}

@Suite("Any collection type: MappableCollection")
struct MappableCollectionTests {
  struct Comment: Hashable, Sendable {
    var id = 0
    var text = ""
  }

  struct Thread: Equatable, Sendable {
    var comments = TestOrderedSet<Comment>()
    var queue = TestRing<Comment>()
    var pinned = ContiguousArray<Comment>()
    var archived: TestRing<Comment>?
    var tags = TestOrderedSet<String>()
    var scores = ContiguousArray<Int>()
    var flags: TestRing<Bool>?
  }

  static let comment = Mapping(Comment.init) {
    Attribute("id", \.id)
    Attribute("text", \.text).optional()
  }.identified(by: \.id)

  static let thread = Mapping(Thread.init) {
    Relationship("comments", \.comments, comment)
    Relationship("queue", \.queue, comment)
    Relationship("pinned", \.pinned, comment)
    Relationship("archived", \.archived, comment)
    Attribute("tags", \.tags)
    Attribute("scores", \.scores)
    Attribute("flags", \.flags)
  }

  static let payload = #"""
    {"comments": [{"id": 1, "text": "a"}, {"id": 2}, {"id": 1, "text": "a"}],
     "queue": [{"id": 3}, {"id": 4}], "pinned": [{"id": 5}], "archived": null,
     "tags": ["swift", "linux", "swift"], "scores": [3, 1, 2], "flags": [true, false]}
    """#

  static let thread1 = Thread(
    comments: TestOrderedSet([Comment(id: 1, text: "a"), Comment(id: 2)]),
    queue: TestRing([Comment(id: 3), Comment(id: 4)]),
    pinned: [Comment(id: 5)], archived: nil,
    tags: TestOrderedSet(["swift", "linux"]), scores: [3, 1, 2], flags: TestRing([true, false]))

  @Test func userCollectionsMapAsRelationshipsAndAttributes() throws {
    #expect(try Self.thread.map(Self.payload) == Self.thread1)
  }

  @Test func theyAreWrittenInTheirOwnOrderAndReadBack() throws {
    var thread = Self.thread1
    thread.queue.rotate()
    thread.archived = TestRing([Comment(id: 9)])
    let json = String(decoding: try Self.thread.serialize(thread), as: UTF8.self)
    #expect(
      json
        == #"{"comments":[{"id":1,"text":"a"},{"id":2,"text":""}],"queue":[{"id":4,"text":""},"#
        + #"{"id":3,"text":""}],"pinned":[{"id":5,"text":""}],"archived":[{"id":9,"text":""}],"#
        + #""tags":["swift","linux"],"scores":[3,1,2],"flags":[true,false]}"#)
    #expect(try Self.thread.map(json) == thread)
  }

  @Test func anOptionalUserCollectionIsAbsentOrNilForNullAndOmittedWhenNil() throws {
    var thread = Self.thread1
    thread.archived = TestRing([Comment(id: 9)])
    try Self.thread.map(#"{"archived": null}"#, onto: &thread)
    #expect(thread.archived == nil)
    let written = try Self.thread.node(Thread())
    #expect(written["archived"] == nil && written["flags"] == nil)
    #expect(
      try Self.thread.node(Thread(), with: MappingOptions(nulls: .include))["archived"] == .null)
    // Non-optional ones are required.
    let error = try #require(throws: MappingErrors.self) {
      try Self.thread.map(#"{"queue": null, "pinned": [], "tags": [], "scores": []}"#)
    }
    #expect(
      error.errors.map(\.description) == [
        "/comments: required value is missing", "/queue: expected an array, found null",
      ])
  }

  @Test func mappingOntoExistingCollectionsMergesByIdentityAndAppends() throws {
    struct Board: Equatable, Sendable {
      var cards = TestOrderedSet<Comment>()
      var log = TestRing<Comment>()
    }
    let board = Mapping(Board.init) {
      Relationship("cards", \.cards, Self.comment)
      Relationship("log", \.log, Self.comment).policy(.append)
    }
    var existing = Board(
      cards: TestOrderedSet([Comment(id: 1, text: "old"), Comment(id: 2, text: "two")]),
      log: TestRing([Comment(id: 7)]))
    try board.map(
      #"{"cards": [{"id": 2, "text": "new"}, {"id": 3}], "log": [{"id": 8}]}"#, onto: &existing)
    #expect(existing.cards.elements == [Comment(id: 2, text: "new"), Comment(id: 3)])
    #expect(Array(existing.log) == [Comment(id: 7), Comment(id: 8)])
  }

  @Test func aKeyPathAcrossAnArrayFansOutIntoAUserCollection() throws {
    struct Names: Equatable, Sendable {
      var names = TestOrderedSet<String>()
      var ids = ContiguousArray<Int>()
    }
    let names = Mapping(Names.init) {
      Attribute("friends.name", \.names)
      Attribute("friends.id", \.ids)
    }
    #expect(
      try names.map(
        #"{"friends": [{"name": "A", "id": 1}, {"name": "B", "id": 2}, {"name": "A", "id": 3}]}"#)
        == Names(names: TestOrderedSet(["A", "B"]), ids: [1, 2, 3]))
  }

  @Test func elementFailuresAreReportedWithTheirIndexes() throws {
    let error = try #require(throws: MappingErrors.self) {
      try Self.thread.map(
        #"{"comments": [], "queue": [], "pinned": [], "tags": ["a", 2, {}], "scores": [1, "x"]}"#)
    }
    #expect(
      error.errors.map(\.description) == [
        "/tags/2: expected a string, found an object",
        #"/scores/1: cannot convert "x" to an integer"#,
      ])
    // A lone value is a one-element collection under lenient coercion.
    let lone = try Self.thread.map(
      #"{"comments": [], "queue": [], "pinned": [], "tags": "solo", "scores": 7}"#)
    #expect(lone.tags == TestOrderedSet(["solo"]) && lone.scores == [7])
  }

  @Test func nsOrderedSetReadsAsAnArrayInItsOrder() throws {
    let ordered = NSOrderedSet(array: ["b", "a", "c"])
    let node = try Node(foundation: ["tags": ordered, "scores": NSOrderedSet(array: [3, 1])])
    #expect(node == ["scores": [3, 1], "tags": ["b", "a", "c"]])
    struct Tags: Equatable, Sendable {
      var tags = TestOrderedSet<String>()
    }
    let tags = Mapping(Tags.init) { Attribute("tags", \.tags) }
    #expect(
      try tags.map(.foundation(["tags": ordered] as [String: Any])).tags.elements == [
        "b", "a", "c",
      ])
    // An unordered set has no order to keep: an error naming its type.
    #expect(throws: FormatError.self) { try Node(foundation: ["tags": NSSet(array: ["a"])]) }
  }
}
