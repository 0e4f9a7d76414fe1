import Foundation
import ObjectMapping
import ObjectMappingTestSupport
import Testing

/// `FastJSONDecoder` decodes `Codable` models to the values `JSONDecoder` gives, with its
/// strategies, and reports errors with JSON Pointer paths (issue 20).
@Suite("FastJSONDecoder")
struct FastJSONDecoderTests {
  // MARK: Corpora

  struct TwitterSearch: Codable, Equatable {
    struct Status: Codable, Equatable {
      var id: Int64
      var idStr: String
      var text: String
      var createdAt: String
      var user: User
      var inReplyToStatusId: Int64?
      var retweetCount: Int
      var favorited: Bool
      var entities: Entities
      var retweetedStatus: Box?
    }

    /// A recursive value through a class-free box.
    struct Box: Codable, Equatable {
      var id: Int64
      var text: String
    }

    struct User: Codable, Equatable {
      var id: Int64
      var screenName: String
      var followersCount: Int
      var profileBackgroundColor: String
      var url: String?
      var utcOffset: Int?
    }

    struct Entities: Codable, Equatable {
      struct Hashtag: Codable, Equatable {
        var text: String
        var indices: [Int]
      }
      var hashtags: [Hashtag]
      var urls: [[String: AnyValue]]?
    }

    var statuses: [Status]
    var searchMetadata: [String: AnyValue]
  }

