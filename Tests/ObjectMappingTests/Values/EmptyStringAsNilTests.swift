import Foundation
import ObjectMapping
import Testing

/// `""` read as `nil` for optional dates, URLs and numbers, as an opt-in (RestKit; issue 17).
@Suite("Values: empty strings as nil")
struct EmptyStringAsNilTests {
  struct Repo: Equatable {
    var closedAt: Date?
    var homepage: URL?
    var stars: Int?
    var note: String?
  }

  static let mapping = Mapping(Repo.init) {
    Attribute("closed_at", \.closedAt).emptyStringAsNil()
    Attribute("homepage", \.homepage).emptyStringAsNil()
    Attribute("stars", \.stars).emptyStringAsNil()
    Attribute("note", \.note).emptyStringAsNil()
  }

  @Test func emptyStringsBecomeNil() throws {
    let repo = try Self.mapping.map(#"{"closed_at":"","homepage":"","stars":"","note":""}"#)
    #expect(repo == Repo())
  }

  @Test func otherValuesConvertAsBefore() throws {
    let repo = try Self.mapping.map(
      #"{"closed_at":"2011-01-26T19:06:43Z","homepage":"https://example.com","stars":"12","note":"x"}"#
    )
    #expect(repo.closedAt == Date(timeIntervalSince1970: 1_296_068_803))
    #expect(repo.homepage == URL(string: "https://example.com"))
    #expect(repo.stars == 12)
    #expect(repo.note == "x")
    // A non-empty string that does not convert is still an error.
    #expect(throws: MappingErrors.self) { try Self.mapping.map(#"{"stars":"many"}"#) }
  }

  @Test func withoutTheOptInAnEmptyStringIsAnErrorForADate() throws {
    let plain = Mapping(Repo.init) { Attribute("closed_at", \.closedAt) }
    #expect(throws: MappingErrors.self) { try plain.map(#"{"closed_at":""}"#) }
  }

  @Test func nilSerializesByTheNullPolicyNotAsAnEmptyString() throws {
    let repo = try Self.mapping.map(#"{"closed_at":"","homepage":"","stars":"","note":""}"#)
    #expect(String(decoding: try Self.mapping.serialize(repo), as: UTF8.self) == "{}")
  }
}
