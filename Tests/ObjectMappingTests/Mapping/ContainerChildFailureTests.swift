import Foundation
import ObjectMapping
import Testing

/// The child failure policies and `null` on relationships whose children sit in containers
/// (`[String: T]`, `[String: [T]]`, `[[T]]`): they act on one entry, as on one element of a
/// `[T]`. ObjectMapper's `mapDictionary`, `mapDictionaryOfArrays` and `mapArrayOfArrays` drop
/// only the values whose `init?(map:)` fails; their translation is required attributes and
/// `.onChildFailure(.dropChild)`.
@Suite("Relationship: child failures and null in containers")
struct ContainerChildFailureTests {
  struct CFValue: Equatable, Sendable {
    var foo = ""
    var bar = 0
  }
  struct CFHolder: Equatable, Sendable {
    var list: [CFValue] = []
    var dict: [String: CFValue] = [:]
    var dictOfArrays: [String: [CFValue]] = [:]
    var grid: [[CFValue]] = []
    var optionalDict: [String: CFValue]?
  }

  static let valueMapping = Mapping(CFValue.init) {
    Attribute("foo", \.foo)
    Attribute("bar", \.bar)
  }

  static func holderMapping(_ policy: ChildFailurePolicy) -> Mapping<CFHolder> {
    Mapping(CFHolder.init) {
      Relationship("list", \.list, valueMapping).onChildFailure(policy).optional()
      Relationship("dict", \.dict, valueMapping).onChildFailure(policy).optional()
      Relationship("dictOfArrays", \.dictOfArrays, valueMapping).onChildFailure(policy)
        .optional()
      Relationship("grid", \.grid, valueMapping).onChildFailure(policy).optional()
      Relationship("optionalDict", \.optionalDict, valueMapping).onChildFailure(policy)
    }
  }

  static let good = #"{"foo": "x", "bar": 1}"#
  static let bad = #"{"foo": "y"}"#  // `bar` is required
  static let payload = """
    {"list": [\(good), \(bad)], "dict": {"a": \(good), "b": \(bad)},
     "dictOfArrays": {"k": [\(bad), \(good)]}, "grid": [[\(good), \(bad)], [\(bad)]],
     "optionalDict": {"c": \(bad), "d": \(good)}}
    """
  static let x = CFValue(foo: "x", bar: 1)
  static let y = CFValue(foo: "y", bar: 0)

