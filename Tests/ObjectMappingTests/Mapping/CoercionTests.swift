import Foundation
import Testing

@testable import ObjectMapping

@Suite struct CoercionTests {
  struct Box<Value: MappableValue & Sendable>: @unchecked Sendable {
    var value: Value?
    static var mapping: Mapping<Box> { Mapping(Box.init) { Attribute("v", \.value).required() } }
  }

  func read<V: MappableValue & Sendable>(
    _ json: String, as type: V.Type, _ coercion: Coercion = .lenient
  ) throws -> V? {
    try Box<V>.mapping.coercion(coercion).map(#"{"v": \#(json)}"#).value
  }

  @Test func numberLookingStringsConvertOnlyWhenExact() throws {
    #expect(try read(#""42""#, as: Int.self) == 42)
    #expect(try read(#""1e5""#, as: Int.self) == 100_000)
    #expect(try read("1e5", as: Int.self) == 100_000)
    #expect(try read("3.0", as: Int.self) == 3)
    #expect(try read(#""69726278940360707""#, as: Int64.self) == 69_726_278_940_360_707)
    #expect(try read("18446744073709551615", as: UInt64.self) == .max)
    #expect(
      errorLines { try read(#""12abc""#, as: Int.self) } == [
        #"/v: cannot convert "12abc" to an integer"#
      ])
    #expect(
      errorLines { try read("1.5", as: Int.self) } == [
        "/v: cannot convert 1.5 to an integer: not a whole number"
      ])
    #expect(
      errorLines { try read("300", as: UInt8.self) } == [
        "/v: cannot convert 300 to an integer: out of range for UInt8"
      ])
    #expect(
      errorLines { try read(#""42""#, as: Int.self, .strict) } == [
        #"/v: expected an integer, found "42""#
      ])
  }

  @Test func decimalsAreExactFromTheirText() throws {
    #expect(try read("0.7689993", as: Decimal.self) == Decimal(string: "0.7689993"))
    #expect(try read("0.7689993", as: Decimal.self)?.description == "0.7689993")
    #expect(
      try read("1234567890.123456789012345", as: Decimal.self)?.description
        == "1234567890.123456789012345")
    #expect(
      errorLines { try read(#""abc""#, as: Decimal.self) } == [
        #"/v: cannot convert "abc" to a decimal number"#
      ])
  }

  @Test func doublesAndStrings() throws {
    #expect(try read("0.1", as: Double.self) == 0.1)
    #expect(try read(#""2.5""#, as: Double.self) == 2.5)
    #expect(try read("12", as: String.self) == "12")
    #expect(try read("1.50", as: String.self) == "1.50")
    #expect(try read("true", as: String.self) == "true")
    #expect(
      errorLines { try read("1e400", as: Double.self) } == [
        "/v: cannot convert 1e400 to a number: out of range"
      ])
  }

  @Test(arguments: [
    ("\"true\"", true), ("\"YES\"", true), ("\"t\"", true), ("\"y\"", true), ("\"On\"", true),
    ("\"1\"", true), ("1", true), ("true", true), ("\"false\"", false), ("\"no\"", false),
    ("\"F\"", false), ("\"n\"", false), ("\"off\"", false), ("\"0\"", false), ("0", false),
  ])
  func boolWordsRead(json: String, expected: Bool) throws {
    #expect(try read(json, as: Bool.self) == expected)
  }

  @Test func boolWordsTransformWorksBothWays() throws {
    let transform = ValueTransform<String, Bool>.boolWords(true: "yes", false: "no")
    #expect(try transform.forward("YES") == true)
    #expect(try transform.reverse(false) == "no")
    #expect(true.payloadNode() == .bool(true))
    #expect(
      errorLines { try read("2", as: Bool.self) } == [
        "/v: cannot convert 2 to a boolean: only 0 and 1 are booleans"
      ])
    #expect(
      errorLines { try read(#""maybe""#, as: Bool.self) } == [
        #"/v: cannot convert "maybe" to a boolean"#
      ])
  }

  @Test func collectionsWrapSingleValuesAndReportEveryElement() throws {
    #expect(try read(#""Blue""#, as: [String].self) == ["Blue"])
    #expect(try read("[1, 2, 2]", as: Set<Int>.self) == [1, 2])
    #expect(try read(#"{"a": 1}"#, as: [String: Int].self) == ["a": 1])
    #expect(
      errorLines { try read(#"[1, "x", 3, "y"]"#, as: [Int].self) } == [
        #"/v/1: cannot convert "x" to an integer"#,
        #"/v/3: cannot convert "y" to an integer"#,
      ])
    #expect(
      errorLines { try read(#""Blue""#, as: [String].self, .strict) } == [
        #"/v: expected an array of a string, found "Blue""#
      ])
  }

  @Test func leafTypesRoundTripThroughTheirNodes() throws {
    enum Status: String, MappableValue { case draft, published }
    #expect(try read(#""draft""#, as: Status.self) == .draft)
    #expect(try Status.published.payloadNode() == .string("published"))
    #expect(
      errorLines { try read(#""gone""#, as: Status.self) } == [
        #"/v: cannot convert "gone" to a Status: no case has this raw value"#
      ])
    let uuid = try read(#""E621E1F8-C36C-495A-93FC-0C247A3E6E5F""#, as: UUID.self)
    #expect(uuid?.payloadNode() == .string("e621e1f8-c36c-495a-93fc-0c247a3e6e5f"))
    #expect(try read(#""https://x.org/a""#, as: URL.self)?.absoluteString == "https://x.org/a")
    #expect(try read(#""aGk=""#, as: Data.self) == Data("hi".utf8))
    #expect(try read(#"{"a": [1]}"#, as: Node.self) == .object([.init("a", .array([.integer(1)]))]))
  }
}
