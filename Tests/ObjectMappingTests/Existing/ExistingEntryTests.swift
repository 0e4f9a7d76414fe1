import Foundation
import ObjectMapping
import Testing

// Issue 37: one entry maps an element given the instance it may update (none, the instance it
// is for, a relationship's child merged in place or by identity). These pin the decisions that
// differ between those callers.

private struct Canvas: Equatable {
  var main: Shape?
  var frame = Shape.rect(Rect())
}

private func canvasMapping(_ policy: CollectionPolicy) -> Mapping<Canvas> {
  Mapping(Canvas.init) {
    Relationship("main", \.main, Shapes.shape).policy(policy)
    Relationship("frame", \.frame, Shapes.shape).policy(policy)
  }
}

private struct CodableCircle: Codable, Equatable, Sendable {
  var radius = 0.0
  var label: String?
}

private enum Badge: Equatable, Sendable {
  case circle(CodableCircle)
  case rect(Rect)
}

private let badgeMapping = DynamicMapping<Badge> {
  Match("kind", equals: "circle", CodableMapping<CodableCircle>(), case: Badge.circle) {
    if case .circle(let circle) = $0 { circle } else { nil }
  }
  Match("kind", equals: "rect", Shapes.rectMapping, case: Badge.rect) {
    if case .rect(let rect) = $0 { rect } else { nil }
  }
}

/// A dynamic mapping whose case is itself a dynamic mapping.
private let grouped = DynamicMapping<Person> {
  Match("group", equals: "people", People.person)
}

@Suite("One entry for an element onto an existing instance")
struct ExistingEntryTests {
  @Test func aDynamicChildMergedInPlaceIsMappedNewNotMerged() throws {
    let original = Canvas(main: nil, frame: .rect(Rect(width: 1, height: 1)))
    var canvas = original
    // A merge writes only the keys present; a dynamic mapping replaces the child, so the new
    // rect needs its height.
    let error = #expect(throws: MappingErrors.self) {
      try canvasMapping(.merge).map(#"{"frame": {"kind": "rect", "width": 5}}"#, onto: &canvas)
    }
    #expect(error?.errors.map(\.description) == ["/frame/height: required value is missing"])
    #expect(canvas == original)
    try canvasMapping(.merge).map(
      #"{"frame": {"kind": "circle", "radius": 2}}"#, onto: &canvas)
    #expect(canvas.frame == .circle(Circle(radius: 2)))
  }

  @Test func aDynamicChildWithoutIdentityIsMappedNew() throws {
    let original = Canvas(main: .rect(Rect(width: 1, height: 1)))
    var canvas = original
    let error = #expect(throws: MappingErrors.self) {
      try canvasMapping(.replace).map(#"{"main": {"kind": "rect", "width": 5}}"#, onto: &canvas)
    }
    #expect(error?.errors.map(\.description) == ["/main/height: required value is missing"])
    #expect(canvas == original)
    try canvasMapping(.replace).map(
      #"{"main": {"kind": "rect", "width": 5, "height": 6}}"#, onto: &canvas)
    #expect(canvas.main == .rect(Rect(width: 5, height: 6)))
  }

  @Test func aDeclinedChildWhereThereIsNoneIsLeftOutWithADiagnostic() throws {
    var canvas = Canvas(main: nil)
    let report = canvasMapping(.replace).report(#"{"main": {"kind": "hexagon"}}"#, onto: canvas)
    #expect(report.errors.isEmpty)
    #expect(
      report.diagnostics.map(\.description) == [
        #"/main: skipped: no mapping matches: kind is "hexagon""#
      ])
    try canvasMapping(.replace).map(#"{"main": {"kind": "hexagon"}}"#, onto: &canvas)
    #expect(canvas.main == nil)
  }

  @Test func aDeclinedChildReplacingAnExistingOneIsAnError() throws {
    var canvas = Canvas(main: .rect(Rect(width: 1, height: 1)))
    let error = #expect(throws: MappingErrors.self) {
      try canvasMapping(.replace).map(#"{"main": {"kind": "hexagon"}}"#, onto: &canvas)
    }
    #expect(error?.errors.map(\.description) == [#"/main: no mapping matches: kind is "hexagon""#])
    #expect(canvas.main == .rect(Rect(width: 1, height: 1)))
  }

  @Test func aDynamicCaseThatIsDynamicUpdatesTheInstanceInPlace() throws {
    let boy = Boy()
    boy.name = "Blake"
    var target: Person = boy
    try grouped.map(#"{"group": "people", "type": "Boy", "name": "Blake W."}"#, onto: &target)
    #expect(target === boy)
    #expect(boy.name == "Blake W.")
    let error = #expect(throws: MappingErrors.self) {
      try grouped.map(#"{"group": "people", "type": "Girl", "name": "Sarah"}"#, onto: &target)
    }
    #expect(
      error?.errors.map(\.description) == [
        "expected a payload for the existing Boy, found a Girl"
      ])
    #expect(boy.name == "Blake W.")
  }

  @Test func aCodableCaseReplacesTheExistingValueWhole() throws {
    var badge = Badge.circle(CodableCircle(radius: 1, label: "old"))
    try badgeMapping.map(#"{"kind": "circle", "radius": 3}"#, onto: &badge)
    // `init(from:)` makes the whole value: the absent label is `nil`, not "old".
    #expect(badge == .circle(CodableCircle(radius: 3, label: nil)))
    var rect = Badge.rect(Rect(width: 1, height: 2))
    try badgeMapping.map(#"{"kind": "rect", "width": 4}"#, onto: &rect)
    #expect(rect == .rect(Rect(width: 4, height: 2)))
    let error = #expect(throws: MappingErrors.self) {
      try badgeMapping.map(#"{"kind": "circle", "radius": 3}"#, onto: &rect)
    }
    #expect(
      error?.errors.map(\.description) == [
        "expected a payload for the existing Badge, found a CodableCircle"
      ])
    #expect(rect == .rect(Rect(width: 4, height: 2)))
  }
}