  @Test func dropChildLeavesOutOneEntryOfEachContainer() throws {
    let report = Self.holderMapping(.dropChild).report(Self.payload)
    #expect(report.errors.isEmpty)
    let holder = try #require(report.object)
    #expect(holder.list == [Self.x])
    #expect(holder.dict == ["a": Self.x])
    #expect(holder.dictOfArrays == ["k": [Self.x]])
    #expect(holder.grid == [[Self.x], []])
    #expect(holder.optionalDict == ["d": Self.x])
    // One diagnostic per dropped entry, at the entry's own path.
    #expect(
      report.diagnostics.map(\.path).sorted() == [
        "/dict/b", "/dictOfArrays/k/0", "/grid/0/1", "/grid/1/0", "/list/1", "/optionalDict/c",
      ])
  }

  @Test func keepPartialKeepsEveryEntryWithWhatMapped() throws {
    let report = Self.holderMapping(.keepPartial).report(Self.payload)
    #expect(report.errors.isEmpty)
    let holder = try #require(report.object)
    #expect(holder.list == [Self.x, Self.y])
    #expect(holder.dict == ["a": Self.x, "b": Self.y])
    #expect(holder.dictOfArrays == ["k": [Self.y, Self.x]])
    #expect(holder.grid == [[Self.x, Self.y], [Self.y]])
    #expect(holder.optionalDict == ["c": Self.y, "d": Self.x])
    #expect(
      report.diagnostics.map(\.description).sorted() == [
        "/dict/b/bar: value skipped: required value is missing",
        "/dictOfArrays/k/0/bar: value skipped: required value is missing",
        "/grid/0/1/bar: value skipped: required value is missing",
        "/grid/1/0/bar: value skipped: required value is missing",
        "/list/1/bar: value skipped: required value is missing",
        "/optionalDict/c/bar: value skipped: required value is missing",
      ])
  }

  @Test func failParentReportsEveryEntryAtItsPath() throws {
    let report = Self.holderMapping(.failParent).report(Self.payload)
    #expect(report.object == nil)
    #expect(
      report.errors.map(\.path).sorted() == [
        "/dict/b/bar", "/dictOfArrays/k/0/bar", "/grid/0/1/bar", "/grid/1/0/bar", "/list/1/bar",
        "/optionalDict/c/bar",
      ])
  }

  /// A container of the wrong kind is one failure of the relationship's value: dropped whole
  /// under `.dropChild`, as a to-one child is.
  @Test func aContainerOfTheWrongKindIsDroppedWhole() throws {
    let report = Self.holderMapping(.dropChild).report(
      #"{"dict": [1], "grid": [\#(Self.good), [\#(Self.good)]]}"#)
    #expect(report.errors.isEmpty)
    #expect(report.object?.dict == [:])
    // The inner value that is not an array is one entry of the outer array.
    #expect(report.object?.grid == [[Self.x]])
    #expect(report.diagnostics.map(\.path).sorted() == ["/dict", "/grid/0"])
  }

  /// Onto an existing instance a failed entry is never written: under `.dropChild` and
  /// `.keepPartial` it is left out, the other entries are written (merged by key under
  /// `.merge`).
  @Test func ontoAnExistingInstanceAFailedEntryIsLeftOut() throws {
    for policy in [ChildFailurePolicy.dropChild, .keepPartial] {
      let mapping = Mapping(CFHolder.init) {
        Relationship("dict", \.dict, Self.valueMapping).onChildFailure(policy)
          .policy(.merge)
        Relationship("grid", \.grid, Self.valueMapping).onChildFailure(policy)
      }
      var holder = CFHolder(
        dict: ["a": CFValue(foo: "old", bar: 7), "z": CFValue(foo: "z", bar: 9)],
        grid: [[CFValue(foo: "old", bar: 7)]])
      let report = mapping.report(
        #"{"dict": {"a": {"foo": "new"}, "b": \#(Self.bad), "c": \#(Self.good)}, "grid": [[\#(Self.bad), \#(Self.good)]]}"#,
        onto: holder)
      #expect(report.errors.isEmpty, "\(policy)")
      holder = try #require(report.object)
      // `a` merged in place (its `bar` kept), `b` left out, `c` added, `z` kept.
      #expect(
        holder.dict == [
          "a": CFValue(foo: "new", bar: 7), "c": Self.x, "z": CFValue(foo: "z", bar: 9),
        ], "\(policy)")
      #expect(holder.grid == [[Self.x]], "\(policy)")
      #expect(report.diagnostics.map(\.path).sorted() == ["/dict/b", "/grid/0/0"], "\(policy)")
    }
  }

  /// A nested-key child (its key read into it by `KeyAttribute`) is dropped or kept the same
  /// way, its diagnostics at its key.
  @Test func nestedKeyChildrenFollowThePolicyPerEntry() throws {
    struct CFUser: Equatable, Sendable {
      var login = ""
      var id = 0
    }
    struct CFUsers: Equatable, Sendable {
      var users: [String: CFUser] = [:]
    }
    let user = Mapping(CFUser.init) {
      KeyAttribute("login", \.login)
      Attribute("id", \.id)
    }
    func users(_ policy: ChildFailurePolicy) -> Mapping<CFUsers> {
      Mapping(CFUsers.init) { Relationship("users", \.users, user).onChildFailure(policy) }
    }
    let payload = #"{"users": {"a": {"id": 1}, "b": {"id": "x"}}}"#
    let dropped = users(.dropChild).report(payload)
    #expect(dropped.object?.users == ["a": CFUser(login: "a", id: 1)])
    #expect(dropped.diagnostics.map(\.path) == ["/users/b"])
    let kept = users(.keepPartial).report(payload)
    #expect(
      kept.object?.users == ["a": CFUser(login: "a", id: 1), "b": CFUser(login: "b", id: 0)])
    #expect(kept.diagnostics.map(\.path) == ["/users/b/id"])
    // Onto an existing instance, merged by key: the failed entry is left out at its key.
    let merging = Mapping(CFUsers.init) {
      Relationship("users", \.users, user).onChildFailure(.dropChild).policy(.merge)
    }
    let merged = merging.report(payload, onto: CFUsers(users: ["z": CFUser(login: "z", id: 9)]))
    #expect(
      merged.object?.users == ["a": CFUser(login: "a", id: 1), "z": CFUser(login: "z", id: 9)])
    #expect(merged.diagnostics.map(\.path) == ["/users/b"])
  }

  /// The kept entries of a dropped member's siblings are the call's instances as usual: a
  /// class child dropped from a dictionary leaves no write in the identity map.
  @Test func aDroppedEntryOfClassChildrenLeavesTheOthersIntact() throws {
    final class CFNode: @unchecked Sendable {
      var id = 0
      var name = ""
    }
    struct CFTree: Sendable {
      var nodes: [String: CFNode] = [:]
    }
    let node = Mapping(CFNode.init) {
      Attribute("id", \.id)
      Attribute("name", \.name)
    }.identified(by: \.id)
    let tree = Mapping(CFTree.init) {
      Relationship("nodes", \.nodes, node).onChildFailure(.dropChild)
    }
    let mapped = try tree.map(
      #"{"nodes": {"a": {"id": 1, "name": "one"}, "b": {"id": 2, "name": []}}}"#)
    #expect(mapped.nodes.keys.sorted() == ["a"])
    #expect(mapped.nodes["a"]?.name == "one")
  }
}

