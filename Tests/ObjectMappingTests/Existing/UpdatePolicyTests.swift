import Foundation
import ObjectMapping
import Testing

/// What mapping onto existing instances does with absent keys, unchanged values and `null`
/// for non-optional properties (RestKit's `assignsDefaultValueForMissingAttributes`,
/// `assignsNilForMissingRelationships`, unchanged-value skipping; issue 17).
@Suite("Onto existing: missing keys, unchanged values, null policies")
struct UpdatePolicyTests {
  struct Avatar: Equatable, Sendable {
    var url = ""
  }

  struct User: Equatable, Sendable {
    var id = 0
    var name = ""
    var nickname: String?
    var role = "member"
    var avatar: Avatar?
    var badges: [Avatar]?
    var karma = 0
  }

  static let avatar = Mapping(Avatar.init) { Attribute("url", \.url) }

  static let user = Mapping(User.init) {
    Attribute("id", \.id)
    Attribute("name", \.name).optional()
    Attribute("nickname", \.nickname)
    Attribute("role", \.role, default: "member")
    Relationship("avatar", \.avatar, avatar)
    Relationship("badges", \.badges, avatar)
    Attribute("karma", \.karma).optional()
  }

  static let full = User(
    id: 1, name: "Ann", nickname: "a", role: "admin", avatar: Avatar(url: "x"),
    badges: [Avatar(url: "b")], karma: 5)

