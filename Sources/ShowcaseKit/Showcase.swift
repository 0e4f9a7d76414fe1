import Foundation
import ObjectMapping

/// What `swift run showcase` prints with no arguments, section by section.
///
/// Each section is a list of lines; ``report()`` joins them under their headings. The tests in
/// `Tests/ObjectMappingTests/Showcase/` compare the sections line by line.
public enum Showcase {
  /// One titled part of the showcase's output.
  public struct Section: Equatable, Sendable {
    public var title: String
    public var lines: [String]

    public init(title: String, lines: [String]) {
      self.title = title
      self.lines = lines
    }

    /// The heading, the lines, then an empty line.
    public var text: String {
      (["== \(title) =="] + lines + [""]).joined(separator: "\n")
    }
  }

  /// Every section, in order.
  ///
  /// - Throws: ``MappingErrors`` if the bundled timeline does not map or serialize (a bug in
  ///   the showcase, which the tests catch).
  public static func sections() throws(MappingErrors) -> [Section] {
    let timeline = try ShowcaseMappings.timeline.map(ShowcasePayloads.timeline)
    var sections = [
      Section(title: "1. Typed objects from the bundled timeline", lines: describe(timeline)),
      brokenPayloadSection(),
      try jsonBodySection(timeline),
      try formBodySection(timeline),
    ]
    sections += validationSections()
    return sections
  }

  /// The whole report, as printed.
  public static func report() throws(MappingErrors) -> String {
    try sections().map(\.text).joined(separator: "\n")
  }

  // MARK: - 2. The broken payload

  /// Maps ``ShowcasePayloads/broken`` through a ``Mapper`` and lists every error and
  /// diagnostic with its path.
  public static func brokenPayloadSection() -> Section {
    let title = "2. A broken payload: every problem, with its path"
    let result: MappingResult
    do {
      result = try Mapper(ShowcaseMappings.provider).map(ShowcasePayloads.broken)
    } catch {
      return Section(title: title, lines: ["the payload cannot be read: \(error)"])
    }
    var lines = ["errors (\(result.errors.count)):"]
    lines += result.errors.map { "  \($0)" }
    lines.append("diagnostics (\(result.diagnostics.count)):")
    lines += result.diagnostics.map { "  \($0)" }
    lines.append("timelines mapped: \(result.all(Timeline.self).count)")
    return Section(title: title, lines: lines)
  }

  // MARK: - 3 and 4. Request bodies

  /// The JSON POST body of the first post and the profiles written back under their user
  /// names, from the same mappings that read them.
  public static func jsonBodySection(_ timeline: Timeline) throws(MappingErrors) -> Section {
    var lines: [String] = []
    if let first = timeline.posts.first {
      let body = try ShowcaseMappings.post.requestBody(
        for: first, as: .json(.prettyPrinted), rootKey: "post")
      lines.append("POST /posts  Content-Type: \(body.contentType)")
      lines.append(String(decoding: body.data, as: UTF8.self))
    }
    let profiles = try ShowcaseMappings.profile.serializeCollection(
      timeline.profiles, as: .json(.prettyPrinted))
    lines.append("PUT /users  Content-Type: \(PayloadFormat.json.contentType)")
    lines.append(String(decoding: profiles, as: UTF8.self))
    return Section(title: "3. JSON request bodies from the same mappings", lines: lines)
  }

  /// The form POST body of the second post (its poll attachment included).
  public static func formBodySection(_ timeline: Timeline) throws(MappingErrors) -> Section {
    var lines: [String] = []
    for post in timeline.posts.prefix(2) {
      let body = try ShowcaseMappings.post.requestBody(
        for: post, as: .formURLEncoded, rootKey: "post")
      lines.append("POST /posts  Content-Type: \(body.contentType)")
      lines.append(String(decoding: body.data, as: UTF8.self))
    }
    return Section(title: "4. Form request bodies from the same mappings", lines: lines)
  }

  // MARK: - 5. Validation

  /// Maps ``ShowcasePayloads/moderated`` with ``ShowcaseMappings/moderatedPost``: a negative like
  /// count is rejected (the post keeps 0 and maps), tags are replaced by their lowercase form,
  /// and the report lists the rejection with its path. An empty text fails the post.
  public static func validationSections() -> [Section] {
    let report = ShowcaseMappings.moderatedPost.report(ShowcasePayloads.moderated)
    var lines = ["a post with one rejected value still maps:"]
    if let post = report.object {
      lines.append(
        "  #\(post.id) \"\(post.text)\", \(post.likes) likes, tags: \(post.tags.joined(separator: ", "))"
      )
    }
    lines += report.summary.map { "  \($0)" }
    let failed = ShowcaseMappings.moderatedPost.report(ShowcasePayloads.moderatedEmpty)
    lines.append("a post whose text is empty fails:")
    lines += failed.summary.map { "  \($0)" }
    return [Section(title: "5. Validation: replace, reject, fail", lines: lines)]
  }

  // MARK: - Describing the typed objects

  /// The timeline as readable lines.
  public static func describe(_ timeline: Timeline) -> [String] {
    var lines = [
      "Timeline \"\(timeline.title)\", generated \(timeline.generatedAt.map(format) ?? "-")",
      "\(timeline.posts.count) posts:",
    ]
    for post in timeline.posts {
      lines += describe(post).map { "  " + $0 }
    }
    lines.append("\(timeline.profiles.count) profiles, keyed by user name:")
    lines += timeline.profiles.map { "  " + describe($0) }
    return lines
  }

  /// A post as readable lines: header, text, tags, one line per attachment.
  public static func describe(_ post: Post) -> [String] {
    var lines = [
      "#\(post.id) by \(post.author.name) (@\(post.author.handle)) at \(format(post.postedAt)), "
        + "\(post.likes) likes",
      "  \"\(post.text)\"",
    ]
    if !post.tags.isEmpty {
      lines.append("  tags: \(post.tags.joined(separator: ", "))")
    }
    lines += post.attachments.map { "  " + describe($0) }
    return lines
  }

  /// An attachment in one line, by case.
  public static func describe(_ attachment: Attachment) -> String {
    switch attachment {
    case .photo(let photo):
      let caption = photo.caption.map { " \"\($0)\"" } ?? ""
      return "photo \(photo.width)x\(photo.height) \(photo.url.absoluteString)\(caption)"
    case .link(let link):
      return "link \"\(link.title)\" \(link.url.absoluteString)"
    case .poll(let poll):
      return "poll \"\(poll.question)\": \(poll.options.joined(separator: " | "))"
        + (poll.isClosed ? " (closed)" : " (open)")
    }
  }

  /// A profile in one line.
  public static func describe(_ profile: Profile) -> String {
    let joined = profile.joined.map { ", joined \(format($0, time: false))" } ?? ""
    return "\(profile.username): \(profile.displayName), \(profile.followers) followers\(joined)"
  }

  /// `2024-03-07 08:15 UTC` (or `2024-03-07`), independent of the machine's time zone.
  public static func format(_ date: Date) -> String {
    format(date, time: true)
  }

  static func format(_ date: Date, time: Bool) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
    func two(_ value: Int?) -> String {
      let value = value ?? 0
      return value < 10 ? "0\(value)" : "\(value)"
    }
    let day = "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day))"
    return time ? "\(day) \(two(parts.hour)):\(two(parts.minute)) UTC" : day
  }
}
