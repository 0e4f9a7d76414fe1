import Foundation
import ObjectMapping
import ObjectMappingTesting
import Testing

/// The output of a serialization as text.
private func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

private let sampleArticle = Article(
  id: 7, title: "Hello", body: "", author: Author(name: "Ann", email: nil),
  publishedAt: utc(2012, 3, 1), tags: ["a", "b"])

@Suite("Serialization: JSON output")
struct JSONSerializationTests {
  @Test func writesDeclarationOrderNestedKeysAndOmitsNil() throws {
    let json = try articleMapping.serialize(sampleArticle, as: .json)
    #expect(
      text(json)
        == #"{"id":7,"title":"Hello","body":"","publication_date":"3/1/2012","meta":{"tags":["a","b"]},"author":{"name":"Ann"}}"#
    )
  }

  @Test func includesNullsPerMappingAndPerAttribute() throws {
    var article = sampleArticle
    article.publishedAt = nil
    article.author = nil
    let everyNull = try articleMapping.nulls(.include).serialize(article)
    #expect(
      text(everyNull)
        == #"{"id":7,"title":"Hello","body":"","publication_date":null,"meta":{"tags":["a","b"]},"author":null}"#
    )
    let oneNull = Mapping(Author.init) {
      Attribute("name", \.name)
      Attribute("email", \.email).nulls(.include)
    }
    #expect(text(try oneNull.serialize(Author(name: "Ann"))) == #"{"name":"Ann","email":null}"#)
    let overridden = Mapping(Author.init) {
      Attribute("name", \.name)
      Attribute("email", \.email).nulls(.omit)
    }.nulls(.include)
    #expect(text(try overridden.serialize(Author(name: "Ann"))) == #"{"name":"Ann"}"#)
  }

  @Test func nestedDestinationPathsShareIntermediateObjects() throws {
    struct Customer: Equatable {
      var name = ""
      var city: String?
      var street: String?
      var zip: String?
    }
    let mapping = Mapping(Customer.init) {
      Attribute("user.name", \.name)
      Attribute("user.address.city", \.city)
      Attribute("user.address.street", \.street)
      Attribute("zip", \.zip)
    }
    let full = Customer(name: "Ann", city: "Oslo", street: "Main", zip: "0150")
    #expect(
      text(try mapping.serialize(full))
        == #"{"user":{"name":"Ann","address":{"city":"Oslo","street":"Main"}},"zip":"0150"}"#)
    // An intermediate object whose members are all nil is left out, not written as {}.
    let sparse = Customer(name: "Ann")
    #expect(text(try mapping.serialize(sparse)) == #"{"user":{"name":"Ann"}}"#)
    try RoundTripLaws(mapping).checkValue(full)
    try RoundTripLaws(mapping).checkValue(sparse)
  }

  @Test func rootKeyWrapsObjectsAndCollections() throws {
    let author = Author(name: "Ann", email: "ann@example.com")
    let inverse = authorMapping.inverted().rootKey("author")
    #expect(
      text(try inverse.serialize(author))
        == #"{"author":{"name":"Ann","email":"ann@example.com"}}"#)
    let many = [author, Author(name: "Bob")]
    #expect(
      text(try authorMapping.inverted().rootKey("data.authors").serializeCollection(many))
        == #"{"data":{"authors":[{"name":"Ann","email":"ann@example.com"},{"name":"Bob"}]}}"#)
    #expect(
      text(try authorMapping.serializeCollection(many))
        == #"[{"name":"Ann","email":"ann@example.com"},{"name":"Bob"}]"#)
  }

  @Test func decimalOf25DigitsIsWrittenUnchanged() throws {
    struct Price: Equatable { var amount = Decimal(0) }
    let mapping = Mapping(Price.init) { Attribute("amount", \.amount) }
    let payload = #"{"amount":1234567890.123456789012345}"#
    let price = try mapping.map(payload)
    #expect(text(try mapping.serialize(price)) == payload)
    #expect(
      text(try mapping.inverted().decimals(.string).serialize(price))
        == #"{"amount":"1234567890.123456789012345"}"#)
    try RoundTripLaws(mapping).checkPayload(json: payload)
  }

  @Test func datesUseTheFirstFormatOfTheAttributeOrMapping() throws {
    struct Event: Equatable {
      var start = Date(timeIntervalSince1970: 0)
      var end = Date(timeIntervalSince1970: 0)
    }
    let mapping = Mapping(Event.init) {
      Attribute("start", \.start)
      Attribute("end", \.end).dateFormats([.pattern("dd/MM/yyyy"), .iso8601])
    }
    let event = Event(start: utc(2011, 7, 7, 4, 35, 28), end: utc(2012, 3, 1))
    #expect(
      text(try mapping.serialize(event)) == #"{"start":"2011-07-07T04:35:28Z","end":"01/03/2012"}"#
    )
    let fractional = Event(start: Date(timeIntervalSince1970: 1.123), end: utc(2012, 3, 1))
    #expect(
      text(try mapping.serialize(fractional)).hasPrefix(#"{"start":"1970-01-01T00:00:01.123Z""#))
    let epoch = mapping.dateFormats([.epochSeconds])
    #expect(text(try epoch.serialize(event)) == #"{"start":1310013328,"end":"01/03/2012"}"#)
    try RoundTripLaws(mapping).checkValue(event)
    try RoundTripLaws(epoch).checkValue(event)
  }

  @Test func setsAndDictionariesAreWrittenInADeterministicOrder() throws {
    struct Tagged: Equatable {
      var tags: Set<String> = []
      var counts: [String: Int] = [:]
    }
    let mapping = Mapping(Tagged.init) {
      Attribute("tags", \.tags)
      Attribute("counts", \.counts)
    }
    let value = Tagged(tags: ["pear", "apple", "fig"], counts: ["b": 2, "a": 1, "c": 3])
    #expect(
      text(try mapping.serialize(value))
        == #"{"tags":["apple","fig","pear"],"counts":{"a":1,"b":2,"c":3}}"#)
    try RoundTripLaws(mapping).checkValue(value)
  }

  @Test func prettyAndSortedOptions() throws {
    let author = Author(name: "Ann", email: "a@x")
    #expect(
      text(try authorMapping.serialize(author, as: .json(.sortedKeys)))
        == #"{"email":"a@x","name":"Ann"}"#)
    #expect(
      text(try authorMapping.serialize(author, as: .json(.prettyPrinted)))
        == "{\n  \"name\": \"Ann\",\n  \"email\": \"a@x\"\n}")
  }

  @Test func nonFiniteNumbersAreErrorsNamingTheOutputPath() throws {
    struct Reading: Equatable { var values: [Double] = [] }
    let mapping = Mapping(Reading.init) { Attribute("values", \.values) }
    let lines = errorLines {
      try mapping.inverted().rootKey("reading").serialize(Reading(values: [1, .nan]))
    }
    #expect(lines == ["/reading/values: cannot write the non-finite number nan"])
  }
}

