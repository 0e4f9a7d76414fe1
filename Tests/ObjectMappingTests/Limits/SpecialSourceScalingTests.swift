import Foundation
import ObjectMapping
import ObjectMappingTestSupport
import Testing

/// Recursions through a key path across an array (`kids.node`) and through collection operators
/// (`rows.@unionOfObjects`, `replies.@count`) map in place on the payload: no level copies the
/// subtree below it, so time (and memory) grow with the payload, not with depth × payload.
/// Each level carries a 200-byte pad, so copying every level's subtree (what these rules did)
/// makes the work grow with the square of the depth: 16× from n to 4n against the 10× allowed.
@Suite(.serialized) struct SpecialSourceScalingTests {
  final class Branch: @unchecked Sendable {
    // @unchecked: built and read by one thread at a time.
    var pad = ""
    var count = 0
    var sizes = 0
    var kids: [Branch] = []

    /// Children read across an array: `{"kids": [{"node": {…}}, …]}`.
    static let fannedOut: Mapping<Branch> = Mapping(Branch.init) {
      Attribute("pad", \.pad)
      Relationship("kids.node", \.kids, lazy: { Branch.fannedOut }).optional()
    }
    /// The same, dropping children that fail and validating the collection.
    static let fannedOutChecked: Mapping<Branch> = Mapping(Branch.init) {
      Attribute("pad", \.pad)
      Relationship("kids.node", \.kids, lazy: { Branch.fannedOutChecked }).optional()
        .onChildFailure(.dropChild)
        .validate { (kids: inout [Branch]) in kids.count < 2 }
    }
    /// Children across an array, identified by `size`, to map onto an existing tree: each
    /// level merges into the existing child.
    static let fannedOutIdentified: Mapping<Branch> = Mapping(Branch.init) {
      Attribute("pad", \.pad)
      Attribute("size", \.sizes)
      Relationship("kids.node", \.kids, lazy: { Branch.fannedOutIdentified }).optional()
    }.identified(by: \.sizes)
    /// Children read through `@unionOfObjects`: `{"rows": [{…}, …]}`.
    static let union: Mapping<Branch> = Mapping(Branch.init) {
      Attribute("pad", \.pad)
      Relationship("rows.@unionOfObjects", \.kids, lazy: { Branch.union }).optional()
    }
    /// A plain recursion that also counts each level's children (`rows.@count`) and sums their
    /// sizes (`rows.size.@sum`).
    static let counted: Mapping<Branch> = Mapping(Branch.init) {
      Attribute("pad", \.pad)
      Attribute("rows.@count", \.count).optional()
      Attribute("rows.size.@sum", \.sizes).optional()
      Relationship("rows", \.kids, lazy: { Branch.counted }).optional()
    }
  }

  static let pad = String(repeating: "p", count: 200)

