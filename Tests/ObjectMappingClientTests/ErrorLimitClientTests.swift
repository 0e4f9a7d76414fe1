import Foundation
import ObjectMapping
import ObjectMappingClient
import ObjectMappingTestSupport
import Testing

/// `MappingOptions.errorLimit` given to the manager limits the errors of every response it maps
/// (issue 37: the task-local limit it replaces could not be set around the manager's calls),
/// against a real server on 127.0.0.1.
@Suite("ObjectManager with an error limit")
struct ErrorLimitClientTests {
  struct Item: Sendable, Equatable {
    var id = 0
  }

  static let itemMapping = Mapping(Item.init) { Attribute("id", \.id) }

  private static let moreLine = "(beyond the error limit of a run; see MappingOptions.errorLimit)"

  @Test func theManagersOptionsLimitTheErrorsOfItsResponses() async throws {
    let server = try LoopbackServer { _ in
      .json(#"{"items": [{"id": "a"}, {"id": "b"}, {"id": "c"}, {"id": "d"}]}"#)
    }
    defer { server.stop() }
    let limited = ObjectManager(
      baseURL: server.baseURL, provider: MappingProvider { Route("items", Self.itemMapping) },
      options: MappingOptions(errorLimit: 2), limits: .loopback)
    do {
      _ = try await limited.getCollection("/items", mapping: Self.itemMapping, rootKey: "items")
      Issue.record("expected a mapping error")
    } catch {
      guard case .mapping(let errors, let status) = error else {
        Issue.record("expected a mapping error, got \(error)")
        return
      }
      #expect(status == 200)
      #expect(errors.errors.count == 2 && errors.omittedCount == 2)
      #expect(
        errors.description == """
          /0/id: cannot convert "a" to an integer
          /1/id: cannot convert "b" to an integer
          … and 2 more errors \(Self.moreLine)
          """)
    }
    // The routed get maps with the same options: two errors kept, the others counted.
    let result = try await limited.get("/items")
    #expect(result.isEmpty)  // every element failed: no objects, the errors in the result
    #expect(
      result.errors.map(\.description) == [
        #"/items/0/id: cannot convert "a" to an integer"#,
        #"/items/1/id: cannot convert "b" to an integer"#,
      ])
    #expect(result.omittedErrorCount == 2)

    // Without the option the manager keeps every error (under the default 1,000).
    let unlimited = ObjectManager(baseURL: server.baseURL, limits: .loopback)
    do {
      _ = try await unlimited.getCollection("/items", mapping: Self.itemMapping, rootKey: "items")
      Issue.record("expected a mapping error")
    } catch {
      guard case .mapping(let errors, _) = error else {
        Issue.record("expected a mapping error, got \(error)")
        return
      }
      #expect(errors.errors.count == 4 && errors.omittedCount == 0)
    }
  }

  final class Stored {
    var id = 0
  }

  /// A load into an identity store maps element by element: the errors of all its elements
  /// together are kept up to the same limit (they were capped at 1,000 whatever the options).
  @Test @MainActor func aLoadIntoAnIdentityStoreKeepsTheLimitAcrossItsElements() async throws {
    let server = try LoopbackServer { _ in
      .json(#"[{"id": "a"}, {"id": "b"}, {"id": "c"}, {"id": "d"}]"#)
    }
    defer { server.stop() }
    let mapping = Mapping(Stored.init) { Attribute("id", \.id) }.identified(by: \.id)
    let store = InMemoryObjectStore()
    for limit in [2, 3] {
      let manager = ObjectManager(
        baseURL: server.baseURL, options: MappingOptions(errorLimit: limit), limits: .loopback)
      do {
        _ = try await manager.getCollection("/stored", mapping: mapping, store: store)
        Issue.record("expected a mapping error")
      } catch {
        guard case .mapping(let errors, _) = error else {
          Issue.record("expected a mapping error, got \(error)")
          continue
        }
        #expect(errors.errors.map(\.path) == ["/0/id", "/1/id", "/2/id"].prefix(limit).map { $0 })
        #expect(errors.omittedCount == 4 - limit)
      }
    }
    #expect(store.ids(of: Stored.self).isEmpty)
  }
}
