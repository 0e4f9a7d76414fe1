import Foundation
import ObjectMapping
import ObjectMappingTestSupport
import Testing

/// The unmappable-representation rule of issue 36: a mapping whose rules read payload keys
/// fails for an object none of whose keys they read (RestKit's error 1003); a mapping whose
/// rules read no key maps any object to its initial value (ObjectMapper, AppCoreKit); a
/// `Mapper` drops unmappable objects with a diagnostic, and agrees with `map` on every payload.
@Suite("Unmappable representations")
struct UnmappableRepresentationTests {
  struct User: Equatable, Sendable {
    var id: Int?
    var name: String?
  }

  struct Shelf: Equatable, Sendable {
    var name = ""
    var users: [User] = []
  }

  static let user = Mapping(User.init) {
    Attribute("id", \.id)
    Attribute("name", \.name)
  }

  /// The rules that decide whether a payload is unmappable, with the error `map` throws.
  static let unmappable: [(payload: String, keys: [String], line: String)] = [
    (
      #"{"favorite_color": "blue"}"#, ["favorite_color"],
      #"unmappable representation: the mapping reads none of the keys "favorite_color""#
    ),
    ("{}", [], "unmappable representation: the object is empty"),
    (
      #"{"user": {"id": 1}}"#, ["user"],
      #"unmappable representation: the mapping reads none of the keys "user""#
    ),
  ]

  @Test func anObjectWithNoneOfTheKeysIsUnmappableAndLeavesTheDestinationUnchanged() throws {
    for (payload, keys, line) in Self.unmappable {
      let error = try #require(throws: MappingErrors.self) { try Self.user.map(payload) }
      #expect(error.errors.map(\.kind) == [.unmappableRepresentation(keys: keys)])
      #expect(error.errors.map(\.description) == [line])
      var existing = User(id: 7, name: "Ann")
      #expect(throws: MappingErrors.self) { try Self.user.map(payload, onto: &existing) }
      #expect(existing == User(id: 7, name: "Ann"))
      let report = Self.user.report(payload)
      #expect(!report.succeeded && report.errors.map(\.description) == [line])
    }
    // One key read is enough; `null` counts as read (RestKit).
    #expect(try Self.user.map(#"{"favorite_color": "blue", "name": "x"}"#).name == "x")
    #expect(try Self.user.map(#"{"id": null}"#) == User())
  }

  @Test func theObjectsOwnErrorsComeFirst() throws {
    let required = Mapping(User.init) {
      Attribute("id", \.id).required()
      Attribute("name", \.name)
    }
    let error = try #require(throws: MappingErrors.self) {
      try required.map(#"{"favorite_color": "blue"}"#)
    }
    #expect(error.errors.map(\.description) == ["/id: required value is missing"])
  }

