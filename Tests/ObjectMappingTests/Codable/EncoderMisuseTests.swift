import Foundation
import ObjectMapping
import Testing

/// A model's own `encode(to:)` that keeps an encoder's containers, or mixes a keyed and an
/// unkeyed container, each run through `FastJSONEncoder` and `JSONEncoder` in the same test.
/// The models write nothing a stream cannot follow until they misuse a container, so the
/// streaming encoder is the one answering (no `.sortedKeys`: it takes the value tree; outputs
/// are compared as parsed JSON instead).
@Suite("FastJSONEncoder misuse")
struct EncoderMisuseTests {
  /// Containers a model hands out of its `encode(to:)`.
  final class Kept: @unchecked Sendable {
    var keyed: KeyedEncodingContainer<ParityKey>?
    var unkeyed: (any UnkeyedEncodingContainer)?
    var single: (any SingleValueEncodingContainer)?
  }

  /// `data` parsed and written again with sorted keys, so that member order does not count.
  static func canonical(_ data: Data) throws -> String {
    let object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    let sorted = try JSONSerialization.data(
      withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
    return String(decoding: sorted, as: UTF8.self)
  }

  static func outcome(_ body: () throws -> Data) -> String {
    do {
      return "value " + (try canonical(try body()))
    } catch {
      return "error " + Parity.describe(error)
    }
  }

  /// Encodes `value` with both encoders and expects the same JSON (or the same error).
  @discardableResult
  static func expectSameJSON<T: Encodable>(
    _ value: T, sourceLocation: SourceLocation = #_sourceLocation
  ) -> String {
    let ours = outcome { try FastJSONEncoder().encode(value) }
    let theirs = outcome { try JSONEncoder().encode(value) }
    #expect(ours == theirs, sourceLocation: sourceLocation)
    return theirs
  }

  // MARK: Containers read after the stream moved on

  /// Reads its containers after writing past them: `nested` and `list` are closed in the
  /// stream when `top` is written again, `again` is asked for while `other` is open.
  struct ReadsClosedContainers: Encodable {
    func encode(to encoder: any Encoder) throws {
      var top = encoder.container(keyedBy: ParityKey.self)
      var nested = top.nestedContainer(keyedBy: ParityKey.self, forKey: ParityKey("nested"))
      try nested.encode(1, forKey: ParityKey("x"))
      var list = top.nestedUnkeyedContainer(forKey: ParityKey("list"))
      try list.encode(1)
      try list.encode(2)
      try top.encode(3, forKey: ParityKey("after"))
      var other = top.nestedContainer(keyedBy: ParityKey.self, forKey: ParityKey("other"))
      let again = encoder.container(keyedBy: ParityKey.self)
      try other.encode(Parity.render(nested.codingPath), forKey: ParityKey("nestedPath"))
      try other.encode(Parity.render(list.codingPath), forKey: ParityKey("listPath"))
      try other.encode(list.count, forKey: ParityKey("listCount"))
      try other.encode(Parity.render(again.codingPath), forKey: ParityKey("againPath"))
    }
  }

  struct Wrapper<Inner: Encodable>: Encodable {
    var inner: Inner
  }

  /// A child that hands its containers to its parent, which reads them after the child
  /// returned.
  struct Child: Encodable {
    let kept: Kept
    func encode(to encoder: any Encoder) throws {
      var keyed = encoder.container(keyedBy: ParityKey.self)
      var list = keyed.nestedUnkeyedContainer(forKey: ParityKey("list"))
      try list.encode(1)
      try list.encode(2)
      kept.keyed = keyed
      kept.unkeyed = list
    }
  }

  struct ReadsAChildsContainers: Encodable {
    func encode(to encoder: any Encoder) throws {
      let kept = Kept()
      var top = encoder.container(keyedBy: ParityKey.self)
      try top.encode(Child(kept: kept), forKey: ParityKey("child"))
      try top.encode(Parity.render(kept.keyed!.codingPath), forKey: ParityKey("keyedPath"))
      try top.encode(Parity.render(kept.unkeyed!.codingPath), forKey: ParityKey("listPath"))
      try top.encode(kept.unkeyed!.count, forKey: ParityKey("listCount"))
    }
  }

  @Test func aContainerReadAfterTheStreamMovedOnAnswersForItself() {
    #expect(
      Self.expectSameJSON(Wrapper(inner: ReadsClosedContainers()))
        == #"value {"inner":{"after":3,"list":[1,2],"nested":{"x":1},"other":{"againPath":"inner","#
        + #""listCount":2,"listPath":"inner\/list","nestedPath":"inner\/nested"}}}"#)
    #expect(
      Self.expectSameJSON(Wrapper(inner: ReadsAChildsContainers()))
        == #"value {"inner":{"child":{"list":[1,2]},"keyedPath":"inner\/child","#
        + #""listCount":2,"listPath":"inner\/child\/list"}}"#)
  }

  // MARK: Writes through a container kept past the call

  struct Keeper: Encodable {
    let kept: Kept
    func encode(to encoder: any Encoder) throws {
      var top = encoder.container(keyedBy: ParityKey.self)
      try top.encode(1, forKey: ParityKey("a"))
      var list = top.nestedUnkeyedContainer(forKey: ParityKey("list"))
      try list.encode(1)
      kept.keyed = top
      kept.unkeyed = list
    }
  }

  struct SingleKeeper: Encodable {
    let kept: Kept
    func encode(to encoder: any Encoder) throws {
      var single = encoder.singleValueContainer()
      try single.encode("value")
      kept.single = single
    }
  }

  struct Point: Codable { var x = 1, y = [2, 3] }

  /// What writing through the kept containers gives: each write's outcome.
  static func writeAfterTheCall(_ kept: Kept) -> [String] {
    var results: [String] = []
    func attempt(_ body: () throws -> Void) {
      do {
        try body()
        results.append("ok")
      } catch {
        results.append("error " + Parity.describe(error))
      }
    }
    attempt { try kept.keyed?.encode(2, forKey: ParityKey("b")) }
    attempt { try kept.keyed?.encode(Point(), forKey: ParityKey("point")) }
    attempt {
      var nested = kept.keyed?.nestedContainer(keyedBy: ParityKey.self, forKey: ParityKey("n"))
      try nested?.encode("x", forKey: ParityKey("x"))
      try kept.keyed?.encode(3, forKey: ParityKey("c"))
      try nested?.encode("y", forKey: ParityKey("y"))
    }
    attempt { try kept.unkeyed?.encode(2) }
    attempt { try kept.unkeyed?.encode(Point()) }
    attempt { try kept.single?.encode(Point()) }
    return results
  }

  @Test func writesThroughAContainerKeptPastTheCallAreIgnored() throws {
    let fast = FastJSONEncoder()
    var fastKept = Kept()
    var foundationKept = Kept()
    let theirs = try Self.canonical(JSONEncoder().encode(Keeper(kept: foundationKept)))
    #expect(try Self.canonical(fast.encode(Keeper(kept: fastKept))) == theirs)
    let ourWrites = Self.writeAfterTheCall(fastKept)
    #expect(ourWrites == Self.writeAfterTheCall(foundationKept))
    #expect(ourWrites == Array(repeating: "ok", count: 6))
    // The encoder goes on as before.
    #expect(try Self.canonical(fast.encode(Keeper(kept: Kept()))) == theirs)

    // A nested value's containers, and a single-value container.
    fastKept = Kept()
    foundationKept = Kept()
    #expect(
      try Self.canonical(FastJSONEncoder().encode([SingleKeeper(kept: fastKept)]))
        == Self.canonical(JSONEncoder().encode([SingleKeeper(kept: foundationKept)])))
    _ = try FastJSONEncoder().encode(Wrapper(inner: Keeper(kept: fastKept)))
    _ = try JSONEncoder().encode(Wrapper(inner: Keeper(kept: foundationKept)))
    #expect(Self.writeAfterTheCall(fastKept) == Self.writeAfterTheCall(foundationKept))
  }