@Suite("Serialization: the inverse")
struct InverseMappingTests {
  struct Scored: Equatable {
    var name = ""
    var score = 0.0
    var index = 0
  }

  @Test func oneWayRulesAndSpecialSourcesAreLeftOutAndReported() throws {
    let mapping = Mapping(Scored.init) {
      Attribute("name", \.name)
      Attribute("name", \.score, decodeOnly: { (text: String) in Double(text.count) })
      Attribute("index", \.index).decodeOnly()
    }
    let inverse = mapping.inverted()
    #expect(
      inverse.omitted.map(\.description) == [
        #"Attribute "name": it converts with a one-way closure or transform"#,
        #"Attribute "index": it is marked decodeOnly()"#,
      ])
    #expect(inverse.keyPaths == ["name"])
    #expect(
      text(try mapping.serialize(Scored(name: "abc", score: 3, index: 2))) == #"{"name":"abc"}"#)
  }

  @Test func twoRulesWritingOneKeyKeepTheFirst() throws {
    struct Both: Equatable {
      var id = 0
      var label = ""
    }
    let mapping = Mapping(Both.init) {
      Attribute("id", \.id)
      Attribute("id", \.label)
    }
    #expect(mapping.inverted().omitted.map(\.reason) == [#"an earlier rule already writes "id""#])
    #expect(text(try mapping.serialize(Both(id: 4, label: "4"))) == #"{"id":4}"#)
  }

  @Test func customizationRemovesRenamesAndAdds() throws {
    let custom = articleMapping.inverted()
      .removing("body")
      .removing(\Article.tags)
      .renaming("title", to: "headline")
      .adding("kind") { _ in "article" }
      .adding(Attribute("summary", \Article.title))
    #expect(
      text(try custom.serialize(sampleArticle))
        == #"{"id":7,"headline":"Hello","publication_date":"3/1/2012","author":{"name":"Ann"},"kind":"article","summary":"Hello"}"#
    )
    #expect(custom.keyPaths == ["id", "headline", "publication_date", "author", "kind", "summary"])
  }

  @Test func keepingWritesOnlyTheAllowListedMembers() throws {
    let byKey = articleMapping.inverted().keeping("title", "author")
    #expect(
      text(try byKey.serialize(sampleArticle)) == #"{"title":"Hello","author":{"name":"Ann"}}"#)
    #expect(byKey.keyPaths == ["title", "author"])
    #expect(byKey.omitted.isEmpty)

    let byProperty = articleMapping.inverted().keeping(\Article.id, \Article.tags)
    #expect(
      text(try byProperty.serialize(sampleArticle)) == #"{"id":7,"meta":{"tags":["a","b"]}}"#)
  }

  @Test func keepingANestedObjectKeepsEverythingUnderIt() throws {
    struct Profile: Equatable {
      var name = ""
      var email = ""
      var id = 0
    }
    let mapping = Mapping(Profile.init) {
      Attribute("id", \.id)
      Attribute("user.name", \.name)
      Attribute("user.email", \.email)
    }
    let profile = Profile(name: "Ann", email: "a@example.com", id: 3)
    #expect(
      text(try mapping.inverted().keeping("user").serialize(profile))
        == #"{"user":{"name":"Ann","email":"a@example.com"}}"#)
    #expect(
      text(try mapping.inverted().keeping("user.email", "id").serialize(profile))
        == #"{"id":3,"user":{"email":"a@example.com"}}"#)
  }

  @Test func keepingSomethingNoRuleWritesIsReported() throws {
    let inverse = articleMapping.inverted().keeping("title", "titel")
    #expect(inverse.omitted.map(\.description) == [#"keeping("titel"): no rule writes "titel""#])
    #expect(text(try inverse.serialize(sampleArticle)) == #"{"title":"Hello"}"#)
    struct Note {
      var text = ""
      var internalID = 0
    }
    let mapping = Mapping(Note.init) { Attribute("text", \.text) }
    let byProperty = mapping.inverted().keeping(\Note.text, \Note.internalID)
    #expect(byProperty.omitted.map(\.reason) == ["no rule reads this property"])
    #expect(text(try byProperty.serialize(Note(text: "hi", internalID: 9))) == #"{"text":"hi"}"#)
  }

  @Test func customizedInverseAppliesWhereTheMappingIsAChild() throws {
    let privateAuthor = Mapping(Author.init) {
      Attribute("name", \.name)
      Attribute("email", \.email)
    }.customizingInverse { $0.removing("email") }
    let mapping = Mapping(Article.init) {
      Attribute("id", \.id)
      Relationship("author", \.author, privateAuthor)
    }
    var article = sampleArticle
    article.author?.email = "secret@example.com"
    #expect(text(try mapping.serialize(article)) == #"{"id":7,"author":{"name":"Ann"}}"#)
  }

  @Test func relationshipMarkedDecodeOnlyIsNotSerialized() throws {
    let mapping = Mapping(Article.init) {
      Attribute("id", \.id)
      Relationship("author", \.author, authorMapping).decodeOnly()
    }
    #expect(text(try mapping.serialize(sampleArticle)) == #"{"id":7}"#)
    #expect(
      mapping.inverted().omitted.map(\.description) == [
        #"Relationship "author": it is marked decodeOnly()"#
      ])
  }

  @Test func mergesExtraParametersDeeply() throws {
    let extra: Node = ["meta": ["source": "app"], "token": "t1"]
    let json = try articleMapping.serialize(sampleArticle, merging: extra)
    #expect(
      text(json)
        == #"{"id":7,"title":"Hello","body":"","publication_date":"3/1/2012","meta":{"tags":["a","b"],"source":"app"},"author":{"name":"Ann"},"token":"t1"}"#
    )
    let lines = errorLines {
      try authorMapping.serializeCollection([Author(name: "A")], merging: extra)
    }
    #expect(lines == ["cannot serialize: cannot merge parameters into a top-level array"])
  }

  @Test func dictionaryGivesFoundationValues() throws {
    let dictionary = try authorMapping.dictionary(Author(name: "Ann", email: "a@x"))
    #expect(dictionary["name"] as? String == "Ann")
    #expect(dictionary["email"] as? String == "a@x")
    #expect(dictionary.count == 2)
  }

  /// ObjectMapper's `toJSON()` tests read numbers back with `as? Double` and `as? Int`: the
  /// dictionary's numbers are `NSNumber`s, so a whole `Double` reads as both (a Swift `Int` in
  /// an `Any` would read only as an `Int`), nested ones too, and `JSONSerialization` writes the
  /// same JSON as `serialize`.
  @Test func dictionaryNumbersBridgeAsNSNumbers() throws {
    struct Reading: Sendable {
      var weight = 150.0
      var ratio = 0.25
      var count = 3
      var flag = true
      var big = Decimal(string: "123456789012345678901234567890") ?? 0
      var history: [Double] = [1, 2.5]
      var byName: [String: Double] = ["k": 4]
    }
    let mapping = Mapping(Reading.init) {
      Attribute("weight", \.weight)
      Attribute("ratio", \.ratio)
      Attribute("count", \.count)
      Attribute("flag", \.flag)
      Attribute("big", \.big)
      Attribute("history", \.history)
      Attribute("byName", \.byName)
    }
    let dictionary = try mapping.dictionary(Reading())
    #expect(dictionary["weight"] as? Double == 150 && dictionary["weight"] as? Int == 150)
    #expect(dictionary["ratio"] as? Double == 0.25 && dictionary["ratio"] as? Int == nil)
    #expect(dictionary["count"] as? Int == 3 && dictionary["count"] as? Double == 3)
    #expect(dictionary["flag"] as? Bool == true)
    #expect(dictionary["big"] as? Decimal == Decimal(string: "123456789012345678901234567890"))
    #expect(dictionary["history"] as? [Double] == [1, 2.5])
    #expect(dictionary["byName"] as? [String: Double] == ["k": 4])
    let viaFoundation = try Node(
      foundation: JSONSerialization.jsonObject(
        with: JSONSerialization.data(withJSONObject: dictionary)))
    #expect(viaFoundation == (try Node(jsonData: mapping.serialize(Reading()))))
    // The public `foundationValue` keeps Swift's own types.
    #expect(Node.integer(150).foundationValue is Int)
  }

  /// ObjectMapper's `testObjectToModelDictionnaryOfPrimitives` reads a `[String: Float]` back
  /// `as? [String: Float]`: ObjectMapper puts the `Float`s themselves in its dictionary. Ours
  /// are `NSNumber`s of the `Float`s, which read back `as? Float` on Linux too (an `NSNumber` of
  /// the `Double` 1.3 does not: Foundation checks exactness), and still `as? Double`.
  @Test func dictionaryFloatsReadBackAsFloats() throws {
    struct Primitives: Sendable {
      var ratio: Float = 1.3
      var byName: [String: Float] = ["string": 1.3]
      var list: [Float] = [0.1, 11]
    }
    let mapping = Mapping(Primitives.init) {
      Attribute("ratio", \.ratio)
      Attribute("byName", \.byName)
      Attribute("list", \.list)
    }
    let dictionary = try mapping.dictionary(Primitives())
    // What ObjectMapper's dictionary holds, and how its test reads it.
    let objectMapperLike: [String: Any] = ["byName": ["string": Float(1.3)]]
    #expect((objectMapperLike["byName"] as? [String: Float])?["string"] == 1.3)
    #expect((dictionary["byName"] as? [String: Float])?["string"] == 1.3)
    #expect(dictionary["ratio"] as? Float == 1.3)
    #expect(dictionary["list"] as? [Float] == [0.1, 11])
    #expect(dictionary["ratio"] as? Double == Double(Float(1.3)))
    // The text written is the Float's shortest, and its node equals the same literal.
    #expect(
      String(decoding: try mapping.serialize(Primitives()), as: UTF8.self).contains(#""ratio":1.3"#)
    )
    #expect(try Float(1.3).payloadNode() == .decimal("1.3"))
    #expect(Node.decimal("1.3").hashValue == (try Float(1.3).payloadNode()).hashValue)
    #expect(Node.DecimalText("1.3") == Node.DecimalText(float: 1.3))
  }
}

