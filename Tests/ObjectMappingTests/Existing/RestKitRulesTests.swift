import Foundation
import ObjectMapping
import Testing

/// Probes of RestKit's object-mapping behaviours (restkit-semantics.md, §1.1–§1.18), spelled as
/// Documentation/MigratingFromRestKit.md teaches; a regression suite.
@Suite("RestKit's rules (restkit-semantics.md), as the RestKit guide spells them")
struct RestKitRulesTests {
  static let rk = MappingOptions.restKitCompatible

  static func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0) -> Date
  {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar.date(
      from: DateComponents(year: y, month: mo, day: d, hour: h, minute: mi, second: s))!
  }

  // MARK: 1.1 / 1.2 reading values

  struct Two: Equatable, Sendable {
    var a = ""
    var b = ""
  }

  // R-1.1.3: the same source may feed several destinations.
  @Test func r1_1_3_oneSourceFeedsSeveralDestinations() throws {
    let m = Mapping(Two.init) {
      Attribute("name", \.a)
      Attribute("name", \.b)
    }
    #expect(try m.map(#"{"name": "x"}"#) == Two(a: "x", b: "x"))
  }

  struct Friends: Equatable, Sendable {
    var names: [String?] = []
  }

  // R-1.2.2: a path through an array fans out, a missing key is a null slot.
  @Test func r1_2_2_pathThroughAnArray() throws {
    let m = Mapping(Friends.init) { Attribute("friends.name", \.names) }
    let f = try m.map(#"{"friends": [{"name": "A"}, {"name": "B"}, {}]}"#)
    #expect(f.names == ["A", "B", nil])
  }

  struct Num: Equatable, Sendable {
    var id = 0
    var number: Int?
  }

  // R-1.2.3: a path through a scalar is absent, not a crash; alone it is unmappable.
  @Test func r1_2_3_pathThroughAScalarIsAbsent() throws {
    let m = Mapping(Num.init) {
      Attribute("id", \.id, default: 0)
      Attribute("object.number", \.number)
    }
    #expect(try m.map(#"{"id": 1, "object": "abc"}"#) == Num(id: 1, number: nil))
    #expect(throws: MappingErrors.self) { try m.map(#"{"object": "abc"}"#) }
  }

  struct Message: Equatable, Sendable {
    var text = ""
  }

  // R-1.2.5: a nil source key path takes the whole value.
  @Test func r1_2_5_wholeValue() throws {
    let m = Mapping(Message.init) { Attribute(.root, \.text) }
    #expect(
      try m.mapCollection(#"["error1", "error2"]"#) == [
        Message(text: "error1"), Message(text: "error2"),
      ])
  }

  struct Line: Equatable, Sendable {
    var text = ""
    var order = ""
    var version = 0
    var index: Int?
  }

  struct Order: Equatable, Sendable {
    var number = ""
    var lines: [Line] = []
    var lead: Line?
  }

  // R-1.2.6 / R-1.6.13: @parent, @root, @metadata.mapping.collectionIndex (null for a to-one).
  @Test func r1_2_6_reservedPrefixes() throws {
    let line = Mapping(Line.init) {
      Attribute("text", \.text)
      Attribute("@parent.number", \.order)
      Attribute("@root.meta.version", \.version)
      Attribute("@metadata.mapping.collectionIndex", \.index)
    }
    let order = Mapping(Order.init) {
      Attribute("number", \.number)
      Relationship("lines", \.lines, line)
      Relationship("lead", \.lead, line)
    }
    let root = Mapping(Wrapper.init) { Relationship("order", \.order, order) }
    let w = try root.map(
      #"{"meta": {"version": 3}, "order": {"number": "N1", "lines": [{"text": "a"}, {"text": "b"}], "lead": {"text": "c"}}}"#
    )
    #expect(
      w.order.lines == [
        Line(text: "a", order: "N1", version: 3, index: 0),
        Line(text: "b", order: "N1", version: 3, index: 1),
      ])
    #expect(w.order.lead == Line(text: "c", order: "N1", version: 3, index: nil))
  }

  struct Wrapper: Equatable, Sendable {
    var order = Order()
  }

  struct Meta: Equatable, Sendable {
    var a = 0
    var b = 0
    var root: String?
  }

  // R-1.2.6: user metadata merged, inner shadows outer; mapping.rootKeyPath.
  @Test func r1_2_6_userMetadataMergesAndRootKeyPath() throws {
    let m = Mapping(Meta.init) {
      Attribute("@metadata.a", \.a)
      Attribute("@metadata.b", \.b)
      Attribute("@metadata.mapping.rootKeyPath", \.root)
    }
    let mapper = Mapper(
      MappingProvider { Route("data", m) }, options: MappingOptions(metadata: ["a": 1, "b": 1]))
    let result = try mapper.map(#"{"data": {"x": 1}}"#, with: MappingOptions(metadata: ["b": 2]))
    #expect(result.errors.isEmpty)
    #expect(result.first(Meta.self) == Meta(a: 1, b: 2, root: "data"))
  }

  // MARK: 1.3 attribute mapping

  final class Person: @unchecked Sendable {
    var name: String? { didSet { writes.append("name") } }
    var age = 0 { didSet { writes.append("age") } }
    var writes: [String] = []
    init(name: String? = nil, age: Int = 0) {
      self.name = name
      self.age = age
      writes = []
    }

    static func fresh() -> Person { Person() }
  }

  static let person = Mapping(Person.fresh) {
    Attribute("name", \.name)
    Attribute("age", \.age, default: 0)
  }

  // R-1.3.2: absent keeps the current value.
  @Test func r1_3_2_absentKeepsTheValue() throws {
    var p = Person(name: "Ann", age: 3)
    try Self.person.map(#"{"age": 4}"#, onto: &p)
    #expect(p.name == "Ann" && p.age == 4)
  }

  // R-1.3.3: absent + assignDefaults gives the default (nil for an optional).
  @Test func r1_3_3_absentWithAssignDefaults() throws {
    var p = Person(name: "Ann", age: 3)
    try Self.person.missingKeys(.assignDefaults).map(#"{"age": 4}"#, onto: &p)
    #expect(p.name == nil && p.age == 4)
    var q = Person(name: "Ann", age: 3)
    try Self.person.map(
      #"{"name": "Bob"}"#, onto: &q, with: MappingOptions(missingKeys: .assignDefaults))
    #expect(q.name == "Bob" && q.age == 0)
  }

  // R-1.3.4: null clears, and an object of nulls maps.
  @Test func r1_3_4_nullClearsAndIsFound() throws {
    var p = Person(name: "Ann", age: 3)
    try Self.person.map(#"{"name": null}"#, onto: &p)
    #expect(p.name == nil && p.age == 3)
    let fresh = try Self.person.map(#"{"name": null}"#)
    #expect(fresh.name == nil)
  }

  struct Aged: Equatable, Sendable {
    var age = 0
    var name = ""
  }

  // R-1.3.5: null into a scalar writes 0 (spelled nullIntoNonOptional: .zero).
  @Test func r1_3_5_nullIntoScalarIsZero() throws {
    let m = Mapping(Aged.init) {
      Attribute("age", \.age)
      Attribute("name", \.name).optional()
    }
    var options = Self.rk
    options.nullIntoNonOptional = .zero
    #expect(try m.map(#"{"age": null}"#, with: options) == Aged(age: 0))
    var existing = Aged(age: 7, name: "x")
    try m.map(#"{"age": null}"#, onto: &existing, with: options)
    #expect(existing.age == 0)
  }

  // R-1.3.6: a value that does not convert is skipped, the old value kept.
  @Test func r1_3_6_failedConversionKeepsTheOldValue() throws {
    var p = Person(name: "Ann", age: 3)
    try Self.person.map(#"{"name": "Bob", "age": {"wrong": "data"}}"#, onto: &p, with: Self.rk)
    #expect(p.name == "Bob" && p.age == 3)
  }

  // R-1.3.6 corner case: with assignDefaults, a failed conversion falls back to the default.
  @Test func r1_3_6_failedConversionWithAssignDefaultsClears() throws {
    var p = Person(name: "Ann", age: 3)
    var options = Self.rk
    options.missingKeys = .assignDefaults
    try Self.person.map(#"{"name": "Bob", "age": {"wrong": "data"}}"#, onto: &p, with: options)
    #expect(p.name == "Bob" && p.age == 0)
  }

  struct Counted: Equatable, Sendable {
    var id = 0
    var name = ""
  }

  // R-1.3.7: unchanged values are neither written nor validated on existing objects; every value
  // of a new object is validated.
  @Test func r1_3_7_unchangedValuesSkipWriteAndValidation() throws {
    var p = Person(name: "Ann", age: 3)
    try Self.person.map(#"{"name": "Ann", "age": 3}"#, onto: &p)
    #expect(p.writes.isEmpty)
    let m = Mapping(Counted.init) {
      Attribute("id", \.id).validate("zero") { $0 != 0 }
      Attribute("name", \.name)
    }
    let onto = m.report(#"{"id": 0, "name": "x"}"#, onto: Counted(id: 0, name: "a"))
    #expect(onto.diagnostics.isEmpty)
    #expect(onto.object == Counted(id: 0, name: "x"))
    let fresh = m.report(#"{"id": 0, "name": "x"}"#)
    #expect(fresh.diagnostics.map(\.description).contains { $0.contains("rejected") })
  }

  struct Nested: Equatable, Sendable {
    var name = ""
    var age = 0
  }

  // R-1.3.10: dotted destination paths create the intermediate dictionaries.
  @Test func r1_3_10_dottedDestinationsNest() throws {
    let m = Mapping(Nested.init) {
      Attribute("user.name", \.name)
      Attribute("user.age", \.age)
    }
    let json = String(decoding: try m.serialize(Nested(name: "Ann", age: 3)), as: UTF8.self)
    let node = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: [String: Any]]
    #expect(node?["user"]?["name"] as? String == "Ann")
    #expect(node?["user"]?["age"] as? Int == 3)
  }

  // MARK: 1.4 conversions

  struct Scalars: Equatable, Sendable {
    var flag: Bool?
    var big: Int64?
    var double: Double?
    var int: Int?
    var text: String?
    var url: URL?
    var tags: Set<String>?
    var list: [String]?
  }

  static let scalars = Mapping(Scalars.init) {
    Attribute("flag", \.flag)
    Attribute("big", \.big)
    Attribute("double", \.double)
    Attribute("int", \.int)
    Attribute("text", \.text)
    Attribute("url", \.url)
    Attribute("tags", \.tags)
    Attribute("list", \.list)
  }

  // T3: string → number / boolean words.
  @Test(arguments: [
    ("yes", true), ("Y", true), ("t", true), ("TRUE", true), ("no", false), ("N", false),
    ("f", false), ("False", false), ("1", true), ("0", false),
  ])
  func t3_booleanWords(word: String, value: Bool) throws {
    let s = try Self.scalars.map(#"{"flag": "\#(word)"}"#, with: Self.rk)
    #expect(s.flag == value)
  }

  @Test func t3_numericStrings() throws {
    let s = try Self.scalars.map(
      #"{"big": "69726278940360707", "double": "12.5", "int": "1"}"#, with: Self.rk)
    #expect(s.big == 69_726_278_940_360_707)
    #expect(s.double == 12.5)
    #expect(s.int == 1)
  }

  // T4: number → string.
  @Test func t4_numberToString() throws {
    #expect(try Self.scalars.map(#"{"text": 123}"#, with: Self.rk).text == "123")
    #expect(try Self.scalars.map(#"{"text": true}"#, with: Self.rk).text == "true")
    #expect(try Self.scalars.map(#"{"text": 1.5}"#, with: Self.rk).text == "1.5")
  }

  // T9: string ↔ URL.
  @Test func t9_url() throws {
    let s = try Self.scalars.map(#"{"url": "http://restkit.org/a?b=c"}"#, with: Self.rk)
    #expect(s.url == URL(string: "http://restkit.org/a?b=c"))
    let body = String(
      decoding: try Self.scalars.serialize(Scalars(url: URL(string: "http://restkit.org/x")!)),
      as: UTF8.self)
    #expect(
      body.contains(#""url":"http:\/\/restkit.org\/x""#)
        || body.contains(#""url":"http://restkit.org/x""#))
  }

  // T10 / T11: array → set; single value → collection.
  @Test func t10_t11_collections() throws {
    let s = try Self.scalars.map(#"{"tags": ["a", "b", "a"], "list": "Blue"}"#, with: Self.rk)
    #expect(s.tags == ["a", "b"])
    #expect(s.list == ["Blue"])
    #expect(try Self.scalars.map(#"{"tags": "Blue"}"#, with: Self.rk).tags == ["Blue"])
  }

  struct Dated: Equatable, Sendable {
    var at: Date?
    var id = 0
  }

  static let dated = Mapping(Dated.init) {
    Attribute("at", \.at)
    Attribute("id", \.id, default: 0)
  }

  // T16: number → date, sub-second kept.
  @Test func t16_epochSeconds() throws {
    #expect(
      try Self.dated.map(#"{"at": 1.5}"#, with: Self.rk).at == Date(timeIntervalSince1970: 1.5))
  }

  // T17 / R-1.5.x: string → date, in RestKit's order.
  @Test(arguments: [
    ("2009-05-11T14:39:22Z", 1_242_052_762.0),
    ("2009-05-11T10:39:22-04:00", 1_242_052_762.0),
    ("2009-05-11 14:39:22", 1_242_052_762.0),
    ("2009-05-11T14:39:22", 1_242_052_762.0),
    ("2009-05-11T14:39:22-0000", 1_242_052_762.0),
    ("2009-05-11T14:39:22-00:00", 1_242_052_762.0),
    ("2011-08-09T00:00Z", 1_312_848_000.0),
    ("2012-01-03", 1_325_548_800.0),
    ("01/03/2012", 1_325_548_800.0),
    ("1325548800", 1_325_548_800.0),
    ("Tue, 03 Jan 2012 00:00:00 GMT", 1_325_548_800.0),
    ("Tuesday, 03-Jan-12 00:00:00 GMT", 1_325_548_800.0),
    ("Tue Jan  3 00:00:00 2012", 1_325_548_800.0),
    ("2012-01-03T00:00:00.123Z", 1_325_548_800.123),
  ])
  func t17_dateStrings(text: String, seconds: Double) throws {
    let d = try Self.dated.map(#"{"at": "\#(text)"}"#, with: Self.rk)
    let at = try #require(d.at)
    #expect(abs(at.timeIntervalSince1970 - seconds) < 0.0005, "\(text)")
  }

  // T17: empty or whitespace-only string → nil, counted as success (clears the date).
  @Test(arguments: ["", "   "])
  func t17_emptyDateClears(text: String) throws {
    var d = Dated(at: Date(timeIntervalSince1970: 5), id: 1)
    try Self.dated.map(#"{"at": "\#(text)"}"#, onto: &d, with: Self.rk)
    #expect(d.at == nil)
  }

  // R-1.4.1: a format of one's own runs first.
  @Test func r1_4_1_ownFormatFirst() throws {
    let m = Mapping(Dated.init) {
      Attribute("at", \.at).dateFormats([.pattern("dd/MM/yyyy")] + DateFormat.restKitFormats)
    }
    #expect(try m.map(#"{"at": "03/01/2012"}"#, with: Self.rk).at == Self.utc(2012, 1, 3))
    let perMapping = Mapping(Dated.init) { Attribute("at", \.at) }
      .dateFormats([.pattern("dd/MM/yyyy")] + DateFormat.restKitFormats)
    #expect(try perMapping.map(#"{"at": "03/01/2012"}"#).at == Self.utc(2012, 1, 3))
  }

  // T19 / R-1.5.4: dates written as ISO 8601 in whole seconds; an attribute's own format is used.
  @Test func t19_datesWritten() throws {
    let body = String(
      decoding: try Self.dated.serialize(
        Dated(at: Date(timeIntervalSince1970: 0), id: 1), with: Self.rk), as: UTF8.self)
    #expect(body.contains("1970-01-01T00:00:00Z"))
    let m = Mapping(Dated.init) { Attribute("at", \.at).dateFormats([.pattern("MM/dd/yyyy")]) }
    let custom = String(
      decoding: try m.serialize(Dated(at: Date(timeIntervalSince1970: 0)), with: Self.rk),
      as: UTF8.self)
    #expect(custom.contains("01\\/01\\/1970") || custom.contains("01/01/1970"))
  }

  // MARK: 1.6 relationships

  struct Address: Equatable, Sendable {
    var city = ""
  }

  struct Owner: Equatable, Sendable {
    var name = ""
    var address: Address?
    var friends: [Address] = []
  }

  static let address = Mapping(Address.init) { Attribute("city", \.city) }
  static let owner = Mapping(Owner.init) {
    Attribute("name", \.name).optional()
    Relationship("address", \.address, address)
    Relationship("friends", \.friends, address).optional()
  }

  // R-1.6.3: a single object into a to-many relationship is a one-element collection.
  @Test func r1_6_3_singleObjectIntoACollection() throws {
    let o = try Self.owner.map(#"{"friends": {"city": "Oslo"}}"#, with: Self.rk)
    #expect(o.friends == [Address(city: "Oslo")])
  }

  // R-1.6.6 / R-1.6.7: absent keeps, null clears a to-one.
  @Test func r1_6_7_nullClearsAToOne() throws {
    var o = Owner(name: "A", address: Address(city: "Oslo"))
    try Self.owner.map(#"{"name": "B"}"#, onto: &o, with: Self.rk)
    #expect(o.address == Address(city: "Oslo"))
    try Self.owner.map(#"{"address": null}"#, onto: &o, with: Self.rk)
    #expect(o.address == nil)
  }

  struct Coordinate: Equatable, Sendable {
    var latitude = 0.0
    var longitude = 0.0
  }

  struct Place: Equatable, Sendable {
    var name = ""
    var coordinate: Coordinate?
  }

  // R-1.6.11: a nil-source relationship maps the parent's flat fields, only when one is present.
  @Test func r1_6_11_nilSourceRelationship() throws {
    let c = Mapping(Coordinate.init) {
      Attribute("latitude", \.latitude, default: 0)
      Attribute("longitude", \.longitude, default: 0)
    }
    let m = Mapping(Place.init) {
      Attribute("name", \.name)
      Relationship(.root, \.coordinate, c)
    }
    #expect(try m.map(#"{"name": "P", "latitude": 1.5}"#).coordinate == Coordinate(latitude: 1.5))
    #expect(try m.map(#"{"name": "P"}"#).coordinate == nil)
  }

  // MARK: 1.8 the mapper

  struct Item: Equatable, Sendable {
    var id = 0
  }

  static let item = Mapping(Item.init) { Attribute("id", \.id) }

  // R-1.8.2: a whole-payload route maps the payload in addition to the keyed ones.
  @Test func r1_8_2_wholePayloadRouteAlsoMaps() throws {
    struct Status: Equatable, Sendable { var ok = false }
    let status = Mapping(Status.init) { Attribute("ok", \.ok) }
    let result = try Mapper(
      MappingProvider {
        Route("", status)
        Route("data", Self.item)
      }
    ).map(#"{"ok": true, "data": {"id": 1}}"#)
    #expect(result.first(Status.self) == Status(ok: true))
    #expect(result.first(Item.self) == Item(id: 1))
  }

  // R-1.8.3 / R-1.8.4: null is not found, [] is found, null elements are skipped.
  @Test func r1_8_3_nullNotFoundEmptyArrayFound() throws {
    let mapper = Mapper(MappingProvider { Route("items", Self.item) })
    let empty = try mapper.map(#"{"items": []}"#)
    #expect(empty.errors.isEmpty && empty.count == 0)
    let null = try mapper.map(#"{"items": null}"#)
    #expect(null.errors.count == 1)
    let withNulls = try mapper.map(#"{"items": [{"id": 1}, null, {"id": 2}]}"#)
    #expect(withNulls.errors.isEmpty)
    #expect(withNulls.all(Item.self) == [Item(id: 1), Item(id: 2)])
  }

  // R-1.8.5 / R-1.14.1: collections are arrays, single objects are objects; first is nil when empty.
  @Test func r1_8_5_resultShapes() throws {
    let result = try Mapper(
      MappingProvider {
        Route("one", Self.item)
        Route("many", Self.item)
      }
    ).map(#"{"one": {"id": 1}, "many": [{"id": 2}]}"#)
    let dictionary = result.asDictionary()
    #expect(dictionary["one"] as? Item == Item(id: 1))
    #expect((dictionary["many"] as? [Any])?.count == 1)
    #expect(result.count == 2)
    #expect(result.asCollection().count == 2)
    let none = try Mapper(MappingProvider { Route("x", Self.item) }).map("{}")
    #expect(none.asObject() == nil && none.count == 0)
  }

  // R-1.8.7: an empty payload is not an error, even with a whole-payload route.
  @Test(arguments: ["{}", "[]"])
  func r1_8_7_emptyPayloads(payload: String) throws {
    let result = try Mapper(MappingProvider { Route("", Self.item) }).map(payload)
    #expect(result.errors.isEmpty)
    #expect(result.isEmpty)
  }

  // R-1.8.1a: a key path over a top-level array fans out.
  @Test func r1_8_1a_topLevelArrayFansOut() throws {
    let result = try Mapper(MappingProvider { Route("human", Self.item) })
      .map(#"[{"human": {"id": 1}}, {"human": {"id": 2}}]"#)
    #expect(result.all(Item.self) == [Item(id: 1), Item(id: 2)])
  }

  // MARK: 1.9 key of representation

  struct User: Equatable, Sendable {
    var username = ""
    var email = ""
    var city: String?
  }

  // R-1.9.2: the {name} placeholder (0.2x spelling) in attribute and relationship paths.
  @Test func r1_9_2_bracePlaceholder() throws {
    struct Holder: Equatable, Sendable {
      var name = ""
      var id = 0
      var address: Address?
    }
    let m = Mapping(Holder.init) {
      KeyAttribute("name", \.name)
      Attribute("{name}.id", \.id)
      Relationship("{name}.address", \.address, Self.address)
    }
    let h = try m.map(#"{"blake": {"id": 1234, "address": {"city": "Oslo"}}}"#)
    #expect(h == Holder(name: "blake", id: 1234, address: Address(city: "Oslo")))
    let users = Mapping(User.init) {
      KeyAttribute("username", \.username)
      Attribute("(username).email", \.email)
    }
    let all = try users.mapCollection(
      #"{"blake": {"email": "b@r.org"}, "rachit": {"email": "r@r.org"}}"#)
    #expect(
      all == [
        User(username: "blake", email: "b@r.org"), User(username: "rachit", email: "r@r.org"),
      ])
  }

  // R-1.9.4: the inverse writes the key of the representation.
  @Test func r1_9_4_keyOfRepresentationSerialises() throws {
    struct Hacker: Equatable, Sendable {
      var name = ""
      var occupation = ""
    }
    let m = Mapping(Hacker.init) {
      KeyAttribute("name", \.name)
      Attribute("{name}.job", \.occupation)
    }
    let body = String(
      decoding: try m.serialize(Hacker(name: "blake", occupation: "Hacker")), as: UTF8.self)
    #expect(body == #"{"blake":{"job":"Hacker"}}"#)
  }

  // MARK: 1.10 dynamic mappings

  class Animal: @unchecked Sendable {
    var name = ""
    required init() {}
  }
  final class Dog: Animal, @unchecked Sendable {}
  final class Cat: Animal, @unchecked Sendable {}

  struct Zoo: Sendable {
    var animals: [Animal] = []
    var star: Animal?
    var n = 0
  }

  static let dog: Mapping<Dog> = Mapping(Dog.init) { Attribute("name", \.name) }
  static let cat: Mapping<Cat> = Mapping(Cat.init) { Attribute("name", \.name) }

  // R-1.10.1: first match wins.
  @Test func r1_10_1_firstMatchWins() throws {
    let animal = DynamicMapping<Animal> {
      Match("type", equals: "dog", Self.cat)
      Match("type", equals: "dog", Self.dog)
    }
    #expect(try animal.map(#"{"type": "dog", "name": "x"}"#) is Cat)
  }

  // R-1.10.4: a declined element is skipped in a relationship; a declined to-one child is left alone.
  @Test func r1_10_4_declinedElementsAreSkipped() throws {
    let animal = DynamicMapping<Animal> {
      Match("type", equals: "dog", Self.dog)
      Match("type", equals: "cat", Self.cat)
    }
    let zoo = Mapping(Zoo.init) {
      Attribute("n", \.n, default: 0)
      Relationship("animals", \.animals, animal).optional()
      Relationship("star", \.star, animal)
    }
    let z = try zoo.map(
      #"{"n": 1, "animals": [{"type": "dog", "name": "a"}, {"type": "bird", "name": "b"}, {"type": "cat", "name": "c"}], "star": {"type": "bird"}}"#,
      with: Self.rk)
    #expect(z.animals.map(\.name) == ["a", "c"])
    #expect(z.star == nil)
  }

  // MARK: 1.11 validation

  // R-1.11.1: replace, reject (keeps the old value, succeeds), fail (the whole object fails).
  @Test func r1_11_1_validationOutcomes() throws {
    struct V: Equatable, Sendable { var text = "old" }
    let m = Mapping(V.init) {
      Attribute("text", \.text).validate { (text: inout String) throws -> Bool in
        if text == "FAIL" { throw ValidationMessage("failed") }
        if text == "REJECT" { return false }
        if text == "MODIFY" { text = "modified value" }
        return true
      }
    }
    var v = V()
    try m.map(#"{"text": "MODIFY"}"#, onto: &v)
    #expect(v.text == "modified value")
    try m.map(#"{"text": "REJECT"}"#, onto: &v)
    #expect(v.text == "modified value")
    #expect(throws: MappingErrors.self) { try m.map(#"{"text": "FAIL"}"#, onto: &v) }
  }

  // MARK: 1.13 parameterization

  struct Post: Equatable, Sendable {
    var title = ""
    var published = false
    var tags: Set<String> = []
    var note: String?
  }

  static let post = Mapping(Post.init) {
    Attribute("title", \.title)
    Attribute("published", \.published)
    Attribute("tags", \.tags)
    Attribute("note", \.note)
  }

  // R-1.13.2 / R-1.13.4: root key wraps; booleans stay JSON booleans; a set becomes an array;
  // nil attributes are null.
  @Test func r1_13_4_postProcessing() throws {
    let body = try Self.post.inverted().rootKey("post").serialize(
      Post(title: "T", published: true, tags: ["a"]), with: Self.rk)
    let object = try JSONSerialization.jsonObject(with: body) as? [String: [String: Any]]
    let post = try #require(object?["post"])
    #expect(String(decoding: body, as: UTF8.self).contains(#""published":true"#))
    #expect(post["tags"] as? [String] == ["a"])
    #expect(post["note"] is NSNull)
  }

  // R-1.13.5: several objects under a root key are an array there; no root key, a top-level array.
  @Test func r1_13_5_collections() throws {
    let items = [Item(id: 1), Item(id: 2)]
    #expect(
      String(decoding: try Self.item.serializeCollection(items), as: UTF8.self)
        == #"[{"id":1},{"id":2}]"#)
    #expect(
      String(
        decoding: try Self.item.inverted().rootKey("items").serializeCollection(items),
        as: UTF8.self)
        == #"{"items":[{"id":1},{"id":2}]}"#)
  }

  // R-1.13.6: extra parameters deep-merge (caller wins); merging into a top-level array fails.
  @Test func r1_13_6_merging() throws {
    struct Deep: Equatable, Sendable {
      var id = 0
      var a = ""
      var b = ""
    }
    let m = Mapping(Deep.init) {
      Attribute("id", \.id)
      Attribute("meta.a", \.a)
      Attribute("meta.b", \.b)
    }
    let body = try m.serialize(
      Deep(id: 1, a: "x", b: "y"), merging: ["id": 2, "meta": ["b": "z", "c": "w"]])
    let object = try JSONSerialization.jsonObject(with: body) as? [String: Any]
    #expect(object?["id"] as? Int == 2)
    #expect(object?["meta"] as? [String: String] == ["a": "x", "b": "z", "c": "w"])
    #expect(throws: MappingErrors.self) {
      try Self.item.serializeCollection([Item(id: 1)], merging: ["x": 1])
    }
  }

  // R-1.13.8: form bodies: sorted keys, nested brackets, sets sorted, RestKit's escaping.
  @Test func r1_13_8_formEncoding() throws {
    struct F: Equatable, Sendable {
      var b = ""
      var a = ""
      var tags: Set<String> = []
      var inner = ""
    }
    let m = Mapping(F.init) {
      Attribute("b", \.b)
      Attribute("a", \.a)
      Attribute("tags", \.tags)
      Attribute("z.inner", \.inner)
    }
    let body = String(
      decoding: try m.serialize(
        F(b: "a:b/c?d&e=f;g+h!i@j#k$l(m)n'o,p*q", a: "¡ |", tags: ["y", "x"], inner: "v"),
        as: .formURLEncoded, with: Self.rk),
      as: UTF8.self)
    #expect(
      body
        == "a=%C2%A1%20%7C&b=a%3Ab%2Fc%3Fd%26e%3Df%3Bg%2Bh%21i%40j%23k%24l%28m%29n%27o%2Cp%2Aq&tags[]=x&tags[]=y&z[inner]=v"
    )
  }

  // R-1.13.8: reading a query string: repeated keys become an array.
  @Test func r1_13_8_formDecoding() throws {
    struct Q: Equatable, Sendable { var this: [String] = [] }
    let m = Mapping(Q.init) { Attribute("this", \.this) }
    let q = try m.map(
      .payload(Data("this=that&this=other".utf8), contentType: "application/x-www-form-urlencoded"))
    #expect(q.this == ["that", "other"])
  }

  // MARK: 1.14 / 1.15 results and errors

  @Test func r1_14_3_asErrorJoins() throws {
    let result = try Mapper(MappingProvider { Route("x", Self.item) }).map(
      #"{"errors": ["error1", "error2"]}"#)
    #expect(result.asError()?.description == "error1, error2")
    let single = try Mapper(MappingProvider { Route("x", Self.item) }).map(
      #"{"error": "this is an error"}"#)
    #expect(single.asError()?.description == "this is an error")
  }
  // R-1.3.9: a nesting (key of representation) attribute counts as found on its own.
  @Test func r1_3_9_nestingAttributeIsFound() throws {
    let users = Mapping(User.init) {
      KeyAttribute("username", \.username)
      Attribute("(username).email", \.email, default: "")
    }
    #expect(try users.map(#"{"blake": {}}"#) == User(username: "blake"))
  }

  // R-1.1.6: an untyped destination takes the value as it is.
  @Test func r1_1_6_untypedPassesThrough() throws {
    struct Raw: Equatable, Sendable { var value: Node? }
    let m = Mapping(Raw.init) { Attribute("value", \.value) }
    let r = try m.map(#"{"value": {"a": [1, "b"]}}"#)
    #expect(r.value == ["a": [1, "b"]])
  }

  // R-1.8.8: one failing object does not fail the mapper; the others are in the result.
  @Test func r1_8_8_objectErrorsAreCollected() throws {
    let result = try Mapper(MappingProvider { Route("items", Self.item) })
      .map(#"{"items": [{"id": 1}, {"id": "x"}, {"id": 3}]}"#)
    #expect(result.all(Item.self) == [Item(id: 1), Item(id: 3)])
    #expect(result.errors.count == 1)
  }

  // T17: fractional seconds up to 6 digits are kept.
  @Test func t17_microseconds() throws {
    let d = try Self.dated.map(#"{"at": "2012-01-03T00:00:00.123456Z"}"#, with: Self.rk)
    #expect(abs(try #require(d.at).timeIntervalSince1970 - 1_325_548_800.123456) < 0.000002)
  }

  struct Tag: Hashable, Sendable {
    var name = ""
  }

  struct Tagged: Equatable, Sendable {
    var tags: Set<Tag> = []
    var users: [User] = []
    var addresses: [Address] = []
  }

  // R-1.6.2 / R-1.9.1 / R-1.2.2: a to-many into a set; a keyed mapping in a to-many relationship is
  // one object per key (in payload order); a relationship through an array fans out.
  @Test func r1_6_2_toManyShapes() throws {
    let tag = Mapping(Tag.init) { Attribute("name", \.name) }
    let user = Mapping(User.init) {
      KeyAttribute("username", \.username)
      Attribute("(username).email", \.email)
    }
    let m = Mapping(Tagged.init) {
      Relationship("tags", \.tags, tag).optional()
      Relationship("users", \.users, user).optional()
      Relationship("friends.address", \.addresses, Self.address).optional()
    }
    let t = try m.map(
      #"{"tags": [{"name": "a"}, {"name": "b"}, {"name": "a"}], "users": {"zed": {"email": "z"}, "amy": {"email": "a"}}, "friends": [{"address": {"city": "Oslo"}}, {"address": {"city": "Bergen"}}]}"#
    )
    #expect(t.tags == [Tag(name: "a"), Tag(name: "b")])
    #expect(t.users.map(\.username) == ["zed", "amy"])
    #expect(t.addresses == [Address(city: "Oslo"), Address(city: "Bergen")])
  }

  // R-1.10.4 (mapper level): a declined element of a collection is skipped, no error.
  @Test func r1_10_4_declinedElementAtTheMapper() throws {
    let animal = DynamicMapping<Animal> { Match("type", equals: "dog", Self.dog) }
    let result = try Mapper(MappingProvider { Route("animals", animal) })
      .map(#"{"animals": [{"type": "dog", "name": "a"}, {"type": "bird", "name": "b"}]}"#)
    #expect(result.errors.isEmpty)
    #expect(result.all(Animal.self).map(\.name) == ["a"])
  }

  // R-1.10.5: serialising with a dynamic mapping none of whose cases applies is an error.
  @Test func r1_10_5_dynamicSerialisationWithoutACase() throws {
    let animal = DynamicMapping<Animal> { Match("type", equals: "dog", Self.dog) }
    #expect(throws: MappingErrors.self) { try animal.serialize(Cat()) }
    let body = String(decoding: try animal.serialize(Dog()), as: UTF8.self)
    #expect(body.contains(#""type":"dog""#))
  }

  // R-1.3.4 (relationships) / R-1.6.7: a null relationship is found, and clears.
  @Test func r1_3_4_nullRelationshipIsFound() throws {
    let o = try Self.owner.map(#"{"address": null}"#, with: Self.rk)
    #expect(o.address == nil)
  }

  // R-1.6.10: relationships take part in validation (reject keeps the old child).
  @Test func r1_6_10_relationshipValidation() throws {
    let m = Mapping(Owner.init) {
      Attribute("name", \.name).optional()
      Relationship("address", \.address, Self.address)
        .validate("no Nowhere") { (a: inout Address) in a.city != "Nowhere" }
    }
    var o = Owner(name: "A", address: Address(city: "Oslo"))
    let report = m.report(#"{"address": {"city": "Nowhere"}}"#, onto: o)
    #expect(report.object?.address == Address(city: "Oslo"))
    #expect(report.diagnostics.count == 1)
    try m.map(#"{"address": {"city": "Bergen"}}"#, onto: &o)
    #expect(o.address == Address(city: "Bergen"))
  }

  // R-1.12.1 / R-1.13.3: the inverse inverts relationships recursively; nil attributes are null,
  // nil relationships left out.
  @Test func r1_12_1_inverseIsRecursive() throws {
    let body = String(
      decoding: try Self.owner.serialize(
        Owner(name: "A", friends: [Address(city: "Oslo")]), with: Self.rk),
      as: UTF8.self)
    #expect(body.contains(#""friends":[{"city":"Oslo"}]"#))
    #expect(!body.contains("address"))
  }
}
