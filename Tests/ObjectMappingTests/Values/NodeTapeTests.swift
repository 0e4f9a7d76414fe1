import Foundation
import Testing

@testable import ObjectMapping

/// Mapping a built `Node` copies it onto a tape without recursion and checks its numbers.
@Suite struct NodeTapeTests {
  @Test func deepNodesCostNoCallStack() throws {
    let depth = 100_000
    var node: Node = 1
    for level in 0..<depth { node = level % 2 == 0 ? [node] : ["k": node] }
    defer { JSONWriterTests.dismantle(&node) }
    let tape = try _Tape(node: node, maximumDepth: .max)
    // Every container, every key and the innermost value.
    #expect(tape.entries.count == depth + depth / 2 + 1)
    #expect(tape.entry(at: 0).payload == Int64(tape.entries.count))
    #expect(tape.entry(at: tape.entries.count - 1).kind == .integer)
  }

  @Test func nodesDeeperThanTheLimitAreErrors() throws {
    var node: Node = 1
    for level in 0..<513 { node = level % 2 == 0 ? [node] : ["k": node] }
    defer { JSONWriterTests.dismantle(&node) }
    let path = String(repeating: "/0/k", count: 256)
    #expect(
      throws: FormatError(
        path: path,
        .depthLimitExceeded(limit: 512, location: TextLocation(offset: 0, line: 0, column: 0)))
    ) {
      try _Tape(node: node)
    }
    let mapping = Mapping({ 0 }, rules: { Attribute("k", \.self) })
    let failure = #expect(throws: MappingErrors.self) { try mapping.map(node) }
    #expect(failure?.errors.map(\.description) == [path + ": nesting deeper than 512 levels"])
    // 512 levels map like JSON text of 512 levels.
    var within: Node = 1
    for _ in 0..<512 { within = [within] }
    defer { JSONWriterTests.dismantle(&within) }
    #expect(throws: Never.self) { try _Tape(node: within) }
  }

  @Test func errorsNameThePath() {
    let node: Node = ["a/b": [1, ["c~": [.double(.nan)]]], "d": .decimal("1e")]
    #expect(throws: FormatError(path: "/a~1b/1/c~0/0", .nonFiniteNumber(value: "nan"))) {
      try _Tape(node: node)
    }
    let invalid = #expect(throws: FormatError(path: "/d", .invalidNumber(text: "1e"))) {
      try _Tape(node: ["a": [], "b": [:], "d": .decimal("1e")])
    }
    #expect(
      invalid?.description == #"/d: cannot convert .decimal("1e") to a number: not a JSON number"#)
    // Mapping wraps it unchanged, with the same text (issue 37: it was a `.conversionFailed`).
    let wrapped = invalid.map(MappingError.init)
    #expect(wrapped == MappingError(path: "/d", .format(.invalidNumber(text: "1e"))))
    #expect(
      wrapped?.description == #"/d: cannot convert .decimal("1e") to a number: not a JSON number"#)
  }

  @Test func scalarsAndEmptyContainers() throws {
    let node: Node = [
      "n": nil, "t": true, "f": false, "i": 7, "d": 2.5, "z": .double(-0.0), "w": 3.0,
      "m": .decimal("1.50"), "s": "x", "a": [], "o": [:],
    ]
    let tape = try _Tape(node: node)
    #expect(tape.node(at: 0) == node)
  }
}