/// `null` for a relationship whose value is a container, under each ``NullIntoNonOptional``:
/// as for a `[T]` relationship. ObjectMapper's `<-` left a non-optional property as it was for
/// `null` (`.objectMapperCompatible`'s `.keepCurrent`).
@Suite("Relationship: null for a container")
struct ContainerNullTests {
  typealias Value = ContainerChildFailureTests.CFValue
  struct CFNulls: Equatable, Sendable {
    var dict: [String: Value] = ["k": Value(foo: "d", bar: 2)]
    var dictOfArrays: [String: [Value]] = ["k": [Value(foo: "da", bar: 5)]]
    var grid: [[Value]] = [[Value(foo: "g", bar: 6)]]
  }
  static let mapping = Mapping(CFNulls.init) {
    Relationship("dict", \.dict, ContainerChildFailureTests.valueMapping).optional()
    Relationship("dictOfArrays", \.dictOfArrays, ContainerChildFailureTests.valueMapping)
      .optional()
    Relationship("grid", \.grid, ContainerChildFailureTests.valueMapping).optional()
  }
  static let nulls = #"{"dict": null, "dictOfArrays": null, "grid": null}"#

  @Test func keepCurrentKeepsEachContainerWithADiagnostic() throws {
    let report = Self.mapping.report(Self.nulls, with: .objectMapperCompatible)
    #expect(report.object == CFNulls())
    #expect(
      report.diagnostics.map(\.description) == [
        "/dict: null ignored: the property kept its value",
        "/dictOfArrays: null ignored: the property kept its value",
        "/grid: null ignored: the property kept its value",
      ])
    // Onto an existing instance, its current values are kept.
    var existing = CFNulls(dict: [:], dictOfArrays: ["z": []], grid: [])
    let before = existing
    try Self.mapping.map(Self.nulls, onto: &existing, with: .objectMapperCompatible)
    #expect(existing == before)
  }

  @Test func zeroSetsEmptyContainers() throws {
    let mapped = try Self.mapping.map(
      Self.nulls, with: MappingOptions(nullIntoNonOptional: .zero))
    #expect(mapped == CFNulls(dict: [:], dictOfArrays: [:], grid: []))
    var existing = CFNulls()
    try Self.mapping.map(
      Self.nulls, onto: &existing, with: MappingOptions(nullIntoNonOptional: .zero))
    #expect(existing == CFNulls(dict: [:], dictOfArrays: [:], grid: []))
  }

  @Test func theDefaultIsAnErrorNamingWhatWasExpected() throws {
    let report = Self.mapping.report(Self.nulls)
    #expect(
      report.errors.map(\.description) == [
        "/dict: expected an object, found null", "/dictOfArrays: expected an object, found null",
        "/grid: expected an array, found null",
      ])
  }

  /// A `null` entry inside a container is an entry that failed, not the container's `null`.
  @Test func aNullEntryIsAnEntryThatFailed() throws {
    let report = Self.mapping.report(#"{"grid": [[null]]}"#, with: .objectMapperCompatible)
    #expect(report.errors.map(\.description) == ["/grid/0/0: expected an object, found null"])
  }
}

