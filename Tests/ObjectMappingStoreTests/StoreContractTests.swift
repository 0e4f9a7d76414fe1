import Foundation
import ObjectMapping
import ObjectMappingStore
import Testing

/// A store of another kind, written against the contract alone: rows in memory, conditions
/// evaluated on the payloads as `Node`s. The same calls run on it and on `SQLiteStore` and must
/// agree: the contract is enough to write a store.
actor MemoryStore: PersistentStore {
  private var rows: [String: [(id: String, payload: [UInt8])]] = [:]

  func save<Object>(_ objects: [Object], to entity: StoreEntity<Object>) async throws(StoreError) {
    var written = rows[entity.name, default: []]
    for object in objects {  // all serialized before any is kept: all or nothing
      let row = (id: try entity.identity(of: object), payload: try entity.payload(of: object))
      if let index = written.firstIndex(where: { $0.id == row.id }) {
        written[index] = row
      } else {
        written.append(row)
      }
    }
    rows[entity.name] = written
  }

  func delete<Object, ID: Hashable & Sendable>(_ entity: StoreEntity<Object>, ids: [ID])
    async throws(StoreError) -> Int
  {
    let texts = Set(ids.map(StoreEntity<Object>.identityText))
    let before = rows[entity.name]?.count ?? 0
    rows[entity.name]?.removeAll { texts.contains($0.id) }
    return before - (rows[entity.name]?.count ?? 0)
  }

  func fetch<Object>(
    _ entity: StoreEntity<Object>, where predicate: StorePredicate<Object>?,
    orderBy order: [StoreOrder<Object>], limit: Int?, offset: Int
  ) async throws(StoreError) -> StoreFetch<Object> {
    let condition = try predicate?.resolved(for: entity)
    var orderings: [StoreOrdering] = []
    for key in order { orderings.append(try key.resolved(for: entity)) }
    var matching = (rows[entity.name] ?? []).compactMap { row -> (String, [UInt8], Node)? in
      guard let node = try? Node(jsonData: Data(row.payload)) else { return nil }
      return condition.map { Self.holds($0, node) } ?? true ? (row.id, row.payload, node) : nil
    }
    if !orderings.isEmpty {
      // A stable sort keeps ties in stored order.
      matching = matching.enumerated().sorted { lhs, rhs in
        for ordering in orderings {
          let left = Self.value(lhs.element.2, ordering.path)
          let right = Self.value(rhs.element.2, ordering.path)
          if let less = Self.less(left, right), less { return ordering.ascending }
          if let less = Self.less(right, left), less { return !ordering.ascending }
        }
        return lhs.offset < rhs.offset
      }.map(\.element)
    }
    let page = matching.dropFirst(offset).prefix(limit ?? .max)
    var result = StoreFetch<Object>(objects: [])
    for (id, payload, _) in page {
      do throws(UnmappableRow) {
        result.objects.append(try entity.object(fromPayload: payload, id: id))
      } catch {
        result.unmappable.append(error)
      }
    }
    return result
  }

  func fetch<Object, ID: Hashable & Sendable>(_ entity: StoreEntity<Object>, ids: [ID])
    async throws(StoreError) -> StoreFetch<Object>
  {
    var result = StoreFetch<Object>(objects: [])
    for id in ids.map(StoreEntity<Object>.identityText) {
      guard let row = rows[entity.name]?.first(where: { $0.id == id }) else { continue }
      do throws(UnmappableRow) {
        result.objects.append(try entity.object(fromPayload: row.payload, id: id))
      } catch {
        result.unmappable.append(error)
      }
    }
    return result
  }

  func load<Object>(
    _ objects: [Object], into entity: StoreEntity<Object>, orphans: OrphanRule<Object>?
  ) async throws(StoreError) -> StoreLoad<Object> {
    var ids: Set<String> = []
    for object in objects { ids.insert(try entity.identity(of: object)) }
    let inScope = try await fetch(
      entity, where: orphans?.scope, orderBy: [], limit: nil, offset: 0)
    try await save(objects, to: entity)
    guard let orphans else { return StoreLoad(objects: objects) }
    var found: [Object] = []
    var orphanIDs: [String] = []
    for object in inScope.objects {
      let id = try entity.identity(of: object)
      if !ids.contains(id) {
        found.append(object)
        orphanIDs.append(id)
      }
    }
    if orphans.removes { _ = try await delete(entity, ids: orphanIDs) }
    return StoreLoad(objects: objects, orphans: found)
  }

  private static func value(_ node: Node, _ path: [String]) -> Node {
    var current = node
    for key in path {
      guard let next = current[key] else { return .null }
      current = next
    }
    return current
  }

  private static func number(_ node: Node) -> Double? {
    switch node {
    case .integer(let value): Double(value)
    case .double(let value): value
    case .decimal(let number): Double(number.text)
    case .bool(let flag): flag ? 1 : 0
    default: nil
    }
  }

  private static func equal(_ lhs: Node, _ rhs: Node) -> Bool {
    if let left = number(lhs), let right = number(rhs) { return left == right }
    return lhs == rhs
  }

  /// `lhs < rhs` for two numbers or two strings; `nil` when they do not compare (null).
  private static func less(_ lhs: Node, _ rhs: Node) -> Bool? {
    if let left = number(lhs), let right = number(rhs) { return left < right }
    if case .string(let left) = lhs, case .string(let right) = rhs {
      return Array(left.utf8).lexicographicallyPrecedes(Array(right.utf8))
    }
    if case .null = lhs, !(rhs == .null) { return true }
    return nil
  }

  private static func holds(_ condition: StoreCondition, _ node: Node) -> Bool {
    switch condition {
    case .equal(let path, nil): return value(node, path) == .null
    case .equal(let path, let expected?): return equal(value(node, path), expected)
    case .notEqual(let path, nil): return value(node, path) != .null
    case .notEqual(let path, let expected?): return !equal(value(node, path), expected)
    case .compare(let path, let comparison, let expected):
      let found = value(node, path)
      guard found != .null else { return false }
      switch comparison {
      case .less: return less(found, expected) ?? false
      case .lessOrEqual: return (less(found, expected) ?? false) || equal(found, expected)
      case .greater: return less(expected, found) ?? false
      case .greaterOrEqual: return (less(expected, found) ?? false) || equal(found, expected)
      }
    case .oneOf(let path, let values):
      let found = value(node, path)
      return values.contains { equal(found, $0) }
    case .and(let conditions): return conditions.allSatisfy { holds($0, node) }
    case .or(let conditions): return conditions.contains { holds($0, node) }
    case .not(let inner): return !holds(inner, node)
    }
  }
}

