import Foundation
import ObjectMapping
import ObjectMappingClient

extension ObjectManager {
  /// The collection at `path`, loaded into a persistent store in one transaction: each element
  /// is mapped onto the object the store holds for its identity (or mapped new), then every
  /// object is saved, and orphans in the rule's scope are reported or removed (RestKit's object
  /// store with its fetch-request blocks).
  ///
  /// ```swift
  /// let store = try SQLiteStore(path: databasePath)
  /// let articles = StoreEntity("Article", mapping: articleMapping)   // identified(by: \.id)
  /// let load = try await manager.getCollection(
  ///   "/articles", entity: articles, store: store, orphans: .remove())
  /// load.objects     // the articles, as now stored (the live instances, for a class)
  /// load.orphans     // the stored articles the server no longer lists, now deleted
  ///
  /// // Comments of article 7: only those are in the orphan scope.
  /// try await manager.getCollection(
  ///   "/articles/7/comments", entity: comments, store: store,
  ///   orphans: .remove(in: \.articleID == 7))
  /// ```
  ///
  /// - **All or nothing.** A status outside 200–299, a body that cannot be read (cut short,
  ///   malformed, of a type no format reads), any element that does not map and any database
  ///   failure leave the database as it was, and the store's live instances with the values
  ///   they had. Mapping errors list each failing element's problems under its index
  ///   (`/2/title: …`), as the in-memory identity store's loads do.
  /// - **Onto what is stored.** An element whose identity is stored is mapped onto the stored
  ///   object, so keys the response leaves out keep their stored values; for a class, onto the
  ///   store's live instance (``SQLiteStore`` keeps one per identity while it is alive), so
  ///   views holding it see the update. The same identity twice in one response is one object:
  ///   its elements are applied in payload order.
  /// - **Identity.** The mapping's ``Mapping/identified(by:)`` property is the key. An element
  ///   whose identity is `nil` is a new object every time: it is in the result but not saved,
  ///   since a row needs a key.
  /// - **Concurrency.** The request runs concurrently with other loads; mapping and saving are
  ///   serialized per store and entity, so two loads bringing the same new identity insert it
  ///   once and give the same instance.
  /// - **Shapes.** The body is an array or a single object (a collection of one), at `rootKey`
  ///   if given, as ``ObjectManager/getCollection(_:query:mapping:rootKey:headers:limits:)``
  ///   reads it.
  ///
  /// - Parameters:
  ///   - path: The path under ``ObjectManager/baseURL``.
  ///   - query: Query items.
  ///   - entity: The entity: the mapping of each element, and the name its rows are stored under.
  ///   - rootKey: A key path the elements are under, or `nil`.
  ///   - headers: Header fields for this request.
  ///   - limits: Limits for this request, when not ``ObjectManager/limits``.
  ///   - store: The persistent store (``SQLiteStore`` or your own ``PersistentStore``).
  ///   - orphans: Which stored objects the response speaks for, and whether those it does not
  ///     list are removed; `nil`: none are looked for.
  /// - Returns: The objects in payload order, the orphans and orphan rows that do not map.
  /// - Throws: ``StoreLoadError``: ``StoreLoadError/manager(_:)`` for the request, the response
  ///   or the mapping, ``StoreLoadError/store(_:)`` for the database; nothing was changed.
  @discardableResult
  public func getCollection<Object>(
    _ path: String, query: Query = [:], entity: StoreEntity<Object>, rootKey: String? = nil,
    headers: HeaderFields = [:], limits: RequestLimits? = nil,
    store: some PersistentStore, orphans: OrphanRule<Object>? = nil
  ) async throws(StoreLoadError) -> StoreLoad<Object> {
    do {
      try entity.checkIdentified()
    } catch {
      throw .store(error)
    }
    let response: Response
    do {
      response = try await send(.get, path, query: query, headers: headers, limits: limits)
    } catch {
      throw .manager(error)
    }
    return try await PersistentLoad.run(
      response, entity: entity, keyPath: rootKey, store: store, orphans: orphans)
  }
}

