import Foundation
import ObjectMapping
import Testing

// The code samples of Documentation/GettingStarted.md, ErrorsAndDiagnostics.md and the three
// migration guides (and of the DocC articles that repeat them), compiled and run. When a sample
// changes here, change the guide too: the comments in the guides show the values asserted below.

/// Documentation/GettingStarted.md.
enum GettingStartedSample {
  struct Author: Equatable {
    var name = ""
    var email: String?
  }

  struct Article: Equatable {
    var id = 0
    var title = ""
    var publishedAt: Date?
    var tags: [String] = []
    var author = Author()
  }

  static let authorMapping = Mapping(Author.init) {
    Attribute("name", \.name)
    Attribute("email", \.email)
  }

  static let articleMapping = Mapping(Article.init) {
    Attribute("id", \.id)
    Attribute("title", \.title)
    Attribute("published", \.publishedAt, .date(format: "yyyy-MM-dd"))
    Attribute("meta.tags", \.tags, default: [])
    Relationship("author", \.author, authorMapping)
  }

  static let json = """
    {"id": 7, "title": "Hello", "published": "2024-03-07",
     "meta": {"tags": ["swift", "json"]}, "author": {"name": "Ann"}}
    """
}

@Suite("Guide samples: Getting Started")
struct GettingStartedSampleTests {
  typealias Sample = GettingStartedSample

  @Test func mapsThePayload() throws {
    let article = try Sample.articleMapping.map(Sample.json)
    #expect(article.id == 7)
    #expect(article.title == "Hello")
    #expect(article.publishedAt == Date(timeIntervalSince1970: 1_709_769_600))
    #expect(article.tags == ["swift", "json"])
    #expect(article.author == Sample.Author(name: "Ann", email: nil))
  }

