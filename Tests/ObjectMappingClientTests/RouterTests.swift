import ObjectMapping
import ObjectMappingClient
import Testing

/// The router: paths from objects (interpolation, escaping, missing values), named routes,
/// precedence by class and method, and matching paths back to routes (issue 18).
@Suite("Router")
struct RouterTests {
  struct Article: Sendable {
    var id: Int
    var slug: String?
  }

  class Post: @unchecked Sendable {
    var id = 1
  }
  class Photo: Post, @unchecked Sendable {}
  final class Panorama: Photo, @unchecked Sendable {}

  @Test func pathsAreFilledFromTheObjectAndEscaped() throws {
    var router = Router()
    router.add(Article.self, "/articles/:id/:slug") { ["id": "\($0.id)", "slug": $0.slug] }
    let article = Article(id: 12, slug: "a/b c?d#é")
    #expect(
      try router.path(for: article, method: .get) == "/articles/12/a%2Fb%20c%3Fd%23%C3%A9")
    var raw = Router()
    raw.add(Article.self, "/articles/:slug", escaping: false) { ["slug": $0.slug] }
    #expect(try raw.path(for: article, method: .get) == "/articles/a/b c?d#é")
  }

  @Test func aMissingOrNilValueIsAnErrorNamingTheParameter() {
    var router = Router()
    router.add(Article.self, "/articles/:id/:slug") { ["id": "\($0.id)", "slug": $0.slug] }
    let error = #expect(throws: ObjectManagerError.self) {
      try router.path(for: Article(id: 1, slug: nil), method: .get)
    }
    guard case .missingParameter(let name, let route)? = error else {
      Issue.record("expected missingParameter, got \(String(describing: error))")
      return
    }
    #expect(name == "slug" && route == "/articles/:id/:slug")
    #expect(error?.description.contains("(null)") == false)
    // A parameter the closure does not give at all.
    var partial = Router()
    partial.add(Article.self, "/articles/:id/:other") { ["id": "\($0.id)"] }
    #expect(throws: ObjectManagerError.self) {
      try partial.path(for: Article(id: 1), method: .get)
    }
    #expect(throws: ObjectManagerError.self) {
      try Router().path(for: Article(id: 1), method: .get)
    }
  }

  @Test func namedRoutesTakeParameters() throws {
    var router = Router()
    router.add(named: "comments", "/articles/:articleID/comments")
    router.add(named: "comments", .post, "/articles/:articleID/comments/new")
    #expect(try router.path(named: "comments", ["articleID": "7"]) == "/articles/7/comments")
    #expect(
      try router.path(named: "comments", ["articleID": "7"], method: .post)
        == "/articles/7/comments/new")
    #expect(throws: ObjectManagerError.self) { try router.path(named: "comments") }
    #expect(throws: ObjectManagerError.self) { try router.path(named: "nope") }
  }

  @Test func theExactClassWinsThenTheNearestSuperclassThenAnyMethod() throws {
    var router = Router()
    router.add(Post.self, "/posts/:id") { ["id": "\($0.id)"] }
    router.add(Post.self, .post, "/posts")
    router.add(Photo.self, "/photos/:id") { ["id": "\($0.id)"] }
    #expect(try router.path(for: Post(), method: .get) == "/posts/1")
    #expect(try router.path(for: Post(), method: .post) == "/posts")
    #expect(try router.path(for: Photo(), method: .get) == "/photos/1")
    // A Photo's own any-method route wins over its superclass's POST route.
    #expect(try router.path(for: Photo(), method: .post) == "/photos/1")
    // No route of its own: the nearest superclass (Photo, not Post).
    #expect(try router.path(for: Panorama(), method: .delete) == "/photos/1")
  }

  @Test func pathsMatchBackToRoutesWithTheirParametersAndQuery() throws {
    var router = Router()
    router.add(named: "comments", "/articles/:articleID/comments")
    router.add(named: "file", "/files/:name.json")
    router.add(Article.self, .get, "/articles/:id") { ["id": "\($0.id)"] }
    let match = try #require(router.match("/articles/12/comments?sort=new&q=a%20b"))
    #expect(match.name == "comments")
    #expect(match.parameters == ["articleID": "12"])
    #expect(match.query == ["sort": "new", "q": "a b"])
    #expect(router.match("/files/report.json")?.parameters == ["name": "report"])
    let object = try #require(router.match("/articles/a%2Fb", method: .get))
    #expect(object.typeName == "Article" && object.parameters == ["id": "a/b"])
    #expect(router.match("/articles/12", method: .delete) == nil)
    #expect(router.match("/articles") == nil)
    #expect(router.match("/articles/12/comments/extra") == nil)
  }
}
