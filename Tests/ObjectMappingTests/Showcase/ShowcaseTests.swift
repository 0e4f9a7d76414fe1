import Foundation
import ObjectMapping
import ObjectMappingDefinitions
import ShowcaseKit
import Testing

@Suite("Showcase: the bundled timeline maps into typed values")
struct ShowcaseMappingTests {
  @Test func timelineMapsEveryKindOfRule() throws {
    let timeline = try ShowcaseMappings.timeline.map(ShowcasePayloads.timeline)
    #expect(timeline.title == "Swift on the server")
    #expect(timeline.generatedAt == Date(timeIntervalSince1970: 1_709_803_800))
    #expect(timeline.posts.map(\.id) == [101, 102, 103])

    let first = timeline.posts[0]
    #expect(first.author == member(1, "Ann Lee", "ann"))
    // "07/03/2024 08:15" read with the custom format, in UTC.
    #expect(first.postedAt == Date(timeIntervalSince1970: 1_709_799_300))
    #expect(first.tags == ["swift", "json", "release"])
    #expect(first.likes == 42)
    var photo = Photo()
    photo.url = try #require(URL(string: "https://example.com/launch.jpg"))
    photo.width = 1024
    photo.height = 768
    photo.caption = "Launch day"
    var link = LinkPreview()
    link.url = try #require(URL(string: "https://example.com/notes"))
    link.title = "Release notes"
    #expect(first.attachments == [.photo(photo), .link(link)])

    var poll = Poll()
    poll.question = "Pick one"
    poll.options = ["ISO 8601", "epoch seconds", "dd/MM/yyyy"]
    #expect(timeline.posts[1].attachments == [.poll(poll)])
    #expect(timeline.posts[1].likes == 0)  // absent: the default
    #expect(timeline.posts[2].likes == 17)  // "17": lenient coercion
    #expect(timeline.posts[2].tags == [])
    #expect(timeline.posts[2].attachments == [])

    #expect(timeline.profiles.map(\.username) == ["ann", "bob"])
    #expect(timeline.profiles.map(\.followers) == [1200, 87])
    #expect(timeline.profiles[0].joined == Date(timeIntervalSince1970: 1_557_619_200))
  }

  @Test func timelineSurvivesSerializeThenMap() throws {
    let timeline = try ShowcaseMappings.timeline.map(ShowcasePayloads.timeline)
    let json = try ShowcaseMappings.timeline.serialize(timeline)
    #expect(try ShowcaseMappings.timeline.map(json) == timeline)
  }

  private func member(_ id: Int, _ name: String, _ handle: String) -> Member {
    var member = Member()
    member.id = id
    member.name = name
    member.handle = handle
    return member
  }
}

