import Foundation
import ObjectMapping
import Testing

/// Attribute failures as diagnostics (issue 36, RestKit's default as an option): a value that
/// does not convert leaves the property as it is (or at its default) with a diagnostic, and the
/// rest of the payload maps; validation failures are not affected.
@Suite("Attribute failures as diagnostics")
struct AttributeFailureTests {
  struct Person: Equatable, Sendable {
    var id = 0
    var age = 0
    var score: Double?
    var homepage: URL?
    var born: Date?
    var tags: [Int] = []
    var level = 1
  }

  static let person = Mapping(Person.init) {
    Attribute("id", \.id)
    Attribute("age", \.age).optional()
    Attribute("score", \.score)
    Attribute("homepage", \.homepage)
    Attribute("born", \.born)
    Attribute("tags", \.tags).optional()
    Attribute("level", \.level, default: 1)
  }

  static let skip = MappingOptions(attributeFailures: .skipWithDiagnostic)

  static let garbage = #"""
    {"id": 7, "age": "twelve", "score": "1,5", "homepage": "http://[::1", "born": "yesterday",
     "tags": [1, "x", 3], "level": "high"}
    """#

  static let garbageDiagnostics = [
    #"/age: value skipped: cannot convert "twelve" to an integer"#,
    #"/score: value skipped: cannot convert "1,5" to a number"#,
    #"/homepage: value skipped: cannot convert "http://[::1" to a URL"#,
    #"/born: value skipped: cannot convert "yesterday" to a date: expected ISO 8601, epoch seconds"#,
    #"/tags/1: value skipped: cannot convert "x" to an integer"#,
    #"/level: value skipped: cannot convert "high" to an integer"#,
  ]

  @Test func byDefaultAValueThatDoesNotConvertIsAnError() throws {
    let error = try #require(throws: MappingErrors.self) { try Self.person.map(Self.garbage) }
    #expect(
      error.errors.map(\.description)
        == Self.garbageDiagnostics.map { $0.replacingOccurrences(of: "value skipped: ", with: "") })
  }

  @Test func perCallANewObjectKeepsItsInitialValuesOrDefaultsAndTheRestMaps() throws {
    let report = Self.person.report(Self.garbage, with: Self.skip)
    #expect(report.errors.isEmpty)
    #expect(report.object == Person(id: 7))
    #expect(report.diagnostics.map(\.description) == Self.garbageDiagnostics)
    #expect(
      report.diagnostics.first?.kind
        == .valueSkipped(.conversionFailed(expected: "an integer", raw: #""twelve""#, reason: nil)))
    // The default, not the initial value, for a rule that has one.
    let defaulted = Mapping(Person.init) {
      Attribute("id", \.id)
      Attribute("level", \.level, default: 5)
    }
    #expect(try defaulted.map(#"{"id": 1, "level": "x"}"#, with: Self.skip).level == 5)
  }

  @Test func onAnExistingObjectTheCurrentValueIsKept() throws {
    let existing = Person(id: 1, age: 40, score: 2, level: 9)
    let report = Self.person.report(
      #"{"age": "x", "score": 3.5, "level": "y"}"#, onto: existing, with: Self.skip)
    #expect(report.errors.isEmpty)
    #expect(report.object == Person(id: 1, age: 40, score: 3.5, level: 9))
    #expect(
      report.diagnostics.map(\.description) == [
        #"/age: value skipped: cannot convert "x" to an integer"#,
        #"/level: value skipped: cannot convert "y" to an integer"#,
      ])
  }

  @Test func aRequiredValueWithoutDefaultStaysAnError() throws {
    let error = try #require(throws: MappingErrors.self) {
      try Self.person.map(#"{"id": "seven", "age": "x"}"#, with: Self.skip)
    }
    #expect(error.errors.map(\.description) == [#"/id: cannot convert "seven" to an integer"#])
  }

  @Test func perMappingAndReachingChildMappings() throws {
    struct Team: Equatable, Sendable {
      var name = ""
      var lead: Person?
    }
    let lenientPerson = Self.person.options(Self.skip)
    #expect(try lenientPerson.map(#"{"id": 1, "age": "x"}"#) == Person(id: 1))
    // A call's option wins over the mapping's.
    #expect(throws: MappingErrors.self) {
      try lenientPerson.map(
        #"{"id": 1, "age": "x"}"#, with: MappingOptions(attributeFailures: .fail))
    }
    let team = Mapping(Team.init) {
      Attribute("name", \.name)
      Relationship("lead", \.lead, Self.person)
    }.options(Self.skip)
    let report = team.report(#"{"name": "a", "lead": {"id": 2, "born": ""}}"#)
    #expect(report.object == Team(name: "a", lead: Person(id: 2)))
    #expect(
      report.diagnostics.map(\.description) == [
        #"/lead/born: value skipped: cannot convert "" to a date: expected ISO 8601, epoch seconds"#
      ])
  }

  @Test func transformsAndUnknownEnumValuesAreSkippedToo() throws {
    enum Kind: String, Sendable, CaseIterable { case a, b }
    struct Item: Equatable, Sendable {
      var kind: Kind = .a
      var code = ""
      var name: String?
    }
    let item = Mapping(Item.init) {
      Attribute("name", \.name)
      Attribute("kind", \.kind).optional()
      Attribute(
        "code", \.code,
        decodeOnly: { (text: String) throws -> String in
          guard text.count == 3 else {
            throw ConversionFailure.invalidValue(
              expected: "a code", raw: text, reason: "three letters")
          }
          return text
        }
      ).optional()
    }
    let report = item.report(#"{"kind": "c", "code": "toolong", "name": "n"}"#, with: Self.skip)
    #expect(report.object == Item(name: "n"))
    #expect(
      report.diagnostics.map(\.description) == [
        #"/kind: value skipped: cannot convert "c" to a Kind: no case has this raw value; expected one of "a", "b""#,
        "/code: value skipped: cannot convert toolong to a code: three letters",
      ])
    // Skipped values are not found (RestKit's R-1.3.6): with nothing else, the object is an
    // unmappable representation.
    let skippedOnly = item.report(#"{"kind": "c", "code": "toolong"}"#, with: Self.skip)
    #expect(skippedOnly.object == nil)
    #expect(skippedOnly.errors.map(\.kind) == [.unmappableRepresentation(keys: ["kind", "code"])])
  }

  @Test func validationFailuresAreNotAffected() throws {
    struct Negative: Error, CustomStringConvertible {
      var description: String { "ids are positive" }
    }
    let validated = Mapping(Person.init) {
      Attribute("id", \.id).validate("id 0 is a placeholder") { id in
        if id < 0 { throw Negative() }
        return id != 0
      }
      Attribute("age", \.age).optional()
    }
    // A failing validator fails the object, as without the option.
    let error = try #require(throws: MappingErrors.self) {
      try validated.map(#"{"id": -1, "age": "x"}"#, with: Self.skip)
    }
    #expect(error.errors.map(\.description) == ["/id: validation failed: ids are positive"])
    // A rejecting one is its own diagnostic; the skipped value another.
    let rejected = validated.report(#"{"id": 0, "age": "x"}"#, with: Self.skip)
    #expect(rejected.succeeded)
    #expect(
      rejected.diagnostics.map(\.description) == [
        "/id: value rejected: id 0 is a placeholder",
        #"/age: value skipped: cannot convert "x" to an integer"#,
      ])
  }

  @Test func emptyStringsReadAsNullForScalarsDatesAndURLs() throws {
    struct Row: Equatable, Sendable {
      var count = 0
      var ratio: Double?
      var on: Bool?
      var at: Date?
      var link: URL?
      var name: String?
      var total = 3
    }
    let row = Mapping(Row.init) {
      Attribute("count", \.count).optional()
      Attribute("ratio", \.ratio)
      Attribute("on", \.on)
      Attribute("at", \.at)
      Attribute("link", \.link)
      Attribute("name", \.name)
      Attribute("total", \.total, default: 9)
    }
    let payload = #"{"ratio": "", "on": "", "at": "", "link": "", "name": "", "total": ""}"#
    let asNull = MappingOptions(emptyStrings: .asNull)
    var existing = Row(count: 1, ratio: 2, on: true, at: Date(timeIntervalSince1970: 0))
    try row.map(payload, onto: &existing, with: asNull)
    #expect(existing == Row(count: 1, name: "", total: 9))
    // A non-optional property without default: what NullIntoNonOptional says (an error).
    let error = try #require(throws: MappingErrors.self) {
      try row.map(#"{"count": ""}"#, with: asNull)
    }
    #expect(error.errors.map(\.description) == ["/count: expected an integer, found null"])
    #expect(
      try row.map(
        #"{"count": ""}"#,
        with: MappingOptions(nullIntoNonOptional: .keepCurrent, emptyStrings: .asNull))
        == Row(total: 9))
    // By default `""` is converted, and fails.
    #expect(throws: MappingErrors.self) { try row.map(#"{"at": ""}"#) }
    // A string of only whitespace reads as `null` too (RestKit's T17); a `String` keeps it.
    var blank = Row(count: 1, ratio: 2, on: true, at: Date(timeIntervalSince1970: 5))
    try row.map(
      #"{"ratio": "  ", "at": " \t\n", "name": "   "}"#, onto: &blank, with: asNull)
    #expect(blank.ratio == nil && blank.at == nil && blank.name == "   ")
    // Text around a value is not blank: it still fails to convert.
    #expect(throws: MappingErrors.self) { try row.map(#"{"at": " x "}"#, with: asNull) }
  }
}
