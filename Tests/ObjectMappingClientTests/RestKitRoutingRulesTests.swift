import Foundation
import ObjectMapping
import ObjectMappingClient
import Testing

/// Probes of RestKit's routing and path-pattern behaviours (restkit-semantics.md §1.16), as the guide spells them: a regression suite.
@Suite("RestKit's routing rules (restkit-semantics.md §1.16)")
struct RestKitRoutingRulesTests {
  class Base: @unchecked Sendable {
    var id = 1
    init() {}
  }
  class Middle: Base, @unchecked Sendable {}
  final class Leaf: Middle, @unchecked Sendable {}

  // R-1.16.1: a literal '.' after a parameter is escaped with a backslash; '-' and '/' end a name.
  @Test func r1_16_1_parameterSyntax() throws {
    var router = Router()
    try router.add(named: "file", #"/files/:filename\.json"#)
    try router.add(named: "range", "/range/:from-:to")
    #expect(try router.path(named: "file", ["filename": "a"]) == "/files/a.json")
    #expect(router.match("/files/report.json")?.parameters == ["filename": "report"])
    #expect(router.match("/range/1-5")?.parameters == ["from": "1", "to": "5"])
  }

  // R-1.16.4 (with escaping on, ours by default): reserved characters are percent-encoded.
  @Test func r1_16_4_escaping() throws {
    var router = Router()
    try router.add(named: "n", "/names/:name")
    #expect(try router.path(named: "n", ["name": "Joe Bob Briggs"]) == "/names/Joe%20Bob%20Briggs")
    #expect(try router.path(named: "n", ["name": "JUICE|BOX&121"]) == "/names/JUICE%7CBOX%26121")
    #expect(try router.path(named: "n", ["name": "a/b"]) == "/names/a%2Fb")
  }

  // R-1.16.6: a nearer class's any-method route beats a superclass's exact-method route.
  @Test func r1_16_6_nearerClassWins() throws {
    var router = Router()
    try router.add(Base.self, .get, "/base/:id") { ["id": "\($0.id)"] }
    try router.add(Middle.self, "/middle/:id") { ["id": "\($0.id)"] }
    #expect(try router.path(for: Leaf(), method: .get) == "/middle/1")
    #expect(try router.path(for: Base(), method: .get) == "/base/1")
    // Adding ANY and a specific method for one class may coexist; a duplicate method may not.
    try router.add(Middle.self, .post, "/middle")
    #expect(throws: RouterError.self) { try router.add(Middle.self, .post, "/other") }
    #expect(try router.path(for: Leaf(), method: .post) == "/middle")
  }

  // R-1.16.7: the whole path is consumed, and a parameter never spans '/'.
  @Test func r1_16_7_wholePathAndSlashCount() throws {
    var router = Router()
    try router.add(named: "category", "/categories/:name")
    #expect(router.match("/categories/x/articles/y") == nil)
    #expect(router.match("/categories/x")?.parameters == ["name": "x"])
    let withQuery = try #require(router.match("/categories/x?page=2"))
    #expect(withQuery.arguments == ["name": "x", "page": "2"])
  }

  // R-1.16.8: trailing slashes matter.
  @Test func r1_16_8_trailingSlashes() throws {
    var router = Router()
    try router.add(named: "orgs", "/api/:version/organizations")
    try router.add(named: "slash", "/api/v1/things/")
    #expect(router.match("/api/v1/organizations/") == nil)
    #expect(router.match("/api/v1/organizations")?.parameters == ["version": "v1"])
    #expect(router.match("/api/v1/things/?q=t")?.name == "slash")
  }

  // R-1.16.9: values are percent-decoded; an empty value does not match.
  @Test func r1_16_9_decodingAndEmptyValues() throws {
    var router = Router()
    try router.add(named: "team", "/teams/:name/members")
    #expect(router.match("/teams/SB%2014/members")?.parameters == ["name": "SB 14"])
    #expect(router.match("/teams//members") == nil)
  }

  // R-1.16.2 / R-1.16.5: the 0.10 `(name)` spelling; a named route for one method.
  @Test func r1_16_2_parenthesisedParametersAndNamedRoutes() throws {
    var router = Router()
    try router.add(named: "member", .get, "/group/(role)/(user)")
    #expect(
      try router.path(named: "member", ["role": "admin", "user": "ann"]) == "/group/admin/ann")
    #expect(
      router.match("/group/admin/ann", method: .get)?.parameters == [
        "role": "admin", "user": "ann",
      ])
    #expect(router.match("/group/admin/ann", method: .post) == nil)
  }
}