@Suite("Showcase: the printed sections")
struct ShowcaseOutputTests {
  @Test func sectionsComeInOrder() throws {
    let titles = try Showcase.sections().map(\.title)
    #expect(
      titles == [
        "1. Typed objects from the bundled timeline",
        "2. A broken payload: every problem, with its path",
        "3. JSON request bodies from the same mappings",
        "4. Form request bodies from the same mappings",
        "5. Validation: replace, reject, fail",
      ])
  }

  @Test func typedObjectsSection() throws {
    let section = try #require(try Showcase.sections().first)
    #expect(
      section.lines == [
        #"Timeline "Swift on the server", generated 2024-03-07 09:30 UTC"#,
        "3 posts:",
        "  #101 by Ann Lee (@ann) at 2024-03-07 08:15 UTC, 42 likes",
        #"    "Shipped typed mappings for our API today.""#,
        "    tags: swift, json, release",
        #"    photo 1024x768 https://example.com/launch.jpg "Launch day""#,
        #"    link "Release notes" https://example.com/notes"#,
        "  #102 by Bob Stone (@bob) at 2024-03-07 08:47 UTC, 0 likes",
        #"    "Which date format do your APIs send?""#,
        "    tags: dates",
        #"    poll "Pick one": ISO 8601 | epoch seconds | dd/MM/yyyy (open)"#,
        "  #103 by Ann Lee (@ann) at 2024-03-07 09:05 UTC, 17 likes",
        #"    "Reading the results: ISO 8601 wins.""#,
        "2 profiles, keyed by user name:",
        "  ann: Ann Lee, 1200 followers, joined 2019-05-12",
        "  bob: Bob Stone, 87 followers, joined 2021-11-02",
      ])
  }

  @Test func brokenPayloadSectionListsEveryProblemWithItsPath() {
    #expect(
      Showcase.brokenPayloadSection().lines == [
        "errors (6):",
        #"  /posts/0/id: cannot convert "101abc" to an integer"#,
        "  /posts/0/author/name: required value is missing",
        "  /posts/0/attachments/0/size/width: required value is missing",
        "  /posts/0/attachments/0/size/height: required value is missing",
        #"  /posts/1/posted_at: cannot convert "30/02/2024 08:47" to a date: February 30, 2024 does not exist"#,
        #"  /users/ann/followers: cannot convert "lots" to an integer"#,
        "diagnostics (1):",
        #"  /posts/0/attachments/1: skipped: no mapping matches: type is "video""#,
        "timelines mapped: 0",
      ])
  }

  @Test func jsonBodiesAreWrittenByTheSameMappings() throws {
    let timeline = try ShowcaseMappings.timeline.map(ShowcasePayloads.timeline)
    let lines = try Showcase.jsonBodySection(timeline).lines
    #expect(lines.count == 4)
    #expect(lines[0] == "POST /posts  Content-Type: application/json")
    #expect(lines[2] == "PUT /users  Content-Type: application/json")
    // The post body maps back to the first post, the discriminators written back included.
    let post = try Node(jsonString: lines[1])["post"]
    #expect(try ShowcaseMappings.post.map(#require(post)) == timeline.posts[0])
    #expect(post?["attachments"]?[0]?["type"] == "photo")
    #expect(
      try Node(jsonString: lines[3])
        == [
          "ann": ["display_name": "Ann Lee", "followers": 1200, "joined": "2019-05-12"],
          "bob": ["display_name": "Bob Stone", "followers": 87, "joined": "2021-11-02"],
        ])
  }

  @Test func formBodiesAreWrittenByTheSameMappings() throws {
    let timeline = try ShowcaseMappings.timeline.map(ShowcasePayloads.timeline)
    let lines = try Showcase.formBodySection(timeline).lines
    #expect(lines.count == 4)
    #expect(lines[0] == "POST /posts  Content-Type: application/x-www-form-urlencoded")
    #expect(
      lines[3]
        == "post[id]=102&post[text]=Which+date+format+do+your+APIs+send%3F"
        + "&post[posted_at]=07%2F03%2F2024+08%3A47&post[author][id]=2"
        + "&post[author][name]=Bob+Stone&post[author][handle]=bob&post[tags]=dates"
        + "&post[stats][likes]=0&post[attachments][0][question]=Pick+one"
        + "&post[attachments][0][options][]=ISO+8601"
        + "&post[attachments][0][options][]=epoch+seconds"
        + "&post[attachments][0][options][]=dd%2FMM%2Fyyyy&post[attachments][0][closed]=no"
        + "&post[attachments][0][type]=poll")
  }

  @Test func validationSectionShowsAReplacementARejectionAndAFailure() {
    #expect(
      Showcase.validationSections().first?.lines == [
        "a post with one rejected value still maps:",
        "  #301 \"Validation keeps bad values out\", 0 likes, tags: swift, json",
        "  /stats/likes: value rejected: likes cannot be negative",
        "a post whose text is empty fails:",
        "  /text: validation failed: a post needs some text",
      ])
  }
}

@Suite("Showcase: the command line")
struct ShowcaseCommandTests {
  @Test func noArgumentsPrintsTheReport() throws {
    let outcome = ShowcaseCommand.run([])
    #expect(outcome.status == 0)
    #expect(outcome.errorOutput.isEmpty)
    #expect(outcome.output == (try Showcase.report()))
  }

