import Foundation
import ObjectMapping
import Testing

/// Every decoding verb takes every kind of input, reads it the same way and throws one error
/// type (issue 22: one input abstraction, consistent verbs and errors).
enum EntryPoints {
  struct Item: Equatable, Sendable {
    var id = 0
    var name = ""
  }

  final class Record {
    var id = 0
    var name = ""
  }

  static let item = Mapping(Item.init) {
    Attribute("id", \.id)
    Attribute("name", \.name)
  }

  static let record = Mapping(Record.init) {
    Attribute("id", \.id)
    Attribute("name", \.name)
  }

  static let provider = MappingProvider {
    Route("", item)
  }

  /// One way a payload reaches a verb.
  enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case data, bytes, string, node, foundation, jsonContentType, formContentType

    var testDescription: String { rawValue }

    /// The payload `{"id": <id>, "name": "Ann"}` as this kind of input.
    func input(id: String) throws -> MappingInput {
      let json = #"{"id": \#(id), "name": "Ann"}"#
      switch self {
      case .data: return Data(json.utf8).mappingInput
      case .bytes: return Array(json.utf8).mappingInput
      case .string: return json.mappingInput
      case .node: return try Node(jsonString: json).mappingInput
      case .foundation: return .foundation(try JSONSerialization.jsonObject(with: Data(json.utf8)))
      case .jsonContentType:
        return .payload(Data(json.utf8), contentType: "application/json; charset=utf-8")
      case .formContentType:
        let value = id.replacingOccurrences(of: "\"", with: "")
        return .payload(
          Data("id=\(value)&name=Ann".utf8), contentType: "application/x-www-form-urlencoded")
      }
    }

    /// The error of a non-number id: the same text from every input (a form has only
    /// strings, JSON a string here).
    var badIDError: String {
      #"/id: cannot convert "x" to an integer"#
    }
  }

  /// The error text of a throwing call, or `nil` when it did not throw.
  static func failure(_ body: () throws(MappingErrors) -> Void) -> String? {
    do {
      try body()
      return nil
    } catch {
      return error.description
    }
  }
}

@Suite("Entry points: every verb takes every input")
struct EntryPointTests {
  typealias Item = EntryPoints.Item

  @Test("map", arguments: EntryPoints.Kind.allCases)
  func map(kind: EntryPoints.Kind) throws {
    #expect(try EntryPoints.item.map(kind.input(id: "1")) == Item(id: 1, name: "Ann"))
    let input = try kind.input(id: #""x""#)
    #expect(
      EntryPoints.failure { () throws(MappingErrors) in _ = try EntryPoints.item.map(input) }
        == kind.badIDError)
  }

  @Test(
    "mapCollection (a single object is a one-element collection)",
    arguments: EntryPoints.Kind.allCases)
  func mapCollection(kind: EntryPoints.Kind) throws {
    #expect(try EntryPoints.item.mapCollection(kind.input(id: "1")) == [Item(id: 1, name: "Ann")])
    let input = try kind.input(id: #""x""#)
    #expect(
      EntryPoints.failure { () throws(MappingErrors) in
        _ = try EntryPoints.item.mapCollection(input)
      } == kind.badIDError)
    do {
      _ = try EntryPoints.item.mapCollection(input)
      Issue.record("a failing element is thrown")
    } catch {
      #expect(error.partialResult(as: [Item].self) == [])
      #expect(error.errors.map(\.description) == [kind.badIDError])
    }
  }

