import Foundation
import ObjectMapping
import ObjectMappingClient
import ObjectMappingTestSupport
import Synchronization
import Testing

/// Probes of RestKit's object-manager behaviours (restkit-semantics.md §1.7.5, §1.13.1, §1.14,
/// §1.15, §1.17 and §1.18), spelled as Documentation/MigratingFromRestKit.md and
/// Documentation/ObjectManager.md teach, against the loopback server: a regression suite.
@Suite("RestKit's object-manager rules (restkit-semantics.md), as the guides spell them")
struct RestKitManagerRulesTests {
  final class Article: @unchecked Sendable {
    var id = 0
    var title = ""
    var body: String?
    init() {}
  }

  final class Feature: @unchecked Sendable {
    var id = 0
    var title = ""
    init() {}
  }

  static let articleMapping = Mapping(Article.init) {
    Attribute("id", \.id)
    Attribute("title", \.title)
    Attribute("body", \.body)
  }

  static func router() throws -> Router {
    var router = Router()
    try router.add(Article.self, "/articles/:id") { ["id": "\($0.id)"] }
    try router.add(Article.self, .post, "/articles")
    return router
  }

  static func article(_ id: Int, _ title: String, body: String? = nil) -> Article {
    let article = Article()
    article.id = id
    article.title = title
    article.body = body
    return article
  }

  /// A server that gives every request `response`, and a manager for it.
  static func serve(
    provider: MappingProvider? = nil, options: MappingOptions = .none,
    _ response: @escaping @Sendable (LoopbackServer.Request) -> LoopbackServer.Response
  ) throws -> (LoopbackServer, ObjectManager) {
    let server = try LoopbackServer(handler: response)
    let manager = ObjectManager(
      baseURL: server.baseURL, router: try router(), provider: provider, options: options,
      limits: .loopback)
    return (server, manager)
  }

  /// The `.status` failure `error` is, or `nil`.
  static func failure(_ error: ObjectManagerError) -> HTTPFailure? {
    if case .status(let failure) = error { return failure }
    return nil
  }

  // MARK: 1.7.5 non-2xx responses never overwrite the target

  // R-1.7.5: an error payload that looks like the object is not mapped onto the sent object, for
  // every verb that maps back onto it; the class instance keeps every value, and the echoed
  // `title` is not a message (only `errors` is: RFC 9457's `title` needs its media type).
  @Test(arguments: [HTTPMethod.post, .put, .patch, .get])
  func r1_7_5_errorPayloadNeverOverwritesTheTarget(method: HTTPMethod) async throws {
    let (server, manager) = try Self.serve { _ in
      .json(#"{"id": 99, "title": "Overwritten", "errors": ["title is taken"]}"#, status: 422)
    }
    defer { server.stop() }
    let article = Self.article(7, "Kept", body: "text")
    let error = await #expect(throws: ObjectManagerError.self) {
      switch method {
      case .post: _ = try await manager.post(article, mapping: Self.articleMapping)
      case .put: _ = try await manager.put(article, mapping: Self.articleMapping)
      case .patch: _ = try await manager.patch(article, mapping: Self.articleMapping)
      default: _ = try await manager.reload(article, mapping: Self.articleMapping)
      }
    }
    #expect(error.flatMap(Self.failure)?.statusCode == 422)
    #expect(error.flatMap(Self.failure)?.description == "title is taken")
    #expect(article.id == 7 && article.title == "Kept" && article.body == "text")
  }

