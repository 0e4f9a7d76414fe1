import Foundation
import ObjectMapping

// Class models with identity, numeric dates and a key path through an optional, for the model
// fuzzer.

/// A value reached through an optional key path (`\.location?.city`).
struct Location: Equatable, Sendable {
  var city = ""
  var zip = ""
}

final class Member {
  var id: Int?
  var name = ""
  var joined: Date?
  var seen = Date(timeIntervalSince1970: 0)
}

final class Account {
  var id = 0
  var title = ""
  var created = Date(timeIntervalSince1970: 0)
  var closed: Date?
  var location: Location? = Location()
  var limits: [String: Int] = [:]
  var owner: Member?
  var members: [Member] = []
  var parent: Account?
}

enum Mappings {
  static let member = Mapping(Member.init) {
    Attribute("id", \.id)
    Attribute("name", \.name, default: "")
    Attribute("joined", \.joined)
    Attribute("seen_ms", \.seen, .epochMilliseconds, default: Date(timeIntervalSince1970: 0))
  }.identified(by: \.id)

  static let account: Mapping<Account> = Mapping(Account.init) {
    Attribute("id", \.id)
    Attribute("title", \.title, default: "")
    Attribute("created", \.created, .epochSeconds)
    Attribute("closed", \.closed).dateFormats([.epochMilliseconds, .iso8601])
    Attribute("location.city", \.location?.city)
    Attribute("limits", \.limits, default: [:])
    Relationship("owner", \.owner, member)
    Relationship("members", \.members, member).optional()
    Relationship("parent", \.parent, lazy: { Mappings.account })
  }.identified(by: \.id)
}
