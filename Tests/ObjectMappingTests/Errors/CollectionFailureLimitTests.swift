import Foundation
import Testing

@testable import ObjectMapping

/// A collection value with many bad elements keeps at most the run's error limit of their
/// failures and counts the rest: it built every element's failure (about 85 bytes each, 140 MB
/// for a 4 MB array of bad values) whatever the limit, and the run kept only the first ones.
struct CollectionFailureLimitTests {
  struct Numbers {
    var values: [Int] = []
    var table: [String: [Int]] = [:]
  }

  static let mapping = Mapping(Numbers.init) {
    Attribute("values", \.values).optional()
    Attribute("table", \.table).optional()
  }

  static let bad = "[" + Array(repeating: #""x""#, count: 5_000).joined(separator: ",") + "]"

  @Test(arguments: [0, 10, 1_000])
  func aCollectionKeepsAtMostTheLimitOfItsFailures(limit: Int) throws {
    let options = MappingOptions(errorLimit: limit)
    for json in [#"{"values": \#(Self.bad)}"#, #"{"table": {"a": \#(Self.bad), "b": [1, "y"]}}"#] {
      let error = try #require(throws: MappingErrors.self) {
        try Self.mapping.map(json, with: options)
      }
      let total = json.hasPrefix(#"{"values""#) ? 5_000 : 5_001
      #expect(error.errors.count == min(limit, total))
      #expect(error.errors.count + error.omittedCount == total)
    }
    // The failures the value itself holds: the limit's worth, the rest counted.
    let context = ValueContext.default.applying(options)
    var failures = NestedConversionFailures(limit: context.errorLimit)
    for index in 0..<5_000 {
      failures.add([.index(index)], ConversionFailure.typeMismatch(expected: "x", found: "y"))
    }
    var outer = NestedConversionFailures(limit: context.errorLimit)
    outer.add(nested: failures, at: .key("values"))
    #expect(failures.failures.count == limit && failures.omitted == 5_000 - limit)
    #expect(outer.failures.count == limit && outer.omitted == 5_000 - limit)
    #expect(outer.failures.first.map { $0.path.count } == (limit > 0 ? 2 : nil))
  }

  @Test func theDefaultLimitAppliesWithoutOptions() throws {
    let error = try #require(throws: MappingErrors.self) {
      try Self.mapping.map(#"{"values": \#(Self.bad)}"#)
    }
    #expect(error.errors.count == 1_000 && error.omittedCount == 4_000)
    #expect(ValueContext.default.errorLimit == MappingOptions.defaultErrorLimit)
  }
}
