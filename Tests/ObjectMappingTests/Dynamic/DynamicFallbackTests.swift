import Foundation
import ObjectMapping
import Testing

/// A case for objects no matcher selected: a default mapping or a closure, tried after the
/// matchers (issue 17).
@Suite("Dynamic mappings: a fallback after the matchers")
struct DynamicFallbackTests {
  static let personMapping: Mapping<Person> = Mapping(Person.init) {
    Attribute("name", \.name)
  }

  static let withDefault = DynamicMapping<Person> {
    Match("type", equals: "Boy", People.boyMapping)
    Match("type", equals: "Girl", People.girlMapping)
    Match.otherwise(personMapping)
  }

  @Test func objectsNoMatcherSelectsTakeTheDefaultCase() throws {
    let people = try Self.withDefault.mapCollection(
      #"[{"name":"Ann","type":"Girl"},{"name":"Sam","type":"Robot"},{"name":"Kim"}]"#)
    #expect(
      people.map { "\(type(of: $0)):\($0.name)" } == ["Girl:Ann", "Person:Sam", "Person:Kim"])
  }

  @Test func matchersStillWinAndTheDefaultWritesNoDiscriminator() throws {
    let boy = try #require(try Self.withDefault.map(#"{"name":"Bo","type":"Boy"}"#) as? Boy)
    #expect(boy.name == "Bo")
    let person = Person()
    person.name = "Sam"
    #expect(
      String(decoding: try Self.withDefault.serialize(person), as: UTF8.self) == #"{"name":"Sam"}"#)
    #expect(
      String(decoding: try Self.withDefault.serialize(boy), as: UTF8.self)
        == #"{"name":"Bo","friends":[],"type":"Boy"}"#)
  }

  static let withClosure = DynamicMapping<Person> {
    Match("type", equals: "Boy", People.boyMapping)
    Match.otherwise(
      choosing: { value in
        (try? value["legacy_kind"]?.decode(String.self)) == "g"
          ? DynamicCase(People.girlMapping) : nil
      },
      serializingWith: [DynamicCase(People.girlMapping)])
  }

  @Test func aClosureFallbackChoosesOrDeclines() throws {
    let result = try Self.withClosure.mapCollection(
      #"[{"name":"Bo","type":"Boy"},{"name":"Jo","legacy_kind":"g"},{"name":"X"}]"#)
    #expect(result.map { "\(type(of: $0)):\($0.name)" } == ["Boy:Bo", "Girl:Jo"])
    let single = #"{"name":"X","type":"Alien"}"#
    #expect(throws: MappingErrors.self) { try Self.withClosure.map(single) }
    do {
      _ = try Self.withClosure.map(single)
    } catch {
      #expect(error.description.contains("the fallback closure chose no mapping"))
    }
    let girl = Girl()
    girl.name = "Jo"
    #expect(
      String(decoding: try Self.withClosure.serialize(girl), as: UTF8.self)
        == #"{"name":"Jo","friends":[]}"#)
  }

  @Test func aMappingWithOnlyAFallbackIsValid() throws {
    let onlyDefault = DynamicMapping<Person> { Match.otherwise(Self.personMapping) }
    try onlyDefault.validate()
    #expect(try onlyDefault.map(#"{"name":"Lee"}"#).name == "Lee")
  }

  @Test func anEnumFallbackCaseMapsAndSerializesWithoutADiscriminator() throws {
    let shape = DynamicMapping<Shape> {
      Match("kind", equals: "rect", Shapes.rectMapping, case: Shape.rect) {
        if case .rect(let rect) = $0 { rect } else { nil }
      }
      Match.otherwise(
        DynamicCase(Shapes.circleMapping, case: Shape.circle) {
          if case .circle(let circle) = $0 { circle } else { nil }
        })
    }
    let circle = try shape.map(#"{"radius": 2}"#)
    guard case .circle(let value) = circle else {
      Issue.record("expected a circle, got \(circle)")
      return
    }
    #expect(value.radius == 2)
    #expect(String(decoding: try shape.serialize(circle), as: UTF8.self) == #"{"radius":2}"#)
    let rect = try shape.map(#"{"kind": "rect", "width": 1, "height": 3}"#)
    #expect(
      String(decoding: try shape.serialize(rect), as: UTF8.self)
        == #"{"width":1,"height":3,"kind":"rect"}"#)
  }

  @Test func aMisplacedOrRepeatedFallbackIsADefinitionProblem() throws {
    let first = DynamicMapping<Person> {
      Match.otherwise(Self.personMapping)
      Match("type", equals: "Boy", People.boyMapping)
    }
    let problems = #expect(throws: MappingErrors.self) { try first.validate() }
    #expect(problems?.description.contains("put Match.otherwise last") == true)
    // The same problem on first use, so the hidden matcher cannot silently do nothing.
    #expect(throws: MappingErrors.self) { try first.map(#"{"name":"Bo","type":"Boy"}"#) }

    let twice = DynamicMapping<Person> {
      Match("type", equals: "Boy", People.boyMapping)
      Match.otherwise(Self.personMapping)
      Match.otherwise(People.girlMapping)
    }
    #expect(throws: MappingErrors.self) { try twice.validate() }

    let converting = DynamicMapping<Person> {
      Match("type", equals: "Boy", People.boyMapping)
      Match.otherwise(Self.personMapping).converting()
    }
    let conversion = #expect(throws: MappingErrors.self) { try converting.validate() }
    #expect(conversion?.description.contains(".converting() on Match.otherwise") == true)
    // Last and alone: fine.
    try Self.withDefault.validate()
  }
}
