import Foundation
import ObjectMapping
import Testing

/// Custom value types writing themselves through the public ``PayloadEncoder``.
@Suite struct PayloadEncoderTests {
  /// A point written as `[x, y]` without a `Node` (the example of `PayloadEncoder`'s docs).
  struct Point: MappableValue, Equatable {
    var x: Double
    var y: Double

    init(x: Double, y: Double) {
      self.x = x
      self.y = y
    }

    init(payload: PayloadValue) throws {
      guard let pair = payload.elements, pair.count == 2 else {
        throw payload.mismatch(expected: "an [x, y] pair")
      }
      x = try pair[0].decode(Double.self)
      y = try pair[1].decode(Double.self)
    }

    func encode(to encoder: inout PayloadEncoder) throws {
      try encoder.array {
        try $0.double(x)
        try $0.double(y)
      }
    }

    func payloadNode() throws -> Node { [.double(x), .double(y)] }
  }

  /// A temperature written as a number (the example of MappingDSL.md).
  struct Celsius: MappableValue, Equatable {
    var degrees: Double
    init(degrees: Double) { self.degrees = degrees }
    init(payload: PayloadValue) throws { degrees = try payload.decode(Double.self) }
    func payloadNode() throws -> Node { .double(degrees) }
    func encode(to encoder: inout PayloadEncoder) throws { try encoder.double(degrees) }
  }

  /// A label written as an object through the member encoder, with a computed date member
  /// written in the mapping's date format (read from the encoding context).
  struct Label: MappableValue, Equatable {
    var text: String
    var count: UInt64
    var when: Date

    init(text: String, count: UInt64, when: Date) {
      self.text = text
      self.count = count
      self.when = when
    }

    init(payload: PayloadValue) throws {
      guard let text = payload["text"], let count = payload["count"], let when = payload["when"]
      else { throw payload.mismatch(expected: "a label") }
      self.text = try text.decode(String.self)
      self.count = try count.decode(UInt64.self)
      self.when = try when.decode(Date.self)
    }

    func encode(to encoder: inout PayloadEncoder) throws {
      try encoder.object { members in
        try members.encode(text, forKey: "text")
        try members.encode(count, forKey: "count")
        try members.encode(when, forKey: "when")
      }
    }

    func payloadNode() throws -> Node {
      .object([
        .init("text", .string(text)), .init("count", .decimal(String(count))),
        .init("when", try when.payloadNode()),
      ])
    }
  }

  struct Shape: Equatable {
    var origin = Point(x: 0, y: 0)
    var corner: Point?
    var path: [Point] = []
    var temperature = Celsius(degrees: 0)
  }

  static let shapeMapping = Mapping(Shape.init) {
    Attribute("origin", \.origin)
    Attribute("corner", \.corner)
    Attribute("path", \.path, default: [])
    Attribute("temperature", \.temperature)
  }

  @Test func aCustomTypeRoundTripsThroughJSONWithoutANode() throws {
    let shape = Shape(
      origin: Point(x: 1.5, y: -2), corner: nil,
      path: [Point(x: 0, y: 0.25), Point(x: 3, y: 4)], temperature: Celsius(degrees: 21.5))
    let json = try Self.shapeMapping.serialize(shape)
    #expect(
      String(decoding: json, as: UTF8.self)
        == #"{"origin":[1.5,-2],"path":[[0,0.25],[3,4]],"temperature":21.5}"#)
    #expect(try Self.shapeMapping.map(json) == shape)
  }

  @Test func aCustomTypeRoundTripsThroughAFormBody() throws {
    let mapping = Mapping(Shape.init) {
      Attribute("temperature", \.temperature)
      Attribute("corner", \.corner)
    }
    let shape = Shape(corner: nil, temperature: Celsius(degrees: -3.5))
    let body = try mapping.serialize(shape, as: .formURLEncoded)
    #expect(String(decoding: body, as: UTF8.self) == "temperature=-3.5")
    let reread = try mapping.map(.payload(body, contentType: "application/x-www-form-urlencoded"))
    #expect(reread == shape)
  }

  @Test func aCustomTypeWritesTheSameIntoANodeAsIntoJSON() throws {
    let shape = Shape(origin: Point(x: 1, y: 2), corner: Point(x: 0.5, y: 0), path: [])
    let node = try Self.shapeMapping.node(shape)
    #expect(node["corner"] == [.double(0.5), .integer(0)])
    #expect(node["origin"] == [.integer(1), .integer(2)])
    #expect(try Self.shapeMapping.map(node) == shape)
  }

