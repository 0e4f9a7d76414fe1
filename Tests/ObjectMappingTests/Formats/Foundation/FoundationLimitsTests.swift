import Foundation
import Testing

@testable import ObjectMapping

/// `Node(foundation:)` stops at the JSON reader's depth limit and turns every `Date` into a
/// string or an error, never a trap.
@Suite struct FoundationLimitsTests {
  private static func errorText(_ body: () throws -> Void) -> String {
    do {
      try body()
      return "no error"
    } catch {
      return "\(error)"
    }
  }

  private static func nestedArrays(_ depth: Int) -> Any {
    var any: Any = 1
    for _ in 0..<depth { any = [any] }
    return any
  }

  private static func nestedObjects(_ depth: Int) -> Any {
    var any: Any = [String: Any]()
    for _ in 0..<depth - 1 { any = ["k": any] }
    return any
  }

  @Test func depthIsLimitedLikeTheJSONReader() throws {
    #expect(try Node(foundation: Self.nestedArrays(512)).jsonString().count == 512 * 2 + 1)
    #expect(
      Self.errorText { _ = try Node(foundation: Self.nestedArrays(513)) }
        == String(repeating: "/0", count: 512) + ": nesting deeper than 512 levels")
    #expect(try Node(foundation: Self.nestedObjects(512)) != .null)
    #expect(
      Self.errorText { _ = try Node(foundation: Self.nestedObjects(513)) }
        == String(repeating: "/k", count: 512) + ": nesting deeper than 512 levels")
    #expect(
      Self.errorText { _ = try Node(foundation: [[[1]]], maximumDepth: 2) }
        == "/0/0: nesting deeper than 2 levels")
    #expect(
      Self.errorText { _ = try Node(foundation: [[[]]] as [Any], maximumDepth: 2) }
        == "/0/0: nesting deeper than 2 levels")
    #expect(try Node(foundation: 1, maximumDepth: 0) == 1)
    #expect(
      throws: FormatError(
        path: "",
        .depthLimitExceeded(limit: 0, location: TextLocation(offset: 0, line: 0, column: 0)))
    ) {
      try Node(foundation: [Any](), maximumDepth: 0)
    }
    var deep = try Node(foundation: Self.nestedArrays(2_000), maximumDepth: 2_000)
    defer { JSONWriterTests.dismantle(&deep) }
    #expect(try deep.jsonString().count == 2_000 * 2 + 1)
  }

  @Test func mappingFoundationValuesUsesTheLimit() {
    struct Box { var value: Node? }
    let mapping = Mapping(Box.init) { Attribute("value", \.value) }
    #expect(
      errorLines { try mapping.map(.foundation(["value": Self.nestedArrays(600)])) } == [
        "/value" + String(repeating: "/0", count: 511) + ": nesting deeper than 512 levels"
      ])
  }

  @Test(arguments: [Double.nan, .infinity, -.infinity, 1e300, -1e300, 9.3e18, 253_402_300_800])
  func datesOutsideTheRangeAreErrors(seconds: Double) {
    #expect(
      Self.errorText { _ = try Node(foundation: ["d": Date(timeIntervalSince1970: seconds)]) }
        == "/d: cannot serialize: Date(timeIntervalSince1970: \(seconds)): "
        + "outside the years 0000 through 9999")
    #expect(
      Self.errorText {
        _ = try Node(foundation: [NSDate(timeIntervalSince1970: seconds)])
      }
        == "/0: cannot serialize: Date(timeIntervalSince1970: \(seconds)): "
        + "outside the years 0000 through 9999")
  }

  @Test func datesAtTheEdges() throws {
    #expect(
      try Node(foundation: Date(timeIntervalSince1970: -62_167_219_200))
        == "0000-01-01T00:00:00Z")
    #expect(
      try Node(foundation: Date(timeIntervalSince1970: 253_402_300_799.5))
        == "9999-12-31T23:59:59.500Z")
    // Rounded to milliseconds, this one would be in the year 10000.
    #expect(
      Self.errorText { _ = try Node(foundation: Date(timeIntervalSince1970: 253_402_300_799.9996)) }
        == "cannot serialize: Date(timeIntervalSince1970: 253402300799.9996): "
        + "outside the years 0000 through 9999")
    #expect(try Node(foundation: Date.distantPast) == "0000-12-30T00:00:00Z")
    #expect(try Node(foundation: Date.distantFuture) == "4001-01-01T00:00:00Z")
    #expect(
      try Node(foundation: Date(timeIntervalSince1970: 1_310_013_328.9996))
        == "2011-07-07T04:35:29Z")
    #expect(
      try Node(foundation: Date(timeIntervalSince1970: -0.25)) == "1969-12-31T23:59:59.750Z")
  }

  @Test func invalidDecimalTextBecomesNaN() {
    for text in ["1,\"admin\":true", "1e", "abc", "01"] {
      let value = Node.array([.decimal(text)]).foundationValue
      #expect(((value as? [Any])?.first as? Double)?.isNaN == true, "\(text): \(value)")
    }
    #expect((Node.decimal("1e999999").foundationValue as? Double) == .infinity)
  }
}
