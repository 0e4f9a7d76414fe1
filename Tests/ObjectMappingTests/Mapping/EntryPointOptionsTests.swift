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
    case map, mapCollection, mapOnto, report, reportOnto, mapper

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
        case .mapOnto:
          var parent = Parent()
          try mapping.map(input, onto: &parent, with: options)
        case .report:
          return mapping.report(input, with: options).errors.map(\.description)
        case .reportOnto:
          let parent = Parent()
          return mapping.report(input, onto: parent, with: options).errors.map(\.description)
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
    #expect(verb.errors(with: MappingOptions(coercion: .strict)) == OptionsFlow.strictErrors)
  }

  @Test("A root mapping's own strict coercion reaches its children", arguments: [false, true])
  func rootDefaultReachesChildren(onto: Bool) throws {
    let strictParent = OptionsFlow.parent.coercion(.strict)
    let errors: [String]
    if onto {
      let parent = OptionsFlow.Parent()
      errors = strictParent.report(OptionsFlow.payload, onto: parent).errors.map(\.description)
    } else {
      errors = strictParent.report(OptionsFlow.payload).errors.map(\.description)
    }
    #expect(errors == OptionsFlow.strictErrors)
    // The call's options beat the root mapping's own setting.
    #expect(
      try strictParent.map(OptionsFlow.payload, with: MappingOptions(coercion: .lenient))
        == OptionsFlow.Parent(id: 1, child: OptionsFlow.Child(id: 2)))
  }

  @Test("A child's explicit setting beats the call's options")
  func childSettingBeatsTheCall() {
    let parent = Mapping(OptionsFlow.Parent.init) {
      Attribute("id", \.id)
      Relationship("child", \.child, OptionsFlow.child.coercion(.lenient))
    }
    let report = parent.report(OptionsFlow.payload, with: MappingOptions(coercion: .strict))
    #expect(report.errors.map(\.description) == [#"/id: expected an integer, found "1""#])
  }
}

/// Groups, date formats and validation given to one call reach child mappings, dynamic cases
/// and mapper routes, and each concurrent call keeps its own.
@Suite("Entry points: every option flows to children")
struct OptionsFlowToChildrenTests {
  struct Profile: Equatable, Sendable {
    var name = ""
    var biography = ""
    var joined: Date?
  }

  struct Account: Equatable, Sendable {
    var id = 0
    var profile = Profile()
  }

  static let profile = Mapping(Profile.init) {
    Attribute("name", \.name).validate("names are not empty") { !$0.isEmpty }
    Attribute("bio", \.biography).groups("detail")
    Attribute("joined", \.joined)
  }

  static let account = Mapping(Account.init) {
    Attribute("id", \.id).groups("list", "detail")
    Relationship("profile", \.profile, profile)
  }

  static let payload =
    #"{"id": 7, "profile": {"name": "", "bio": "Swift", "joined": "24/11/2026"}}"#
  static let dayFirst = [DateFormat.pattern("dd/MM/yyyy")]