  @Test func objectMembersAndTheDateFormatOfTheMappingReachTheEncoder() throws {
    struct Tagged: Equatable {
      var label = Label(text: "", count: 0, when: Date(timeIntervalSince1970: 0))
    }
    let mapping = Mapping(Tagged.init) {
      Attribute("label", \.label)
    }.dateFormats([.epochSeconds])
    let tagged = Tagged(
      label: Label(text: "big", count: .max, when: Date(timeIntervalSince1970: 86_400)))
    let json = try mapping.serialize(tagged)
    #expect(
      String(decoding: json, as: UTF8.self)
        == #"{"label":{"text":"big","count":18446744073709551615,"when":86400}}"#)
    #expect(try mapping.map(json) == tagged)
  }

  /// A value written through the encoder's other methods.
  struct Everything: MappableValue {
    init() {}
    init(payload: PayloadValue) throws {}
    func payloadNode() throws -> Node { .null }
    func encode(to encoder: inout PayloadEncoder) throws {
      try encoder.array { elements in
        elements.string("s")
        elements.bool(true)
        elements.null()
        elements.integer(Int8(-3))
        elements.integer(UInt64.max)
        try elements.number(text: "12.50")
        try elements.node(["k": [1, "x"]])
        try elements.encode(["b": 2, "a": 1] as [String: Int])
        try elements.object { members in
          try members.encode(Node.null, forKey: "n")
        }
      }
    }
  }

  @Test func everyWritingMethodWritesOneValue() throws {
    struct Holder { var value = Everything() }
    let mapping = Mapping(Holder.init) { Attribute("v", \.value) }
    let json = try mapping.serialize(Holder())
    #expect(
      String(decoding: json, as: UTF8.self)
        == #"{"v":["s",true,null,-3,18446744073709551615,12.50,{"k":[1,"x"]},{"a":1,"b":2},{"n":null}]}"#
    )
    let node = try mapping.node(Holder())
    #expect(try node.jsonString() == String(decoding: json, as: UTF8.self))
  }

  /// A value whose encoding fails part way through an object.
  struct BadNumber: MappableValue {
    init() {}
    init(payload: PayloadValue) throws {}
    func payloadNode() throws -> Node { .null }
    func encode(to encoder: inout PayloadEncoder) throws {
      try encoder.object { members in
        try members.encode("fine", forKey: "ok")
        try members.encode(Double.nan, forKey: "bad")
      }
    }
  }

  @Test func numberTextIsCheckedAndFailuresNameThePath() throws {
    struct Amount: MappableValue {
      var text: String
      init(text: String) { self.text = text }
      init(payload: PayloadValue) throws { text = "" }
      func payloadNode() throws -> Node { .null }
      func encode(to encoder: inout PayloadEncoder) throws { try encoder.number(text: text) }
    }
    struct Holder {
      var amount = Amount(text: "12,5")
      var bad = BadNumber()
    }
    let mapping = Mapping(Holder.init) {
      Attribute("amount", \.amount)
      Attribute("bad", \.bad)
    }
    let error = #expect(throws: MappingErrors.self) { try mapping.serialize(Holder()) }
    #expect(
      error?.description
        == """
        /amount: cannot serialize: "12,5": not a JSON number
        /bad: cannot write the non-finite number nan
        """)
  }

  /// A type reading a list of integers from an array through `[Int]`'s own conversion.
  struct Scores: MappableValue, Equatable {
    var values: [Int]
    init(values: [Int]) { self.values = values }
    init(payload: PayloadValue) throws { values = try [Int](payload: payload) }
    func payloadNode() throws -> Node { .array(values.map { .integer(Int64($0)) }) }
  }

  @Test func arraysOfValuesReadEveryElementAndRejectOtherValues() throws {
    struct Holder: Equatable { var scores = Scores(values: []) }
    let mapping = Mapping(Holder.init) { Attribute("s", \.scores) }
    #expect(try mapping.map(#"{"s": [3, "4"]}"#) == Holder(scores: Scores(values: [3, 4])))
    // Lenient coercion (the default) reads a lone value as a one-element array; strict does not.
    #expect(try mapping.map(#"{"s": "12"}"#) == Holder(scores: Scores(values: [12])))
    let error = #expect(throws: MappingErrors.self) {
      try mapping.map(#"{"s": "12"}"#, with: MappingOptions(coercion: .strict))
    }
    #expect(error?.description == #"/s: expected an array of an integer, found "12""#)
    let elements = #expect(throws: MappingErrors.self) { try mapping.map(#"{"s": [1, "x", []]}"#) }
    #expect(
      elements?.description == """
        /s/1: cannot convert "x" to an integer
        /s/2: expected an integer, found an array
        """)
  }
}
