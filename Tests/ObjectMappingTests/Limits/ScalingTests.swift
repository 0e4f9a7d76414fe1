import Foundation
import ObjectMapping
import ObjectMappingTestSupport
import Testing

/// Time grows linearly with the payload for every shape a hostile payload can take (STYLE §1b):
/// see ``Scaling`` for how this is checked without timing anything absolute.
@Suite(.serialized) struct ScalingTests {
  struct Text: Equatable {
    var text = ""
  }

  struct Numbers: Equatable {
    var values: [Int] = []
  }

  struct Amount: Equatable {
    var decimal: Decimal?
    var double: Double?
    var integer: Int?
  }

  struct Wide: Equatable {
    var a = 0
    var b = ""
    var c: Double?
    var d = false
  }

  struct Item: Equatable {
    var id = 0
    var name = ""
  }

  struct Tree: Equatable {
    var id = 0
    var children: [Tree] = []
  }

  struct Catalog: Equatable {
    var items: [String: Item] = [:]
  }

  static let textMapping = Mapping(Text.init) { Attribute("text", \.text) }
  static let numbersMapping = Mapping(Numbers.init) { Attribute("values", \.values) }
  static let amountMapping = Mapping(Amount.init) {
    Attribute("decimal", \.decimal)
    Attribute("double", \.double)
    Attribute("integer", \.integer)
  }
  static let wideMapping = Mapping(Wide.init) {
    Attribute("a", \.a)
    Attribute("b", \.b)
    Attribute("c", \.c)
    Attribute("d", \.d)
  }
  static let itemMapping = Mapping(Item.init) {
    Attribute("id", \.id)
    Attribute("name", \.name)
  }
  static let treeMapping: Mapping<Tree> = Mapping(Tree.init) {
    Attribute("id", \.id)
    Relationship("children", \.children, lazy: { ScalingTests.treeMapping }).optional()
  }
  static let catalogMapping = Mapping(Catalog.init) {
    Relationship("items", \.items, itemMapping)
  }