  @Test func helpAndListExitZero() {
    let help = ShowcaseCommand.run(["--help"])
    #expect(help.status == 0)
    #expect(help.output.contains("--mapping NAME"))
    #expect(help.output.contains("--file PATH"))
    let list = ShowcaseCommand.run(["--list"])
    #expect(list.status == 0)
    #expect(
      list.output.split(separator: "\n").map { $0.prefix { $0 != " " } }
        == ["timeline", "posts", "attachments", "users"])
  }

  @Test func namedMappingWithoutFileMapsItsSample() {
    let outcome = ShowcaseCommand.run(["--mapping", "users", "--body", "form"])
    #expect(outcome.status == 0)
    #expect(
      outcome.output == """
        profiles: 2
        ann: Ann Lee, 1200 followers, joined 2019-05-12
        bob: Bob Stone, 87 followers, joined 2021-11-02
        request body (Content-Type: application/x-www-form-urlencoded):
        ann[display_name]=Ann+Lee&ann[followers]=1200&ann[joined]=2019-05-12&bob[display_name]=Bob+Stone&bob[followers]=87&bob[joined]=2021-11-02

        """)
  }

  @Test func userFileIsMappedAndSerializedBack() {
    let file = #"[{"type": "link", "url": "https://swift.org", "title": "Swift"}]"#
    let outcome = ShowcaseCommand.run(
      ["--mapping", "attachments", "--file", "a.json", "--body", "json"],
      readFile: { _ in Data(file.utf8) })
    #expect(outcome.status == 0)
    #expect(
      outcome.output == """
        attachments: 1
        link "Swift" https://swift.org
        request body (Content-Type: application/json):
        {"attachments":[{"url":"https://swift.org","title":"Swift","type":"link"}]}

        """)
  }

  @Test func mappingErrorsExitOneWithEveryPath() {
    let outcome = ShowcaseCommand.run(
      ["--mapping", "posts", "--file", "p.json"],
      readFile: { _ in Data(#"[{"id": "x", "text": "Hi"}]"#.utf8) })
    #expect(outcome.status == 1)
    #expect(outcome.output.isEmpty)
    #expect(
      outcome.errorOutput == """
        3 problem(s) mapping with "posts":
          /0/id: cannot convert "x" to an integer
          /0/posted_at: required value is missing
          /0/author: required value is missing

        """)
  }

  @Test func badUsageAndUnreadableFilesExitTwo() {
    struct Unreadable: Error, LocalizedError {
      var errorDescription: String? { "no such file" }
    }
    let unreadable = ShowcaseCommand.run(
      ["--mapping", "posts", "--file", "missing.json"], readFile: { _ in throw Unreadable() })
    #expect(unreadable.status == 2)
    #expect(unreadable.errorOutput == "showcase: cannot read missing.json: no such file\n")

    let unknown = ShowcaseCommand.run(["--mapping", "tweets"])
    #expect(unknown.status == 2)
    #expect(unknown.errorOutput.hasPrefix(#"showcase: no bundled mapping named "tweets""#))

    for arguments in [
      ["--bogus"], ["--mapping"], ["--file", "x.json"], ["--mapping", "users", "--body", "xml"],
    ] {
      let outcome = ShowcaseCommand.run(arguments)
      #expect(outcome.status == 2, "\(arguments)")
      #expect(outcome.errorOutput.contains("usage: showcase"), "\(arguments)")
    }
  }
}

@Suite("Showcase: the definition file section")
struct DefinitionFileShowcaseTests {
  /// The bundled `.mappings` resource loads, maps the timeline's posts as the DSL mapping does,
  /// writes them back, and the broken definition's three mistakes are listed with their places.
  @Test func section() throws {
    let section = DefinitionFileShowcase.section()
    #expect(
      Array(section.lines.prefix(4)) == [
        "contexts: $Member, $PostBase, $Post",
        "#101 by @ann at 2024-03-07 08:15 UTC, 42 likes, tags: swift, json, release",
        "#102 by @bob at 2024-03-07 08:47 UTC, 0 likes, tags: dates",
        "#103 by @ann at 2024-03-07 09:05 UTC, 17 likes, no tags",
      ])
    #expect(section.lines[4].hasPrefix(#"written back: {"author":{"handle":"ann","id":1"#))
    #expect(section.lines[4].contains(#""posted_at":"07/03/2024 08:15""#))
    let errors = section.lines.drop { $0 != "a definition with mistakes:" }.dropFirst()
    #expect(
      errors.map { $0.prefix(20) } == [
        "  Broken.mappings:5:", "  Broken.mappings:6:", "  Broken.mappings:7:",
      ])
    // The definition file maps the same posts as the DSL mapping (attachments aside).
    let catalog = try DefinitionFileShowcase.catalog()
    let fromFile = try catalog.mapping("$Post", as: ShowcaseKit.Post.self).mapCollection(
      try Node(jsonString: ShowcasePayloads.timeline)["posts"] ?? [])
    let fromDSL = try ShowcaseMappings.timeline.map(ShowcasePayloads.timeline).posts
    #expect(fromFile.map(\.id) == fromDSL.map(\.id))
    #expect(fromFile.map(\.postedAt) == fromDSL.map(\.postedAt))
    #expect(fromFile.map(\.tags) == fromDSL.map(\.tags))
    #expect(fromFile.map(\.likes) == fromDSL.map(\.likes))
  }
}
