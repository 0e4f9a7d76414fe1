import Foundation
import ObjectMapping
import ObjectMappingTesting
import Testing

// RestKit's boys and girls (seed 001, "Dynamic Object Mapping"): a class hierarchy.
class Person: Equatable, CustomStringConvertible {
  var name = ""
  var friends: [Person] = []
  required init() {}
  static func == (lhs: Person, rhs: Person) -> Bool {
    type(of: lhs) == type(of: rhs) && lhs.name == rhs.name && lhs.friends == rhs.friends
  }
  var description: String { "\(type(of: self))(\(name), friends: \(friends))" }
}
final class Boy: Person {}
final class Girl: Person {
  var favoriteColor: String?
}

enum People {
  static let boyMapping: Mapping<Boy> = Mapping(Boy.init) {
    Attribute("name", \.name)
    Relationship("friends", \.friends, lazy: { People.person }).optional()
  }
  static let girlMapping: Mapping<Girl> = Mapping(Girl.init) {
    Attribute("name", \.name)
    Attribute("favorite_color", \.favoriteColor)
    Relationship("friends", \.friends, lazy: { People.person }).optional()
  }
  static let person: DynamicMapping<Person> = DynamicMapping<Person> {
    Match("type", equals: "Boy", boyMapping)
    Match("type", equals: "Girl", girlMapping)
  }
  static let payload = """
    {"people": [
      {"name": "Blake Watters", "type": "Boy", "friends": [
        {"name": "John Doe", "type": "Boy"},
        {"name": "Jane Doe", "type": "Girl"}]},
      {"name": "Sarah", "type": "Girl"}
    ]}
    """
}

struct Roster: Equatable {
  var people: [Person] = []
  static let mapping = Mapping(Roster.init) {
    Relationship("people", \.people, People.person)
  }
}

