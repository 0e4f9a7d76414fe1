import ObjectMapping
import ObjectMappingClient
import Testing

/// The router against generated input (issue 33): `match` never traps on any text, whatever
/// it matches it matches consistently, and any value interpolated into a route matches back to
/// itself without leaving its segment.
@Suite("Router with generated input")
struct RouterGeneratedTests {
  /// A small deterministic generator (SplitMix64), so a failure can be replayed.
  struct Generator {
    var state: UInt64

    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    mutating func text(from pieces: [String], maximumCount: Int) -> String {
      var text = ""
      for _ in 0..<below(maximumCount + 1) { text += pieces[below(pieces.count)] }
      return text
    }
  }

  static let pathPieces = [
    "/", "/", "?", "=", "&", "%", "%2", "%2F", "%C3", "%A9", "%zz", "#", "+", "a", "b", "1", "22",
    ":", ".", "..", "é", "\u{0}", " ", "articles", "comments", "json", "\\", "//", "{", "}",
  ]

  static func router() throws -> Router {
    var router = Router()
    try router.add(named: "comments", "/articles/:articleID/comments")
    try router.add(named: "article", .get, "/articles/:id")
    try router.add(named: "file", "/files/:name\\.json")
    try router.add(named: "pair", "/p/{a}-{b}")
    try router.add(named: "search", "/search?q=:q&page=:page")
    try router.add(named: "root", "/", allowingTrailingSlash: true)
    try router.add(named: "slash", "/s/:x/", allowingTrailingSlash: true)
    return router
  }

  @Test func matchNeverTrapsAndIsConsistent() throws {
    let router = try Self.router()
    var generator = Generator(state: 33)
    var matched = 0
    for _ in 0..<20_000 {
      let path = generator.text(from: Self.pathPieces, maximumCount: 12)
      for method in [nil, HTTPMethod.get, .post] {
        guard let match = router.match(path, method: method) else { continue }
        matched += 1
        // What matched can be made again from its parameters and matches the same way.
        let rebuilt = try router.path(named: try #require(match.name), match.parameters)
        let again = try #require(
          router.match(rebuilt, method: method), "\(path) -> \(rebuilt)")
        #expect(again.parameters == match.parameters, "\(path) -> \(rebuilt)")
        for value in match.parameters.values { #expect(!value.isEmpty) }
      }
    }
    #expect(matched > 100)
  }

  @Test func everyValueRoundTripsThroughItsSegment() throws {
    let router = try Self.router()
    var generator = Generator(state: 18)
    let valuePieces = [
      "a", "Z", "0", "/", "?", "#", "&", "=", "+", "%", "%2F", ".", "..", ":", "@", " ", "é", "€",
      "\u{0}", "\n", "{", "}", "\\", "-", "_", "~", "json",
    ]
    for _ in 0..<5_000 {
      var values: [String: String] = [:]
      for name in ["articleID", "q", "page", "a"] {
        var value = ""
        while value.isEmpty { value = generator.text(from: valuePieces, maximumCount: 6) }
        values[name] = value
      }
      let articleID = try #require(values["articleID"])
      let comments = try router.path(named: "comments", ["articleID": articleID])
      #expect(comments.split(separator: "/", omittingEmptySubsequences: false).count == 4)
      #expect(router.match(comments)?.parameters == ["articleID": articleID])
      let (q, page) = (try #require(values["q"]), try #require(values["page"]))
      let search = try router.path(named: "search", ["q": q, "page": page])
      #expect(!search.contains("#") && search.filter { $0 == "&" }.count == 1)
      #expect(router.match(search)?.parameters == ["q": q, "page": page])
    }
  }

  @Test func anyPatternTextIsParsedOrRejectedNeverTrapping() throws {
    var generator = Generator(state: 7)
    let pieces = [
      "/", ":", "a", "id", "{", "}", "(", ")", "\\", ".", "@", "?", "&", "=", "%", "%2", "%41", "#",
      " ", "é", "_", "1", "-", "\\.", "\\:", ":x", "{y}", "(z)",
    ]
    var accepted = 0
    for _ in 0..<20_000 {
      let text = generator.text(from: pieces, maximumCount: 10)
      guard let pattern = try? PathPattern(text) else { continue }
      accepted += 1
      var values: [String: String?] = [:]
      for (offset, name) in pattern.parameterNames.enumerated() {
        values[name] = "Vé/" + String(repeating: "Q", count: offset + 1)
      }
      let path = try pattern.interpolate(values)
      #expect(path.unicodeScalars.allSatisfy { $0.isASCII && $0 != " " && $0 != "#" })
      if let matched = pattern.match(path) {
        #expect(matched == values.compactMapValues { $0 }, "\(text) -> \(path)")
      }
    }
    #expect(accepted > 1_000)
  }
}
