import Foundation
import ObjectMapping
import Testing

/// What the default limits accept (512 levels of JSON nesting) decodes and encodes through the
/// `Codable` coders on a 512 KB thread stack in release builds (4 MB in debug builds, 16 MB
/// under AddressSanitizer: see ``DeepNestingTests``), with `JSONDecoder`'s and `JSONEncoder`'s
/// results (issue 34). Measured per level in release builds: 784 bytes for a recursive class
/// decoded or encoded, 155 bytes for a `Node` (Limits.md).
@Suite struct CodableDeepNestingTests {
  static let levels = DeepNestingTests.levels

  /// A recursive class, one object per level: `{"name": "x", "next": {...}}`.
  final class Chain: Codable, Equatable, @unchecked Sendable {
    // @unchecked: built and read by one thread at a time.
    var name = "x"
    var next: Chain?

    init(depth: Int) {
      var node: Chain?
      for _ in 0..<depth - 1 {
        let outer = Chain(next: node)
        node = outer
      }
      next = node
    }

    private init(next: Chain?) { self.next = next }

    static func == (lhs: Chain, rhs: Chain) -> Bool {
      var left: Chain? = lhs
      var right: Chain? = rhs
      while let a = left, let b = right {
        guard a.name == b.name else { return false }
        left = a.next
        right = b.next
      }
      return left == nil && right == nil
    }

    var depth: Int {
      var count = 0
      var node: Chain? = self
      while let current = node {
        count += 1
        node = current.next
      }
      return count
    }

    /// Frees the chain without recursion.
    deinit {
      var node = next
      next = nil
      while let current = node, isKnownUniquelyReferenced(&node) {
        node = current.next
        current.next = nil
      }
    }
  }

  /// A recursive struct through an array: two JSON levels per model level.
  struct Tree: Codable, Equatable, Sendable {
    var children: [Tree]
  }

  static func chainJSON(_ depth: Int) -> String {
    String(repeating: #"{"name":"x","next":"#, count: depth - 1) + #"{"name":"x"}"#
      + String(repeating: "}", count: depth - 1)
  }

  static func nestedArrays(_ depth: Int) -> String {
    String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
  }

  @Test func aNodeAtTheDepthLimitDecodesOnASmallStack() throws {
    let json = Self.nestedArrays(Self.levels)
    let decoded = DeepNestingTests.onSmallStack { () -> Bool in
      guard let node = try? FastJSONDecoder().decode(Node.self, from: json) else { return false }
      return node == (try? Node(jsonString: json))
    }
    #expect(decoded)
    // One level more is JSONDecoder's error too.
    let deeper = Self.nestedArrays(Self.levels + 1)
    let (ours, foundation) = Parity.decode(Node.self, Data(deeper.utf8))
    #expect(ours == foundation)
    #expect(ours == .error("dataCorrupted at : The given data was not valid JSON."))
  }

  @Test func aRecursiveModelAtTheDepthLimitDecodesOnASmallStack() throws {
    let json = Self.chainJSON(Self.levels)
    let depth = DeepNestingTests.onSmallStack { () -> Int in
      (try? FastJSONDecoder().decode(Chain.self, from: json))?.depth ?? 0
    }
    #expect(depth == Self.levels)
    // JSONDecoder reads the same chain (on the test's own, larger stack).
    let foundation = try JSONDecoder().decode(Chain.self, from: Data(json.utf8))
    #expect(try FastJSONDecoder().decode(Chain.self, from: json) == foundation)

    let tree = Self.nestedTree(Self.levels / 2)
    let treeDepth = DeepNestingTests.onSmallStack { () -> Int in
      (try? FastJSONDecoder().decode(Tree.self, from: tree)).map(Self.depth(of:)) ?? 0
    }
    #expect(treeDepth == Self.levels / 2)
    #expect(
      try FastJSONDecoder().decode(Tree.self, from: tree)
        == (try JSONDecoder().decode(Tree.self, from: Data(tree.utf8))))
  }

  /// A recursive struct through dictionaries keyed by numbers and by strings.
  struct NumberedTree: Codable, Equatable, Sendable {
    var children: [Int: NumberedTree]
  }

  struct NamedTree: Codable, Equatable, Sendable {
    var children: [String: NamedTree]
  }

