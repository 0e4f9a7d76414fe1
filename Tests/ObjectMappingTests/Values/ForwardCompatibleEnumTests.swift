import Foundation
import ObjectMapping
import Testing

/// APIs add enum values (GitHub's `state_reason` gained `duplicate`): an attribute can read an
/// unknown raw value as a fallback case or `nil`, with a diagnostic, instead of failing the whole
/// object (issue 17).
@Suite("Values: forward-compatible enums")
struct ForwardCompatibleEnumTests {
  enum StateReason: String, MappableValue, CaseIterable, Sendable {
    case completed
    case notPlanned = "not_planned"
    case reopened
    case unknown
  }

  enum IssueState: String, MappableValue, Sendable {
    case open, closed
  }

  struct Issue: Equatable {
    var reason: StateReason = .completed
    var optionalReason: StateReason?
    var state: IssueState = .open
  }

  static let lenient = Mapping(Issue.init) {
    Attribute("reason", \.reason).unknownValues(as: .unknown)
    Attribute("optional_reason", \.optionalReason).unknownValuesAsNil()
    Attribute("state", \.state)
  }

  @Test func unknownValuesReadAsTheFallbackWithADiagnostic() throws {
    let report = Self.lenient.report(
      #"{"reason":"duplicate","optional_reason":"duplicate","state":"closed"}"#)
    let issue = try #require(report.object)
    #expect(issue == Issue(reason: .unknown, optionalReason: nil, state: .closed))
    #expect(
      report.diagnostics.map(\.description) == [
        #"/reason: unknown value "duplicate" read as unknown"#,
        #"/optional_reason: unknown value "duplicate" read as nil"#,
      ])
  }

  @Test func knownValuesAndWrongTypesAreUnaffected() throws {
    let issue = try Self.lenient.map(
      #"{"reason":"not_planned","optional_reason":"reopened","state":"open"}"#)
    #expect(issue == Issue(reason: .notPlanned, optionalReason: .reopened, state: .open))
    // An array is not an unknown value of a string enum: still an error.
    #expect(throws: MappingErrors.self) {
      try Self.lenient.map(#"{"reason":["completed"],"state":"open"}"#)
    }
  }

  @Test func withoutTheOptInAnUnknownValueIsAnErrorListingTheAcceptedValues() throws {
    let strict = Mapping(Issue.init) {
      Attribute("reason", \.reason)
      Attribute("state", \.state)
    }
    do {
      _ = try strict.map(#"{"reason":"duplicate","state":"merged"}"#)
      Testing.Issue.record("expected errors")
    } catch {
      let lines = error.errors.map(\.description)
      #expect(lines.count == 2)
      #expect(lines[0].contains(#"cannot convert "duplicate" to a StateReason"#))
      #expect(
        lines[0].contains(#"expected one of "completed", "not_planned", "reopened", "unknown""#))
      // The article follows the name: "an IssueState", not "a IssueState".
      #expect(lines[1].contains(#"cannot convert "merged" to an IssueState"#))
    }
  }

  @Test func theFallbackSerializesAsItsOwnRawValue() throws {
    let issue = try Self.lenient.map(#"{"reason":"duplicate","state":"open"}"#)
    #expect(
      String(decoding: try Self.lenient.serialize(issue), as: UTF8.self)
        == #"{"reason":"unknown","state":"open"}"#)
  }
}