  static func joined() throws -> Date {
    try #require(
      DateComponents(
        calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "UTC"),
        year: 2026, month: 11, day: 24
      ).date)
  }

  @Test("Groups for one call select the rules of the root and the child")
  func groupsReachChildren() {
    let options = MappingOptions(groups: ["list"], dateFormats: Self.dayFirst, validation: false)
    let report = Self.account.report(Self.payload, with: options)
    #expect(report.errors.isEmpty)
    // `bio` is in the "detail" group only: not mapped in a "list" call.
    #expect(report.object?.profile.biography == "")
    #expect(report.object?.id == 7)
    let detail = Self.account.report(
      Self.payload,
      with: MappingOptions(groups: ["detail"], dateFormats: Self.dayFirst, validation: false))
    #expect(detail.object?.profile.biography == "Swift")
  }

  @Test("Date formats for one call reach the child")
  func dateFormatsReachChildren() throws {
    let withoutFormats = Self.account.report(Self.payload, with: MappingOptions(validation: false))
    #expect(
      withoutFormats.errors.map(\.description).first?.hasPrefix("/profile/joined: ") == true)
    let account = try Self.account.map(
      Self.payload, with: MappingOptions(dateFormats: Self.dayFirst, validation: false))
    #expect(account.profile.joined == (try Self.joined()))
  }

  @Test("Validation off for one call skips the child's validators")
  func validationOffReachesChildren() throws {
    // The child's validator rejects the empty name: the name keeps its value and a
    // diagnostic says why.
    let validated = Self.account.report(
      Self.payload, with: MappingOptions(dateFormats: Self.dayFirst))
    #expect(validated.errors.isEmpty)
    #expect(
      validated.diagnostics.map(\.description) == [
        "/profile/name: value rejected: names are not empty"
      ])
    let unvalidated = Self.account.report(
      Self.payload, with: MappingOptions(dateFormats: Self.dayFirst, validation: false))
    #expect(unvalidated.errors.isEmpty)
    #expect(unvalidated.diagnostics.isEmpty)
  }

  @Test("Options reach through a dynamic mapping's cases and a mapper's routes")
  func optionsReachDynamicCasesAndRoutes() throws {
    let dynamic = DynamicMapping<Any> {
      Match("kind", equals: "account", DynamicCase(Self.account))
    }
    let payload =
      #"{"kind": "account", "id": "7", "profile": {"name": "A", "bio": "S", "joined": "24/11/2026"}}"#
    let strict = MappingOptions(coercion: .strict, dateFormats: Self.dayFirst)
    let errors = dynamic.report(payload, with: strict).errors.map(\.description)
    #expect(errors == [#"/id: expected an integer, found "7""#])
    let lenient = try dynamic.map(payload, with: MappingOptions(dateFormats: Self.dayFirst))
    #expect((lenient as? Account)?.profile.joined == (try Self.joined()))

    let mapper = Mapper(MappingProvider { Route("accounts", Self.account) })
    let routed = try mapper.map(
      #"{"accounts": [{"id": "7", "profile": {"name": "A", "bio": "S", "joined": "24/11/2026"}}]}"#,
      with: strict)
    #expect(
      routed.errors.map(\.description) == [#"/accounts/0/id: expected an integer, found "7""#])
    let routedLenient = try mapper.map(
      #"{"accounts": [{"id": "7", "profile": {"name": "A", "bio": "S", "joined": "24/11/2026"}}]}"#,
      with: MappingOptions(dateFormats: Self.dayFirst))
    let accounts = routedLenient.asCollection().compactMap { $0 as? Account }
    #expect(accounts.first?.profile.joined == (try Self.joined()))
  }

  @Test("Concurrent calls with different options each get their own result")
  func concurrentCallsKeepTheirOptions() async throws {
    let mapping = OptionsFlow.parent
    let outcomes = await withTaskGroup(of: (Bool, Bool).self) { group in
      for call in 0..<64 {
        let strict = call.isMultiple(of: 2)
        group.addTask {
          let report = mapping.report(
            OptionsFlow.payload, with: MappingOptions(coercion: strict ? .strict : .lenient))
          return (
            strict, report.errors.map(\.description) == (strict ? OptionsFlow.strictErrors : [])
          )
        }
      }
      var all: [(Bool, Bool)] = []
      for await outcome in group { all.append(outcome) }
      return all
    }
    #expect(outcomes.count == 64)
    #expect(outcomes.allSatisfy { $0.1 })
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

/// Groups given to one serialize call, or set on a mapping, select the rules of every child
/// mapping too.
@Suite("Entry points: groups for one serialize call")
struct SerializeGroupsTests {
  struct Author: Equatable, Sendable {
    var name = "Ann"
    var email = "ann@example.com"
  }

  struct Post: Equatable, Sendable {
    var id = 1
    var body = "Hello"
    var author = Author()
  }

  static let author = Mapping(Author.init) {
    Attribute("name", \.name)
    Attribute("email", \.email).groups("private")
  }

  static let post = Mapping(Post.init) {
    Attribute("id", \.id)
    Attribute("body", \.body).groups("detail", "private")
    Relationship("author", \.author, author)
  }

  func json(_ mapping: Mapping<Post>, with options: MappingOptions = .none) throws -> String {
    String(decoding: try mapping.serialize(Post(), with: options), as: UTF8.self)
  }

  @Test("Without groups every rule is written")
  func everyRuleWithoutGroups() throws {
    #expect(
      try json(Self.post)
        == #"{"id":1,"body":"Hello","author":{"name":"Ann","email":"ann@example.com"}}"#)
  }

  @Test("The call's groups reach the child mapping, through every serialize verb")
  func callGroupsReachChildren() throws {
    let list = MappingOptions(groups: ["list"])
    #expect(try json(Self.post, with: list) == #"{"id":1,"author":{"name":"Ann"}}"#)
    let detail = MappingOptions(groups: ["detail"])
    #expect(
      try json(Self.post, with: detail) == #"{"id":1,"body":"Hello","author":{"name":"Ann"}}"#)
    #expect(try Self.post.node(Post(), with: list) == ["id": 1, "author": ["name": "Ann"]])
    #expect(
      try Self.post.inverted().node(Post(), with: MappingOptions(groups: ["private"]))
        == [
          "id": 1, "body": "Hello", "author": ["name": "Ann", "email": "ann@example.com"],
        ])
    let collection = try Self.post.serializeCollection([Post()], with: list)
    #expect(String(decoding: collection, as: UTF8.self) == #"[{"id":1,"author":{"name":"Ann"}}]"#)
  }

  @Test("A mapping's own groups flow to its children; the call's beat them; a child's own win")
  func mappingGroupsFlow() throws {
    #expect(try json(Self.post.groups(["list"])) == #"{"id":1,"author":{"name":"Ann"}}"#)
    #expect(
      try json(Self.post.groups(["list"]), with: MappingOptions(groups: ["private"]))
        == #"{"id":1,"body":"Hello","author":{"name":"Ann","email":"ann@example.com"}}"#)
    let ownChild = Mapping(Post.init) {
      Attribute("id", \.id)
      Relationship("author", \.author, Self.author.groups(["private"]))
    }
    #expect(
      try json(ownChild, with: MappingOptions(groups: ["list"]))
        == #"{"id":1,"author":{"name":"Ann","email":"ann@example.com"}}"#)
  }

  @Test("Two rules in disjoint groups may write one key")
  func disjointGroupsShareAKey() throws {
    let mapping = Mapping(Author.init) {
      Attribute("contact", \.name).groups("public")
      Attribute("contact", \.email).groups("private")
    }
    #expect(mapping.inverted().omitted.isEmpty)
    // With no groups selected, the first rule alone writes the key.
    #expect(try mapping.node(Author()) == ["contact": "Ann"])
    #expect(
      String(decoding: try mapping.serialize(Author()), as: UTF8.self) == #"{"contact":"Ann"}"#)
    #expect(
      try mapping.node(Author(), with: MappingOptions(groups: ["public"])) == ["contact": "Ann"])
    #expect(
      try mapping.node(Author(), with: MappingOptions(groups: ["private"]))
        == ["contact": "ann@example.com"])
  }
}
