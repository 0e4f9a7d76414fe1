import Foundation
import ObjectMapping
import Testing

/// Raw-value enums map without an empty `MappableValue` conformance (SPEC §3; issue 17).
@Suite("Values: raw-value enums without a conformance")
struct RawEnumTests {
  enum IssueState: String, CaseIterable, Sendable {
    case open, closed
  }

  enum Priority: Int, Sendable {
    case low = 1
    case high = 2
  }

  /// Conforms: its own conversion wins over the raw-value one.
  enum Shouting: String, MappableValue, Sendable {
    case yes = "YES"
    init(payload: PayloadValue) throws {
      guard try payload.decode(String.self).uppercased() == "YES" else {
        throw payload.invalid(expected: "yes")
      }
      self = .yes
    }
  }

  struct Issue: Equatable, Sendable {
    var state = IssueState.open
    var priority: Priority?
    var fallback = IssueState.closed
    var shouting = Shouting.yes
  }

  static let mapping = Mapping(Issue.init) {
    Attribute("state", \.state)
    Attribute("priority", \.priority)
    Attribute("fallback", \.fallback, default: .open)
    Attribute("shouting", \.shouting).optional()
  }

  @Test func enumsWithoutAConformanceMapBothWays() throws {
    let issue = try Self.mapping.map(#"{"state": "closed", "priority": 2, "shouting": "yes"}"#)
    #expect(issue == Issue(state: .closed, priority: .high, fallback: .open, shouting: .yes))
    let json = String(decoding: try Self.mapping.serialize(issue), as: UTF8.self)
    #expect(json == #"{"state":"closed","priority":2,"fallback":"open","shouting":"YES"}"#)
    #expect(try Self.mapping.map(json) == issue)
    #expect(try Self.mapping.map(#"{"state": "open", "priority": null}"#).priority == nil)
  }

  @Test func anUnknownRawValueListsTheAcceptedOnes() throws {
    do {
      _ = try Self.mapping.map(#"{"state": "merged"}"#)
      Testing.Issue.record("expected an error")
    } catch {
      #expect(
        error.errors.map(\.description) == [
          #"/state: cannot convert "merged" to an IssueState: no case has this raw value; expected one of "open", "closed""#
        ])
    }
  }

  @Test func forwardCompatibilityWorksWithoutAConformance() throws {
    let lenient = Mapping(Issue.init) {
      Attribute("state", \.state).unknownValues(as: .closed)
      Attribute("priority", \.priority).unknownValuesAsNil()
    }
    let issue = try lenient.map(#"{"state": "merged", "priority": 9}"#)
    #expect(issue.state == .closed && issue.priority == nil)
  }
}

/// ObjectMapper's `EnumTransform` over an array or a dictionary dropped the unknown raw values
/// (its BasicTypesTestsFromJSON "…ShouldNotCrashWithNonDefinedvalue" cases):
/// `unknownValuesSkipped()` does, with a diagnostic, where the rule without it fails.
@Suite("Values: unknown enum values left out of collections")
struct UnknownEnumElementTests {
  enum Kind: Int, MappableValue, Sendable {
    case plain = 0
    case special = 1
  }

  struct Box: Equatable, Sendable {
    var kinds: [Kind] = []
    var byName: [String: Kind] = [:]
  }

  static let skipping = Mapping(Box.init) {
    Attribute("kinds", \.kinds).unknownValuesSkipped().optional()
    Attribute("byName", \.byName).unknownValuesSkipped().optional()
  }
  static let strict = Mapping(Box.init) {
    Attribute("kinds", \.kinds).optional()
    Attribute("byName", \.byName).optional()
  }

  @Test func unknownElementsAreLeftOutWithADiagnostic() throws {
    let json = #"{"kinds": [0, -5, 1, 9], "byName": {"a": 0, "b": -5}}"#
    let report = Self.skipping.report(json)
    #expect(report.errors.isEmpty)
    #expect(report.object == Box(kinds: [.plain, .special], byName: ["a": .plain]))
    #expect(
      report.diagnostics.map(\.description) == [
        "/kinds: unknown value -5, 9 read as nothing: left out",
        "/byName: unknown value -5 read as nothing: left out",
      ])
    // Without it the attribute fails, as before.
    #expect(throws: MappingErrors.self) { try Self.strict.map(json) }
    // Known values only: no diagnostic; a value of another kind is still an error.
    #expect(try Self.skipping.map(#"{"kinds": [1, 0]}"#).kinds == [.special, .plain])
    #expect(Self.skipping.report(#"{"kinds": [1, 0]}"#).diagnostics.isEmpty)
    #expect(throws: MappingErrors.self) { try Self.skipping.map(#"{"kinds": [1, "x"]}"#) }
    // Serializing writes what is there.
    #expect(
      String(decoding: try Self.skipping.serialize(Box(kinds: [.special])), as: UTF8.self)
        == #"{"kinds":[1],"byName":{}}"#)
  }

  /// The optional forms of ObjectMapper's model (`arrayEnumIntOptional`,
  /// `dictEnumIntOptional`, and the implicitly unwrapped ones, which are optionals too), and a
  /// set: the same rule, with `null` still `nil`.
  @Test func optionalCollectionsAndSetsLeaveUnknownValuesOut() throws {
    struct Optionals: Equatable, Sendable {
      var kinds: [Kind]?
      var byName: [String: Kind]?
      var unique: Set<Kind> = []
    }
    let mapping = Mapping(Optionals.init) {
      Attribute("kinds", \.kinds).unknownValuesSkipped()
      Attribute("byName", \.byName).unknownValuesSkipped()
      Attribute("unique", \.unique).unknownValuesSkipped().optional()
    }
    let mapped = try mapping.map(
      #"{"kinds": [1000], "byName": {"a": 1000, "b": 1}, "unique": [1, 7, 1]}"#)
    #expect(mapped.kinds == [] && mapped.kinds?.first == nil)
    #expect(mapped.byName == ["b": .special])
    #expect(mapped.unique == [.special])
    let nulls = try mapping.map(#"{"kinds": null, "byName": null}"#)
    #expect(nulls.kinds == nil && nulls.byName == nil)
  }
}