  @Test("map onto a struct and a class", arguments: EntryPoints.Kind.allCases)
  func mapOnto(kind: EntryPoints.Kind) throws {
    var item = Item(id: 9, name: "Old")
    try EntryPoints.item.map(kind.input(id: "1"), onto: &item)
    #expect(item == Item(id: 1, name: "Ann"))
    let record = EntryPoints.Record()
    var target = record
    try EntryPoints.record.map(kind.input(id: "2"), onto: &target)
    #expect(target === record && record.id == 2 && record.name == "Ann")

    let input = try kind.input(id: #""x""#)
    #expect(
      EntryPoints.failure { () throws(MappingErrors) in try EntryPoints.item.map(input, onto: &item)
      } == kind.badIDError)
    #expect(item == Item(id: 1, name: "Ann"))
    #expect(
      EntryPoints.failure { () throws(MappingErrors) in
        try EntryPoints.record.map(input, onto: &target)
      } == kind.badIDError)
    #expect(record.id == 2)
  }

  @Test("report and report onto", arguments: EntryPoints.Kind.allCases)
  func report(kind: EntryPoints.Kind) throws {
    #expect(EntryPoints.item.report(try kind.input(id: "1")).object == Item(id: 1, name: "Ann"))
    let bad = EntryPoints.item.report(try kind.input(id: #""x""#))
    #expect(bad.object == nil)
    #expect(bad.summary == [kind.badIDError])

    let item = Item(id: 9, name: "Old")
    let updated = EntryPoints.item.report(try kind.input(id: "1"), onto: item)
    #expect(updated.object == Item(id: 1, name: "Ann"))
    #expect(item == Item(id: 9, name: "Old"))  // a struct: the report holds the updated copy
    let failed = EntryPoints.item.report(try kind.input(id: #""x""#), onto: item)
    #expect(failed.object == nil && failed.summary == [kind.badIDError])

    let record = EntryPoints.Record()
    let inPlace = EntryPoints.record.report(try kind.input(id: "3"), onto: record)
    #expect(inPlace.object === record && record.id == 3)
  }

  @Test("Mapper.map and Mapper.map(_:target:)", arguments: EntryPoints.Kind.allCases)
  func mapper(kind: EntryPoints.Kind) throws {
    let mapper = Mapper(EntryPoints.provider)
    #expect(try mapper.map(kind.input(id: "1")).all(Item.self) == [Item(id: 1, name: "Ann")])
    let bad = try mapper.map(kind.input(id: #""x""#))
    #expect(bad.errors.map(\.description) == [kind.badIDError])

    let updated = try mapper.map(kind.input(id: "4"), target: Item(id: 9, name: "Old"))
    #expect(updated.first(Item.self) == Item(id: 4, name: "Ann"))
  }
}

@Suite("Entry points: read errors")
struct EntryPointReadErrorTests {
  static let syntax = "syntax error at line 1, column 8 (byte 7): expected a value, found '}'"

  @Test("A JSON syntax error reads the same through every verb and input kind")
  func syntaxErrors() throws {
    let text = #"{"id": }"#
    let inputs: [MappingInput] = [
      Data(text.utf8).mappingInput, Array(text.utf8).mappingInput, text.mappingInput,
      .json(text, reading: .lenient), .payload(Data(text.utf8), contentType: "application/json"),
    ]
    let mapping = EntryPoints.item
    for input in inputs {
      var item = EntryPoints.Item()
      #expect(
        EntryPoints.failure { () throws(MappingErrors) in _ = try mapping.map(input) }
          == Self.syntax)
      #expect(
        EntryPoints.failure { () throws(MappingErrors) in _ = try mapping.mapCollection(input) }
          == Self.syntax)
      #expect(
        EntryPoints.failure { () throws(MappingErrors) in try mapping.map(input, onto: &item) }
          == Self.syntax)
      #expect(mapping.report(input).summary == [Self.syntax])
      #expect(mapping.report(input, onto: item).summary == [Self.syntax])
      #expect(
        EntryPoints.failure { () throws(MappingErrors) in
          _ = try Mapper(EntryPoints.provider).map(input)
        } == Self.syntax)
    }
  }

  @Test("An unsupported content type is a MappingErrors from Mapping and Mapper alike")
  func unsupportedContentType() {
    let expected = MappingErrors([MappingError(.unsupportedContentType("text/csv"))])
    #expect(expected.description == #"no reader or writer for the content type "text/csv""#)
    let data = Data("a,b".utf8)
    #expect(throws: expected) { try EntryPoints.item.map(.payload(data, contentType: "text/csv")) }
    #expect(throws: expected) {
      try Mapper(EntryPoints.provider).map(.payload(data, contentType: "text/csv"))
    }
    #expect(
      EntryPoints.item.report(.payload(data, contentType: "text/csv")).summary == [
        #"no reader or writer for the content type "text/csv""#
      ])
  }

  @Test("A Foundation value that is not a payload")
  func foundationValue() {
    let value: Any = ["id": 1, "bad": NSObject()]
    let expected = "/bad: cannot serialize: a value of type NSObject has no Node equivalent"
    #expect(
      EntryPoints.failure { () throws(MappingErrors) in
        _ = try EntryPoints.item.map(.foundation(value))
      }
        == expected)
    #expect(
      EntryPoints.failure { () throws(MappingErrors) in
        _ = try Mapper(EntryPoints.provider).map(.foundation(value))
      } == expected)
    #expect(EntryPoints.item.report(.foundation(value)).summary == [expected])
  }
}

@Suite("Entry points: spellings")
struct EntryPointSpellingTests {
  typealias Item = EntryPoints.Item

