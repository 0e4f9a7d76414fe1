import Foundation
import Testing

@testable import ObjectMapping

@Suite struct MappingCoreTests {
  @Test func specExampleMapsEveryRuleKind() throws {
    let json = """
      {"id": 7, "title": "Hello", "publication_date": "3/1/2012",
       "meta": {"tags": ["swift", "linux"]}, "author": {"name": "Ann", "email": "ann@x.org"},
       "unknown": [1, 2, 3]}
      """
    let article = try articleMapping.map(json)
    #expect(
      article
        == Article(
          id: 7, title: "Hello", body: "", author: Author(name: "Ann", email: "ann@x.org"),
          publishedAt: utc(2012, 3, 1), tags: ["swift", "linux"]))
  }

  @Test func mapsFromDataNodeAndFoundation() throws {
    let json = #"{"id": 1, "title": "T"}"#
    let fromData = try articleMapping.map(Data(json.utf8))
    let fromNode = try articleMapping.map(Node(jsonString: json))
    let foundation = try JSONSerialization.jsonObject(with: Data(json.utf8))
    let fromFoundation = try articleMapping.map(.foundation(foundation))
    #expect(fromData == Article(id: 1, title: "T"))
    #expect(fromNode == fromData)
    #expect(fromFoundation == fromData)
  }

  @Test func builderSupportsConditionsLoopsAndClasses() throws {
    final class Settings {
      var values: [String: Int] = [:]
      var a = 0
      var b = 0
      var verbose = false
      init() {}
    }
    let includeVerbose = Bool.random() || true
    let keys: [(String, WritableKeyPath<Settings, Int> & Sendable)] = [("a", \.a), ("b", \.b)]
    let mapping = Mapping(Settings.init) {
      for (key, property) in keys {
        Attribute(key, property)
      }
      if includeVerbose {
        Attribute("verbose", \.verbose)
      } else {
        Attribute("quiet", \.verbose)
      }
      if #available(macOS 13, *) {
        Attribute("values", \.values, default: [:])
      }
    }
    let settings = try mapping.map(#"{"a": 1, "b": 2, "verbose": "yes", "values": {"x": 3}}"#)
    #expect(settings.a == 1 && settings.b == 2 && settings.verbose)
    #expect(settings.values == ["x": 3])
  }

  @Test func rulesCanBeWrittenOutsideABlock() throws {
    let rules: [any MappingRule<Author>] = [
      Attribute("n", \Author.name), Attribute("e", \Author.email),
    ]
    let mapping = Mapping(Author.init) { rules }
    #expect(try mapping.map(#"{"n": "Ann"}"#) == Author(name: "Ann"))
  }

  @Test func sourcePathsHandleDotsEscapesAndLiteralSegments() throws {
    struct Lamp: Equatable {
      var dotted = false
      var literal = false
      var nested = ""
      var raw: Node = .null
    }
    let mapping = Mapping(Lamp.init) {
      Attribute("lamp\\.enabled", \.dotted)
      Attribute(["lamp.enabled"], \.literal)
      Attribute("a.b.c", \.nested, default: "absent")
      Attribute(.root, \.raw)
    }
    let lamp = try mapping.map(#"{"lamp.enabled": true, "a": {"b": {"c": "deep"}}}"#)
    #expect(lamp.dotted && lamp.literal && lamp.nested == "deep")
    #expect(lamp.raw["a"]?["b"]?["c"] == .string("deep"))
    // A path that cannot be walked (null or a scalar in the middle) is absent.
    #expect(try mapping.map(#"{"lamp.enabled": true, "a": {"b": null}}"#).nested == "absent")
    #expect(try mapping.map(#"{"lamp.enabled": true, "a": {"b": 5}}"#).nested == "absent")
    #expect(SourcePath("lamp\\.enabled.x").keys == ["lamp.enabled", "x"])
    #expect(SourcePath(keys: ["a.b", "c"]).description == "a\\.b.c")
  }

  /// A key written like a nested-key placeholder (`(usd)`, `{usd}`: RestKit #2520's keys with
  /// parentheses) is a plain key when its first character is escaped, both ways; unescaped it
  /// is still a placeholder (a definition problem without a key attribute).
  @Test func anEscapedParenthesisOrBraceIsAPlainKey() throws {
    struct Prices: Equatable {
      var usd: Int?
      var eur: Int?
    }
    let mapping = Mapping(Prices.init) {
      Attribute(#"\(usd)"#, \.usd)
      Attribute(#"\{eur}.amount"#, \.eur)
    }
    #expect(SourcePath(#"\(usd)"#).keys == ["(usd)"])
    #expect(SourcePath(#"\(usd)"#).description == #"\(usd)"#)
    #expect(SourcePath(keys: ["{eur}", "amount"]).description == #"\{eur}.amount"#)
    let payload = #"{"(usd)": 5, "{eur}": {"amount": 4}}"#
    let prices = try mapping.map(payload)
    #expect(prices == Prices(usd: 5, eur: 4))
    #expect(
      try mapping.serialize(prices, as: .json) == Data(#"{"(usd)":5,"{eur}":{"amount":4}}"#.utf8))
    #expect(throws: MappingErrors.self) {
      try Mapping(Prices.init) { Attribute("(usd)", \.usd) }.validate()
    }
  }

  @Test func absentNullAndDefaultsFollowTheRules() throws {
    struct Model: Equatable {
      var required = 0
      var optional: Int?
      var defaulted = 5
      var forcedOptional = 1
      var forcedRequired: String?
    }
    let mapping = Mapping(Model.init) {
      Attribute("required", \.required)
      Attribute("optional", \.optional)
      Attribute("defaulted", \.defaulted, default: 9)
      Attribute("forcedOptional", \.forcedOptional).optional()
      Attribute("forcedRequired", \.forcedRequired).required()
    }
    let full = try mapping.map(
      #"{"required": 1, "optional": null, "defaulted": null, "forcedRequired": null}"#)
    #expect(full == Model(required: 1, optional: nil, defaulted: 9, forcedOptional: 1))
    #expect(
      errorLines { try mapping.map("{}") } == [
        "/required: required value is missing",
        "/forcedRequired: required value is missing",
      ])
    #expect(
      errorLines { try mapping.map(#"{"required": null, "forcedRequired": "x"}"#) } == [
        "/required: expected an integer, found null"
      ])
  }

  @Test func fiveProblemsAreAllReportedWithPaths() {
    let json = """
      {"id": "12abc", "title": 5, "publication_date": "2/30/2012",
       "author": {"email": ["not", "a", "string"]}}
      """
    let lines = errorLines { try articleMapping.coercion(.strict).map(json) }
    #expect(
      lines == [
        #"/id: expected an integer, found "12abc""#,
        "/title: expected a string, found 5",
        #"/publication_date: cannot convert "2/30/2012" to a date: February 30, 2012 does not exist"#,
        "/author/name: required value is missing",
        "/author/email: expected a string, found an array",
      ])
  }

  @Test func mappingIsSafeFromManyTasks() async throws {
    let payloads = (0..<200).map { #"{"id": \#($0), "title": "t\#($0)", "author": {"name": "a"}}"# }
    let sequential = try payloads.map { try articleMapping.map($0) }
    let concurrent = try await withThrowingTaskGroup(of: (Int, Article).self) { group in
      for (offset, payload) in payloads.enumerated() {
        group.addTask { (offset, try articleMapping.map(payload)) }
      }
      var results = [Article?](repeating: nil, count: payloads.count)
      for try await (offset, article) in group { results[offset] = article }
      return results.compactMap { $0 }
    }
    #expect(concurrent == sequential)
  }
}
