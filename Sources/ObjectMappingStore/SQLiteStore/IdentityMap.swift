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

  /// By entity name, then by identity (compared by bytes, as SQLite compares them).
  private var entries: [String: [IdentityKey: Entry]] = [:]
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
      guard let entry = known[IdentityKey(row.id)], let object = entry.object as? Object else {
        return .none
      }
      return entry.generation == row.generation ? .current(object) : .stale
    }
  }

  /// Maps `row` onto the live instance of its identity (if it is still alive and older), and
  /// gives the instance; `nil` when it died meanwhile. Done here, so that two fetches never
  /// write one instance at once.
  func refresh<Object: Sendable>(
    _ row: StoredRow, entity: StoreEntity<Object>
  ) -> Result<Object, UnmappableRow>? {
    let key = IdentityKey(row.id)
    guard let entry = entries[entity.name]?[key], var object = entry.object as? Object else {
      return nil
    }
    guard entry.generation < row.generation else { return .success(object) }
    do {
      try entity.map(payload: row.payload, onto: &object, id: row.id)
    } catch {
      return .failure(error)
    }
    entries[entity.name]?[key]?.generation = row.generation
    return .success(object)
  }

  /// Registers freshly mapped instances; where another live instance of an identity reflects
  /// the same or a newer row (a fetch running beside this one registered it), that one is
  /// given instead.
  func register<Object: Sendable>(
    _ objects: [(id: String, generation: Int64, object: Object)], entity: String
  ) -> [Object] {
    var added = 0
    let results = Self.update(&entries[entity, default: [:]]) { known in
      objects.map { item -> Object in
        let key = IdentityKey(item.id)
        if let entry = known[key], let live = entry.object as? Object,
          entry.generation >= item.generation
        {
          return live
        }
        if known[key] == nil { added += 1 }
        known[key] = Entry(object: item.object as AnyObject, generation: item.generation)
        return item.object
      }
    }
    count += added
    sweepIfNeeded()
    return results
  }

  /// Makes saved instances the live ones of their identities, at the generation they were
  /// saved with.
  func saved<Object: Sendable>(
    _ objects: [(id: String, object: Object)], generation: Int64, entity: String
  ) {
    var added = 0
    Self.update(&entries[entity, default: [:]]) { known in
      for item in objects {
        let key = IdentityKey(item.id)
        if known[key] == nil { added += 1 }
        known[key] = Entry(object: item.object as AnyObject, generation: generation)
      }
    }
    count += added
    sweepIfNeeded()
  }

  /// Forgets the instances of deleted identities.
  func remove(_ ids: [String], entity: String) {
    for id in ids where entries[entity]?.removeValue(forKey: IdentityKey(id)) != nil {
      count -= 1
    }
  }

  /// Forgets every instance of `entity` (its rows were rewritten or deleted).
  func removeAll(entity: String) {
    count -= entries[entity]?.count ?? 0
    entries[entity] = nil
  }

  /// Runs `body` on an entity's entries in place. Copying them out and back (`var known =
  /// entries[entity]`) copied the whole dictionary on every call while the actor still held
  /// it: saving or fetching one object at a time took quadratic time.
  @discardableResult
  private static func update<Result>(
    _ known: inout [IdentityKey: Entry], _ body: (inout [IdentityKey: Entry]) -> Result
  ) -> Result {
    body(&known)
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
