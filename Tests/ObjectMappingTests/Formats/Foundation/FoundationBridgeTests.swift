import Foundation
import Testing

@testable import ObjectMapping

@Suite struct FoundationBridgeTests {
  static func errorText(_ body: () throws -> Void) -> String? {
    do {
      try body()
      return nil
    } catch {
      return "\(error)"
    }
  }

  static func jsonObject(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
  }

  // MARK: From Foundation

  @Test func jsonBooleansAreToldFromNumbers() throws {
    let any = try Self.jsonObject("[true, 1, false, 0, -1, 2.5]")
    let node = try Node(foundation: any)
    #expect(
      node.debugDescription
        == ".array([.bool(true), .integer(1), .bool(false), .integer(0), .integer(-1), .double(2.5)])"
    )
    // The same in objects, and for NSNumbers made in code.
    let made: [String: Any] = [
      "t": NSNumber(value: true), "one": NSNumber(value: 1), "int8": NSNumber(value: Int8(1)),
      "f": NSNumber(value: false),
    ]
    #expect(
      try Node(foundation: made).debugDescription
        == #".object(["f": .bool(false), "int8": .integer(1), "one": .integer(1), "t": .bool(true)])"#
    )
  }

  @Test func nativeSwiftValues() throws {
    let value: [String: Any] = [
      "bool": true, "int": 1, "int8": Int8(-8), "uint64max": UInt64.max, "int64min": Int64.min,
      "double": 0.25, "float": Float(0.1), "string": "s", "null": NSNull(), "nil": Int?.none as Any,
      "some": Int?.some(5) as Any, "array": [1, "two"] as [Any], "empty": [String: Any](),
    ]
    #expect(
      try Node(foundation: value).debugDescription
        == #".object(["array": .array([.integer(1), .string("two")]), "bool": .bool(true), "#
        + #""double": .double(0.25), "empty": .object([:]), "float": .decimal("0.1"), "#
        + #""int": .integer(1), "int64min": .integer(-9223372036854775808), "int8": .integer(-8), "#
        + #""nil": .null, "null": .null, "some": .integer(5), "string": .string("s"), "#
        + #""uint64max": .decimal("18446744073709551615")])"#)
  }

  @Test func bigIntegersKeepTheirDigits() throws {
    let any = try Self.jsonObject(
      "[9223372036854775807, 12345678901234567890, 123456789012345678901234567890, "
        + "-9223372036854775809]")
    #expect(
      try Node(foundation: any).debugDescription
        == #".array([.integer(9223372036854775807), .decimal("12345678901234567890"), "#
        + #".decimal("123456789012345678901234567890"), .decimal("-9223372036854775809")])"#)
  }

  @Test(arguments: [
    ("0.1000000000000000000000000001", #".decimal("0.1000000000000000000000000001")"#),
    ("42", ".integer(42)"), ("100", ".integer(100)"), ("0", ".integer(0)"),
    ("-0.5", #".decimal("-0.5")"#), ("0.000001", #".decimal("0.000001")"#),
    ("-65.613616999999977", #".decimal("-65.613616999999977")"#),
    ("1e40", #".decimal("10000000000000000000000000000000000000000")"#),
    ("18446744073709551615", #".decimal("18446744073709551615")"#),
    ("-9223372036854775808", ".integer(-9223372036854775808)"),
    ("123456789012345678901234567890", #".decimal("123456789012345678901234567890")"#),
  ])
  func decimalsKeepTheirExactValue(text: String, expected: String) throws {
    let decimal = try #require(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")))
    #expect(try Node(foundation: decimal).debugDescription == expected)
    #expect(try Node(foundation: NSDecimalNumber(decimal: decimal)).debugDescription == expected)
  }

  @Test func keysAreSortedByUTF8Bytes() throws {
    let value: [String: Any] = ["b": 1, "a": 2, "B": 3, "é": 4, "z": 5]
    #expect(try Node(foundation: value).keys == ["B", "a", "b", "z", "é"])
  }

  @Test func propertyListTypes() throws {
    let plist: [String: Any] = [
      "date": Date(timeIntervalSince1970: 1_310_013_328),
      "millis": Date(timeIntervalSince1970: 1_310_013_328.123),
      "before1970": Date(timeIntervalSince1970: -1.5),
      "data": Data([0, 1, 2, 250]), "flag": true, "count": 3, "ratio": 1.5, "name": "n",
    ]
    let bytes = try PropertyListSerialization.data(
      fromPropertyList: plist, format: .binary, options: 0)
    let parsed = try PropertyListSerialization.propertyList(from: bytes, format: nil)
    let expected: Node = [
      "before1970": "1969-12-31T23:59:58.500Z", "count": 3, "data": "AAEC+g==",
      "date": "2011-07-07T04:35:28Z", "flag": true, "millis": "2011-07-07T04:35:28.123Z",
      "name": "n", "ratio": 1.5,
    ]
    let parsedNode = try Node(foundation: parsed)
    #expect(parsedNode == expected, "\(parsedNode)")
    #expect(try Node(foundation: plist) == expected)
    #expect(try Node(foundation: parsed)["flag"]?.boolValue == true)
    #expect(try Node(foundation: NSData(data: Data([1]))) == "AQ==")
  }

  @Test func unsupportedValuesAreErrorsWithTheirPath() throws {
    let url = try #require(URL(string: "https://example.com"))
    #expect(
      Self.errorText { _ = try Node(foundation: ["items": [1, url] as [Any]]) }
        == "/items/1: cannot serialize: a value of type URL has no Node equivalent")
    #expect(
      Self.errorText { _ = try Node(foundation: ["a/b": [1: "x"]]) }
        == "/a~1b: cannot serialize: a dictionary key of type Int is not a string")
    #expect(
      Self.errorText { _ = try Node(foundation: [Decimal.nan]) }
        == "/0: cannot serialize: the Decimal NaN is not a number")
  }

  @Test func deepTreesConvertWithoutRecursion() throws {
    var any: Any = 1
    for _ in 0..<2_000 { any = [any] }
    var node = try Node(foundation: any, maximumDepth: 2_000)
    defer { JSONWriterTests.dismantle(&node) }
    #expect(
      try node.jsonString() == String(repeating: "[", count: 2_000) + "1"
        + String(repeating: "]", count: 2_000))
    var back = node.foundationValue
    var depth = 0
    while let array = back as? [Any], array.count == 1 {
      back = array[0]
      depth += 1
    }
    #expect(depth == 2_000)
    #expect(back as? Int == 1)
  }

  // MARK: To Foundation

  @Test func foundationValueTypes() throws {
    let node: Node = [
      "null": nil, "bool": true, "int": 7, "double": 2.5, "string": "s",
      "decimalInt": .decimal("7"), "decimalFraction": .decimal("0.5"),
      "decimalExp": .decimal("1e2"),
      "bigInt": .decimal("12345678901234567890"), "array": [1, "x"], "object": ["k": false],
      "dup": ["k": 1, "k": 2],
    ]
    let value = try #require(node.foundationValue as? [String: Any])
    #expect(value.count == 12)
    #expect(value["null"] is NSNull)
    #expect(value["bool"] as? Bool == true && type(of: value["bool"] ?? 0) == Bool.self)
    #expect(value["int"] as? Int == 7)
    #expect(value["double"] as? Double == 2.5)
    #expect(value["string"] as? String == "s")
    #expect(value["decimalInt"] as? Int == 7)
    #expect(value["decimalFraction"] as? Double == 0.5)
    #expect(value["decimalExp"] as? Double == 100)
    #expect(value["bigInt"] as? Decimal == Decimal(string: "12345678901234567890"))
    #expect((value["array"] as? [Any])?.count == 2)
    #expect((value["object"] as? [String: Any])?["k"] as? Bool == false)
    #expect((value["dup"] as? [String: Any])?["k"] as? Int == 1)
    #expect(Node.null.foundationValue is NSNull)
    #expect((Node.array([]).foundationValue as? [Any])?.isEmpty == true)
  }

  @Test func roundTripsThroughJSONSerialization() throws {
    let node: Node = [
      "a": [true, false, nil, 0, 1, -1, 2.5, "x/é😀"],
      "big": .decimal("12345678901234567890"), "n": 9_223_372_036_854_775_807,
      "nested": ["k": [[:], []]], "small": 1e-300,
    ]
    let data = try JSONSerialization.data(
      withJSONObject: node.foundationValue, options: .sortedKeys)
    let back = try Node(foundation: JSONSerialization.jsonObject(with: data))
    #expect(back == node)
    #expect(
      back["a"]?.debugDescription.hasPrefix(".array([.bool(true), .bool(false), .null, .integer(0)")
        == true)

    // And the other way: Foundation's parse of our text gives the same tree.
    let ours = try node.jsonData(options: .sortedKeys)
    #expect(try Node(foundation: JSONSerialization.jsonObject(with: ours)) == node)
  }
}
