import Foundation
import ObjectMapping
import ObjectMappingDefinitions
import ObjectMappingTesting
import Testing

/// Loaded definitions are ordinary mappings: two-way, usable in providers, relationships and
/// dynamic mappings, and safe from many tasks.
@Suite("Definition files: loaded mappings are ordinary mappings")
struct LoadedMappingTests {
  static var catalog: DefinitionCatalog {
    get throws {
      try DefinitionCatalog(
        appCoreKitFiles: [
          .string(
            """
            {
              "$UserModel": { "@class": "UserModel", "name": "name",
                              "imageUrl": { "@keyPath": "profile_image_url", "@optional": 1 } },
              "$TweetModel": {
                "@class": "TweetModel",
                "message": "text",
                "identifier": "id_str",
                "name": { "@keyPath": "author_name", "@optional": true },
                "retweets": { "@keyPath": "retweet_count", "@defaultValue": 0 },
                "coordinates": { "@keyPath": "coordinates", "@optional": 1,
                                 "@transformSelector": "coordinate2DFromFloatArray:error:" },
                "user": { "@keyPath": "user", "@optional": 1, "@object": { "@mappings": "$UserModel" } }
              }
            }
            """, name: "Tweets.mappings")
        ], types: [TweetModel.self, UserModel.self], transforms: Transforms.registry)
    }
  }

