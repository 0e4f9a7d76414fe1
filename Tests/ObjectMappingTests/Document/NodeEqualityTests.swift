import Testing

@testable import ObjectMapping

@Suite struct NodeEqualityTests {
  @Test(arguments: [
    (Node.integer(1), Node.double(1.0)),
    (Node.integer(100), Node.decimal("1e2")),
    (Node.decimal("0.1"), Node.double(0.1)),
    (Node.decimal("-0.0"), Node.integer(0)),
    (Node.decimal("12345678901234567890"), Node.decimal("1.2345678901234567890e19")),
  ])
  func numbersCompareByExactValue(lhs: Node, rhs: Node) {
    #expect(lhs == rhs)
    #expect(lhs.hashValue == rhs.hashValue)
  }

  @Test func nearbyDecimalsThatShareADoubleStayDistinct() {
    #expect(Node.decimal("0.10000000000000000001") != .double(0.1))
    #expect(Node.decimal("12345678901234567890") != .decimal("12345678901234567891"))
  }

  @Test func objectsCompareMembersInAnyOrderAndKeepTheirOrder() {
    let ab: Node = .object([.init("a", .integer(1)), .init("b", .integer(2))])
    let ba: Node = .object([.init("b", .integer(2)), .init("a", .integer(1))])
    #expect(ab == ba)
    #expect(ab.hashValue == ba.hashValue)
    #expect(ab.keys == ["a", "b"])
    #expect(ba.keys == ["b", "a"])
    #expect(ab["b"] == .integer(2))
    #expect(ab["c"] == nil)
    #expect(ab != .object([.init("a", .integer(1)), .init("b", .integer(3))]))
    #expect(ab != .object([.init("a", .integer(1)), .init("c", .integer(2))]))
    #expect(ab != .object([.init("a", .integer(1))]))
  }

  @Test func anObjectParsedFromJSONEqualsTheSameFoundationObject() throws {
    let parsed = try Node(jsonString: #"{"t":true,"one":1}"#)
    let bridged = try Node(foundation: ["one": 1, "t": true] as [String: Any])
    #expect(parsed == bridged)
    #expect(parsed.hashValue == bridged.hashValue)
    #expect(Set([parsed, bridged]).count == 1)
    #expect(try parsed.jsonString() == #"{"t":true,"one":1}"#)
  }

  @Test func nestedObjectsCompareInAnyOrder() throws {
    let lhs = try Node(jsonString: #"{"a":{"x":1,"y":[{"p":1,"q":2}]},"b":null}"#)
    let rhs = try Node(jsonString: #"{"b":null,"a":{"y":[{"q":2,"p":1}],"x":1.0}}"#)
    #expect(lhs == rhs)
    #expect(lhs.hashValue == rhs.hashValue)
    // Arrays stay ordered.
    let swapped = try Node(jsonString: #"{"a":{"x":1,"y":[{"p":1,"q":2},{}]},"b":null}"#)
    let reversed = try Node(jsonString: #"{"a":{"x":1,"y":[{},{"p":1,"q":2}]},"b":null}"#)
    #expect(swapped != reversed)
  }

  @Test func duplicateKeysKeepTheirRelativeOrder() throws {
    let first = try Node(jsonString: #"{"a":1,"b":0,"a":2}"#)
    let moved = try Node(jsonString: #"{"b":0,"a":1,"a":2}"#)
    let swapped = try Node(jsonString: #"{"a":2,"b":0,"a":1}"#)
    #expect(first == moved)
    #expect(first.hashValue == moved.hashValue)
    // Lookups find the first member: 1 in one, 2 in the other.
    #expect(first != swapped)
    #expect(first != (try Node(jsonString: #"{"a":1,"b":0,"b":2}"#)))
  }

  @Test func subscriptSetterReplacesAppendsAndRemoves() {
    var node: Node = .object([.init("a", .integer(1))])
    node["a"] = .string("x")
    node["b"] = .null
    #expect(node.keys == ["a", "b"])
    #expect(node["a"] == .string("x"))
    node["a"] = nil
    #expect(node.keys == ["b"])
  }
}