  /// `[Int: Self]` went through the standard library's `Dictionary.init(from:)` and a keyed
  /// container, about 1.2 KB of stack per JSON level: 400 levels overflowed 512 KB in a
  /// release build. It is read member by member now, as `[String: Self]` is.
  @Test func dictionariesOfItselfAtTheDepthLimitDecodeOnASmallStack() throws {
    func chain(_ depth: Int, key: String) -> String {
      String(repeating: #"{"children":{"\#(key)":"#, count: depth - 1) + #"{"children":{}}"#
        + String(repeating: "}}", count: depth - 1)
    }
    @Sendable func depth<Tree>(_ tree: Tree, _ children: (Tree) -> Tree?) -> Int {
      var count = 1
      var level = tree
      while let child = children(level) {
        count += 1
        level = child
      }
      return count
    }
    let numbered = chain(Self.levels / 2, key: "7")
    let numberedDepth = DeepNestingTests.onSmallStack { () -> Int in
      (try? FastJSONDecoder().decode(NumberedTree.self, from: numbered))
        .map { depth($0) { $0.children[7] } } ?? 0
    }
    #expect(numberedDepth == Self.levels / 2)
    // Under a key strategy too (the keys are converted, then read member by member).
    let snakeDepth = DeepNestingTests.onSmallStack { () -> Int in
      let decoder = FastJSONDecoder()
      decoder.keyDecodingStrategy = .convertFromSnakeCase
      return (try? decoder.decode(NumberedTree.self, from: numbered))
        .map { depth($0) { $0.children[7] } } ?? 0
    }
    #expect(snakeDepth == Self.levels / 2)
    #expect(
      try FastJSONDecoder().decode(NumberedTree.self, from: numbered)
        == (try JSONDecoder().decode(NumberedTree.self, from: Data(numbered.utf8))))

    // And back: written member by member too (through `Dictionary.encode(to:)`, a
    // `[String: Self]` took 519 KB at these 511 levels).
    let numberedTree = try FastJSONDecoder().decode(NumberedTree.self, from: numbered)
    let numberedJSON = DeepNestingTests.onSmallStack { () -> String in
      (try? FastJSONEncoder().encode(numberedTree)).map { String(decoding: $0, as: UTF8.self) }
        ?? ""
    }
    #expect(numberedJSON == numbered)

    let named = chain(Self.levels / 2, key: "k")
    let namedDepth = DeepNestingTests.onSmallStack { () -> Int in
      (try? FastJSONDecoder().decode(NamedTree.self, from: named))
        .map { depth($0) { $0.children["k"] } } ?? 0
    }
    #expect(namedDepth == Self.levels / 2)
    let namedTree = try FastJSONDecoder().decode(NamedTree.self, from: named)
    let namedJSON = DeepNestingTests.onSmallStack { () -> String in
      (try? FastJSONEncoder().encode(namedTree)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
    #expect(namedJSON == named)
  }

  static func nestedTree(_ depth: Int) -> String {
    String(repeating: #"{"children":["#, count: depth - 1) + #"{"children":[]}"#
      + String(repeating: "]}", count: depth - 1)
  }

  static func depth(of tree: Tree) -> Int {
    var count = 1
    var level = tree
    while let child = level.children.first {
      count += 1
      level = child
    }
    return count
  }

  @Test func fiveHundredTwelveLevelsEncodeOnASmallStack() throws {
    let chain = Chain(depth: Self.levels)
    let node = try Node(jsonString: Self.nestedArrays(Self.levels))
    let encoded = DeepNestingTests.onSmallStack { () -> [Data] in
      [
        (try? FastJSONEncoder().encode(chain)) ?? Data(),
        (try? FastJSONEncoder().encode(node)) ?? Data(),
      ]
    }
    #expect(String(decoding: encoded[0], as: UTF8.self) == Self.chainJSON(Self.levels))
    #expect(String(decoding: encoded[1], as: UTF8.self) == Self.nestedArrays(Self.levels))
    // JSONEncoder writes one level less (511, see EncoderParityTests); there both write the
    // same bytes.
    let shorter = Chain(depth: Self.levels - 1)
    let foundation = JSONEncoder()
    foundation.outputFormatting = .sortedKeys
    #expect(try FastJSONEncoder().encode(shorter) == (try foundation.encode(shorter)))
    // Sorted keys (through a value tree) on a small stack too.
    let sorted = DeepNestingTests.onSmallStack { () -> Data in
      let encoder = FastJSONEncoder()
      encoder.outputFormatting = .sortedKeys
      return (try? encoder.encode(chain)) ?? Data()
    }
    #expect(sorted == encoded[0])
  }

  /// A recursive enum, two JSON levels per case (`{"link": {"_0": …}}`).
  indirect enum Link: Encodable {
    case end
    case link(Link)

    init(depth: Int) {
      var value = Link.end
      for _ in 0..<depth { value = .link(value) }
      self = value
    }
  }

  /// A class whose value is the next one's, through a single-value container: its coding path
  /// never grows.
  final class Wrapper: Encodable, @unchecked Sendable {
    // @unchecked: built and read by one thread at a time.
    var inner: Wrapper?
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(inner)
    }
  }

  /// A value whose `encode(to:)` nests containers in a loop, keyed or unkeyed.
  struct NestingLoop: Encodable {
    let levels: Int
    let keyed: Bool
    enum Key: CodingKey { case a }
    func encode(to encoder: any Encoder) throws {
      if keyed {
        var container = encoder.container(keyedBy: Key.self)
        for _ in 0..<levels { container = container.nestedContainer(keyedBy: Key.self, forKey: .a) }
      } else {
        var container = encoder.unkeyedContainer()
        for _ in 0..<levels { container = container.nestedUnkeyedContainer() }
      }
    }
  }

  /// Containers nested in a loop past the limit are the too-deep error: the value tree turned
  /// them into a `Node` by recursion and crashed at 100,000 on the 8 MB main thread; past the limit they
  /// are now detached boxes, never part of the tree.
  @Test func containersNestedInALoopAreTheTooDeepError() throws {
    let outcomes = Self.encodingOutcomesOnSmallStack {
      [NestingLoop(levels: 20_000, keyed: true), NestingLoop(levels: 20_000, keyed: false)]
    }
    #expect(outcomes == Array(repeating: Self.tooDeep, count: 4))
    let (encoder, foundation) = Self.sortedEncoders()
    for keyed in [true, false] {
      let value = NestingLoop(levels: 500, keyed: keyed)
      #expect(try encoder.encode(value) == (try foundation.encode(value)))
    }
  }

  /// Values too deep for JSON, a reference cycle and an endless chain of single-value
  /// containers are the too-deep `EncodingError`, on a small stack, with and without sorted
  /// keys; `JSONEncoder` overflows its stack on each (found by a probe of hostile `Codable`
  /// types: 1,000 levels of the enum crashed a 512 KB thread, 10,000 the main thread, through
  /// the value tree, which had no depth limit).
  @Test func tooDeepValuesAndCyclesAreAnErrorNotACrash() throws {
    let cycle = Chain(depth: 1)
    cycle.next = cycle
    let wrapper = Wrapper()
    wrapper.inner = wrapper
    defer {
      cycle.next = nil
      wrapper.inner = nil
    }
    let outcomes = Self.encodingOutcomesOnSmallStack {
      [Link(depth: 600), Link(depth: 2_000), cycle, wrapper]
    }
    #expect(outcomes == Array(repeating: Self.tooDeep, count: 8))
    // 254 links (510 levels) encode as JSONEncoder encodes them; 255 (512 levels) encode too.
    let (encoder, foundation) = Self.sortedEncoders()
    let ours = Result { try encoder.encode(Link(depth: 254)) }
    let theirs = Result { try foundation.encode(Link(depth: 254)) }
    #expect(try ours.get() == theirs.get())
    #expect((try? encoder.encode(Link(depth: 255))) != nil)
  }

  /// The description of the encoders' too-deep error.
  static let tooDeep = "Unable to encode the given top-level value to JSON."

  /// `FastJSONEncoder` and `JSONEncoder`, both writing sorted keys.
  static func sortedEncoders() -> (ours: FastJSONEncoder, foundation: JSONEncoder) {
    let ours = FastJSONEncoder()
    ours.outputFormatting = .sortedKeys
    let foundation = JSONEncoder()
    foundation.outputFormatting = .sortedKeys
    return (ours, foundation)
  }

  /// What `FastJSONEncoder` made of each of `values` on a small stack, without and then with
  /// sorted keys: `"encoded"`, or the too-deep error's description (or another error). The
  /// values are made on the small stack's thread (`[any Encodable]` is not `Sendable`).
  static func encodingOutcomesOnSmallStack(_ values: @escaping @Sendable () -> [any Encodable])
    -> [String]
  {
    DeepNestingTests.onSmallStack { () -> [String] in
      var outcomes: [String] = []
      for sorted in [false, true] {
        let encoder = FastJSONEncoder()
        if sorted { encoder.outputFormatting = .sortedKeys }
        for value in values() {
          do {
            _ = try encoder.encode(value)
            outcomes.append("encoded")
          } catch let EncodingError.invalidValue(_, context) {
            outcomes.append(context.debugDescription)
          } catch {
            outcomes.append("\(error)")
          }
        }
      }
      return outcomes
    }
  }
}
