import Foundation
import ObjectMapping
import Testing

/// The samples issue 36 added to the guides (ErrorsAndDiagnostics.md, Mapper.md,
/// Serialization.md, UpdatingExistingObjects.md, Composition.md and the migration guides),
/// run as written.
@Suite("Guide samples: unmappable payloads, attribute failures, presets, RestKit forms")
struct MigrationSemanticsSampleTests {
  struct User: Equatable, Sendable {
    var id = 0
    var name: String?
    var age = 0
    var joined: Date?
  }

  static let userMapping = Mapping(User.init) {
    Attribute("id", \.id).optional()
    Attribute("name", \.name)
    Attribute("age", \.age).optional()
    Attribute("joined", \.joined)
  }

  // ErrorsAndDiagnostics.md, "Unmappable representations".
  @Test func unmappableRepresentations() throws {
    let error = try #require(throws: MappingErrors.self) {
      try Self.userMapping.map(#"{"favorite_color": "blue"}"#)
    }
    #expect(
      error.description
        == #"unmappable representation: the mapping reads none of the keys "favorite_color""#)
    let lenient = try Self.userMapping.allowingUnmappableRepresentation().map(
      #"{"favorite_color": "blue"}"#)
    #expect(lenient == User())
  }

  // ErrorsAndDiagnostics.md, "Attribute failures as diagnostics".
  @Test func attributeFailuresAsDiagnostics() throws {
    let skip = MappingOptions(attributeFailures: .skipWithDiagnostic)
    let report = Self.userMapping.report(#"{"id": 7, "age": "twelve"}"#, with: skip)
    #expect(report.object == User(id: 7, age: 0))
    #expect(
      report.diagnostics.map(\.description) == [
        #"/age: value skipped: cannot convert "twelve" to an integer"#
      ])
  }

  // Mapper.md, "Routes inside a whole-payload route" and the mapper's own options.
  @Test func overlappingRoutesAndMapperOptions() throws {
    struct Status: Equatable, Sendable { var ok = false }
    let statusMapping = Mapping(Status.init) { Attribute("ok", \.ok) }
    let provider = MappingProvider {
      Route("", statusMapping)
      Route("data", Self.userMapping)
    }
    #expect(
      provider.diagnostics.map(\.description) == [
        #"the route "data" reads values inside the whole payload, which a whole-payload route "#
          + "also maps: those values are mapped twice"
      ])
    let mapper = Mapper(provider, options: .restKitCompatible)
    let result = try mapper.map(#"{"ok": true, "data": {"id": 1, "joined": "01/03/2012"}}"#)
    #expect(result.first(User.self)?.joined == Date(timeIntervalSince1970: 1_325_548_800))
    let strict = try mapper.map(
      #"{"ok": true, "data": {"id": 1, "age": "x"}}"#,
      with: MappingOptions(attributeFailures: .fail))
    #expect(strict.errors.map(\.description) == [#"/data/age: cannot convert "x" to an integer"#])
  }

  // Serialization.md, "Form bodies as RestKit wrote them".
  @Test func restKitFormBodies() throws {
    struct Article: Equatable, Sendable {
      var title = ""
      var subtitle: String?
      var tags: [String] = []
      var published = false
    }
    let articleMapping = Mapping(Article.init) {
      Attribute("title", \.title)
      Attribute("subtitle", \.subtitle)
      Attribute("tags", \.tags)
      Attribute("published", \.published)
    }
    let article = Article(title: "Hello world", tags: ["a"], published: true)
    let inverse = articleMapping.inverted().rootKey("article")
    let expected =
      "article[published]=1&article[subtitle]&article[tags][]=a&article[title]=Hello%20world"
    #expect(
      String(
        decoding: try inverse.serialize(
          article, as: .formURLEncoded(.restKit), with: MappingOptions(nulls: .include)),
        as: UTF8.self) == expected)
    #expect(
      String(
        decoding: try inverse.serialize(article, as: .formURLEncoded, with: .restKitCompatible),
        as: UTF8.self) == expected)
  }

  // UpdatingExistingObjects.md, "Merging without an identity", and the ObjectMapper preset.
  @Test func childMergingInPlace() throws {
    struct Settings: Equatable, Sendable {
      var theme = "light"
      var font = "serif"
    }
    struct Profile: Equatable, Sendable {
      var name = ""
      var settings: Settings?
    }
    let settingsMapping = Mapping(Settings.init) {
      Attribute("theme", \.theme).optional()
      Attribute("font", \.font).optional()
    }
    let profileMapping = Mapping(Profile.init) {
      Attribute("name", \.name).optional()
      Relationship("settings", \.settings, settingsMapping)
    }
    var profile = Profile(name: "Ann", settings: Settings(theme: "light", font: "mono"))
    try profileMapping.map(
      #"{"settings": {"theme": "dark"}}"#, onto: &profile,
      with: MappingOptions(childMerging: .inPlace))
    #expect(profile.settings == Settings(theme: "dark", font: "mono"))
    var viaPreset = Profile(name: "Ann", settings: Settings(theme: "light", font: "mono"))
    try profileMapping.map(
      #"{"settings": {"theme": "dark"}}"#, onto: &viaPreset, with: .objectMapperCompatible)
    #expect(viaPreset == profile)
  }

  // Composition.md, "Settings for a mapping at once"; MigratingFromRestKit.md, the preset.
  @Test func presetsPerMappingAndChangingOne() throws {
    let restKitUsers = Self.userMapping.options(.restKitCompatible)
    let report = restKitUsers.report(
      #"{"id": 1, "joined": "Sun, 06 Nov 1994 08:49:37 GMT", "age": "", "name": ""}"#)
    #expect(
      report.object == User(id: 1, name: "", joined: Date(timeIntervalSince1970: 784_111_777)))
    // `""` for a non-optional Int: null would be an error, so it is skipped instead.
    #expect(
      report.diagnostics.map(\.description) == [
        #"/age: value skipped: cannot convert "" to an integer"#
      ])
    var options = MappingOptions.restKitCompatible
    options.attributeFailures = .fail
    #expect(throws: MappingErrors.self) {
      try Self.userMapping.map(#"{"id": 1, "age": "x"}"#, with: options)
    }
    // MigratingFromObjectMapper.md: start from the preset, change one.
    var objectMapper = MappingOptions.objectMapperCompatible
    objectMapper.childMerging = .byIdentity
    #expect(try Self.userMapping.map(#"{"x": 1}"#, with: objectMapper) == User())
  }
}