/// Why a load into a persistent store failed; nothing was changed.
///
/// ```swift
/// do {
///   try await manager.getCollection("/articles", entity: articles, store: store)
/// } catch .manager(let error) {
///   // the request, the status, the body or the mapping (ObjectManagerError)
/// } catch .store(let error) {
///   // the database (StoreError): full, read-only, busy, …
/// }
/// ```
public enum StoreLoadError: Error, Sendable, CustomStringConvertible {
  /// The request, the response's status or body, or mapping the elements failed.
  case manager(ObjectManagerError)
  /// The store failed.
  case store(StoreError)

  /// The manager's or the store's message.
  public var description: String {
    switch self {
    case .manager(let error): error.description
    case .store(let error): error.description
    }
  }
}

/// The steps of a load into a persistent store, after the response arrived.
enum PersistentLoad {
  static func run<Object>(
    _ response: ObjectManager.Response, entity: StoreEntity<Object>, keyPath: String?,
    store: some PersistentStore, orphans: OrphanRule<Object>?
  ) async throws(StoreLoadError) -> StoreLoad<Object> {
    let document: Node
    do {
      document = try response.node(at: keyPath?.isEmpty == true ? nil : keyPath)
    } catch {
      throw .manager(error)
    }
    let elements: [Node]
    if case .array(let array) = document { elements = array } else { elements = [document] }
    let options = response.mappingOptions(at: keyPath)

    // Each element's identity, from the element mapped new; a failing element is reported
    // with its index, and the load stops before touching the store.
    var fresh: [Object] = []
    var ids: [String?] = []
    var errors = ElementErrors(limit: options.resolvedErrorLimit)
    for (index, element) in elements.enumerated() {
      do throws(MappingErrors) {
        let object = try entity.mapping.map(element, with: options)
        fresh.append(object)
        ids.append(entity.mapping._storeIdentity(of: object).map(StoreEntity<Object>.identityText))
      } catch {
        errors.add(error, at: index)
      }
    }
    try errors.check(status: response.statusCode)

    let key = LoadGate.key(store: store, entity: entity.name)
    await LoadGate.shared.enter(key)
    do throws(StoreLoadError) {
      let load = try await merge(
        elements, fresh: fresh, ids: ids, options: options, status: response.statusCode,
        entity: entity, store: store, orphans: orphans)
      await LoadGate.shared.leave(key)
      return load
    } catch {
      await LoadGate.shared.leave(key)
      throw error
    }
  }

