import Foundation
import ObjectMapping
import Testing

/// By default the coders throw what `JSONDecoder` and `JSONEncoder` throw (see the parity
/// suites); `errorReporting = .mappingErrors` gives the library's errors instead: JSON Pointer
/// paths naming the payload's own keys, the line and column of a syntax error, every problem
/// of a `MappedCodable` value, the original error kept underneath (issue 34).
@Suite("Codable error reporting")
struct CoderErrorReportingTests {
  static func richDecoder(snakeCase: Bool = false) -> FastJSONDecoder {
    let decoder = FastJSONDecoder()
    decoder.errorReporting = .mappingErrors
    if snakeCase { decoder.keyDecodingStrategy = .convertFromSnakeCase }
    return decoder
  }

  static func messages<T: Decodable>(
    _ type: T.Type, _ json: String, decoder: FastJSONDecoder = richDecoder()
  ) -> [String] {
    do {
      _ = try decoder.decode(T.self, from: json)
      return []
    } catch let errors as MappingErrors {
      return errors.errors.map(\.description)
    } catch {
      return ["unexpected \(error)"]
    }
  }

  struct Item: Decodable { var id: Int }
  struct Order: Decodable { var items: [Item] }

  struct Snaked: Decodable {
    var nestedValue: Nested
    var leaveMeAlone: [String: Int]?
    struct Nested: Decodable { var intValue: Int }
  }

  struct Price: Codable, Sendable { var amount: Decimal }