  // R-1.7.5 (mapper level): the error routes never take the target: an error payload leaves the
  // target as it was (ignored, with a diagnostic).
  @Test func r1_7_5_errorRoutesNeverTakeTheTarget() throws {
    let article = Self.article(7, "Kept")
    let result = try Mapper(MappingProvider { Route("", Self.articleMapping) })
      .map(#"{"errors": ["error1"]}"#, target: article)
    #expect(result.asError()?.description == "error1")
    #expect(article.id == 7 && article.title == "Kept")
    #expect(result.all(Article.self).isEmpty)
  }

  // MARK: 1.13.1 request bodies by method

  // R-1.13.1: GET (a reload) and DELETE send no body and no Content-Type; POST, PUT and PATCH
  // send the object written by the mapping's inverse (nil attributes as null under the preset).
  @Test func r1_13_1_bodiesByMethod() async throws {
    let (server, manager) = try Self.serve(options: .restKitCompatible) { request in
      request.method == "DELETE" ? .json("", status: 204) : .json(#"{"id": 7}"#)
    }
    defer { server.stop() }
    let article = Self.article(7, "T")
    _ = try await manager.reload(article, mapping: Self.articleMapping)
    try await manager.delete(article)
    _ = try await manager.post(article, mapping: Self.articleMapping)
    _ = try await manager.put(article, mapping: Self.articleMapping)
    _ = try await manager.patch(article, mapping: Self.articleMapping, format: .formURLEncoded)
    let requests = server.requests
    #expect(requests.map(\.method) == ["GET", "DELETE", "POST", "PUT", "PATCH"])
    #expect(
      requests.map(\.path) == [
        "/articles/7", "/articles/7", "/articles", "/articles/7", "/articles/7",
      ])
    for request in requests.prefix(2) {
      #expect(request.body.isEmpty)
      #expect(!request.fields.contains { $0.name.lowercased() == "content-type" })
    }
    for request in requests[2...3] {
      let object = try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]
      #expect(object?["id"] as? Int == 7)
      #expect(object?["title"] as? String == "T")
      #expect(object?["body"] is NSNull)
    }
    #expect(requests.last?.bodyText.contains("title=T") == true)
  }

  class Animal: @unchecked Sendable {
    var name = ""
    init() {}
  }
  final class Dog: Animal, @unchecked Sendable {}

