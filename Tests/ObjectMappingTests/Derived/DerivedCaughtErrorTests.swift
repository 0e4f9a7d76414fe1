import Foundation
import ObjectMapping
import Testing

/// A derived mapping's model that catches a member's error in its `init(from:)` (`try?`, the
/// "a number or a string" pattern) decides as it does with `JSONDecoder`; one that lets errors
/// through still fails with all of them at once (found by a probe of derived mappings: the
/// caught error failed the object all the same).
@Suite struct DerivedCaughtErrorTests {
  struct DCLenient: Codable, Equatable, Sendable {
    var id: Int
    var count: Int
    enum CodingKeys: String, CodingKey { case id, count }
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      id = try container.decode(Int.self, forKey: .id)
      count = (try? container.decode(Int.self, forKey: .count)) ?? -1
    }
  }

  struct DCNumberOrString: Codable, Equatable, Sendable {
    var value: Int
    enum CodingKeys: String, CodingKey { case value = "v" }
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      if let number = try? container.decode(Int.self, forKey: .value) {
        value = number
      } else {
        let text = try container.decode(String.self, forKey: .value)
        guard let number = Int(text) else {
          throw DecodingError.dataCorruptedError(
            forKey: .value, in: container, debugDescription: "not a number")
        }
        value = number
      }
    }
  }

  struct DCStrict: Codable, Equatable, Sendable {
    var a: Int
    var b: Int
  }

  @Test func aCaughtMemberErrorIsTheModelsToDecide() throws {
    for json in [#"{"id": 1, "count": true}"#, #"{"id": 1, "count": 3}"#, #"{"id": 1}"#] {
      let foundation = try JSONDecoder().decode(DCLenient.self, from: Data(json.utf8))
      #expect(try Mapping(DCLenient.self).map(json) == foundation, "\(json)")
    }
    for json in [#"{"v": 42}"#, #"{"v": "42"}"#] {
      let foundation = try JSONDecoder().decode(DCNumberOrString.self, from: Data(json.utf8))
      #expect(try Mapping(DCNumberOrString.self).map(json) == foundation, "\(json)")
    }
    // What the model lets through fails, as with JSONDecoder.
    #expect(throws: (any Error).self) {
      try JSONDecoder().decode(DCNumberOrString.self, from: Data(#"{"v": "x"}"#.utf8))
    }
    #expect(throws: MappingErrors.self) { try Mapping(DCNumberOrString.self).map(#"{"v": "x"}"#) }
  }

  @Test func uncaughtMemberErrorsAreAllReported() {
    let report = Mapping(DCStrict.self).report(#"{"a": "one", "b": "two"}"#)
    #expect(report.object == nil)
    #expect(report.errors.map(\.path) == ["/a", "/b"])
  }
}
