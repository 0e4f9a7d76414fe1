import ObjectMapping

/// A condition on stored objects, written on the model's key paths and translated to the payload
/// keys the entity's mapping writes them to.
///
/// ```swift
/// let byAnn: StorePredicate<Article> = \.author.name == "Ann"
/// let recent = \Article.publishedAt >= cutoff && \.draft == false
/// let some = StorePredicate<Article>.in(\.state, [.open, .review]) || \.pinned == true
/// let noSubtitle: StorePredicate<Article> = \.subtitle == nil   // null or absent
/// ```
///
/// The value is written the way the mapping writes the property (its transform, its date format),
/// so a query compares like with like. A key path the mapping does not write is an error
/// (``StoreError/Kind/unknownKeyPath(entity:keyPath:)``) when the query runs, never a silent
/// scan. Orderings (`<`, `<=`, `>`, `>=`) compare the stored values: numbers as numbers, text by
/// its UTF-8 bytes, so they order dates written as ISO 8601 in one time zone (the default
/// format), not dates written as `"M/d/yyyy"`.
///
/// A predicate nests at most 32 levels: a comparison is one level, and `!`
/// and each `&&` or `||` adds one to its deepest operand, except that a chain of the same
/// operator (`a || b || c`, however long) is one level. It holds at most 4,096 comparisons
/// (an ``in(_:_:)`` is one, however many values it lists). An operator that would go beyond
/// either limit gives a predicate that keeps none of its operands, and a fetch, count or load with it throws
/// ``StoreError/Kind/unsupportedQuery(entity:reason:)``: a predicate built from untrusted data
/// fails with an error, never by exhausting the stack.
public struct StorePredicate<Object: Sendable>: Sendable {
  private let node: PredicateNode<Object>
  /// The levels of nesting (a comparison: 1).
  let depth: Int
  /// The comparisons it holds.
  let conditions: Int

  private init(_ node: PredicateNode<Object>, depth: Int, conditions: Int) {
    self.node = node
    self.depth = depth
    self.conditions = conditions
  }

  private init(
    _ resolve: @escaping @Sendable (StoreEntity<Object>) throws(StoreError) -> StoreCondition
  ) {
    self.init(.comparison(resolve), depth: 1, conditions: 1)
  }

  /// A predicate that holds only why it cannot run.
  private init(problem: String) {
    self.init(.problem(problem), depth: 1, conditions: 0)
  }

  /// The condition on payload keys this predicate stands for with `entity`'s mapping: what a
  /// store translates to its own query language. A chain of `&&` (or of `||`) is one
  /// ``StoreCondition/and(_:)`` (or ``StoreCondition/or(_:)``) of all its operands.
  ///
  /// - Parameter entity: The entity whose mapping translates the key paths.
  /// - Returns: The condition on payload keys and written values.
  /// - Throws: ``StoreError`` for a key path the mapping does not write, a value it cannot
  ///   write, or a predicate beyond the limits (``StoreError/Kind/unsupportedQuery(entity:reason:)``).
  public func resolved(for entity: StoreEntity<Object>) throws(StoreError) -> StoreCondition {
    // Recursion is bounded: every operand is at least one level shallower.
    switch node {
    case .comparison(let resolve):
      return try resolve(entity)
    case .chain(let chain, let count):
      let operands = chain.operands(count)
      var conditions: [StoreCondition] = []
      conditions.reserveCapacity(operands.count)
      for operand in operands {
        conditions.append(try operand.resolved(for: entity))
      }
      return chain.isAnd ? .and(conditions) : .or(conditions)
    case .not(let inner):
      return .not(try inner.resolved(for: entity))
    case .problem(let reason):
      throw StoreError(.unsupportedQuery(entity: entity.name, reason: reason))
    }
  }

  /// A comparison of the property at `keyPath` with `value`, written as the mapping writes it.
  static func comparing<Value: Sendable>(
    _ keyPath: KeyPath<Object, Value> & Sendable, _ value: Value,
    _ make: @escaping @Sendable ([String], Node?) -> StoreCondition
  ) -> Self {
    Self { entity throws(StoreError) in
      let field = try entity.field(keyPath)
      return make(field.path, try written(value, field, keyPath, entity))
    }
  }