  // R-1.13.1 (descriptor choice): the mapping given to the request writes the body; an instance
  // of a subclass is written by its superclass's mapping, under the superclass's route.
  @Test func r1_13_1_subclassWrittenByTheGivenMapping() async throws {
    let animalMapping = Mapping(Animal.init) { Attribute("name", \.name) }
    var router = Router()
    try router.add(Animal.self, .post, "/animals")
    let server = try LoopbackServer { _ in .json(#"{"name": "Rex 2"}"#, status: 201) }
    defer { server.stop() }
    let manager = ObjectManager(baseURL: server.baseURL, router: router, limits: .loopback)
    let dog = Dog()
    dog.name = "Rex"
    let sent: Animal = dog
    let answered = try await manager.post(sent, mapping: animalMapping)
    #expect(server.requests.first?.path == "/animals")
    #expect(server.requests.first?.bodyText == #"{"name":"Rex"}"#)
    #expect(answered === dog && dog.name == "Rex 2")
  }

  // MARK: 1.14 the mapping result

  struct Item: Equatable, Sendable {
    var id = 0
  }

  static let itemMapping = Mapping(Item.init) { Attribute("id", \.id) }

  // R-1.14.1 / R-1.14.2: a provider response's result: the dictionary by key path (a collection
  // as an array, a single object as itself), the flattened array (ours: route order, then
  // payload order), the count, and the first object.
  @Test func r1_14_1_resultAccessorsThroughTheManager() async throws {
    let provider = MappingProvider {
      Route("one", Self.itemMapping)
      Route("many", Self.itemMapping)
    }
    let (server, manager) = try Self.serve(provider: provider) { _ in
      .json(#"{"many": [{"id": 2}, {"id": 3}], "one": {"id": 1}}"#)
    }
    defer { server.stop() }
    let result = try await manager.get("/feed")
    #expect(result.count == 3)
    #expect(
      result.asCollection().compactMap { $0 as? Item } == [Item(id: 1), Item(id: 2), Item(id: 3)])
    #expect(result.asObject() as? Item == Item(id: 1))
    #expect(result.first(Item.self, at: "many") == Item(id: 2))
    let dictionary = result.asDictionary()
    #expect(dictionary["one"] as? Item == Item(id: 1))
    #expect(
      (dictionary["many"] as? [Any])?.compactMap { $0 as? Item } == [Item(id: 2), Item(id: 3)])
    #expect(result.errors.isEmpty)
  }

  // R-1.14.1: firstObject never raises: an empty 200 or 204 is an empty result with no first
  // object and a count of 0; the whole payload's key is "" (RestKit's NSNull).
  @Test func r1_14_1_emptyResultsAndTheWholePayloadKey() async throws {
    let (server, manager) = try Self.serve(
      provider: MappingProvider { Route("", Self.itemMapping) }
    ) { request in
      request.path == "/empty" ? .json("", status: 204) : .json(#"{"id": 4}"#)
    }
    defer { server.stop() }
    let empty = try await manager.get("/empty")
    #expect(empty.asObject() == nil && empty.count == 0 && empty.isEmpty)
    #expect(empty.errors.isEmpty)
    let whole = try await manager.get("/item")
    #expect(whole.asDictionary()[""] as? Item == Item(id: 4))
    #expect(whole.keyPaths == [""])
  }

  // R-1.14.3 (ours: documented): with no objects, asError is nil, not a placeholder error; with
  // objects it joins their descriptions with ", " and keeps them.
  @Test func r1_14_3_asErrorWithAndWithoutObjects() throws {
    let mapper = Mapper(MappingProvider { Route("items", Self.itemMapping) })
    #expect(try mapper.map(#"{"items": []}"#).asError() == nil)
    let error = try #require(try mapper.map(#"{"errors": ["a", "b"]}"#).asError())
    #expect(error.description == "a, b")
    #expect(error.objects(ErrorMessage.self).map(\.message) == ["a", "b"])
  }

  // MARK: 1.15 error payloads and HTTP status

  // R-1.15.1: {"errors": [...]} gives one message per element, joined with ", "; {"error": "…"}
  // gives one.
  @Test(arguments: [
    (#"{"errors": ["error1", "error2"]}"#, ["error1", "error2"], "status 422: error1, error2"),
    (#"{"error": "this is an error"}"#, ["this is an error"], "status 422: this is an error"),
  ])
  func r1_15_1_errorMessages(body: String, messages: [String], description: String) async throws {
    let (server, manager) = try Self.serve { _ in .json(body, status: 422) }
    defer { server.stop() }
    let error = await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.get("/articles/1", mapping: Self.articleMapping)
    }
    let failure = try #require(error.flatMap(Self.failure))
    #expect(failure.messages.map(\.message) == messages)
    #expect(failure.description == messages.joined(separator: ", "))
    #expect(error?.description == description)
  }

  // R-1.15.2: a 4xx or 5xx with an empty body, with `{}`, or with a body no error route reads is
  // an error that carries the status, with no messages (RestKit's "unprocessable error
  // response"); a JSON body that echoes a `title` has no messages either; the same through the
  // provider.
  @Test(arguments: [
    (400, ""), (404, "{}"), (500, "{}"), (503, ""), (422, #"{"id": 1}"#), (500, "[]"),
    (409, #"{"id": 1, "title": "Existing"}"#),
  ])
  func r1_15_2_statusWithoutMessages(status: Int, body: String) async throws {
    let provider = MappingProvider { Route("", Self.itemMapping) }
    let (server, manager) = try Self.serve(provider: provider) { _ in .json(body, status: status) }
    defer { server.stop() }
    let error = await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.get("/articles/1", mapping: Self.articleMapping)
    }
    let failure = try #require(error.flatMap(Self.failure))
    #expect(failure.statusCode == status)
    #expect(failure.messages.isEmpty)
    #expect(error?.description == "status \(status)")
    let viaProvider = await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.get("/feed")
    }
    #expect(viaProvider.flatMap(Self.failure)?.statusCode == status)
  }

  // R-1.15.2: a non-JSON error body (an HTML error page) is still the status error, not a
  // content-type or mapping error.
  @Test func r1_15_2_htmlErrorPageIsTheStatus() async throws {
    let (server, manager) = try Self.serve { _ in
      LoopbackServer.Response(
        status: 502, headers: ["Content-Type": "text/html"],
        body: Array("<html>Bad gateway</html>".utf8))
    }
    defer { server.stop() }
    let error = await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.get("/articles/1", mapping: Self.articleMapping)
    }
    #expect(error.flatMap(Self.failure)?.statusCode == 502)
    #expect(error.flatMap(Self.failure)?.messages.isEmpty == true)
  }

  struct APIError: Equatable, Sendable, CustomStringConvertible {
    var message = ""
    var code = 0
    var description: String { "\(message) (\(code))" }
  }

  static let apiErrorMapping = Mapping(APIError.init) {
    Attribute("msg", \.message)
    Attribute("code", \.code)
  }

  // R-1.15.3: a custom error type's description builds the message (mapper level).
  @Test func r1_15_3_customErrorTypeAtTheMapper() throws {
    let provider = MappingProvider(errorRoutes: [Route("error", Self.apiErrorMapping)]) {
      Route("article", Self.articleMapping)
    }
    let result = try Mapper(provider).map(
      #"{"error": {"msg": "This is the error message", "code": 12345}}"#)
    #expect(result.asError()?.description == "This is the error message (12345)")
    #expect(result.asError()?.objects(APIError.self).first?.code == 12345)
  }

  // R-1.15.3: through the manager, a 4xx body is read by the provider's error routes, so a custom
  // error type's description is the failure's message.
  @Test func r1_15_3_customErrorTypeThroughTheManager() async throws {
    let provider = MappingProvider(errorRoutes: [Route("error", Self.apiErrorMapping)]) {
      Route("article", Self.articleMapping)
    }
    let (server, manager) = try Self.serve(provider: provider) { _ in
      .json(#"{"error": {"msg": "This is the error message", "code": 12345}}"#, status: 422)
    }
    defer { server.stop() }
    let error = await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.get("/articles/1")
    }
    let failure = try #require(error.flatMap(Self.failure))
    #expect(failure.description == "This is the error message (12345)")
    #expect(error?.description == "status 422: This is the error message (12345)")
  }

  // R-1.15.4: when no route matched anything, the error lists every key path tried (sorted) and
  // the payload's top-level keys; through the manager's rootKey, the key path and the keys.
  @Test func r1_15_4_nothingMatchedListsWhatWasTried() async throws {
    let provider = MappingProvider {
      Route("this", Self.itemMapping)
      Route("that", Self.itemMapping)
    }
    let (server, manager) = try Self.serve(provider: provider) { _ in
      .json(#"{"user": {"id": 1}, "meta": {}}"#)
    }
    defer { server.stop() }
    let result = try await manager.get("/feed")
    #expect(result.isEmpty)
    #expect(
      result.errors.map(\.description) == [
        #"nothing to map: no route found mappable content at "error", "errors", "that", "this"; the payload's top-level keys are "user", "meta""#
      ])
    let error = await #expect(throws: ObjectManagerError.self) {
      _ = try await manager.get("/articles/1", mapping: Self.articleMapping, rootKey: "article")
    }
    guard case .mapping(let errors, let status)? = error else {
      Issue.record("expected a mapping error, got \(String(describing: error))")
      return
    }
    #expect(status == 200)
    #expect(
      errors.errors.first?.kind
        == .nothingFound(searched: ["article"], topLevelKeys: ["user", "meta"]))
  }

  // MARK: 1.17 identity (ours)

  final class Note: @unchecked Sendable {
    var id: Int?
    var text = ""
    init() {}
  }

  static let noteMapping = Mapping(Note.init) {
    Attribute("id", \.id)
    Attribute("text", \.text)
  }.identified(by: \.id)

  // R-1.17 (ours): one identity map per run: the same id twice in one response is one instance,
  // its values applied in payload order; an element without an id is never matched, with
  // another element or a stored instance.
  @Test @MainActor func r1_17_identityMapPerRunAndMissingIDs() async throws {
    let (server, manager) = try Self.serve { _ in
      .json(
        #"[{"id": 1, "text": "a"}, {"text": "no id"}, {"id": 1, "text": "b"}, {"id": null, "text": "null id"}]"#
      )
    }
    defer { server.stop() }
    let store = InMemoryObjectStore()
    let load = try await manager.getCollection("/notes", mapping: Self.noteMapping, store: store)
    try #require(load.objects.count == 4)
    #expect(load.objects[0] === load.objects[2])
    #expect(load.objects[0].text == "b")
    #expect(load.objects[1] !== load.objects[3])
    #expect(store.ids(of: Note.self) == ["1"])
    let again = try await manager.getCollection("/notes", mapping: Self.noteMapping, store: store)
    try #require(again.objects.count == 4)
    #expect(again.objects[0] === load.objects[0])
    #expect(again.objects[1] !== load.objects[1] && again.objects[3] !== load.objects[3])
  }

  final class Board: @unchecked Sendable {
    var notes: [Note] = []
    init() {}
  }

  // R-1.17 (ours, as Documentation/UpdatingExistingObjects.md promises it): mapped onto an
  // existing object, the children of one payload are one run: the same id twice is one object
  // (the later values win); children without an id are never merged. (A fresh mapping makes one
  // object per element, as RestKit did for plain objects.)
  @Test func r1_17_identityMapAmongChildren() async throws {
    let boardMapping = Mapping(Board.init) { Relationship("notes", \.notes, Self.noteMapping) }
    let (server, manager) = try Self.serve { _ in
      .json(
        #"{"notes": [{"id": 1, "text": "a"}, {"id": 1, "text": "b"}, {"text": "c"}, {"text": "d"}]}"#
      )
    }
    defer { server.stop() }
    let board = Board()
    _ = try await manager.reload(board, mapping: boardMapping, path: "/board")
    #expect(board.notes.map(\.text) == ["b", "c", "d"])
    #expect(board.notes.map(\.id) == [1, nil, nil])
  }

  // R-1.17 (ours, "adopt target"): a POST's response is mapped onto the sent object, so it takes
  // the server's id (and keeps what the response leaves out): no duplicate after a POST.
  @Test func r1_17_postAdoptsTheServersID() async throws {
    let (server, manager) = try Self.serve { _ in .json(#"{"id": 42}"#, status: 201) }
    defer { server.stop() }
    let draft = Self.article(0, "Draft", body: "text")
    let created = try await manager.post(draft, mapping: Self.articleMapping)
    #expect(created === draft)
    #expect(draft.id == 42 && draft.title == "Draft" && draft.body == "text")
    #expect(server.requests.first?.path == "/articles")
  }

  // R-1.17 (ours, "adopt target", structs): the returned copy carries the server's id.
  @Test func r1_17_postAdoptsTheServersIDForAStruct() async throws {
    struct Draft: Equatable, Sendable {
      var id = 0
      var title = ""
    }
    let mapping = Mapping(Draft.init) {
      Attribute("id", \.id)
      Attribute("title", \.title)
    }
    let (server, manager) = try Self.serve { _ in
      .json(#"{"article": {"id": 42}}"#, status: 201)
    }
    defer { server.stop() }
    let created = try await manager.post(
      Draft(title: "Draft"), mapping: mapping, path: "/articles", rootKey: "article")
    #expect(created == Draft(id: 42, title: "Draft"))
    #expect(server.requests.first?.bodyText == #"{"article":{"id":0,"title":"Draft"}}"#)
  }

  // MARK: 1.18 destination object creation

  final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    func increment() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
  }

  struct Word: Equatable, Sendable {
    var text = ""
  }

  // R-1.18.1: a new object is made (the initializer runs) for every mapped representation,
  // scalar representations too (RestKit's `{null: x}`: ours, `.root`).
  @Test func r1_18_1_oneNewObjectPerRepresentation() async throws {
    let counter = Counter()
    let make = { @Sendable () -> Word in
      counter.increment()
      return Word()
    }
    let mapping = Mapping(make) { Attribute(.root, \.text) }
    let (server, manager) = try Self.serve { _ in .json(#"["a", "b", "c"]"#) }
    defer { server.stop() }
    let words = try await manager.getCollection("/words", mapping: mapping)
    #expect(words == [Word(text: "a"), Word(text: "b"), Word(text: "c")])
    #expect(counter.value == 3)
  }
}