  static let tweets = #"""
    [{"id_str": "1", "text": "one", "retweet_count": 3, "coordinates": [1.5, 2.5],
      "user": {"name": "Ann", "profile_image_url": "http://a/ann.png"}},
     {"id_str": "2", "text": "two"}]
    """#

  @Test func roundTripLaws() throws {
    let mapping: Mapping<TweetModel> = try Self.catalog.mapping("$TweetModel")
    let tweets = try mapping.mapCollection(Self.tweets)
    #expect(tweets.count == 2)
    #expect(tweets[0].user?.imageUrl == URL(string: "http://a/ann.png"))
    #expect(tweets[1].retweets == 0)
    let laws = RoundTripLaws(mapping)
    for tweet in tweets { try laws.checkValue(tweet) }
    try laws.checkPayload(
      json:
        #"{"id_str": "9", "text": "t", "author_name": "Bo", "retweet_count": 1, "coordinates": [1.0, 2.0], "user": {"name": "Bo", "profile_image_url": "http://b"}}"#
    )
    // The serialized form is what the definition says, key for key.
    let written = try mapping.node(tweets[0])
    #expect(written["id_str"] == .string("1"))
    #expect(written["retweet_count"] == .integer(3))
    #expect(written["user"]?["profile_image_url"] == .string("http://a/ann.png"))
  }

  @Test func inProviderAndMapper() throws {
    let tweetMapping = try Self.catalog.mapping("$TweetModel", as: TweetModel.self)
    let provider = MappingProvider {
      Route("statuses", tweetMapping)
    }
    let result = try Mapper(provider).map(#"{"statuses": \#(Self.tweets)}"#)
    #expect(result.all(TweetModel.self).map(\.identifier) == ["1", "2"])
  }

  struct Feed: Equatable, Sendable {
    var title = ""
    var items: [TweetModel] = []
  }

  enum Item: Equatable, Sendable {
    case tweet(TweetModel)
    case user(UserModel)
  }

  @Test func inDSLRelationshipsAndDynamicMappings() throws {
    let catalog = try Self.catalog
    let tweetMapping: Mapping<TweetModel> = try catalog.mapping("$TweetModel")
    let userMapping = try catalog.mapping(for: UserModel.self)
    let feedMapping = Mapping(Feed.init) {
      Attribute("title", \.title)
      Relationship("items", \.items, tweetMapping)
    }
    let feed = try feedMapping.map(#"{"title": "home", "items": \#(Self.tweets)}"#)
    #expect(feed.items.map(\.message) == ["one", "two"])
    try RoundTripLaws(feedMapping).checkValue(feed)

    let items = DynamicMapping<Item> {
      Match("kind", equals: "tweet", tweetMapping, case: Item.tweet) {
        if case .tweet(let tweet) = $0 { tweet } else { nil }
      }
      Match("kind", equals: "user", userMapping, case: Item.user) {
        if case .user(let user) = $0 { user } else { nil }
      }
    }
    let mapped = try items.mapCollection(
      #"[{"kind": "user", "name": "Ann"}, {"kind": "tweet", "id_str": "5", "text": "hi"}]"#)
    #expect(
      mapped == [.user(UserModel(name: "Ann")), .tweet(TweetModel(message: "hi", identifier: "5"))])
  }

  @Test func manyTasksAtOnce() async throws {
    let mapping: Mapping<TweetModel> = try Self.catalog.mapping("$TweetModel")
    let counts = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<16 {
        group.addTask { (try? mapping.mapCollection(Self.tweets).count) ?? -1 }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(counts == Array(repeating: 2, count: 16))
  }

  /// A one-way transform maps, and the inverse leaves its rule out and says so, as a
  /// `decodeOnly:` rule of the DSL does; two-way ones keep the mapping two-way.
  @Test func oneWayTransformsAreLeftOutOfTheInverse() throws {
    var transforms = TransformRegistry.standard
    transforms.register("shout", decodeOnly: { (text: String) in text.uppercased() })
    let catalog = try DefinitionCatalog(
      appCoreKitFiles: [
        .string(
          #"{"$U": {"@class": "UserModel", "name": {"@keyPath": "name", "@transform": "shout"}, "imageUrl": {"@keyPath": "image", "@transformSelector": "url", "@optional": 1}}}"#,
          name: "U.mappings")
      ], types: [UserModel.self], transforms: transforms)
    let users: Mapping<UserModel> = try catalog.mapping("$U")
    let user = try users.map(#"{"name": "ann", "image": "http://a/b.png"}"#)
    #expect(user == UserModel(imageUrl: URL(string: "http://a/b.png"), name: "ANN"))
    let omitted = users.inverted().omitted
    #expect(omitted.count == 1)
    #expect(omitted.first?.rule.contains("name") == true)
    #expect(try users.node(user) == ["image": "http://a/b.png"])
  }

  struct Reactions: Codable, Equatable, Sendable {
    var plusOne = 0
    var heart = 0
  }

  enum State: String, Sendable {
    case open, closed
  }

  struct Issue: DefinableModel, Equatable, Sendable {
    var title = ""
    var state = State.open
    var reactions = Reactions()
    var labels: [String] = []

    static let properties = PropertyTable(Issue.init) {
      Property(\.title)
      Property(\.state)  // a raw-value enum
      Property(\.reactions)  // Codable, no MappableValue conformance
      Property(\.labels)
    }
  }

  /// Raw-value enums and `Codable` values need no conversion of their own; a failure inside a
  /// `Codable` value has the payload's path.
  @Test func enumsAndCodableValues() throws {
    let catalog = try DefinitionCatalog(
      csMapperFiles: [
        .string(
          #"{"title": "title", "state": {"key": "state", "default": "open"}, "reactions": "reactions", "labels": "labels"}"#,
          name: "Issue.json")
      ], types: [Issue.self])
    let issues = try catalog.mapping(for: Issue.self)
    let issue = try issues.map(
      #"{"title": "Crash", "state": "closed", "reactions": {"plusOne": 2, "heart": 1}, "labels": ["bug"]}"#
    )
    #expect(
      issue
        == Issue(
          title: "Crash", state: .closed, reactions: Reactions(plusOne: 2, heart: 1),
          labels: ["bug"]))
    #expect(try issues.map(#"{"title": "x"}"#).state == .open)
    try RoundTripLaws(issues).checkValue(issue)
    let error = #expect(throws: MappingErrors.self) {
      try issues.map(#"{"reactions": {"plusOne": "many"}}"#)
    }
    #expect(error?.errors.first?.path == "/reactions/plusOne")
  }

  /// A template (no `@class`) is built for the type asked for, on request; asking for the
  /// wrong type, or a name no file defines, is an error.
  @Test func templatesOnRequest() throws {
    let catalog = try DefinitionCatalog(
      appCoreKitFiles: [
        .string(
          #"{"$Named": {"name": "name", "imageUrl": {"@keyPath": "image", "@optional": 1}}}"#,
          name: "T.mappings")
      ],
      types: [UserModel.self])
    let users = try catalog.mapping("$Named", as: UserModel.self)
    #expect(try users.map(#"{"name": "Ann"}"#) == UserModel(name: "Ann"))
    #expect(throws: DefinitionErrors.self) { try catalog.mapping("$Nope", as: UserModel.self) }
    // Bound to TweetModel, "imageUrl" and "name" exist too; but a template for a type
    // missing its properties reports them.
    #expect(throws: DefinitionErrors.self) { try catalog.mapping("$Named", as: TimelineModel.self) }
  }

  /// A property whose name cannot be read from its key path (a computed property) must be
  /// spelled; the table says so when a definition is loaded.
  @Test func underivableNameIsReported() {
    struct Odd: DefinableModel {
      var storage: [String: Int] = [:]
      var count: Int {
        get { storage["count"] ?? 0 }
        set { storage["count"] = newValue }
      }
      static let properties = PropertyTable(Odd.init) {
        Property(\.count)
      }
    }
    let error = #expect(throws: DefinitionErrors.self) {
      try DefinitionCatalog(
        appCoreKitFiles: [.string(#"{"$O": {"@class": "Odd"}}"#, name: "O.mappings")],
        types: [Odd.self])
    }
    #expect(error?.errors.first?.message.contains("spell it") == true)
  }
}
