import Foundation
import Testing

@testable import ObjectMappingDocument

/// What reading a payload through the stream reader gave: the elements (as nodes, with their
/// positions), the failed JSON Lines, and how it ended.
struct StreamReading: Equatable {
  var elements: [Node] = []
  var indexes: [Int] = []
  var failedLines: [FormatError] = []
  var end: End = .none

  enum End: Equatable {
    case none
    case failed(FormatError)
    case streamed(Node?)
    case document([UInt8])
    case envelope(Node)
  }

  /// Reads `bytes` in chunks of the sizes `chunkSizes` gives in turn (cycled).
  static func read(
    _ bytes: [UInt8], layout: StreamLayout, options: JSONReadingOptions = .strict,
    limit: Int = 1 << 24, chunkSizes: [Int]
  ) -> StreamReading {
    var reader = _JSONStreamReader(layout: layout, options: options, maximumElementSize: limit)
    var reading = StreamReading()
    var position = 0
    var turn = 0
    func drain() -> Bool {
      while reader.isReady {
        let outcome = reader.read { item in
          switch item {
          case .element(let index, let view, let elementBytes):
            reading.elements.append(view.node(at: 0))
            reading.indexes.append(index)
            // The bytes are the element's text.
            if let node = try? Node(jsonBytes: elementBytes.array, options: options) {
              #expect(node == view.node(at: 0))
            }
          case .failedElement(_, let error):
            reading.failedLines.append(error)
          }
          return true
        }
        switch outcome {
        case .more: continue
        case .stopped: return false
        case .failed(let error):
          reading.end = .failed(error)
          return false
        case .finished(let end):
          switch end {
          case .streamed(let envelope): reading.end = .streamed(envelope)
          case .document(let bytes): reading.end = .document(bytes)
          case .envelope(let node): reading.end = .envelope(node)
          }
          return false
        }
      }
      return true
    }
    while position < bytes.count {
      let size = max(1, chunkSizes[turn % chunkSizes.count])
      turn += 1
      let chunk = Array(bytes[position..<min(bytes.count, position + size)])
      position += chunk.count
      var consumed = 0
      while consumed < chunk.count {
        consumed = chunk.withUnsafeBytes { reader.consume($0, from: consumed) }
        guard drain() else { return reading }
      }
    }
    reader.finish()
    _ = drain()
    return reading
  }

  /// What reading the whole payload gives, in the reader's terms (arrays and key paths).
  static func expected(
    _ bytes: [UInt8], layout: StreamLayout, options: JSONReadingOptions = .strict
  ) -> StreamReading {
    var reading = StreamReading()
    let document: Node
    do {
      document = try Node(jsonBytes: bytes, options: options)
    } catch let error as FormatError {
      reading.end = .failed(error)
      return reading
    } catch {
      Issue.record("unexpected \(error)")
      return reading
    }
    let keys = layout.keys ?? []
    if keys.isEmpty {
      guard case .array(let elements) = document else {
        reading.end = .document(bytes)
        return reading
      }
      reading.elements = elements
      reading.indexes = Array(elements.indices)
      reading.end = .streamed(nil)
      return reading
    }
    // The array at the key path (object keys, first member wins), emptied in the envelope.
    func emptied(_ node: Node, _ keys: ArraySlice<String>) -> (Node, [Node])? {
      guard let key = keys.first, case .object(var members) = node,
        let position = members.firstIndex(where: { $0.key == key })
      else { return nil }
      let value = members[position].value
      if keys.count == 1 {
        guard case .array(let elements) = value else { return nil }
        members[position] = Node.Member(key, .array([]))
        return (.object(members), elements)
      }
      guard let (inner, elements) = emptied(value, keys.dropFirst()) else { return nil }
      members[position] = Node.Member(key, inner)
      return (.object(members), elements)
    }
    guard let (envelope, elements) = emptied(document, keys[...]) else {
      reading.end = .envelope(document)
      return reading
    }
    reading.elements = elements
    reading.indexes = Array(elements.indices)
    reading.end = .streamed(envelope)
    return reading
  }
}

