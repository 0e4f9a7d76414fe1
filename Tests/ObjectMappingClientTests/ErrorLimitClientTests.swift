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
}