@Suite("PersistentStore: the contract")
struct StoreContractTests {
  /// The same calls on `store`, as identities.
  func run(_ store: some PersistentStore) async throws -> [[Int]] {
    try await store.save(StoreQueryTests.library, to: Fixtures.articles)
    try await store.save([Fixtures.article(2, "Beta, again", author: "Bob")], to: Fixtures.articles)
    var results: [[Int]] = []
    for predicate: StorePredicate<Article>? in [
      nil, \.author.name == "Ann", \.rating > 2 && \.state != .archived,
      .in(\.id, [5, 1]) || \.subtitle != nil, !(\.rating <= 3.5),
    ] {
      results.append(try await store.fetch(Fixtures.articles, where: predicate).objects.map(\.id))
    }
    results.append(
      try await store.fetch(
        Fixtures.articles, orderBy: [.descending(\.author.name), .ascending(\.rating)], limit: 3,
        offset: 1
      ).objects.map(\.id))
    results.append(try await store.fetch(Fixtures.articles, ids: [4, 2, 99]).objects.map(\.id))
    let load = try await store.load(
      [Fixtures.article(3, "Gamma")], into: Fixtures.articles,
      orphans: .remove(in: \.author.name == "Ann"))
    results.append(load.orphans.map(\.id))
    results.append([try await store.delete(Fixtures.articles, ids: [4, 40])])
    results.append(try await store.fetch(Fixtures.articles).objects.map(\.id))
    return results
  }

  @Test func anotherStoreWrittenAgainstTheContractAgreesWithSQLiteStore() async throws {
    let memory = try await run(MemoryStore())
    let sqlite = try await withStore { store, _ in try await run(store) }
    #expect(memory == sqlite)
    #expect(
      sqlite == [
        [1, 2, 3, 4, 5], [1, 3], [1, 3], [1, 3, 5], [1, 4], [2, 5, 3], [4, 2], [1], [1],
        [2, 3, 5],
      ])
  }
}