@Suite struct JSONStreamReaderTests {
  static let chunkings: [[Int]] = [[1], [2], [3], [5, 1, 7], [64], [1 << 20]]

  /// Checks that every chunking reads `text` as the whole-document reader does.
  func expectAgrees(
    _ text: String, layout: StreamLayout = .array, options: JSONReadingOptions = .strict,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let bytes = Array(text.utf8)
    let expected = StreamReading.expected(bytes, layout: layout, options: options)
    for chunking in Self.chunkings {
      var got = StreamReading.read(bytes, layout: layout, options: options, chunkSizes: chunking)
      if case .failed = expected.end {
        // Elements before the error are reported; the whole reading reports none.
        got.elements = []
        got.indexes = []
      }
      #expect(got == expected, "chunks \(chunking)", sourceLocation: sourceLocation)
    }
  }

  @Test(arguments: [
    "[]", " [ ] ", "[1]", "[1,2,3]",
    #"[{"a":1},{"b":[1,2,{"c":"]}"}]},"x",null,true,false,-1.5e3]"#,
    "[ 1 , 2 ]\n", #"["é", "😀", "\u00e9\n\"\\"]"#, "[[[[]]]]", #"[{"a":{"b":{"c":[]}}}]"#,
  ])
  func validArraysReadAsTheWholeDocument(_ text: String) {
    expectAgrees(text)
  }

  @Test(arguments: [
    "", " ", "[", "[1", "[1,", "[1,]", "[,1]", "[1 2]", "[1}", "{", "[}", "[12x]", "[1.]", "[tru]",
    "[1] x", "[1]]", #"["a"#, "[\"a\nb\"]", "[{\"a\":1]", "[{\"a\" 1}]", "[-]", "[01]", "[1:2]",
    "[1 é]", "[\"\\x\"]", "[1/]", "\u{FEFF}[1]", "[{\"a\":1}\n\n,\n x]", "[1,,2]", "[\"\\ud800\"]",
  ])
  func invalidArraysFailAsTheWholeDocument(_ text: String) {
    expectAgrees(text)
  }

