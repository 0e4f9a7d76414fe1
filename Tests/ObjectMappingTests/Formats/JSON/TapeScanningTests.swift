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

  /// Long strings that repeat share one storage during a whole document's reading
  /// (`_SharedStrings`); each still reads as its own bytes, compared with `JSONDecoder`: repeats,
  /// strings of one length with the same first and last eight bytes (one slot, told apart by
  /// their whole bytes), escaped and non-ASCII strings, and more distinct strings than slots.
  @Test func longStringsThatRepeatReadAsTheirOwnBytes() throws {
    var strings: [String] = []
    for round in 0..<3 {
      for index in 0..<400 {
        strings.append("https://example.com/profile_images/\(index)/picture.png")
        strings.append(
          "prefix--" + String(repeating: "ab", count: index % 7) + "\(index % 5)--suffix")
        if index % 3 == round { strings.append("a line\nbreak and a tab\t, long enough \(index)") }
      }
      strings.append("幸せの☆お守り 幸せの☆お守り \(round % 2)")
      strings.append("short \(round)")
    }
    let data = try JSONEncoder().encode(strings)
    #expect(data.count >= _SharedStrings.minimumDocumentSize)
    let read = try _Tape.scan(jsonData: data, options: .strict) { view -> [String] in
      #expect(view.sharedStrings != nil)
      var element = 1
      var values: [String] = []
      for _ in 0..<view.count(at: 0) {
        values.append(view.string(at: element))
        element = view.next(after: element)
      }
      return values
    }
    #expect(read == (try JSONDecoder().decode([String].self, from: data)))
    #expect(read == strings)
    // A small document keeps no table.
    try _Tape.scan(jsonString: Self.text, options: .strict) { #expect($0.sharedStrings == nil) }
  }
}