  /// The objects whose property at `keyPath` equals one of `values`.
  ///
  /// ```swift
  /// try await store.fetch(issues, where: .in(\.state, [.open, .review]))
  /// ```
  ///
  /// One condition however many values (they are bound as one value): the way to match many
  /// values of one property.
  ///
  /// - Parameters:
  ///   - keyPath: A property an attribute writes.
  ///   - values: The values to match; none matches nothing.
  /// - Returns: The predicate.
  public static func `in`<Value: Equatable & Sendable>(
    _ keyPath: KeyPath<Object, Value> & Sendable, _ values: [Value]
  ) -> Self {
    Self { entity throws(StoreError) in
      let field = try entity.field(keyPath)
      var nodes: [Node] = []
      var matchesNull = false
      for value in values {
        if let node = try written(value, field, keyPath, entity) {
          nodes.append(node)
        } else {
          matchesNull = true
        }
      }
      let condition = StoreCondition.oneOf(field.path, nodes)
      return matchesNull ? .or([condition, .equal(field.path, nil)]) : condition
    }
  }

  /// Every object of the entity.
  public static var all: Self { Self { _ throws(StoreError) in .and([]) } }

  /// The objects matching both.
  public static func && (lhs: Self, rhs: Self) -> Self {
    joining(lhs, rhs, isAnd: true)
  }

  /// The objects matching either.
  public static func || (lhs: Self, rhs: Self) -> Self {
    joining(lhs, rhs, isAnd: false)
  }

  /// The objects not matching `predicate`.
  public static prefix func ! (predicate: Self) -> Self {
    if case .problem = predicate.node { return predicate }
    guard predicate.depth < PredicateLimits.depth else { return tooDeep }
    return Self(.not(predicate), depth: predicate.depth + 1, conditions: predicate.conditions)
  }

  /// `lhs && rhs` or `lhs || rhs`: one chain of the operands of both when they are chains of
  /// the same operator. Appending to a chain that nothing has appended to yet (`p = p || q` in
  /// a loop) shares its storage, so a chain of n operands is built in O(n).
  private static func joining(_ lhs: Self, _ rhs: Self, isAnd: Bool) -> Self {
    if case .problem = lhs.node { return lhs }
    if case .problem = rhs.node { return rhs }
    let conditions = lhs.conditions + rhs.conditions
    guard conditions <= PredicateLimits.conditions else {
      return Self(
        problem: "the predicate holds more than \(PredicateLimits.conditions) conditions; "
          + "match many values of one property with .in(_:_:)")
    }
    // The level of the chain: one more than its deepest operand.
    let depth = max(lhs.levelIn(chainOf: isAnd), rhs.levelIn(chainOf: isAnd))
    guard depth <= PredicateLimits.depth else { return tooDeep }
    let operands = rhs.operands(inChainOf: isAnd)
    if case .chain(let chain, let count) = lhs.node, chain.isAnd == isAnd {
      let (joined, total) = chain.appending(operands, to: count)
      return Self(.chain(joined, total), depth: depth, conditions: conditions)
    }
    let chain = PredicateChain(isAnd: isAnd, operands: [lhs] + operands)
    return Self(.chain(chain, 1 + operands.count), depth: depth, conditions: conditions)
  }

  /// The depth of a chain of `isAnd` holding this predicate's operands (its own, when it is
  /// such a chain).
  private func levelIn(chainOf isAnd: Bool) -> Int {
    if case .chain(let chain, _) = node, chain.isAnd == isAnd { return depth }
    return depth + 1
  }

  /// The operands this predicate adds to a chain of `isAnd`.
  private func operands(inChainOf isAnd: Bool) -> [Self] {
    if case .chain(let chain, let count) = node, chain.isAnd == isAnd {
      return chain.operands(count)
    }
    return [self]
  }

  private static var tooDeep: Self {
    Self(problem: "the predicate nests deeper than \(PredicateLimits.depth) levels")
  }
}

