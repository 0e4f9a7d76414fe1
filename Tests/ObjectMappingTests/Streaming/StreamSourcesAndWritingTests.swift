import Foundation
import ObjectMapping
import Testing

/// Files as sources (opened late, closed early), Decodable elements, and objects written back
/// as a stream.
@Suite struct StreamSourcesAndWritingTests {
  typealias Article = StreamedElementsTests.Article

  static func temporaryFile(_ bytes: [UInt8]) throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("stream-\(UUID().uuidString).json")
    try Data(bytes).write(to: url)
    return url
  }

  /// Whether this process has a descriptor open on the file at `url` (Linux: `/proc/self/fd`).
  static func isOpen(_ url: URL) -> Bool {
    let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    let target = url.resolvingSymlinksInPath().path
    return descriptors.contains { descriptor in
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)"))
        == target
    }
  }

  // MARK: FileChunks

  @Test func aFileIsReadInChunksAndClosedAtTheEnd() async throws {
    let bytes = StreamedElementsTests.payload(50)
    let url = try Self.temporaryFile(bytes)
    defer { try? FileManager.default.removeItem(at: url) }
    let stream = StreamedElementsTests.articleMapping.elements(of: FileChunks(url, chunkSize: 100))
    let (elements, error) = await collect(stream)
    #expect(error == nil)
    #expect(elements == (try StreamedElementsTests.wholeCollection(bytes)))
    #expect(!Self.isOpen(url))
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd")))
  func aFileIsClosedWhenTheConsumerStopsEarly() async throws {
    let bytes = StreamedElementsTests.payload(2_000)
    let url = try Self.temporaryFile(bytes)
    defer { try? FileManager.default.removeItem(at: url) }
    var iterator = StreamedElementsTests.articleMapping.elements(
      of: FileChunks(url, chunkSize: 256)
    ).makeAsyncIterator()
    #expect(try await iterator.next()?.id == 0)
    #expect(Self.isOpen(url))
    // A loop that breaks releases its iterator; so does this.
    iterator = StreamedElementsTests.articleMapping.elements(of: FileChunks(url, chunkSize: 1))
      .makeAsyncIterator()
    #expect(!Self.isOpen(url))
    var taken = 0
    for try await _ in StreamedElementsTests.articleMapping.elements(of: FileChunks(url)) {
      taken += 1
      if taken == 2 { break }
    }
    #expect(!Self.isOpen(url))
    _ = iterator
  }

  @Test func aMissingFileIsAnErrorOfTheSource() async {
    let url = URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString).json")
    let (elements, error) = await collect(
      StreamedElementsTests.articleMapping.elements(of: FileChunks(url)))
    #expect(elements.isEmpty)
    #expect((error as? CocoaError)?.code == .fileReadNoSuchFile)
  }

  @Test(
    .timeLimit(.minutes(1)), .enabled(if: FileManager.default.fileExists(atPath: "/usr/bin/mkfifo"))
  )
  func aPipeWithNoWriterNeitherHoldsAThreadNorIgnoresCancellation() async throws {
    // Opening a named pipe blocks until a writer comes. It blocked one of the few threads all
    // tasks share, and a cancelled task waited on; now the wait ends at once, and other tasks
    // run meanwhile.
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(UUID())")
    let mkfifo = try Process.run(URL(fileURLWithPath: "/usr/bin/mkfifo"), arguments: [url.path])
    mkfifo.waitUntilExit()
    defer { try? FileManager.default.removeItem(at: url) }
    let reading = Task {
      var count = 0
      for try await _ in StreamedElementsTests.articleMapping.elements(of: FileChunks(url)) {
        count += 1
      }
      return count
    }
    // Other tasks run while it waits, however few threads the pool has.
    let others = await withTaskGroup(of: Int.self) { group in
      for index in 0..<8 { group.addTask { index } }
      return await group.reduce(0, +)
    }
    #expect(others == 28)
    reading.cancel()
    await #expect(throws: CancellationError.self) { try await reading.value }
    // The read still waiting on its queue ends when a writer comes and goes.
    let writer = try FileHandle(forWritingTo: url)
    try writer.close()
  }

  // MARK: Decodable elements

  struct Event: Codable, Equatable {
    var id: Int
    var kind: String
    var at: Date?
  }

  @Test func decodableElementsAreWhatJSONDecoderDecodesFromTheWholePayload() async throws {
    let lines = (0..<30).map { #"{"id": \#($0), "kind": "k\#($0 % 3) é", "at": \#($0 * 1000)}"# }
    let array = "[" + lines.joined(separator: ",\n") + "]"
    let expected = try JSONDecoder().decode([Event].self, from: Data(array.utf8))
    for size in [1, 2, 3, 17, 64, 10_000] {
      let (fromArray, arrayError) = await collect(
        FastJSONDecoder().elements(Event.self, of: ProbedChunks(Array(array.utf8), size: size)))
      #expect(arrayError == nil)
      #expect(fromArray == expected, "chunks of \(size)")
      let (fromLines, linesError) = await collect(
        FastJSONDecoder().elements(
          Event.self, of: ProbedChunks(Array(lines.joined(separator: "\n").utf8), size: size),
          as: .jsonLines))
      #expect(linesError == nil)
      #expect(fromLines == expected, "lines in chunks of \(size)")
    }
  }

  @Test func aStreamKeepsTheDecodersSettingsAsTheyWereWhenMade() async {
    struct Snaked: Decodable, Equatable { var eventId: Int }
    let decoder = FastJSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let stream = decoder.elements(
      Snaked.self, of: ProbedChunks(Array(#"[{"event_id": 7}]"#.utf8), size: 4))
    decoder.keyDecodingStrategy = .useDefaultKeys
    let (values, error) = await collect(stream)
    #expect(error == nil)
    #expect(values == [Snaked(eventId: 7)])
  }

  @Test func aDecodableElementThatFailsCarriesItsPath() async {
    let text =
      #"{"events": [{"id": 1, "kind": "a"}, {"id": "two", "kind": "b"}, {"id": 3, "kind": "c"}]}"#
    // By default, JSONDecoder's error, its coding path from the payload's root.
    let (elements, error) = await collect(
      FastJSONDecoder().elements(
        Event.self, of: ProbedChunks(Array(text.utf8), size: 9), as: .array(at: "events")))
    #expect(elements.map(\.id) == [1])
    guard case .typeMismatch(let type, let context)? = error as? DecodingError else {
      Issue.record("expected a type mismatch, got \(String(describing: error))")
      return
    }
    // The path JSONDecoder gives decoding the whole payload.
    struct Page: Decodable { var events: [Event] }
    var foundationPath: [String] = []
    do {
      _ = try JSONDecoder().decode(Page.self, from: Data(text.utf8))
    } catch DecodingError.typeMismatch(_, let context) {
      foundationPath = context.codingPath.map(\.stringValue)
    } catch {}
    #expect(ObjectIdentifier(type) == ObjectIdentifier(Int.self))
    #expect(context.codingPath.map(\.stringValue) == ["events", "Index 1", "id"])
    #expect(context.codingPath.map(\.stringValue) == foundationPath)
    #expect(context.codingPath.map(\.intValue) == [nil, 1, nil])
    // With `.mappingErrors`, the library's errors at their JSON Pointer paths.
    let rich = FastJSONDecoder()
    rich.errorReporting = .mappingErrors
    let (richElements, richError) = await collect(
      rich.elements(
        Event.self, of: ProbedChunks(Array(text.utf8), size: 9), as: .array(at: "events")))
    #expect(richElements.map(\.id) == [1])
    let errors = richError as? MappingErrors
    #expect(errors?.errors.map(\.path) == ["/events/1/id"])
    let stream = FastJSONDecoder().elements(
      Event.self, of: ProbedChunks(Array(text.utf8), size: 9), as: .array(at: "events"),
      options: StreamOptions(onElementFailure: .skip))
    let (kept, noError) = await collect(stream)
    #expect(noError == nil)
    #expect(kept.map(\.id) == [1, 3])
    #expect(stream.summary.skippedCount == 1)
    #expect(stream.summary.diagnostics.map(\.path) == ["/events/1"])
  }

  // MARK: Writing a stream

  /// The objects as an async sequence.
  struct Objects<Element: Sendable>: AsyncSequence, Sendable {
    let elements: [Element]
    let probe = SourceProbe()

    func makeAsyncIterator() -> Iterator {
      Iterator(elements: elements, token: ReleaseToken(probe))
    }

    struct Iterator: AsyncIteratorProtocol {
      let elements: [Element]
      let token: ReleaseToken
      var index = 0
      mutating func next() async -> Element? {
        guard index < elements.count else { return nil }
        token.probe.pull()
        defer { index += 1 }
        return elements[index]
      }
    }
  }

  static func joined(_ chunks: [Data]) -> [UInt8] { chunks.flatMap { Array($0) } }

  @Test(arguments: [StreamLayout.array, .array(at: "page.items"), .jsonLines])
  func writtenObjectsReadBackAsTheSameObjects(layout: StreamLayout) async throws {
    let articles = try StreamedElementsTests.wholeCollection(StreamedElementsTests.payload(40))
    let mapping = StreamedElementsTests.articleMapping
    let (chunks, error) = await collect(
      mapping.serializedChunks(of: Objects(elements: articles), as: layout, chunkSize: 500))
    #expect(error == nil)
    #expect(chunks.count > 5)
    let bytes = Self.joined(chunks)
    let (read, readError) = await collect(
      mapping.elements(of: ProbedChunks(bytes, size: 333), as: layout))
    #expect(readError == nil)
    #expect(read == articles)
    // The whole text is the serialization of the collection.
    let whole = try mapping.serializeCollection(articles)
    switch layout {
    case .jsonLines:
      let lines = try articles.map { String(decoding: try mapping.serialize($0), as: UTF8.self) }
      #expect(String(decoding: bytes, as: UTF8.self) == lines.map { $0 + "\n" }.joined())
    case .array:
      #expect(bytes == Array(whole))
    default:
      #expect(
        String(decoding: bytes, as: UTF8.self)
          == #"{"page":{"items":"# + String(decoding: whole, as: UTF8.self) + "}}")
    }
  }

  @Test func writingTakesObjectsOnlyAsChunksAreAsked() async throws {
    let articles = try StreamedElementsTests.wholeCollection(StreamedElementsTests.payload(100))
    let source = Objects(elements: articles)
    var iterator = StreamedElementsTests.articleMapping.serializedChunks(
      of: source, as: .jsonLines, chunkSize: 1
    ).makeAsyncIterator()
    let first = try await iterator.next()
    #expect(first.map { String(decoding: $0, as: UTF8.self).hasSuffix("\n") } == true)
    #expect(source.probe.pulled == 1)
    _ = try await iterator.next()
    #expect(source.probe.pulled == 2)
  }

  @Test func anObjectThatCannotBeWrittenEndsTheStreamAtItsPath() async {
    struct Measure: Sendable, Equatable { var value = 0.0 }
    let mapping = Mapping(Measure.init) { Attribute("value", \.value) }
    let (chunks, error) = await collect(
      mapping.serializedChunks(
        of: Objects(elements: [Measure(value: 1), Measure(value: .nan)]), as: .array(at: "m"),
        chunkSize: 1))
    #expect(chunks.map { String(decoding: $0, as: UTF8.self) } == [#"{"m":[{"value":1}"#])
    #expect(
      (error as? MappingErrors)?.description
        == "/m/1/value: cannot write the non-finite number nan")
  }

  @Test func writingToAFile() async throws {
    let articles = try StreamedElementsTests.wholeCollection(StreamedElementsTests.payload(20))
    let url = try Self.temporaryFile([])
    defer { try? FileManager.default.removeItem(at: url) }
    let handle = try FileHandle(forWritingTo: url)
    try await StreamedElementsTests.articleMapping.serializedChunks(
      of: Objects(elements: articles), as: .jsonLines
    ).write(to: handle)
    try handle.close()
    let (read, _) = await collect(
      StreamedElementsTests.articleMapping.elements(of: FileChunks(url), as: .jsonLines))
    #expect(read.map(\.id) == articles.map(\.id))
  }
}