  @Test(arguments: ["{}", #"{"a":[1]}"#, "1", "\"x\"", "null", " 12 "])
  func nonArraysAreReadWhole(_ text: String) {
    expectAgrees(text)
  }

  @Test(arguments: [
    #"{"data":[1,2],"next":"x"}"#, #"{"next":"x","data":[{"a":1}]}"#, #"{"data":[]}"#,
    #"{"data":1}"#, #"{"other":[1]}"#, #"{"data":[1],"data":[2]}"#, #"{"d\u0061ta":[7]}"#,
    #"{"data":{"x":1}}"#, #"[{"data":[1]}]"#, "{", #"{"data":[1"#, #"{"data":[1]"#,
    #"{"data":[1]]"#, #"{"a" 1,"data":[1]}"#, #"{"data":[1],"b":}"#, #"{"x":[1,{"data":[2]}]}"#,
  ])
  func arraysUnderAKeyReadAsTheWholeDocument(_ text: String) {
    expectAgrees(text, layout: .array(at: "data"))
  }

  @Test func nestedKeyPaths() {
    expectAgrees(
      #"{"a":1,"result":{"page":2,"items":[{"id":1},{"id":2}],"more":true},"z":[]}"#,
      layout: .array(at: "result.items"))
    expectAgrees(#"{"result":[{"items":[1]}]}"#, layout: .array(at: "result.items"))
    expectAgrees(#"{"a.b":[1,2]}"#, layout: .array(at: #"a\.b"#))
  }

  @Test func lenientReading() {
    let lenient = JSONReadingOptions.lenient
    expectAgrees("[1, /* two */ 2, // three\n 3,]", options: lenient)
    expectAgrees("\u{FEFF}[1]", options: lenient)
    expectAgrees("[1 /* ] */]", options: lenient)
    expectAgrees("[{\"a\": /* } */ 1}]", options: lenient)
    expectAgrees("[1 /x]", options: lenient)
    expectAgrees("[1 /* open", options: lenient)
    expectAgrees(
      "{\"data\": /* [ */ [1, 2,], \"n\": 1,}", layout: .array(at: "data"),
      options: lenient)
  }

  @Test func depthLimits() {
    let shallow = JSONReadingOptions(maximumDepth: 3)
    expectAgrees("[[[1]]]", options: shallow)
    expectAgrees("[[[[1]]]]", options: shallow)
    expectAgrees(#"{"data":[[1]]}"#, layout: .array(at: "data"), options: shallow)
    expectAgrees(#"{"data":[[[1]]]}"#, layout: .array(at: "data"), options: shallow)
    expectAgrees(#"{"a":{"b":{"data":[1]}}}"#, layout: .array(at: "a.b.data"), options: shallow)
    expectAgrees("[1]", options: JSONReadingOptions(maximumDepth: 0))
  }

  @Test func duplicateKeysAreReportedAtTheElementsPath() {
    let options = JSONReadingOptions(rejectsDuplicateKeys: true)
    expectAgrees("[{\"a\":1},\n{\"b\":1,\n \"b\":2}]", options: options)
    expectAgrees(#"{"data":[{"a":1,"a":2}]}"#, layout: .array(at: "data"), options: options)
    expectAgrees(#"{"x":1,"data":[1],"x":2}"#, layout: .array(at: "data"), options: options)
    expectAgrees(
      "{\"x\":1,\"data\":[1,\n2],\n \"y\":1, \"y\":2}", layout: .array(at: "data"),
      options: options)
  }

  @Test func aSyntaxErrorHasItsStreamLocation() {
    let text = "[{\"id\": 1},\n {\"id\": 2},\n {\"id\": 3 \"x\"}]"
    let reading = StreamReading.read(Array(text.utf8), layout: .array, chunkSizes: [4])
    #expect(reading.elements == [["id": 1], ["id": 2]])
    guard case .failed(let error) = reading.end else {
      Issue.record("expected a failure, got \(reading.end)")
      return
    }
    #expect(
      error.description
        == "syntax error at line 3, column 11 (byte 34): expected ',' or '}' after an object "
        + "member, found '\"'")
  }

  @Test func anElementPastTheLimitIsAnError() {
    let text = #"[{"a":"0123456789"},{"a":"01234567890123456789012345"}]"#
    let reading = StreamReading.read(
      Array(text.utf8), layout: .array, limit: 20, chunkSizes: [3])
    #expect(reading.elements == [["a": "0123456789"]])
    guard case .failed(let error) = reading.end else {
      Issue.record("expected a failure, got \(reading.end)")
      return
    }
    #expect(
      error.description
        == "/1: syntax error at line 1, column 21 (byte 20): the element is larger than the "
        + "element size limit of 20 bytes")
    // An error inside the first bytes of the element wins over the limit.
    let broken = #"[{"a":1 "b":"0123456789012345678901234567890"}]"#
    let brokenReading = StreamReading.read(
      Array(broken.utf8), layout: .array, limit: 20, chunkSizes: [1])
    guard case .failed(let brokenError) = brokenReading.end else {
      Issue.record("expected a failure")
      return
    }
    #expect(
      brokenError.description
        == "syntax error at line 1, column 9 (byte 8): expected ',' or '}' after an object "
        + "member, found '\"'")
  }

  // MARK: JSON Lines

  @Test func jsonLinesReadEachLineAsADocument() {
    let text = "{\"a\":1}\n\n  \r\n[2]\r\n \"x\" \n{\"a\":\n3\n"
    for chunking in Self.chunkings {
      let reading = StreamReading.read(Array(text.utf8), layout: .jsonLines, chunkSizes: chunking)
      #expect(reading.elements == [["a": 1], [2], "x", 3], "chunks \(chunking)")
      #expect(reading.indexes == [0, 1, 2, 4])
      #expect(
        reading.failedLines.map(\.description) == [
          "/3: syntax error at line 6, column 6 (byte 29): expected a value, found end of input"
        ], "chunks \(chunking)")
      #expect(reading.end == .streamed(nil))
    }
  }

  @Test func jsonLinesTrailingCharactersAndLoneReturns() {
    let text = "1 2\n{\"a\":1}\r{\"b\":2}\n[1]"
    for chunking in Self.chunkings {
      let reading = StreamReading.read(Array(text.utf8), layout: .jsonLines, chunkSizes: chunking)
      #expect(reading.elements == [[1]], "chunks \(chunking)")
      #expect(
        reading.failedLines.map(\.description) == [
          "/0: syntax error at line 1, column 3 (byte 2): trailing characters after the "
            + "top-level value",
          "/1: syntax error at line 3, column 1 (byte 12): trailing characters after the "
            + "top-level value",
        ], "chunks \(chunking)")
    }
  }

  @Test func jsonLinesCommentsAndByteOrderMark() {
    let text = "\u{FEFF}{\"a\":1} // one\n// nothing\n/* two */ 2\n"
    for chunking in Self.chunkings {
      let reading = StreamReading.read(
        Array(text.utf8), layout: .jsonLines, options: .lenient, chunkSizes: chunking)
      #expect(reading.elements == [["a": 1], 2], "chunks \(chunking)")
      #expect(reading.failedLines.isEmpty)
    }
  }

  @Test func aJSONLinePastTheLimitFailsAndTheNextIsRead() {
    let text = "[1]\n\"0123456789012345678901234567890\"\n[3]\n"
    let reading = StreamReading.read(
      Array(text.utf8), layout: .jsonLines, limit: 10, chunkSizes: [4])
    #expect(reading.elements == [[1], [3]])
    #expect(reading.indexes == [0, 2])
    #expect(
      reading.failedLines.map(\.description) == [
        "/1: syntax error at line 2, column 1 (byte 4): the line is larger than the element "
          + "size limit of 10 bytes"
      ])
  }
}

/// Generated and mutated payloads, split at random points: the stream reader agrees with the
/// whole-document reader on every one (fixed seed).
@Suite struct JSONStreamReaderPropertyTests {
  struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  static let pieces: [String] = [
    "\"a\"", "\"data\"", "\"é😀\"", #""\"\\""#, #""\u00e9""#, "\"\\ud83d\\ude00\"", "1", "-0.5e-3",
    "12345678901234567890", "true", "false", "null", "[]", "{}", " ", "\n", "\r\n", "\t",
  ]
  static let noise: [String] = [
    ",", ":", "[", "]", "{", "}", "\"", "\\", "/", "/*", "*/", "//", "\n", "\r", "x", "é",
    "\u{FEFF}", "0", ".", "-", "\u{01}",
  ]

  static func value(_ depth: Int, _ random: inout Generator) -> String {
    let choice =
      depth > 3 ? Int.random(in: 0..<8, using: &random) : Int.random(in: 0..<11, using: &random)
    switch choice {
    case 0..<8: return pieces[Int.random(in: 0..<12, using: &random)]
    case 8:
      let count = Int.random(in: 0..<4, using: &random)
      return "[" + (0..<count).map { _ in value(depth + 1, &random) }.joined(separator: ", ") + "]"
    default:
      let count = Int.random(in: 0..<4, using: &random)
      let keys = ["\"a\"", "\"data\"", "\"b\"", "\"d\\u0061ta\""]
      return "{"
        + (0..<count).map { _ in
          keys[Int.random(in: 0..<keys.count, using: &random)] + ": " + value(depth + 1, &random)
        }.joined(separator: ",\n ") + "}"
    }
  }

  static func payload(_ random: inout Generator, keyPath: Bool) -> String {
    let count = Int.random(in: 0..<6, using: &random)
    let array = "[" + (0..<count).map { _ in value(1, &random) }.joined(separator: ", ") + "]"
    var text = keyPath ? #"{"a": 1, "data": \#(array), "next": "x"}"# : " " + array + "\n"
    // Mutations: insert, delete or replace a few bytes.
    var bytes = Array(text.utf8)
    for _ in 0..<Int.random(in: 0..<3, using: &random) where !bytes.isEmpty {
      let at = Int.random(in: 0..<bytes.count, using: &random)
      switch Int.random(in: 0..<3, using: &random) {
      case 0:
        bytes.insert(
          contentsOf: noise[Int.random(in: 0..<noise.count, using: &random)].utf8, at: at)
      case 1: bytes.remove(at: at)
      default: bytes[at] = Array(noise[Int.random(in: 0..<noise.count, using: &random)].utf8)[0]
      }
    }
    text = String(decoding: bytes, as: UTF8.self)
    return text
  }

  /// The batch locations (counted a word at a time without `\r`) are the scanner's.
  @Test func locationsAfterBytesAreTheScanners() {
    var random = Generator(state: 42)
    let pieces = ["a", "{\"k\": 1}", " ", "\n", "\r", "\r\n", "é", "€", "😀", "\n\n"]
    for round in 0..<2_000 {
      var text = ""
      for _ in 0..<Int.random(in: 0...40, using: &random) {
        // Every fourth payload without `\r`: the fast path.
        let piece = pieces[Int.random(in: 0..<pieces.count, using: &random)]
        text += round % 4 == 0 ? piece.replacingOccurrences(of: "\r", with: "") : piece
      }
      let bytes = Array(text.utf8)
      let start = TextLocation(offset: 7, line: 3, column: 5)
      bytes.withUnsafeBufferPointer { buffer in
        let whole = _JSONScanner.location(of: buffer.count, in: buffer)
        let fromStart = _JSONStreamReader.advance(
          TextLocation(offset: 0, line: 1, column: 1), over: buffer)
        #expect(fromStart == whole, "\(text.debugDescription)")
        let moved = _JSONStreamReader.advance(start, over: buffer)
        #expect(moved.offset == 7 + bytes.count)
        #expect(moved.line == 2 + whole.line, "\(text.debugDescription)")
        #expect(
          moved.column == (whole.line == 1 ? 4 + whole.column : whole.column),
          "\(text.debugDescription)")
      }
    }
  }

  @Test(arguments: [false, true])
  func mutatedPayloadsReadAsTheWholeDocument(keyPath: Bool) {
    var random = Generator(state: keyPath ? 40 : 41)
    let layout: StreamLayout = keyPath ? .array(at: "data") : .array
    for round in 0..<(Int(ProcessInfo.processInfo.environment["STREAM_ROUNDS"] ?? "") ?? 1_500) {
      let options: JSONReadingOptions =
        round % 3 == 0
        ? .lenient
        : JSONReadingOptions(
          maximumDepth: round % 5 == 0 ? 3 : 512, rejectsDuplicateKeys: round % 7 == 0)
      let bytes = Array(Self.payload(&random, keyPath: keyPath).utf8)
      let expected = StreamReading.expected(bytes, layout: layout, options: options)
      let sizes = (0..<4).map { _ in Int.random(in: 1...9, using: &random) }
      var got = StreamReading.read(bytes, layout: layout, options: options, chunkSizes: sizes)
      if case .failed = expected.end {
        got.elements = []
        got.indexes = []
      }
      #expect(
        got == expected,
        "\(String(decoding: bytes, as: UTF8.self).debugDescription) chunks \(sizes) options \(options)"
      )
    }
  }
}