  /// Any JSON scalar or container, to compare loosely typed parts.
  enum AnyValue: Codable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([AnyValue])
    case object([String: AnyValue])

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if container.decodeNil() {
        self = .null
      } else if let value = try? container.decode(Bool.self) {
        self = .bool(value)
      } else if let value = try? container.decode(Double.self) {
        self = .number(value)
      } else if let value = try? container.decode(String.self) {
        self = .string(value)
      } else if let value = try? container.decode([AnyValue].self) {
        self = .array(value)
      } else {
        self = .object(try container.decode([String: AnyValue].self))
      }
    }

    func encode(to encoder: any Encoder) throws {}
  }

  struct Canada: Codable, Equatable {
    struct Feature: Codable, Equatable {
      struct Geometry: Codable, Equatable {
        var type: String
        var coordinates: [[[Double]]]
      }
      var type: String
      var properties: [String: String]
      var geometry: Geometry
    }
    var type: String
    var features: [Feature]
  }

  struct Catalog: Codable, Equatable {
    struct Event: Codable, Equatable {
      var id: Int
      var name: String
      var subTopicIds: [Int]
      var topicIds: [Int]
      var logo: String?
    }
    struct Performance: Codable, Equatable {
      struct Price: Codable, Equatable {
        var amount: Int
        var audienceSubCategoryId: Int
        var seatCategoryId: Int
      }
      var id: Int
      var eventId: Int
      var prices: [Price]
      var start: Int64
      var venueCode: String
    }
    var areaNames: [String: String]
    var events: [String: Event]
    var performances: [Performance]
    var topicSubTopics: [String: [Int]]
  }

  static func compare<T: Decodable & Equatable>(
    _ type: T.Type, corpus: String, snakeCase: Bool = false
  ) throws {
    let data = try TestData.data("json-benchmark/\(corpus).json")
    let foundation = JSONDecoder()
    let fast = FastJSONDecoder()
    if snakeCase {
      foundation.keyDecodingStrategy = .convertFromSnakeCase
      fast.keyDecodingStrategy = .convertFromSnakeCase
    }
    let expected = try foundation.decode(T.self, from: data)
    let decoded = try fast.decode(T.self, from: data)
    #expect(decoded == expected)
  }

  @Test(.enabled(if: TestData.isAvailable))
  func theCorporaDecodeAsJSONDecoderDecodesThem() throws {
    try Self.compare(TwitterSearch.self, corpus: "twitter", snakeCase: true)
    try Self.compare(Canada.self, corpus: "canada")
    try Self.compare(Catalog.self, corpus: "citm_catalog")
  }

  // MARK: Strategies

  struct Stamped: Codable, Equatable {
    var when: Date
    var blob: Data
    var ratio: Double
    var link: URL
    var price: Decimal
  }

  @Test func strategiesMatchJSONDecoder() throws {
    let cases: [(String, JSONDecoder.DateDecodingStrategy)] = [
      (#"1700000000.5"#, .secondsSince1970),
      (#"1700000000500"#, .millisecondsSince1970),
      (#""2023-11-14T22:13:20Z""#, .iso8601),
      (#"721692800"#, .deferredToDate),
    ]
    for (when, strategy) in cases {
      let json =
        #"{"when": \#(when), "blob": "AAEC", "ratio": "-inf", "link": "https://a.b/c", "price": 12.25}"#
      let foundation = JSONDecoder()
      foundation.dateDecodingStrategy = strategy
      foundation.nonConformingFloatDecodingStrategy = .convertFromString(
        positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
      let fast = FastJSONDecoder()
      fast.dateDecodingStrategy = strategy
      fast.nonConformingFloatDecodingStrategy = .convertFromString(
        positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
      let expected = try foundation.decode(Stamped.self, from: Data(json.utf8))
      #expect(try fast.decode(Stamped.self, from: json) == expected)
    }
  }

  @Test func customStrategiesAndUserInfoReachTheModels() throws {
    struct Tagged: Decodable, Equatable {
      var name: String
      var tag: String
      enum CodingKeys: String, CodingKey { case name }
      init(name: String, tag: String) {
        self.name = name
        self.tag = tag
      }
      init(from decoder: any Decoder) throws {
        name = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name)
        tag = decoder.userInfo[CodingUserInfoKey(rawValue: "tag")!] as? String ?? ""
      }
    }
    let fast = FastJSONDecoder()
    fast.userInfo = [CodingUserInfoKey(rawValue: "tag")!: "t1"]
    fast.keyDecodingStrategy = .custom { path in
      let last = path.last?.stringValue ?? ""
      return Key(stringValue: last.lowercased())
    }
    #expect(try fast.decode(Tagged.self, from: #"{"NAME": "x"}"#) == Tagged(name: "x", tag: "t1"))
    fast.dataDecodingStrategy = .custom { decoder in
      Data(try decoder.singleValueContainer().decode(String.self).utf8)
    }
    struct Blob: Decodable { var data: Data }
    #expect(try fast.decode(Blob.self, from: #"{"data": "hi"}"#).data == Data("hi".utf8))
  }

  struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  // MARK: Containers

  @Test func everyContainerKindWorks() throws {
    struct Point: Codable, Equatable {
      var x: Int
      var y: Int
      init(x: Int, y: Int) {
        self.x = x
        self.y = y
      }
      init(from decoder: any Decoder) throws {
        var pair = try decoder.unkeyedContainer()
        x = try pair.decode(Int.self)
        y = try pair.decode(Int.self)
      }
    }
    struct Shape: Codable, Equatable {
      var points: [Point]
      var name: String?
      var tags: Set<String>
      var nested: [String: [Int?]]
      var flag: Bool
      var small: UInt8
    }
    let json = #"""
      {"points": [[1, 2], [3, 4]], "tags": ["a", "b"], "nested": {"k": [1, null]},
       "flag": true, "small": 255}
      """#
    let expected = try JSONDecoder().decode(Shape.self, from: Data(json.utf8))
    #expect(try FastJSONDecoder().decode(Shape.self, from: json) == expected)
    #expect(expected.name == nil)
  }

  // MARK: Errors

  @Test func errorsNameTheirPathAndSyntaxItsLineAndColumn() throws {
    struct Item: Decodable { var id: Int }
    struct Order: Decodable { var items: [Item] }
    let decoder = FastJSONDecoder()
    decoder.errorReporting = .mappingErrors
    do {
      _ = try decoder.decode(Order.self, from: #"{"items": [{"id": 1}, {"id": "two"}]}"#)
      Issue.record("expected an error")
    } catch let error as MappingErrors {
      #expect(
        error.errors.map(\.description) == [#"/items/1/id: expected an integer, found "two""#])
      #expect(error.errors.first?.underlyingError is DecodingError)
    }
    do {
      _ = try decoder.decode(Order.self, from: #"{"items": [{}]}"#)
      Issue.record("expected an error")
    } catch let error as MappingErrors {
      #expect(error.errors.map(\.description) == ["/items/0/id: required value is missing"])
    }
    do {
      _ = try decoder.decode(Order.self, from: "{\"items\": [\n  {\"id\": }]}")
      Issue.record("expected an error")
    } catch let error as MappingErrors {
      #expect(
        error.errors.map(\.description) == [
          "syntax error at line 2, column 10 (byte 21): expected a value, found '}'"
        ])
    }
    #expect(throws: MappingErrors.self) {
      try decoder.decode(Item.self, from: #"{"id": 1.5}"#)
    }
  }

  @Test func snakeCaseKeysConvertAsJSONDecoderConvertsThem() throws {
    struct Keys: Codable, Equatable {
      var createdAt: Int
      var userId: Int
      var _private: Int
      var plain: Int
    }
    let json = #"{"created_at": 1, "user_id": 2, "_private": 3, "plain": 4}"#
    let foundation = JSONDecoder()
    foundation.keyDecodingStrategy = .convertFromSnakeCase
    let fast = FastJSONDecoder()
    fast.keyDecodingStrategy = .convertFromSnakeCase
    #expect(
      try fast.decode(Keys.self, from: json)
        == (try foundation.decode(Keys.self, from: Data(json.utf8))))
  }

  @Test(.enabled(if: TestData.isAvailable))
  func theEncoderWritesTheCorporaAsJSONEncoderDoes() throws {
    func check<T: Codable>(_ type: T.Type, corpus: String) throws {
      let value = try JSONDecoder().decode(
        T.self, from: TestData.data("json-benchmark/\(corpus).json"))
      let ours = try Node(jsonData: FastJSONEncoder().encode(value))
      let foundation = try Node(jsonData: JSONEncoder().encode(value))
      #expect(ours == foundation)
    }
    try check(Canada.self, corpus: "canada")
    try check(Catalog.self, corpus: "citm_catalog")
  }

  @Test func theEncoderHandlesEveryContainerKind() throws {
    struct Custom: Encodable {
      func encode(to encoder: any Encoder) throws {
        var keyed = encoder.container(keyedBy: Key.self)
        try keyed.encode(UInt64.max, forKey: Key(stringValue: "big"))
        try keyed.encode(Decimal(string: "12.50"), forKey: Key(stringValue: "price"))
        try keyed.encodeNil(forKey: Key(stringValue: "none"))
        var nested = keyed.nestedUnkeyedContainer(forKey: Key(stringValue: "list"))
        try nested.encode(1)
        var inner = nested.nestedContainer(keyedBy: Key.self)
        try inner.encode("x", forKey: Key(stringValue: "k"))
        let base = keyed.superEncoder()
        var single = base.singleValueContainer()
        try single.encode(URL(string: "https://a.b")!)
      }
    }
    let encoder = FastJSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let json = String(decoding: try encoder.encode(Custom()), as: UTF8.self)
    let foundation = JSONEncoder()
    foundation.outputFormatting = [.sortedKeys]
    #expect(json == String(decoding: try foundation.encode(Custom()), as: UTF8.self))
    #expect(
      json
        == #"{"big":18446744073709551615,"list":[1,{"k":"x"}],"none":null,"price":12.5,"super":"https:\/\/a.b"}"#
    )
  }
}

/// The decoder's shortcuts (member lookups that resume where the last one stopped, specialized
/// loops for scalar arrays) give `JSONDecoder`'s values and precise paths (issue 20).
@Suite("FastJSONDecoder shortcuts")
struct FastJSONDecoderShortcutTests {
  struct Shuffled: Codable, Equatable {
    var a: Int
    var b: String?
    var c: Bool
    var d: Double?
    var e: [[[Double]]]
    var f: [Int64]
    var g: [String]
    var h: [Bool]
  }

  @Test func membersInAnyOrderAndAbsentOptionalsDecodeAsJSONDecoderDecodesThem() throws {
    let payloads = [
      #"{"h":[true],"g":["x"],"f":[9007199254740993],"e":[[[1.5,2]]],"c":true,"a":1}"#,
      #"{"a":1,"b":null,"c":false,"d":2.5,"e":[],"f":[],"g":[],"h":[]}"#,
      #"{"e":[[[0.1],[]],[]],"d":1e2,"c":true,"b":"b","a":-4,"f":[1],"g":["é"],"h":[false]}"#,
    ]
    for json in payloads {
      let ours = try FastJSONDecoder().decode(Shuffled.self, from: json)
      #expect(ours == (try JSONDecoder().decode(Shuffled.self, from: Data(json.utf8))))
    }
  }

  @Test func aFailingElementOfNestedArraysNamesItsPath() throws {
    let decoder = FastJSONDecoder()
    decoder.errorReporting = .mappingErrors
    let json = #"{"a":1,"c":true,"e":[[[1]],[[2],[3,"x"]]],"f":[],"g":[],"h":[]}"#
    let error = #expect(throws: MappingErrors.self) {
      try decoder.decode(Shuffled.self, from: json)
    }
    #expect(error?.errors.first?.path == "/e/1/1/1")
    let notArray = #"{"a":1,"c":true,"e":[{"x":1}],"f":[],"g":[],"h":[]}"#
    let second = #expect(throws: MappingErrors.self) {
      try decoder.decode(Shuffled.self, from: notArray)
    }
    #expect(second?.errors.first?.path == "/e/0")
  }
}
