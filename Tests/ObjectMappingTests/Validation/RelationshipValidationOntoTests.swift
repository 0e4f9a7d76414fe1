import Foundation
import ObjectMapping
import Testing

// Relationship validators when mapping onto an existing instance: they see the value the
// property will hold, computed before anything changes, and their outcomes are transactional.

private struct Member: Equatable {
  var id = 0
  var name = ""
  var role = ""
}

private let memberMapping = Mapping(Member.init) {
  Attribute("id", \.id)
  Attribute("name", \.name).optional()
  Attribute("role", \.role).optional()
}.identified(by: \.id)

private struct Team: Equatable {
  var name = ""
  var members: [Member] = []
  var lead: Member?
}

private let teamMapping = Mapping(Team.init) {
  Attribute("name", \.name).validate { name in
    if name.isEmpty { throw ValidationMessage("a team needs a name") }
    return true
  }
  Relationship("members", \.members, memberMapping)
    .validate("at most three members") { (members: inout [Member]) in members.count <= 3 }
    .validate { (members: inout [Member]) in
      members.sort { $0.name < $1.name }
      return true
    }
  Relationship("lead", \.lead, memberMapping)
    .validate("the lead must be a manager") { (lead: inout Member?) in
      lead == nil || lead?.role == "manager"
    }
}

private final class Account {
  var id: Int
  var owner = ""
  init(id: Int) { self.id = id }
}

private let accountMapping = Mapping({ Account(id: 0) }) {
  Attribute("id", \.id)
  Attribute("owner", \.owner)
}.identified(by: \.id)

private struct Wallet {
  var label = ""
  var account = Account(id: 0)
}

@Suite("Key-value validation: relationships onto existing instances")
struct RelationshipValidationOntoTests {
  private let existing = Team(
    name: "core",
    members: [Member(id: 1, name: "bea", role: "dev"), Member(id: 2, name: "al", role: "dev")],
    lead: Member(id: 1, name: "bea", role: "manager"))

