import Foundation
import ObjectMapping
import ObjectMappingTestSupport
import Testing

@Suite struct StreamedElementsTests {
  struct Author: Equatable {
    var name = ""
    var email: String?
  }

  struct Article: Equatable {
    var id = 0
    var title = ""
    var rating = 0.0
    var views: Int64 = 0
    var tags: [String] = []
    var author: Author?
    var position = -1
  }

  static let authorMapping = Mapping(Author.init) {
    Attribute("name", \.name)
    Attribute("email", \.email)
  }

  static let articleMapping = Mapping(Article.init) {
    Attribute("id", \.id)
    Attribute("title", \.title)
    Attribute("rating", \.rating)
    Attribute("views", \.views)
    Attribute("tags", \.tags).optional()
    Relationship("author", \.author, authorMapping)
    Attribute(.index, \.position).optional()
  }

  /// Article `index` as JSON: multi-byte characters, escapes, long numbers, nesting.
  static func article(_ index: Int) -> String {
    let title = ["plain", "caf\\u00e9 \\\"quoted\\\"", "emoji 😀 and é", "tab\\tline\\n", "ü"][
      index % 5]
    let author =
      index % 4 == 0
      ? "null" : #"{"name": "Author \#(index % 7)", "email": "a\#(index)@example.com"}"#
    return #"{"id": \#(index), "title": "\#(title) \#(index)", "rating": \#(index).25e-1, "#
      + #""views": \#(9_007_199_254_740_000 + index), "tags": ["t\#(index % 3)", "ß"], "#
      + #""author": \#(author)}"#
  }

  static func payload(_ count: Int, separator: String = ",\n ") -> [UInt8] {
    Array(("[" + (0..<count).map(article).joined(separator: separator) + "]").utf8)
  }

  static func wholeCollection(_ bytes: [UInt8]) throws -> [Article] {
    try articleMapping.mapCollection(Data(bytes))
  }

  // MARK: Elements are those of the whole payload

  @Test func everyChunkSizeGivesTheObjectsOfTheWholePayload() async throws {
    let bytes = Self.payload(12)
    let expected = try Self.wholeCollection(bytes)
    #expect(expected.count == 12)
    for size in 1...64 {
      let (elements, error) = await collect(
        Self.articleMapping.elements(of: ProbedChunks(bytes, size: size)))
      #expect(error == nil, "chunks of \(size)")
      #expect(elements == expected, "chunks of \(size)")
    }
    // Irregular chunks, and a byte at a time.
    let (irregular, _) = await collect(
      Self.articleMapping.elements(of: ProbedChunks(bytes, sizes: [1, 7, 2, 300, 3])))
    #expect(irregular == expected)
    let (single, _) = await collect(Self.articleMapping.elements(of: ProbedBytes(bytes: bytes)))
    #expect(single == expected)
  }

  @Test func manyElementsSpanSeveralBatches() async throws {
    let bytes = Self.payload(3_000, separator: ",")
    let expected = try Self.wholeCollection(bytes)
    for size in [4_093, 65_536, 1 << 22] {
      let (elements, error) = await collect(
        Self.articleMapping.elements(of: ProbedChunks(bytes, size: size)))
      #expect(error == nil)
      #expect(elements == expected, "chunks of \(size)")
    }
  }

  @Test func anArrayUnderAKeyPathAndItsEnvelope() async throws {
    let array = String(decoding: Self.payload(5), as: UTF8.self)
    let text = #"{"page": 2, "data": \#(array), "next": "/articles?page=3"}"#
    let expected = try Self.wholeCollection(Self.payload(5))
    for size in [1, 2, 5, 64, 4_096] {
      let page = Self.articleMapping.elements(
        of: ProbedChunks(Array(text.utf8), size: size), as: .array(at: "data"))
      let (elements, error) = await collect(page)
      #expect(error == nil)
      #expect(elements == expected)
      #expect(page.summary.envelope == ["page": 2, "data": [], "next": "/articles?page=3"])
      #expect(page.summary.isComplete)
      #expect(page.summary.elementCount == 5)
    }
  }

  /// A stream's key path is read as a mapping's source path is: `\.` is a literal dot, and a
  /// trailing `\` a literal backslash (one reader of dotted keys serves the source paths, the
  /// streams and the object manager's response key paths).
  @Test func aKeyPathWithEscapesReadsTheKeysASourcePathReads() async throws {
    let keyPath = #"page\.v2.items\"#
    #expect(SourcePath(keyPath).keys == ["page.v2", #"items\"#])
    let array = String(decoding: Self.payload(3), as: UTF8.self)
    let text = #"{"page.v2": {"items\\": \#(array)}, "page": {"v2": {"items": []}}}"#
    let (elements, error) = await collect(
      Self.articleMapping.elements(
        of: ProbedChunks(Array(text.utf8), size: 7), as: .array(at: keyPath)))
    #expect(error == nil)
    #expect(elements == (try Self.wholeCollection(Self.payload(3))))
  }

