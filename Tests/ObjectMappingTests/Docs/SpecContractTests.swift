import Foundation
import ObjectMapping
import Testing

/// The public spellings SPEC.md calls a contract ("documentation, examples and outside tests use
/// them"), written as the spec writes them: its code blocks of §2–§5 and §8, and the spellings its
/// prose names (`.skippingInvalidElements`, `.optional()`, `.identified(by:)`, the collection
/// policies, `.rejectingUnknownKeys`, `validate()`, `.nulls(.include)`, `.validate { … }`,
/// `KeyValueValidating`, the mapping result's accessors). If one stops compiling or behaving,
/// this suite fails.
enum SpecContract {
  struct Author: Equatable {
    var name = ""
    var email: String?
  }
  struct Article: Equatable {
    var id = 0
    var title = ""
    var body = ""
    var author: Author?
    var publishedAt: Date?
    var tags: [String] = []
  }

  // §3, verbatim.
  static let authorMapping = Mapping(Author.init) {
    Attribute("name", \.name)
    Attribute("email", \.email)
  }

  static let articleMapping = Mapping(Article.init) {
    Attribute("id", \.id)
    Attribute("title", \.title)
    Attribute("body", \.body, default: "")
    Attribute("publication_date", \.publishedAt, .date(format: "M/d/yyyy"))
    Attribute("meta.tags", \.tags)
    Relationship("author", \.author, authorMapping)
  }

