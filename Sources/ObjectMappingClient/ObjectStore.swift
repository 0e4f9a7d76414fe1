import Foundation
import ObjectMapping

/// An identity map: one instance per model type and identity, so that loading the same record
/// twice updates the instance the app already holds (RestKit's primary keys, without Core
/// Data).
///
/// ``InMemoryObjectStore`` keeps instances for the life of the store. To persist them, conform a
/// class of your own: look instances up in your database in ``object(of:id:)``, write them in
/// ``insert(_:of:id:)``, delete in ``remove(of:id:)``, and list a type's identities in
/// ``ids(of:)`` for orphan detection.
///
/// **Concurrency.** A store is not `Sendable`, and the loads that use it
/// (``ObjectManager/getCollection(_:query:mapping:rootKey:headers:limits:store:identity:orphans:)``)
/// run their mapping in the caller's isolation. The compiler therefore keeps a store, and the
/// instances it holds, in one isolation domain — typically the main actor, where your views
/// read them: no load can write into an instance while another task reads it, and two loads
/// never interleave between looking an identity up and inserting it.
public protocol ObjectStore: AnyObject {
  /// The instance of `type` with identity `id`, if the store has one.
  func object(of type: Any.Type, id: String) -> AnyObject?
  /// Keeps `object` as the instance of `type` with identity `id`.
  func insert(_ object: AnyObject, of type: Any.Type, id: String)
  /// Forgets the instance of `type` with identity `id`.
  func remove(of type: Any.Type, id: String)
  /// The identities of the stored instances of `type`.
  func ids(of type: Any.Type) -> Set<String>
}

/// An ``ObjectStore`` in memory.
///
/// ```swift
/// @MainActor final class NotesModel {
///   let store = InMemoryObjectStore()
///   var notes: [Note] = []
///
///   func refresh(with manager: ObjectManager) async throws {
///     // noteMapping is identified(by: \.id)
///     let load = try await manager.getCollection("/notes", mapping: noteMapping, store: store)
///     notes = load.objects     // the same instances as before, updated on the main actor
///   }
/// }
/// ```
public final class InMemoryObjectStore: ObjectStore {
  private var objects: [ObjectIdentifier: [String: AnyObject]] = [:]

  /// An empty store.
  public init() {}

  /// The instance of `type` with identity `id`, if the store has one.
  public func object(of type: Any.Type, id: String) -> AnyObject? {
    objects[ObjectIdentifier(type)]?[id]
  }

  /// Keeps `object` as the instance of `type` with identity `id`.
  public func insert(_ object: AnyObject, of type: Any.Type, id: String) {
    objects[ObjectIdentifier(type), default: [:]][id] = object
  }

  /// Forgets the instance of `type` with identity `id`.
  public func remove(of type: Any.Type, id: String) {
    objects[ObjectIdentifier(type)]?.removeValue(forKey: id)
  }

  /// The identities of the stored instances of `type`.
  public func ids(of type: Any.Type) -> Set<String> {
    Set(objects[ObjectIdentifier(type)]?.keys ?? [:].keys)
  }
}

/// What a collection load through an ``ObjectStore`` gives.
public struct CollectionLoad<Object> {
  /// The loaded objects, in payload order: the stored instances, updated, and the new ones.
  public var objects: [Object]
  /// The stored instances the response no longer has, ordered by identity.
  public var orphans: [Object]
}

extension CollectionLoad: Sendable where Object: Sendable {}

/// What a collection load does with stored instances the response no longer lists.
public enum OrphanPolicy: Sendable {
  /// Report them in ``CollectionLoad/orphans`` and keep them in the store.
  case keep
  /// Report them and remove them from the store.
  case remove
}

