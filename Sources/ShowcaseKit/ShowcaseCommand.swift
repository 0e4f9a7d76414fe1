import Foundation
import ObjectMapping

/// The showcase's command line, parsed by hand (the package has no dependencies).
///
/// `run(_:readFile:)` returns what to print and the exit status instead of printing, so the
/// tests can check every outcome.
public enum ShowcaseCommand {
  /// What a run prints and how it exits.
  public struct Outcome: Equatable, Sendable {
    /// Text for standard output.
    public var output: String
    /// Text for standard error.
    public var errorOutput: String
    /// 0: success; 1: the payload has mapping errors; 2: bad usage or an unreadable file.
    public var status: Int32

    public init(output: String = "", errorOutput: String = "", status: Int32 = 0) {
      self.output = output
      self.errorOutput = errorOutput
      self.status = status
    }
  }

  /// The usage text printed by `--help`.
  public static let usage = """
    usage: showcase                               map the bundled payloads and print the report
           showcase --list                        list the bundled mappings
           showcase --mapping NAME [--file PATH] [--body json|form]
           showcase --stream MEGABYTES            stream a generated JSON Lines file of posts
           showcase --help

    options:
      --list             list the bundled mappings and what they read
      --mapping NAME     map with a bundled mapping (timeline, posts, attachments, users);
                         without --file it maps that mapping's bundled sample
      --file PATH        the JSON file to map ("-" reads standard input)
      --body json|form   also print the request body the same mapping writes back
      --stream MB        write MB megabytes of posts as JSON Lines to a temporary file, map
                         them as the file is read, and print progress and resident memory
      -h, --help         print this help

    exit status: 0 mapped; 1 the payload has mapping errors (all printed, with their paths);
                 2 bad usage or a file that cannot be read.

    examples:
      swift run showcase
      swift run showcase --mapping users
      swift run showcase --mapping timeline --file my-timeline.json --body form
      swift run -c release showcase --stream 1000
    """

  /// Runs the command for `arguments` (without the program name).
  ///
  /// - Parameters:
  ///   - arguments: The command-line arguments.
  ///   - readFile: Reads the file named by `--file`; replaced in tests.
  /// - Returns: What to print and the exit status.
  public static func run(
    _ arguments: [String],
    readFile: (String) throws -> Data = defaultReadFile
  ) -> Outcome {
    let options: Options
    switch Options.parse(arguments) {
    case .success(let parsed): options = parsed
    case .failure(let problem):
      return Outcome(errorOutput: "showcase: \(problem.message)\n\(usage)\n", status: 2)
    }
    if options.help { return Outcome(output: usage + "\n") }
    if options.list { return Outcome(output: listing() + "\n") }
    guard let name = options.mapping else {
      do {
        return Outcome(output: try Showcase.report())
      } catch {
        return Outcome(errorOutput: "showcase: the bundled timeline failed:\n\(error)\n", status: 1)
      }
    }
    guard let mapping = ShowcaseMapping.named(name) else {
      let names = ShowcaseMapping.all.map(\.name).joined(separator: ", ")
      return Outcome(
        errorOutput: "showcase: no bundled mapping named \"\(name)\" (choose one of: \(names))\n",
        status: 2)
    }
    let data: Data
    if let path = options.file {
      do {
        data = try readFile(path)
      } catch {
        return Outcome(
          errorOutput: "showcase: cannot read \(path): \(error.localizedDescription)\n",
          status: 2)
      }
    } else {
      data = Data(mapping.sample.utf8)
    }
    do {
      let lines = try mapping.run(data, options.body)
      return Outcome(output: (lines + [""]).joined(separator: "\n"))
    } catch {
      var lines = ["\(error.errors.count) problem(s) mapping with \"\(mapping.name)\":"]
      lines += error.errors.map { "  \($0)" }
      return Outcome(errorOutput: (lines + [""]).joined(separator: "\n"), status: 1)
    }
  }

  /// Reads a file, or standard input for `-`.
  public static func defaultReadFile(_ path: String) throws -> Data {
    if path == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
    return try Data(contentsOf: URL(fileURLWithPath: path))
  }

  /// The `--list` text: one line per bundled mapping.
  public static func listing() -> String {
    let width = ShowcaseMapping.all.map(\.name.count).max() ?? 0
    return ShowcaseMapping.all.map { mapping in
      mapping.name + String(repeating: " ", count: width - mapping.name.count + 2)
        + mapping.summary
    }.joined(separator: "\n")
  }

  /// The request body format asked for with `--body`.
  public enum BodyFormat: String, Sendable, CaseIterable {
    case json
    case form

    var payloadFormat: PayloadFormat {
      switch self {
      case .json: .json
      case .form: .formURLEncoded
      }
    }
  }

  struct UsageProblem: Error {
    var message: String
  }

  struct Options {
    var help = false
    var list = false
    var mapping: String?
    var file: String?
    var body: BodyFormat?

