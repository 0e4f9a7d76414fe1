import Foundation
import ObjectMapping
import Testing

/// A deep value below a deep chain: a `Node` attribute or a `Codable` value is read by a reader
/// that recurses once per level of the value, below the object that holds it, without passing
/// through the engine's per-object stack check. At the end of a chain that used nearly all of
/// the thread's stack, such a value overflowed it (each alone fits). The attribute now checks the
/// stack the value needs first: the call fails with `stackExhausted`, or maps, never crashes.
extension DeepNestingTests {
  final class NVLink: @unchecked Sendable {
    // @unchecked: made and read by one thread at a time.
    var next: NVLink?
    var extra: Node?
    var tree: NVTree?
    var coded: NVTree?
  }

  struct NVTree: Codable, Sendable, Equatable {
    var k: [NVTree]
  }

  static let valueLink: Mapping<NVLink> = Mapping(NVLink.init) {
    Relationship("next", \.next, lazy: { DeepNestingTests.valueLink }).optional()
    Attribute("extra", \.extra)
    Attribute("tree", \.tree)
    Relationship("coded", \.coded, CodableMapping<NVTree>())
  }

  /// A chain of `links` objects whose innermost one holds `value` under `key`.
  static func valueChain(links: Int, key: String, value: String) -> String {
    String(repeating: #"{"next": "#, count: links) + #"{"\#(key)": \#(value)}"#
      + String(repeating: "}", count: links)
  }

  /// Maps `payload` on a thread of `stackKB`: `mapped`, `stack` (a `stackExhausted` error) or
  /// the error.
  static func mapValueChain(_ payload: String, stackKB: Int) -> String {
    let done = DispatchSemaphore(value: 0)
    let box = ResultBox<String>()
    let thread = Thread {
      do throws(MappingErrors) {
        _ = try valueLink.map(payload)
        box.value = "mapped"
      } catch {
        let exhausted = error.errors.contains {
          if case .stackExhausted = $0.kind { true } else { false }
        }
        box.value = exhausted ? "stack" : "\(error)"
      }
      done.signal()
    }
    thread.stackSize = stackKB << 10
    thread.start()
    done.wait()
    return box.value ?? "nothing"
  }

  @Test(.disabled(if: ProcessInfo.processInfo.environment["OBJECT_MAPPING_SANITIZER"] == "address"))
  func aDeepValueBelowADeepChainIsAnErrorNotACrash() throws {
    // A thread too small for 511 links, so that the longest chain it maps leaves levels for a
    // value below it: an optimized link takes a few hundred bytes, a debug one several KB.
    func longestChain(stackKB: Int) -> Int {
      var low = 1
      var high = 511
      while low < high {
        let middle = (low + high + 1) / 2
        let outcome = Self.mapValueChain(
          Self.valueChain(links: middle, key: "extra", value: "1"), stackKB: stackKB)
        if outcome == "mapped" { low = middle } else { high = middle - 1 }
      }
      return low
    }
    var stackKB = 256
    var longest = longestChain(stackKB: stackKB)
    while longest >= 450, stackKB > 64 {
      stackKB /= 2
      longest = longestChain(stackKB: stackKB)
    }
    try #require(longest < 450, "a \(stackKB) KB thread holds \(longest) links")
    // Chains at and just below that length, whose last object holds a value as deep as the
    // reading options allow: a `Node`, a `Codable` attribute, a `CodableMapping` child.
    for links in stride(from: longest, through: max(1, longest - 24), by: -4) {
      let depth = 510 - links
      let nested =
        String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
      // Two JSON levels per tree level, and two for the innermost `{"k": []}`.
      let tree =
        String(repeating: #"{"k": ["#, count: depth / 2 - 1) + #"{"k": []}"#
        + String(repeating: "]}", count: depth / 2 - 1)
      for (key, value) in [("extra", nested), ("tree", tree), ("coded", tree)] {
        let outcome = Self.mapValueChain(
          Self.valueChain(links: links, key: key, value: value), stackKB: stackKB)
        #expect(outcome == "mapped" || outcome == "stack", "\(key), \(links) links: \(outcome)")
      }
    }
  }

  /// With stack to spare, the same shapes map: the check does not refuse what fits.
  @Test func aDeepValueBelowAChainMapsWhenTheStackHoldsIt() throws {
    let depth = 200
    let nested = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
    let tree =
      String(repeating: #"{"k": ["#, count: depth / 2) + #"{"k": []}"#
      + String(repeating: "]}", count: depth / 2)
    let stackKB = Self.stackSize >> 10
    for (key, value) in [("extra", nested), ("tree", tree), ("coded", tree)] {
      let payload = Self.valueChain(links: 100, key: key, value: value)
      #expect(Self.mapValueChain(payload, stackKB: stackKB) == "mapped", "\(key)")
    }
    // And the value arrives whole.
    let link = try Self.valueLink.map(Self.valueChain(links: 3, key: "tree", value: tree))
    var innermost = link
    while let next = innermost.next { innermost = next }
    var levels = 0
    var current = innermost.tree
    while let node = current {
      levels += 1
      current = node.k.first
    }
    #expect(levels == depth / 2 + 1)
  }
}