  @Test func everyElementOfACollectionIsChecked() throws {
    let error = try #require(throws: MappingErrors.self) {
      try Self.user.mapCollection(#"[{"id": 1}, {"colour": 2}, {}]"#)
    }
    #expect(
      error.errors.map(\.description) == [
        #"/1: unmappable representation: the mapping reads none of the keys "colour""#,
        "/2: unmappable representation: the object is empty",
      ])
    #expect(error.partialResult(as: [User].self) == [User(id: 1)])
  }

  // MARK: Mappings that read no key

  struct Flag: Equatable, Sendable {
    var raw: Node = .null
    var page = 0
    var position: Int?
  }

  @Test func aMappingWhoseRulesReadNoKeyMapsAnyObjectToItsInitialValue() throws {
    let empty = Mapping(Flag.init) {}
    let includesDetail = false
    let conditional = Mapping(Flag.init) {
      if includesDetail {
        Attribute("page", \.page)
      }
    }
    let rootOnly = Mapping(Flag.init) {
      Attribute(.root, \.raw)
    }
    let specialOnly = Mapping(Flag.init) {
      Attribute(SourcePath.metadata.appending("page"), \.page).optional()
      Attribute(.index, \.position)
    }
    for payload in [#"{"unrelated": 1}"#, "{}"] {
      #expect(try empty.map(payload) == Flag())
      #expect(try conditional.map(payload) == Flag())
      #expect(try rootOnly.map(payload) == Flag(raw: try Node(jsonString: payload)))
      #expect(try specialOnly.map(payload) == Flag())
      var existing = Flag(page: 3)
      try empty.map(payload, onto: &existing)
      #expect(existing == Flag(page: 3))
      #expect(try empty.mapCollection("[\(payload)]") == [Flag()])
    }
    #expect(
      try specialOnly.map(#"{"x": 1}"#, with: MappingOptions(metadata: ["page": 4])).page == 4)
  }

  @Test func rulesOutsideTheRunsGroupsDoNotCount() throws {
    let grouped = Mapping(User.init) {
      Attribute("id", \.id).groups("detail")
    }
    #expect(
      try grouped.map(#"{"x": 1}"#, with: MappingOptions(groups: ["list"])) == User())
    #expect(throws: MappingErrors.self) {
      try grouped.map(#"{"x": 1}"#, with: MappingOptions(groups: ["detail"]))
    }
  }

  @Test func dynamicAndNestedKeyMappingsAreNeverUnmappable() throws {
    let dynamic = DynamicMapping<User> {
      Match("type", equals: "user", Self.user)
    }
    // The chosen case maps without a key of its own read: the discriminator was.
    #expect(try dynamic.map(#"{"type": "user"}"#) == User())
    struct Named: Equatable, Sendable {
      var key = ""
      var id: Int?
    }
    let keyed = Mapping(Named.init) {
      KeyAttribute("key", \.key)
      Attribute("id", \.id)
    }
    #expect(try keyed.map(#"{"blake": {}}"#) == Named(key: "blake"))
  }

  // MARK: Opting out

  @Test func allowingUnmappableRepresentationPerMappingAndPerCall() throws {
    let allowed = Self.user.allowingUnmappableRepresentation()
    #expect(try allowed.map(#"{"favorite_color": "blue"}"#) == User())
    #expect(try allowed.map("{}") == User())
    var existing = User(id: 7)
    try allowed.map("{}", onto: &existing)
    #expect(existing == User(id: 7))
    let call = MappingOptions(allowsUnmappableRepresentation: true)
    #expect(try Self.user.map(#"{"x": 1}"#, with: call) == User())
    #expect(try Self.user.mapCollection(#"[{}, {"id": 2}]"#, with: call) == [User(), User(id: 2)])
    // A call's option wins over the root mapping's own setting.
    #expect(throws: MappingErrors.self) {
      try allowed.map("{}", with: MappingOptions(allowsUnmappableRepresentation: false))
    }
    #expect(try Self.user.map("{}", with: .objectMapperCompatible) == User())
  }

  // MARK: Children dropped on failure

  @Test func aDroppedToManyChildThatIsUnmappableIsDroppedWithADiagnostic() throws {
    let shelf = Mapping(Shelf.init) {
      Attribute("name", \.name)
      Relationship("users", \.users, Self.user).onChildFailure(.dropChild)
    }
    let report = shelf.report(#"{"name": "s", "users": [{"id": 1}, {}, {"colour": 2}, {"id": 4}]}"#)
    #expect(report.object == Shelf(name: "s", users: [User(id: 1), User(id: 4)]))
    #expect(
      report.diagnostics.map(\.description) == [
        "/users/1: object skipped: unmappable representation: the object is empty",
        #"/users/2: object skipped: unmappable representation: the mapping reads none of the keys "colour""#,
      ])
    // Onto an existing instance, the same.
    let existing = Shelf(name: "old", users: [User(id: 9)])
    let onto = shelf.report(#"{"name": "s", "users": [{}, {"id": 4}]}"#, onto: existing)
    #expect(onto.object == Shelf(name: "s", users: [User(id: 4)]))
    #expect(
      onto.diagnostics.map(\.description) == [
        "/users/0: object skipped: unmappable representation: the object is empty"
      ])
    // Without dropChild, a nested `{}` is part of a parent that mapped: it maps.
    let keeping = Mapping(Shelf.init) {
      Attribute("name", \.name)
      Relationship("users", \.users, Self.user)
    }
    #expect(try keeping.map(#"{"name": "s", "users": [{}]}"#).users == [User()])
  }

  // MARK: map and Mapper, side by side

  /// The same payloads through `map` and through a `Mapper` whose whole-payload route has the
  /// same mapping: an object `map` makes is the route's object; a payload `map` rejects as
  /// unmappable is dropped by the route with the same keys in a diagnostic, and with no other
  /// route content the result's error is `nothingFound`.
  @Test(arguments: [
    #"{"id": 1, "name": "Ann"}"#, #"{"favorite_color": "blue"}"#, #"{"name": null}"#,
    #"{"user": {"id": 1}}"#, #"{"id": "x"}"#,
  ])
  func mapAndMapperAgree(payload: String) throws {
    let provider = MappingProvider(errorRoutes: []) { Route("", Self.user) }
    let result = try Mapper(provider).map(payload)
    do {
      let object = try Self.user.map(payload)
      #expect(result.all(User.self) == [object])
      #expect(result.errors.isEmpty && result.diagnostics.isEmpty)
    } catch {
      #expect(result.all(User.self).isEmpty)
      if case .unmappableRepresentation(let keys) = error.errors.first?.kind {
        #expect(
          result.diagnostics == [MappingDiagnostic(path: "", .unmappableRepresentation(keys: keys))]
        )
        #expect(
          result.errors.map(\.kind) == [
            .nothingFound(searched: [""], topLevelKeys: try Node(jsonString: payload).keys)
          ])
      } else {
        #expect(result.errors == error.errors)
      }
    }
    // And the same as an element of a collection under a route.
    let collection = MappingProvider(errorRoutes: []) { Route("users", Self.user) }
    let listed = try Mapper(collection).map(#"{"users": [\#(payload)]}"#)
    let mapped = try? Self.user.mapCollection("[\(payload)]")
    #expect(listed.all(User.self) == (mapped ?? []))
  }

  @Test func aMapperDropsUnmappableObjectsAndKeepsTheRest() throws {
    let provider = MappingProvider {
      Route("users", Self.user)
      Route("owner", Self.user)
    }
    let result = try Mapper(provider).map(
      #"{"users": [{"id": 1}, {"colour": "red"}], "owner": {"nickname": "x"}}"#)
    #expect(result.all(User.self) == [User(id: 1)])
    #expect(result.errors.isEmpty)
    #expect(
      result.diagnostics.map(\.description) == [
        #"/users/1: object skipped: unmappable representation: the mapping reads none of the keys "colour""#,
        #"/owner: object skipped: unmappable representation: the mapping reads none of the keys "nickname""#,
      ])
    // The owner's route contributes nothing, as a failed single object.
    #expect(result.keyPaths == ["users"])
  }

  @Test func noMappableContentAnywhereIsNothingFoundWithTheSearchedPathsSorted() throws {
    let provider = MappingProvider {
      Route("users", Self.user)
      Route("Accounts", Self.user)
      Route("", Self.user)
    }
    let result = try Mapper(provider).map(#"{"users": [{"x": 1}], "meta": 2}"#)
    #expect(result.all(User.self).isEmpty)
    #expect(
      result.errors.map(\.description) == [
        #"nothing to map: no route found mappable content at the whole payload, "Accounts", "#
          + #""error", "errors", "users"; the payload's top-level keys are "users", "meta""#
      ])
    #expect(
      result.diagnostics.map(\.description) == [
        #"/users/0: object skipped: unmappable representation: the mapping reads none of the keys "x""#,
        #"object skipped: unmappable representation: the mapping reads none of the keys "users", "meta""#,
      ])
    // An empty array is content (found, zero objects): no error.
    #expect(try Mapper(provider).map(#"{"users": [], "x": 1}"#).errors.isEmpty)
  }

  @Test func manyUnmappableObjectsCostLinearTimeAndStayUnderTheLimit() async throws {
    let provider = MappingProvider(errorRoutes: []) { Route("users", Self.user) }
    // Elements with many keys each, none read: the keys are read only for kept diagnostics.
    func elements(_ count: Int) -> String {
      let element = "{" + (0..<20).map { #""k\#($0)": 1"# }.joined(separator: ",") + "}"
      return "[" + Array(repeating: element, count: count).joined(separator: ",") + "]"
    }
    func payload(_ count: Int) -> String { #"{"users": "# + elements(count) + "}" }
    try await Scaling.expectLinear(
      "unmappable objects dropped by a mapper", base: 4_000,
      prepare: { Data(payload($0).utf8) },
      work: { data in
        let result = try Mapper(provider).map(data)
        #expect(result.isEmpty && result.diagnostics.count == 1_000)
        #expect(result.omittedDiagnosticCount > 0)
      })
    do {
      _ = try Self.user.mapCollection(elements(5), with: MappingOptions(errorLimit: 2))
      Issue.record("unmappable elements are thrown")
    } catch {
      #expect(error.errors.count == 2 && error.omittedCount == 3)
    }
  }

  @Test func aTargetMappedOntoIsLeftAloneWhenThePayloadIsUnmappable() throws {
    final class Profile: @unchecked Sendable {
      var name = "kept"
    }
    let profile = Mapping(Profile.init) { Attribute("name", \.name) }
    let provider = MappingProvider(errorRoutes: []) { Route("", profile) }
    let target = Profile()
    let result = try Mapper(provider).map(#"{"nick": "x"}"#, target: target)
    #expect(target.name == "kept" && result.isEmpty)
    #expect(
      result.diagnostics.map(\.description) == [
        #"object skipped: unmappable representation: the mapping reads none of the keys "nick""#
      ])
  }
}

extension Node {
  /// The keys of an object node, in order; `nil` for anything else.
  fileprivate var keys: [String]? {
    guard case .object(let members) = self else { return nil }
    return members.map(\.key)
  }
}
