import ObjectMapping
import Synchronization
import Testing

// A payload element's identity is read as a scalar by the identity rule, without making a model
// (issue 37): a merged child's initializer does not run at all, a new child's runs once.

/// Counts the initializer runs of the models made with it.
private final class InitCounter: Sendable {
  private let count = Atomic<Int>(0)

  func increment() { count.add(1, ordering: .relaxed) }

  var value: Int { count.load(ordering: .relaxed) }
}

/// A model whose initializer has a side effect: it registers itself with a counter.
private final class CountedChild {
  var id = 0
  var code: String?
  var name = ""

  init(counter: InitCounter) {
    counter.increment()
  }
}

/// A model that validates its values: its hook is a method, so its id is read into a scratch model.
private final class ValidatingChild: KeyValueValidating {
  var id = 0
  var name = ""

  init(counter: InitCounter) {
    counter.increment()
  }

  func validateValue(_ value: inout Any, forKeyPath keyPath: PartialKeyPath<ValidatingChild>)
    throws -> Bool
  {
    if keyPath == \ValidatingChild.id, let id = value as? Int { value = abs(id) }
    return true
  }
}

private final class CountedParent {
  var children: [CountedChild] = []
  var lead: CountedChild?
}

/// The child mapping, identified by `id` (read from a string under lenient coercion too).
private func childMapping(_ counter: InitCounter) -> Mapping<CountedChild> {
  Mapping({ CountedChild(counter: counter) }) {
    Attribute("id", \.id)
    Attribute("name", \.name)
  }.identified(by: \.id)
}

private func parentMapping(
  _ counter: InitCounter, _ policy: CollectionPolicy, child: Mapping<CountedChild>? = nil
) -> Mapping<CountedParent> {
  let child = child ?? childMapping(counter)
  return Mapping(CountedParent.init) {
    Relationship("children", \.children, child).policy(policy)
    Relationship("lead", \.lead, child)
  }
}

/// A parent holding children 1, 2 and 3, made without counting.
private func existingParent() -> CountedParent {
  let parent = CountedParent()
  let uncounted = InitCounter()
  for id in 1...3 {
    let child = CountedChild(counter: uncounted)
    child.id = id
    child.name = "old \(id)"
    parent.children.append(child)
  }
  parent.lead = parent.children[0]
  return parent
}

