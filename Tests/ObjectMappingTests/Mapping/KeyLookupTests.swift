import Testing

@testable import ObjectMapping

/// Key lookups start where the previous lookup in the same object stopped; these tests pin that
/// the result is still the first member with the key, whatever the rule and payload order.
@Suite struct KeyLookupTests {
  struct Pair: Equatable {
    var a = 0
    var b = 0
    var c: Int?
  }

  static let reversed = Mapping(Pair.init) {
    Attribute("c", \.c)
    Attribute("b", \.b)
    Attribute("a", \.a)
  }

  @Test func rulesInAnyOrderFindTheirKeys() throws {
    #expect(try Self.reversed.map(#"{"a": 1, "b": 2, "c": 3}"#) == Pair(a: 1, b: 2, c: 3))
    #expect(try Self.reversed.map(#"{"c": 3, "a": 1, "b": 2}"#) == Pair(a: 1, b: 2, c: 3))
    #expect(try Self.reversed.map(#"{"x": 0, "b": 2, "y": 0, "a": 1}"#) == Pair(a: 1, b: 2))
  }

  @Test func duplicateKeysFindTheFirstMember() throws {
    let inOrder = Mapping(Pair.init) {
      Attribute("b", \.b)
      Attribute("a", \.a)
    }
    // "a" is passed over while looking for "b"; the later "a" must not win.
    #expect(try inOrder.map(#"{"a": 1, "b": 2, "a": 3}"#) == Pair(a: 1, b: 2))
    #expect(try inOrder.map(#"{"x": 0, "a": 1, "b": 2, "a": 3}"#) == Pair(a: 1, b: 2))
    // The first "a" is written with an escape: its raw bytes differ from "a".
    #expect(try inOrder.map(#"{"\u0061": 1, "b": 2, "a": 3}"#) == Pair(a: 1, b: 2))
    // From a node with duplicate members as well.
    let node: Node = .object([.init("a", 1), .init("b", 2), .init("a", 3)])
    #expect(try inOrder.map(node) == Pair(a: 1, b: 2))
  }

  @Test func rulesReadingTheSameKeyBothFindTheFirstMember() throws {
    let twice = Mapping(Pair.init) {
      Attribute("a", \.a)
      Attribute("b", \.b)
      Attribute("a", \.c)
    }
    #expect(try twice.map(#"{"a": 1, "b": 2, "a": 3}"#) == Pair(a: 1, b: 2, c: 1))
  }

  @Test func absentKeysAndNestedPathsAfterAHit() throws {
    let nested = Mapping(Pair.init) {
      Attribute("b", \.b)
      Attribute("inner.a", \.a)
      Attribute("c", \.c)
    }
    #expect(
      try nested.map(#"{"inner": {"x": 0, "a": 5}, "b": 2}"#) == Pair(a: 5, b: 2, c: nil))
    #expect(
      errorLines { try nested.map(#"{"b": 2, "inner": {"b": 5}}"#) }
        == ["/inner/a: required value is missing"])
  }
}