/// A lone object where a to-many relationship expects an array is taken for its one element
/// under lenient coercion (RestKit's R-1.6.3), but not when it has none of the keys the child
/// mapping reads: it is then most likely a dictionary of children (`{"a": {...}}`) or `{}`.
/// RestKit's unmappable representation, an error by default; where unmappable representations
/// are allowed (`.objectMapperCompatible`) the property is left as it is with a diagnostic
/// (ObjectMapper left it `nil`).
@Suite("Relationship: a lone object with none of the child's keys")
struct LoneUnmappableObjectTests {
  struct LUItem: Equatable, Sendable {
    var name: String?
  }
  struct LUList: Equatable, Sendable {
    var items: [LUItem]?
    var tags: [LUItem] = [LUItem(name: "kept")]
  }
  static let mapping = Mapping(LUList.init) {
    Relationship("items", \.items, Mapping(LUItem.init) { Attribute("name", \.name) })
    Relationship("tags", \.tags, Mapping(LUItem.init) { Attribute("name", \.name) }).optional()
  }
  static let payload = #"{"items": {"key1": {"name": "a"}, "key2": {"name": "b"}}, "tags": {}}"#

  @Test func aDictionaryOfChildrenIsAnUnmappableRepresentation() throws {
    let report = Self.mapping.report(Self.payload)
    #expect(
      report.errors.map(\.description) == [
        #"/items: unmappable representation: the mapping reads none of the keys "key1", "key2""#,
        "/tags: unmappable representation: the object is empty",
      ])
  }

  @Test func allowedItLeavesThePropertyAsItIsWithADiagnostic() throws {
    let report = Self.mapping.report(Self.payload, with: .objectMapperCompatible)
    #expect(report.errors.isEmpty)
    #expect(report.object == LUList(items: nil, tags: [LUItem(name: "kept")]))
    #expect(
      report.diagnostics.map(\.description) == [
        #"/items: object skipped: unmappable representation: the mapping reads none of the keys "key1", "key2""#,
        "/tags: object skipped: unmappable representation: the object is empty",
      ])
  }

  @Test func aLoneObjectWithAKeyIsStillOneElement() throws {
    let mapped = try Self.mapping.map(#"{"items": {"name": "a"}}"#)
    #expect(mapped.items == [LUItem(name: "a")])
  }

  @Test func ontoAnExistingInstance() throws {
    var list = LUList(items: [LUItem(name: "old")])
    try Self.mapping.map(#"{"items": {"other": 1}}"#, onto: &list, with: .objectMapperCompatible)
    #expect(list.items == [LUItem(name: "old")])
    let report = Self.mapping.report(#"{"items": {"other": 1}}"#, onto: list)
    #expect(
      report.errors.map(\.description) == [
        #"/items: unmappable representation: the mapping reads none of the keys "other""#
      ])
  }
}

/// A ``Node`` property is not an `Optional`: `null` sets ``Node/null`` by default (a node holds
/// any JSON value), and under `.keepCurrent` it keeps its value as any non-optional property
/// does (ObjectMapper's `anyObject <- map["anyObject"]` kept its value for `null`).
@Suite("Attribute: null for a Node")
struct NodeNullTests {
  struct NNHolder: Equatable, Sendable {
    var any: Node = "keep"
    var maybe: Node? = "keep"
  }
  static let mapping = Mapping(NNHolder.init) {
    Attribute("any", \.any)
    Attribute("maybe", \.maybe)
  }

  @Test func nullIsANodeByDefaultAndKeepsTheValueUnderKeepCurrent() throws {
    let payload = #"{"any": null, "maybe": null}"#
    #expect(try Self.mapping.map(payload) == NNHolder(any: .null, maybe: nil))
    let kept = Self.mapping.report(payload, with: .objectMapperCompatible)
    #expect(kept.object == NNHolder(any: "keep", maybe: nil))
    #expect(
      kept.diagnostics.map(\.description) == ["/any: null ignored: the property kept its value"])
    var existing = NNHolder(any: 5, maybe: 6)
    try Self.mapping.map(payload, onto: &existing, with: .objectMapperCompatible)
    #expect(existing == NNHolder(any: 5, maybe: nil))
    #expect(
      try Self.mapping.map(payload, with: MappingOptions(nullIntoNonOptional: .zero))
        == NNHolder(any: .null, maybe: nil))
  }

  /// A `default:` is what `null` sets, under every setting, as for any non-optional property.
  @Test func aDefaultWinsUnderKeepCurrent() throws {
    let withDefault = Mapping(NNHolder.init) { Attribute("any", \.any, default: "D") }
    #expect(
      try withDefault.map(#"{"any": null}"#, with: .objectMapperCompatible).any == "D")
  }
}

