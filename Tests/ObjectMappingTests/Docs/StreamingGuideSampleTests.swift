import Foundation
import ObjectMapping
import Testing

// The samples of Documentation/Streaming.md, compiled and run. When a sample changes here,
// change the guide too.

/// Documentation/Streaming.md.
enum StreamingSample {
  struct Event: Equatable, Sendable {
    var id = 0
    var kind = ""
    var at = Date(timeIntervalSince1970: 0)
  }

  static let eventMapping = Mapping(Event.init) {
    Attribute("id", \.id)
    Attribute("kind", \.kind)
    Attribute("at", \.at)
  }

  struct Article: Equatable, Sendable {
    var id = 0
    var title = ""
  }

  static let articleMapping = Mapping(Article.init) {
    Attribute("id", \.id)
    Attribute("title", \.title)
  }

  /// "Reading a file".
  static func countKinds(in url: URL) async throws -> [String: Int] {
    var kinds: [String: Int] = [:]
    for try await event in eventMapping.elements(of: FileChunks(url), as: .jsonLines) {
      kinds[event.kind, default: 0] += 1
    }
    return kinds
  }

  /// "Layouts": one page and its envelope.
  static func page(_ body: [Data]) async throws -> ([Article], Node?) {
    let page = articleMapping.elements(of: AsyncChunks(body), as: .array(at: "data"))
    var articles: [Article] = []
    for try await article in page { articles.append(article) }
    return (articles, page.summary.envelope)
  }

  /// "Writing a stream".
  static func export(_ events: AsyncChunks<Event>, to exportURL: URL) async throws {
    try Data().write(to: exportURL)  // an empty file to open for writing
    let handle = try FileHandle(forWritingTo: exportURL)
    try await eventMapping.serializedChunks(of: events, as: .jsonLines).write(to: handle)
    try handle.close()
  }

  #if !canImport(FoundationNetworking)
    /// "Reading from the network", without the manager (Apple platforms).
    static func show(from feedURL: URL, _ show: (Event) -> Void) async throws {
      let (bytes, _) = try await URLSession.shared.bytes(from: feedURL)
      for try await event in eventMapping.elements(of: bytes, as: .jsonLines) { show(event) }
    }
  #endif
}

/// Values given in turn, as an async sequence (a network body's chunks, a database's rows).
struct AsyncChunks<Element: Sendable>: AsyncSequence, Sendable {
  let values: [Element]
  init(_ values: [Element]) { self.values = values }
  func makeAsyncIterator() -> Iterator { Iterator(values: values) }
  struct Iterator: AsyncIteratorProtocol {
    let values: [Element]
    var index = 0
    mutating func next() async -> Element? {
      guard index < values.count else { return nil }
      defer { index += 1 }
      return values[index]
    }
  }
}

@Suite("Guide samples: Streaming")
struct StreamingGuideSampleTests {
  typealias Sample = StreamingSample

  static func file(_ text: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("guide-\(UUID().uuidString).jsonl")
    try Data(text.utf8).write(to: url)
    return url
  }

  static let lines = """
    {"id": 1, "kind": "login", "at": "2024-03-01T10:00:00Z"}
    {"id": 2, "kind": "view", "at": "2024-03-01T10:00:05Z"}

    {"id": 3, "kind": "view", "at": "2024-03-01T10:00:09Z"}

    """

  @Test func readingAFile() async throws {
    let url = try Self.file(Self.lines)
    defer { try? FileManager.default.removeItem(at: url) }
    #expect(try await Sample.countKinds(in: url) == ["login": 1, "view": 2])
  }

  @Test func aPageAndItsEnvelope() async throws {
    let body =
      #"{"data": [{"id": 1, "title": "One"}, {"id": 2, "title": "Two"}], "next": "/articles?page=3", "total": 3}"#
    // A network body arrives in pieces.
    let bytes = Data(body.utf8)
    let chunks = stride(from: 0, to: bytes.count, by: 10).map {
      bytes.subdata(in: $0..<min(bytes.count, $0 + 10))
    }
    let (articles, envelope) = try await Sample.page(chunks)
    #expect(articles == [.init(id: 1, title: "One"), .init(id: 2, title: "Two")])
    #expect(envelope == ["data": [], "next": "/articles?page=3", "total": 3])
  }

  @Test func errorsAndSkippedElements() async throws {
    let text = """
      {"id": 1, "kind": "login", "at": 0}
      {"id": 2, "kind": 7, "at": 0
      {"id": 3, "kind": "view", "at": 0}
      """
    let url = try Self.file(text)
    defer { try? FileManager.default.removeItem(at: url) }
    do {
      for try await _ in Sample.eventMapping.elements(of: FileChunks(url), as: .jsonLines) {}
      Issue.record("expected an error")
    } catch let errors as MappingErrors {
      #expect(
        "\(errors)"
          == "/1: syntax error at line 2, column 29 (byte 64): expected ',' or '}' after an "
          + "object member, found end of input")
    }
    let events = Sample.eventMapping.elements(
      of: FileChunks(url), as: .jsonLines, options: StreamOptions(onElementFailure: .skip))
    var ids: [Int] = []
    for try await event in events { ids.append(event.id) }
    #expect(ids == [1, 3])
    #expect(events.summary.skippedCount == 1)
    #expect(
      events.summary.diagnostics.map(\.description) == [
        "/1: element skipped: syntax error at line 2, column 29 (byte 64): expected ',' or '}' "
          + "after an object member, found end of input"
      ])
  }

  @Test func writingAStreamReadsBackTheSameObjects() async throws {
    let url = try Self.file(Self.lines)
    let exportURL = FileManager.default.temporaryDirectory
      .appendingPathComponent("guide-export-\(UUID().uuidString).jsonl")
    defer {
      try? FileManager.default.removeItem(at: url)
      try? FileManager.default.removeItem(at: exportURL)
    }
    var events: [Sample.Event] = []
    for try await event in Sample.eventMapping.elements(of: FileChunks(url), as: .jsonLines) {
      events.append(event)
    }
    try await Sample.export(AsyncChunks(events), to: exportURL)
    #expect(
      try String(contentsOf: exportURL, encoding: .utf8)
        == """
        {"id":1,"kind":"login","at":"2024-03-01T10:00:00Z"}
        {"id":2,"kind":"view","at":"2024-03-01T10:00:05Z"}
        {"id":3,"kind":"view","at":"2024-03-01T10:00:09Z"}

        """)
    var readBack: [Sample.Event] = []
    for try await event in Sample.eventMapping.elements(of: FileChunks(exportURL), as: .jsonLines) {
      readBack.append(event)
    }
    #expect(readBack == events)
  }
}
