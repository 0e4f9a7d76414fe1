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

  @Test func objectsCompareMembersInOrder() {
    let ab: Node = .object([.init("a", .integer(1)), .init("b", .integer(2))])
    let ba: Node = .object([.init("b", .integer(2)), .init("a", .integer(1))])
    #expect(ab != ba)
    #expect(ab["b"] == .integer(2))
    #expect(ab["c"] == nil)
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