/// A mapping derived from a `Codable` model reads `null` for a dictionary relationship as a full
/// mapping does.
@Suite("Derived mapping: null for a container")
struct DerivedContainerNullTests {
  struct CFDItem: Codable, Equatable, Sendable {
    var foo: String
  }
  struct CFDHolder: Codable, Equatable, Sendable {
    var dict: [String: CFDItem]
    var grid: [[CFDItem]]
  }

  @Test func zeroSetsEmptyContainersAndTheDefaultIsAnError() throws {
    let item = Mapping(CFDItem.self) { Attribute(\.foo) }
    let holder = Mapping(CFDHolder.self) {
      Relationship(\.dict, item)
      Relationship(\.grid, item)
    }
    let payload = #"{"dict": null, "grid": null}"#
    #expect(
      try holder.map(payload, with: MappingOptions(nullIntoNonOptional: .zero))
        == CFDHolder(dict: [:], grid: []))
    #expect(
      holder.report(payload).errors.map(\.description) == [
        "/dict: expected an object, found null", "/grid: expected an array, found null",
      ])
  }
}

/// A `[T]` relationship whose child mapping reads its key (`KeyAttribute`) maps an object of
/// keyed children (`{"a": {...}, "b": {...}}`): per entry under the child failure policies, and
/// onto an existing instance too (where it was read as one single-key object: two keys failed).
@Suite("Relationship: nested-key collections")
struct KeyedCollectionRelationshipTests {
  struct KCUser: Equatable, Sendable {
    var login = ""
    var id = 0
  }
  struct KCTeam: Equatable, Sendable {
    var users: [KCUser] = []
  }
  static let user = Mapping(KCUser.init) {
    KeyAttribute("login", \.login)
    Attribute("id", \.id)
  }
  static func team(_ policy: ChildFailurePolicy, _ collection: CollectionPolicy = .replace)
    -> Mapping<KCTeam>
  {
    Mapping(KCTeam.init) {
      Relationship("users", \.users, user).onChildFailure(policy).policy(collection)
    }
  }
  static let failing = #"{"users": {"a": {"id": 1}, "b": {"id": "x"}}}"#
  static let a = KCUser(login: "a", id: 1)
  static let z = KCUser(login: "z", id: 9)

  @Test func eachPolicyActsOnOneEntry() throws {
    let dropped = Self.team(.dropChild).report(Self.failing)
    #expect(dropped.object == KCTeam(users: [Self.a]))
    #expect(dropped.diagnostics.map(\.path) == ["/users/b"])
    let kept = Self.team(.keepPartial).report(Self.failing)
    #expect(kept.object == KCTeam(users: [Self.a, KCUser(login: "b", id: 0)]))
    #expect(kept.diagnostics.map(\.path) == ["/users/b/id"])
    let failed = Self.team(.failParent).report(Self.failing)
    #expect(failed.object == nil)
    #expect(failed.errors.map(\.path) == ["/users/b/id"])
  }

  @Test func ontoAnExistingInstance() throws {
    let payload = #"{"users": {"a": {"id": 1}, "b": {"id": 2}}}"#
    let b = KCUser(login: "b", id: 2)
    var team = KCTeam(users: [Self.z])
    try Self.team(.failParent).map(payload, onto: &team)
    #expect(team == KCTeam(users: [Self.a, b]))
    team = KCTeam(users: [Self.z])
    try Self.team(.failParent, .append).map(payload, onto: &team)
    #expect(team == KCTeam(users: [Self.z, Self.a, b]))
    team = KCTeam(users: [Self.z])
    try Self.team(.failParent, .prepend).map(payload, onto: &team)
    #expect(team == KCTeam(users: [Self.a, b, Self.z]))
    // A failed entry: left out under `.dropChild` and `.keepPartial`, else the parent fails.
    for policy in [ChildFailurePolicy.dropChild, .keepPartial] {
      let report = Self.team(policy).report(Self.failing, onto: KCTeam(users: [Self.z]))
      #expect(report.object == KCTeam(users: [Self.a]), "\(policy)")
      #expect(report.diagnostics.map(\.path) == ["/users/b"], "\(policy)")
    }
    let failed = Self.team(.failParent).report(Self.failing, onto: KCTeam(users: [Self.z]))
    #expect(failed.errors.map(\.path) == ["/users/b/id"])
  }
}
