import Testing

@testable import ObjectMapping

/// Attributes write stored struct properties in place; anything else (observers, computed
/// properties, classes, nested key paths) must still behave as a key-path assignment.
@Suite struct PropertyWriteTests {
  struct Observed {
    var changes = 0
    var name = "" { didSet { changes += 1 } }
    var storage: [String] = []
    var first: String {
      get { storage.first ?? "" }
      set { storage = [newValue, newValue] }
    }
    var inner = Inner()
  }

  struct Inner {
    var value = 0
    var label: String?
  }

  final class Box {
    var title = ""
    var count = 0
    init() {}
  }

  @Test func observersComputedAndNestedPropertiesGoThroughTheirSetters() throws {
    let mapping = Mapping(Observed.init) {
      Attribute("name", \.name)
      Attribute("first", \.first)
      Attribute("value", \.inner.value)
      Attribute("label", \.inner.label)
    }
    let observed = try mapping.map(#"{"name": "Ann", "first": "x", "value": 4, "label": null}"#)
    #expect(observed.name == "Ann")
    #expect(observed.changes == 1)
    #expect(observed.storage == ["x", "x"])
    #expect(observed.inner.value == 4)
    #expect(observed.inner.label == nil)
  }

  @Test func classModelsAreWrittenThroughKeyPaths() throws {
    let mapping = Mapping(Box.init) {
      Attribute("title", \.title)
      Attribute("count", \.count, default: 7)
    }
    let box = try mapping.map(#"{"title": "T"}"#)
    #expect(box.title == "T")
    #expect(box.count == 7)
  }

  @Test func inPlaceWritesReleaseTheReplacedValue() throws {
    final class Token: MappableValue {
      nonisolated(unsafe) static var live = 0
      let text: String
      init(payload: PayloadValue) throws {
        text = try String(payload: payload)
        Token.live += 1
      }
      deinit { Token.live -= 1 }
      func payloadNode() -> Node { .string(text) }
    }
    struct Holder {
      var token: Token?
    }
    let mapping = Mapping(Holder.init) { Attribute("t", \.token) }
    do {
      let holders = try mapping.mapCollection(#"[{"t": "a"}, {"t": "b"}, {"t": null}]"#)
      #expect(holders.map { $0.token?.text } == ["a", "b", nil])
      #expect(Token.live == 2)
    }
    #expect(Token.live == 0)
  }
}
