import Foundation
import ObjectMapping
import Testing

/// The samples of MigratingFromCodable.md's drop-in section, compiled and run (issue 34).
@Suite("Migrating from Codable: samples")
struct MigratingFromCodableSampleTests {
  struct TwitterSearch: Codable, Equatable {
    struct Status: Codable, Equatable {
      var idStr: String
      var createdAt: Date
    }
    var statuses: [Status]
  }

  struct Item: Decodable { var id: Int }
  struct Order: Decodable { var items: [Item] }

  @Test func theOneLineSwap() throws {
    let data = Data(#"{"statuses": [{"id_str": "1", "created_at": "2023-11-14T22:13:20Z"}]}"#.utf8)
    let decoder = FastJSONDecoder()  // was: let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    decoder.dateDecodingStrategy = .iso8601
    let search = try decoder.decode(TwitterSearch.self, from: data)

    let encoder = FastJSONEncoder()  // was: let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let body = try encoder.encode(search)

    let foundationDecoder = JSONDecoder()
    foundationDecoder.keyDecodingStrategy = .convertFromSnakeCase
    foundationDecoder.dateDecodingStrategy = .iso8601
    #expect(search == (try foundationDecoder.decode(TwitterSearch.self, from: data)))
    let foundationEncoder = JSONEncoder()
    foundationEncoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    #expect(body == (try foundationEncoder.encode(search)))
  }

  @Test func theRicherErrors() throws {
    let data = Data(#"{"items": [{"id": 1}, {"id": "two"}]}"#.utf8)
    let decoder = FastJSONDecoder()
    decoder.errorReporting = .mappingErrors
    var printed: [String] = []
    do {
      _ = try decoder.decode(Order.self, from: data)
    } catch let errors as MappingErrors {
      printed.append("\(errors)")  // /items/1/id: expected an integer, found "two"
    }
    #expect(printed == [#"/items/1/id: expected an integer, found "two""#])
  }
}
