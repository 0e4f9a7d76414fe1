import Foundation
import ObjectMapping
import Testing

/// AppCoreKit's report of a half-filled form: the object built from what was present, and the
/// list of missing required keys (issue 17).
@Suite("Reports: partial objects and missing keys")
struct PartialReportTests {
  struct Address: Equatable, Sendable {
    var city = ""
    var zip = ""
  }

  struct Signup: Equatable, Sendable {
    var email = ""
    var name = ""
    var age = 0
    var address = Address()
  }

  static let mapping = Mapping(Signup.init) {
    Attribute("email", \.email)
    Attribute("name", \.name)
    Attribute("age", \.age)
    Relationship(
      "address", \.address,
      Mapping(Address.init) {
        Attribute("city", \.city)
        Attribute("zip", \.zip)
      })
  }

  @Test func theReportKeepsWhatWasPresentAndListsWhatIsMissing() {
    let report = Self.mapping.report(
      #"{"email": "a@b.c", "age": "old", "address": {"city": "Oslo"}}"#)
    #expect(report.object == nil)
    // The child that failed stays, filled as far as it mapped (issue 35).
    #expect(report.partialObject == Signup(email: "a@b.c", address: Address(city: "Oslo")))
    #expect(report.missingKeys == ["/name", "/address/zip"])
    #expect(report.errors.map(\.path).contains("/age"))
  }

  @Test func aSuccessfulReportsPartialObjectIsItsObject() {
    let report = Self.mapping.report(
      #"{"email": "e", "name": "n", "age": 3, "address": {"city": "c", "zip": "z"}}"#)
    #expect(report.succeeded)
    #expect(report.partialObject == report.object)
    #expect(report.missingKeys.isEmpty)
  }

  @Test func everyInputTypeReports() throws {
    let foundation: Any = [
      "email": "e", "name": "n", "age": 1, "address": ["city": "c", "zip": "z"],
    ]
    #expect(Self.mapping.report(.foundation(foundation)).object?.age == 1)
    let existing = Signup(email: "old")
    let onto = Self.mapping.report(.foundation(["name": "new"] as [String: Any]), onto: existing)
    #expect(onto.succeeded)
    #expect(onto.object?.name == "new" && onto.object?.email == "old")
    let node: Node = ["email": "x"]
    #expect(Self.mapping.report(node).partialObject?.email == "x")
    #expect(Self.mapping.report(Array(#"{"email": "y"}"#.utf8)).partialObject?.email == "y")
    #expect(Self.mapping.report("[1]").partialObject == nil)
  }
}