    static func parse(_ arguments: [String]) -> Result<Options, UsageProblem> {
      var options = Options()
      var remaining = arguments[...]
      while let argument = remaining.popFirst() {
        switch argument {
        case "-h", "--help": options.help = true
        case "--list": options.list = true
        case "--mapping", "--file", "--body":
          guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
            return .failure(UsageProblem(message: "\(argument) needs a value"))
          }
          switch argument {
          case "--mapping": options.mapping = value
          case "--file": options.file = value
          default:
            guard let format = BodyFormat(rawValue: value) else {
              return .failure(
                UsageProblem(message: "--body takes json or form, not \"\(value)\""))
            }
            options.body = format
          }
        default:
          return .failure(UsageProblem(message: "unknown argument \"\(argument)\""))
        }
      }
      if options.mapping == nil, options.file != nil || options.body != nil {
        return .failure(UsageProblem(message: "--file and --body need --mapping NAME"))
      }
      return .success(options)
    }
  }
}

/// A bundled mapping the command line can run on a file: its name, what it reads, a sample
/// payload, and how to describe (and serialize back) what it maps.
public struct ShowcaseMapping: Sendable {
  /// The name given to `--mapping`.
  public let name: String
  /// One line for `--list`.
  public let summary: String
  /// The payload mapped when no `--file` is given.
  public let sample: String
  let run: @Sendable (Data, ShowcaseCommand.BodyFormat?) throws(MappingErrors) -> [String]

  /// Every bundled mapping, in `--list` order.
  public static let all: [ShowcaseMapping] = [
    ShowcaseMapping(
      name: "timeline", summary: "one timeline object: title, generated_at, posts, users",
      sample: ShowcasePayloads.timeline
    ) { data, body throws(MappingErrors) in
      let timeline = try ShowcaseMappings.timeline.map(data)
      var lines = Showcase.describe(timeline)
      if let body {
        let request = try ShowcaseMappings.timeline.requestBody(
          for: timeline, as: body.payloadFormat, rootKey: body == .form ? "timeline" : nil)
        lines += bodyLines(request)
      }
      return lines
    },
    ShowcaseMapping(
      name: "posts", summary: "an array of posts (or one post) with authors and attachments",
      sample: samplePart { $0["posts"] }
    ) { data, body throws(MappingErrors) in
      let posts = try ShowcaseMappings.post.mapCollection(data)
      var lines = ["posts: \(posts.count)"] + posts.flatMap { Showcase.describe($0) }
      if let body {
        let inverse = ShowcaseMappings.post.inverted().rootKey("posts")
        let bytes = try inverse.serializeCollection(posts, as: body.payloadFormat)
        lines += bodyLines(RequestBody(data: bytes, contentType: body.payloadFormat.contentType))
      }
      return lines
    },
    ShowcaseMapping(
      name: "attachments", summary: "an array of attachments chosen by \"type\": photo, link, poll",
      sample: samplePart { $0["posts"]?[0]?["attachments"] }
    ) { data, body throws(MappingErrors) in
      let attachments = try ShowcaseMappings.attachment.mapCollection(data)
      var lines = ["attachments: \(attachments.count)"] + attachments.map(Showcase.describe)
      if let body {
        let inverse = ShowcaseMappings.attachment.inverted().rootKey("attachments")
        let bytes = try inverse.serializeCollection(attachments, as: body.payloadFormat)
        lines += bodyLines(RequestBody(data: bytes, contentType: body.payloadFormat.contentType))
      }
      return lines
    },
    ShowcaseMapping(
      name: "users", summary: "profiles in a dictionary keyed by user name ({\"ann\": {...}})",
      sample: samplePart { $0["users"] }
    ) { data, body throws(MappingErrors) in
      let profiles = try ShowcaseMappings.profile.mapCollection(data)
      var lines = ["profiles: \(profiles.count)"] + profiles.map(Showcase.describe)
      if let body {
        let inverse = ShowcaseMappings.profile.inverted()
        let bytes = try inverse.serializeCollection(
          profiles, as: body.payloadFormat)
        lines += bodyLines(RequestBody(data: bytes, contentType: body.payloadFormat.contentType))
      }
      return lines
    },
  ]

  /// The bundled mapping called `name`, if any.
  public static func named(_ name: String) -> ShowcaseMapping? {
    all.first { $0.name == name }
  }

  static func bodyLines(_ body: RequestBody) -> [String] {
    [
      "request body (Content-Type: \(body.contentType)):",
      String(decoding: body.data, as: UTF8.self),
    ]
  }

  /// A part of the bundled timeline, as JSON text (`"[]"` if the part is missing).
  static func samplePart(_ select: (Node) -> Node?) -> String {
    guard let timeline = try? Node(jsonString: ShowcasePayloads.timeline),
      let part = select(timeline), let text = try? part.jsonString(options: .prettyPrinted)
    else { return "[]" }
    return text
  }
}
