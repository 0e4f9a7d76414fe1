import Testing

@testable import ObjectMapping

@Suite struct NodeLiteralTests {
  @Test func scalarLiterals() {
    let null: Node = nil
    let yes: Node = true
    let integer: Node = -42
    let double: Node = 2.5
    let string: Node = "Ann"
    let name = "Lee"
    let interpolated: Node = "Ann \(name)"
    #expect(null.debugDescription == ".null")
    #expect(yes.debugDescription == ".bool(true)")
    #expect(integer.debugDescription == ".integer(-42)")
    #expect(double.debugDescription == ".double(2.5)")
    #expect(string.debugDescription == #".string("Ann")"#)
    #expect(interpolated == .string("Ann Lee"))
    let big: Node = 9_223_372_036_854_775_807
    #expect(big == .integer(.max))
  }

  @Test func arrayLiterals() {
    let node: Node = [1, "two", nil, [true], [:]]
    #expect(
      node == .array([.integer(1), .string("two"), .null, .array([.bool(true)]), .object([])]))
    let empty: Node = []
    #expect(empty == .array([]))
  }

  @Test func dictionaryLiteralsKeepWrittenOrderAndDuplicates() {
    let node: Node = ["z": 1, "a": ["y": nil, "b": []], "m": 2, "z": 3]
    #expect(node.keys == ["z", "a", "m", "z"])
    #expect(node["a"]?.keys == ["y", "b"])
    #expect(node["z"] == 1)
    #expect(
      node
        == .object([
          .init("z", .integer(1)),
          .init("a", .object([.init("y", .null), .init("b", .array([]))])),
          .init("m", .integer(2)), .init("z", .integer(3)),
        ]))
  }

  // MARK: Descriptions

  @Test func descriptionIsCompactJSON() {
    let node: Node = ["a": [1, 2.5, .decimal("0.10")], "s": "q\"/é", "n": nil, "b": false]
    #expect(node.description == #"{"a":[1,2.5,0.10],"s":"q\"/é","n":null,"b":false}"#)
    #expect("\(node)" == node.description)
  }

  @Test func descriptionPrintsNonFiniteDoublesInsteadOfFailing() {
    let node: Node = ["x": .double(.nan), "y": [.double(.infinity), .double(-.infinity)]]
    #expect(node.description == #"{"x":nan,"y":[inf,-inf]}"#)
  }

  @Test func debugDescriptionSpellsTheCases() {
    let node: Node = [
      "id": 7, "price": .decimal("12.50"), "ratio": .double(0.1), "tags": ["a\n"], "meta": [:],
      "list": [], "none": nil, "ok": true, "nan": .double(.nan),
    ]
    #expect(
      node.debugDescription
        == #".object(["id": .integer(7), "price": .decimal("12.50"), "ratio": .double(0.1), "#
        + #""tags": .array([.string("a\n")]), "meta": .object([:]), "list": .array([]), "#
        + #""none": .null, "ok": .bool(true), "nan": .double(nan)])"#)
    #expect(String(reflecting: node) == node.debugDescription)
  }
}