/// The limits of a ``StorePredicate``.
enum PredicateLimits {
  /// The deepest nesting a predicate may have. SQLite's parser has a small stack (100 entries
  /// in SQLite 3.40, Debian 12's): 85 nested parentheses at most, fewer for operands after the
  /// first of a chain. The SQL of a predicate writes its deepest operand first and a `!` as
  /// `(… IS NOT 1)`, one parenthesis per level, so 32 levels leave a wide margin.
  static let depth = 32
  /// The most comparisons a predicate may hold. SQLite compiles a statement in time quadratic
  /// in its comparisons (it compares each bound constant with those already factored out of the
  /// loop, and looks numbered parameters up in a list): measured on SQLite 3.40, 8,000
  /// comparisons took 0.4 s to prepare and 16,000 took 1.6 s. 4,096 keep a statement's
  /// preparation near 0.1 s, far under SQLite's limit of bound values (32,766); `.in(_:_:)`
  /// matches any number of values of one property as one comparison.
  static let conditions = 4_096
}

/// What a ``StorePredicate`` is.
private enum PredicateNode<Object: Sendable>: Sendable {
  /// A comparison, resolved with an entity's mapping.
  case comparison(@Sendable (StoreEntity<Object>) throws(StoreError) -> StoreCondition)
  /// The first `count` operands of a chain.
  case chain(PredicateChain<Object>, Int)
  indirect case not(StorePredicate<Object>)
  /// An operator went beyond a limit: why (the operands are dropped).
  case problem(String)
}

/// The operands of a chain of `&&` (or of `||`), shared by the predicates that hold a prefix of
/// them: a predicate holding all of them appends in place, the others copy their prefix.
private final class PredicateChain<Object: Sendable>: Sendable {
  let isAnd: Bool
  private let storage: Locked<[StorePredicate<Object>]>

  init(isAnd: Bool, operands: [StorePredicate<Object>]) {
    self.isAnd = isAnd
    storage = Locked(operands)
  }

  /// The first `count` operands.
  func operands(_ count: Int) -> [StorePredicate<Object>] {
    storage.withLock { Array($0.prefix(count)) }
  }

  /// The first `count` operands followed by `more`: this chain when it holds exactly `count`
  /// (nothing appended after them yet), else a copy.
  func appending(_ more: [StorePredicate<Object>], to count: Int) -> (PredicateChain, Int) {
    let appended = storage.withLock { operands in
      guard operands.count == count else { return false }
      operands += more
      return true
    }
    if appended { return (self, count + more.count) }
    return (PredicateChain(isAnd: isAnd, operands: operands(count) + more), count + more.count)
  }
}

/// `value` as `field` writes it, or the error naming the key path.
private func written<Object, Value>(
  _ value: Value, _ field: _StoreField<Value>, _ keyPath: KeyPath<Object, Value>,
  _ entity: StoreEntity<Object>
) throws(StoreError) -> Node? {
  do {
    // A written `null` is no value: it compares as null or absent.
    guard let node = try field.node(for: value), node != .null else { return nil }
    return node
  } catch {
    throw StoreError(
      .unwritableValue(entity: entity.name, keyPath: _describe(keyPath), errors: error))
  }
}

// MARK: - Operators on key paths

/// The objects whose property at `keyPath` equals `value` (`nil`: null or absent).
public func == <Object, Value: Equatable & Sendable>(
  keyPath: KeyPath<Object, Value> & Sendable, value: Value
) -> StorePredicate<Object> {
  .comparing(keyPath, value) { .equal($0, $1) }
}

/// The objects whose property at `keyPath` differs from `value` (null and absent differ from
/// any value but `nil`).
public func != <Object, Value: Equatable & Sendable>(
  keyPath: KeyPath<Object, Value> & Sendable, value: Value
) -> StorePredicate<Object> {
  .comparing(keyPath, value) { .notEqual($0, $1) }
}

/// The objects whose property at `keyPath` is less than `value`.
public func < <Object, Value: Comparable & Sendable>(
  keyPath: KeyPath<Object, Value> & Sendable, value: Value
) -> StorePredicate<Object> {
  .comparing(keyPath, value) { .compare($0, .less, $1 ?? .null) }
}

