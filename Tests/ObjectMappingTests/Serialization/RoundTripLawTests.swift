import Foundation
import ObjectMapping
import ObjectMappingTesting
import Testing

/// Both round-trip laws for every attribute kind, value type and built-in transform.
@Suite("Round-trip laws")
struct RoundTripLawTests {
  enum Status: String, Equatable, MappableValue {
    case draft
    case published
  }

  struct Everything: Equatable {
    var int = 0
    var int8: Int8 = 0
    var uint64: UInt64 = 0
    var double = 0.0
    var float: Float = 0
    var bool = false
    var string = ""
    var decimal = Decimal(0)
    var date = Date(timeIntervalSince1970: 0)
    var url = URL(fileURLWithPath: "/")
    var uuid = UUID()
    var data = Data()
    var node: Node = .null
    var status = Status.draft
    var optional: String?
    var list: [Int] = []
    var set: Set<String> = []
    var dictionary: [String: Double] = [:]
    var nestedOptional: [Int?] = []
  }

  static let everythingMapping = Mapping(Everything.init) {
    Attribute("int", \.int)
    Attribute("int8", \.int8)
    Attribute("uint64", \.uint64)
    Attribute("double", \.double)
    Attribute("float", \.float)
    Attribute("bool", \.bool)
    Attribute("string", \.string)
    Attribute("decimal", \.decimal)
    Attribute("date", \.date)
    Attribute("url", \.url)
    Attribute("uuid", \.uuid)
    Attribute("data", \.data)
    Attribute("node", \.node)
    Attribute("status", \.status)
    Attribute("optional", \.optional)
    Attribute("list", \.list)
    Attribute("set", \.set)
    Attribute("dictionary", \.dictionary)
    Attribute("nested.optional", \.nestedOptional)
  }

  static let sample = Everything(
    int: -42, int8: -8, uint64: UInt64.max, double: 0.1, float: 1.5, bool: true,
    string: "Zoë \"quoted\" \n line", decimal: Decimal(string: "12345678901234567890.12345") ?? 0,
    date: Date(timeIntervalSince1970: 1_310_013_328.25),
    url: URL(string: "https://example.com/a?b=c") ?? URL(fileURLWithPath: "/"),
    uuid: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID(),
    data: Data([0, 1, 2, 250]), node: ["any": [1, "two", nil]], status: .published,
    optional: "here", list: [3, 1, 2], set: ["b", "a"], dictionary: ["x": 1.5, "y": -2],
    nestedOptional: [1, nil, 3])

  @Test func valueLawForEveryValueType() throws {
    let laws = RoundTripLaws(Self.everythingMapping)
    try laws.checkValue(Self.sample)
    var sparse = Self.sample
    sparse.optional = nil
    sparse.node = .null
    try laws.checkValue(sparse)
  }

  @Test func payloadLawForEveryValueType() throws {
    let payload = try Self.everythingMapping.node(Self.sample)
    try RoundTripLaws(Self.everythingMapping).checkPayload(payload)
    // Unknown keys are dropped by the round trip: the law allows them only where told.
    var withUnknown = payload
    if case .object(var members) = withUnknown {
      members.append(Node.Member("unknown", 1))
      withUnknown = .object(members)
    }
    #expect(throws: RoundTripViolation.self) {
      try RoundTripLaws(Self.everythingMapping).checkPayload(withUnknown)
    }
    try RoundTripLaws(Self.everythingMapping).checkPayload(withUnknown, allowing: ["/unknown"])
  }

  @Test func violationsNameTheLawAndThePath() throws {
    struct Pair: Equatable {
      var left = ""
      var right = ""
    }
    // A lossy mapping: `right` is never serialized.
    let lossy = Mapping(Pair.init) {
      Attribute("left", \.left)
      Attribute("right", \.right, default: "").decodeOnly()
    }
    let laws = RoundTripLaws(lossy)
    #expect(throws: RoundTripViolation.self) { try laws.checkValue(Pair(left: "a", right: "b")) }
    do {
      try laws.checkPayload(json: #"{"left":"a","right":"b"}"#)
      Issue.record("a lossy mapping passed the payload law")
    } catch {
      #expect(
        error.description == "payload law broken at /right: missing from the serialized payload")
    }
    // A transform whose reverse disagrees with its forward.
    let skewed = Mapping(Pair.init) {
      Attribute(
        "left", \.left,
        ValueTransform<String, String>(forward: { $0 }, reverse: { $0.uppercased() }))
    }
    do {
      try RoundTripLaws(skewed).checkPayload(json: #"{"left":"a"}"#)
      Issue.record("a skewed transform passed the payload law")
    } catch {
      #expect(error.description == #"payload law broken at /left: expected "a", found "A""#)
    }
  }

  struct Transformed: Equatable {
    var day = Date(timeIntervalSince1970: 0)
    var iso = Date(timeIntervalSince1970: 0)
    var seconds = Date(timeIntervalSince1970: 0)
    var millis = Date(timeIntervalSince1970: 0)
    var words: [String] = []
    var flag = false
    var count = 0
    var ratio = 0.0
    var status = Status.draft
    var chained = 0
    var maybeDay: Date?
  }

  static let transformedMapping = Mapping(Transformed.init) {
    Attribute("day", \.day, .date(format: "dd/MM/yyyy"))
    Attribute("iso", \.iso, .iso8601)
    Attribute("seconds", \.seconds, .epochSeconds)
    Attribute("millis", \.millis, .epochMilliseconds)
    Attribute("words", \.words, .separated(by: ","))
    Attribute("flag", \.flag, .boolWords(true: "Y", false: "N"))
    Attribute("count", \.count, .numericString)
    Attribute("ratio", \.ratio, .numericString)
    Attribute("status", \.status, .rawValue)
    Attribute("chained", \.chained, ValueTransform<String, String>.identity.then(.numericString))
    Attribute("maybe_day", \.maybeDay, .date(format: "yyyy-MM-dd"))
  }

  @Test func everyBuiltInTransformObeysBothLaws() throws {
    let value = Transformed(
      day: utc(2012, 3, 1), iso: utc(2011, 7, 7, 4, 35, 28), seconds: utc(2020, 1, 2, 3, 4, 5),
      millis: Date(timeIntervalSince1970: 1.5), words: ["a", "b", "c"], flag: true, count: 12,
      ratio: 0.25, status: .published, chained: 7, maybeDay: utc(1999, 12, 31))
    let laws = RoundTripLaws(Self.transformedMapping)
    try laws.checkValue(value)
    let json = try Self.transformedMapping.serialize(value)
    #expect(
      String(decoding: json, as: UTF8.self)
        == #"{"day":"01/03/2012","iso":"2011-07-07T04:35:28Z","seconds":1577934245,"millis":1500,"words":"a,b,c","flag":"Y","count":"12","ratio":"0.25","status":"published","chained":"7","maybe_day":"1999-12-31"}"#
    )
    try laws.checkPayload(Node(jsonData: json))
    var withoutDay = value
    withoutDay.maybeDay = nil
    try laws.checkValue(withoutDay)
  }
}

extension ValueTransform where Input == String, Output == String {
  /// The identity, to test `then(_:)` chains.
  static var identity: Self { ValueTransform(forward: { $0 }, reverse: { $0 }) }
}