extension ObjectManager {
  /// The collection at `path`, each element mapped onto the instance `store` holds for its
  /// identity (or mapped new and stored): loading the same records again updates the same
  /// instances.
  ///
  /// ```swift
  /// let noteMapping = Mapping(Note.init) {
  ///   Attribute("id", \.id)
  ///   Attribute("title", \.title)
  /// }.identified(by: \.id)
  ///
  /// let store = InMemoryObjectStore()
  /// let first = try await manager.getCollection("/notes", mapping: noteMapping, store: store)
  /// let again = try await manager.getCollection(
  ///   "/notes", mapping: noteMapping, store: store, orphans: .remove)
  /// again.objects[0] === first.objects[0]      // the same instance, updated
  /// ```
  ///
  /// - **Transactional.** Every element is mapped first (onto its stored instance without
  ///   changing it, or new); only when all of them mapped are the updates applied, the new
  ///   instances inserted and orphans removed. When any element fails, the store and every
  ///   instance in it are exactly as they were, and the error lists each failing element's
  ///   problems under its index (`/2/title: …`).
  /// - **Shapes.** The body is what ``getCollection(_:query:mapping:rootKey:headers:limits:)``
  ///   accepts — an array, or a single object as a collection of one — at `rootKey` if given: a
  ///   key path into the payload that also reaches into every element of an array
  ///   (`"humans"` for `{"humans": [...]}`, `"human"` for `[{"human": {...}}, ...]`).
  /// - **Identity.** When the mapping declares one (``Mapping/identified(by:)``), each
  ///   element's identity is read from the payload by the identity rule, as merges read it (its
  ///   key, transform and coercion), before any model is made: a stored instance is updated
  ///   without making a model, and the user's initializer runs once per new element only. The
  ///   store key is the identity as `"\(id)"` spells it (`"42"`, `"ann"`), and `identity` is
  ///   not called: the mapping's identity wins. A mapping without an identity needs
  ///   `identity`, which reads the identity of the element mapped as a new object (else the
  ///   load throws an `invalidDefinition` error). No identity (an absent, `null` or
  ///   unconvertible id, or a closure returning `nil`) means a new object every time, never
  ///   matched with another element or a stored instance (RestKit matched missing ids to each
  ///   other), and not stored. The same identity twice in one response is one instance: each
  ///   element's values are applied in payload order.
  /// - **Isolation.** The mapping runs in the caller's isolation (`nonisolated(nonsending)`):
  ///   see ``ObjectStore``. Two loads into one store from the same actor each apply their
  ///   whole response before the other can look anything up, so a new identity both bring is
  ///   inserted once.
  ///
  /// - Parameters:
  ///   - path: The path under ``baseURL``.
  ///   - query: Query items.
  ///   - mapping: Maps each element.
  ///   - rootKey: A key path the elements are under, or `nil`.
  ///   - headers: Header fields for this request.
  ///   - limits: Limits for this request, when not ``limits``.
  ///   - store: The identity map.
  ///   - identity: For a mapping without ``Mapping/identified(by:)``: an object's identity (its
  ///     primary key as text), or `nil` for none. Not called when the mapping declares an
  ///     identity.
  ///   - orphans: Whether stored instances the response no longer lists are removed.
  /// - Returns: The objects in payload order, and the orphans.
  /// - Throws: ``ObjectManagerError``; the store is unchanged.
  nonisolated(nonsending)
    public func getCollection<M: MappingProtocol>(
      _ path: String, query: Query = [:], mapping: M, rootKey: String? = nil,
      headers: HeaderFields = [:], limits: RequestLimits? = nil,
      store: some ObjectStore, identity: ((M.Object) -> String?)? = nil,
      orphans: OrphanPolicy = .keep
    ) async throws(ObjectManagerError) -> CollectionLoad<M.Object> where M.Object: AnyObject
  {
    let response = try await send(.get, path, query: query, headers: headers, limits: limits)
    return try Self.load(
      response, mapping: mapping, keyPath: rootKey, store: store, identity: identity,
      orphans: orphans)
  }

  /// The collection at `path`, mapped by the ``provider``'s route named `route` (at its key
  /// path), each element merged into `store` as
  /// ``getCollection(_:query:mapping:rootKey:headers:limits:store:identity:orphans:)`` does.
  ///
  /// ```swift
  /// let provider = MappingProvider { Route("humans", humanMapping, name: "humans") }
  /// let load = try await manager.getCollection(
  ///   "/people", route: "humans", as: Human.self, store: store)  // humanMapping.identified(by:)
  /// ```
  ///
  /// - Parameters:
  ///   - path: The path under ``baseURL``.
  ///   - query: Query items.
  ///   - route: The name of a route of ``provider`` whose mapping makes `type`.
  ///   - type: The model type.
  ///   - headers: Header fields for this request.
  ///   - limits: Limits for this request, when not ``limits``.
  ///   - store: The identity map.
  ///   - identity: For a route whose mapping has no ``Mapping/identified(by:)``: an object's
  ///     identity, or `nil` for none. Not called when the mapping declares an identity.
  ///   - orphans: Whether stored instances the response no longer lists are removed.
  /// - Returns: The objects in payload order, and the orphans.
  /// - Throws: ``ObjectManagerError``: ``ObjectManagerError/noRoute(_:)`` when the provider has
  ///   no such route for `type`; the store is unchanged on any error.
  nonisolated(nonsending)
    public func getCollection<Object: AnyObject>(
      _ path: String, query: Query = [:], route: String, as type: Object.Type,
      headers: HeaderFields = [:], limits: RequestLimits? = nil,
      store: some ObjectStore, identity: ((Object) -> String?)? = nil,
      orphans: OrphanPolicy = .keep
    ) async throws(ObjectManagerError) -> CollectionLoad<Object>
  {
    guard let provider, let mapping = provider.mapping(named: route, as: Object.self) else {
      throw .noRoute("the provider route named \"\(route)\" for \(Object.self)")
    }
    // A route reads its key path; a mapping registered by name only reads the whole body.
    let keyPath = provider.routes.first { $0.name == route }?.keyPath
    let response = try await send(.get, path, query: query, headers: headers, limits: limits)
    return try Self.load(
      response, mapping: mapping, keyPath: keyPath, store: store,
      identity: identity, orphans: orphans)
  }