@Suite("Payload identity without a model")
struct PayloadIdentityTests {
  @Test(arguments: [CollectionPolicy.union, .replace])
  func initializersRunOncePerNewChildOnly(policy: CollectionPolicy) throws {
    let counter = InitCounter()
    var parent = existingParent()
    let before = parent.children
    let payload = #"""
      {"children": [{"id": 2, "name": "two"}, {"id": 3, "name": "three"},
                    {"id": 4, "name": "four"}, {"id": 5, "name": "five"}]}
      """#
    try parentMapping(counter, policy).map(payload, onto: &parent)
    // Two new children (4 and 5): two initializer runs; none for the merged 2 and 3.
    #expect(counter.value == 2)
    let ids = parent.children.map(\.id)
    #expect(ids == (policy == .union ? [1, 2, 3, 4, 5] : [2, 3, 4, 5]))
    let merged = parent.children.filter { $0.id == 2 || $0.id == 3 }
    #expect(merged.count == 2)
    #expect(merged[0] === before[1] && merged[1] === before[2])
    #expect(merged.map(\.name) == ["two", "three"])
  }

  @Test func aMergedToOneChildRunsNoInitializer() throws {
    let counter = InitCounter()
    var parent = existingParent()
    let lead = parent.lead
    try parentMapping(counter, .union).map(#"{"lead": {"id": 1, "name": "first"}}"#, onto: &parent)
    #expect(counter.value == 0)
    #expect(parent.lead === lead)
    #expect(parent.lead?.name == "first")
    // Another id: a new child, made once.
    try parentMapping(counter, .union).map(#"{"lead": {"id": 9, "name": "nine"}}"#, onto: &parent)
    #expect(counter.value == 1)
    #expect(parent.lead !== lead)
    #expect(parent.lead?.id == 9)
  }

  @Test func aCoercedIdMatchesAsTheDecodeReadsIt() throws {
    let counter = InitCounter()
    var parent = existingParent()
    let second = parent.children[1]
    try parentMapping(counter, .union).map(
      #"{"children": [{"id": "2", "name": "coerced"}]}"#, onto: &parent,
      with: MappingOptions(coercion: .lenient))
    #expect(counter.value == 0)
    #expect(parent.children.count == 3)
    #expect(parent.children[1] === second)
    #expect(second.name == "coerced")
  }

  @Test func aTransformedIdMatchesAsTheDecodeReadsIt() throws {
    // "c-2" is the child with id 2: the transform is applied to the payload's id.
    let fromCode = ValueTransform<String, Int>(
      forward: { code in
        guard code.hasPrefix("c-"), let id = Int(code.dropFirst(2)) else {
          throw ConversionFailure.notRepresentable(code, reason: "not a child code")
        }
        return id
      },
      reverse: { "c-\($0)" })
    let counter = InitCounter()
    let child = Mapping({ CountedChild(counter: counter) }) {
      Attribute("code", \.id, fromCode)
      Attribute("name", \.name)
    }.identified(by: \.id)
    var parent = existingParent()
    let third = parent.children[2]
    try parentMapping(counter, .union, child: child).map(
      #"{"children": [{"code": "c-3", "name": "three"}, {"code": "c-7", "name": "seven"}]}"#,
      onto: &parent)
    #expect(counter.value == 1)
    #expect(parent.children.map(\.id) == [1, 2, 3, 7])
    #expect(parent.children[2] === third)
    #expect(third.name == "three")
  }

  @Test func aMissingOrNullIdNeverMatches() throws {
    let counter = InitCounter()
    let child = Mapping({ CountedChild(counter: counter) }) {
      Attribute("code", \.code)
      Attribute("name", \.name)
    }.identified(by: \.code)
    let parent = CountedParent()
    for code in ["a", "b"] {
      let existing = CountedChild(counter: InitCounter())
      existing.code = code
      parent.children.append(existing)
    }
    var updated = parent
    try parentMapping(counter, .union, child: child).map(
      #"{"children": [{"name": "no id"}, {"code": null, "name": "null id"}, {"code": "b", "name": "bee"}]}"#,
      onto: &updated)
    // The two elements without an id are new (and do not match each other); "b" merges.
    #expect(counter.value == 2)
    #expect(updated.children.map(\.name) == ["", "bee", "no id", "null id"])
    #expect(updated.children.map(\.code) == ["a", "b", nil, nil])
  }

  @Test func anUndecodableIdIsNoMatchAndItsErrorIsTheElementsOwn() throws {
    let counter = InitCounter()
    var parent = existingParent()
    let error = try #require(throws: MappingErrors.self) {
      try parentMapping(counter, .union).map(
        #"{"children": [{"id": [1], "name": "list"}]}"#, onto: &parent)
    }
    #expect(
      error.errors.map(\.description) == [
        "/children/0/id: expected an integer, found an array"
      ])
    #expect(parent.children.map(\.name) == ["old 1", "old 2", "old 3"])
  }

  @Test func theRulesValidatorsRunOnTheId() throws {
    let counter = InitCounter()
    let child = Mapping({ CountedChild(counter: counter) }) {
      Attribute("code", \.code).validate { code in
        code = code?.lowercased()
        return code != "placeholder"
      }
      Attribute("name", \.name)
    }.identified(by: \.code)
    var parent = CountedParent()
    let existing = CountedChild(counter: InitCounter())
    existing.code = "b"
    parent.children = [existing]
    try parentMapping(counter, .union, child: child).map(
      #"{"children": [{"code": "B", "name": "bee"}, {"code": "PLACEHOLDER", "name": "p"}]}"#,
      onto: &parent)
    // "B" is validated to "b": merged, no initializer; the rejected id is no id: a new child.
    #expect(counter.value == 1)
    #expect(parent.children.count == 2)
    #expect(parent.children[0] === existing && existing.name == "bee")
    #expect(parent.children[1].name == "p" && parent.children[1].code == nil)
  }

  @Test func aModelThatValidatesItsValuesReadsTheIdThroughAScratchModel() throws {
    let counter = InitCounter()
    let make: @Sendable () -> ValidatingChild = { ValidatingChild(counter: counter) }
    let child = Mapping(make) {
      Attribute("id", \.id)
      Attribute("name", \.name)
    }.identified(by: \.id)
    let parentMapping = Mapping(ValidatingParent.init) {
      Relationship("children", \.children, child).policy(.union)
    }
    var parent = ValidatingParent()
    let existing = ValidatingChild(counter: InitCounter())
    existing.id = 4
    parent.children = [existing]
    try parentMapping.map(
      #"{"children": [{"id": -4, "name": "four"}]}"#, onto: &parent)
    // The hook turns -4 into 4: the existing child, found through one scratch model.
    #expect(counter.value == 1)
    #expect(parent.children.count == 1)
    #expect(parent.children[0] === existing && existing.name == "four")
  }
}

private final class ValidatingParent {
  var children: [ValidatingChild] = []
}
