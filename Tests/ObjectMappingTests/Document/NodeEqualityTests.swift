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

  /// Objects nested deep that differ only at the bottom: each pair of values is compared once.
  /// Members were compared in place and then again sorted by key, so each level doubled the
  /// work: 2^100 comparisons here, which never ended (a distinct union or a `Set<Node>` of a
  /// few hundred bytes of payload hung).
  @Test(.timeLimit(.minutes(1))) func deepObjectsCompareEachPairOfValuesOnce() throws {
    func deep(_ leaf: String, _ member: String = "") throws -> Node {
      try Node(
        jsonString: String(repeating: #"{"a":"#, count: 100) + leaf
          + String(repeating: member + "}", count: 100))
    }
    #expect(try deep("1") != deep("2"))
    #expect(try deep("1") == deep("1.0"))
    #expect(try deep("1", #","b":0"#) != deep("2", #","b":0"#))
    // The same members in another order at every level.
    let reordered = try Node(
      jsonString: String(repeating: #"{"b":0,"a":"#, count: 100) + "1"
        + String(repeating: "}", count: 100))
    #expect(try reordered == deep("1", #","b":0"#))
    #expect(try reordered != deep("2", #","b":0"#))
    #expect(Set(try (0..<64).map { try deep("\($0)") }).count == 64)
  }

  /// Reorderings of members that share a key are unequal objects, and hash apart: the hash
  /// summed the members' own hashes, so all 5,040 orders of seven `"a"` members hashed alike
  /// (whatever the seed), and a distinct union or a `Set<Node>` of n of them took n²
  /// comparisons. Equal objects still hash alike, duplicate keys or not.
  @Test func reorderedDuplicateKeysHashApart() throws {
    func permutations(_ values: [Int]) -> [[Int]] {
      guard values.count > 1 else { return [values] }
      return values.indices.flatMap { index in
        var rest = values
        let first = rest.remove(at: index)
        return permutations(rest).map { [first] + $0 }
      }
    }
    let objects = permutations(Array(0..<7)).map { order in
      Node.object(order.map { Node.Member("a", .integer(Int64($0))) })
    }
    #expect(objects.count == 5040)
    #expect(Set(objects.map(\.hashValue)).count > 5000)
    #expect(Set(objects).count == 5040)
    // Large objects (past 16 members) count the keys in a table: the same hashes.
    let large = (0..<40).map { Node.Member($0 % 2 == 0 ? "a" : "k\($0)", .integer(Int64($0))) }
    let named = large.filter { $0.key != "a" }
    let repeated = large.filter { $0.key == "a" }
    #expect(Node.object(large) == .object(named + repeated))
    #expect(Node.object(large).hashValue == Node.object(named + repeated).hashValue)
    #expect(Node.object(large).hashValue != Node.object(named + repeated.reversed()).hashValue)
    let moved = try Node(jsonString: #"{"b":0,"a":1,"a":2}"#)
    #expect(try Node(jsonString: #"{"a":1,"b":0,"a":2}"#).hashValue == moved.hashValue)
    #expect(try Node(jsonString: #"{"a":2,"b":0,"a":1}"#).hashValue != moved.hashValue)
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
