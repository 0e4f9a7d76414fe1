import Foundation
import ObjectMapping

/// What a migration did.
public struct StoreMigration: Sendable, Equatable {
  /// The identities of the rows rewritten with today's mapping.
  public var rewritten: [String]
  /// The rows deleted (``SQLiteStore/deleteUnmappable(_:)``), with why they did not map.
  public var deleted: [UnmappableRow]
  /// The rows still unmappable, left as they were.
  public var unmappable: [UnmappableRow]
}

extension SQLiteStore {
  /// Every stored row of `entity` that does not map with today's mapping, with its identity and
  /// errors (a schema check after changing a mapping).
  ///
  /// ```swift
  /// for row in try await store.unmappableRows(articles) { print(row) }
  /// // Article 7: /title: required value is missing
  /// ```
  ///
  /// - Parameter entity: The entity, with today's mapping.
  /// - Returns: The rows that do not map, in stored order.
  /// - Throws: ``StoreError``.
  public func unmappableRows<Object>(_ entity: StoreEntity<Object>) async throws(StoreError)
    -> [UnmappableRow]
  {
    try await runMigration(entity) { row in
      do throws(UnmappableRow) {
        _ = try entity.object(fromPayload: row.payload, id: row.id)
        return .keep
      } catch {
        return .report(error)
      }
    }.unmappable
  }

  /// Remaps the rows today's mapping cannot read with the mapping they were written with: each
  /// such row is mapped with `legacy` and written again with today's mapping, in one
  /// transaction. Rows `legacy` cannot read either are left and reported.
  ///
  /// ```swift
  /// // Version 2 renamed "headline" to "title": keep version 1's mapping for old rows.
  /// let report = try await store.migrate(articles, from: articleMappingV1)
  /// report.rewritten     // identities now stored in version 2's shape
  /// report.unmappable    // rows neither mapping reads
  /// ```
  ///
  /// - Parameters:
  ///   - entity: The entity, with today's mapping.
  ///   - legacy: A mapping that reads the old rows into today's model.
  /// - Returns: The rows rewritten and those still unmappable.
  /// - Throws: ``StoreError``; nothing is rewritten.
  @discardableResult
  public func migrate<Object>(
    _ entity: StoreEntity<Object>, from legacy: some MappingProtocol<Object>
  ) async throws(StoreError) -> StoreMigration {
    try await runMigration(entity) { row in
      do throws(UnmappableRow) {
        _ = try entity.object(fromPayload: row.payload, id: row.id)
        return .keep
      } catch {
        guard let object = try? legacy.map(row.payload),
          let payload = try? entity.payload(of: object),
          (try? entity.object(fromPayload: payload, id: row.id)) != nil
        else { return .report(error) }
        return .rewrite(payload)
      }
    }
  }

  /// Rewrites the payloads of the rows today's mapping cannot read with `transform` (renamed or
  /// restructured keys), in one transaction; a row is rewritten only when today's mapping reads
  /// the result, and is reported otherwise.
  ///
  /// ```swift
  /// try await store.migrate(articles) { payload in
  ///   guard case .object(var members) = payload else { return }
  ///   if let index = members.firstIndex(where: { $0.key == "headline" }) {
  ///     members[index].key = "title"
  ///   }
  ///   payload = .object(members)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - entity: The entity, with today's mapping.
  ///   - transform: Rewrites one stored payload (a `Node`); throwing leaves the row as it was.
  /// - Returns: The rows rewritten and those still unmappable.
  /// - Throws: ``StoreError``; nothing is rewritten.
  @discardableResult
  public func migrate<Object>(
    _ entity: StoreEntity<Object>, transform: @escaping @Sendable (inout Node) throws -> Void
  ) async throws(StoreError) -> StoreMigration {
    try await runMigration(entity) { row in
      do throws(UnmappableRow) {
        _ = try entity.object(fromPayload: row.payload, id: row.id)
        return .keep
      } catch {
        guard var node = try? Node(jsonData: Data(row.payload)) else { return .report(error) }
        guard (try? transform(&node)) != nil, let text = try? node.jsonString() else {
          return .report(error)
        }
        let payload = Array(text.utf8)
        do throws(UnmappableRow) {
          _ = try entity.object(fromPayload: payload, id: row.id)
          return .rewrite(payload)
        } catch {
          return .report(error)
        }
      }
    }
  }

  /// Deletes the rows of `entity` that today's mapping cannot read, in one transaction, and
  /// reports them.
  ///
  /// ```swift
  /// let dropped = try await store.deleteUnmappable(articles)
  /// ```
  ///
  /// - Parameter entity: The entity, with today's mapping.
  /// - Returns: The deleted rows, with why they did not map.
  /// - Throws: ``StoreError``; nothing is deleted.
  @discardableResult
  public func deleteUnmappable<Object>(_ entity: StoreEntity<Object>) async throws(StoreError)
    -> [UnmappableRow]
  {
    try await runMigration(entity) { row in
      do throws(UnmappableRow) {
        _ = try entity.object(fromPayload: row.payload, id: row.id)
        return .keep
      } catch {
        return .delete(error)
      }
    }.deleted
  }

  /// Runs a migration in the writer's transaction.
  private func runMigration<Object>(
    _ entity: StoreEntity<Object>, decide: @escaping @Sendable (StoredRow) -> MigrationDecision
  ) async throws(StoreError) -> StoreMigration {
    try entity.checkIdentified()
    let writer = try writableForMigration()
    let result = try await writer.migrate(entity: entity.name, decide: decide)
    let changed = result.rewritten + result.deleted.map(\.id)
    if !changed.isEmpty { await forget(changed, entity: entity.name) }
    return StoreMigration(
      rewritten: result.rewritten, deleted: result.deleted, unmappable: result.left)
  }
}
