import ObjectMapping
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Mapping onto existing instances with identities must take time linear in the payload: each
// case below is timed at n and 4n elements. Linear work grows about 4×, quadratic work 16×; the
// tests allow 8× (best of five runs each, in thread CPU time), which a quadratic step cannot meet.

final class ScaledItem {
  var id = 0
  var name = ""
}

final class ScaledBox {
  var id = 0
  var items: [ScaledItem] = []
  var owner: ScaledItem?
  var boxes: [ScaledBox] = []
}

struct ScaledValue: Equatable {
  var id = 0
  var name = ""
}

struct ScaledValueBox: Equatable {
  var values: [ScaledValue] = []
}

private let itemMapping = Mapping(ScaledItem.init) {
  Attribute("id", \.id)
  Attribute("name", \.name)
}.identified(by: \.id)

private func boxMapping(_ policy: CollectionPolicy = .replace) -> Mapping<ScaledBox> {
  Mapping(ScaledBox.init) {
    Attribute("id", \.id)
    Relationship("items", \.items, itemMapping).policy(policy)
    Relationship("owner", \.owner, itemMapping)
  }.identified(by: \.id)
}

/// Boxes of boxes: a to-one child onto existing children, once per element.
private let outerMapping = Mapping(ScaledBox.init) {
  Relationship("boxes", \.boxes, boxMapping())
}

private let valueMapping = Mapping(ScaledValue.init) {
  Attribute("id", \.id)
  Attribute("name", \.name)
}.identified(by: \.id)

private let valueBoxMapping = Mapping(ScaledValueBox.init) {
  Relationship("values", \.values, valueMapping)
}

