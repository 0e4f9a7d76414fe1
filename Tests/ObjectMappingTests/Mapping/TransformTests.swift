import Foundation
import Testing

@testable import ObjectMapping

@Suite struct TransformTests {
  enum Level: Int {
    case low = 1
    case high = 2
  }

  struct Post: Equatable {
    var tags: [String] = []
    var count = 0
    var ratio = 0.0
    var level = Level.low
    var featured = false
    var length = 0
    var seen: Date?
    var location = Coordinate(latitude: 0, longitude: 0)
  }

  struct Coordinate: Equatable {
    var latitude: Double
    var longitude: Double
  }

  static let mapping = Mapping(Post.init) {
    Attribute("tags", \.tags, .separated(by: ","))
    Attribute("count", \.count, .numericString)
    Attribute("ratio", \.ratio, .numericString)
    Attribute("level", \.level, .rawValue)
    Attribute("featured", \.featured, .boolWords(true: "Y", false: "N"))
    Attribute("body", \.length, decodeOnly: { (body: String) in body.count })
    Attribute("seen", \.seen, .epochMilliseconds)
    Attribute("where", \.location, .coordinate(latitude: "lat", longitude: "long"))
  }

  @Test func builtInTransformsRead() throws {
    let json = """
      {"tags": "swift,linux", "count": "42", "ratio": "0.5", "level": 2, "featured": "y",
       "body": "hello", "seen": 1386786787000, "where": {"lat": 48.85, "long": 2.35}}
      """
    let post = try Self.mapping.map(json)
    #expect(
      post
        == Post(
          tags: ["swift", "linux"], count: 42, ratio: 0.5, level: .high, featured: true,
          length: 5, seen: Date(timeIntervalSince1970: 1_386_786_787),
          location: Coordinate(latitude: 48.85, longitude: 2.35)))
  }

  @Test func builtInTransformsReverse() throws {
    #expect(try ValueTransform<String, [String]>.separated(by: ",").reverse(["a", "b"]) == "a,b")
    #expect(throws: ConversionFailure.notRepresentable("a,b", reason: "contains the separator")) {
      try ValueTransform<String, [String]>.separated(by: ",").reverse(["a,b"])
    }
    #expect(try ValueTransform<String, Int>.numericString.reverse(42) == "42")
    #expect(try ValueTransform<Int, Level>.rawValue.reverse(.high) == 2)
    #expect(
      try ValueTransform<Double, Date>.epochMilliseconds.reverse(Date(timeIntervalSince1970: 1.5))
        == 1500)
    let composed = ValueTransform<String, Int>.numericString.then(
      ValueTransform<Int, Level>.rawValue)
    #expect(try composed.forward("1") == .low)
    #expect(try composed.reverse(.high) == "2")
  }

  @Test func transformFailuresNameThePathAndRawValue() {
    #expect(
      errorLines {
        try Self.mapping.map(
          #"{"tags": "", "count": "4x", "ratio": "1", "level": 3, "featured": "maybe", "body": "", "where": {"lat": 1}}"#
        )
      } == [
        #"/count: cannot convert "4x" to an integer"#,
        "/level: cannot convert 3 to a Level: no case has this raw value",
        #"/featured: cannot convert "maybe" to "Y" or "N""#,
        #"/where: cannot convert an object to any value: missing "long""#,
      ])
  }
}

extension ValueTransform where Input == Node, Output == TransformTests.Coordinate {
  /// A parameterised transform: an ordinary function returning a transform.
  static func coordinate(latitude: String, longitude: String) -> Self {
    ValueTransform(
      forward: { node in
        guard case .some(let lat) = node[latitude], case .some(let long) = node[longitude] else {
          let missing = node[latitude] == nil ? latitude : longitude
          throw ConversionFailure.invalidValue(
            expected: "any value", raw: "an object", reason: "missing \"\(missing)\"")
        }
        return TransformTests.Coordinate(
          latitude: try Self.number(lat), longitude: try Self.number(long))
      },
      reverse: {
        .object([.init(latitude, .double($0.latitude)), .init(longitude, .double($0.longitude))])
      })
  }

  private static func number(_ node: Node) throws -> Double {
    switch node {
    case .integer(let value): return Double(value)
    case .double(let value): return value
    case .decimal(let number):
      if let value = Double(number.text) { return value }
    default: break
    }
    throw ConversionFailure.typeMismatch(expected: "a number", found: node.kindDescription)
  }
}

/// ObjectMapper applies one transform to `[T]`, `[[T]]` and `[String: T]` properties (its
/// MappableTypesWithTransformsTests): `elements` and `values` lift a transform the same way,
/// in both directions.
@Suite("Transforms lifted over collections")
struct LiftedTransformTests {
  struct Player: Equatable, Sendable {
    var name: String
  }

  struct Team: Equatable, Sendable {
    var days: [Date] = []
    var grid: [[Player]] = []
    var byRole: [String: Player] = [:]
    var counts: [Int] = []
  }

  static let player = ValueTransform<String, Player>(
    forward: { Player(name: $0) }, reverse: { $0.name })

  static let mapping = Mapping(Team.init) {
    Attribute("days", \.days, ValueTransform.date(format: "dd/MM/yyyy").elements)
    Attribute("grid", \.grid, Self.player.elements.elements)
    Attribute("byRole", \.byRole, Self.player.values)
    Attribute("counts", \.counts, ValueTransform<String, Int>.numericString.elements).optional()
  }

  @Test func eachElementAndValueIsTransformedBothWays() throws {
    let json =
      #"{"days":["01/03/2012","02/03/2012"],"grid":[["a","b"],["c"]],"byRole":{"keeper":"k"},"counts":["1","2"]}"#
    let team = try Self.mapping.map(json)
    #expect(team.days.count == 2 && team.days[1].timeIntervalSince(team.days[0]) == 86_400)
    #expect(team.grid == [[Player(name: "a"), Player(name: "b")], [Player(name: "c")]])
    #expect(team.byRole == ["keeper": Player(name: "k")])
    #expect(team.counts == [1, 2])
    #expect(String(decoding: try Self.mapping.serialize(team), as: UTF8.self) == json)
    // One element that fails fails the attribute, at its path.
    let failure = #expect(throws: MappingErrors.self) {
      try Self.mapping.map(#"{"days":["01/03/2012","soon"],"grid":[],"byRole":{}}"#)
    }
    #expect(failure?.errors.map(\.path) == ["/days"])
    // A decode-only transform lifts to a decode-only one.
    let oneWay = ValueTransform<String, Player>(decodeOnly: { Player(name: $0) })
    #expect(!oneWay.elements.isReversible && !oneWay.values.isReversible)
    #expect(try oneWay.elements.forward(["x"]) == [Player(name: "x")])
  }
}
