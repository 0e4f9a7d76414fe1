import ObjectMapping

/// The live class instances of a store, held weakly, by entity and identity, with the
/// generation of the row each reflects: fetching an identity whose instance is alive gives that
/// instance (Core Data's uniquing). Structs never enter it.
///
/// All of its state is the actor's; instances go in and out typed as the entity's `Object`
/// (which is `Sendable`), never as untyped references.
actor IdentityMap {
  private struct Entry {
    weak var object: AnyObject?
    var generation: Int64
  }

  private var entries: [String: [String: Entry]] = [:]
  /// Entries kept after the last sweep of dead ones: the next sweep waits until there are twice
  /// as many, so sweeping costs constant time per registration.
  private var sweepThreshold = 1024
  private var count = 0

  /// What a row finds in the map.
  enum Lookup<Object: Sendable>: Sendable {
    /// A live instance reflecting the row's generation: use it as it is.
    case current(Object)
    /// A live instance reflecting an older row: map the row onto it (``refresh``).
    case stale
    /// No live instance.
    case none
  }

  /// What each of `rows` finds.
  func lookup<Object: Sendable>(
    _ rows: [(id: String, generation: Int64)], entity: String, as: Object.Type
  ) -> [Lookup<Object>] {
    guard let known = entries[entity] else { return rows.map { _ in .none } }
    return rows.map { row in
      guard let entry = known[row.id], let object = entry.object as? Object else { return .none }
      return entry.generation == row.generation ? .current(object) : .stale
    }
  }

  /// Maps `row` onto the live instance of its identity (if it is still alive and older), and
  /// gives the instance; `nil` when it died meanwhile. Done here, so that two fetches never
  /// write one instance at once.
  func refresh<Object: Sendable>(
    _ row: StoredRow, entity: StoreEntity<Object>
  ) -> Result<Object, UnmappableRow>? {
    guard let entry = entries[entity.name]?[row.id], var object = entry.object as? Object else {
      return nil
    }
    guard entry.generation < row.generation else { return .success(object) }
    do {
      try entity.map(payload: row.payload, onto: &object, id: row.id)
    } catch {
      return .failure(error)
    }
    entries[entity.name]?[row.id]?.generation = row.generation
    return .success(object)
  }

  /// Registers freshly mapped instances; where another live instance of an identity reflects
  /// the same or a newer row (a fetch running beside this one registered it), that one is
  /// given instead.
  func register<Object: Sendable>(
    _ objects: [(id: String, generation: Int64, object: Object)], entity: String
  ) -> [Object] {
    var known = entries[entity, default: [:]]
    let results = objects.map { item -> Object in
      if let entry = known[item.id], let live = entry.object as? Object,
        entry.generation >= item.generation
      {
        return live
      }
      if known[item.id] == nil { count += 1 }
      known[item.id] = Entry(object: item.object as AnyObject, generation: item.generation)
      return item.object
    }
    entries[entity] = known
    sweepIfNeeded()
    return results
  }

  /// Makes saved instances the live ones of their identities, at the generation they were
  /// saved with.
  func saved<Object: Sendable>(
    _ objects: [(id: String, object: Object)], generation: Int64, entity: String
  ) {
    var known = entries[entity, default: [:]]
    for item in objects {
      if known[item.id] == nil { count += 1 }
      known[item.id] = Entry(object: item.object as AnyObject, generation: generation)
    }
    entries[entity] = known
    sweepIfNeeded()
  }

  /// Forgets the instances of deleted identities.
  func remove(_ ids: [String], entity: String) {
    for id in ids where entries[entity]?.removeValue(forKey: id) != nil {
      count -= 1
    }
  }

  /// Forgets every instance of `entity` (its rows were rewritten or deleted).
  func removeAll(entity: String) {
    count -= entries[entity]?.count ?? 0
    entries[entity] = nil
  }

  private func sweepIfNeeded() {
    guard count > sweepThreshold else { return }
    for (entity, known) in entries {
      let alive = known.filter { $0.value.object != nil }
      entries[entity] = alive.isEmpty ? nil : alive
    }
    count = entries.values.reduce(0) { $0 + $1.count }
    sweepThreshold = max(1024, count * 2)
  }
}