@Suite("Dynamic mappings: class hierarchies")
struct DynamicClassTests {
  @Test func boysAndGirlsMapToTheirClassesFriendsIncluded() throws {
    let roster = try Roster.mapping.map(People.payload)
    #expect(roster.people.count == 2)
    let blake = try #require(roster.people.first as? Boy)
    #expect(blake.name == "Blake Watters")
    #expect(
      blake.friends.map { "\(type(of: $0)):\($0.name)" } == ["Boy:John Doe", "Girl:Jane Doe"])
    let sarah = try #require(roster.people.last as? Girl)
    #expect(sarah.name == "Sarah" && sarah.friends.isEmpty)
  }

  @Test func serializesBackWithTheDiscriminator() throws {
    let roster = try Roster.mapping.map(People.payload)
    let json = String(decoding: try Roster.mapping.serialize(roster), as: UTF8.self)
    #expect(
      json
        == #"{"people":[{"name":"Blake Watters","friends":[{"name":"John Doe","friends":[],"type":"Boy"},{"name":"Jane Doe","friends":[],"type":"Girl"}],"type":"Boy"},{"name":"Sarah","friends":[],"type":"Girl"}]}"#
    )
    let laws = RoundTripLaws(Roster.mapping)
    try laws.checkValue(roster)
    // Absent friends come back as empty arrays: the only difference the payload law allows.
    try laws.checkPayload(
      json: People.payload, allowing: ["/people/*/friends/*/friends", "/people/1/friends"])
  }

  @Test func anUnknownTypeIsSkippedByDefaultAndAnErrorWhenAsked() throws {
    let payload =
      #"[{"name": "Ann", "type": "Girl"}, {"name": "Zork", "type": "Alien"}, {"name": "Bo", "type": "Boy"}]"#
    let people = try People.person.mapCollection(payload)
    #expect(people.map(\.name) == ["Ann", "Bo"])
    let strict = People.person.declinesAsErrors()
    let lines = errorLines { try strict.mapCollection(payload) }
    #expect(lines == [#"/1: no mapping matches: type is "Alien""#])
    let single = errorLines { try People.person.map(#"{"name": "Zork", "type": "Alien"}"#) }
    #expect(single == [#"no mapping matches: type is "Alien""#])
    let absent = errorLines { try People.person.map(#"{"name": "Zork"}"#) }
    #expect(absent == ["no mapping matches: type is absent"])
  }

  @Test func matchingIsTypeStrictUnlessConverting() throws {
    struct Flag: Equatable { var on = false }
    let flagMapping = Mapping(Flag.init) { Attribute("on", \.on) }
    let strict = DynamicMapping<Flag> { Match("kind", equals: 1, flagMapping) }
    #expect(
      try strict.mapCollection(#"[{"kind": 1, "on": true}, {"kind": 1.0, "on": true}]"#).count == 2)
    #expect(try strict.mapCollection(#"[{"kind": true}, {"kind": "1"}]"#).isEmpty)
    let converting = DynamicMapping<Flag> { Match("kind", equals: 1, flagMapping).converting() }
    #expect(
      try converting.mapCollection(
        #"[{"kind": "1", "on": 1}, {"kind": "1.0", "on": "yes"}, {"kind": 2, "on": true}]"#
      ).count == 2)
  }

  @Test func nestedDiscriminatorPathsMatchAndAreWrittenBack() throws {
    let mapping = DynamicMapping<Person> {
      Match("meta.kind", equals: "boy", People.boyMapping)
      Match("meta.kind", equals: "girl", People.girlMapping)
    }
    let people = try mapping.mapCollection(
      #"[{"name": "A", "meta": {"kind": "girl"}}, {"name": "B", "meta": {"kind": "boy"}}]"#)
    #expect(people.map { "\(type(of: $0))" } == ["Girl", "Boy"])
    let json = String(decoding: try mapping.serializeCollection(people), as: UTF8.self)
    #expect(
      json
        == #"[{"name":"A","friends":[],"meta":{"kind":"girl"}},{"name":"B","friends":[],"meta":{"kind":"boy"}}]"#
    )
  }

  /// A case mapping that reads the discriminator's key into a property of its own (ObjectMapper's
  /// class clusters: `type <- map["type"]`) writes that property's value when it has one, and
  /// the discriminator when it is `nil`, so the payload maps back to the same case (before, a
  /// `nil` property left the key out and the object came back as another case).
  @Test func aNilDiscriminatorPropertyWritesTheDiscriminator() throws {
    class Vehicle: @unchecked Sendable {
      var type: String?
      var wheels = 0
      required init() {}
    }
    final class Bus: Vehicle, @unchecked Sendable {}
    let vehicleRules = Mapping(Vehicle.init) {
      Attribute("type", \.type)
      Attribute("wheels", \.wheels)
    }
    let bus = Mapping(Bus.init) { Include(vehicleRules) }
    let vehicles = DynamicMapping<Vehicle> {
      Match("type", equals: "bus", bus)
      Match.otherwise(vehicleRules)
    }
    let untyped = Bus()
    untyped.wheels = 6
    let json = String(decoding: try vehicles.serialize(untyped), as: UTF8.self)
    #expect(json == #"{"type":"bus","wheels":6}"#)
    #expect(try vehicles.map(json) is Bus)
    // A value of its own is kept, as before, and `null` under `.nulls(.include)` is not written
    // over the discriminator.
    untyped.type = "BUS"
    #expect(
      String(decoding: try vehicles.serialize(untyped), as: UTF8.self)
        == #"{"type":"BUS","wheels":6}"#)
    untyped.type = nil
    #expect(
      String(
        decoding: try vehicles.serialize(untyped, with: MappingOptions(nulls: .include)),
        as: UTF8.self) == #"{"type":"bus","wheels":6}"#)
  }

  @Test func aClosureChoosesTheCaseAndATableInvertsIt() throws {
    let chosen = DynamicMapping<Person>(
      choosing: { value in
        switch try? value["type"]?.decode(String.self) {
        case "Boy": DynamicCase(People.boyMapping)
        case "Girl": DynamicCase(People.girlMapping)
        default: nil
        }
      },
      serializingWith: [DynamicCase(People.boyMapping), DynamicCase(People.girlMapping)])
    let people = try chosen.mapCollection(
      #"[{"name": "A", "type": "Girl"}, {"name": "B", "type": "Boy"}, {"type": "Cat"}]"#)
    #expect(people.map { "\(type(of: $0)):\($0.name)" } == ["Girl:A", "Boy:B"])
    #expect(
      String(decoding: try chosen.serializeCollection(people), as: UTF8.self)
        == #"[{"name":"A","friends":[]},{"name":"B","friends":[]}]"#)

    let noTable = DynamicMapping<Person>(choosing: { _ in DynamicCase(People.boyMapping) })
    #expect(
      noTable.inverted().omitted.map(\.description) == [
        "DynamicMapping<Person>: its case is chosen by a closure and no serializing table was given"
      ])
    let lines = errorLines { try noTable.serialize(Boy()) }
    #expect(
      lines == [
        "cannot serialize: DynamicMapping<Person>: its case is chosen by a closure and no serializing table was given"
      ])
  }
}

// Polymorphism through an enum with associated values and through a protocol.
struct Circle: Equatable, Sendable, ShapeProtocol {
  var radius = 0.0
}
struct Rect: Equatable, Sendable, ShapeProtocol {
  var width = 0.0
  var height = 0.0
}
enum Shape: Equatable, Sendable {
  case circle(Circle)
  case rect(Rect)
}
protocol ShapeProtocol: Sendable {}

enum Shapes {
  static let circleMapping = Mapping(Circle.init) { Attribute("radius", \.radius) }
  static let rectMapping = Mapping(Rect.init) {
    Attribute("width", \.width)
    Attribute("height", \.height)
  }
  static let shape = DynamicMapping<Shape> {
    Match("kind", equals: "circle", circleMapping, case: Shape.circle) {
      if case .circle(let circle) = $0 { circle } else { nil }
    }
    Match("kind", equals: "rect", rectMapping, case: Shape.rect) {
      if case .rect(let rect) = $0 { rect } else { nil }
    }
  }
  static let anyShape = DynamicMapping<any ShapeProtocol> {
    Match("kind", equals: "circle", circleMapping)
    Match("kind", equals: "rect", rectMapping)
  }
}

struct Drawing: Equatable {
  var shapes: [Shape] = []
  var main: Shape?
  static let mapping = Mapping(Drawing.init) {
    Relationship("shapes", \.shapes, Shapes.shape)
    Relationship("main", \.main, Shapes.shape)
  }
}

@Suite("Dynamic mappings: enums and protocols")
struct DynamicEnumAndProtocolTests {
  let payload =
    #"{"shapes": [{"kind": "circle", "radius": 2}, {"kind": "rect", "width": 3, "height": 4}], "main": {"kind": "rect", "width": 1, "height": 1}}"#

  @Test func enumCasesRoundTrip() throws {
    let drawing = try Drawing.mapping.map(payload)
    #expect(drawing.shapes == [.circle(Circle(radius: 2)), .rect(Rect(width: 3, height: 4))])
    #expect(drawing.main == .rect(Rect(width: 1, height: 1)))
    #expect(
      String(decoding: try Drawing.mapping.serialize(drawing), as: UTF8.self)
        == #"{"shapes":[{"radius":2,"kind":"circle"},{"width":3,"height":4,"kind":"rect"}],"main":{"width":1,"height":1,"kind":"rect"}}"#
    )
    let laws = RoundTripLaws(Drawing.mapping)
    try laws.checkValue(drawing)
    try laws.checkPayload(json: payload)
  }

  @Test func protocolExistentialsRoundTrip() throws {
    let shapes = try Shapes.anyShape.mapCollection(
      #"[{"kind": "rect", "width": 3, "height": 4}, {"kind": "circle", "radius": 2}]"#)
    #expect(shapes.count == 2)
    #expect((shapes.first as? Rect) == Rect(width: 3, height: 4))
    #expect((shapes.last as? Circle) == Circle(radius: 2))
    #expect(
      String(decoding: try Shapes.anyShape.serializeCollection(shapes), as: UTF8.self)
        == #"[{"width":3,"height":4,"kind":"rect"},{"radius":2,"kind":"circle"}]"#)
  }

  @Test func tenThousandElementsFromEightTasksMatchSequentialMapping() async throws {
    var elements: [String] = []
    for index in 0..<10_000 {
      elements.append(
        index % 3 == 0
          ? #"{"kind": "circle", "radius": \#(index)}"#
          : #"{"kind": "rect", "width": \#(index), "height": \#(index % 7)}"#)
    }
    let payload = "[" + elements.joined(separator: ",") + "]"
    let sequential = try Shapes.shape.mapCollection(payload)
    #expect(sequential.count == 10_000)
    #expect(sequential[3] == .circle(Circle(radius: 3)))
    let concurrent = try await withThrowingTaskGroup(of: [Shape].self) { group in
      for _ in 0..<8 {
        group.addTask { try Shapes.shape.mapCollection(payload) }
      }
      var results: [[Shape]] = []
      for try await result in group { results.append(result) }
      return results
    }
    #expect(concurrent.count == 8)
    #expect(concurrent.allSatisfy { $0 == sequential })
  }
}

@Suite("Dynamic mappings through the mapper")
struct DynamicMapperTests {
  @Test func traceListsEveryCaseChosenForBoysAndGirls() throws {
    let mapper = Mapper(MappingProvider { Route("people", People.person) }, trace: true)
    let result = try mapper.map(People.payload)
    #expect(result.all(Person.self).map(\.name) == ["Blake Watters", "Sarah"])
    #expect(result.errors.isEmpty && result.diagnostics.isEmpty)
    #expect(
      result.trace?.map(\.description) == [
        #"/people: route matched "people""#,
        #"/people/0: case chosen: type == "Boy" -> Boy"#,
        #"/people/0/friends/0: case chosen: type == "Boy" -> Boy"#,
        #"/people/0/friends/1: case chosen: type == "Girl" -> Girl"#,
        #"/people/1: case chosen: type == "Girl" -> Girl"#,
      ])
  }

  @Test func anAlienIsSkippedWithADiagnostic() throws {
    let payload =
      #"{"people": [{"name": "Zork", "type": "Alien"}, {"name": "Sarah", "type": "Girl"}]}"#
    let result = try Mapper(MappingProvider { Route("people", People.person) }).map(payload)
    #expect(result.all(Person.self).map(\.name) == ["Sarah"])
    #expect(result.errors.isEmpty)
    #expect(
      result.diagnostics.map(\.description) == [
        #"/people/0: skipped: no mapping matches: type is "Alien""#
      ])
    let strict = try Mapper(MappingProvider { Route("people", People.person.declinesAsErrors()) })
      .map(payload)
    #expect(
      strict.errors.map(\.description) == [#"/people/0: no mapping matches: type is "Alien""#])
  }
}

@Suite("Dynamic mappings: collections with options")
struct DynamicCollectionOptionTests {
  @Test func declinedElementsAreDiagnosticsOfTheMappedCollection() throws {
    let payload = #"[{"name": "Ann", "type": "Girl"}, {"name": "Zork", "type": "Alien"}]"#
    let mapped = try Mapper(MappingProvider { Route("", People.person) }).map(payload)
    #expect(mapped.all(Person.self).map(\.name) == ["Ann"])
    #expect(mapped.errors.isEmpty)
    #expect(
      mapped.diagnostics.map(\.description) == [
        #"/1: skipped: no mapping matches: type is "Alien""#
      ])
  }
}