/// `{"items": [...]}` with `count` elements whose ids `id(offset)` gives.
private func itemsPayload(_ count: Int, id: (Int) -> Int) -> String {
  var elements: [String] = []
  elements.reserveCapacity(count)
  for offset in 0..<count { elements.append(#"{"id": \#(id(offset)), "name": "n\#(offset)"}"#) }
  return #"{"items": ["# + elements.joined(separator: ", ") + "]}"
}

private func existingBox(items count: Int) -> ScaledBox {
  let box = ScaledBox()
  box.items = (0..<count).map { offset in
    let item = ScaledItem()
    item.id = offset
    return item
  }
  return box
}

/// The CPU time this thread has used, in seconds: unlike the wall clock, it does not count the
/// time other tests (run in parallel) keep the thread waiting.
private func threadCPUTime() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
}

/// How much longer `body` takes at `4 * n` than at `n`: the best of five runs each,
/// interleaved, after a warm-up, in thread CPU time.
func growthRatio(n: Int, _ body: (Int) throws -> Void) rethrows -> Double {
  try body(n)
  var small = Double.infinity
  var large = Double.infinity
  for _ in 0..<5 {
    var start = threadCPUTime()
    try body(n)
    small = min(small, threadCPUTime() - start)
    start = threadCPUTime()
    try body(4 * n)
    large = min(large, threadCPUTime() - start)
  }
  return large / max(small, 1e-6)
}

@Suite("Identity merges grow linearly", .serialized)
struct IdentityMergeScalingTests {
  static let n = 500

  @Test func repeatsOfAnExistingChildsId() throws {
    let ratio = try growthRatio(n: Self.n) { size in
      var box = existingBox(items: 1)
      try boxMapping().map(itemsPayload(size) { _ in 0 }, onto: &box)
      #expect(box.items.count == 1 && box.items[0].name == "n\(size - 1)")
    }
    #expect(ratio < 8, "4× the repeats took \(ratio)× the time")
  }

  @Test func repeatsOfANewChildsId() throws {
    let ratio = try growthRatio(n: Self.n) { size in
      var box = existingBox(items: 1)
      try boxMapping().map(itemsPayload(size) { _ in 5 }, onto: &box)
      #expect(box.items.count == 1 && box.items[0].name == "n\(size - 1)")
    }
    #expect(ratio < 8, "4× the repeats took \(ratio)× the time")
  }

  @Test(arguments: [CollectionPolicy.replace, .union, .append, .prepend, .clearThenAppend])
  func manyDistinctExistingIds(policy: CollectionPolicy) throws {
    let ratio = try growthRatio(n: Self.n) { size in
      var box = existingBox(items: size)
      try boxMapping(policy).map(itemsPayload(size) { size - 1 - $0 }, onto: &box)
      #expect(box.items.count == (policy == .append || policy == .prepend ? 2 * size : size))
    }
    #expect(ratio < 8, "4× the children took \(ratio)× the time")
  }

  @Test func manyNewChildren() throws {
    let ratio = try growthRatio(n: Self.n) { size in
      var box = existingBox(items: size)
      try boxMapping(.union).map(itemsPayload(size) { size + $0 }, onto: &box)
      #expect(box.items.count == 2 * size)
    }
    #expect(ratio < 8, "4× the children took \(ratio)× the time")
  }

  @Test func repeatsOfAnExistingValueChildsId() throws {
    let ratio = try growthRatio(n: Self.n) { size in
      var box = ScaledValueBox(values: [ScaledValue(id: 0, name: "")])
      let payload = itemsPayload(size) { _ in 0 }.replacingItemsKey(with: "values")
      try valueBoxMapping.map(payload, onto: &box)
      #expect(box.values == [ScaledValue(id: 0, name: "n\(size - 1)")])
    }
    #expect(ratio < 8, "4× the repeats took \(ratio)× the time")
  }

  @Test func toOneChildrenOfRepeatedParents() throws {
    let ratio = try growthRatio(n: Self.n) { size in
      var outer = ScaledBox()
      let inner = ScaledBox()
      inner.owner = ScaledItem()
      outer.boxes = [inner]
      var boxes: [String] = []
      for offset in 0..<size {
        boxes.append(#"{"id": 0, "owner": {"id": 0, "name": "n\#(offset)"}}"#)
      }
      try outerMapping.map(#"{"boxes": ["# + boxes.joined(separator: ", ") + "]}", onto: &outer)
      #expect(outer.boxes.count == 1 && outer.boxes[0].owner?.name == "n\(size - 1)")
    }
    #expect(ratio < 8, "4× the repeats took \(ratio)× the time")
  }

  @Test func reportOntoAnExistingInstance() throws {
    let ratio = growthRatio(n: Self.n) { size in
      let box = existingBox(items: 1)
      let report = boxMapping().report(itemsPayload(size) { _ in 0 }, onto: box)
      #expect(report.succeeded && report.object?.items.count == 1)
    }
    #expect(ratio < 8, "4× the repeats took \(ratio)× the time")
  }

  @Test func mapperTarget() throws {
    let mapper = Mapper(MappingProvider { Route("", boxMapping()) })
    let ratio = try growthRatio(n: Self.n) { size in
      let box = existingBox(items: 1)
      let result = try mapper.map(itemsPayload(size) { _ in 0 }, target: box)
      #expect(result.errors.isEmpty && box.items.count == 1)
    }
    #expect(ratio < 8, "4× the repeats took \(ratio)× the time")
  }
}

extension String {
  fileprivate func replacingItemsKey(with key: String) -> String {
    "{\"\(key)\"" + dropFirst(#"{"items""#.count)
  }
}

/// A call's identity map (one instance per id in a fresh mapping): a payload repeating one id
/// maps each later occurrence onto the call's instance. Its collections are replaced (the later
/// values win) whatever their policy; merged under `.append`, 40,000 occurrences of one box
/// with one item took 145 s (each copied what the earlier ones had appended).
@Suite("The identity map of a call grows linearly", .serialized)
struct RunIdentityMapScalingTests {
  /// `[{"id": 7, "items": [{"id": …}], "owner": {"id": 1, …}}, …]`, `count` times.
  static func repeatedBoxes(_ count: Int) -> String {
    var boxes: [String] = []
    boxes.reserveCapacity(count)
    for offset in 0..<count {
      boxes.append(
        #"{"id": 7, "items": [{"id": \#(offset), "name": "n"}], "owner": {"id": 1, "name": "o"}}"#)
    }
    return "[" + boxes.joined(separator: ", ") + "]"
  }

  @Test(arguments: [CollectionPolicy.replace, .union, .append, .prepend, .clearThenAppend])
  func repeatsOfOneIdInAFreshMapping(policy: CollectionPolicy) throws {
    let ratio = try growthRatio(n: IdentityMergeScalingTests.n) { size in
      let boxes = try boxMapping(policy).mapCollection(Self.repeatedBoxes(size))
      #expect(boxes.count == size && boxes.allSatisfy { $0 === boxes[0] })
      // The last occurrence's items, whatever the policy.
      #expect(boxes[0].items.map(\.id) == [size - 1])
    }
    #expect(ratio < 8, "4× the repeats took \(ratio)× the time")
  }

  /// The same through a collection operator (its objects are mapped from a copy onto the
  /// repeated box): the later values win there too. Before, the operator's relationship kept
  /// its policy there, so `.append` accumulated (quadratic: 8,000 repeats took 4 s).
  @Test(arguments: ["rows.@unionOfObjects", "rows.@distinctUnionOfObjects"])
  func repeatsOfOneIdThroughACollectionOperator(source: String) throws {
    let mapping = Mapping(ScaledBox.init) {
      Attribute("id", \.id)
      Relationship(SourcePath(source), \.items, itemMapping).policy(.append).optional()
    }.identified(by: \.id)
    let ratio = try growthRatio(n: IdentityMergeScalingTests.n) { size in
      let payload =
        "["
        + (0..<size).map { #"{"id": 7, "rows": [{"id": \#($0), "name": "n"}]}"# }
        .joined(separator: ", ") + "]"
      let boxes = try mapping.mapCollection(payload)
      #expect(boxes.count == size && boxes.allSatisfy { $0 === boxes[0] })
      #expect(boxes[0].items.map(\.id) == [size - 1])
    }
    #expect(ratio < 8, "4× the repeats took \(ratio)× the time")
  }

  @Test func manyDistinctIdsInAFreshMapping() throws {
    let ratio = try growthRatio(n: IdentityMergeScalingTests.n) { size in
      let items = itemsPayload(size) { $0 }.dropFirst(#"{"items": "#.count)
      let box = try boxMapping().map(
        #"{"id": 0, "owner": {"id": 1, "name": "o"}, "items": "# + items)
      #expect(box.items.count == size)
    }
    #expect(ratio < 8, "4× the children took \(ratio)× the time")
  }
}
