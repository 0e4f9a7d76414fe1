import Foundation
import ObjectMapping
import Testing

/// The serialized text of a payload.
private func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

/// Every built-in scalar type with a writer of its own, plain and optional, next to types that
/// go through the generic writing (a raw-representable enum, a date).
private struct Scalars: Equatable {
  enum Level: String, MappableValue { case low, high }

  var text = ""
  var optionalText: String?
  var int = 0
  var optionalInt: Int?
  var int64: Int64 = 0
  var optionalInt64: Int64?
  var flag = false
  var optionalFlag: Bool?
  var double = 0.0
  var optionalDouble: Double?
  var level = Level.low
  var optionalLevel: Level?
}

private let scalarsMapping = Mapping(Scalars.init) {
  Attribute("text", \.text)
  Attribute("optional_text", \.optionalText)
  Attribute("int", \.int)
  Attribute("optional_int", \.optionalInt)
  Attribute("int64", \.int64)
  Attribute("optional_int64", \.optionalInt64)
  Attribute("flag", \.flag)
  Attribute("optional_flag", \.optionalFlag)
  Attribute("double", \.double)
  Attribute("optional_double", \.optionalDouble)
  Attribute("level", \.level)
  Attribute("optional_level", \.optionalLevel)
}

private let filled = Scalars(
  text: "a\"b", optionalText: "c", int: -3, optionalInt: 4, int64: Int64.min, optionalInt64: 5,
  flag: true, optionalFlag: false, double: 0.5, optionalDouble: 2, level: .high,
  optionalLevel: .low)