  @Test func aDecimalGivenAnotherKindOfValueNamesIt() throws {
    #expect(
      Self.messages(Price.self, #"{"amount": "12.5"}"#) == [
        #"/amount: expected a decimal number, found "12.5""#
      ])
    #expect(
      Self.messages(Price.self, #"{"amount": [1]}"#) == [
        "/amount: expected a decimal number, found an array"
      ])
    // A mapping derived from the model reads it through the same decoder.
    let derived = #expect(throws: MappingErrors.self) {
      try Mapping(Price.self).map(#"{"amount": "12.5"}"#)
    }
    #expect(
      derived?.errors.map(\.description) == [#"/amount: expected a decimal number, found "12.5""#])
    // By default, JSONDecoder's error, its (empty) text included.
    let json = Data(#"{"amount": true}"#.utf8)
    let ours = #expect(throws: DecodingError.self) {
      try FastJSONDecoder().decode(Price.self, from: json)
    }
    let theirs = #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(Price.self, from: json)
    }
    guard case .typeMismatch(_, let ourContext)? = ours,
      case .typeMismatch(_, let theirContext)? = theirs
    else {
      Issue.record(
        "expected two type mismatches: \(String(describing: ours)), \(String(describing: theirs))")
      return
    }
    #expect(ourContext.debugDescription == theirContext.debugDescription)
    #expect(ourContext.codingPath.map(\.stringValue) == ["amount"])
  }

  @Test func decodingProblemsAsMappingErrors() {
    #expect(
      Self.messages(Order.self, #"{"items": [{"id": 1}, {"id": "two"}]}"#) == [
        #"/items/1/id: expected an integer, found "two""#
      ])
    #expect(
      Self.messages(Order.self, #"{"items": [{}]}"#) == ["/items/0/id: required value is missing"])
    #expect(
      Self.messages(Order.self, "{\"items\": [\n  {\"id\": }]}") == [
        "syntax error at line 2, column 10 (byte 21): expected a value, found '}'"
      ])
    #expect(
      Self.messages(Order.self, #"{"items": [{"id": 300000000000000000000}]}"#) == [
        "/items/0/id: cannot convert 300000000000000000000 to a number that fits: out of range"
      ])
    #expect(
      Self.messages(Order.self, #"{"items": null}"#) == [
        "/items: expected an Array<Any>, found null"
      ])
  }

  @Test func underASnakeCaseStrategyPathsNameThePayloadsKeys() {
    let decoder = Self.richDecoder(snakeCase: true)
    let json = #"{"nested_value": {"int_value": "x"}}"#
    #expect(
      Self.messages(Snaked.self, json, decoder: decoder) == [
        #"/nested_value/int_value: expected an integer, found "x""#
      ])
    // By default the coding path is JSONDecoder's: the model's coding keys.
    let (ours, foundation) = Parity.decode(Snaked.self, Data(json.utf8)) {
      $0.keyDecodingStrategy = .convertFromSnakeCase
      $1.keyDecodingStrategy = .convertFromSnakeCase
    }
    #expect(ours == foundation)
    #expect(
      foundation
        == .error(
          "typeMismatch(Int) at nestedValue/intValue: Expected to decode Int but found a string instead."
        ))
    #expect(
      Self.messages(
        Snaked.self, #"{"nested_value": {"int_value": 1}, "leave_me_alone": {"a_b": "x"}}"#,
        decoder: decoder) == [#"/leave_me_alone/a_b: expected an integer, found "x""#])
    // A key that is missing is named as the model spells it (there is no payload key).
    #expect(
      Self.messages(Snaked.self, #"{"nested_value": {}}"#, decoder: decoder) == [
        "/nested_value/intValue: required value is missing"
      ])
  }

  struct Article: MappedCodable {
    var id = 0
    var title = ""
    static let mapping = Mapping(Article.init) {
      Attribute("article_id", \.id)
      Attribute("headline", \.title)
    }
  }

  @Test func everyProblemOfAMappedValue() throws {
    let json = #"{"articles": [{"article_id": "x"}]}"#
    struct Feed: Decodable { var articles: [Article] }
    #expect(
      Self.messages(Feed.self, json) == [
        #"/articles/0/article_id: cannot convert "x" to an integer"#,
        "/articles/0/headline: required value is missing",
      ])
    // By default: JSONDecoder's `.dataCorrupted` at the value, holding the same errors.
    do {
      _ = try FastJSONDecoder().decode(Feed.self, from: json)
      Issue.record("expected an error")
    } catch DecodingError.dataCorrupted(let context) {
      let errors = try #require(context.underlyingError as? MappingErrors)
      #expect(errors.errors.count == 2)
      #expect(context.debugDescription == errors.description)
      #expect(context.codingPath.map(\.stringValue) == ["articles", "Index 0"])
    }
  }

  struct Thrown: Error, Equatable, CustomStringConvertible {
    var description: String { "not today" }
  }

  struct Throwing: Codable {
    init() {}
    init(from decoder: any Decoder) throws { throw Thrown() }
    func encode(to encoder: any Encoder) throws { throw Thrown() }
  }

  @Test func aModelsOwnErrorIsKeptUnderneath() throws {
    do {
      _ = try Self.richDecoder().decode([Throwing].self, from: "[{}]")
      Issue.record("expected an error")
    } catch let errors as MappingErrors {
      #expect(errors.errors.map(\.description) == ["validation failed: not today"])
      #expect(errors.errors.first?.underlyingError as? Thrown == Thrown())
    }
    let encoder = FastJSONEncoder()
    encoder.errorReporting = .mappingErrors
    do {
      _ = try encoder.encode([Throwing()])
      Issue.record("expected an error")
    } catch let errors as MappingErrors {
      #expect(errors.errors.map(\.description) == ["cannot serialize: not today"])
      #expect(errors.errors.first?.underlyingError as? Thrown == Thrown())
    }
  }

  @Test func encodingProblemsAsMappingErrors() throws {
    struct Rows: Encodable { var rows: [[Double]] }
    let encoder = FastJSONEncoder()
    encoder.errorReporting = .mappingErrors
    let error = #expect(throws: MappingErrors.self) {
      try encoder.encode(Rows(rows: [[1], [2, .infinity]]))
    }
    #expect(
      error?.errors.map(\.description) == [
        "/rows/1/1: cannot serialize: Unable to encode Double.inf directly in JSON."
      ])
    #expect(error?.errors.first?.underlyingError is EncodingError)
  }
}
