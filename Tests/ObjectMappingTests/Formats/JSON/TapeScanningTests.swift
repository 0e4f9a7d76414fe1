import Foundation
import Testing

@testable import ObjectMapping

/// The document layer's in-place scanning API (`_Tape.scan`, `_Tape.scanElements`): the mapping
/// layer reads `Data` and `String` payloads through it without naming a pointer.
@Suite struct TapeScanningTests {
  static let text = #"[{"id": 1, "tags": ["a", "b\n"]}, "x", 2.5, null]"#

  @Test func dataAndStringScanInPlaceToTheSameTape() throws {
    let expected = try Node(jsonString: Self.text)
    let fromData = try _Tape.scan(jsonData: Data(Self.text.utf8), options: .strict) {
      $0.node(at: 0)
    }
    let fromString = try _Tape.scan(jsonString: Self.text, options: .strict) { $0.node(at: 0) }
    #expect(fromData == expected)
    #expect(fromString == expected)
  }

  @Test func invalidJSONThrowsTheReadersErrorWithoutCallingTheBody() {
    var called = false
    let error = #expect(throws: FormatError.self) {
      try _Tape.scan(jsonString: "[1,", options: .strict) { _ in called = true }
    }
    #expect(!called)
    #expect(
      error?.description
        == "syntax error at line 1, column 4 (byte 3): expected a value, found end of input")
  }

  @Test func elementsAreScannedOneAtATime() throws {
    var seen: [(offset: Int, node: Node, total: Int)] = []
    let outcome = try _Tape.scanElements(jsonData: Data(Self.text.utf8), options: .strict) {
      offset, element, _, total in
      seen.append((offset, element.node(at: 0), total))
      return true
    }
    #expect(outcome == .finished)
    #expect(seen.map(\.offset) == [0, 1, 2, 3])
    #expect(seen.map(\.node) == (try Node(jsonString: Self.text)).arrayValue)
    #expect(seen.allSatisfy { $0.total == Self.text.utf8.count })
    let stopped = try _Tape.scanElements(jsonString: Self.text, options: .strict) { _, _, _, _ in
      false
    }
    #expect(stopped == .stopped)
    let object = try _Tape.scanElements(jsonString: #"{"a": 1}"#, options: .strict) { _, _, _, _ in
      true
    }
    #expect(object == .notAnArray)
    #expect(_UnsafeTapeView.empty.entries.isEmpty && _UnsafeTapeView.empty.bytes.isEmpty)
  }
}