  /// Maps `response` into `store` (see the store-backed `getCollection`).
  ///
  /// With a mapping that declares an identity, each element's identity is read from the
  /// payload first (as the mapping's merges read it, no model made): a stored instance (or one
  /// inserted earlier in this response) gets the element staged onto it, only a new identity is
  /// mapped as a new object, and the element is read once. Without one, each element is mapped
  /// new and `identity` reads the object (as before issue 37).
  private static func load<M: MappingProtocol>(
    _ response: Response, mapping: M, keyPath: String?, store: some ObjectStore,
    identity: ((M.Object) -> String?)?, orphans: OrphanPolicy
  ) throws(ObjectManagerError) -> CollectionLoad<M.Object> where M.Object: AnyObject {
    let document = try response.node(at: keyPath?.isEmpty == true ? nil : keyPath)
    let elements: [Node]
    if case .array(let array) = document { elements = array } else { elements = [document] }
    let options = response.mappingOptions(at: keyPath)
    let type = M.Object.self
    let readsPayloadIdentity = mapping.declaresIdentity
    guard readsPayloadIdentity || identity != nil else {
      throw .mapping(
        MappingErrors([MappingError(.invalidDefinition(message: Self.noIdentity(M.Object.self)))]),
        status: response.statusCode)
    }

    var steps: [StoreStep<M.Object>] = []
    var inserted: [String: M.Object] = [:]
    var seen: Set<String> = []
    var errors: [MappingError] = []
    var omitted = 0
    for (index, element) in elements.enumerated() {
      do throws(MappingErrors) {
        if readsPayloadIdentity {
          // The identity read from the payload first: one mapping per element, new or staged.
          let mapped = try mapping.mapIdentified(element, with: options) { id in
            let key = Self.storeKey(id)
            return inserted[key] ?? store.object(of: type, id: key) as? M.Object
          }
          switch mapped {
          case .new(let object, id: nil):
            steps.append(.unidentified(object))
          case .new(let object, id: let id?):
            let key = Self.storeKey(id)
            seen.insert(key)
            inserted[key] = object
            steps.append(.insert(object, id: key))
          case .update(var object, let update, let id):
            let key = Self.storeKey(id)
            seen.insert(key)
            if inserted[key] != nil {
              // Not in the store yet: updated in place, dropped with the rest if anything fails.
              update.apply(to: &object)
              steps.append(.repeated(object))
            } else {
              steps.append(.update(object, update))
            }
          }
          continue
        }
        // A mapping without an identity: the element mapped new, its identity read from it.
        let fresh = try mapping.map(element, with: options)
        guard let id = identity?(fresh) else {
          steps.append(.unidentified(fresh))
          continue
        }
        seen.insert(id)
        if var earlier = inserted[id] {
          // Not in the store yet: updated in place, dropped with the rest if anything fails.
          try mapping.map(element, onto: &earlier, with: options)
          steps.append(.repeated(earlier))
        } else if let stored = store.object(of: type, id: id) as? M.Object {
          steps.append(
            .update(stored, try mapping.stageUpdate(element, onto: stored, with: options)))
        } else {
          inserted[id] = fresh
          steps.append(.insert(fresh, id: id))
        }
      } catch {
        for var problem in error.errors {
          guard errors.count < options.resolvedErrorLimit else {
            omitted += 1
            continue
          }
          problem.path = "/\(index)" + problem.path
          errors.append(problem)
        }
        omitted += error.omittedCount
      }
    }
    guard errors.isEmpty, omitted == 0 else {
      throw .mapping(MappingErrors(errors, omittedCount: omitted), status: response.statusCode)
    }

    // Every element mapped: apply.
    var objects: [M.Object] = []
    objects.reserveCapacity(steps.count)
    for step in steps {
      switch step {
      case .update(var object, let update):
        update.apply(to: &object)
        objects.append(object)
      case .insert(let object, let id):
        store.insert(object, of: type, id: id)
        objects.append(object)
      case .repeated(let object), .unidentified(let object):
        objects.append(object)
      }
    }
    var orphaned: [M.Object] = []
    for id in store.ids(of: type).subtracting(seen).sorted() {
      guard let orphan = store.object(of: type, id: id) as? M.Object else { continue }
      orphaned.append(orphan)
      if case .remove = orphans { store.remove(of: type, id: id) }
    }
    return CollectionLoad(objects: objects, orphans: orphaned)
  }

  /// The store's key for a mapping's identity: the value as `"\(value)"` spells it (`"42"`,
  /// `"ann"`, a UUID's `uuidString`), the same key an `identity: { "\($0.id)" }` closure gave.
  static func storeKey(_ identity: AnyHashable) -> String {
    String(describing: identity.base)
  }

  /// The problem of a store-backed load with no identity at all.
  private static func noIdentity(_ type: Any.Type) -> String {
    "a store-backed load of \(type) needs an identity: declare identified(by:) on the mapping "
      + "or pass identity:"
  }
}

/// What a store-backed load does with one element once every element mapped.
private enum StoreStep<Object> {
  /// Apply the staged writes to the stored instance.
  case update(Object, StagedUpdate<Object>)
  /// Insert the new instance.
  case insert(Object, id: String)
  /// An identity seen earlier in the response: the instance made for it.
  case repeated(Object)
  /// An element without an identity: a new instance, not stored.
  case unidentified(Object)
}
