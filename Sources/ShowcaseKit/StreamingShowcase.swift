import Foundation
import ObjectMapping

/// `showcase --stream MEGABYTES`: writes a JSON Lines file of that many megabytes of posts (the
/// bundled timeline's posts, renumbered) into the temporary folder, then maps it with
/// `elements(of:as:)` as it is read, printing progress: posts mapped, bytes read, and resident
/// memory, which stays flat whatever the file's size. The file is deleted afterwards.
public enum StreamingShowcase {
  /// The size asked for with `--stream MEGABYTES`, or `nil` when the option is absent; a usage
  /// problem when its value is not a positive number of megabytes (at most 100,000).
  ///
  /// - Parameter arguments: The command-line arguments (without the program name).
  /// - Returns: The megabytes, `nil`, or the problem.
  public static func requestedSize(_ arguments: [String]) -> Result<Int, StreamUsageProblem>? {
    guard let position = arguments.firstIndex(of: "--stream") else { return nil }
    guard arguments.count == 2, position + 1 < arguments.count,
      let megabytes = Int(arguments[position + 1]), (1...100_000).contains(megabytes)
    else {
      return .failure(
        StreamUsageProblem(
          message: "--stream takes a number of megabytes (1 to 100000), alone: "
            + "showcase --stream 200"))
    }
    return .success(megabytes)
  }

  /// A `--stream` argument that cannot be run.
  public struct StreamUsageProblem: Error, Sendable {
    /// What is wrong.
    public var message: String
  }

  /// Writes the file, streams it, and reports.
  ///
  /// - Parameters:
  ///   - megabytes: The file's size.
  ///   - folder: Where the file is written (the temporary folder by default).
  ///   - progress: Called with each line of progress as it happens.
  /// - Returns: What to print at the end and the exit status.
  public static func run(
    megabytes: Int, in folder: URL = FileManager.default.temporaryDirectory,
    progress: (String) -> Void
  ) async -> ShowcaseCommand.Outcome {
    let url = folder.appendingPathComponent("showcase-stream-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: url) }
    let posts: Int
    do {
      progress("writing \(megabytes) MB of posts as JSON Lines to \(url.path) …")
      posts = try writePosts(megabytes: megabytes, to: url)
    } catch {
      return ShowcaseCommand.Outcome(
        errorOutput: "showcase: cannot write \(url.path): \(error.localizedDescription)\n",
        status: 2)
    }
    progress(
      "streaming \(grouped(posts)) posts with postMapping.elements(of: FileChunks(url), as: .jsonLines)"
    )
    let start = ContinuousClock.now
    let baseline = residentMegabytes()
    var mapped = 0
    var likes = 0
    var nextReport = max(1, posts / 10)
    do {
      for try await post in ShowcaseMappings.post.elements(of: FileChunks(url), as: .jsonLines) {
        mapped += 1
        likes &+= post.likes
        if mapped == nextReport {
          nextReport += max(1, posts / 10)
          progress(
            "  \(grouped(mapped)) posts (\(mapped * 100 / max(1, posts))%)"
              + resident(baseline))
        }
      }
    } catch {
      return ShowcaseCommand.Outcome(
        errorOutput: "showcase: streaming stopped after \(mapped) posts: \(error)\n", status: 1)
    }
    let seconds = (ContinuousClock.now - start) / .seconds(1)
    let rate = Double(megabytes) / max(seconds, 0.001)
    return ShowcaseCommand.Outcome(
      output:
        "mapped \(grouped(mapped)) posts (\(grouped(likes)) likes in all) from \(megabytes) MB "
        + "in \(String(format: "%.1f", seconds)) s (\(String(format: "%.0f", rate)) MB/s)"
        + resident(baseline) + "\n")
  }

  /// Writes posts to `url` until the file has `megabytes` MB; returns how many.
  static func writePosts(megabytes: Int, to url: URL) throws -> Int {
    let templates = try templatePosts()
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    let target = megabytes * 1_000_000
    var written = 0
    var count = 0
    while written < target {
      var block = Data()
      while block.count < 1 << 20, written + block.count < target {
        var post = templates[count % templates.count]
        if case .object(var members) = post {
          for index in members.indices where members[index].key == "id" {
            members[index] = Node.Member("id", .integer(Int64(count + 1)))
          }
          post = .object(members)
        }
        block.append(try post.jsonData())
        block.append(UInt8(ascii: "\n"))
        count += 1
      }
      try handle.write(contentsOf: block)
      written += block.count
    }
    return count
  }

  /// The bundled timeline's posts, as the JSON the post mapping reads.
  static func templatePosts() throws -> [Node] {
    guard case .array(let posts)? = try Node(jsonString: ShowcasePayloads.timeline)["posts"],
      !posts.isEmpty
    else { return [] }
    return posts
  }

  /// `, resident 18 MB (+2 MB)`, or nothing where resident memory is not known.
  private static func resident(_ baseline: Int?) -> String {
    guard let baseline, let now = residentMegabytes() else { return "" }
    return ", resident memory \(now) MB (\(now >= baseline ? "+" : "")\(now - baseline) MB)"
  }

  /// The process's resident memory in megabytes (Linux), or `nil`.
  private static func residentMegabytes() -> Int? {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
      return nil
    }
    let fields = statm.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    return pages * 4096 >> 20
  }

  private static func grouped(_ count: Int) -> String {
    let digits = Array(String(count))
    var text = ""
    for (offset, digit) in digits.enumerated() {
      if offset > 0, (digits.count - offset) % 3 == 0 { text += "," }
      text.append(digit)
    }
    return text
  }
}
