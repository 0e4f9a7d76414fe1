import Foundation
import ObjectMappingTestSupport
import Testing

@testable import ObjectMapping

@Suite struct JSONRoundTripTests {
  @Test(
    .enabled(if: TestData.isAvailable, "needs ../shared/data (or OBJECT_MAPPING_DATA)"),
    arguments: ["twitter.json", "citm_catalog.json", "canada.json"])
  func corpusParseWriteParseIsEqual(file: String) throws {
    let data = try TestData.data("json-benchmark/\(file)")
    let node = try Node(jsonData: data)
    for options in [JSONWritingOptions(), [.prettyPrinted], [.sortedKeys]] {
      let written = try node.jsonData(options: options)
      let reread = try Node(jsonData: written)
      if options.contains(.sortedKeys) {
        #expect(
          reread.keys == node.keys.sorted { Array($0.utf8).lexicographicallyPrecedes($1.utf8) })
      } else {
        #expect(reread == node)
      }
    }
    // Compact output of compact output is byte-identical: nothing drifts.
    let once = try node.jsonData()
    #expect(try Node(jsonData: once).jsonData() == once)
  }

  @Test func largeIntegersAndDecimalsKeepTheirText() throws {
    let text = #"[12345678901234567890,0.1,-0.0,1E+2,0.1000000000000000000000000001]"#
    let node = try Node(jsonString: text)
    #expect(try node.jsonString() == text)
    #expect(node[0] == .decimal("12345678901234567890"))
    #expect(node[1] == .decimal("0.1"))
  }
}