  @Test("String literals, Data, Node literals and every input spelling resolve without ambiguity")
  func spellings() throws {
    let mapping = EntryPoints.item
    let expected = Item(id: 1, name: "Ann")
    #expect(try mapping.map(#"{"id": 1, "name": "Ann"}"#) == expected)
    #expect(try mapping.map(Data(#"{"id": 1, "name": "Ann"}"#.utf8)) == expected)
    #expect(try mapping.map(["id": 1, "name": "Ann"] as Node) == expected)
    #expect(try mapping.map(.foundation(["id": 1, "name": "Ann"] as [String: Any])) == expected)
    #expect(
      try mapping.map(.json(#"{"id": 1, /* c */ "name": "Ann"}"#, reading: .lenient)) == expected)
    #expect(
      try mapping.map(.json(Data(#"{"id": 1, "name": "Ann",}"#.utf8), reading: .lenient))
        == expected)
    #expect(
      try mapping.mapCollection(.json(#"[{"id": 1, "name": "Ann",},]"#, reading: .lenient)) == [
        expected
      ])
    // The input spellings read at the call site (static members on the protocol, SE-0299).
    let lenient = #"{"id": 1, "name": "Ann",}"#
    #expect(try mapping.map(.json(lenient, reading: .lenient)) == expected)
    #expect(try mapping.map(.json(Data(lenient.utf8), reading: .lenient)) == expected)
    #expect(try mapping.map(.json(Array(lenient.utf8), reading: .lenient)) == expected)
    #expect(try mapping.map(.node(["id": 1, "name": "Ann"])) == expected)
    #expect(try mapping.map(.foundation(["id": 1, "name": "Ann"])) == expected)
    #expect(
      try mapping.map(
        .payload(Data("id=1&name=Ann".utf8), contentType: "application/x-www-form-urlencoded"))
        == expected)
    #expect(
      try mapping.map(#"{"id": 1, "name": "Ann"}"#, with: MappingOptions(coercion: .strict))
        == expected)
    #expect(try mapping.mapCollection(.json(lenient, reading: .lenient)) == [expected])
    #expect(mapping.report(.json(lenient, reading: .lenient)).object == expected)
    #expect(try Mapper(EntryPoints.provider).map(.json(lenient, reading: .lenient)).count == 1)
    var item = Item()
    try mapping.map(#"{"id": 1, "name": "Ann"}"#, onto: &item)
    #expect(item == expected)
    #expect(mapping.report(#"{"id": 1, "name": "Ann"}"#).object == expected)
    #expect(try Mapper(EntryPoints.provider).map(#"{"id": 1, "name": "Ann"}"#).count == 1)
    #expect(
      try Mapper(EntryPoints.provider).map(.json(#"{"id": 1, "name": "Ann",}"#, reading: .lenient))
        .count == 1)
  }

  /// SPEC §3: `map` takes "Data, String, Node or Foundation Any". Foundation dictionaries
  /// (ObjectMapper's `map(JSON:)` and `mapArray(JSONArray:)` inputs) are typed inputs of every
  /// verb, mapped exactly as `.foundation(_:)` and the same JSON text map.
  @Test("[String: Any] and [[String: Any]] are inputs of every verb, as .foundation and JSON")
  func foundationDictionaries() throws {
    let mapping = EntryPoints.item
    let json = #"{"id": 1, "name": "Ann"}"#
    let parsed = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let literal: [String: Any] = ["id": 1, "name": "Ann"]
    let array: [[String: Any]] = [literal, ["id": 2, "name": "Bob"]]
    let expected = try mapping.map(json)
    #expect(expected == Item(id: 1, name: "Ann"))
    #expect(try mapping.map(parsed) == expected)
    #expect(try mapping.map(literal) == expected)
    #expect(try mapping.map(literal) == mapping.map(.foundation(literal)))
    #expect(try mapping.map(["id": 1, "name": "Ann"] as [String: Any]) == expected)
    // A literal without a type annotation is a Foundation dictionary (its default type).
    #expect(try mapping.map(["id": 1, "name": "Ann"]) == expected)
    #expect(try mapping.mapCollection([["id": 1, "name": "Ann"]]) == [expected])
    #expect(
      try mapping.mapCollection(array)
        == mapping.mapCollection(#"[{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bob"}]"#))
    #expect(try mapping.mapCollection(array) == mapping.mapCollection(.foundation(array)))
    var item = Item()
    try mapping.map(literal, onto: &item)
    #expect(item == expected)
    #expect(mapping.report(literal).object == expected)
    #expect(try Mapper(EntryPoints.provider).map(literal).all(Item.self) == [expected])
    #expect(try Mapper(EntryPoints.provider).map(array).all(Item.self).count == 2)
    // Errors name the same path and value as the JSON's.
    let bad: [String: Any] = ["id": "x", "name": "Ann"]
    #expect(
      EntryPoints.failure { () throws(MappingErrors) in _ = try mapping.map(bad) }
        == EntryPoints.Kind.foundation.badIDError)
    // Bytes are still strict JSON.
    #expect(try mapping.map(Array(json.utf8)) == expected)
  }
}
