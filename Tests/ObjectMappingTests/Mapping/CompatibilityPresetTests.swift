import Foundation
import ObjectMapping
import Testing

/// The compatibility presets of issue 36: `.restKitCompatible` and `.objectMapperCompatible`,
/// each the exact list of options documented on it, usable per call, per mapping and per
/// `Mapper` (the object manager takes the same `MappingOptions`).
@Suite("Compatibility presets")
struct CompatibilityPresetTests {
  struct Author: Equatable, Sendable {
    var name = ""
    var email: String?
  }

  struct Post: Equatable, Sendable {
    var id = 0
    var title = "untitled"
    var views: Int?
    var published: Date?
    var link: URL?
    var author: Author?
    var tags: [String] = []
  }

  static let author = Mapping(Author.init) {
    Attribute("name", \.name)
    Attribute("email", \.email)
  }

  static let post = Mapping(Post.init) {
    Attribute("id", \.id)
    Attribute("title", \.title).optional()
    Attribute("views", \.views)
    Attribute("published", \.published)
    Attribute("link", \.link)
    Relationship("author", \.author, author)
    Attribute("tags", \.tags).optional()
  }

  static func date(_ text: String) throws -> Date {
    try #require(ISO8601DateFormatter().date(from: text))
  }

  // MARK: What each preset sets

  @Test func restKitCompatibleSetsExactlyItsDocumentedOptions() {
    let options = MappingOptions.restKitCompatible
    #expect(options.dateFormats == DateFormat.restKitFormats)
    #expect(options.emptyStrings == .asNull)
    #expect(options.attributeFailures == .skipWithDiagnostic)
    #expect(options.nulls == .include)
    #expect(options.relationshipNulls == .omit)
    #expect(options.form == .restKit)
    #expect(options.decimals == .string)
    // Nothing else.
    #expect(options.coercion == nil && options.groups == nil && options.groupMatching == nil)
    #expect(options.validation == nil && options.missingKeys == nil && options.keys == nil)
    #expect(options.nullIntoNonOptional == nil && options.metadata == nil)
    #expect(options.allowsUnmappableRepresentation == nil && options.childMerging == nil)
  }

  @Test func objectMapperCompatibleSetsExactlyItsDocumentedOptions() {
    let options = MappingOptions.objectMapperCompatible
    #expect(options.childMerging == .inPlace)
    #expect(options.allowsUnmappableRepresentation == true)
    #expect(options.nullIntoNonOptional == .keepCurrent)
    #expect(options.coercion == nil && options.nulls == nil && options.groups == nil)
    #expect(options.dateFormats == nil && options.validation == nil && options.missingKeys == nil)
    #expect(options.attributeFailures == nil && options.emptyStrings == nil)
    #expect(options.relationshipNulls == nil && options.form == nil && options.keys == nil)
  }

  // MARK: RestKit