  @Test func byDefaultAbsentKeysLeaveTheirProperties() throws {
    var user = Self.full
    try Self.user.map(#"{"id": 1}"#, onto: &user)
    #expect(user == Self.full)
  }

  @Test func assignDefaultsSetsDefaultsAndNilForAbsentAttributes() throws {
    var user = Self.full
    try Self.user.missingKeys(.assignDefaults).map(#"{"id": 1}"#, onto: &user)
    #expect(user.role == "member")  // its default
    #expect(user.nickname == nil)  // optional, no default
    #expect(user.name == "Ann")  // nothing to assign to a non-optional without a default
    #expect(user.avatar == Avatar(url: "x"))  // relationships need their own option
  }

  @Test func assignNilToRelationshipsClearsAbsentOptionalRelationships() throws {
    var user = Self.full
    try Self.user.missingKeys(.assignNilToRelationships).map(#"{"id": 1}"#, onto: &user)
    #expect(user.avatar == nil)
    #expect(user.badges == nil)
    #expect(user.nickname == "a")
  }

  @Test func missingKeyPoliciesComeFromTheCallAndReachChildren() throws {
    struct Team: Equatable, Sendable {
      var lead = User()
    }
    let team = Mapping(Team.init) { Relationship("lead", \.lead, Self.user) }
    var value = Team(lead: Self.full)
    try team.map(
      #"{"lead": {"id": 1}}"#, onto: &value,
      with: MappingOptions(missingKeys: [.assignDefaults, .assignNilToRelationships]))
    // The child is merged in place only with an identity; without one it is mapped fresh,
    // where absent keys take make()'s values anyway. Mapped onto directly, the option applies:
    var user = Self.full
    try Self.user.map(
      #"{"id": 1}"#, onto: &user,
      with: MappingOptions(missingKeys: [.assignDefaults, .assignNilToRelationships]))
    #expect(user.nickname == nil && user.avatar == nil && user.role == "member")
    // New objects are not affected.
    let fresh = try Self.user.map(#"{"id": 2}"#, with: MappingOptions(missingKeys: .assignDefaults))
    #expect(fresh == User(id: 2))
    #expect(value.lead.id == 1)
  }

  // MARK: Unchanged values

  final class Observed: @unchecked Sendable {
    // @unchecked: the test uses it from one task.
    var writes: [String] = []
    var name = "" { didSet { writes.append("name") } }
    var score = 0 { didSet { writes.append("score") } }
  }

  @Test func unchangedValuesAreNotWrittenOntoExistingInstances() throws {
    let validated = LockedCounter()
    let mapping = Mapping(Observed.init) {
      Attribute("name", \.name).validate { (_: inout String) in
        validated.increment()
        return true
      }
      Attribute("score", \.score)
    }
    var object = Observed()
    object.name = "Ann"
    object.score = 1
    object.writes = []
    try mapping.map(#"{"name": "Ann", "score": 2}"#, onto: &object)
    #expect(object.writes == ["score"])  // no setter call for the unchanged name
    #expect(validated.value == 0)  // and no validation
    try mapping.map(#"{"name": "Bob", "score": 2}"#, onto: &object)
    #expect(object.writes == ["score", "name"])
    #expect(validated.value == 1)
    // New objects get every value.
    let fresh = try mapping.map(#"{"name": "", "score": 0}"#)
    #expect(fresh.writes == ["name", "score"])
  }

  // MARK: null into non-optional

  @Test func nullIntoNonOptionalIsAnErrorByDefault() throws {
    do {
      _ = try Self.user.map(#"{"id": null}"#)
      Issue.record("expected an error")
    } catch {
      #expect(error.errors.map(\.description) == ["/id: expected an integer, found null"])
    }
  }

  @Test func keepCurrentKeepsTheValueWithADiagnostic() throws {
    let tolerant = Self.user.nullIntoNonOptional(.keepCurrent)
    var user = Self.full
    try tolerant.map(#"{"id": 1, "karma": null, "name": null}"#, onto: &user)
    #expect(user == Self.full)
    let report = tolerant.report(#"{"id": null}"#)
    #expect(report.object?.id == 0)
    #expect(report.diagnostics.map(\.kind) == [.nullIgnored(kept: true)])
    #expect(report.diagnostics.map(\.path) == ["/id"])
  }

  @Test func zeroSetsTheTypesZeroAndStaysAnErrorWithoutOne() throws {
    struct Stamp: Equatable, Sendable {
      var count = 7
      var flag = true
      var title = "t"
      var tags = ["x"]
      var when = Date(timeIntervalSince1970: 0)
    }
    let mapping = Mapping(Stamp.init) {
      Attribute("count", \.count)
      Attribute("flag", \.flag)
      Attribute("title", \.title)
      Attribute("tags", \.tags)
      Attribute("when", \.when).optional()
    }
    let zeroed = try mapping.map(
      #"{"count": null, "flag": null, "title": null, "tags": null}"#,
      with: MappingOptions(nullIntoNonOptional: .zero))
    #expect(zeroed.count == 0 && !zeroed.flag && zeroed.title.isEmpty && zeroed.tags.isEmpty)
    #expect(throws: MappingErrors.self) {
      try mapping.map(#"{"when": null}"#, with: MappingOptions(nullIntoNonOptional: .zero))
    }
  }

  @Test func relationshipsHonourKeepCurrent() throws {
    struct Post: Equatable, Sendable {
      var author = Avatar(url: "me")
      var images: [Avatar] = [Avatar(url: "i")]
    }
    let mapping = Mapping(Post.init) {
      Relationship("author", \.author, Self.avatar)
      Relationship("images", \.images, Self.avatar)
    }
    #expect(throws: MappingErrors.self) { try mapping.map(#"{"author": null, "images": []}"#) }
    let tolerant = mapping.nullIntoNonOptional(.keepCurrent)
    var post = Post()
    try tolerant.map(#"{"author": null, "images": null}"#, onto: &post)
    #expect(post == Post())
    let zeroed = try mapping.map(
      #"{"author": {"url": "a"}, "images": null}"#, with: MappingOptions(nullIntoNonOptional: .zero)
    )
    #expect(zeroed.images.isEmpty)
  }
}

/// A counter safe to bump from a validator closure (the only mutable state is `count`, always
/// accessed with `lock` held).
private final class LockedCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  var value: Int { lock.withLock { count } }
  func increment() { lock.withLock { count += 1 } }
}

/// `.policy(.merge)`: a to-one child or `[String: T]` entries updated in place without an
/// identity (ObjectMapper's default; issue 17).
@Suite("Onto existing: merging children in place")
struct MergeInPlaceTests {
  final class Settings: @unchecked Sendable {
    // @unchecked: used from one task.
    var theme = "light"
    var fontSize = 12
  }

  struct Profile: Sendable {
    var name = ""
    var settings = Settings()
    var backup: Settings?
    var byDevice: [String: Settings] = [:]
  }

  static let settings = Mapping(Settings.init) {
    Attribute("theme", \.theme).optional()
    Attribute("fontSize", \.fontSize).optional()
  }

  static func profile(_ policy: CollectionPolicy) -> Mapping<Profile> {
    Mapping(Profile.init) {
      Attribute("name", \.name).optional()
      Relationship("settings", \.settings, Self.settings).policy(policy)
      Relationship("backup", \.backup, Self.settings).policy(policy)
      Relationship("byDevice", \.byDevice, Self.settings).policy(policy)
    }
  }

  @Test func aToOneChildIsMergedInPlaceWithoutAnIdentity() throws {
    var profile = Profile()
    let original = profile.settings
    original.fontSize = 20
    try Self.profile(.merge).map(#"{"settings": {"theme": "dark"}}"#, onto: &profile)
    #expect(profile.settings === original)  // the same instance
    #expect(profile.settings.theme == "dark")
    #expect(profile.settings.fontSize == 20)  // absent: kept
    // By default the child is replaced by a fresh one.
    try Self.profile(.replace).map(#"{"settings": {"theme": "blue"}}"#, onto: &profile)
    #expect(profile.settings !== original)
    #expect(profile.settings.fontSize == 12)
  }

  @Test func anOptionalChildIsMergedOrCreated() throws {
    var profile = Profile()
    try Self.profile(.merge).map(#"{"backup": {"fontSize": 9}}"#, onto: &profile)
    let created = try #require(profile.backup)
    #expect(created.fontSize == 9 && created.theme == "light")
    try Self.profile(.merge).map(#"{"backup": {"theme": "dark"}}"#, onto: &profile)
    #expect(profile.backup === created && created.fontSize == 9 && created.theme == "dark")
    try Self.profile(.merge).map(#"{"backup": null}"#, onto: &profile)
    #expect(profile.backup == nil)
  }

  @Test func dictionaryEntriesMergeByKey() throws {
    let phone = Settings()
    phone.fontSize = 30
    let tablet = Settings()
    var profile = Profile(byDevice: ["phone": phone, "tablet": tablet])
    try Self.profile(.merge).map(
      #"{"byDevice": {"phone": {"theme": "dark"}, "watch": {"fontSize": 8}}}"#, onto: &profile)
    #expect(profile.byDevice["phone"] === phone)
    #expect(phone.theme == "dark" && phone.fontSize == 30)
    #expect(profile.byDevice["tablet"] === tablet)  // not named: kept
    #expect(profile.byDevice["watch"]?.fontSize == 8)  // new key: added
  }

  @Test func aFailedMergeChangesNothing() throws {
    let phone = Settings()
    var profile = Profile(byDevice: ["phone": phone])
    #expect(throws: MappingErrors.self) {
      try Self.profile(.merge).map(
        #"{"settings": {"theme": "dark"}, "byDevice": {"phone": {"fontSize": "big"}}}"#,
        onto: &profile)
    }
    #expect(profile.settings.theme == "light" && phone.fontSize == 12)
  }

  @Test func mergeOnArraysIsADefinitionProblem() throws {
    struct Holder: Sendable { var all: [Settings] = [] }
    let mapping = Mapping(Holder.init) {
      Relationship("all", \.all, Self.settings).policy(.merge)
    }
    #expect(throws: MappingErrors.self) { try mapping.validate() }
  }
}
