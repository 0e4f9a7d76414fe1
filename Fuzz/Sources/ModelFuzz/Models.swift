import Foundation
import ObjectMapping

// Class models with identity (one of them read through an optional key path), numeric dates and
// duplicate-prone keys, for the model fuzzer.

/// An owner's badge: the owner's identity is its code, read through a nested source key path.
struct Badge: Equatable, Sendable {
  var code = ""
}

final class Member {
  var id: Int?
  var name = ""
  var joined: Date?
  var seen = Date(timeIntervalSince1970: 0)
  var badge: Badge?
  /// The badge's code, the owner's identity.
  var code: String?
}

final class Account {
  var id = 0
  var title = ""
  var created = Date(timeIntervalSince1970: 0)
  var closed: Date?
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

  static let badge = Mapping(Badge.init) {
    Attribute("code", \.code)
  }

  /// Owners are the same person when their badges carry the same code (an identity read
  /// through `\.badge?.code` is written by no rule: a definition problem).
  static let owner = Mapping(Member.init) {
    Attribute("id", \.id)
    Attribute("name", \.name, default: "")
    Attribute("badge.code", \.code).decodeOnly()
    Relationship("badge", \.badge, badge)
  }.identified(by: \.code)

  static let account: Mapping<Account> = Mapping(Account.init) {
    Attribute("id", \.id)
    Attribute("title", \.title, default: "")
    Attribute("created", \.created, .epochSeconds)
    Attribute("closed", \.closed).dateFormats([.epochMilliseconds, .iso8601])
    Attribute("limits", \.limits, default: [:])
    Relationship("owner", \.owner, owner)
    Relationship("members", \.members, member).optional()
    Relationship("parent", \.parent, lazy: { Mappings.account })
  }.identified(by: \.id)
}