  @Test func aPayloadThatIsNotAnArrayMapsAsMapCollectionMapsIt() async throws {
    let text = Self.article(3)
    let (elements, error) = await collect(
      Self.articleMapping.elements(of: ProbedChunks(Array(text.utf8), size: 3)))
    #expect(error == nil)
    #expect(elements == (try Self.articleMapping.mapCollection(text)))
    // A value at the key path that is not an array, and a key path with nothing at it.
    let single = #"{"data": \#(text)}"#
    let (one, _) = await collect(
      Self.articleMapping.elements(
        of: ProbedChunks(Array(single.utf8), size: 4), as: .array(at: "data")))
    #expect(one.map(\.id) == [3])
    let missing = await collect(
      Self.articleMapping.elements(
        of: ProbedChunks(Array(#"{"items": [], "next": null}"#.utf8), size: 4),
        as: .array(at: "data")))
    #expect(
      "\(missing.error.map { "\($0)" } ?? "no error")"
        == #"nothing to map: no route found mappable content at "data"; the payload's top-level "#
        + #"keys are "items", "next""#)
  }

  @Test func jsonLinesMapEachLine() async throws {
    let lines = (0..<20).map(Self.article).joined(separator: "\n") + "\n\n"
    let expected = try (0..<20).map { try Self.articleMapping.map(Self.article($0)) }
    for size in [1, 3, 64, 100_000] {
      let (elements, error) = await collect(
        Self.articleMapping.elements(
          of: ProbedChunks(Array(lines.utf8), size: size), as: .jsonLines))
      #expect(error == nil)
      // The position of a line's object is its index among the lines' values.
      #expect(elements.map(\.position) == Array(0..<20))
      #expect(
        elements.map {
          var copy = $0
          copy.position = -1
          return copy
        } == expected)
    }
  }

  @Test func aLineLeftOpenFailsAsItselfWhateverTheChunks() async {
    // The first line's object is left open: read with the lines after it, the scan fails on a
    // later line; the failing element is still the first line (found by the stream fuzzer).
    let text = "{\"id\": 1\n\n][2\n}\"three\"\n{\"bad\": }\n"
    for size in [1, 2, 3, 5, 1_000] {
      let (elements, error) = await collect(
        Self.articleMapping.elements(
          of: ProbedChunks(Array(text.utf8), size: size), as: .jsonLines))
      #expect(elements.isEmpty)
      #expect(
        "\(error.map { "\($0)" } ?? "no error")"
          == "/0: syntax error at line 1, column 9 (byte 8): expected ',' or '}' after an object "
          + "member, found end of input", "chunks of \(size)")
    }
  }

  // MARK: Errors