@Suite("Serialization: scalar values and in-place relationships")
struct EncodeStepTests {
  @Test func everyScalarTypeIsWrittenPlainAndOptional() throws {
    #expect(
      text(try scalarsMapping.serialize(filled))
        == #"{"text":"a\"b","optional_text":"c","int":-3,"optional_int":4,"int64":-9223372036854775808,"optional_int64":5,"flag":true,"optional_flag":false,"double":0.5,"optional_double":2,"level":"high","optional_level":"low"}"#
    )
    #expect(try scalarsMapping.map(scalarsMapping.serialize(filled)) == filled)
  }

  @Test func nilScalarsFollowTheNullPolicy() throws {
    let empty = Scalars()
    #expect(
      text(try scalarsMapping.serialize(empty))
        == #"{"text":"","int":0,"int64":0,"flag":false,"double":0,"level":"low"}"#)
    #expect(
      text(try scalarsMapping.nulls(.include).serialize(empty))
        == #"{"text":"","optional_text":null,"int":0,"optional_int":null,"int64":0,"optional_int64":null,"flag":false,"optional_flag":null,"double":0,"optional_double":null,"level":"low","optional_level":null}"#
    )
    let node = try scalarsMapping.inverted().nulls(.include).node(empty)
    #expect(node["optional_double"] == .null)
    #expect(node["optional_flag"] == .null)
  }

  @Test func nonFiniteDoublesAreErrorsAtTheirPathAndTheKeyIsTakenBack() throws {
    var value = filled
    value.optionalDouble = .infinity
    #expect(throws: MappingErrors.self) { try scalarsMapping.serialize(value) }
    do {
      _ = try scalarsMapping.serialize(value)
    } catch {
      #expect(error.errors.map(\.path) == ["/optional_double"])
    }
    let node = try scalarsMapping.inverted().removing("optional_double").node(value)
    #expect(node["optional_double"] == nil)
  }

  @Test func prettyOutputWritesTheSameMembers() throws {
    struct Pair: Equatable {
      var name = ""
      var count: Int?
    }
    let mapping = Mapping(Pair.init) {
      Attribute("name", \.name)
      Attribute("meta.count", \.count)
    }
    let pretty = try mapping.inverted().serialize(
      Pair(name: "x", count: 2), as: .json(.prettyPrinted))
    #expect(text(pretty) == "{\n  \"name\": \"x\",\n  \"meta\": {\n    \"count\": 2\n  }\n}")
    // An empty nested object is taken back, in both layouts.
    #expect(text(try mapping.serialize(Pair(name: "x"))) == #"{"name":"x"}"#)
    let emptyPretty = try mapping.inverted().serialize(
      Pair(name: "x"), as: .json(.prettyPrinted))
    #expect(text(emptyPretty) == "{\n  \"name\": \"x\"\n}")
  }

  @Test func childrenAreWrittenInPlaceWithTheirPaths() throws {
    struct Leaf: Equatable {
      var value = 0.0
    }
    struct Tree: Equatable {
      var leaves: [Leaf] = []
      var first: Leaf?
      var main = Leaf()
    }
    let leaf = Mapping(Leaf.init) { Attribute("value", \.value) }
    let tree = Mapping(Tree.init) {
      Relationship("leaves", \.leaves, leaf)
      Relationship("first", \.first, leaf)
      Relationship("main", \.main, leaf)
    }
    let model = Tree(leaves: [Leaf(value: 1), Leaf(value: 2.5)], first: Leaf(value: 3))
    #expect(
      text(try tree.serialize(model))
        == #"{"leaves":[{"value":1},{"value":2.5}],"first":{"value":3},"main":{"value":0}}"#)
    #expect(
      text(try tree.nulls(.include).serialize(Tree()))
        == #"{"leaves":[],"first":null,"main":{"value":0}}"#)
    var broken = model
    broken.leaves[1].value = .nan
    broken.first = Leaf(value: -.infinity)
    do {
      _ = try tree.serialize(broken)
      Issue.record("a NaN was written")
    } catch {
      #expect(error.errors.map(\.path) == ["/leaves/1/value", "/first/value"])
    }
  }

  /// The compact JSON loop writes a stored scalar attribute itself (at its offset), and calls
  /// the step for every other one (a class's property, a computed one, a date format of its
  /// own): both kinds, side by side, write what the pretty layout and a node write.
  @Test func scalarsWrittenByTheCompactLoopMatchTheStepsWriting() throws {
    struct Inner: Equatable {
      var label: String? = nil
      var flag: Bool? = nil
    }
    final class Holder {
      var count: Int
      init(count: Int) { self.count = count }
    }
    struct Model {
      var inner = Inner()
      var name = "caf\u{E9} \"quoted\"\n"
      var id: Int64 = -7
      var total: Int? = nil
      var holder = Holder(count: 3)
      var doubled: Int {
        get { (total ?? 0) * 2 }
        set { total = newValue / 2 }
      }
    }
    let mapping = Mapping(Model.init) {
      Attribute("name", \.name)
      Attribute("meta.label", \.inner.label)
      Attribute("meta.flag", \.inner.flag).nulls(.include)
      Attribute("id", \.id)
      Attribute("total", \.total)
      Attribute("count", \.holder.count)
      Attribute("doubled", \.doubled)
    }
    let inverse = mapping.inverted()
    #expect(
      text(try mapping.serialize(Model()))
        == #"{"name":"caf\#u{E9} \"quoted\"\n","meta":{"flag":null},"id":-7,"count":3,"doubled":0}"#
    )
    let full = Model(inner: Inner(label: "x", flag: true), total: 21)
    #expect(
      text(try mapping.serialize(full))
        == #"{"name":"caf\#u{E9} \"quoted\"\n","meta":{"label":"x","flag":true},"id":-7,"total":21,"count":3,"doubled":42}"#
    )
    for model in [Model(), full] {
      for nulls in [NullPolicy.omit, .include] {
        let compact = try inverse.nulls(nulls).serialize(model)
        let pretty = try inverse.nulls(nulls).serialize(model, as: .json(.prettyPrinted))
        #expect(try Node(jsonData: compact) == Node(jsonData: pretty))
        #expect(try Node(jsonData: compact) == inverse.nulls(nulls).node(model))
      }
    }
  }
}