  @Test func restKitDateFormatsAreReadInRestKitsOrder() throws {
    let expected = try Self.date("1994-11-06T08:49:37Z")
    for text in [
      "1994-11-06T08:49:37Z", "784111777", "Sun, 06 Nov 1994 08:49:37 GMT",
      "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
    ] {
      let post = try Self.post.map(
        #"{"id": 1, "published": "\#(text)"}"#, with: .restKitCompatible)
      #expect(post.published == expected, "\(text)")
    }
    // `MM/dd/yyyy` is month first, as RestKit read it: 3 January.
    let january = try Self.post.map(
      #"{"id": 1, "published": "01/03/2012"}"#, with: .restKitCompatible)
    #expect(january.published == (try Self.date("2012-01-03T00:00:00Z")))
    // Not by default.
    #expect(throws: MappingErrors.self) {
      try Self.post.map(#"{"id": 1, "published": "Sun, 06 Nov 1994 08:49:37 GMT"}"#)
    }
  }

  @Test func restKitCompatibleMapsPerCallPerMappingAndPerMapper() throws {
    let payload = #"""
      {"id": 1, "views": "", "published": "01/03/2012", "link": "", "title": {"x": 1}}
      """#
    let expected = Post(id: 1, published: try Self.date("2012-01-03T00:00:00Z"))
    let diagnostics = [
      #"/title: value skipped: expected a string, found an object"#
    ]
    let perCall = Self.post.report(payload, with: .restKitCompatible)
    #expect(perCall.object == expected && perCall.diagnostics.map(\.description) == diagnostics)
    let mapping = Self.post.options(.restKitCompatible)
    let perMapping = mapping.report(payload)
    #expect(perMapping.object == expected)
    #expect(perMapping.diagnostics.map(\.description) == diagnostics)
    let provider = MappingProvider { Route("post", Self.post) }
    let result = try Mapper(provider, options: .restKitCompatible).map(#"{"post": \#(payload)}"#)
    #expect(result.all(Post.self) == [expected])
    #expect(
      result.diagnostics.map(\.description) == [
        "/post/title: value skipped: expected a string, found an object"
      ])
    // A call's options win over the mapper's, field by field.
    let strict = try Mapper(provider, options: .restKitCompatible).map(
      #"{"post": \#(payload)}"#, with: MappingOptions(attributeFailures: .fail))
    #expect(strict.all(Post.self).isEmpty)
    #expect(strict.errors.map(\.description) == ["/post/title: expected a string, found an object"])
  }

  @Test func restKitCompatibleWritesNilAttributesAsNullAndLeavesNilRelationshipsOut() throws {
    let post = Post(id: 1, title: "Hi there", published: try Self.date("2012-01-03T00:00:00Z"))
    let json = String(
      decoding: try Self.post.serialize(post, with: .restKitCompatible), as: UTF8.self)
    #expect(
      json
        == #"{"id":1,"title":"Hi there","views":null,"published":"2012-01-03T00:00:00Z","link":null,"tags":[]}"#
    )
    // A relationship's own policy wins; a child inherits the nil attributes.
    let withAuthor = Post(id: 2, author: Author(name: "Ann"))
    let child = String(
      decoding: try Self.post.serialize(withAuthor, with: .restKitCompatible), as: UTF8.self)
    #expect(child.contains(#""author":{"name":"Ann","email":null}"#))
    let mapping = Mapping(Post.init) {
      Attribute("id", \.id)
      Relationship("author", \.author, Self.author).nulls(.include)
    }
    #expect(
      String(decoding: try mapping.serialize(Post(id: 3), with: .restKitCompatible), as: UTF8.self)
        == #"{"id":3,"author":null}"#)
    // Per mapping: the same output as per call.
    #expect(
      try Self.post.options(.restKitCompatible).serialize(post)
        == Self.post.serialize(post, with: .restKitCompatible))
  }

  @Test func restKitCompatibleWritesFormBodiesAsRestKitDid() throws {
    let post = Post(id: 1, title: "Hi there", tags: ["a b", "c"])
    let body = String(
      decoding: try Self.post.inverted().rootKey("post").serialize(
        post, as: .formURLEncoded, with: .restKitCompatible), as: UTF8.self)
    #expect(
      body
        == "post[id]=1&post[link]&post[published]&post[tags][]=a%20b&post[tags][]=c"
        + "&post[title]=Hi%20there&post[views]")
    // Options given to the format win over the preset's.
    let standard = String(
      decoding: try Self.post.inverted().rootKey("post").serialize(
        post, as: .formURLEncoded(FormEncodingOptions()), with: .restKitCompatible),
      as: UTF8.self)
    #expect(standard == "post[id]=1&post[title]=Hi+there&post[tags][]=a+b&post[tags][]=c")
    // And a request body made with the preset says so in its content type.
    let request = try Self.post.requestBody(
      for: post, as: .formURLEncoded, rootKey: "post", with: .restKitCompatible)
    #expect(String(decoding: request.data, as: UTF8.self) == body)
    #expect(request.contentType == "application/x-www-form-urlencoded")
  }

  /// RestKit wrote `NSDecimalNumber`s as strings, to keep their precision (R-1.13.4): the
  /// preset does, per call, per mapping and through a request body, in JSON and form bodies;
  /// without it (or with `decimals: .number`) they are exact JSON numbers. A call's setting
  /// wins over an inverse's `.decimals(_:)`.
  @Test func restKitCompatibleWritesDecimalsAsStrings() throws {
    struct Account: Sendable {
      var balance: Decimal = 0
    }
    let account = Mapping(Account.init) { Attribute("balance", \.balance) }
    let value = try #require(Decimal(string: "18274191731731.4557723623"))
    let text = { (data: Data) in String(decoding: data, as: UTF8.self) }
    #expect(
      text(try account.serialize(Account(balance: value), with: .restKitCompatible))
        == #"{"balance":"18274191731731.4557723623"}"#)
    #expect(
      text(try account.serialize(Account(balance: value)))
        == #"{"balance":18274191731731.4557723623}"#)
    #expect(
      text(try account.options(.restKitCompatible).serialize(Account(balance: value)))
        == #"{"balance":"18274191731731.4557723623"}"#)
    var numbers = MappingOptions.restKitCompatible
    numbers.decimals = .number
    #expect(
      text(
        try account.inverted().decimals(.string).serialize(Account(balance: value), with: numbers))
        == #"{"balance":18274191731731.4557723623}"#)
    let form = try account.requestBody(
      for: Account(balance: value), as: .formURLEncoded, rootKey: "a", with: .restKitCompatible)
    #expect(text(form.data) == "a[balance]=18274191731731.4557723623")
    // The string reads back as the same decimal.
    #expect(
      try account.map(#"{"balance":"18274191731731.4557723623"}"#, with: .restKitCompatible)
        .balance == value)
  }

  @Test func startingFromAPresetAndChangingOneOption() throws {
    var options = MappingOptions.restKitCompatible
    options.attributeFailures = .fail
    #expect(throws: MappingErrors.self) {
      try Self.post.map(#"{"id": 1, "views": "many"}"#, with: options)
    }
    #expect(try Self.post.map(#"{"id": 1, "views": ""}"#, with: options).views == nil)
  }

  @Test func restKitCompatibleCountsAValueThatDoesNotConvertAsNotFound() throws {
    // R-1.3.6 and R-1.3.9: a skipped value is not "found", so an object whose only values are
    // skipped is an unmappable representation; `null` and `""` read as `null` are found.
    struct Person: Equatable, Sendable {
      var age: Int?
      var name: String?
    }
    let person = Mapping(Person.init) {
      Attribute("age", \.age)
      Attribute("name", \.name)
    }
    let options = MappingOptions.restKitCompatible
    do {
      _ = try person.map(#"{"age": {"wrong": "data"}}"#, with: options)
      Issue.record("expected an unmappable representation")
    } catch {
      #expect(error.errors.map(\.kind) == [.unmappableRepresentation(keys: ["age"])])
    }
    let mapped = person.report(#"{"age": {"wrong": "data"}, "name": "Ann"}"#, with: options)
    #expect(mapped.object == Person(age: nil, name: "Ann"))
    #expect(mapped.diagnostics.map(\.path) == ["/age"])
    #expect(try person.map(#"{"age": null}"#, with: options) == Person())
    #expect(try person.map(#"{"age": ""}"#, with: options) == Person())
    // Also where that `null` is then skipped (a non-optional property without a default keeps
    // its value): the `""` was found.
    struct Counter: Equatable, Sendable {
      var n = 5
      var label: String?
    }
    let counter = Mapping(Counter.init) {
      Attribute("n", \.n).optional()
      Attribute("label", \.label)
    }
    let blank = counter.report(#"{"n": ""}"#, with: options)
    #expect(blank.object == Counter(n: 5, label: nil))
    #expect(blank.errors.isEmpty)
    #expect(blank.diagnostics.map(\.path) == ["/n"])
    // Each element of a collection, and a mapper's route, the same way.
    do {
      _ = try person.mapCollection(#"[{"name": "Ann"}, {"age": [1]}]"#, with: options)
      Issue.record("expected an unmappable representation")
    } catch {
      #expect(error.errors.map(\.path) == ["/1"])
    }
    // Without the preset, the value is an error of its own, as before.
    do {
      _ = try person.map(#"{"age": {"wrong": "data"}}"#)
      Issue.record("expected a conversion error")
    } catch {
      #expect(error.errors.map(\.path) == ["/age"])
    }
  }

  @Test func aSkippedValueFallsBackToTheDefaultUnderAssignDefaults() throws {
    // R-1.3.6's corner case: with RestKit's assignsDefaultValueForMissingAttributes, a value
    // that does not convert falls back to the default (clears) instead of keeping the old one.
    struct Person: Equatable, Sendable {
      var age = 3
      var score: Int?
      var name = ""
    }
    let person = Mapping(Person.init) {
      Attribute("age", \.age, default: 0)
      Attribute("score", \.score)
      Attribute("name", \.name)
    }
    var options = MappingOptions.restKitCompatible
    let payload = #"{"age": {"wrong": "data"}, "score": "x", "name": "Bob"}"#
    let kept = person.report(payload, onto: Person(age: 3, score: 7, name: "Ann"), with: options)
    #expect(kept.object == Person(age: 3, score: 7, name: "Bob"))
    options.missingKeys = .assignDefaults
    let reset = person.report(payload, onto: Person(age: 3, score: 7, name: "Ann"), with: options)
    #expect(reset.object == Person(age: 0, score: nil, name: "Bob"))
    #expect(reset.diagnostics.map(\.path) == ["/age", "/score"])
    // The mapping's own policy does the same.
    var existing = Person(age: 3, score: 7, name: "Ann")
    try person.missingKeys(.assignDefaults).map(payload, onto: &existing, with: .restKitCompatible)
    #expect(existing == Person(age: 0, score: nil, name: "Bob"))
  }

  @Test func aChildsOwnSettingsDecideWhetherItsValuesAreFound() throws {
    // The child reads its dates with its own formats: the same formats decide whether the
    // value converts, so a good child is not dropped as unmappable under the parent's.
    struct Event: Equatable, Sendable { var when: Date? }
    struct Calendar: Equatable, Sendable { var events: [Event] = [] }
    let event = Mapping(Event.init) { Attribute("when", \.when) }
      .options(MappingOptions(dateFormats: [.pattern("yyyy.MM.dd")]))
    let calendar = Mapping(Calendar.init) {
      Relationship("events", \.events, event).onChildFailure(.dropChild)
    }
    let mapped = try calendar.map(
      #"{"events": [{"when": "2024.02.01"}, {"when": {"wrong": "data"}}]}"#,
      with: .restKitCompatible)
    #expect(mapped.events == [Event(when: Date(timeIntervalSince1970: 1_706_745_600))])
  }

  // MARK: ObjectMapper

  struct Profile: Equatable, Sendable {
    var name = ""
    var age = 0
    var address: Address?
  }

  struct Address: Equatable, Sendable {
    var city = ""
    var street = ""
  }

  static let address = Mapping(Address.init) {
    Attribute("city", \.city).optional()
    Attribute("street", \.street).optional()
  }

  static let profile = Mapping(Profile.init) {
    Attribute("name", \.name).optional()
    Attribute("age", \.age).optional()
    Relationship("address", \.address, address)
  }

  @Test func objectMapperCompatibleMergesChildObjectsInPlace() throws {
    let original = Profile(name: "Ann", age: 30, address: Address(city: "Oslo", street: "Main"))
    var merged = original
    try Self.profile.map(
      #"{"address": {"city": "Bergen"}}"#, onto: &merged, with: .objectMapperCompatible)
    #expect(merged.address == Address(city: "Bergen", street: "Main"))
    // By default the child is replaced (it has no identity).
    var replaced = original
    try Self.profile.map(#"{"address": {"city": "Bergen"}}"#, onto: &replaced)
    #expect(replaced.address == Address(city: "Bergen"))
    // A relationship's own policy wins over the preset.
    let replacing = Mapping(Profile.init) {
      Relationship("address", \.address, Self.address).policy(.replace)
    }
    var explicit = original
    try replacing.map(
      #"{"address": {"city": "Bergen"}}"#, onto: &explicit, with: .objectMapperCompatible)
    #expect(explicit.address == Address(city: "Bergen"))
  }

  /// ObjectMapper's `map["name", ignoreNil: true]` (its IgnoreNilTests): `null` leaves an
  /// optional property as it is, where the rule without it (and the preset, which is about
  /// non-optional properties) makes it `nil`; other values still map.
  @Test func ignoringNullKeepsAnOptionalPropertysValue() throws {
    struct Member: Equatable, Sendable {
      var name: String? = "Tristan"
      var age: Int? = 30
    }
    let ignoring = Mapping(Member.init) {
      Attribute("name", \.name).ignoringNull()
      Attribute("age", \.age)
    }
    let plain = Mapping(Member.init) {
      Attribute("name", \.name)
      Attribute("age", \.age)
    }
    var member = Member()
    let report = ignoring.report(#"{"name": null, "age": null}"#, onto: member)
    #expect(report.object == Member(name: "Tristan", age: nil))
    #expect(
      report.diagnostics.map(\.description) == ["/name: null ignored: the property kept its value"])
    try plain.map(#"{"name": null}"#, onto: &member, with: .objectMapperCompatible)
    #expect(member.name == nil)
    #expect(try ignoring.map(#"{"name": null}"#) == Member())
    #expect(try ignoring.map(#"{"name": "Ann"}"#).name == "Ann")
  }

  @Test func objectMapperCompatibleKeepsNonOptionalsOnNullAndAcceptsUnmappablePayloads() throws {
    let profile = Profile(name: "Ann", age: 30)
    let report = Self.profile.report(
      #"{"name": null, "age": 31}"#, onto: profile, with: .objectMapperCompatible)
    #expect(report.object == Profile(name: "Ann", age: 31))
    #expect(
      report.diagnostics.map(\.description) == ["/name: null ignored: the property kept its value"])
    #expect(
      try Self.profile.map(#"{"unrelated": true}"#, with: .objectMapperCompatible) == Profile())
    #expect(throws: MappingErrors.self) { try Self.profile.map(#"{"unrelated": true}"#) }
    // Per mapping and per mapper too.
    #expect(
      try Self.profile.options(.objectMapperCompatible).map(#"{"unrelated": true}"#) == Profile())
    let provider = MappingProvider { Route("", Self.profile) }
    let result = try Mapper(provider, options: .objectMapperCompatible).map(#"{"x": 1}"#)
    #expect(result.all(Profile.self) == [Profile()] && result.errors.isEmpty)
  }
}
