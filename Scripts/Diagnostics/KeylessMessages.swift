// Where a keyless rule cannot exist, the compiler says what to write (issue 41). Checked by
// Scripts/check-diagnostics.sh with the compiler's -verify mode: each error annotation below
// must be reported on its line with this text, and no other error or warning may be.

import ObjectMapping

struct Label: Sendable { var name = "" }
struct Point: Sendable { var x = 0 }

struct Issue: Sendable {
  var labels: [Label] = []
  var label: Label?
  var point = Point()
  let id = 0
  var title: String { "title" }
}

let labelsWithoutMapping = Mapping(Issue.init) {
  Relationship(\.labels)  // expected-error {{'init(_:)' is unavailable: Relationship(\\.property) without a mapping reads a Codable child; pass the child's mapping (Relationship(\\.property, childMapping)) or give the child type a Codable conformance}}
}

let optionalChildWithoutMapping = Mapping(Issue.init) {
  Relationship(\.label)  // expected-error {{'init(_:)' is unavailable: Relationship(\\.property) without a mapping reads a Codable child; pass the child's mapping (Relationship(\\.property, childMapping)) or give the child type a Codable conformance}}
}

let unreadableValue = Mapping(Issue.init) {
  Attribute(\.point)  // expected-error {{'init(_:)' is unavailable: Attribute(\\.property) reads a MappableValue, a Codable value or a raw-value enum; for another type pass a ValueTransform (Attribute(\\.property, transform)), or map an object with Relationship(\\.property, childMapping)}}
}

let computedProperty = Mapping(Issue.init) {
  Attribute(\.title)  // expected-error {{'init(_:)' is unavailable: Attribute sets its property, and this one is read-only (a let or a computed property); make it a var, or write it only when serializing: mapping.inverse.adding("key") { $0.property }}}
}

let letProperty = Mapping(Issue.init) {
  Attribute("id", \.id)  // expected-error {{'init(_:_:)' is unavailable: Attribute sets its property, and this one is read-only (a let or a computed property); make it a var, or write it only when serializing: mapping.inverse.adding("key") { $0.property }}}
}