  @Test func aReplacementSeesMergedChildrenAndIsWritten() throws {
    var team = existing
    // Member 2 keeps its role from the existing child: the validator sorted merged values.
    try teamMapping.map(
      #"{"members": [{"id": 2, "name": "zed"}, {"id": 3, "name": "cy", "role": "ops"}]}"#,
      onto: &team)
    #expect(
      team.members == [
        Member(id: 3, name: "cy", role: "ops"), Member(id: 2, name: "zed", role: "dev"),
      ])
    #expect(team.lead == existing.lead)
  }

  @Test func aRejectionKeepsThePreviousValueAndMappingGoesOn() throws {
    let report = teamMapping.report(
      #"{"name": "platform", "members": [{"id": 1}, {"id": 2}, {"id": 3}, {"id": 4}]}"#,
      onto: existing)
    #expect(report.errors.isEmpty)
    #expect(
      report.diagnostics.map(\.description) == ["/members: value rejected: at most three members"])
    let team = try #require(report.object)
    #expect(team.members == existing.members)
    #expect(team.name == "platform")
  }

  @Test func aRejectedToOneChildIsNotMergedEither() throws {
    let report = teamMapping.report(#"{"lead": {"id": 1, "role": "dev"}}"#, onto: existing)
    var team = try #require(report.object)
    #expect(
      report.diagnostics.map(\.description) == ["/lead: value rejected: the lead must be a manager"]
    )
    #expect(team.lead == existing.lead)
    try teamMapping.map(#"{"lead": null}"#, onto: &team)
    #expect(team.lead == nil)
  }

  @Test func aFailureElsewhereLeavesTheInstanceAsItWas() throws {
    var team = existing
    let lines = errorLines {
      try teamMapping.map(#"{"name": "", "members": [{"id": 9, "name": "new"}]}"#, onto: &team)
    }
    #expect(lines == ["/name: validation failed: a team needs a name"])
    #expect(team == existing)
  }

  @Test func aThrowingRelationshipValidatorFailsTheParent() throws {
    let mapping = Mapping(Team.init) {
      Attribute("name", \.name)
      Relationship("members", \.members, memberMapping).validate { (members: inout [Member]) in
        if members.contains(where: { $0.name.isEmpty }) {
          throw ValidationMessage("unnamed member")
        }
        return true
      }
    }
    var team = existing
    let lines = errorLines {
      try mapping.map(#"{"name": "x", "members": [{"id": 1, "name": ""}]}"#, onto: &team)
    }
    #expect(lines == ["/members: validation failed: unnamed member"])
    #expect(team == existing)
  }

  @Test func aMergedClassChildIsSeenBeforeItsMergeAndMergedOnlyOnSuccess() throws {
    let seen = Recorder()
    let mapping = Mapping(Wallet.init) {
      Attribute("label", \.label).validate { label in
        if label == "bad" { throw ValidationMessage("bad label") }
        return true
      }
      Relationship("account", \.account, accountMapping).validate { (account: inout Account) in
        seen.record(account.owner)
        return true
      }
    }
    let account = Account(id: 7)
    account.owner = "old"
    var wallet = Wallet(label: "w", account: account)

    let lines = errorLines {
      try mapping.map(#"{"label": "bad", "account": {"id": 7, "owner": "new"}}"#, onto: &wallet)
    }
    #expect(lines == ["/label: validation failed: bad label"])
    #expect(account.owner == "old")
    #expect(wallet.label == "w")

    try mapping.map(#"{"account": {"id": 7, "owner": "new"}}"#, onto: &wallet)
    #expect(wallet.account === account)
    #expect(account.owner == "new")
    // Both times the validator saw the same instance, not yet merged.
    #expect(seen.values == ["old", "old"])
  }

  @Test func aPreviewNeverMergesIntoANestedClassChild() throws {
    struct Profile {
      var id = 0
      var nickname = ""
      var account = Account(id: 0)
    }
    struct Person {
      var name = ""
      var profile = Profile()
    }
    // A value-type child merged by identity, holding a class child merged by identity.
    let profileMapping = Mapping(Profile.init) {
      Attribute("id", \.id)
      Attribute("nickname", \.nickname)
      Relationship("account", \.account, accountMapping)
    }.identified(by: \.id)
    let seen = Recorder()
    let mapping = Mapping(Person.init) {
      Relationship("profile", \.profile, profileMapping).validate { (profile: inout Profile) in
        seen.record(profile.nickname)
        profile.nickname = profile.nickname.uppercased()
        return true
      }
      Attribute("name", \.name).validate { name in
        if name.isEmpty { throw ValidationMessage("no name") }
        return true
      }
    }
    let account = Account(id: 4)
    account.owner = "kept"
    var person = Person(name: "p", profile: Profile(id: 1, nickname: "old", account: account))
    let payload =
      #"{"profile": {"id": 1, "nickname": "neo", "account": {"id": 4, "owner": "x"}}, "name": ""}"#
    #expect(
      errorLines { try mapping.map(payload, onto: &person) } == [
        "/name: validation failed: no name"
      ])
    #expect(account.owner == "kept")
    #expect(person.profile.nickname == "old")

    try mapping.map(
      payload.replacingOccurrences(of: #""name": """#, with: #""name": "n""#), onto: &person)
    #expect(person.profile.nickname == "NEO")
    #expect(person.profile.account === account)
    #expect(account.owner == "x")
    #expect(seen.values == ["neo", "neo"])
  }

  @Test func aNewClassChildNamedTwiceIsSeenWithItsLaterValues() throws {
    struct Ledger {
      var accounts: [Account] = []
    }
    let seen = Recorder()
    let mapping = Mapping(Ledger.init) {
      Relationship("accounts", \.accounts, accountMapping).validate { (accounts: inout [Account]) in
        for account in accounts { seen.record("\(account.id):\(account.owner)") }
        return true
      }
    }
    var ledger = Ledger()
    try mapping.map(
      #"{"accounts": [{"id": 1, "owner": "first"}, {"id": 1, "owner": "second"}]}"#, onto: &ledger)
    // One new object, with the later values, and the validator saw exactly that.
    #expect(ledger.accounts.map(\.owner) == ["second"])
    #expect(seen.values == ["1:second"])
  }

  @Test func validationOffSkipsRelationshipValidatorsOntoExistingInstances() throws {
    var team = existing
    try teamMapping.validation(false).map(
      #"{"members": [{"id": 1}, {"id": 2}, {"id": 3}, {"id": 4}]}"#, onto: &team)
    #expect(team.members.map(\.id) == [1, 2, 3, 4])
  }
}

/// Collects what validators saw (validators are `@Sendable`).
private final class Recorder: @unchecked Sendable {
  // @unchecked: the tests map sequentially; the lock keeps it honest anyway.
  private let lock = NSLock()
  private var seen: [String] = []
  func record(_ value: String) { lock.withLock { seen.append(value) } }
  var values: [String] { lock.withLock { seen } }
}
