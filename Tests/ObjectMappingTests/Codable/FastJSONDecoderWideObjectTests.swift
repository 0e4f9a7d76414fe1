import Foundation
import ObjectMapping
import ObjectMappingTestSupport
import Testing

/// Lookups the payload drives (`for key in container.allKeys`, `[Int: V]`, dynamic keys) in
/// large objects go through a hash index of the object's members: the hinted scan fell back to
/// a scan from the object's start for every key whose one-bit signature was seen before, and
/// keys such as `k0` … `k199999` share a few, so 200,000 keys took 19 s (`JSONDecoder`: 0.2 s).
@Suite(.serialized) struct FastJSONDecoderWideObjectTests {
  struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  /// Every member, read through `allKeys`, `contains` and `decode`, in the order given.
  struct Bag: Decodable, Equatable {
    var values: [String: Int] = [:]
    init(values: [String: Int]) { self.values = values }
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: AnyKey.self)
      for key in container.allKeys.reversed() where container.contains(key) {
        values[key.stringValue] = try container.decode(Int.self, forKey: key)
      }
      // An absent key is still absent.
      if container.contains(AnyKey(stringValue: "absent")) {
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "found"))
      }
    }
  }

  static func object(_ count: Int) -> Data {
    Data(("{" + (0..<count).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + "}").utf8)
  }

  static func intKeyed(_ count: Int) -> Data {
    Data(("{" + (0..<count).map { #""\#($0)":\#($0)"# }.joined(separator: ",") + "}").utf8)
  }

  @Test func payloadDrivenLookupsInAWideObjectAreLinear() async throws {
    try await Scaling.expectLinear(
      "allKeys, reversed, in a wide object", base: 4_000,
      prepare: Self.object,
      work: { data in
        let bag = try FastJSONDecoder().decode(Bag.self, from: data)
        #expect(bag.values.count > 0)
      })
  }

  @Test func anIntKeyedDictionaryIsLinear() async throws {
    try await Scaling.expectLinear(
      "[Int: Int]", base: 4_000,
      prepare: Self.intKeyed,
      work: { data in
        let values = try FastJSONDecoder().decode([Int: Int].self, from: data)
        #expect(values.count > 0)
      })
  }

  /// Keys that are not ASCII are compared as `String`s (canonical equivalence, as
  /// `JSONDecoder` compares them): a scan built a `String` per member for every lookup, so
  /// 40,000 such keys read through `allKeys` took 12.6 s. Past a few scans a large object's
  /// keys are kept in a dictionary of `String`s, which hashes by the same equivalence.
  @Test func payloadDrivenLookupsOfKeysThatAreNotASCIIAreLinear() async throws {
    try await Scaling.expectLinear(
      "allKeys, reversed, keys that are not ASCII", base: 4_000,
      prepare: { count in
        Data(("{" + (0..<count).map { #""é\#($0)":\#($0)"# }.joined(separator: ",") + "}").utf8)
      },
      work: { data in
        let bag = try FastJSONDecoder().decode(Bag.self, from: data)
        #expect(bag.values.count > 0)
      })
  }

  /// The index of keys that are not ASCII finds what `JSONDecoder` finds: the first of repeated
  /// keys, a key written precomposed or decomposed, none for an absent one.
  @Test func theTextIndexFindsWhatJSONDecoderFinds() throws {
    var members = (0..<100).map { #""é\#($0)":\#($0)"# }
    members.append(#""é7":700"#)  // repeated: the first one wins
    members.append(#""e\u0301x":5"#)  // decomposed; looked up below as precomposed "éx"
    let data = Data(("{" + members.joined(separator: ",") + "}").utf8)
    let ours = try FastJSONDecoder().decode(Bag.self, from: data)
    #expect(ours.values["é7"] == 7)
    #expect(ours.values["éx"] == 5)
    #expect(ours.values.count == 101)
    #expect(ours == (try JSONDecoder().decode(Bag.self, from: data)))

    struct Lookup: Decodable, Equatable {
      var found: [Int?]
      init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        // Enough lookups that the object's keys are indexed, then the interesting ones.
        var found: [Int?] = []
        for index in 0..<40 {
          found.append(
            try container.decodeIfPresent(Int.self, forKey: AnyKey(stringValue: "é\(index)")))
        }
        for name in ["éx", "e\u{301}x", "é7", "ñ"] {
          found.append(try container.decodeIfPresent(Int.self, forKey: AnyKey(stringValue: name)))
        }
        self.found = found
      }
    }
    let lookup = try FastJSONDecoder().decode(Lookup.self, from: data)
    #expect(lookup.found.suffix(4) == [5, 5, 7, nil])
    #expect(lookup == (try JSONDecoder().decode(Lookup.self, from: data)))
  }

  struct Scores: Codable, Equatable {
    var byPlayer: [Int: Int] = [:]
  }

  @Test func aMappingDerivedFromCodableReadsAnIntKeyedDictionaryLinearly() async throws {
    let mapping = Mapping(Scores.self)
    try await Scaling.expectLinear(
      "Mapping(Scores.self), [Int: Int]", base: 4_000,
      prepare: { count in
        Data(#"{"byPlayer": \#(String(decoding: Self.intKeyed(count), as: UTF8.self))}"#.utf8)
      },
      work: { data in
        let scores = try mapping.map(data)
        #expect(scores.byPlayer.count > 0)
      })
  }

  /// The index finds what a scan finds: the first of repeated keys, keys written with escapes,
  /// none for an absent one; the same as `JSONDecoder` for every shape.
  @Test func theIndexFindsWhatAScanFinds() throws {
    var members = (0..<100).map { #""k\#($0)":\#($0)"# }
    members.append(#""k7":700"#)  // repeated: the first one wins
    members.append(#""\u006b\u0031\u0030\u0030":100"#)  // "k100", escaped
    members.append(#""caf\u00e9":1"#)
    let data = Data(("{" + members.joined(separator: ",") + "}").utf8)
    let ours = try FastJSONDecoder().decode(Bag.self, from: data)
    #expect(ours.values["k7"] == 7)
    #expect(ours.values["k100"] == 100)
    #expect(ours.values["café"] == 1)
    #expect(ours.values.count == 102)
    let foundation = try JSONDecoder().decode(Bag.self, from: data)
    #expect(ours == foundation)
    let intKeyed = Self.intKeyed(1_000)
    #expect(
      try FastJSONDecoder().decode([Int: Int].self, from: intKeyed)
        == JSONDecoder().decode([Int: Int].self, from: intKeyed))
  }
}