  // MARK: A keyed and an unkeyed container on one encoder

  struct KeyedThenUnkeyed: Encodable {
    var writesSecond = true
    func encode(to encoder: any Encoder) throws {
      var keyed = encoder.container(keyedBy: ParityKey.self)
      try keyed.encode(1, forKey: ParityKey("a"))
      var unkeyed = encoder.unkeyedContainer()
      if writesSecond { try unkeyed.encode(2) }
      try keyed.encode(3, forKey: ParityKey("b"))
    }
  }

  struct UnkeyedThenKeyed: Encodable {
    func encode(to encoder: any Encoder) throws {
      var unkeyed = encoder.unkeyedContainer()
      try unkeyed.encode(1)
      var keyed = encoder.container(keyedBy: ParityKey.self)
      try keyed.encode(2, forKey: ParityKey("a"))
    }
  }

  struct BothForOneKey: Encodable {
    func encode(to encoder: any Encoder) throws {
      var top = encoder.container(keyedBy: ParityKey.self)
      var first = top.nestedContainer(keyedBy: ParityKey.self, forKey: ParityKey("top"))
      try first.encode("first", forKey: ParityKey("name"))
      var second = top.nestedUnkeyedContainer(forKey: ParityKey("top"))
      try second.encode("second")
    }
  }