@Suite("Serialization: relationships and classes")
struct RelationshipSerializationTests {
  final class Person: Equatable, @unchecked Sendable {
    var name = ""
    var friend: Person?
    var friends: [Person] = []
    static func == (lhs: Person, rhs: Person) -> Bool {
      lhs.name == rhs.name && lhs.friend == rhs.friend && lhs.friends == rhs.friends
    }
  }

  static let personMapping: Mapping<Person> = Mapping(Person.init) {
    Attribute("name", \.name)
    Relationship("friend", \.friend, lazy: { RelationshipSerializationTests.personMapping })
    Relationship("friends", \.friends, lazy: { RelationshipSerializationTests.personMapping })
      .optional()
  }

  @Test func recursiveClassGraphsSerializeAndRoundTrip() throws {
    let ann = Person()
    ann.name = "Ann"
    let bob = Person()
    bob.name = "Bob"
    let cy = Person()
    cy.name = "Cy"
    bob.friends = [cy]
    ann.friend = bob
    #expect(
      text(try Self.personMapping.serialize(ann))
        == #"{"name":"Ann","friend":{"name":"Bob","friends":[{"name":"Cy","friends":[]}]},"friends":[]}"#
    )
    try RoundTripLaws(Self.personMapping).checkValue(ann)
  }

  @Test func aCycleIsAnErrorNamingThePath() throws {
    let ann = Person()
    ann.name = "Ann"
    let bob = Person()
    bob.name = "Bob"
    ann.friends = [bob]
    bob.friend = ann
    let lines = errorLines { try Self.personMapping.serialize(ann) }
    #expect(
      lines == ["/friends/0/friend: cycle: this Person refers back to an object being serialized"])
  }

  struct Team: Equatable, Hashable {
    var name = ""
    var members: [String: Member] = [:]
    var tags: Set<Tag> = []
  }
  struct Member: Equatable, Hashable { var login = "" }
  struct Tag: Equatable, Hashable { var label = "" }

  @Test func dictionaryAndSetRelationshipsRoundTripInDeterministicOrder() throws {
    let memberMapping = Mapping(Member.init) { Attribute("login", \.login) }
    let tagMapping = Mapping(Tag.init) { Attribute("label", \.label) }
    let teamMapping = Mapping(Team.init) {
      Attribute("name", \.name)
      Relationship("members", \.members, memberMapping)
      Relationship("tags", \.tags, tagMapping)
    }
    let team = Team(
      name: "core", members: ["zed": Member(login: "z"), "amy": Member(login: "a")],
      tags: [Tag(label: "swift"), Tag(label: "api")])
    #expect(
      text(try teamMapping.serialize(team))
        == #"{"name":"core","members":{"amy":{"login":"a"},"zed":{"login":"z"}},"tags":[{"label":"api"},{"label":"swift"}]}"#
    )
    let laws = RoundTripLaws(teamMapping)
    try laws.checkValue(team)
    try laws.checkPayload(
      json: #"{"name":"core","members":{"amy":{"login":"a"}},"tags":[{"label":"x"}],"extra":1}"#,
      allowing: ["/extra"])
  }
}

