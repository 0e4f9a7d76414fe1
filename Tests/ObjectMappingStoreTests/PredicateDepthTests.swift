import Foundation
import ObjectMapping
import Testing

@testable import ObjectMappingStore

/// Predicates built from untrusted data (a deep link, a user's filter): nesting beyond the
/// limit, long chains of `||` and `&&`, and negative limits are typed errors or run; nothing
/// exhausts the stack or SQLite's parser.
@Suite("SQLiteStore: predicate depth and size")
struct PredicateDepthTests {
  struct DepthThing: Equatable, Sendable {
    var id = ""
    var label = ""
    var number = 0
  }

  static let entity = StoreEntity(
    "DepthThing",
    mapping: Mapping(DepthThing.init) {
      Attribute("id", \.id)
      Attribute("label", \.label)
      Attribute("number", \.number)
    }.identified(by: \.id))

  /// 300 things, numbers 0 to 299, labels "a", "b" and "c" in turn.
  static let things = (0..<300).map {
    DepthThing(id: "t\($0)", label: ["a", "b", "c"][$0 % 3], number: $0)
  }

  static let tooDeep = "DepthThing: the query cannot run: the predicate nests deeper than 32 levels"

  /// The identities `predicate` fetches, in stored order, and the number `count` reports.
  func fetched(_ predicate: StorePredicate<DepthThing>) async throws -> (ids: [String], count: Int)
  {
    try await withStore { store, _ in
      try await store.save(Self.things, to: Self.entity)
      let ids = try await store.fetch(Self.entity, where: predicate).objects.map(\.id)
      return (ids, try await store.count(Self.entity, where: predicate))
    }
  }