  /// Maps the elements onto the stored objects, saves them with the orphan rule, and undoes the
  /// writes to live instances when the store fails. Runs inside the load gate.
  private static func merge<Object>(
    _ elements: [Node], fresh: [Object], ids texts: [String?], options: MappingOptions,
    status: Int, entity: StoreEntity<Object>, store: some PersistentStore,
    orphans: OrphanRule<Object>?
  ) async throws(StoreLoadError) -> StoreLoad<Object> {
    // Identities compare by bytes, as the store compares them (not by canonical equivalence).
    let ids = texts.map { $0.map(IdentityKey.init) }
    var unique: [IdentityKey] = []
    var seen: Set<IdentityKey> = []
    for case let id? in ids where seen.insert(id).inserted { unique.append(id) }

    // The stored objects (for a class, the store's live instances); rows that do not map are
    // replaced by the response's element.
    var stored: [IdentityKey: Object] = [:]
    do {
      for object in try await store.fetch(entity, ids: unique.map(\.text)).objects {
        stored[IdentityKey(try entity.identity(of: object))] = object
      }
    } catch {
      throw .store(error)
    }

    let isClass = Object.self is AnyObject.Type
    // For a stored class instance, the elements are mapped onto a detached copy (a new instance
    // with its values), so that nothing live changes before every element mapped.
    var working: [IdentityKey: Object] = [:]
    var snapshots: [IdentityKey: [UInt8]] = [:]
    if isClass {
      for id in unique {
        guard let live = stored[id] else { continue }
        let payload: [UInt8]
        do {
          payload = try entity.payload(of: live)
        } catch {
          throw .store(error)
        }
        snapshots[id] = payload
        // A live instance whose values no longer map is replaced by the element.
        working[id] = try? entity.object(fromPayload: payload, id: id.text)
        if working[id] == nil { stored[id] = nil }
      }
    } else {
      working = stored
    }

    var errors = ElementErrors(limit: options.resolvedErrorLimit)
    for (index, element) in elements.enumerated() {
      guard let id = ids[index] else { continue }
      do throws(MappingErrors) {
        if var object = working[id] {
          try entity.mapping.map(element, onto: &object, with: options)
          working[id] = object
        } else {
          working[id] = fresh[index]
        }
      } catch {
        errors.add(error, at: index)
      }
    }
    try errors.check(status: status)

    // Every element mapped: stage the copies' values onto the live instances, then apply.
    var staged: [(id: IdentityKey, update: StagedUpdate<Object>)] = []
    if isClass {
      for id in unique {
        guard let live = stored[id], let copy = working[id] else { continue }
        let payload: [UInt8]
        do {
          payload = try entity.payload(of: copy)
        } catch {
          throw .store(error)
        }
        do throws(MappingErrors) {
          staged.append((id, try entity.mapping.stageUpdate(payload, onto: live, with: .none)))
        } catch {
          throw .manager(.mapping(error, status: status))
        }
      }
      for (id, update) in staged {
        guard var live = stored[id] else { continue }
        update.apply(to: &live)
        working[id] = live
      }
    }

    let saving = unique.compactMap { working[$0] }
    let load: StoreLoad<Object>
    do {
      load = try await store.load(saving, into: entity, orphans: orphans)
    } catch {
      // Put the live instances back as they were.
      for (id, _) in staged {
        guard var live = stored[id], let payload = snapshots[id] else { continue }
        try? entity.mapping.map(payload, onto: &live)
      }
      throw .store(error)
    }
    var objects: [Object] = []
    objects.reserveCapacity(elements.count)
    for (index, id) in ids.enumerated() {
      if let id, let object = working[id] {
        objects.append(object)
      } else {
        objects.append(fresh[index])
      }
    }
    return StoreLoad(objects: objects, orphans: load.orphans, unmappable: load.unmappable)
  }
}

/// Mapping errors of a load's elements, each path under its element's index, at most the
/// call's error limit in all (``MappingOptions/errorLimit``); the rest are counted.
private struct ElementErrors {
  let limit: Int
  var errors: [MappingError] = []
  var omitted = 0

  mutating func add(_ error: MappingErrors, at index: Int) {
    for var problem in error.errors {
      guard errors.count < limit else {
        omitted += 1
        continue
      }
      problem.path = "/\(index)" + problem.path
      errors.append(problem)
    }
    omitted += error.omittedCount
  }

  func check(status: Int) throws(StoreLoadError) {
    guard errors.isEmpty, omitted == 0 else {
      throw .manager(.mapping(MappingErrors(errors, omittedCount: omitted), status: status))
    }
  }
}

/// Serializes the merge-and-save step of loads into one store and entity, so that two loads
/// never both find an identity missing and both create it.
actor LoadGate {
  static let shared = LoadGate()

  private var held: Set<String> = []
  private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

  /// The key of a store (a class instance by its identity; a value store by its type) and an
  /// entity.
  nonisolated static func key(store: some PersistentStore, entity: String) -> String {
    if type(of: store) is AnyClass {
      return "\(ObjectIdentifier(store as AnyObject)) \(entity)"
    }
    return "\(type(of: store)) \(entity)"
  }

  /// Waits until no other load holds `key`, then holds it.
  func enter(_ key: String) async {
    guard !held.insert(key).inserted else { return }
    await withCheckedContinuation { continuation in
      waiting[key, default: []].append(continuation)
    }
  }

  /// Hands `key` to the next waiting load, or frees it.
  func leave(_ key: String) {
    guard var queue = waiting[key], !queue.isEmpty else {
      held.remove(key)
      return
    }
    let next = queue.removeFirst()
    waiting[key] = queue.isEmpty ? nil : queue
    next.resume()
  }
}