@Suite("Serialization: form bodies and request bodies")
struct FormSerializationTests {
  struct Order: Equatable {
    var title = ""
    var paid = false
    var items: [Item] = []
  }
  struct Item: Equatable {
    var sku = ""
    var quantity = 0
  }
  static let orderMapping = Mapping(Order.init) {
    Attribute("title", \.title)
    Attribute("paid", \.paid)
    Relationship(
      "items", \.items,
      Mapping(Item.init) {
        Attribute("sku", \.sku)
        Attribute("quantity", \.quantity)
      })
  }
  let order = Order(
    title: "Zoë & co/1", paid: true,
    items: [Item(sku: "x", quantity: 1), Item(sku: "y", quantity: 2)])

  @Test func formBodyWithRootKeyIndexedArraysAndUTF8() throws {
    let form = try Self.orderMapping.inverted().rootKey("order")
      .serialize(order, as: .formURLEncoded(FormEncodingOptions(arrays: .indexed)))
    #expect(
      text(form)
        == "order[title]=Zo%C3%AB+%26+co%2F1&order[paid]=true&order[items][0][sku]=x&order[items][0][quantity]=1&order[items][1][sku]=y&order[items][1][quantity]=2"
    )
    let numeric = try Self.orderMapping.serialize(
      Order(title: "t", paid: true), as: .formURLEncoded(FormEncodingOptions(booleans: .numeric)))
    #expect(text(numeric) == "title=t&paid=1")
  }

  @Test func requestBodyCarriesTheContentType() throws {
    let json = try Self.orderMapping.requestBody(for: order, as: .json, rootKey: "order")
    #expect(json.contentType == "application/json")
    #expect(text(json.data).hasPrefix(#"{"order":{"title":"Zoë & co/1","paid":true,"items":[{"#))
    let form = try Self.orderMapping.requestBody(for: order, as: .formURLEncoded)
    #expect(form.contentType == "application/x-www-form-urlencoded")
    let back = try Self.orderMapping.map(
      .payload(form.data, contentType: "application/x-www-form-urlencoded"))
    #expect(back.title == order.title && back.items.count == 2)
  }

  @Test func formBodyOfATopLevelArrayIsAnError() throws {
    let lines = errorLines {
      try Self.orderMapping.serializeCollection([order], as: .formURLEncoded)
    }
    #expect(lines.count == 1)
    #expect(lines.first?.contains("cannot serialize") == true)
  }
}

