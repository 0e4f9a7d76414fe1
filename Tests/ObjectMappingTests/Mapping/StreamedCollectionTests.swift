import Foundation
import Testing

@testable import ObjectMapping

/// `mapCollection(_: Data)` and `mapCollection(_: String)` scan a top-level array an element at a
/// time. Whatever the payload, the outcome must be exactly the one of mapping a whole scanned
/// index (`mapAllElements(tape:)`): the same objects, or the same errors, diagnostics and
/// partial results.
@Suite struct StreamedCollectionTests {
  struct Entry: Equatable {
    var id = 0
    var title = ""
    var tags: [String] = []
    var position = -1
    var author: Author?
  }

  static let entryMapping = Mapping(Entry.init) {
    Attribute("id", \.id)
    Attribute("title", \.title).validate("no placeholder titles") { $0 != "tbd" }
    Attribute("tags", \.tags).optional()
    Attribute(.index, \.position)
    Relationship("author", \.author, authorMapping)
  }

  /// The outcome of the streamed entry point, as comparable text.
  static func streamed(
    _ text: String, options: JSONReadingOptions = .strict, mapping: Mapping<Entry> = entryMapping
  ) -> [String] {
    outcome { () throws(MappingErrors) in
      try mapping.mapCollection(.json(Data(text.utf8), reading: options))
    }
  }

  /// The outcome of mapping a whole scanned index.
  static func whole(
    _ text: String, options: JSONReadingOptions = .strict, mapping: Mapping<Entry> = entryMapping
  ) -> [String] {
    outcome { () throws(MappingErrors) in
      let tape = try _Tape.checked(json: Array(text.utf8), options: options)
      return try mapping.mapAllElements(tape: tape)
    }
  }

  static func outcome(_ body: () throws(MappingErrors) -> [Entry]) -> [String] {
    do {
      return try body().map { "\($0)" }
    } catch {
      let partial = error.partialResult(as: [Entry].self)?.map { "partial \($0)" } ?? []
      return error.errors.map(\.description) + partial
    }
  }

