import Foundation
import ObjectMapping
import ObjectMappingClient
import ObjectMappingTestSupport
import Testing

/// A compatibility preset given once to the manager reaches every request body and response
/// (issue 36), against a real server on 127.0.0.1.
@Suite("ObjectManager with a compatibility preset")
struct PresetClientTests {
  final class Person: @unchecked Sendable {
    // @unchecked: a test fixture used from one task at a time.
    var id = 0
    var name: String?
    var tags: [String] = []
    var age = 0
  }

  static let personMapping = Mapping(Person.init) {
    Attribute("id", \.id)
    Attribute("name", \.name)
    Attribute("tags", \.tags, default: [])
    Attribute("age", \.age)
  }

  @Test func restKitCompatibleFormBodiesAndLenientResponsesThroughTheManager() async throws {
    let server = try LoopbackServer { request in
      // Echo the form body RestKit-style clients sent, and answer with an age that does not
      // convert (RestKit logged it and mapped the rest).
      .json(
        #"{"id": 7, "name": "\#(request.bodyText)", "age": "twelve"}"#, status: 201)
    }
    defer { server.stop() }
    let manager = ObjectManager(
      baseURL: server.baseURL, requestFormat: .formURLEncoded, options: .restKitCompatible,
      limits: .loopback)
    let person = Person()
    person.name = nil
    person.tags = ["a b", "c"]
    person.age = 30
    let answered = try await manager.post(person, mapping: Self.personMapping, path: "/people")
    // The body: spaces as %20, the nil name as a bare key, arrays with brackets, names sorted.
    #expect(answered.name == "age=30&id=0&name&tags[]=a%20b&tags[]=c")
    // The response's unconvertible age was skipped: the instance keeps its value.
    #expect(answered.id == 7)
    #expect(answered.age == 30)
  }
}