/// The objects whose property at `keyPath` is less than or equal to `value`.
public func <= <Object, Value: Comparable & Sendable>(
  keyPath: KeyPath<Object, Value> & Sendable, value: Value
) -> StorePredicate<Object> {
  .comparing(keyPath, value) { .compare($0, .lessOrEqual, $1 ?? .null) }
}

/// The objects whose property at `keyPath` is greater than `value`.
public func > <Object, Value: Comparable & Sendable>(
  keyPath: KeyPath<Object, Value> & Sendable, value: Value
) -> StorePredicate<Object> {
  .comparing(keyPath, value) { .compare($0, .greater, $1 ?? .null) }
}

/// The objects whose property at `keyPath` is greater than or equal to `value`.
public func >= <Object, Value: Comparable & Sendable>(
  keyPath: KeyPath<Object, Value> & Sendable, value: Value
) -> StorePredicate<Object> {
  .comparing(keyPath, value) { .compare($0, .greaterOrEqual, $1 ?? .null) }
}

/// A condition on payload keys: a ``StorePredicate`` translated through an entity's mapping.
/// Stores translate it to their own query language; ``SQLiteStore`` to SQL on `json_extract`.
///
/// Paths are payload keys from the stored object (`["author", "name"]`); values are written as
/// the mapping writes them (`nil`: the mapping writes nothing, which matches null and absent).
public indirect enum StoreCondition: Sendable, Equatable {
  /// The value at the path equals the node (`nil`: the path is null or absent).
  case equal([String], Node?)
  /// The value at the path differs from the node (null and absent differ from every value).
  case notEqual([String], Node?)
  /// The value at the path compares to the node as said (null and absent never match).
  case compare([String], StoreComparison, Node)
  /// The value at the path equals one of the nodes.
  case oneOf([String], [Node])
  /// Every condition holds (none: every object).
  case and([StoreCondition])
  /// One of the conditions holds (none: no object).
  case or([StoreCondition])
  /// The condition does not hold.
  case not(StoreCondition)
}

/// An ordering comparison in a ``StoreCondition``.
public enum StoreComparison: Sendable, Equatable {
  /// `<`
  case less
  /// `<=`
  case lessOrEqual
  /// `>`
  case greater
  /// `>=`
  case greaterOrEqual
}

/// One key of a fetch's ordering.
///
/// ```swift
/// try await store.fetch(articles, orderBy: [.descending(\.publishedAt), .ascending(\.title)])
/// ```
public struct StoreOrder<Object: Sendable>: Sendable {
  private let keyPath: AnyKeyPath & Sendable
  private let ascending: Bool

  /// Smallest first (numbers by value, text by UTF-8 bytes; null and absent first).
  ///
  /// - Parameter keyPath: A property an attribute writes.
  /// - Returns: The ordering key.
  public static func ascending<Value>(_ keyPath: KeyPath<Object, Value> & Sendable) -> Self {
    Self(keyPath: keyPath, ascending: true)
  }

  /// Largest first (null and absent last).
  ///
  /// - Parameter keyPath: A property an attribute writes.
  /// - Returns: The ordering key.
  public static func descending<Value>(_ keyPath: KeyPath<Object, Value> & Sendable) -> Self {
    Self(keyPath: keyPath, ascending: false)
  }

  /// The ordering on payload keys, with `entity`'s mapping.
  ///
  /// - Throws: ``StoreError`` for a key path the mapping does not write.
  public func resolved(for entity: StoreEntity<Object>) throws(StoreError) -> StoreOrdering {
    StoreOrdering(path: try entity.path(keyPath), ascending: ascending)
  }
}

/// One key of an ordering on payload keys (a resolved ``StoreOrder``).
public struct StoreOrdering: Sendable, Equatable {
  /// The payload keys.
  public var path: [String]
  /// Smallest first.
  public var ascending: Bool

  /// Creates an ordering key.
  public init(path: [String], ascending: Bool) {
    self.path = path
    self.ascending = ascending
  }
}