  static let json = #"""
    {"id": 7, "title": "Hello", "publication_date": "3/7/2024", "meta": {"tags": ["swift"]},
     "author": {"name": "Ann", "email": "ann@example.com"}}
    """#
  static var jsonData: Data { Data(json.utf8) }

  static let expected = Article(
    id: 7, title: "Hello", body: "", author: Author(name: "Ann", email: "ann@example.com"),
    publishedAt: utc(2024, 3, 7), tags: ["swift"])
}

@Suite("SPEC.md: the public spellings it calls a contract")
struct SpecContractTests {
  typealias Article = SpecContract.Article
  typealias Author = SpecContract.Author

  @Test("§2: the document model and formats")
  func documentModel() throws {
    let data = Data(#"{"user": {"name": "Ann"}, "tags": ["a"]}"#.utf8)
    let jsonSerializationOutput = try JSONSerialization.jsonObject(with: data)
    let node = try Node(jsonData: data)  // also Node(jsonString:)
    let bytes = try node.jsonData()  // options: pretty, sorted keys
    let form = try Node(formURLEncoded: "user[name]=Ann&tags[]=a")
    let body = try node.formURLEncodedString()
    let fromFoundation = try Node(foundation: jsonSerializationOutput)
    let any: Any = node.foundationValue

    #expect(try Node(jsonData: bytes) == node)
    #expect(form == node)
    #expect(try Node(formURLEncoded: body) == node)
    #expect(fromFoundation == node)
    #expect(try Node(foundation: any) == node)
  }

  @Test("§3: map, mapCollection and map(_:onto:) from Data, String, Node and Foundation values")
  func mappings() throws {
    let articleMapping = SpecContract.articleMapping
    let jsonData = SpecContract.jsonData
    var existing = Article(id: 7, title: "Old", body: "kept")

    let article: Article = try articleMapping.map(jsonData)  // Data, String, Node or Foundation Any
    let articles: [Article] = try articleMapping.mapCollection(jsonData)
    try articleMapping.map(jsonData, onto: &existing)  // update an existing instance

    #expect(article == SpecContract.expected)
    #expect(articles == [SpecContract.expected])
    #expect(existing.title == "Hello" && existing.body == "kept")
    // The other inputs the comment names.
    #expect(try articleMapping.map(SpecContract.json) == article)
    #expect(try articleMapping.map(try Node(jsonData: jsonData)) == article)
    let foundation = try JSONSerialization.jsonObject(with: jsonData)
    #expect(try articleMapping.map(.foundation(foundation)) == article)
    let dictionary = try #require(foundation as? [String: Any])
    #expect(try articleMapping.map(dictionary) == article)
  }

  @Test("§3: collections throw every element's errors; .skippingInvalidElements keeps the rest")
  func collections() throws {
    let payload =
      "[\(SpecContract.json), {\"id\": \"x\", \"title\": \"B\", \"meta\": {\"tags\": []}}]"
    #expect(throws: MappingErrors.self) { try SpecContract.articleMapping.mapCollection(payload) }
    let mapped = try SpecContract.articleMapping.mapCollection(
      payload, options: .skippingInvalidElements)
    #expect(mapped.objects == [SpecContract.expected])
    #expect(mapped.errors.map(\.description) == [#"/1/id: cannot convert "x" to an integer"#])
  }

  @Test("§3, §7: optional/required, identity, policies, unknown keys, validate(), validation")
  func modifiers() throws {
    struct Tag: Equatable, Sendable {
      var id = 0
      var label = ""
    }
    struct Post: Equatable, Sendable {
      var id = 0
      var title = ""
      var tags: [Tag] = []
    }
    let tagMapping = Mapping(Tag.init) {
      Attribute("id", \.id)
      Attribute("label", \.label)
    }.identified(by: \.id)
    let postMapping = Mapping(Post.init) {
      Attribute("id", \.id)
      Attribute("title", \.title).optional().validate { (value: inout String) throws -> Bool in
        value = value.trimmingCharacters(in: .whitespaces)
        return !value.isEmpty
      }
      Relationship("tags", \.tags, tagMapping).policy(.union)
    }.rejectingUnknownKeys()
    try postMapping.validate()

    var post = Post(id: 1, title: "Kept", tags: [Tag(id: 1, label: "a")])
    try postMapping.map(
      #"{"id": 1, "title": "  ", "tags": [{"id": 1, "label": "A"}, {"id": 2, "label": "b"}]}"#,
      onto: &post)
    #expect(post.title == "Kept")  // rejected by the validator: the previous value stays
    #expect(post.tags == [Tag(id: 1, label: "A"), Tag(id: 2, label: "b")])  // .union by identity
    #expect(throws: MappingErrors.self) { try postMapping.map(#"{"id": 1, "extra": true}"#) }

    // `.required()` on an optional property, `.nulls(.include)` writing its `nil` as `null`.
    let strictAuthor = Mapping(Author.init) {
      Attribute("name", \.name)
      Attribute("email", \.email).required()
    }
    #expect(
      errorLines { try strictAuthor.map(#"{"name": "Ann"}"#) } == [
        "/email: required value is missing"
      ])
    let written = try SpecContract.authorMapping.nulls(.include).serialize(Author(name: "Ann"))
    #expect(String(decoding: written, as: UTF8.self) == #"{"name":"Ann","email":null}"#)
  }

  @Test("§4: inversion and serialization")
  func inversion() throws {
    let articleMapping = SpecContract.articleMapping
    let article = SpecContract.expected

    let inverse = articleMapping.inverted()  // object -> payload; customizable
    let json: Data = try inverse.serialize(article, as: .json)
    let form: Data = try inverse.rootKey("article").serialize(article, as: .formURLEncoded)
    // data + Content-Type
    let body = try articleMapping.requestBody(for: article, as: .json, rootKey: "article")

    #expect(try articleMapping.map(json) == article)
    #expect(String(decoding: form, as: UTF8.self).hasPrefix("article[id]=7&article[title]=Hello"))
    #expect(body.contentType.hasPrefix("application/json"))
    #expect(try Node(jsonData: body.data)["article"]?["title"] == "Hello")
  }

  @Test("§5: dynamic mappings")
  func dynamicMappings() throws {
    let boyMapping = People.boyMapping
    let girlMapping = People.girlMapping

    let person = DynamicMapping<Person> {
      Match("type", equals: "Boy", boyMapping)
      Match("type", equals: "Girl", girlMapping)
    }

    let people = try person.mapCollection(
      #"[{"type": "Boy", "name": "Bo"}, {"type": "Girl", "name": "Ann", "favorite_color": "red"}]"#)
    #expect(people.map { "\(type(of: $0))" } == ["Boy", "Girl"])
  }

  @Test("§8: provider, mapper and result")
  func providerMapperAndResult() throws {
    let articleMapping = SpecContract.articleMapping
    let person = People.person
    let jsonData = Data(
      #"{"articles": [\#(SpecContract.json)], "people": [{"type": "Boy", "name": "Bo"}]}"#.utf8)

    let provider = MappingProvider {
      Route("articles", articleMapping)
      Route("people", person)
    }
    let result = try Mapper(provider).map(jsonData)  // throws only when the payload cannot be read
    let articles = result.all(Article.self)

    #expect(articles == [SpecContract.expected])
    #expect(result.first(Person.self)?.name == "Bo")
    #expect(result.asObject() as? Article == SpecContract.expected)
    #expect(result.asCollection().count == 2)
    #expect(result.asDictionary().keys.sorted() == ["articles", "people"])
    // The mapped objects as one error whose description joins theirs with ", ".
    let error = try #require(result.asError())
    #expect(error.messages.count == 2)
    #expect(error.description == error.messages.joined(separator: ", "))
    #expect(error.messages.last == String(describing: try #require(result.first(Person.self))))
  }
}
