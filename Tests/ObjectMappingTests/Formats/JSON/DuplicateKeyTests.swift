import Foundation
import Testing

@testable import ObjectMapping

/// An object that names a key twice reads the same way through every reader path (the first
/// member wins), and is an error with its path under `rejectsDuplicateKeys`.
@Suite struct DuplicateKeyTests {
  struct Child: Equatable {
    var value = 0
  }

  struct Model: Equatable {
    var a = 0
    var nested = 0
    var dictionary: [String: Int] = [:]
    var child = Child()
    var children: [String: Child] = [:]
    var whole = 0
  }

  static let childMapping = Mapping(Child.init) { Attribute("v", \.value) }

  static let mapping = Mapping(Model.init) {
    Attribute("a", \.a)
    Attribute("o.a", \.nested)
    Attribute("d", \.dictionary)
    Relationship("c", \.child, childMapping)
    Relationship("cs", \.children, childMapping)
    // The whole payload (absent when it is an array of these objects).
    Attribute(SourcePath.payload.appending("a"), \.whole).optional()
  }

  static let repeated = """
    {"a": 1, "o": {"a": 2, "a": 20}, "d": {"x": 3, "x": "not a number"},
     "c": {"v": 4}, "cs": {"k": {"v": 5}, "k": {"v": 50}}, "c": {"v": 40}, "a": 10}
    """

  static let firstMembers = Model(
    a: 1, nested: 2, dictionary: ["x": 3], child: Child(value: 4),
    children: ["k": Child(value: 5)], whole: 1)

  // MARK: - The default: the first member wins

  @Test func everyMappingPathReadsTheFirstMember() throws {
    #expect(try Self.mapping.map(Self.repeated) == Self.firstMembers)
    #expect(try Self.mapping.map(Data(Self.repeated.utf8)) == Self.firstMembers)
    var element = Self.firstMembers
    element.whole = 0
    #expect(try Self.mapping.mapCollection("[\(Self.repeated)]") == [element])
    #expect(try Self.mapping.map(Node(jsonString: Self.repeated)) == Self.firstMembers)
  }

  struct Kennel: Equatable {
    var dogs: [String: Child] = [:]
  }

  /// A first member declined by a dynamic mapping (a diagnostic, not an error) still wins: the
  /// repeated key does not slip its second member in.
  @Test func aDeclinedFirstMemberOfADictionaryRelationshipStillWins() throws {
    let dog = DynamicMapping<Child> { Match("type", equals: "dog", Self.childMapping) }
    let kennel = Mapping(Kennel.init) { Relationship("dogs", \.dogs, dog) }
    let result = try kennel.map(
      #"{"dogs": {"k": {"type": "cat", "v": 1}, "k": {"type": "dog", "v": 2}, "j": {"type": "dog", "v": 3}}}"#
    )
    #expect(result.dogs == ["j": Child(value: 3)])
  }

  /// Keys compare as UTF-8 bytes in every path: `"é"` (NFC) and `"e\u0301"` (NFD) are two keys,
  /// also for duplicate rejection past the first 16 members, where keys are hashed.
  @Test func canonicallyEquivalentKeysAreDistinct() throws {
    let filler = (0..<20).map { #""f\#($0)": 0, "# }.joined()
    for prefix in ["", filler] {
      let node = try Node(
        jsonString: #"{\#(prefix)"é": 1, "e\u0301": 2}"#, options: Self.rejecting)
      guard case .object(let members) = node else {
        Issue.record("not an object: \(node)")
        continue
      }
      #expect(
        members.suffix(2).map { Array($0.key.utf8) } == [Array("é".utf8), Array("e\u{301}".utf8)])
    }
  }

  @Test func nodesKeepEveryMemberAndLookupsFindTheFirst() throws {
    let node = try Node(jsonString: #"{"a": 1, "a": 2}"#)
    #expect(node == .object([.init("a", .integer(1)), .init("a", .integer(2))]))
    #expect(node["a"] == .integer(1))
    let foundation = try #require(node.foundationValue as? [String: Any])
    #expect(foundation["a"] as? Int64 == 1 || foundation["a"] as? Int == 1)
  }

  struct Keyed: Equatable {
    var name = ""
    var age = 0
  }

  @Test func aNestedKeyCollectionMapsTheFirstMemberOfARepeatedKey() throws {
    let mapping = Mapping(Keyed.init) {
      KeyAttribute("name", \.name)
      Attribute("age", \.age)
    }
    let payload = #"{"ann": {"age": 1}, "bob": {"age": 2}, "ann": {"age": 3}}"#
    #expect(
      try mapping.mapCollection(payload) == [
        Keyed(name: "ann", age: 1), Keyed(name: "bob", age: 2),
      ]
    )
  }

  @Test func aRepeatedFormNameCollectsItsValuesIntoAnArray() throws {
    #expect(
      try Node(formURLEncoded: "a=1&a=2")
        == .object([.init("a", .array([.string("1"), .string("2")]))]))
  }

