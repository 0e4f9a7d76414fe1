import Foundation
import ObjectMapping
import Testing

/// Options given to one call reach the root mapping and every child mapping, through every
/// verb (issue 22).
enum OptionsFlow {
  struct Child: Equatable, Sendable {
    var id = 0
  }

  struct Parent: Equatable, Sendable {
    var id = 0
    var child: Child?
  }

  static let child = Mapping(Child.init) {
    Attribute("id", \.id)
  }

  static let parent = Mapping(Parent.init) {
    Attribute("id", \.id)
    Relationship("child", \.child, child)
  }

  static let provider = MappingProvider {
    Route("", parent)
  }

  static let payload = #"{"id": "1", "child": {"id": "2"}}"#

  /// What strict coercion reports for ``payload``: the root's and the child's numbers in
  /// strings.
  static let strictErrors = [
    #"/id: expected an integer, found "1""#,
    #"/child/id: expected an integer, found "2""#,
  ]

  /// One decoding verb, run on ``payload`` with `options`; its error lines (empty when it
  /// mapped).
  enum Verb: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case map, mapCollection, mapCollectionSkipping, mapOnto, report, reportOnto, mapper

    var testDescription: String { rawValue }

    func errors(with options: MappingOptions) -> [String] {
      let mapping = OptionsFlow.parent
      let input = OptionsFlow.payload
      do throws(MappingErrors) {
        switch self {
        case .map:
          _ = try mapping.map(input, with: options)
        case .mapCollection:
          _ = try mapping.mapCollection(input, with: options)
        case .mapCollectionSkipping:
          let mapped = try mapping.mapCollection(
            input, options: .skippingInvalidElements, with: options)
          return mapped.errors.map(\.description)
        case .mapOnto:
          var parent = Parent()
          try mapping.map(input, onto: &parent, with: options)
        case .report:
          return mapping.report(input, with: options).errors.map(\.description)
        case .reportOnto:
          var parent = Parent()
          return mapping.report(input, onto: &parent, with: options).errors.map(\.description)
        case .mapper:
          return try Mapper(OptionsFlow.provider).map(input, with: options).errors
            .map(\.description)
        }
        return []
      } catch {
        return error.errors.map(\.description)
      }
    }
  }
}

@Suite("Entry points: options for one call")
struct EntryPointOptionsTests {
  @Test(
    "Without options the mappings' own (lenient) settings apply",
    arguments: OptionsFlow.Verb.allCases)
  func defaults(verb: OptionsFlow.Verb) {
    #expect(verb.errors(with: .none).isEmpty)
  }

  @Test(
    "Strict coercion for one call reaches the child mapping", arguments: OptionsFlow.Verb.allCases)
  func strictReachesChildren(verb: OptionsFlow.Verb) {
    // The verbs hand the options to the engine; the engine threads them through the run
    // (h22a's part of issue 22). Remove `withKnownIssue` when that lands: Swift Testing then
    // reports the known issue as missing.
    withKnownIssue("the engine does not take per-call options yet") {
      #expect(verb.errors(with: MappingOptions(coercion: .strict)) == OptionsFlow.strictErrors)
    }
  }

  @Test("The expected errors are what strict mappings report")
  func strictMappingsReportTheseErrors() {
    let strict = Mapping(OptionsFlow.Parent.init) {
      Attribute("id", \.id)
      Relationship("child", \.child, OptionsFlow.child.coercion(.strict))
    }.coercion(.strict)
    #expect(strict.report(OptionsFlow.payload).summary == OptionsFlow.strictErrors)
  }
}

/// Options given to one serialize call reach the child mappings, through every serialize verb.
@Suite("Entry points: options for one serialize call")
struct SerializeOptionsTests {
  struct Note: Equatable, Sendable {
    var text: String?
  }

  struct Folder: Equatable, Sendable {
    var name: String?
    var note = Note()
  }

  static let note = Mapping(Note.init) {
    Attribute("text", \.text)
  }

  static let folder = Mapping(Folder.init) {
    Attribute("name", \.name)
    Relationship("note", \.note, note)
  }

  enum Verb: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case serialize, serializeCollection, node, dictionary, requestBody, inverse

    var testDescription: String { rawValue }

    /// The JSON this verb writes for an empty folder.
    func json(with options: MappingOptions) throws -> String {
      let mapping = SerializeOptionsTests.folder
      let folder = Folder()
      let data: Data
      switch self {
      case .serialize: data = try mapping.serialize(folder, with: options)
      case .serializeCollection:
        data = try mapping.serializeCollection([folder], with: options).dropFirst().dropLast()
      case .node: data = try mapping.node(folder, with: options).jsonData()
      case .dictionary:
        data = try Node(foundation: mapping.dictionary(folder, with: options)).jsonData(
          options: .sortedKeys)
      case .requestBody: data = try mapping.requestBody(for: folder, with: options).data
      case .inverse: data = try mapping.inverted().serialize(folder, with: options)
      }
      return String(decoding: data, as: UTF8.self)
    }
  }

  @Test("nulls: .include for one call writes the child's nil too", arguments: Verb.allCases)
  func nullsReachChildren(verb: Verb) throws {
    #expect(try verb.json(with: .none) == #"{"note":{}}"#)
    #expect(
      try verb.json(with: MappingOptions(nulls: .include))
        == #"{"name":null,"note":{"text":null}}"#)
  }
}
