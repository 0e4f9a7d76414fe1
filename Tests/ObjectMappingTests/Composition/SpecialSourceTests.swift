import Foundation
import ObjectMapping
import Testing

@Suite("Special sources, empty-source relationships and compound sources")
struct SpecialSourceTests {
  struct Line: Equatable {
    var text = ""
    var position: Int?
    var orderNumber: String?
    var apiVersion: Int?
    var extra: Node?
  }

  struct Order: Equatable {
    var number = ""
    var lines: [Line] = []
    var first: Line?
  }

  static let lineMapping = Mapping(Line.init) {
    Attribute("text", \.text)
    Attribute(.index, \.position)
    Attribute(SourcePath.parent.appending("number"), \.orderNumber)
    Attribute(SourcePath.payload.appending("meta.version"), \.apiVersion)
  }

  static let orderMapping = Mapping(Order.init) {
    Attribute("number", \.number)
    Relationship("lines", \.lines, lineMapping)
    Relationship("first", \.first, lineMapping)
  }

  static let orderJSON = #"""
    {"number": "A-1", "meta": {"version": 3},
     "lines": [{"text": "a"}, {"text": "b"}, {"text": "c"}],
     "first": {"text": "z"}}
    """#

  @Test func toManyElementsReadTheirIndexParentAndPayload() throws {
    let order = try Self.orderMapping.map(Self.orderJSON)
    #expect(order.lines.map(\.position) == [0, 1, 2])
    #expect(order.lines.map(\.orderNumber) == ["A-1", "A-1", "A-1"])
    #expect(order.lines.map(\.apiVersion) == [3, 3, 3])
  }

  @Test func aToOneChildReadsNoIndex() throws {
    let order = try Self.orderMapping.map(Self.orderJSON)
    let first = try #require(order.first)
    #expect(first.position == nil)
    #expect(first.orderNumber == "A-1")
  }

  @Test func topLevelCollectionElementsReadTheirIndexAndNoParent() throws {
    let lines = try Self.lineMapping.mapCollection(#"[{"text": "a"}, {"text": "b"}]"#)
    #expect(lines.map(\.position) == [0, 1])
    #expect(lines.map(\.orderNumber) == [nil, nil])
    let single = try Self.lineMapping.map(#"{"text": "a", "meta": {"version": 9}}"#)
    #expect(single.position == nil)
    #expect(single.apiVersion == 9)
  }

  @Test func theWholeParentAsANode() throws {
    let mapping = Mapping(Order.init) {
      Relationship(
        "first", \.first,
        Mapping(Line.init) {
          Attribute("text", \.text)
          Attribute(.parent, \.extra)
        })
    }
    let order = try mapping.map(#"{"first": {"text": "t"}, "k": 1}"#)
    #expect(order.first?.extra == ["first": ["text": "t"], "k": 1])
  }

  @Test func theIndexConvertsAndFailsLikeAnyValue() throws {
    struct Tagged: Equatable {
      var label = ""
    }
    let mapping = Mapping(Tagged.init) {
      Attribute(.index, \.label, decodeOnly: { (position: Int) in "#\(position)" })
    }
    #expect(try mapping.mapCollection(#"[{}, {}]"#).map(\.label) == ["#0", "#1"])
    #expect(throws: MappingErrors.self) { try mapping.map("{}") }
  }

  @Test func specialSourcesAreLeftOutOfTheInverse() {
    let omitted = Self.lineMapping.inverted().omitted.map(\.description)
    #expect(
      omitted == [
        #"Attribute "@index": it reads a special source"#,
        #"Attribute "@parent.number": it reads a special source"#,
        #"Attribute "@payload.meta.version": it reads a special source"#,
      ])
  }

  /// RestKit's and AppCoreKit's string names of the special sources, in the DSL (SPEC §3 names
  /// `@parent` and `@root`): the same paths as the typed spellings, mapping the same values.
  @Test func restKitStringNamesAreTheSpecialSources() throws {
    #expect(SourcePath("@parent.number") == SourcePath.parent.appending("number"))
    #expect(SourcePath("@parent") == SourcePath.parent)
    #expect(SourcePath("@root.meta.version") == SourcePath.payload.appending("meta.version"))
    #expect(SourcePath("@root") == SourcePath.payload)
    #expect(SourcePath("@payload.meta") == SourcePath.payload.appending("meta"))
    #expect(
      SourcePath("@metadata.response.status") == SourcePath.metadata.appending("response.status"))
    #expect(SourcePath("@self") == SourcePath.root)
    #expect(SourcePath("@self.name") == SourcePath("name"))
    #expect(SourcePath("@metadata.mapping.collectionIndex") == SourcePath.index)
    // Every special source's description reads back as the same path, and so does a plain key
    // named like one (its description escapes it).
    for path in [
      SourcePath.root, .parent, SourcePath.parent.appending("a.b"), .payload,
      SourcePath.payload.appending("meta"), SourcePath.metadata.appending("request.url"),
      SourcePath(keys: ["@parent", "x"]), SourcePath(keys: ["@root"]), SourcePath(keys: ["a.b"]),
    ] {
      #expect(SourcePath(path.description) == path)
    }
    #expect(SourcePath(keys: ["@parent"]).description == #"\@parent"#)
    // Other keys starting with "@" are ordinary keys: JSON-LD's "@id", "@type" and "@index".
    #expect(SourcePath("@id").keys == ["@id"])
    #expect(SourcePath("@index").keys == ["@index"])
    #expect(SourcePath("@selfish").keys == ["@selfish"])
    #expect(SourcePath(#"\@parent.number"#).keys == ["@parent", "number"])

    let restKitLines = Mapping(Line.init) {
      Attribute("text", \.text)
      Attribute("@metadata.mapping.collectionIndex", \.position)
      Attribute("@parent.number", \.orderNumber)
      Attribute("@root.meta.version", \.apiVersion)
    }
    let restKitOrders = Mapping(Order.init) {
      Attribute("number", \.number)
      Relationship("lines", \.lines, restKitLines)
      Relationship("first", \.first, restKitLines)
    }
    #expect(try restKitOrders.map(Self.orderJSON) == Self.orderMapping.map(Self.orderJSON))
    #expect(
      restKitLines.inverted().omitted.map(\.description)
        == Self.lineMapping.inverted().omitted.map(\.description))
    let linked = Mapping(Line.init) {
      Attribute("@id", \.text)
      Attribute("@index", \.orderNumber)
    }
    #expect(try linked.map(#"{"@id": "urn:1", "@index": "en"}"#).orderNumber == "en")
    #expect(try linked.mapCollection(#"[{"@id": "urn:1", "@index": "en"}]"#)[0].orderNumber == "en")
    #expect(linked.inverted().omitted.isEmpty)
  }

  /// Where a string names keys of a representation (an inverse's output keys, a route, a
  /// matcher), a leading "@parent" or "@root" is a key, not a special source.
  @Test func outputKeysRoutesAndMatchersNameKeys() throws {
    struct Item: Equatable, Sendable {
      var id = ""
      var text = ""
    }
    let item = Mapping(Item.init) {
      Attribute("@id", \.id)
      Attribute("text", \.text)
    }
    let value = Item(id: "urn:1", text: "hi")
    #expect(try item.inverted().keeping("@root").node(value) == [:])
    #expect(
      item.inverted().keeping("@root").omitted.map(\.description) == [
        #"keeping("@root"): no rule writes "@root""#
      ])
    #expect(
      try item.inverted().renaming("text", to: "@parent.t").node(value) == [
        "@id": "urn:1", "@parent": ["t": "hi"],
      ])
    #expect(
      try item.inverted().rootKey("@root").node(value) == ["@root": ["@id": "urn:1", "text": "hi"]])
    #expect(SourcePath.payload.appending("@parent.x") == SourcePath("@root.@parent.x"))
    let routed = try Mapper(MappingProvider { Route("@root", item) }).map(
      #"{"@id": "top", "@root": {"@id": "inner", "text": "t"}}"#)
    #expect(routed.all(Item.self) == [Item(id: "inner", text: "t")])
    // A matcher reading a special source is a definition problem, reported before any payload.
    let dynamic = DynamicMapping<Item> { Match("@parent.kind", equals: "a", item) }
    #expect(throws: MappingErrors.self) { try dynamic.validate() }
    #expect(
      errorLines { try dynamic.validate() }.first?.contains(
        #"Match("@parent.kind") reads a special source"#) == true)
  }

  @Test func specialSourcesWorkWhenMappingOntoExistingInstances() throws {
    var order = try Self.orderMapping.map(Self.orderJSON)
    try Self.orderMapping.map(
      #"{"number": "B-2", "lines": [{"text": "x"}, {"text": "y"}]}"#, onto: &order)
    #expect(order.lines.map(\.position) == [0, 1])
    #expect(order.lines.map(\.orderNumber) == ["B-2", "B-2"])
  }

  // MARK: Empty-source relationships

  struct Coordinate: Equatable {
    var latitude = 0.0
    var longitude = 0.0
  }

  struct Place: Equatable {
    var name = ""
    var coordinate: Coordinate?
  }

  static let coordinateMapping = Mapping(Coordinate.init) {
    Attribute("latitude", \.latitude, default: 0)
    Attribute("longitude", \.longitude, default: 0)
  }

  static let placeMapping = Mapping(Place.init) {
    Attribute("name", \.name)
    Relationship(.root, \.coordinate, coordinateMapping)
  }

  @Test func anEmptySourceRelationshipBuildsTheChildFromFlatFields() throws {
    let place = try Self.placeMapping.map(
      #"{"name": "Paris", "latitude": 48.85, "longitude": 2.35}"#)
    #expect(place.coordinate == Coordinate(latitude: 48.85, longitude: 2.35))
    let half = try Self.placeMapping.map(#"{"name": "Null Island", "longitude": 1}"#)
    #expect(half.coordinate == Coordinate(latitude: 0, longitude: 1))
  }

  @Test func theChildIsAbsentWhenNoneOfItsKeysIs() throws {
    let place = try Self.placeMapping.map(#"{"name": "Nowhere", "latitude": null}"#)
    #expect(place.coordinate == nil)
    var existing = Place(name: "Old", coordinate: Coordinate(latitude: 1, longitude: 2))
    try Self.placeMapping.map(#"{"name": "New"}"#, onto: &existing)
    #expect(existing == Place(name: "New", coordinate: Coordinate(latitude: 1, longitude: 2)))
  }

  @Test func theInverseWritesTheChildFlat() throws {
    let place = Place(name: "Paris", coordinate: Coordinate(latitude: 48.5, longitude: 2.25))
    #expect(Self.placeMapping.inverted().omitted.isEmpty)
    #expect(
      try Self.placeMapping.inverted().node(place)
        == ["name": "Paris", "latitude": 48.5, "longitude": 2.25])
    #expect(
      try Self.placeMapping.inverted().node(Place(name: "Nowhere", coordinate: nil))
        == ["name": "Nowhere"])
  }

  // MARK: Compound sources

  struct Employee: Equatable {
    var name = ""
    var badge = ""
  }

  static let employeeMapping = Mapping(Employee.init) {
    Attribute("name", \.name)
    Attribute(sources: ["employee_identifier", "details.age"], \.badge, .joined(":"))
  }

  @Test func compoundSourcesAreJoined() throws {
    let employee = try Self.employeeMapping.map(
      #"{"name": "Ann", "employee_identifier": "E42", "details": {"age": 31}}"#)
    #expect(employee.badge == "E42:31")
  }

  @Test func compoundSourcesSplitBackOnSerialization() throws {
    let node = try Self.employeeMapping.inverted().node(Employee(name: "Ann", badge: "E42:31"))
    #expect(node == ["name": "Ann", "employee_identifier": "E42", "details": ["age": "31"]])
  }

  @Test func aPartlyMissingCompoundSourceReportsEachMissingPart() throws {
    let error = try #require(throws: MappingErrors.self) {
      try Self.employeeMapping.map(#"{"name": "Ann", "details": {"age": 31}}"#)
    }
    #expect(error.errors.map(\.description) == ["/employee_identifier: required value is missing"])
  }

  @Test func anAbsentCompoundSourceIsAbsent() throws {
    let error = try #require(throws: MappingErrors.self) {
      try Self.employeeMapping.map(#"{"name": "Ann"}"#)
    }
    #expect(error.errors.map(\.description) == ["required value is missing"])
    let lenient = Mapping(Employee.init) {
      Attribute("name", \.name)
      Attribute(sources: ["a", "b"], \.badge, .joined("-")).optional()
    }
    var employee = Employee(name: "Kept", badge: "kept")
    try lenient.map(#"{"name": "Ann"}"#, onto: &employee)
    #expect(employee.badge == "kept" && employee.name == "Ann")
  }

  @Test func aValueThatDoesNotSplitIntoOnePartPerSourceCannotBeSerialized() throws {
    let error = try #require(throws: MappingErrors.self) {
      try Self.employeeMapping.inverted().node(Employee(name: "Ann", badge: "no-colon"))
    }
    #expect(
      error.errors.map(\.description) == [
        "/employee_identifier: cannot serialize: no-colon: it splits into 1 values for 2 sources"
      ])
  }
}
