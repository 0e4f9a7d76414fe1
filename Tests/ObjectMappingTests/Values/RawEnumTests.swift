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
