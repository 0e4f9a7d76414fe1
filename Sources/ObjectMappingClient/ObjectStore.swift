import Foundation
import ObjectMapping

/// An identity map: one instance per model type and identity, so that loading the same record
/// twice updates the instance the app already holds (RestKit's primary keys, without Core
/// Data).
///
/// ``InMemoryObjectStore`` keeps instances for the life of the store. To persist them, conform a
/// type of your own: look instances up in your database in ``object(of:id:)``, write them in
/// ``insert(_:id:)`` (or after the load returns), delete in ``remove(of:id:)``, and list a
/// type's identities in ``ids(of:)`` for orphan detection. Calls come from the manager's tasks;
/// make the store safe to use from several at once (a lock or an actor behind it).
public protocol ObjectStore: AnyObject, Sendable {
  /// The instance of `type` with identity `id`, if the store has one.
  func object(of type: Any.Type, id: String) -> AnyObject?
  /// Keeps `object` as the instance of its type with identity `id`.
  func insert(_ object: AnyObject, id: String)
  /// Forgets the instance of `type` with identity `id`.
  func remove(of type: Any.Type, id: String)
  /// The identities of the stored instances of `type`.
  func ids(of type: Any.Type) -> Set<String>
}

/// An ``ObjectStore`` in memory, safe to share between tasks.
public final class InMemoryObjectStore: ObjectStore, @unchecked Sendable {
  // @unchecked: `objects` is only touched under `lock`.
  private let lock = NSLock()
  private var objects: [ObjectIdentifier: [String: AnyObject]] = [:]

  /// An empty store.
  public init() {}

  public func object(of type: Any.Type, id: String) -> AnyObject? {
    lock.withLock { objects[ObjectIdentifier(type)]?[id] }
  }

  public func insert(_ object: AnyObject, id: String) {
    lock.withLock { objects[ObjectIdentifier(Swift.type(of: object)), default: [:]][id] = object }
  }

  public func remove(of type: Any.Type, id: String) {
    lock.withLock { _ = objects[ObjectIdentifier(type)]?.removeValue(forKey: id) }
  }

  public func ids(of type: Any.Type) -> Set<String> {
    lock.withLock { Set(objects[ObjectIdentifier(type)]?.keys ?? [:].keys) }
  }
}

/// What a collection load through an ``ObjectStore`` gives.
public struct CollectionLoad<Object> {
  /// The loaded objects, in payload order: the stored instances, updated, and the new ones.
  public var objects: [Object]
  /// The stored instances the response no longer has.
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
  /// The array at `path`, each element mapped onto the instance `store` holds for its identity
  /// (or mapped new and stored): loading the same records again updates the same instances.
  ///
  /// ```swift
  /// let store = InMemoryObjectStore()
  /// let first = try await manager.getCollection(
  ///   "/notes", mapping: noteMapping, store: store, identity: { "\($0.id)" })
  /// let again = try await manager.getCollection(
  ///   "/notes", mapping: noteMapping, store: store, identity: { "\($0.id)" }, orphans: .remove)
  /// again.objects[0] === first.objects[0]      // the same instance, updated
  /// ```
  ///
  /// - Parameters:
  ///   - identity: An object's identity (its primary key as text).
  ///   - orphans: Whether stored instances the response no longer lists are removed.
  public func getCollection<M: MappingProtocol>(
    _ path: String, query: Query = [:], mapping: M, headers: [String: String] = [:],
    store: any ObjectStore, identity: @escaping (M.Object) -> String,
    orphans: OrphanPolicy = .keep
  ) async throws(ObjectManagerError) -> CollectionLoad<M.Object> where M.Object: AnyObject {
    let response = try await send(.get, path, query: query, headers: headers)
    guard !response.body.isEmpty else { throw .emptyBody(status: response.statusCode) }
    let type = response.contentType ?? "application/json"
    guard formats.format(forContentType: type) != nil else {
      throw .unsupportedContentType(type, status: response.statusCode)
    }
    let node: Node
    do {
      node = try formats.read(response.body, contentType: type)
    } catch {
      throw .mapping(MappingErrors([error]), status: response.statusCode)
    }
    guard case .array(let elements) = node else {
      throw .mapping(
        MappingErrors([
          MappingError(.typeMismatch(expected: "an array", found: node.kindDescription))
        ]), status: response.statusCode)
    }
    var objects: [M.Object] = []
    var seen: Set<String> = []
    let options = response.mappingOptions
    do {
      for element in elements {
        let fresh = try mapping.map(element, with: options)
        let id = identity(fresh)
        seen.insert(id)
        if var existing = store.object(of: M.Object.self, id: id) as? M.Object {
          try mapping.map(element, onto: &existing, with: options)
          objects.append(existing)
        } else {
          store.insert(fresh, id: id)
          objects.append(fresh)
        }
      }
    } catch {
      throw .mapping(error, status: response.statusCode)
    }
    var orphaned: [M.Object] = []
    for id in store.ids(of: M.Object.self).subtracting(seen).sorted() {
      guard let orphan = store.object(of: M.Object.self, id: id) as? M.Object else { continue }
      orphaned.append(orphan)
      if case .remove = orphans { store.remove(of: M.Object.self, id: id) }
    }
    return CollectionLoad(objects: objects, orphans: orphaned)
  }
}

extension Node {
  /// "an array", "an object", … for messages.
  var kindDescription: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .integer, .double, .decimal: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}
