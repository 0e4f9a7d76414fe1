import ObjectMapping
import ObjectMappingClient
import Testing

/// The router: paths from objects (interpolation, escaping, missing values), named routes,
/// RestKit's precedence by class and method, pattern syntax checked at registration, and
/// matching paths back to routes (issues 18 and 33).
@Suite("Router")
struct RouterTests {
  struct Article: Sendable {
    var id: String
    var slug: String?
  }

  class Base: @unchecked Sendable {
    // @unchecked: immutable after init.
    let id = 1
  }
  class Sub: Base, @unchecked Sendable {}
  final class DeepSub: Sub, @unchecked Sendable {}

  // MARK: Interpolation

  @Test func valuesArePercentEncodedForTheirSegment() throws {
    var router = Router()
    try router.add(Article.self, "/articles/:id/:slug") { ["id": $0.id, "slug": $0.slug] }
    let article = Article(id: "12", slug: "a/b c?d#é")
    #expect(
      try router.path(for: article, method: .get) == "/articles/12/a%2Fb%20c%3Fd%23%C3%A9")
    var raw = Router()
    try raw.add(Article.self, "/articles/:slug", escaping: false) { ["slug": $0.slug] }
    #expect(try raw.path(for: article, method: .get) == "/articles/a/b c?d#é")
  }

  @Test(arguments: [
    ("..", "/articles/%2E%2E"), (".", "/articles/%2E"), ("...", "/articles/..."),
    ("10:30", "/articles/10%3A30"), ("user:1", "/articles/user%3A1"),
    ("urn:isbn:0451450523", "/articles/urn%3Aisbn%3A0451450523"),
    ("//evil.example/x", "/articles/%2F%2Fevil.example%2Fx"),
    ("a+b=c&d", "/articles/a%2Bb%3Dc%26d"),
    ("100%", "/articles/100%25"), ("\u{0}\r\n", "/articles/%00%0D%0A"),
  ])
  func aValueNeverLeavesItsSegment(value: String, path: String) throws {
    var router = Router()
    try router.add(Article.self, "/articles/:id") { ["id": $0.id] }
    #expect(try router.path(for: Article(id: value), method: .delete) == path)
    // And it matches back to the same value.
    #expect(router.match(path)?.parameters == ["id": value])
  }

  @Test func queryValuesCannotAddItems() throws {
    var router = Router()
    try router.add(named: "login", .post, "/people?name=:name&password=:password")
    let path = try router.path(
      named: "login", ["name": "ann", "password": "a&admin=true+1#x%2 é"])
    #expect(path == "/people?name=ann&password=a%26admin%3Dtrue%2B1%23x%252%20%C3%A9")
    let match = try #require(router.match(path, method: .post))
    #expect(match.parameters == ["name": "ann", "password": "a&admin=true+1#x%2 é"])
    #expect(match.queryItems.count == 2)
  }

  @Test func aMissingNilOrEmptyValueIsAnErrorNamingTheParameter() throws {
    var router = Router()
    try router.add(Article.self, "/articles/:id/:slug") { ["id": $0.id, "slug": $0.slug] }
    for article in [Article(id: "1", slug: nil), Article(id: "1", slug: "")] {
      let error = #expect(throws: ObjectManagerError.self) {
        try router.path(for: article, method: .get)
      }
      #expect(
        error?.description == #"the path parameter 'slug' of "/articles/:id/:slug" has no value"#)
    }
    var partial = Router()
    try partial.add(Article.self, "/articles/:id/:other") { ["id": $0.id] }
    #expect(throws: ObjectManagerError.self) {
      try partial.path(for: Article(id: "1"), method: .get)
    }
    let noRoute = #expect(throws: ObjectManagerError.self) {
      try Router().path(for: Article(id: "1"), method: .get)
    }
    #expect(noRoute?.description == "no route for GET Article")
  }

  @Test func namedRoutesTakeParametersAndAnEscapingChoice() throws {
    var router = Router()
    try router.add(named: "comments", "/articles/:articleID/comments")
    try router.add(named: "file", .get, "/files/{path}", escaping: false)
    #expect(try router.path(named: "comments", ["articleID": "7 8"]) == "/articles/7%208/comments")
    #expect(try router.path(named: "file", ["path": "a/b.txt"]) == "/files/a/b.txt")
    #expect(throws: ObjectManagerError.self) { try router.path(named: "comments") }
    let unknown = #expect(throws: ObjectManagerError.self) { try router.path(named: "nope") }
    #expect(unknown?.description == #"no route for the name "nope""#)
  }

  // MARK: Registration errors

  @Test func aSecondRouteForTheSameTypeAndMethodIsAnError() throws {
    var router = Router()
    try router.add(Article.self, .get, "/articles/:id") { ["id": $0.id] }
    try router.add(Article.self, "/articles/:id") { ["id": $0.id] }  // any: coexists
    try router.add(Article.self, [.get, .head], "/a/:id") { ["id": $0.id] }  // a set: coexists
    let exact = #expect(throws: RouterError.self) {
      try router.add(Article.self, .get, "/other/:id") { ["id": $0.id] }
    }
    #expect(
      exact?.description
        == #"Article already has a route for GET ("/articles/:id"); "/other/:id" would make the choice ambiguous"#
    )
    let any = #expect(throws: RouterError.self) { try router.add(Article.self, "/again") }
    #expect(
      any?.kind
        == .duplicateRoute(
          type: "Article", methods: "any method", pattern: "/again", existing: "/articles/:id"))
    let set = #expect(throws: RouterError.self) {
      try router.add(Article.self, [.head, .delete], "/b")
    }
    #expect(
      set?.kind
        == .duplicateRoute(
          type: "Article", methods: "[HEAD, DELETE]", pattern: "/b", existing: "/a/:id"))
    // The router is unchanged by a failed add: GET still goes to the first route.
    #expect(try router.path(for: Article(id: "3"), method: .get) == "/articles/3")
  }

  @Test func aSecondRouteWithTheSameNameIsAnError() throws {
    var router = Router()
    try router.add(named: "comments", "/articles/:articleID/comments")
    let error = #expect(throws: RouterError.self) {
      try router.add(named: "comments", .post, "/articles/:articleID/comments/new")
    }
    #expect(
      error?.description
        == #"the route name "comments" is already given to "/articles/:articleID/comments"; "/articles/:articleID/comments/new" needs another name"#
    )
    #expect(error?.localizedDescription == error?.description)
  }

  @Test(arguments: [
    (
      "/files/:name.json",
      #"invalid route pattern "/files/:name.json" at position 13: '.' right after the parameter ':name' is ambiguous (RestKit read it as part of a key path); write '\.' for a literal '.', or '{name.…}' for a longer name"#
    ),
    (
      "/users/:user@host",
      #"invalid route pattern "/users/:user@host" at position 13: '@' right after the parameter ':user' is ambiguous (RestKit read it as part of a key path); write '\@' for a literal '@', or '{user@…}' for a longer name"#
    ),
    (
      "/time/10:30",
      #"invalid route pattern "/time/10:30" at position 9: ':' starts no parameter name; write '\:' for a literal colon"#
    ),
    ("/a/{id", #"invalid route pattern "/a/{id" at position 4: the '{' is never closed by '}'"#),
    ("/a/{}", #"invalid route pattern "/a/{}" at position 4: '{}' names no parameter"#),
    (
      "/a/{1d}",
      #"invalid route pattern "/a/{1d}" at position 4: the parameter name '1d' must start with a letter or '_'"#
    ),
    (
      "/a/{i d}",
      #"invalid route pattern "/a/{i d}" at position 6: ' ' cannot appear in the parameter name after '{'; a name is letters, digits, '_' and '.' (write '\{' for a literal '{')"#
    ),
    (
      "/a/id}",
      #"invalid route pattern "/a/id}" at position 6: '}' closes nothing; write '\}' for a literal '}'"#
    ),
    ("/a/(id", #"invalid route pattern "/a/(id" at position 4: the '(' is never closed by ')'"#),
    (
      "/a/:a:b",
      #"invalid route pattern "/a/:a:b" at position 6: the parameters 'a' and 'b' must be separated by literal text"#
    ),
    (
      "/a/{a}(b)",
      #"invalid route pattern "/a/{a}(b)" at position 7: the parameters 'a' and 'b' must be separated by literal text"#
    ),
    (
      "/a b",
      #"invalid route pattern "/a b" at position 3: ' ' cannot appear in a URL path; percent-encode it (%20)"#
    ),
    (
      "/é",
      #"invalid route pattern "/é" at position 2: 'é' cannot appear in a URL path; percent-encode it (%C3%A9)"#
    ),
    (
      "/a#top",
      #"invalid route pattern "/a#top" at position 3: a route cannot hold a fragment ('#'); percent-encode it as %23"#
    ),
    (
      "/a/%zz",
      #"invalid route pattern "/a/%zz" at position 4: '%' must be followed by two hexadecimal digits; write %25 for '%'"#
    ),
    (
      "/a/\\x",
      #"invalid route pattern "/a/\\x" at position 4: '\x' is not an escape; only '\.', '\:', '\@', '\{', '\}', '\(', '\)' and '\\' are"#
    ),
    (
      "/a/:id/b/{id}",
      #"invalid route pattern "/a/:id/b/{id}": the parameter 'id' appears more than once"#
    ),
    (
      "/s?:name=1",
      #"invalid route pattern "/s?:name=1" at position 4: a parameter cannot be the name of a query item"#
    ),
  ])
  func aPatternThatIsNotValidIsAnErrorAtRegistration(pattern: String, message: String) {
    var router = Router()
    let error = #expect(throws: RouterError.self) {
      try router.add(Article.self, pattern) { ["id": $0.id] }
    }
    #expect(error?.description == message)
    #expect(router.match(pattern) == nil)
  }

  @Test func theThreePlaceholderSpellingsAndEscapesAreUnderstood() throws {
    var router = Router()
    try router.add(named: "file", "/directory/:folder/{name}\\.json")
    try router.add(named: "group", "/group/(role)/(user)")
    try router.add(named: "literal", "/t/10\\:30/\\{x\\}/\\(y\\)")
    #expect(
      try router.path(named: "file", ["folder": "docs", "name": "read me"])
        == "/directory/docs/read%20me.json")
    #expect(
      router.match("/directory/docs/read%20me.json")?.parameters
        == ["folder": "docs", "name": "read me"])
    #expect(
      try router.path(named: "group", ["role": "admin", "user": "ann"]) == "/group/admin/ann")
    #expect(router.match("/group/admin/ann")?.parameters == ["role": "admin", "user": "ann"])
    #expect(try router.path(named: "literal") == "/t/10:30/%7Bx%7D/(y)")
    #expect(router.match("/t/10:30/%7Bx%7D/(y)")?.name == "literal")
    #expect(try PathPattern("/u/{user.id}").parameterNames == ["user.id"])
  }

  // MARK: Precedence

  @Test func aNearerClassesAnyMethodRouteBeatsAFartherSuperclassesMethodRoute() throws {
    var router = Router()
    try router.add(Base.self, .post, "/bases")
    try router.add(Base.self, "/bases/:id") { ["id": "\($0.id)"] }
    try router.add(Sub.self, "/subs/:id") { ["id": "\($0.id)"] }
    // RestKit: DeepSub has no route; Sub (nearer) has an any-method route, Base a POST route.
    #expect(try router.path(for: DeepSub(), method: .post) == "/subs/1")
    #expect(try router.path(for: Sub(), method: .post) == "/subs/1")
    #expect(try router.path(for: Base(), method: .post) == "/bases")
    #expect(try router.path(for: Base(), method: .get) == "/bases/1")
    // Registration order does not matter.
    var reversed = Router()
    try reversed.add(Sub.self, "/subs/:id") { ["id": "\($0.id)"] }
    try reversed.add(Base.self, .post, "/bases")
    #expect(try reversed.path(for: DeepSub(), method: .post) == "/subs/1")
  }

  @Test func theExactMethodWinsOverASetWhichWinsOverAny() throws {
    var router = Router()
    try router.add(Article.self, "/any/:id") { ["id": $0.id] }
    try router.add(Article.self, [.get, .head], "/set/:id") { ["id": $0.id] }
    try router.add(Article.self, .get, "/get/:id") { ["id": $0.id] }
    let article = Article(id: "5")
    #expect(try router.path(for: article, method: .get) == "/get/5")
    #expect(try router.path(for: article, method: .head) == "/set/5")
    #expect(try router.path(for: article, method: .delete) == "/any/5")
    // Matching uses the same precedence.
    try router.add(named: "n-any", "/x/:v")
    try router.add(named: "n-set", [.get, .head], "/x/:w")
    try router.add(named: "n-get", .get, "/x/:u")
    #expect(router.match("/x/1", method: .get)?.name == "n-get")
    #expect(router.match("/x/1", method: .head)?.name == "n-set")
    #expect(router.match("/x/1", method: .put)?.name == "n-any")
    #expect(router.match("/x/1")?.name == "n-any")
  }

  // MARK: Matching

  @Test func pathsMatchBackWithParametersQueryItemsAndArguments() throws {
    var router = Router()
    try router.add(named: "comments", "/articles/:articleID/comments")
    try router.add(Article.self, .get, "/articles/:id") { ["id": $0.id] }
    let match = try #require(
      router.match("/articles/12/comments?sort=new&q=a+b%20c&sort=old&articleID=99"))
    #expect(match.name == "comments")
    #expect(match.parameters == ["articleID": "12"])
    #expect(
      match.queryItems == [
        .init(name: "sort", value: "new"), .init(name: "q", value: "a b c"),
        .init(name: "sort", value: "old"), .init(name: "articleID", value: "99"),
      ])
    #expect(match.query == ["sort": "new", "q": "a b c", "articleID": "99"])
    // RestKit's arguments: query and path merged, the path parameter winning.
    #expect(match.arguments == ["sort": "new", "q": "a b c", "articleID": "12"])
    let object = try #require(router.match("/articles/a%2Fb", method: .get))
    #expect(object.typeName == "Article" && object.parameters == ["id": "a/b"])
    #expect(router.match("/articles/12", method: .delete) == nil)
    #expect(router.match("/articles") == nil)
    #expect(router.match("/articles/12/comments/extra") == nil)
  }

  @Test func aTrailingSlashMattersUnlessTheRouteOptsIn() throws {
    var strict = Router()
    try strict.add(named: "orgs", "/api/:version/organizations")
    try strict.add(named: "slash", "/api/:version/people/")
    #expect(strict.match("/api/v1/organizations")?.parameters == ["version": "v1"])
    #expect(strict.match("/api/v1/organizations/") == nil)
    #expect(strict.match("/api/v1/people/?q=t")?.name == "slash")
    #expect(strict.match("/api/v1/people") == nil)
    var lenient = Router()
    try lenient.add(named: "orgs", "/api/:version/organizations", allowingTrailingSlash: true)
    try lenient.add(named: "slash", "/api/:version/people/", allowingTrailingSlash: true)
    #expect(lenient.match("/api/v1/organizations/")?.parameters == ["version": "v1"])
    #expect(lenient.match("/api/v1/people")?.name == "slash")
    #expect(lenient.match("/api/v1/organizations//") == nil)
  }

  @Test func queryParametersOfAPatternMatchInAnyOrder() throws {
    var router = Router()
    try router.add(named: "search", "/search?q=:query&page=:page")
    let match = try #require(router.match("/search?page=2&lang=fr&q=ui%20%26%20ux"))
    #expect(match.parameters == ["query": "ui & ux", "page": "2"])
    #expect(router.match("/search?q=x") == nil)
    #expect(router.match("/search") == nil)
  }

  @Test(arguments: [
    "/articles/1?=", "/articles/1?&&=&=", "?", "", "/", "%", "/%", "/articles/%", "/articles/%C3",
    "/articles/%FF", "#", "/articles/1#?", "/articles//comments", "/articles/1?a=%zz&%=b",
    "/articles/\u{0}", "/articles/é/comments", "//", "/articles/1?a=1#frag?b=2",
  ])
  func oddPathsNeverTrap(path: String) throws {
    var router = Router()
    try router.add(named: "comments", "/articles/:articleID/comments")
    try router.add(named: "article", "/articles/:id")
    try router.add(named: "query", "/q?x=:x")
    _ = router.match(path)
    _ = router.match(path, method: .get)
    #expect(router.match("/articles/1?=")?.queryItems == [.init(name: "", value: "")])
  }
}