  /// A super encoder for a key that holds a container: its value replaces the container,
  /// whatever its kind, as `JSONEncoder`'s does.
  struct SuperOverAContainer: Encodable {
    var keyedFirst: Bool
    var keyedSuper: Bool
    func encode(to encoder: any Encoder) throws {
      var top = encoder.container(keyedBy: ParityKey.self)
      if keyedFirst {
        var nested = top.nestedContainer(keyedBy: ParityKey.self, forKey: ParityKey("k"))
        try nested.encode(1, forKey: ParityKey("first"))
      } else {
        var nested = top.nestedUnkeyedContainer(forKey: ParityKey("k"))
        try nested.encode(1)
      }
      let superEncoder = top.superEncoder(forKey: ParityKey("k"))
      if keyedSuper {
        var keyed = superEncoder.container(keyedBy: ParityKey.self)
        try keyed.encode(2, forKey: ParityKey("second"))
      } else {
        var unkeyed = superEncoder.unkeyedContainer()
        try unkeyed.encode(2)
      }
    }
  }

  @Test func aSuperEncoderReplacesTheContainerItsKeyHeld() {
    for keyedFirst in [false, true] {
      for keyedSuper in [false, true] {
        Self.expectSameJSON(SuperOverAContainer(keyedFirst: keyedFirst, keyedSuper: keyedSuper))
      }
    }
  }

  @Test func aKeyedAndAnUnkeyedContainerOnOneEncoderIsAnError() async {
    // `JSONEncoder` stops the program (a precondition) where the second container is asked for.
    await #expect(processExitsWith: .failure) {
      _ = try? JSONEncoder().encode(Wrapper(inner: KeyedThenUnkeyed()))
    }
    await #expect(processExitsWith: .failure) {
      _ = try? JSONEncoder().encode(BothForOneKey())
    }
    // `FastJSONEncoder` throws where the second container is written to, at its path.
    let unkeyed =
      "Attempt to encode into an unkeyed container where a keyed container was"
      + " already made at this path; the keyed container's values are kept."
    let keyed =
      "Attempt to encode into a keyed container where an unkeyed container was"
      + " already made at this path; the unkeyed container's values are kept."
    for configure in [{ (_: FastJSONEncoder) in }, { $0.outputFormatting = .sortedKeys }] {
      let encoder = FastJSONEncoder()
      configure(encoder)
      #expect(
        Self.outcome { try encoder.encode(Wrapper(inner: KeyedThenUnkeyed())) }
          == "error invalidValue(Int) at inner: \(unkeyed)")
      #expect(
        Self.outcome { try encoder.encode([UnkeyedThenKeyed()]) }
          == "error invalidValue(Int) at [0|Index 0]: \(keyed)")
      #expect(
        Self.outcome { try encoder.encode(BothForOneKey()) }
          == "error invalidValue(String) at top: \(unkeyed)")
      // Asked for and not written to, the second container loses nothing.
      #expect(
        Self.outcome { try encoder.encode(Wrapper(inner: KeyedThenUnkeyed(writesSecond: false))) }
          == #"value {"inner":{"a":1,"b":3}}"#)
    }
  }

  /// The super encoder of a conflicting container still gives the encoder's `userInfo` (it
  /// gave none), as every other encoder a value is handed does.
  struct ConflictingSuperEncoderReadsUserInfo: Encodable {
    static let key = CodingUserInfoKey(rawValue: "tenant")!
    func encode(to encoder: any Encoder) throws {
      var keyed = encoder.container(keyedBy: ParityKey.self)
      try keyed.encode(1, forKey: ParityKey("a"))
      var conflicting = encoder.unkeyedContainer()
      var nested = conflicting.superEncoder().unkeyedContainer()
      for seen in [
        conflicting.superEncoder().userInfo, nested.superEncoder().userInfo,
      ] where seen[Self.key] as? String != "acme" {
        throw EncodingError.invalidValue(
          seen, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "lost"))
      }
    }
  }

  @Test func aConflictingContainersSuperEncoderKeepsTheUserInfo() {
    for sorted in [false, true] {
      let encoder = FastJSONEncoder()
      if sorted { encoder.outputFormatting = .sortedKeys }
      encoder.userInfo[ConflictingSuperEncoderReadsUserInfo.key] = "acme"
      #expect(
        Self.outcome { try encoder.encode(Wrapper(inner: ConflictingSuperEncoderReadsUserInfo())) }
          == #"value {"inner":{"a":1}}"#)
    }
  }
}
