import Foundation
import ObjectMapping
import Testing

/// Arrays of values inside arrays (canada.json's coordinates): each inner array is read by the
/// loop specialized for `Double`, `Int` or `String`, or by the generic one, from the witness
/// `Array.init(payload:)` is inlined into (issue 38).
@Suite("Values: arrays of value arrays")
struct NestedValueArrayTests {
  struct Grid: Codable, Equatable, Sendable {
    var points: [[Double]] = []
    var counts: [[Int]] = []
    var names: [[String]] = []
    var flags: [[Bool]] = []
    var tags: [Set<Int>] = []
    var cubes: [[[Double]]] = []
  }

  static let mapping = Mapping(Grid.init) {
    Attribute("points", \.points)
    Attribute("counts", \.counts)
    Attribute("names", \.names)
    Attribute("flags", \.flags)
    Attribute("tags", \.tags)
    Attribute("cubes", \.cubes)
  }

  @Test func nestedArraysMapAsJSONDecoderDecodesThem() throws {
    let json = Data(
      #"""
      {"points": [[1.5, -2e3], [], [0.1, 3]], "counts": [[1, 2], [3]],
       "names": [["a"], ["b", "c"]], "flags": [[true], []], "tags": [[1, 1, 2], []],
       "cubes": [[[-65.6, 43.3], [-65.61, 43.31]], []]}
      """#.utf8)
    let mapped = try Self.mapping.map(json)
    #expect(mapped == (try JSONDecoder().decode(Grid.self, from: json)))
    #expect(mapped.points == [[1.5, -2000], [], [0.1, 3]])
    #expect(mapped.cubes == [[[-65.6, 43.3], [-65.61, 43.31]], []])
    #expect(mapped.tags == [[1, 2], []])
  }

  @Test func everyFailingInnerElementIsReportedWithItsPath() {
    let json = Data(
      #"""
      {"points": [[1, "x"], [2, "y"]], "counts": [[1], [2.5]], "names": [["a", {}]],
       "flags": [], "tags": [[1], ["z"]], "cubes": [[[1, 2], [3, false]]]}
      """#.utf8)
    #expect(
      errorLines { try Self.mapping.map(json) } == [
        #"/points/0/1: cannot convert "x" to a number"#,
        #"/points/1/1: cannot convert "y" to a number"#,
        "/counts/1/0: cannot convert 2.5 to an integer: not a whole number",
        "/names/0/1: expected a string, found an object",
        #"/tags/1/0: cannot convert "z" to an integer"#,
        "/cubes/0/1/1: expected a number, found false",
      ])
  }
}
