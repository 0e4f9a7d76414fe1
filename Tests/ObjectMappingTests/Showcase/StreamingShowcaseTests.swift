import Foundation
import ObjectMapping
import ShowcaseKit
import Testing

@Suite("Showcase: --stream")
struct StreamingShowcaseTests {
  @Test func theOptionTakesAPositiveNumberOfMegabytesAlone() {
    #expect(StreamingShowcase.requestedSize(["--mapping", "posts"]) == nil)
    guard case .success(let megabytes)? = StreamingShowcase.requestedSize(["--stream", "250"])
    else {
      Issue.record("--stream 250 was not accepted")
      return
    }
    #expect(megabytes == 250)
    let bad: [[String]] = [
      ["--stream"], ["--stream", "0"], ["--stream", "lots"], ["--stream", "2", "-l"],
    ]
    for bad in bad {
      guard case .failure(let problem)? = StreamingShowcase.requestedSize(bad) else {
        Issue.record("\(bad) was accepted")
        continue
      }
      #expect(
        problem.message
          == "--stream takes a number of megabytes (1 to 100000), alone: showcase --stream 200")
    }
  }

  @Test func aGeneratedFileIsStreamedWithProgressAndDeleted() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("showcase-stream-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var progress: [String] = []
    let outcome = await StreamingShowcase.run(megabytes: 1, in: folder) { progress.append($0) }
    #expect(outcome.status == 0)
    #expect(outcome.errorOutput == "")
    // The posts written are the posts mapped: count them in the file's own words.
    let written = try #require(
      progress.first { $0.hasPrefix("streaming ") }?.split(separator: " ").dropFirst().first)
    #expect(outcome.output.hasPrefix("mapped \(written) posts ("), "\(outcome.output)")
    #expect(outcome.output.contains(" from 1 MB in "))
    // Ten progress lines after the two announcements.
    #expect(progress.count == 12, "\(progress)")
    #expect(progress.dropFirst(2).allSatisfy { $0.hasPrefix("  ") && $0.contains(" posts (") })
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }
}