@Suite("Serialization: format registry")
struct FormatRegistryTests {
  @Test func picksTheFormatByContentType() throws {
    let registry = FormatRegistry.standard
    #expect(
      registry.format(forContentType: "application/json; charset=utf-8")?.contentType
        == "application/json")
    #expect(registry.format(forContentType: "Application/JSON")?.contentType == "application/json")
    #expect(
      registry.format(forContentType: "application/vnd.api+json")?.contentType == "application/json"
    )
    #expect(registry.format(forContentType: "text/json")?.contentType == "application/json")
    #expect(
      registry.format(forContentType: "application/x-www-form-urlencoded")?.contentType
        == "application/x-www-form-urlencoded")
    #expect(registry.format(forContentType: "text/csv") == nil)
    let node = try registry.read(
      Data("a=1&b[c]=x".utf8), contentType: "application/x-www-form-urlencoded")
    #expect(node == ["a": "1", "b": ["c": "x"]])
  }

  @Test func unsupportedContentTypeIsATypedError() throws {
    let lines = errorLines {
      try authorMapping.map(.payload(Data("x".utf8), contentType: "text/csv"))
    }
    #expect(lines == [#"no reader or writer for the content type "text/csv""#])
  }

  @Test func registeredFormatsReadAndWrite() throws {
    // A toy line format: "key: value" per line.
    let lines = PayloadFormat(
      contentType: "text/x-lines",
      read: { data in
        let members = String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap {
          line -> Node.Member? in
          let parts = line.split(separator: ":", maxSplits: 1)
          guard parts.count == 2 else { return nil }
          return Node.Member(
            String(parts[0]), .string(parts[1].trimmingCharacters(in: .whitespaces)))
        }
        return .object(members)
      },
      write: { node in
        guard case .object(let members) = node else { return Data() }
        return Data(
          members.map { member -> String in
            if case .string(let value) = member.value { return "\(member.key): \(value)" }
            return "\(member.key): \(member.value)"
          }.joined(separator: "\n").utf8)
      })
    let registry = FormatRegistry.standard.registering(lines)
    let author = try authorMapping.map(
      .payload(Data("name: Ann\nemail: a@x".utf8), contentType: "text/x-lines", formats: registry))
    #expect(author == Author(name: "Ann", email: "a@x"))
    #expect(text(try authorMapping.serialize(author, as: lines)) == "name: Ann\nemail: a@x")
  }
}

@Suite("Serialization: README quick start")
struct ReadmeQuickStartTests {
  @Test func quickStartOutputIsWhatTheReadmeSays() throws {
    let article = try articleMapping.map(#"{"id": 7, "title": "Hi", "author": {"name": "Ann"}}"#)
    let json = try articleMapping.serialize(article, as: .json)
    #expect(
      text(json) == #"{"id":7,"title":"Hi","body":"","meta":{"tags":[]},"author":{"name":"Ann"}}"#)
    let body = try articleMapping.requestBody(for: article, as: .formURLEncoded, rootKey: "article")
    #expect(text(body.data).hasPrefix("article[id]=7&article[title]=Hi&"))
    #expect(body.contentType == "application/x-www-form-urlencoded")
  }
}
