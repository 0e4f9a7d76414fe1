import Foundation
import ObjectMappingTestSupport
import Testing

@testable import ObjectMapping

#if canImport(Glibc)
  import Glibc
#endif

/// Streaming in linear time (doubling sizes, CPU time of the streaming engine, driven
/// synchronously) and in bounded memory (a child process streams a payload many times its
/// bound and measures its own resident memory).
@Suite struct StreamingLimitsTests {
  typealias Article = StreamedElementsTests.Article

  /// Streams `bytes` in `chunk`-byte chunks through the engine the async sequence drives (the
  /// reader, its batches, the mapping of each element), synchronously; returns the element
  /// count, or -1 on an error.
  static func streamSynchronously(
    _ bytes: [UInt8], chunk: Int, layout: StreamLayout = .array,
    options: StreamOptions = .standard
  ) -> Int {
    let reading = options.reading ?? .strict
    let state = ElementStreamState(
      reader: _JSONStreamReader(
        layout: layout, options: reading, maximumElementSize: options.maximumElementSize),
      elements: MappedElements(plan: StreamedElementsTests.articleMapping._plan, options: .none),
      layout: layout, options: options, reading: reading, box: StreamSummaryBox())
    var count = 0
    func drain() {
      while state.reader.isReady, !state.isOver { state.readBatch() }
      while state.nextReady() != nil { count += 1 }
    }
    var start = 0
    while start < bytes.count, !state.isOver {
      let end = Swift.min(bytes.count, start + chunk)
      let piece = Array(bytes[start..<end])
      var offset = 0
      var exhausted = piece.isEmpty
      while !exhausted, !state.isOver {
        (offset, exhausted) = state.consume(piece, from: offset)
        drain()
      }
      start = end
    }
    state.finishInput()
    drain()
    return state.takeError() == nil ? count : -1
  }

  static func articles(_ count: Int) -> [UInt8] {
    StreamedElementsTests.payload(count, separator: ",")
  }

  @Test func elementsOfAnArrayInLinearTime() async throws {
    try await Scaling.expectLinear(
      "streamed array", base: 2_000, prepare: Self.articles
    ) { bytes in
      #expect(Self.streamSynchronously(bytes, chunk: 4_096) > 0)
    }
  }

  @Test func jsonLinesInLinearTime() async throws {
    try await Scaling.expectLinear(
      "streamed JSON Lines", base: 2_000,
      prepare: { count in
        Array(((0..<count).map(StreamedElementsTests.article).joined(separator: "\n")).utf8)
      },
      work: { bytes in
        #expect(Self.streamSynchronously(bytes, chunk: 4_096, layout: .jsonLines) > 0)
      }
    )
  }

  @Test func oneLargeElementInSmallChunksInLinearTime() async throws {
    // One element of n bytes arriving 64 bytes at a time: its bytes are kept once, not copied
    // again for every chunk.
    try await Scaling.expectLinear(
      "a large element in small chunks", base: 200_000,
      prepare: { size in
        Array(
          (#"[{"id": 1, "title": ""# + String(repeating: "x", count: size)
            + #"", "rating": 1, "views": 1}]"#).utf8)
      },
      work: { bytes in
        #expect(Self.streamSynchronously(bytes, chunk: 64) == 1)
      }
    )
  }

  @Test func aLargeEnvelopeInLinearTime() async throws {
    try await Scaling.expectLinear(
      "a large envelope before the array", base: 5_000,
      prepare: { count in
        let members = (0..<count).map { #""k\#($0)": [\#($0), {"a": "b"}]"# }.joined(separator: ",")
        return Array(
          (#"{\#(members), "data": ["# + StreamedElementsTests.article(1) + "]}").utf8)
      },
      work: { bytes in
        #expect(Self.streamSynchronously(bytes, chunk: 1_000, layout: .array(at: "data")) == 1)
      }
    )
  }

  @Test func deeplyNestedElementsInLinearTime() async throws {
    try await Scaling.expectLinear(
      "deeply nested elements", base: 20_000,
      prepare: { depth in
        Array(
          ("[" + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "]")
            .utf8)
      },
      work: { bytes in
        _ = Self.streamSynchronously(
          bytes, chunk: 256,
          options: StreamOptions(reading: JSONReadingOptions(maximumDepth: 1 << 20)))
      }
    )
  }

  // MARK: Memory, in a child process

  /// The process's resident memory in bytes (Linux), or `nil` when it says nothing (elsewhere,
  /// or under a sanitizer: `OBJECT_MAPPING_SANITIZER`).
  static func residentBytes() -> Int? {
    guard ProcessInfo.processInfo.environment["OBJECT_MAPPING_SANITIZER"] == nil,
      let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
    else { return nil }
    let fields = statm.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    #if canImport(Glibc)
      return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    #else
      return pages * 4096
    #endif
  }

  /// An endless-looking source: `count` articles in the layout, made a block of 200 at a time
  /// (nothing of the payload is held by the source), each block cut in two chunks at a place
  /// that moves, so elements span chunks.
  static func generated(_ count: Int, layout: StreamLayout) -> ProbedChunks {
    ProbedChunks { index in
      let perBlock = 200
      let first = (index / 2) * perBlock
      guard first < count else { return nil }
      var text = ""
      for article in first..<Swift.min(count, first + perBlock) {
        if layout.isJSONLines {
          text += StreamedElementsTests.article(article) + "\n"
        } else {
          text += (article == 0 ? "[" : ",") + StreamedElementsTests.article(article)
        }
      }
      if !layout.isJSONLines, first + perBlock >= count { text += "]" }
      let bytes = Array(text.utf8)
      let cut = (index / 2 * 7_919) % bytes.count
      return Array(index % 2 == 0 ? bytes[..<cut] : bytes[cut...])
    }
  }

  @Test func streamingAPayloadManyTimesTheBoundKeepsMemoryBounded() async throws {
    let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
      // About 30 MB each: 100,000 articles of ~300 bytes. A whole-payload decode would hold the
      // payload, its index and its 100,000 objects (more than 60 MB); streaming holds a batch.
      let before = StreamingLimitsTests.residentBytes()
      for layout in [StreamLayout.array, .jsonLines] {
        var count = 0
        for try await article in StreamedElementsTests.articleMapping.elements(
          of: StreamingLimitsTests.generated(100_000, layout: layout), as: layout)
        {
          count += article.id >= 0 ? 1 : 0
        }
        guard count == 100_000 else {
          FileHandle.standardError.write(Data("mapped \(count) articles\n".utf8))
          exit(2)
        }
      }
      if let before, let after = StreamingLimitsTests.residentBytes() {
        FileHandle.standardError.write(
          Data("resident memory grew \((after - before) >> 10) KiB\n".utf8))
        if after - before >= 16 << 20 { exit(1) }
      }
    }
    let report = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
    if ProcessInfo.processInfo.environment["OBJECT_MAPPING_PRINT_SCALING"] == "1" { print(report) }
  }
}