  // MARK: - Rejecting duplicate keys

  static let rejecting = JSONReadingOptions(rejectsDuplicateKeys: true)

  /// A mapping that accepts any object, so that only the reader can fail.
  static let anyObject = Mapping(Child.init) { Attribute("v", \.value).optional() }
    .allowingUnmappableRepresentation()

  /// The rendered error of mapping `json` with duplicate keys rejected.
  static func rejection(_ json: String) -> String {
    do {
      _ = try anyObject.map(.json(json, reading: rejecting))
      return "accepted"
    } catch {
      return error.description
    }
  }

  @Test(arguments: [
    (
      #"{"user": {"id": 1, "id": 2}}"#,
      #"/user: syntax error at line 1, column 20 (byte 19): duplicate key "id" (first at line 1, column 11)"#
    ),
    (
      #"{"a": 1, "\u0061": 2}"#,
      #"syntax error at line 1, column 10 (byte 9): duplicate key "a" (first at line 1, column 2)"#
    ),
    (
      "{\"l\": [0, {\"x\": {}},\n {\"b\": 1, \"c\": 2, \"b\": 3}]}",
      #"/l/2: syntax error at line 2, column 19 (byte 39): duplicate key "b" (first at line 2, column 3)"#
    ),
    (
      #"{"a/b": {"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17,"k18":18,"k19":19,"k3":3}}"#,
      #"/a~1b: syntax error at line 1, column 170 (byte 169): duplicate key "k3" (first at line 1, column 31)"#
    ),
    (
      #"{"big": {"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17,"k18":18,"k19":19,"k20":20,"k21":21,"k22":22,"k23":23,"k24":24,"k25":25,"k26":26,"k27":27,"k28":28,"k29":29,"k30":30,"k31":31,"k32":32,"k33":33,"k34":34,"k35":35,"k36":36,"k37":37,"k38":38,"k39":39,"k40":40,"k41":41,"k42":42,"k43":43,"k44":44,"k45":45,"k46":46,"k47":47,"k48":48,"k49":49,"k50":50,"k51":51,"k52":52,"k53":53,"k54":54,"k55":55,"k56":56,"k57":57,"k58":58,"k59":59,"k60":60,"k61":61,"k62":62,"k63":63,"k64":64,"k65":65,"k66":66,"k67":67,"k68":68,"k69":69,"k70":70,"k71":71,"k72":72,"k73":73,"k74":74,"k75":75,"k76":76,"k77":77,"k78":78,"k79":79,"k80":80,"k81":81,"k82":82,"k83":83,"k84":84,"k85":85,"k86":86,"k87":87,"k88":88,"k89":89,"k90":90,"k91":91,"k92":92,"k93":93,"k94":94,"k95":95,"k96":96,"k97":97,"k98":98,"k99":99,"k\u0037":7}}"#,
      #"/big: syntax error at line 1, column 890 (byte 889): duplicate key "k7" (first at line 1, column 59)"#
    ),
    (
      #"{"": 1, "": 2}"#,
      #"syntax error at line 1, column 9 (byte 8): duplicate key "" (first at line 1, column 2)"#
    ),
  ])
  func aDuplicateKeyIsAnErrorNamingTheObjectTheKeyAndBothPlaces(json: String, error: String) {
    #expect(Self.rejection(json) == error)
  }

  @Test func distinctKeysAreAccepted() throws {
    let keys = (0..<40).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
    // Two large objects at the same depth, keys that share a prefix, equal keys in different
    // objects, and escaped keys that differ.
    let json = #"{"a":1,"x":{\#(keys)},"y":{\#(keys)},"ab":{"a":2},"\u0062":3,"b\n":4}"#
    #expect(Self.rejection(json) == "accepted")
    #expect(try Node(jsonString: json, options: Self.rejecting)["y"]?.objectValue?.count == 40)
  }

  @Test func everyEntryPointRejects() throws {
    let json = #"[{"a": 1}, {"a": 1, "a": 2}]"#
    let expected =
      #"/1: syntax error at line 1, column 21 (byte 20): duplicate key "a" (first at line 1, column 13)"#
    func rendered(_ body: () throws -> Void) -> String {
      do {
        try body()
        return "accepted"
      } catch {
        return "\(error)"
      }
    }
    #expect(
      rendered { _ = try Self.anyObject.mapCollection(.json(json, reading: Self.rejecting)) }
        == expected)
    #expect(
      rendered {
        _ = try Self.anyObject.mapCollection(.json(Data(json.utf8), reading: Self.rejecting))
      }
        == expected)
    #expect(rendered { _ = try Node(jsonString: json, options: Self.rejecting) } == expected)
    let provider = MappingProvider { Route("", Self.anyObject) }
    #expect(
      rendered { _ = try Mapper(provider).map(.json(json, reading: Self.rejecting)) } == expected)
    #expect(rendered { _ = try Self.anyObject.mapCollection(json) } == "accepted")
  }
}