  /// `depth` levels, each `{"pad": …, "<key>": [<the next level, wrapped>]}`.
  static func chain(_ depth: Int, key: String, wrap: (String) -> String) -> Data {
    var text = #"{"pad": "\#(pad)", "size": 1}"#
    for _ in 0..<depth { text = #"{"pad": "\#(pad)", "size": 1, "\#(key)": [\#(wrap(text))]}"# }
    return Data(text.utf8)
  }

  static func depth(of branch: Branch) -> Int {
    var depth = 0
    var current = branch
    while let next = current.kids.first {
      depth += 1
      current = next
    }
    return depth
  }

  @Test func aRecursionThroughAKeyPathAcrossAnArray() async throws {
    // 40, 80 and 160 levels (three levels of JSON each: 481 at most).
    try await Scaling.expectLinear(
      "recursion through kids.node", base: 40, iterations: 10, allowedRatio: Scaling.deepRatio,
      prepare: { depth in (depth, Self.chain(depth, key: "kids") { #"{"node": \#($0)}"# }) },
      work: { depth, data in
        let branch = try Branch.fannedOut.map(data)
        #expect(Self.depth(of: branch) == depth)
      })
  }

  @Test func aRecursionThroughAKeyPathAcrossAnArrayWithChecks() async throws {
    try await Scaling.expectLinear(
      "recursion through kids.node, dropChild and a validator", base: 40, iterations: 10,
      allowedRatio: Scaling.deepRatio,
      prepare: { depth in (depth, Self.chain(depth, key: "kids") { #"{"node": \#($0)}"# }) },
      work: { depth, data in
        let branch = try Branch.fannedOutChecked.map(data)
        #expect(Self.depth(of: branch) == depth)
      })
  }

  @Test func aRecursionThroughAKeyPathAcrossAnArrayOntoAnExistingTree() async throws {
    try await Scaling.expectLinear(
      "recursion through kids.node onto an existing tree", base: 40, iterations: 10,
      allowedRatio: Scaling.deepRatio,
      prepare: { depth in
        let data = Self.chain(depth, key: "kids") { #"{"node": \#($0)}"# }
        return (depth, data, try Branch.fannedOutIdentified.map(data))
      },
      work: { depth, data, tree in
        var existing = tree
        try Branch.fannedOutIdentified.map(data, onto: &existing)
        #expect(existing === tree && Self.depth(of: existing) == depth)
      })
  }

  @Test func aRecursionThroughUnionOfObjects() async throws {
    // 60, 120 and 240 levels (two levels of JSON each).
    try await Scaling.expectLinear(
      "recursion through rows.@unionOfObjects", base: 60, iterations: 10,
      allowedRatio: Scaling.deepRatio,
      prepare: { depth in (depth, Self.chain(depth, key: "rows") { $0 }) },
      work: { depth, data in
        let branch = try Branch.union.map(data)
        #expect(Self.depth(of: branch) == depth)
      })
  }

  @Test func aRecursionCountingEachLevel() async throws {
    try await Scaling.expectLinear(
      "recursion with rows.@count", base: 60, iterations: 10, allowedRatio: Scaling.deepRatio,
      prepare: { depth in (depth, Self.chain(depth, key: "rows") { $0 }) },
      work: { depth, data in
        let branch = try Branch.counted.map(data)
        #expect(Self.depth(of: branch) == depth)
        #expect(branch.count == 1 && branch.sizes == 1)
      })
  }

  struct Line: Equatable, Sendable {
    var text = ""
    var number = 0
    var currency = ""
  }

  struct Order: Equatable, Sendable {
    var lines: [Line] = []
  }

  static let line = Mapping(Line.init) {
    Attribute("text", \.text)
    Attribute("@parent.number", \.number)
    Attribute("@payload.currency", \.currency)
  }
  static let order = Mapping(Order.init) { Relationship("lines", \.lines, line) }

  /// Every child reads `@parent.number` and `@payload.currency`, behind n other members: the
  /// lookup was a scan per child (n × n); it is made once per parent and remembered.
  @Test func parentAndPayloadSourcesBehindManyMembers() async throws {
    try await Scaling.expectLinear(
      "@parent and @payload behind n members, n children", base: 2_000,
      prepare: { count in
        let others = (0..<count).map { #""j\#($0)": 0"# }.joined(separator: ",")
        let lines = Array(repeating: #"{"text": "t"}"#, count: count).joined(separator: ",")
        return Data(#"{\#(others), "number": 7, "currency": "EUR", "lines": [\#(lines)]}"#.utf8)
      },
      work: { data in
        let order = try Self.order.map(data)
        #expect(order.lines.last == Line(text: "t", number: 7, currency: "EUR"))
      })
  }

  struct Kid: Equatable, Sendable {
    var id = 0
    var value: String?
  }

  struct Parent: Equatable, Sendable {
    var kids: [Kid] = []
  }

  /// The remembered member belongs to its step: a dynamic mapping that builds each child's
  /// mapping (a step freed after each child, whose address the next one may take) read the
  /// other case's member for about half the children.
  @Test func aRememberedParentMemberBelongsToItsStep() throws {
    @Sendable func mapping(_ key: String) -> Mapping<Kid> {
      Mapping(Kid.init) {
        Attribute("id", \.id)
        Attribute(SourcePath("@parent.\(key)"), \.value)
      }
    }
    let chooser = DynamicMapping<Kid>(choosing: { value in
      DynamicCase(mapping((try? value["key"]?.decode(String.self)) ?? "a"))
    })
    let parent = Mapping(Parent.init) { Relationship("kids", \.kids, chooser) }
    let fillers = (0..<17).map { #""f\#($0)": 0"# }.joined(separator: ",")
    let kids = (0..<400).map { #"{"id": \#($0), "key": "\#($0 % 3 == 0 ? "a" : "b")"}"# }
    let json = #"{\#(fillers), "a": "A", "b": "B", "kids": [\#(kids.joined(separator: ","))]}"#
    let mapped = try parent.map(json)
    #expect(mapped.kids.count == 400)
    for kid in mapped.kids {
      #expect(kid.value == (kid.id % 3 == 0 ? "A" : "B"), "kid \(kid.id)")
    }
  }
}
