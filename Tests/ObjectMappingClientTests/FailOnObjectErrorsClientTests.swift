import Foundation
import ObjectMapping
import ObjectMappingClient
import ObjectMappingTestSupport
import Testing

/// The manager's options reach a response mapped through a provider: with
/// `failOnObjectErrors`, an object that fails makes the response a `.mapping` error with its
/// status, as a single mapping's response would be.
@Suite("ObjectManager: failOnObjectErrors")
struct FailOnObjectErrorsClientTests {
  struct Tag: Equatable, Sendable {
    var id = 0
  }

  @Test func aProviderResponseWithAFailedObjectIsAMappingError() async throws {
    let mapping = Mapping(Tag.init) { Attribute("id", \.id) }
    let provider = MappingProvider { Route("tags", mapping) }
    let server = try LoopbackServer { _ in .json(#"{"tags": [{"id": 1}, {"id": "two"}]}"#) }
    defer { server.stop() }
    let lenient = ObjectManager(baseURL: server.baseURL, limits: .loopback)
    let result = try await lenient.send(.get, "/tags").map(provider)
    #expect(result.all(Tag.self) == [Tag(id: 1)])
    #expect(result.errors.map(\.path) == ["/tags/1/id"])
    let strict = ObjectManager(
      baseURL: server.baseURL, options: MappingOptions(failOnObjectErrors: true),
      limits: .loopback)
    let response = try await strict.send(.get, "/tags")
    let error = #expect(throws: ObjectManagerError.self) { try response.map(provider) }
    guard case .mapping(let errors, let status)? = error else {
      Issue.record("expected mapping, got \(String(describing: error))")
      return
    }
    #expect(status == 200)
    #expect(errors.errors.map(\.path) == ["/tags/1/id"])
  }
}
