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

/// RestKit mapped the one element of a single-element array onto the target object; here an
/// opt-in of the mapper (issue 17).
@Suite("Mapper: single-element arrays onto a target")
struct MapperSingleElementTargetTests {
  final class Article: @unchecked Sendable {
    // @unchecked: used from one task.
    var id = 0
    var title = ""
  }

  static let article = Mapping(Article.init) {
    Attribute("id", \.id)
    Attribute("title", \.title).optional()
  }

  @Test func theOneElementUpdatesTheTargetWhenAsked() throws {
    let provider = MappingProvider { Route("articles", Self.article) }
    let target = Article()
    target.title = "kept"
    let mapper = Mapper(provider, mapsSingleElementArraysOntoTarget: true)
    let result = try mapper.map(#"{"articles": [{"id": 7}]}"#, target: target)
    #expect(target.id == 7 && target.title == "kept")
    #expect(result.first(Article.self) === target)
    #expect(result.diagnostics.isEmpty)
  }

  @Test func byDefaultOrWithSeveralElementsTheTargetIsIgnored() throws {
    let provider = MappingProvider { Route("articles", Self.article) }
    let target = Article()
    let result = try Mapper(provider).map(#"{"articles": [{"id": 7}]}"#, target: target)
    #expect(target.id == 0)
    #expect(result.all(Article.self).map(\.id) == [7])
    #expect(result.diagnostics.map(\.description).first?.contains("target object ignored") == true)
    let two = try Mapper(provider, mapsSingleElementArraysOntoTarget: true).map(
      #"{"articles": [{"id": 1}, {"id": 2}]}"#, target: target)
    #expect(target.id == 0 && two.all(Article.self).count == 2)
  }
}
