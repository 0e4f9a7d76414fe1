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
}