  /// `{"text": "<n characters>"}`.
  static func textPayload(_ count: Int, unit: String) -> Data {
    let repeated = String(repeating: unit, count: count / unit.count)
    return Data(#"{"text": "\#(repeated)"}"#.utf8)
  }

  @Test func longStringsWithoutEscapes() async throws {
    try await Scaling.expectLinear(
      "long string, no escapes", base: 512 * 1024,
      prepare: { Self.textPayload($0, unit: "abcdéfgh") },
      work: { data in
        _ = try Node(jsonData: data)
        _ = try Self.textMapping.map(data)
      })
  }

  @Test func longStringsWithEscapes() async throws {
    try await Scaling.expectLinear(
      "long string, escapes", base: 64 * 1024,
      prepare: { Self.textPayload($0, unit: #"a\n\"\u00e9\ud83d\ude00"#) },
      work: { data in
        _ = try Node(jsonData: data)
        _ = try Self.textMapping.map(data)
      })
  }

  @Test func stringsWriteLinearly() async throws {
    try await Scaling.expectLinear(
      "writing a long string with escapes", base: 32 * 1024,
      prepare: {
        Node.object([Node.Member("text", .string(String(repeating: "a\n\"é😀", count: $0 / 5)))])
      },
      work: { node in _ = try node.jsonData() })
  }

  @Test func manyObjectMembers() async throws {
    // The looked-up keys come last, after n others.
    try await Scaling.expectLinear(
      "many object members", base: 8 * 1024,
      prepare: { count in
        let members = (0..<count).map { #""k\#($0)": \#($0)"# }.joined(separator: ",")
        return Data(#"{\#(members), "a": 1, "b": "x", "c": 2.5, "d": true}"#.utf8)
      },
      work: { data in
        _ = try Node(jsonData: data)
        _ = try Self.wideMapping.map(data)
      })
  }

  @Test func manyKeysLookedUp() async throws {
    // A dictionary relationship: every one of n keys is read and mapped.
    try await Scaling.expectLinear(
      "dictionary of n objects", base: 2 * 1024,
      prepare: { count in
        let members = (0..<count).map { #""item\#($0)": {"id": \#($0), "name": "n"}"# }
        return Data(#"{"items": {\#(members.joined(separator: ","))}}"#.utf8)
      },
      work: { data in
        let catalog = try Self.catalogMapping.map(data)
        #expect(catalog.items.count > 0)
      })
  }

  @Test func longArrays() async throws {
    try await Scaling.expectLinear(
      "long arrays", base: 32 * 1024,
      prepare: { count in
        Data(#"{"values": [\#((0..<count).map(String.init).joined(separator: ","))]}"#.utf8)
      },
      work: { data in
        _ = try Node(jsonData: data)
        _ = try Self.numbersMapping.map(data)
      })
  }

  @Test func deepNestingUpToTheLimit() async throws {
    // 128, 256 and 512 levels: the reader's default limit.
    try await Scaling.expectLinear(
      "nested arrays", base: 128, iterations: 100, allowedRatio: Scaling.deepRatio,
      prepare: { depth in
        Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
      },
      work: { data in _ = try Node(jsonData: data) })
  }

  @Test func deepRecursiveMappingsUpToTheLimit() async throws {
    // A tree 128, 256 and 512 levels deep (children arrays): objects and arrays alternate, so
    // 255 levels of the tree reach the 511th level of the payload.
    try await Scaling.expectLinear(
      "recursive mapping, deep", base: 63, iterations: 20, allowedRatio: Scaling.deepRatio,
      prepare: { depth in
        var text = #"{"id": 0}"#
        for level in 0..<depth { text = #"{"id": \#(level), "children": [\#(text)]}"# }
        return Data(text.utf8)
      },
      work: { data in _ = try Self.treeMapping.map(data) })
  }

  @Test func failingDeepRecursiveMappings() async throws {
    // The innermost child fails: the error's path is as long as the payload is deep.
    try await Scaling.expectLinear(
      "recursive mapping, deep, failing", base: 63, iterations: 20, allowedRatio: Scaling.deepRatio,
      prepare: { depth in
        var text = #"{"id": "x"}"#
        for level in 0..<depth { text = #"{"id": \#(level), "children": [\#(text)]}"# }
        return Data(text.utf8)
      },
      work: { data in
        #expect(throws: MappingErrors.self) { try Self.treeMapping.map(data) }
      })
  }

  @Test(arguments: ["decimal", "double", "integer"])
  func hugeNumbers(key: String) async throws {
    // 256 KB, 512 KB and 1 MB of digits, with a fraction for the decimal and double cases.
    try await Scaling.expectLinear(
      "\(key) from a huge number", base: 256 * 1024, repeats: 2,
      prepare: { count in
        let digits = "7" + String(repeating: "3", count: count - 1)
        let number = key == "integer" ? digits : digits + ".5e-3"
        return Data(#"{"\#(key)": \#(number)}"#.utf8)
      },
      work: { data in
        _ = try? Self.amountMapping.map(data)
        _ = try Node(jsonData: data)
      })
  }

  @Test func manyFailingElementsAreCollected() async throws {
    try await Scaling.expectLinear(
      "failing elements", base: 1024,
      prepare: { count in
        let items = (0..<count).map { #"{"id": "x\#($0)", "name": 1}"# }
        return Data("[\(items.joined(separator: ","))]".utf8)
      },
      work: { data in
        do throws(MappingErrors) {
          _ = try Self.itemMapping.mapCollection(data)
          Issue.record("failing elements are thrown")
        } catch {
          #expect(error.partialResult(as: [Item].self)?.isEmpty == true)
        }
      })
  }

  @Test func formBodies() async throws {
    try await Scaling.expectLinear(
      "form bodies", base: 2 * 1024, repeats: 3,
      prepare: { count in
        (0..<count).map { "k\($0)=v%20\($0)&tags[]=\($0)&user[\($0)][name]=a+b" }
          .joined(separator: "&")
      },
      work: { text in
        let node = try Node(formURLEncoded: text)
        _ = try node.formURLEncodedString()
      })
  }

  @Test func foundationTrees() async throws {
    try await Scaling.expectLinear(
      "Node(foundation:)", base: 1024, repeats: 3,
      prepare: { count -> Any in
        let element: [String: Any] = ["id": 1, "name": "n", "ok": true, "x": 1.5, "tags": ["a"]]
        var wide: [String: Any] = [:]
        for index in 0..<count { wide["k\(index)"] = element }
        return ["list": [Any](repeating: element, count: count), "wide": wide] as [String: Any]
      },
      work: { tree in
        let node = try Node(foundation: tree)
        _ = node.foundationValue
      })
  }

  @Test func serializingLongModels() async throws {
    try await Scaling.expectLinear(
      "serializing a long collection and a long array", base: 4 * 1024,
      prepare: { count in
        (
          (0..<count).map { Item(id: $0, name: "item \($0)") },
          Numbers(values: Array(0..<count * 4))
        )
      },
      work: { items, numbers in
        _ = try Self.itemMapping.serializeCollection(items)
        _ = try Self.numbersMapping.serialize(numbers)
      })
  }

  @Test func deepNodesWriteLinearly() async throws {
    try await Scaling.expectLinear(
      "writing a deep node", base: 63, iterations: 20, allowedRatio: Scaling.deepRatio,
      prepare: { depth in
        var node = Node.object([Node.Member("id", .integer(0))])
        for level in 0..<depth {
          node = .object([
            Node.Member("id", .integer(Int64(level))), Node.Member("children", .array([node])),
          ])
        }
        return node
      },
      work: { node in _ = try node.jsonData() })
  }

  @Test func serializingDeepModels() async throws {
    try await Scaling.expectLinear(
      "serializing a deep tree", base: 63, iterations: 20, allowedRatio: Scaling.deepRatio,
      prepare: { depth in
        var tree = Tree(id: 0)
        for level in 0..<depth { tree = Tree(id: level, children: [tree]) }
        return tree
      },
      work: { tree in _ = try Self.treeMapping.serialize(tree) })
  }
}
