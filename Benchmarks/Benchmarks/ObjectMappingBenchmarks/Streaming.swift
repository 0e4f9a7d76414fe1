import Benchmark
import Foundation
import ObjectMapping

// Streaming (issue 40): generated files of articles mapped as they are read, a 64 KiB chunk at a
// time, against mapping the same bytes in memory.
//
// - `Stream.jsonl_<M>MB.ObjectMapping`, `Stream.array_<M>MB.ObjectMapping`: a JSON Lines file
//   and a top-level array of about M MB (250, 500, 1000), streamed from the file with
//   `FileChunks` and `mapping.elements(of:as:)`; every element is mapped and dropped. Peak
//   resident memory must stay under 64 MB whatever the size, and time must double with it.
// - `Stream.array_<M>MB.InMemory`: the same array's bytes, already in memory, mapped with
//   `mapCollection` (what streaming replaces): the throughput baseline. `Stream.jsonl_<M>MB.InMemory`
//   maps each line of the in-memory file with `map`.
//
// Files are generated in setup under the system's temporary folder
// (`object-mapping-stream-*.json[l]`), written a block at a time (setup holds no payload), and
// deleted in teardown: at most one file exists at a time. `Benchmarks/stream.sh` runs these
// rows (`Benchmarks/run.sh` leaves them out) and prints their table.

func registerStreamingBenchmarks() {
  let configuration = Benchmark.Configuration(
    metrics: [.wallClock, .cpuTotal, .throughput, .mallocCountTotal, .peakMemoryResident],
    timeUnits: .milliseconds,
    warmupIterations: 1,
    maxDuration: .seconds(30),
    maxIterations: 3
  )
  for megabytes in [250, 500, 1_000] {
    for lines in [true, false] {
      let name = "Stream.\(lines ? "jsonl" : "array")_\(megabytes)MB"
      let layout: StreamLayout = lines ? .jsonLines : .array
      Benchmark("\(name).ObjectMapping", configuration: configuration) {
        (benchmark: Benchmark, file: StreamFile) in
        var count = 0
        for try await article in ArticleMappings.article.elements(
          of: FileChunks(file.url), as: layout)
        {
          count &+= article.views
        }
        blackHole(count)
      } setup: {
        try StreamFile(megabytes: megabytes, lines: lines)
      } teardown: {
        StreamFile.removeAll()
      }
    }
    guard megabytes <= 500 else { continue }
    Benchmark("Stream.array_\(megabytes)MB.InMemory", configuration: configuration) {
      (benchmark: Benchmark, data: Data) in
      blackHole(try ArticleMappings.article.mapCollection(data))
    } setup: {
      let file = try StreamFile(megabytes: megabytes, lines: false)
      defer { StreamFile.removeAll() }
      return try Data(contentsOf: file.url)
    }
    Benchmark("Stream.jsonl_\(megabytes)MB.InMemory", configuration: configuration) {
      (benchmark: Benchmark, data: Data) in
      var count = 0
      for line in data.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
        count &+= try ArticleMappings.article.map(Data(line)).views
      }
      blackHole(count)
    } setup: {
      let file = try StreamFile(megabytes: megabytes, lines: true)
      defer { StreamFile.removeAll() }
      return try Data(contentsOf: file.url)
    }
  }
}

/// A generated file of articles (`ArticlePayload.article(_:)`), as JSON Lines or as one array.
struct StreamFile: Sendable {
  let url: URL
  let articles: Int

  static let prefix = "object-mapping-stream-"

  /// Writes a file of about `megabytes` MB.
  init(megabytes: Int, lines: Bool) throws {
    Self.removeAll()
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "\(Self.prefix)\(megabytes)MB.\(lines ? "jsonl" : "json")")
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    let target = megabytes * 1_000_000
    var written = 0
    var index = 0
    while written < target {
      var block = ""
      block.reserveCapacity(1 << 20)
      while block.utf8.count < 1 << 20, written + block.utf8.count < target {
        let article = ArticlePayload.article(index)
        if lines {
          block += article + "\n"
        } else {
          block += (index == 0 ? "[" : ",") + article
        }
        index += 1
      }
      if !lines, written + block.utf8.count >= target { block += "]" }
      let bytes = Data(block.utf8)
      try handle.write(contentsOf: bytes)
      written += bytes.count
    }
    articles = index
  }

  /// Deletes every generated file.
  static func removeAll() {
    let folder = FileManager.default.temporaryDirectory
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    for name in names where name.hasPrefix(prefix) {
      try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
    }
  }
}