  @Test func reportsEveryProblemAndKeepsTheValidElements() throws {
    let payload = #"""
      [{"id": "7x", "title": "A", "author": {}},
       {"id": 8, "title": "B", "author": {"name": "Bo"}}]
      """#
    do {
      _ = try Sample.articleMapping.mapCollection(payload)
      Issue.record("expected errors")
    } catch {
      #expect(
        error.description == """
          /0/id: cannot convert "7x" to an integer
          /0/author/name: required value is missing
          """)
      let valid = error.partialResult(as: [Sample.Article].self) ?? []
      #expect(valid.map(\.id) == [8])
    }
    let mapped = try Sample.articleMapping.mapCollection(
      payload, options: .skippingInvalidElements)
    #expect(mapped.objects.map(\.id) == [8])
    #expect(mapped.errors.count == 2)
  }

  @Test func serializesWithTheSameMapping() throws {
    let article = try Sample.articleMapping.map(Sample.json)
    let json = try Sample.articleMapping.serialize(article)
    #expect(
      String(decoding: json, as: UTF8.self)
        == #"{"id":7,"title":"Hello","published":"2024-03-07","meta":{"tags":["swift","json"]},"author":{"name":"Ann"}}"#
    )
    let body = try Sample.articleMapping.requestBody(
      for: article, as: .formURLEncoded, rootKey: "article")
    #expect(body.contentType == "application/x-www-form-urlencoded")
    #expect(
      String(decoding: body.data, as: UTF8.self)
        == "article[id]=7&article[title]=Hello&article[published]=2024-03-07"
        + "&article[meta][tags][]=swift&article[meta][tags][]=json&article[author][name]=Ann")
  }

  @Test func mapsAWholeResponseWithTheMapper() throws {
    let provider = MappingProvider {
      Route("articles", Sample.articleMapping)
    }
    let response = #"""
      {"articles": [{"id": 1, "title": "One", "author": {"name": "Ann"}},
                    {"id": "two", "title": "Two", "author": {"name": "Bo"}}],
       "errors": ["rate limit almost reached"]}
      """#
    let result = try Mapper(provider).map(response)
    #expect(result.all(Sample.Article.self).map(\.title) == ["One"])
    #expect(
      result.errors.map(\.description) == [#"/articles/1/id: cannot convert "two" to an integer"#])
    #expect(result.all(ErrorMessage.self).map(\.message) == ["rate limit almost reached"])
  }
}

@Suite("Guide samples: Errors and Diagnostics")
struct ErrorsAndDiagnosticsSampleTests {
  typealias Sample = GettingStartedSample

  @Test func syntaxErrorsHaveALineAndColumn() {
    #expect(
      throws: MappingErrors([
        MappingError(
          .format(
            .syntax(
              message: "expected a value, found '}'",
              location: TextLocation(offset: 26, line: 2, column: 11))))
      ])
    ) {
      try Sample.authorMapping.map("{\"name\": \"Ann\",\n \"email\": }")
    }
  }

  @Test func errorKindsCanBeMatched() {
    do {
      _ = try Sample.articleMapping.map(#"{"id": 7, "title": ["Hi"], "author": {"name": "Ann"}}"#)
      Issue.record("expected errors")
    } catch {
      let first = error.errors[0]
      #expect(first.path == "/title")
      #expect(first.kind == .typeMismatch(expected: "a string", found: "an array"))
      #expect(first.description == "/title: expected a string, found an array")
    }
  }

  /// The guide's `switch` over kinds: the document layer's kinds are one `.format` case.
  @Test func kindsAreMatchedWithAFormatCaseAndADefault() {
    func handle(_ error: MappingError) -> String {
      switch error.kind {
      case .missingRequiredKey: return "ask for \(error.path)"
      case .format(.syntax(_, let location)): return "highlight line \(location.line)"
      case .format: return "show \(error.description)"
      default: return "log \(error.description)"
      }
    }
    let syntax = #expect(throws: MappingErrors.self) {
      try Sample.authorMapping.map("{\"name\": \"Ann\",\n \"email\": }")
    }
    #expect(syntax?.errors.map(handle) == ["highlight line 2"])
    let utf8 = #expect(throws: MappingErrors.self) {
      try Sample.authorMapping.map(Data([0x22, 0x61, 0xFF, 0x22]))
    }
    #expect(utf8?.errors.map(handle) == ["show invalid UTF-8 at line 1, column 3 (byte 2)"])
    let missing = #expect(throws: MappingErrors.self) { try Sample.authorMapping.map("{}") }
    #expect(missing?.errors.first.map(handle) == "ask for /name")
  }

  @Test func serializationErrorsHaveThePathInTheOutput() {
    struct Reading { var value = 0.0 }
    let mapping = Mapping(Reading.init) { Attribute("value", \.value) }
    #expect(
      throws: MappingErrors([MappingError(path: "/value", .format(.nonFiniteNumber(value: "nan")))])
    ) {
      try mapping.serialize(Reading(value: .nan))
    }
  }

  @Test func diagnosticsAndTraceComeWithTheResult() throws {
    struct Pet { var name = "" }
    let petMapping = Mapping(Pet.init) { Attribute("name", \.name) }
    let provider = MappingProvider {
      Route("pets", petMapping)
    }
    let result = try Mapper(provider, trace: true).map(
      #"{"pets": [{"name": "Rex"}, null, {"name": null}]}"#)
    #expect(result.all(Pet.self).map(\.name) == ["Rex"])
    #expect(result.errors.map(\.description) == ["/pets/2/name: expected a string, found null"])
    #expect(
      result.diagnostics.map(\.description) == [
        "/pets/1: element skipped: it is null",
        "/pets/2: element skipped: it did not map (see the errors at this path)",
      ])
    #expect(result.trace?.map(\.description) == [#"/pets: route matched "pets""#])
  }

  @Test func definitionMistakesAreReportedByValidate() {
    struct Member {
      var login = ""
      var email = ""
    }
    let mapping = Mapping(Member.init) {
      KeyAttribute("login", \.login)
      Attribute("(username).email", \.email)
    }
    #expect(throws: MappingErrors.self) { try mapping.validate() }
    do {
      try mapping.validate()
    } catch {
      #expect(
        error.description
          == #"invalid mapping definition: the placeholder (username) in "email" does not match the key attribute "login""#
      )
    }
  }
}

/// The model every migration guide shows in the old library's style and in ours.
enum MigrationSample {
  struct User: Equatable {
    var id = 0
    var name = ""
    var email: String?
    var joined: Date?
    var city = ""
    var friends: [User] = []
  }

  static let userMapping: Mapping<User> = Mapping(User.init) {
    Attribute("id", \.id)
    Attribute("name", \.name)
    Attribute("email", \.email)
    Attribute("joined", \.joined, .epochSeconds)
    Attribute("address.city", \.city, default: "")
    Relationship("friends", \.friends, lazy: { userMapping }).optional()
  }

  static let json = #"""
    {"id": 1, "name": "Ann", "email": "ann@example.com", "joined": 1557619200,
     "address": {"city": "Oslo"},
     "friends": [{"id": 2, "name": "Bob", "address": {"city": "Bergen"}}]}
    """#

  static var expected: User {
    let bob = User(id: 2, name: "Bob", city: "Bergen")
    return User(
      id: 1, name: "Ann", email: "ann@example.com",
      joined: Date(timeIntervalSince1970: 1_557_619_200), city: "Oslo", friends: [bob])
  }

  /// The Codable side of Documentation/MigratingFromCodable.md.
  struct CodableUser: Codable, Equatable {
    var id: Int
    var name: String
    var email: String?
    var joined: Date?
    var city: String
    var friends: [CodableUser]

    enum CodingKeys: String, CodingKey {
      case id, name, email, joined, address, friends
    }

    enum AddressKeys: String, CodingKey {
      case city
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      id = try container.decode(Int.self, forKey: .id)
      name = try container.decode(String.self, forKey: .name)
      email = try container.decodeIfPresent(String.self, forKey: .email)
      joined = try container.decodeIfPresent(Date.self, forKey: .joined)
      let address = try? container.nestedContainer(keyedBy: AddressKeys.self, forKey: .address)
      city = try address?.decodeIfPresent(String.self, forKey: .city) ?? ""
      friends = try container.decodeIfPresent([CodableUser].self, forKey: .friends) ?? []
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(id, forKey: .id)
      try container.encode(name, forKey: .name)
      try container.encodeIfPresent(email, forKey: .email)
      try container.encodeIfPresent(joined, forKey: .joined)
      var address = container.nestedContainer(keyedBy: AddressKeys.self, forKey: .address)
      try address.encode(city, forKey: .city)
      try container.encode(friends, forKey: .friends)
    }
  }
}

@Suite("Guide samples: the migration guides' shared model")
struct MigrationSampleTests {
  typealias Sample = MigrationSample

  @Test func oursMapsAndSerializesTheModel() throws {
    let user = try Sample.userMapping.map(Sample.json)
    #expect(user == Sample.expected)
    let json = try Sample.userMapping.serialize(user)
    #expect(
      String(decoding: json, as: UTF8.self)
        == #"{"id":1,"name":"Ann","email":"ann@example.com","joined":1557619200,"address":{"city":"Oslo"},"friends":[{"id":2,"name":"Bob","address":{"city":"Bergen"},"friends":[]}]}"#
    )
  }

  @Test func codableReadsTheSamePayloadIntoTheSameValues() throws {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    let user = try decoder.decode(Sample.CodableUser.self, from: Data(Sample.json.utf8))
    let ours = try Sample.userMapping.map(Sample.json)
    #expect(user.id == ours.id && user.name == ours.name && user.email == ours.email)
    #expect(user.joined == ours.joined && user.city == ours.city)
    #expect(user.friends.map(\.name) == ours.friends.map(\.name))
  }

  @Test func codableStopsAtTheFirstErrorWhereOursReportsAll() {
    let bad = #"{"id": "1", "name": 2, "friends": [{"id": 2}]}"#
    let decoder = JSONDecoder()
    #expect(throws: DecodingError.self) {
      try decoder.decode(Sample.CodableUser.self, from: Data(bad.utf8))
    }
    do {
      _ = try Sample.userMapping.coercion(.strict).map(bad)
      Issue.record("expected errors")
    } catch {
      #expect(
        error.description == """
          /id: expected an integer, found "1"
          /name: expected a string, found 2
          /friends/0/name: required value is missing
          """)
    }
  }

  @Test func lenientCoercionReadsNumbersInStrings() throws {
    let user = try Sample.userMapping.map(#"{"id": "1", "name": "Ann", "joined": "1557619200"}"#)
    #expect(user.id == 1)
    #expect(user.joined == Date(timeIntervalSince1970: 1_557_619_200))
  }

  @Test func inverseListsWhatItLeavesOut() {
    struct Post {
      var text = ""
      var length = 0
    }
    let mapping = Mapping(Post.init) {
      Attribute("text", \.text)
      Attribute("text", \.length, decodeOnly: { (text: String) in text.count })
    }
    #expect(
      mapping.inverted().omitted.map(\.description) == [
        #"Attribute "text": it converts with a one-way closure or transform"#
      ])
  }
}

@Suite("Guide samples: the error table of ErrorsAndDiagnostics.md")
struct ErrorTableSampleTests {
  typealias Sample = GettingStartedSample

  @Test func readerErrorLines() {
    let deep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
    #expect(
      throws: MappingErrors([
        MappingError(
          .format(
            .depthLimitExceeded(
              limit: 512, location: TextLocation(offset: 512, line: 1, column: 513))))
      ])
    ) { try Sample.authorMapping.map(deep) }
    #expect(
      throws: MappingErrors([
        MappingError(.format(.invalidUTF8(location: TextLocation(offset: 2, line: 1, column: 3))))
      ])
    ) { try Sample.authorMapping.map(Data([0x22, 0x61, 0xFF, 0x22])) }
  }

  @Test func nothingFoundLine() throws {
    let provider = MappingProvider { Route("articles", Sample.articleMapping) }
    let result = try Mapper(provider).map(#"{"data": []}"#)
    #expect(
      result.errors.map(\.description) == [
        #"nothing to map: no route found mappable content at "articles", "error", "errors"; the payload's top-level keys are "data""#
      ])
  }
}

/// Documentation/UpdatingExistingObjects.md and Validation.md: one `onto:` spelling for structs
/// and classes, `report(_:onto:)`, and a collection's valid elements (issue 37).
@Suite("Guide samples: Updating Existing Objects")
struct UpdatingExistingObjectsSampleTests {
  struct Article: Equatable {
    var id = 0
    var title = ""
  }

  final class Post {
    var id = 0
    var title = ""
  }

  static let articleMapping = Mapping(Article.init) {
    Attribute("id", \.id)
    Attribute("title", \.title)
  }

  static let postMapping = Mapping(Post.init) {
    Attribute("id", \.id)
    Attribute("title", \.title)
  }

  @Test func oneSpellingUpdatesAStructAndAClassInstance() throws {
    var article = try Self.articleMapping.map(#"{"id": 1, "title": "Original"}"#)
    try Self.articleMapping.map(#"{"title": "Updated"}"#, onto: &article)
    #expect(article == Article(id: 1, title: "Updated"))

    let post = Post()
    var target = post
    try Self.postMapping.map(#"{"id": 2, "title": "New"}"#, onto: &target)
    #expect(target === post && post.id == 2 && post.title == "New")
  }

  @Test func reportOntoReturnsTheUpdatedInstance() {
    let article = Article(id: 1, title: "Original")
    let update = Self.articleMapping.report(#"{"title": "Updated"}"#, onto: article)
    #expect(update.object == Article(id: 1, title: "Updated"))
    #expect(article == Article(id: 1, title: "Original"))
    let failed = Self.articleMapping.report(#"{"title": []}"#, onto: article)
    #expect(failed.object == nil)
    #expect(failed.summary == ["/title: expected a string, found an array"])
  }

  @Test func aCollectionKeepsItsValidElementsThroughAWholePayloadRoute() throws {
    let json = #"[{"id": 1, "title": "A"}, {"id": 2, "title": []}, {"id": 3, "title": "C"}]"#
    do {
      _ = try Self.articleMapping.mapCollection(json)
      Issue.record("expected errors")
    } catch {
      #expect(error.partialResult(as: [Article].self)?.map(\.id) == [1, 3])
    }
    let mapped = try Mapper(MappingProvider { Route("", Self.articleMapping) }).map(json)
    #expect(mapped.all(Article.self).map(\.id) == [1, 3])
    #expect(mapped.errors.map(\.description) == ["/1/title: expected a string, found an array"])
  }

  @Test func aPayloadWithAContentTypeIsAnInput() throws {
    let body = Data("id=4&title=Form".utf8)
    let article = try Self.articleMapping.map(
      .payload(body, contentType: "application/x-www-form-urlencoded"))
    #expect(article == Article(id: 4, title: "Form"))
  }
}
