import Foundation
import ObjectMapping
import Testing

/// A route whose mapping is a nested-key mapping maps an object's members as a collection
/// (RestKit's `forceCollectionMapping` at a mapper key path; issue 17).
@Suite("Mapper: nested-key routes in collection mode")
struct MapperKeyedRouteTests {
  struct User: Equatable, Sendable {
    var username = ""
    var email = ""
  }

  static let keyed = Mapping(User.init) {
    KeyAttribute("username", \.username)
    Attribute("(username).email", \.email)
  }

  @Test func everyMemberIsOneObject() throws {
    let provider = MappingProvider { Route("users", Self.keyed) }
    let result = try Mapper(provider).map(
      #"{"users": {"blake": {"email": "b@x"}, "rachit": {"email": "r@x"}}}"#)
    #expect(
      result.all(User.self, at: "users")
        == [User(username: "blake", email: "b@x"), User(username: "rachit", email: "r@x")])
    #expect(result.asCollection().count == 2)
    #expect(result.errors.isEmpty)
  }

  @Test func aSingleMemberIsAOneElementCollectionAndFailuresAreKeptApart() throws {
    let provider = MappingProvider { Route("users", Self.keyed) }
    let single = try Mapper(provider).map(#"{"users": {"blake": {"email": "b@x"}}}"#)
    #expect(single.all(User.self).map(\.username) == ["blake"])
    let failing = try Mapper(provider).map(
      #"{"users": {"blake": {"email": []}, "rachit": {"email": "r@x"}}}"#)
    #expect(failing.all(User.self).map(\.username) == ["rachit"])
    #expect(failing.errors.map(\.path) == ["/users/blake/email"])
  }
}
