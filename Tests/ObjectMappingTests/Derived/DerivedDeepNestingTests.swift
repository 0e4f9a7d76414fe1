import Foundation
import ObjectMapping
import Testing

/// Mappings derived from a recursive `Codable` model, with and without a recursive relationship
/// override, at and past the nesting a thread's stack holds: a typed error, never a stack
/// overflow (found by a probe of derived mappings: 60 levels through the override overflowed
/// a 512 KB thread and 500 a 4 MB one; 400 levels of the plain derived mapping a 512 KB one,
/// where `CodableMapping` reported the error). The name matches CI's release run on a 512 KB
/// stack (`DeepNestingTests`).
@Suite struct DerivedDeepNestingTests {
  final class DDLink: Codable, @unchecked Sendable {
    // @unchecked: built and read by one thread at a time.
    var id = 0
    var next: DDLink?

    var depth: Int {
      var count = 1
      var link = self
      while let next = link.next {
        count += 1
        link = next
      }
      return count
    }
  }

  static let recursive: Mapping<DDLink> = Mapping(DDLink.self) {
    Relationship("next", \.next, lazy: { recursive })
  }
  static let plain = Mapping(DDLink.self)

  static func chain(_ levels: Int) -> String {
    String(repeating: #"{"id":1,"next":"#, count: levels - 1) + #"{"id":1,"next":null}"#
      + String(repeating: "}", count: levels - 1)
  }

  /// What mapping a chain `levels` deep gives on a small stack: its depth, or its first error.
  static func outcome(_ mapping: Mapping<DDLink>, levels: Int, stack: Int? = nil) -> String {
    let json = chain(levels)
    let run: @Sendable () -> String = {
      do {
        return "\(try mapping.map(json).depth)"
      } catch {
        return "\(error)"
      }
    }
    return DeepNestingTests.onSmallStack(run)
  }

  @Test func aRecursiveOverrideDeeperThanTheStackIsAnError() {
    // Either mapped whole or the stack error; reaching here at all is the point (it crashed).
    for levels in [60, 500] {
      let outcome = Self.outcome(Self.recursive, levels: levels)
      #expect(outcome == "\(levels)" || outcome.contains("stack"), "\(levels): \(outcome)")
    }
    #expect(Self.outcome(Self.recursive, levels: 30) == "30")
    // Past the default nesting, the reader's error.
    #expect(Self.outcome(Self.recursive, levels: 600).contains("nesting deeper than 512"))
  }

  @Test func aPlainDerivedMappingDeeperThanTheStackIsAnError() {
    for levels in [400, 500] {
      let outcome = Self.outcome(Self.plain, levels: levels)
      #expect(outcome == "\(levels)" || outcome.contains("stack"), "\(levels): \(outcome)")
    }
    // What CodableMapping gives for the same payload on the same stack.
    let codable = DeepNestingTests.onSmallStack { () -> String in
      do {
        return "\(try CodableMapping<DDLink>().map(Self.chain(500)).depth)"
      } catch {
        return "\(error)"
      }
    }
    #expect(codable == "500" || codable.contains("stack"), "\(codable)")
  }
}