  /// The error a fetch, a count and a load with `predicate` as orphan scope throw (all three
  /// must throw the same).
  func error(_ predicate: StorePredicate<DepthThing>) async throws -> StoreError {
    try await withStore { store, _ in
      try await store.save(Self.things, to: Self.entity)
      let fetchError = await #expect(throws: StoreError.self) {
        try await store.fetch(Self.entity, where: predicate)
      }
      let countError = await #expect(throws: StoreError.self) {
        try await store.count(Self.entity, where: predicate)
      }
      let loadError = await #expect(throws: StoreError.self) {
        try await store.load([], into: Self.entity, orphans: .remove(in: predicate))
      }
      let error = try #require(fetchError)
      #expect(countError == error)
      #expect(loadError == error)
      // Nothing was removed.
      #expect(try await store.count(Self.entity) == Self.things.count)
      return error
    }
  }

  /// `predicate` under `levels` more `!`s.
  static func negated(_ predicate: StorePredicate<DepthThing>, _ levels: Int)
    -> StorePredicate<DepthThing>
  {
    var result = predicate
    for _ in 0..<levels { result = !result }
    return result
  }

  @Test func aHundredThousandNestedNotsAreATypedError() async throws {
    let predicate = Self.negated(\.number == 1, 100_000)
    let error = try await error(predicate)
    #expect(
      error.kind
        == .unsupportedQuery(
          entity: "DepthThing", reason: "the predicate nests deeper than 32 levels"))
    #expect(error.description == Self.tooDeep)
  }

  @Test func theLimitDepthRunsAndOneLevelMoreIsAnError() async throws {
    // A comparison is one level, each `!` one more: 31 of them make the deepest predicate.
    let deepest = Self.negated(\.number == 1, 31)
    #expect(deepest.depth == PredicateLimits.depth)
    let expected = Self.things.filter { $0.number != 1 }.map(\.id)
    #expect(try await fetched(deepest) == (expected, expected.count))
    let error = try await error(!deepest)
    #expect(error.description == Self.tooDeep)
    // Chains of the other operator add a level each too.
    #expect(try await self.error(deepest || \.number == 2).description == Self.tooDeep)
    #expect(try await self.error(\.label == "a" && !deepest).description == Self.tooDeep)
    // An operand beyond the limit makes the whole predicate fail, whatever is added to it.
    let beyond = (!deepest && \.number == 1) || .all
    #expect(try await self.error(beyond).description == Self.tooDeep)
  }

  @Test func theDeepestPredicateRunsOnA512KBStack() async throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.path("store.sqlite")
    let store = try SQLiteStore(path: path)
    try await store.save(Self.things, to: Self.entity)
    await store.close()
    let done = DispatchSemaphore(value: 0)
    let result = FetchedIDs()
    let thread = Thread {
      defer { done.signal() }
      // Built, resolved, written as SQL, run and freed on this thread: the deepest mix the
      // limits accept, with long chains at every level.
      let predicate = Self.deepMix(levels: PredicateLimits.depth)
      guard predicate.depth == PredicateLimits.depth,
        let condition = try? predicate.resolved(for: Self.entity),
        let sql = try? StoreSQL.select(
          entity: "DepthThing", condition: condition, order: [], limit: nil, offset: 0),
        let connection = try? SQLiteConnection(path: path, mode: .readOnly),
        let statement = try? connection.prepare(sql.text),
        (try? statement.bind(sql.values)) != nil
      else { return }
      var ids: [String] = []
      while (try? statement.step()) == true {
        ids.append(statement.string(at: 0))
      }
      result.ids.withLock { $0 = ids }
    }
    thread.stackSize = 512 * 1024
    thread.start()
    done.wait()
    let expected = Self.things.filter(Self.deepMixInSwift(levels: PredicateLimits.depth))
    #expect(result.ids.value == expected.map(\.id))
    #expect(!expected.isEmpty && expected.count < Self.things.count)
  }

  @Test func aLongOrChainFetchesTheRightRows() async throws {
    // Every third number from 0 to 12,285: a hundred of the stored ones.
    var predicate: StorePredicate<DepthThing> = \.number == 0
    for term in 1..<PredicateLimits.conditions { predicate = predicate || \.number == term * 3 }
    #expect(predicate.depth == 2)
    let expected = Self.things.filter { $0.number % 3 == 0 }.map(\.id)
    #expect(try await fetched(predicate) == (expected, expected.count))
    // Resolved as one flat chain.
    guard case .or(let operands) = try predicate.resolved(for: Self.entity) else {
      Issue.record("not an OR")
      return
    }
    #expect(operands.count == PredicateLimits.conditions)
  }

  @Test func chainsUpToTheConditionLimitRunAndOneMoreIsAnError() async throws {
    // The first condition holds for every row, so SQLite stops there: what is checked is that
    // a predicate of the limit's size is written, bound and run, and one more is refused.
    var predicate: StorePredicate<DepthThing> = \.number >= 0
    for term in 1..<PredicateLimits.conditions { predicate = predicate || \.number == -term }
    let expected = Self.things.map(\.id)
    #expect(try await fetched(predicate) == (expected, expected.count))
    let error = try await error(predicate || \.label == "a")
    #expect(
      error.description
        == "DepthThing: the query cannot run: the predicate holds more than 4096 conditions; "
        + "match many values of one property with .in(_:_:)")
    // Built from the right too (`term || chain`), and shared prefixes stay as they were.
    var right: StorePredicate<DepthThing> = \.number == 0
    for term in 1..<2_000 { right = \.number == term * 5 || right }
    let prefix = right
    let extended = right || \.label == "b"
    let other = right || \.label == "c"
    let fives = Self.things.filter { $0.number % 5 == 0 }
    #expect(try await fetched(prefix).ids == fives.map(\.id))
    #expect(
      try await fetched(extended).ids
        == Self.things.filter { $0.number % 5 == 0 || $0.label == "b" }.map(\.id))
    #expect(
      try await fetched(other).ids
        == Self.things.filter { $0.number % 5 == 0 || $0.label == "c" }.map(\.id))
  }

  @Test(arguments: [1, 2, 8, 31, 32])
  func deepMixesOfAndOrMatchSwift(levels: Int) async throws {
    let predicate = Self.deepMix(levels: levels)
    #expect(predicate.depth == levels)
    let expected = Self.things.filter(Self.deepMixInSwift(levels: levels)).map(\.id)
    #expect(try await fetched(predicate) == (expected, expected.count))
  }

  @Test func negativeLimitsAndOffsetsAreTypedErrors() async throws {
    try await withStore { store, _ in
      try await store.save(Self.things, to: Self.entity)
      let limit = await #expect(throws: StoreError.self) {
        try await store.fetch(Self.entity, limit: -1)
      }
      #expect(limit?.description == "DepthThing: the query cannot run: the limit -1 is negative")
      let offset = await #expect(throws: StoreError.self) {
        try await store.fetch(Self.entity, limit: 5, offset: -3)
      }
      #expect(offset?.description == "DepthThing: the query cannot run: the offset -3 is negative")
      let both = await #expect(throws: StoreError.self) {
        try await store.fetch(Self.entity, where: \.label == "a", limit: .min, offset: .min)
      }
      #expect(
        both?.description
          == "DepthThing: the query cannot run: the limit -9223372036854775808 is negative")
      // Zero is a limit.
      #expect(try await store.fetch(Self.entity, limit: 0).objects.isEmpty)
    }
  }

  /// What the small-stack thread fetched.
  final class FetchedIDs: Sendable {
    let ids = Locked<[String]?>(nil)
  }

  // MARK: Deep mixes

  /// A predicate `levels` deep mixing `&&`, `||` and `!` in turn (so that each level adds
  /// one), the chains with the deeper operand in their middle, the `||` chains 43 long.
  static func deepMix(levels: Int) -> StorePredicate<DepthThing> {
    var predicate: StorePredicate<DepthThing> = \.number >= 10
    for level in 1..<max(levels, 1) {
      let wide: StorePredicate<DepthThing> = (0..<40).reduce(\.number == level) {
        $0 || \.number == level * 7 + $1 * 13
      }
      switch level % 3 {
      case 1: predicate = \.label != "c" && predicate && \.number < 280 - level
      case 2: predicate = wide || predicate || \.label == "b"
      default: predicate = !predicate
      }
    }
    return predicate
  }

  /// ``deepMix(levels:)`` as a Swift test on an object.
  static func deepMixInSwift(levels: Int) -> @Sendable (DepthThing) -> Bool {
    var test: @Sendable (DepthThing) -> Bool = { $0.number >= 10 }
    for level in 1..<max(levels, 1) {
      let inner = test
      let wide: @Sendable (DepthThing) -> Bool = { thing in
        thing.number == level
          || (0..<40).contains { thing.number == level * 7 + $0 * 13 }
      }
      switch level % 3 {
      case 1: test = { $0.label != "c" && inner($0) && $0.number < 280 - level }
      case 2: test = { wide($0) || inner($0) || $0.label == "b" }
      default: test = { !inner($0) }
      }
    }
    return test
  }
}
