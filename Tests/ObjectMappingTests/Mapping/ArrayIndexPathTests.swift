import Foundation
import ObjectMapping
import Testing

/// ObjectMapper's `"nested.0.value"`: a key path step that is a decimal integer reads that
/// element when the value there is an array (issue 17).
@Suite("Key paths: array indexes")
struct ArrayIndexPathTests {
  struct Model: Equatable {
    var firstString = ""
    var secondValue = ""
    var deep: Int?
    var missing: String?
    var objectKey = ""
  }

  static let payload = """
    {"nested": {"strings": ["p", "q"], "array": [{"value": "x"}, {"value": "y"}],
     "grid": [[1, 2], [3, [40, 41]]]},
     "map": {"0": "zero"}}
    """

  static let mapping = Mapping(Model.init) {
    Attribute("nested.strings.0", \.firstString)
    Attribute("nested.array.1.value", \.secondValue)
    Attribute("nested.grid.1.1.0", \.deep)
    Attribute("nested.strings.5", \.missing)
    Attribute("map.0", \.objectKey)
  }

  @Test func indexesReadArrayElementsAtAnyDepth() throws {
    let model = try Self.mapping.map(Self.payload)
    #expect(
      model
        == Model(firstString: "p", secondValue: "y", deep: 40, missing: nil, objectKey: "zero"))
  }

  @Test func anIndexPastTheEndIsAbsentAndNamesItsPath() throws {
    let required = Mapping(Model.init) { Attribute("nested.strings.2", \.firstString) }
    do {
      _ = try required.map(Self.payload)
      Issue.record("expected an error")
    } catch {
      #expect(error.errors.map(\.path) == ["/nested/strings/2"])
    }
  }

  @Test func onlyPlainDecimalIndexesReadElements() throws {
    let odd = Mapping(Model.init) {
      Attribute("nested.strings.01", \.missing)  // a leading zero is a key, not an index
      Attribute("nested.strings.-1", \.deep)
      Attribute("map.0", \.objectKey)
    }
    let model = try odd.map(Self.payload)
    #expect(model.missing == nil)
    #expect(model.deep == nil)
  }

  @Test func indexesWorkInRelationshipsAndSpecialPaths() throws {
    struct Value: Equatable { var value = "" }
    struct Holder: Equatable { var second = Value() }
    let mapping = Mapping(Holder.init) {
      Relationship("nested.array.1", \.second, Mapping(Value.init) { Attribute("value", \.value) })
    }
    #expect(try mapping.map(Self.payload) == Holder(second: Value(value: "y")))
  }

  // MARK: The inverse builds arrays

  @Test func theInverseWritesIndexPathsAsArrays() throws {
    let mapping = Mapping(Model.init) {
      Attribute("nested.strings.0", \.firstString)
      Attribute("nested.array.1.value", \.secondValue)
      Attribute("nested.grid.1.1.0", \.deep)
    }
    let model = Model(firstString: "p", secondValue: "y", deep: 40)
    let json = String(decoding: try mapping.serialize(model), as: UTF8.self)
    #expect(
      json
        == #"{"nested":{"strings":["p"],"array":[null,{"value":"y"}],"grid":[null,[null,[40]]]}}"#)
    // Every value reads back from its index.
    #expect(try mapping.map(json) == model)
    // The same through a Node (sorted keys, form bodies).
    let node = try mapping.node(model)
    #expect(node["nested"]?["grid"]?[1]?[1]?[0] == 40)
  }

  @Test func indexesAreWrittenInOrderWithNullForNilAndGaps() throws {
    struct Pair: Equatable { var a: String?, c = "" }
    let mapping = Mapping(Pair.init) {
      Attribute("list.2", \.c)
      Attribute("list.0", \.a)
    }
    #expect(
      String(decoding: try mapping.serialize(Pair(a: nil, c: "z")), as: UTF8.self)
        == #"{"list":[null,null,"z"]}"#)
    #expect(
      String(decoding: try mapping.serialize(Pair(a: "x", c: "z")), as: UTF8.self)
        == #"{"list":["x",null,"z"]}"#)
    #expect(try mapping.map(#"{"list":["x",null,"z"]}"#) == Pair(a: "x", c: "z"))
    // Nothing written at all: the key is left out.
    let optionalOnly = Mapping(Pair.init) { Attribute("list.1", \.a) }
    #expect(String(decoding: try optionalOnly.serialize(Pair()), as: UTF8.self) == "{}")
  }

  @Test func aLevelMixingIndexesAndNamesStaysAnObject() throws {
    struct Pair: Equatable { var a = "", b = "" }
    let mapping = Mapping(Pair.init) {
      Attribute("map.0", \.a)
      Attribute("map.name", \.b)
    }
    let json = String(decoding: try mapping.serialize(Pair(a: "x", b: "y")), as: UTF8.self)
    #expect(json == #"{"map":{"0":"x","name":"y"}}"#)
    #expect(try mapping.map(json) == Pair(a: "x", b: "y"))
  }
}