  @Test func aSyntaxErrorEndsTheStreamAfterTheElementsBeforeIt() async {
    let text =
      "[{\"id\": 1, \"title\": \"a\", \"rating\": 1, \"views\": 1},\n {\"id\": 2 \"title\": \"b\"}]"
    for size in [1, 4, 1_000] {
      let (elements, error) = await collect(
        Self.articleMapping.elements(of: ProbedChunks(Array(text.utf8), size: size)))
      #expect(elements.map(\.id) == [1])
      #expect(
        "\(error.map { "\($0)" } ?? "none")"
          == "syntax error at line 2, column 11 (byte 61): expected ',' or '}' after an object "
          + "member, found '\"'")
    }
  }

  @Test func anElementThatFailsEndsTheStreamWithItsPath() async {
    var articles = (0..<6).map(Self.article)
    articles[4] = #"{"id": 4, "title": "x", "rating": 1, "views": 2, "author": {"name": [7]}}"#
    let text = "[" + articles.joined(separator: ",") + "]"
    let (elements, error) = await collect(
      Self.articleMapping.elements(of: ProbedChunks(Array(text.utf8), size: 10)))
    #expect(elements.map(\.id) == [0, 1, 2, 3])
    let errors = error as? MappingErrors
    #expect(
      errors?.errors.map(\.description) == [#"/4/author/name: expected a string, found an array"#])
  }

  @Test func skippedElementsAreCountedWithADiagnostic() async {
    var articles = (0..<6).map(Self.article)
    articles[1] = #"{"id": "one", "title": "x", "rating": 1, "views": 2}"#
    articles[4] = #"{"id": 4, "rating": 1, "views": 2}"#
    let text = #"{"data": [\#(articles.joined(separator: ","))]}"#
    let stream = Self.articleMapping.elements(
      of: ProbedChunks(Array(text.utf8), size: 7), as: .array(at: "data"),
      options: StreamOptions(onElementFailure: .skip))
    let (elements, error) = await collect(stream)
    #expect(error == nil)
    #expect(elements.map(\.id) == [0, 2, 3, 5])
    #expect(stream.summary.skippedCount == 2)
    #expect(stream.summary.elementCount == 6)
    #expect(
      stream.summary.diagnostics.map(\.description) == [
        #"/data/1: element skipped: /data/1/id: cannot convert "one" to an integer"#,
        "/data/4: element skipped: /data/4/title: required value is missing",
      ])
  }

  @Test func aJSONLineThatIsNotJSONIsSkippedUnderSkip() async {
    let text = "\(Self.article(0))\n{\"id\": 1,,}\n\(Self.article(2))\n"
    let failing = await collect(
      Self.articleMapping.elements(of: ProbedChunks(Array(text.utf8), size: 5), as: .jsonLines))
    #expect(failing.elements.map(\.id) == [0])
    let offset = Self.article(0).utf8.count + 1 + 9
    #expect(
      "\(failing.error.map { "\($0)" } ?? "none")"
        == "/1: syntax error at line 2, column 10 (byte \(offset)): expected a string key after "
        + "',' in an object, found ','")
    let stream = Self.articleMapping.elements(
      of: ProbedChunks(Array(text.utf8), size: 5), as: .jsonLines,
      options: StreamOptions(onElementFailure: .skip))
    let (elements, error) = await collect(stream)
    #expect(error == nil)
    #expect(elements.map(\.id) == [0, 2])
    #expect(stream.summary.skippedCount == 1)
    #expect(
      stream.summary.diagnostics.map(\.description) == [
        "/1: element skipped: syntax error at line 2, column 10 (byte \(offset)): expected a "
          + "string key after ',' in an object, found ','"
      ])
  }

  @Test func theErrorLimitAppliesPerElement() async {
    struct Wide: Equatable { var values: [Int] = [] }
    let mapping = Mapping(Wide.init) { Attribute("values", \.values) }
    let bad = "{\"values\": [" + Array(repeating: "\"x\"", count: 30).joined(separator: ",") + "]}"
    let text = "[{\"values\": [1]}, \(bad)]"
    let stream = mapping.elements(
      of: ProbedChunks(Array(text.utf8), size: 16), with: MappingOptions(errorLimit: 3))
    let (elements, error) = await collect(stream)
    #expect(elements == [Wide(values: [1])])
    let errors = error as? MappingErrors
    #expect(errors?.errors.count == 3)
    #expect(errors?.omittedCount == 27)
  }

  @Test func anElementLargerThanTheLimitIsAnError() async {
    let text =
      "[" + Self.article(1) + ", {\"id\": 2, \"title\": \"" + String(repeating: "x", count: 5_000)
      + "\"}]"
    let (elements, error) = await collect(
      Self.articleMapping.elements(
        of: ProbedChunks(Array(text.utf8), size: 512),
        options: StreamOptions(maximumElementSize: 1_000)))
    #expect(elements.map(\.id) == [1])
    // The second element starts after `[`, the first and `, ` (columns count scalars).
    let start = 1 + Self.article(1).utf8.count + 2
    let column = 1 + Self.article(1).unicodeScalars.count + 2 + 1
    #expect(
      "\(error.map { "\($0)" } ?? "none")"
        == "/1: syntax error at line 1, column \(column) (byte \(start)): the element is larger "
        + "than the element size limit of 1,000 bytes")
  }

  @Test func aLineLargerThanTheLimitIsTheLimitWhateverTheChunks() async {
    // Found by StreamReaderFuzz: cut at the limit, a valid surrogate pair looked like a lone
    // surrogate when the line arrived in one chunk, and the limit a byte at a time.
    struct Box: Equatable { var value: Node = .null }
    let mapping = Mapping(Box.init) { Attribute(.root, \.value) }
    let line = Array(#"["\ud83d\ude39\ud83d\udc8d"]"#.utf8)
    for size in [1, 3, 17, line.count] {
      let (elements, error) = await collect(
        mapping.elements(
          of: ProbedChunks(line, size: size), as: .jsonLines,
          options: StreamOptions(maximumElementSize: 16)))
      #expect(elements.isEmpty)
      #expect(
        "\(error.map { "\($0)" } ?? "none")"
          == "/0: syntax error at line 1, column 1 (byte 0): the line is larger than the element "
          + "size limit of 16 bytes", "chunks of \(size)")
    }
    // An error the bytes before the limit decide is reported, whatever the chunks.
    let broken = Array(#"[tru, 1, 2, 3, 4, 5, 6, 7, 8, 9]"#.utf8)
    for size in [1, 5, broken.count] {
      let (_, error) = await collect(
        mapping.elements(
          of: ProbedChunks(broken, size: size), as: .jsonLines,
          options: StreamOptions(maximumElementSize: 16)))
      #expect(
        "\(error.map { "\($0)" } ?? "none")"
          == "/0: syntax error at line 1, column 5 (byte 4): expected 'true', found ','",
        "chunks of \(size)")
    }
  }

  @Test func aRuleReadingTheWholePayloadCannotBeStreamed() async {
    struct Tagged: Equatable {
      var id = 0
      var kind = ""
    }
    let mapping = Mapping(Tagged.init) {
      Attribute("id", \.id)
      Attribute(SourcePath.payload.appending("kind"), \.kind)
    }
    let source = ProbedChunks(Array(#"[{"id": 1}]"#.utf8), size: 4)
    let (elements, error) = await collect(mapping.elements(of: source))
    #expect(elements.isEmpty)
    let text = error.map { "\($0)" } ?? "none"
    #expect(
      text
        == "/0: invalid mapping definition: a rule reads the whole payload (SourcePath.payload), "
        + "which a stream does not keep: map the payload whole, or read the value from the "
        + "stream's envelope")
  }

  @Test func aSourceErrorEndsTheStreamAsItIs() async {
    let stream = Self.articleMapping.elements(
      of: FailingChunks(
        chunks: [Array("[\(Self.article(0)), ".utf8)], error: URLError(.networkConnectionLost)))
    let (elements, error) = await collect(stream)
    #expect(elements.map(\.id) == [0])
    #expect((error as? URLError)?.code == .networkConnectionLost)
    #expect(!stream.summary.isComplete)
  }

  // MARK: Backpressure and closing the source

  /// An endless array of articles, one per chunk.
  static func endless() -> ProbedChunks {
    ProbedChunks { index in Array(((index == 0 ? "[" : ",") + article(index)).utf8) }
  }

  @Test func bytesAreReadOnlyAsFastAsElementsAreTaken() async throws {
    let source = Self.endless()
    var iterator = Self.articleMapping.elements(of: source).makeAsyncIterator()
    for expected in 0..<5 {
      #expect(try await iterator.next()?.id == expected)
      // The element's own chunk, and the next one that tells it ended.
      #expect(source.probe.pulled <= expected + 2)
    }
    #expect(!source.probe.released)
  }

  @Test func stoppingEarlyReleasesTheSource() async throws {
    let source = Self.endless()
    var taken = 0
    for try await _ in Self.articleMapping.elements(of: source) {
      taken += 1
      if taken == 3 { break }
    }
    #expect(source.probe.released)
    #expect(source.probe.pulled <= 4)
  }

  @Test func aCancelledTaskEndsTheStreamAndReleasesTheSource() async throws {
    let source = Self.endless()
    let stream = Self.articleMapping.elements(of: source)
    let task = Task {
      var count = 0
      for try await _ in stream {
        count += 1
        if count == 2 { withUnsafeCurrentTask { $0?.cancel() } }
      }
      return count
    }
    let result = await task.result
    #expect(throws: CancellationError.self) { try result.get() }
    #expect(source.probe.released)
  }

  /// Cancellation is seen before each batch, not only before the next chunk: a payload handed
  /// over as one chunk delivered every element after the task was cancelled (found by a probe
  /// of streaming: a million elements after a cancel at the tenth).
  @Test func aCancelledTaskGetsAtMostOneMoreBatchOfAOneChunkPayload() async throws {
    let count = 20_000
    let source = ProbedChunks(Self.payload(count), size: .max)
    let stream = Self.articleMapping.elements(of: source)
    let task = Task {
      var delivered = 0
      do {
        for try await _ in stream {
          delivered += 1
          if delivered == 10 { withUnsafeCurrentTask { $0?.cancel() } }
        }
      } catch is CancellationError {
        return delivered
      }
      return -delivered
    }
    let delivered = try await task.value
    #expect(delivered > 0, "the stream ended without CancellationError after \(-delivered)")
    #expect(delivered < 10 + 2 * 1_024, "\(delivered) of \(count) delivered after the cancel")
    #expect(source.probe.released)
  }

  @Test func theEndReleasesTheSourceToo() async {
    let source = ProbedChunks(Self.payload(3), size: 8)
    let (elements, _) = await collect(Self.articleMapping.elements(of: source))
    #expect(elements.count == 3)
    #expect(source.probe.released)
  }
}
