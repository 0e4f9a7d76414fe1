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
public struct StorePredicate<Object: Sendable>: Sendable {
  private let resolve: @Sendable (StoreEntity<Object>) throws(StoreError) -> StoreCondition

  private init(
    _ resolve: @escaping @Sendable (StoreEntity<Object>) throws(StoreError) -> StoreCondition
  ) {
    self.resolve = resolve
  }

  /// The condition on payload keys this predicate stands for with `entity`'s mapping: what a
  /// store translates to its own query language.
  ///
  /// - Parameter entity: The entity whose mapping translates the key paths.
  /// - Returns: The condition on payload keys and written values.
  /// - Throws: ``StoreError`` for a key path the mapping does not write, or a value it cannot
  ///   write.
  public func resolved(for entity: StoreEntity<Object>) throws(StoreError) -> StoreCondition {
    try resolve(entity)
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
    Self { entity throws(StoreError) in
      .and([try lhs.resolve(entity), try rhs.resolve(entity)])
    }
  }

  /// The objects matching either.
  public static func || (lhs: Self, rhs: Self) -> Self {
    Self { entity throws(StoreError) in
      .or([try lhs.resolve(entity), try rhs.resolve(entity)])
    }
  }

  /// The objects not matching `predicate`.
  public static prefix func ! (predicate: Self) -> Self {
    Self { entity throws(StoreError) in .not(try predicate.resolve(entity)) }
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