  @Test func elementsMapAsFromAWholeIndex() {
    let payloads = [
      #"[{"id": 1, "title": "a", "author": {"name": "Ann"}}, {"id": 2, "title": "b", "tags": ["x"]}]"#,
      "[]",
      " [ ] ",
      #"[{"id": 1, "title": "tbd"}, {"id": "two", "title": 3}, {"title": "c"}, 4, null, [] ]"#,
      #"{"id": 9, "title": "one object, not an array"}"#,
      #"[{"id": 1, "title": "a"}, {"id": 2, "title": "b"} "#,
      #"[{"id": 1, "title": "a"}, {"id": 2, "title": "b"}] x"#,
      #"[{"id": 1, "title": "a"},]"#,
      #"[{"id": 1, "title": "a"} {"id": 2}]"#,
      #"[{"id": 1, "title": "a\u00e9\n"}, {"id": 2, "title": "\ud83d\ude00"}]"#,
      "[{\"id\": 1, \"title\": \"bad \u{1} control\"}]",
      "\n\n  [{\"id\": 1,\n \"title\": \"a\"},\n {\"id\": 2, \"title\": }]",
      "\u{FEFF}[{\"id\": 1, \"title\": \"a\"}]",
      "[",
      "",
    ]
    for payload in payloads {
      #expect(Self.streamed(payload) == Self.whole(payload), "\(payload)")
      #expect(
        Self.streamed(payload, options: .lenient) == Self.whole(payload, options: .lenient),
        "\(payload)")
    }
    // The String entry point streams too.
    let text = #"[{"id": 5, "title": "e"}]"#
    #expect(
      (try? Self.entryMapping.mapCollection(text))
        == [Entry(id: 5, title: "e", position: 0)])
  }

  @Test func theScannerHoldsOneElementAtATime() throws {
    let text = #"[{"a": [1, 2]}, "x", {"b": {"c": null}}, 3]"#
    var seen: [(Int, Int, Int)] = []
    let outcome = try Array(text.utf8).withUnsafeBufferPointer { bytes throws(FormatError) in
      try _JSONScanner.scanArrayElements(bytes, options: .strict) { offset, element, _ in
        // Each element's subtree ends exactly at the end of its entries.
        seen.append((offset, element.entries.count, element.next(after: 0)))
        return true
      }
    }
    #expect(outcome == .finished)
    #expect(seen.map(\.0) == [0, 1, 2, 3])
    #expect(seen.map(\.1) == [5, 1, 5, 1])
    #expect(seen.allSatisfy { $0.1 == $0.2 })
    let notArray = try Array(#"{"a": 1}"#.utf8).withUnsafeBufferPointer {
      bytes throws(FormatError) in
      try _JSONScanner.scanArrayElements(bytes, options: .strict) { _, _, _ in true }
    }
    #expect(notArray == .notAnArray)
  }

  @Test func lenientDialectAtTheTopLevel() {
    let payload =
      "\u{FEFF}// list\n[{\"id\": 1, \"title\": \"a\"}, /* two */ {\"id\": 2, \"title\": \"b\"},]"
    #expect(Self.streamed(payload, options: .lenient) == Self.whole(payload, options: .lenient))
    #expect(Self.streamed(payload, options: .lenient).count == 2)
    #expect(Self.streamed(payload) == Self.whole(payload))
  }

  @Test func theDepthLimitCountsTheTopLevelArray() {
    var options = JSONReadingOptions.strict
    options.maximumDepth = 3
    // [ {author: {...}} ] is depth 3: allowed; one level more is not.
    let allowed = #"[{"id": 1, "title": "a", "author": {"name": "A"}}]"#
    let tooDeep = #"[{"id": 1, "title": "a", "author": {"name": "A", "x": [1]}}]"#
    #expect(Self.streamed(allowed, options: options) == Self.whole(allowed, options: options))
    #expect(Self.streamed(allowed, options: options).count == 1)
    #expect(Self.streamed(tooDeep, options: options) == Self.whole(tooDeep, options: options))
    #expect(
      Self.streamed(tooDeep, options: options).first?.contains("nesting deeper than 3") == true)
    options.maximumDepth = 0
    #expect(Self.streamed("[]", options: options) == Self.whole("[]", options: options))
  }

  @Test func aMappingReadingThePayloadGetsTheWholeDocument() throws {
    struct Line: Equatable {
      var sku = ""
      var document: Node = .null
    }
    let mapping = Mapping(Line.init) {
      Attribute("sku", \.sku)
      Attribute(.payload, \.document)
    }
    let payload = #"[{"sku": "7"}, {"sku": "8"}]"#
    // Every element reads the whole document, not just itself: the streamed walk notices the
    // rule on the first element and maps the payload from a whole index instead.
    let lines = try mapping.mapCollection(Data(payload.utf8))
    let document = try Node(jsonString: payload)
    #expect(lines == [Line(sku: "7", document: document), Line(sku: "8", document: document)])
    #expect(lines == (try mapping.mapCollection(document)))
  }

  @Test func skippingInvalidElementsKeepsTheValidOnesWithTheirPaths() throws {
    let payload =
      #"[{"id": 1, "title": "a"}, {"id": 2}, {"id": 3, "title": "tbd"}, {"id": 4, "title": "d"}]"#
    let mapper = Mapper(MappingProvider { Route("", Self.entryMapping) })
    let collection = try mapper.map(Data(payload.utf8))
    let objects = collection.all(Entry.self)
    #expect(objects.map(\.id) == [1, 3, 4])
    #expect(objects.map(\.position) == [0, 2, 3])
    #expect(collection.errors.map(\.description) == ["/1/title: required value is missing"])
    #expect(
      collection.diagnostics.map(\.description) == [
        "/1: element skipped: it did not map (see the errors at this path)",
        "/2/title: value rejected: no placeholder titles",
      ])
  }

  /// Seeded mutations of an array payload: the streamed and whole outcomes never differ.
  @Test func mutatedArraysMapAsFromAWholeIndex() {
    let seed = Array(
      #"[{"id": 1, "title": "a", "tags": ["x", "y"], "author": {"name": "Ann"}}, {"id": 2, "title": "tbd"}, {"id": 3, "title": "c\n"}]"#
        .utf8)
    let interesting = Array("[]{}\",:\\/*-0123456789tfn \n".utf8) + [0x00, 0xC3, 0xFF]
    var random = JSONReaderRandom(seed: 0x57AE)
    var differences = 0
    for _ in 0..<600 {
      var bytes = seed
      for _ in 0...random.next(below: 3) {
        let index = random.next(below: bytes.count + 1)
        let byte = interesting[random.next(below: interesting.count)]
        switch random.next(below: 3) {
        case 0 where index < bytes.count: bytes[index] = byte
        case 1: bytes.insert(byte, at: index)
        default: if index < bytes.count { bytes.remove(at: index) }
        }
      }
      let text = String(decoding: bytes, as: UTF8.self)
      guard Array(text.utf8) == bytes else { continue }  // invalid UTF-8: compared elsewhere
      if Self.streamed(text) != Self.whole(text) { differences += 1 }
    }
    #expect(differences == 0)
  }
}
