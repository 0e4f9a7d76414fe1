import Foundation
import ObjectMapping
import Testing

/// A key path of thousands of keys (`"a.a.a…"`, which a hostile definition file can hold)
/// neither crashes nor runs out of stack: it is a definition problem beyond 512 keys (the
/// nesting JSON is read to by default), reported by `validate()` and on use, and the inverse
/// leaves it out. The inverse's output tree was built and flattened by recursion, one frame per
/// key, and serializing nested one frame pair per key: 300 keys overflowed a 512 KB stack
/// (10,000 the 8 MB main thread). The name matches CI's release run on a 512 KB stack
/// (`DeepNestingTests`).
@Suite struct KeyPathDeepNestingTests {
  struct LKModel: Equatable, Sendable {
    var id = 0
    var name: String?
    var other: String?
  }

  static func path(_ keys: Int) -> String {
    Array(repeating: "a", count: keys).joined(separator: ".")
  }

  static func mapping(keys: Int) -> Mapping<LKModel> {
    Mapping(LKModel.init) {
      Attribute("id", \.id)
      Attribute(path(keys), \.name)
      Attribute(path(keys) + ".b", \.other).decodeOnly()
    }
  }

  @Test func aKeyPathOfTenThousandKeysIsADefinitionProblem() throws {
    let outcome = DeepNestingTests.onSmallStack { () -> [String] in
      let mapping = Self.mapping(keys: 10_000)
      var outcomes: [String] = []
      do {
        try mapping.validate()
        outcomes.append("valid")
      } catch {
        outcomes.append("\(error)")
      }
      outcomes.append((try? mapping.map(#"{"id": 7}"#)).map { "\($0)" } ?? "map threw")
      outcomes.append(mapping.inverted().omitted.map(\.reason).joined(separator: " | "))
      outcomes.append(
        (try? mapping.node(LKModel(id: 7, name: "x"))).map { "\($0)" } ?? "node threw")
      return outcomes
    }
    let problem =
      #"the key path "a.a.a.a.a.a.a.a.a.a.a.a.…" has 10000 keys; at most 512 (the nesting JSON "#
      + "is read to by default) can be read or written"
    #expect(outcome.first?.contains(problem) == true, "\(outcome.first ?? "")")
    #expect(outcome.first?.contains("10001 keys") == true, "\(outcome.first ?? "")")
    #expect(outcome.dropFirst().first == "map threw")
    // The inverse leaves the rule out, with the reason, and writes the rest.
    #expect(outcome.dropFirst(2).first == "it is marked decodeOnly() | \(problem)")
    #expect(outcome.dropFirst(3).first == #"{"id":7}"#)
  }

  /// 512 keys, the nesting the defaults read, read and write their value on a small stack; one
  /// more is the definition problem.
  @Test func aKeyPathAsDeepAsTheDefaultNestingRoundTrips() throws {
    let outcome = DeepNestingTests.onSmallStack { () -> String in
      let mapping = Mapping(LKModel.init) {
        Attribute("id", \.id)
        Attribute(Self.path(511), \.name)
      }
      let model = LKModel(id: 1, name: "deep")
      do {
        let data = try mapping.serialize(model)
        guard try mapping.map(data) == model else { return "read back differs" }
        let text = String(decoding: data, as: UTF8.self)
        let expected = #"{"a":"deep"}"# + String(repeating: "}", count: 510)
        return text.hasSuffix(expected) ? "ok" : "wrote \(text.suffix(40))"
      } catch {
        return "\(error)"
      }
    }
    #expect(outcome == "ok")
    #expect(throws: MappingErrors.self) { try Self.mapping(keys: 513).validate() }
    #expect(throws: Never.self) {
      try Mapping(LKModel.init) { Attribute(Self.path(512), \.name) }.validate()
    }
  }
}
