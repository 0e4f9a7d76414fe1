import Foundation
import ObjectMapping
import Testing

/// How values are written: a custom ``MappableValue`` through its `payloadNode()`, the built-in
/// types (and optionals and collections of them) through the library's direct writers, which
/// must write what `payloadNode()` would, with the mapping's date format and decimal output.
@Suite struct ValueWritingTests {
  /// A point written as `[x, y]`.
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

    func payloadNode() throws -> Node { [.double(x), .double(y)] }
  }

  /// A temperature written as a number (the example of MappingDSL.md).
  struct Celsius: MappableValue, Equatable {
    var degrees: Double
    init(degrees: Double) { self.degrees = degrees }
    init(payload: PayloadValue) throws { degrees = try payload.decode(Double.self) }
    func payloadNode() throws -> Node { .double(degrees) }
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

  /// A custom type's node is written as it is: `.double(-2)` stays `-2.0` (the built-in `Double`
  /// writes `-2`, as `JSONEncoder` does).
  @Test func aCustomTypeRoundTripsThroughJSON() throws {
    let shape = Shape(
      origin: Point(x: 1.5, y: -2), corner: nil,
      path: [Point(x: 0, y: 0.25), Point(x: 3, y: 4)], temperature: Celsius(degrees: 21.5))
    let json = try Self.shapeMapping.serialize(shape)
    #expect(
      String(decoding: json, as: UTF8.self)
        == #"{"origin":[1.5,-2.0],"path":[[0.0,0.25],[3.0,4.0]],"temperature":21.5}"#)
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
    #expect(
      try node.jsonString()
        == String(decoding: try Self.shapeMapping.serialize(shape), as: UTF8.self))
    #expect(try Self.shapeMapping.map(node) == shape)
  }

  /// Built-in values in every container the direct writers compose.
  struct Builtins {
    var small: Int8 = -3
    var large: UInt64 = .max
    var amount = Decimal(string: "12.50")!
    var link = URL(string: "https://example.com/a?b=c")!
    var id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    var raw: Node = ["k": [1, "x"]]
    var maybe: [Int?] = [1, nil]
    var nested: [String: [Int]?] = ["b": [2], "a": nil]
    var tags: Set<String> = ["z", "a"]
    var flags: [Bool] = [true, false]
  }

  static let builtinsMapping = Mapping(Builtins.init) {
    Attribute("small", \.small)
    Attribute("large", \.large)
    Attribute("amount", \.amount)
    Attribute("link", \.link)
    Attribute("id", \.id)
    Attribute("raw", \.raw)
    Attribute("maybe", \.maybe)
    Attribute("nested", \.nested)
    Attribute("tags", \.tags)
    Attribute("flags", \.flags)
  }

  @Test func theDirectWritersWriteWhatPayloadNodeWrites() throws {
    let value = Builtins()
    let json = String(decoding: try Self.builtinsMapping.serialize(value), as: UTF8.self)
    #expect(
      json
        == #"{"small":-3,"large":18446744073709551615,"amount":12.5,"#
        + #""link":"https://example.com/a?b=c","id":"e621e1f8-c36c-495a-93fc-0c247a3e6e5f","#
        + #""raw":{"k":[1,"x"]},"maybe":[1,null],"nested":{"a":null,"b":[2]},"tags":["a","z"],"#
        + #""flags":[true,false]}"#)
    // The same text as each value's own `payloadNode()` (sets and dictionaries sorted).
    let expected: Node = .object([
      .init("small", value.small.payloadNode()), .init("large", value.large.payloadNode()),
      .init("amount", try value.amount.payloadNode()), .init("link", value.link.payloadNode()),
      .init("id", value.id.payloadNode()), .init("raw", value.raw.payloadNode()),
      .init("maybe", try value.maybe.payloadNode()),
      .init("nested", try value.nested.payloadNode()),
      .init("tags", try value.tags.payloadNode()), .init("flags", try value.flags.payloadNode()),
    ])
    #expect(try expected.jsonString() == json)
    #expect(try Self.builtinsMapping.node(value).jsonString() == json)
  }

  @Test func datesInContainersTakeTheMappingsDateFormat() throws {
    struct Log: Equatable {
      var when: [Date] = []
      var last: Date?
      var named: [String: Date] = [:]
      var days: Set<Date> = []
    }
    let mapping = Mapping(Log.init) {
      Attribute("when", \.when)
      Attribute("last", \.last)
      Attribute("named", \.named)
      Attribute("days", \.days)
    }.dateFormats([.epochSeconds])
    let log = Log(
      when: [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 86_400)],
      last: Date(timeIntervalSince1970: 60), named: ["b": Date(timeIntervalSince1970: 2)],
      days: [Date(timeIntervalSince1970: 7)])
    let json = try mapping.serialize(log)
    #expect(
      String(decoding: json, as: UTF8.self)
        == #"{"when":[0,86400],"last":60,"named":{"b":2},"days":[7]}"#)
    #expect(try mapping.map(json) == log)
    #expect(try mapping.node(log).jsonString() == String(decoding: json, as: UTF8.self))
  }

  @Test func decimalsInContainersTakeTheInversesDecimalOutput() throws {
    struct Prices { var values: [Decimal?] = [Decimal(string: "1.10")!, nil] }
    let mapping = Mapping(Prices.init) { Attribute("values", \.values) }
    let text = String(
      decoding: try mapping.inverted().decimals(.string).serialize(Prices()), as: UTF8.self)
    #expect(text == #"{"values":["1.1",null]}"#)
    #expect(
      String(decoding: try mapping.serialize(Prices()), as: UTF8.self)
        == #"{"values":[1.1,null]}"#)
  }

  @Test func aNonFiniteElementFailsWithTheAttributesPath() throws {
    struct Series {
      var values: [Double] = [1, .nan]
      var label = "x"
    }
    let mapping = Mapping(Series.init) {
      Attribute("values", \.values)
      Attribute("label", \.label)
    }
    let error = #expect(throws: MappingErrors.self) { try mapping.serialize(Series()) }
    #expect(error?.description == "/values: cannot write the non-finite number nan")
  }

  /// The parts of a compound source are written by their own type's writing: a date part takes
  /// the mapping's date format, an array part is written as an array.
  @Test func compoundPartsAreWrittenWithTheirTypesWriting() throws {
    struct Span: Equatable {
      var range = ""
      var tags: [[String]] = []
    }
    let dates = ValueTransform<[Date], String>(
      forward: { parts in parts.map { "\(Int($0.timeIntervalSince1970))" }.joined(separator: "-") },
      reverse: { text in
        text.split(separator: "-").map { Date(timeIntervalSince1970: Double($0) ?? 0) }
      })
    let lists = ValueTransform<[[String]], [[String]]>(forward: { $0 }, reverse: { $0 })
    let mapping = Mapping(Span.init) {
      Attribute(sources: ["start", "end"], \.range, dates)
      Attribute(sources: ["a", "b"], \.tags, lists)
    }.dateFormats([.epochSeconds])
    let span = Span(range: "60-120", tags: [["x"], []])
    let json = String(decoding: try mapping.serialize(span), as: UTF8.self)
    #expect(json == #"{"start":60,"end":120,"a":["x"],"b":[]}"#)
    #expect(try mapping.map(json) == span)
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

/// Whole numbers held in a `Double`, a `Float` or an enum with `Double` raw values are written
/// as `JSONEncoder` writes them (`100`, not `100.0`), wherever they sit: a `Double` property
/// already was, an enum case or a `Float` wrote `.0`. A `Node` is written as it is.
@Suite struct WholeNumberWritingTests {
  enum WNGrade: Double, MappableValue {
    case low = 0
    case mid = 2.5
    case high = 100
  }
  struct WNScores: Sendable {
    var double: Double = 255
    var grade: WNGrade = .high
    var grades: [WNGrade] = [.low, .mid]
    var float: Float = 3
    var floats: [Float] = [1, 0.1, -0.0]
    var big: Float = 1e10
    var node: Node = .double(100)
  }

  @Test func wholeNumbersAreWrittenWithoutPointZero() throws {
    let mapping = Mapping(WNScores.init) {
      Attribute("double", \.double)
      Attribute("grade", \.grade)
      Attribute("grades", \.grades)
      Attribute("float", \.float)
      Attribute("floats", \.floats)
      Attribute("big", \.big)
      Attribute("node", \.node)
    }
    let json = String(decoding: try mapping.serialize(WNScores()), as: UTF8.self)
    #expect(
      json
        == #"{"double":255,"grade":100,"grades":[0,2.5],"float":3,"floats":[1,0.1,-0.0],"big":1e+10,"node":100.0}"#
    )
    // As JSONEncoder writes the same numbers.
    let encoded = try JSONEncoder().encode([Float(3), 1, 0.1])
    #expect(String(decoding: encoded, as: UTF8.self) == "[3,1,0.1]")
    // And they read back to the same values.
    let back = try mapping.map(json)
    #expect(back.grade == .high && back.grades == [.low, .mid])
    #expect(back.floats.map(\.bitPattern) == [Float(1), 0.1, -0.0].map(\.bitPattern))
  }
}
