import Foundation
import ObjectMapping
import ObjectMappingDefinitions
import ObjectMappingTesting
import Testing

/// Every example of AppCoreKit's "Mappings" guide (seed 000), as written there, loaded from a
/// `.mappings` file and mapped as the guide describes.
@Suite("AppCoreKit .mappings: the guide's examples")
struct AppCoreKitSeedTests {
  /// The guide's tweet payload. The guide's copy has a trailing comma after
  /// `profile_image_url` (not JSON) and Markdown escapes in the URL; this is the payload
  /// without them.
  static let tweet = #"""
    {
      "coordinates": [-97.51087576, 35.46500176],
      "id_str": "240859602684612608",
      "text": "Introducing the Twitter Certified Products Program: https://t.co/MjJ8xAnT",
      "user": {
        "name": "Twitter API",
        "profile_image_url": "http://a0.twimg.com/profile_images/2284174872/7df3h38zabcvjylnyfe3_normal.png"
      }
    }
    """#

  static func catalog(_ text: String, name: String = "YourMappings.mappings") throws
    -> DefinitionCatalog
  {
    try DefinitionCatalog(
      appCoreKitFiles: [.string(text, name: name)],
      types: [TweetModel.self, UserModel.self, TimelineModel.self, Comment.self],
      transforms: Transforms.registry)
  }

  @Test func directMappings() throws {
    let catalog = try Self.catalog(
      """
      {
        "$TweetModel" : {
          "@class"      : "TweetModel",
          "imageUrl"    : "user.profile_image_url",
          "name"        : "user.name",
          "message"     : "text",
          "identifier"  : "id_str"
        }
      }
      """)
    let tweet = try catalog.mapping("$TweetModel", as: TweetModel.self).map(Self.tweet)
    #expect(tweet.name == "Twitter API")
    #expect(tweet.identifier == "240859602684612608")
    #expect(tweet.message.hasPrefix("Introducing the Twitter Certified Products Program"))
    #expect(
      tweet.imageUrl
        == URL(
          string:
            "http://a0.twimg.com/profile_images/2284174872/7df3h38zabcvjylnyfe3_normal.png"))
    #expect(catalog.definitionNames == ["$TweetModel"])
  }

  /// "By default, all the mappings defined above are considered as required": an absent field
  /// is an error naming it, unless `@optional`, and `@defaultValue` fills it in.
  @Test func validationAttributes() throws {
    let catalog = try Self.catalog(
      """
      {
          "$TweetModel" : {
              "@class" : "TweetModel",

              "imageUrl" : {
                  "@keyPath" : "user.profile_image_url",
                  "@optional" : 1,
                  "@defaultValue" : "https://si0.twimg.com/profile_images/1251071930/Untitled.png",
              },

              "name" : "user.name",
              "message" : "text",
              "identifier" : "id_str"
          }
      }
      """)
    let mapping: Mapping<TweetModel> = try catalog.mapping("$TweetModel")
    let withoutImage = #"{"id_str": "1", "text": "hi", "user": {"name": "Ann"}}"#
    let tweet = try mapping.map(withoutImage)
    #expect(
      tweet.imageUrl == URL(string: "https://si0.twimg.com/profile_images/1251071930/Untitled.png"))
    let error = #expect(throws: MappingErrors.self) {
      try mapping.map(#"{"id_str": "1", "user": {"name": "Ann"}}"#)
    }
    #expect(error?.errors.map(\.path) == ["/text"])
  }

  @Test func customTransformer() throws {
    let catalog = try Self.catalog(
      """
      {
          "$TweetModel" : {
              "@class" : "TweetModel",
              "imageUrl" : "user.profile_image_url",
              "name" : "user.name",
              "message" : "text",
              "identifier" : "id_str",

              "coordinates" : {
                  "@keyPath" : "coordinates",
                  "@transformClass" : "MyTransformers",
                  "@transformSelector" : "coordinate2DFromFloatArray:error:"
              }
          }
      }
      """)
    let mapping: Mapping<TweetModel> = try catalog.mapping("$TweetModel")
    let tweet = try mapping.map(Self.tweet)
    #expect(tweet.coordinates == Coordinate(latitude: -97.51087576, longitude: 35.46500176))
    // The transformer's error ("[array count] != 2") is a mapping error at its path.
    let error = #expect(throws: MappingErrors.self) {
      try mapping.map(
        #"{"coordinates": [1], "id_str": "1", "text": "t", "user": {"name": "n", "profile_image_url": "http://a"}}"#
      )
    }
    #expect(error?.errors.first?.path == "/coordinates")
    // Two-way: serializing writes the coordinates back as the array.
    let node = try mapping.node(tweet)
    #expect(node["coordinates"] == .array([.double(-97.51087576), .double(35.46500176)]))
    #expect(try mapping.map(node) == tweet)
  }

  @Test func transformerWithUserData() throws {
    let catalog = try Self.catalog(
      """
      {
        "$TweetModel" : {
          "@class" : "TweetModel",
          "imageUrl" : "user.profile_image_url",
          "name" : "user.name",
          "message" : "text",
          "identifier" : "id_str",

          "coordinates" : {
            "@keyPath" : "coordinates",
            "@transformClass" : "MyTransformers",
            "@transformSelector" : "coordinate2DFromDictionary:userData:error:",
            "@transformUserData" : {
              "longitude" : "long",
              "latitude" : "lat"
            }
          }
        }
      }
      """)
    let payload = #"""
      {"coordinates": {"long": -97.51087576, "lat": 35.46500176}, "id_str": "2", "text": "t",
       "user": {"name": "n", "profile_image_url": "http://a"}}
      """#
    let mapping: Mapping<TweetModel> = try catalog.mapping("$TweetModel")
    let tweet = try mapping.map(payload)
    #expect(tweet.coordinates == Coordinate(latitude: 35.46500176, longitude: -97.51087576))
    try RoundTripLaws(mapping).checkValue(tweet)
  }

  /// `@self` passes the object being mapped to the transformer: the coordinates are two fields
  /// of the tweet itself.
  @Test func selfKeyword() throws {
    let catalog = try Self.catalog(
      """
      {
          "$TweetModel" : {
              "@class" : "TweetModel",
              "imageUrl" : "user.profile_image_url",
              "name" : "user.name",
              "message" : "text",
              "identifier" : "id_str",

              "coordinates" : {
                  "@keyPath" : "@self",
                  "@transformClass" : "MyTransformers",
                  "@transformSelector" : "coordinate2DFromDictionary:userData:error:",
                  "@transformUserData" : {
                      "longitude" : "long",
                      "latitude" : "lat"
                  }
              }
          }
      }
      """)
    let payload = #"""
      {"long": -97.51087576, "lat": -35.46500176, "id_str": "240859602684612608", "text": "t",
       "user": {"name": "n", "profile_image_url": "http://a"}}
      """#
    let mapping: Mapping<TweetModel> = try catalog.mapping("$TweetModel")
    let tweet = try mapping.map(payload)
    #expect(tweet.coordinates == Coordinate(latitude: -35.46500176, longitude: -97.51087576))
    // The transform is two-way, so the inverse writes its reverse output (an object) back into
    // the tweet: the round-trip laws hold.
    #expect(mapping.inverted().omitted.isEmpty)
    let written = try mapping.node(tweet)
    #expect(written["long"] == .double(-97.51087576))
    #expect(written["lat"] == .double(-35.46500176))
    try RoundTripLaws(mapping).checkValue(tweet)
    try RoundTripLaws(mapping).checkPayload(json: payload)
  }

  /// The guide's `@object` with an inline `@mappings`. Its `coordinates` entry names
  /// `CLLocationCoordinate2DFromFloatArray:error:` with user data for a dictionary (the guide
  /// reuses the earlier name); the test registers that name for the dictionary transformer.
  @Test func objectPropertyInline() throws {
    let catalog = try Self.catalog(
      """
      {
        "$TweetModel" : {
          "@class" : "TweetModel",

          "user" : {
            "@keyPath" : "user",
            "@object" : {
              "@class" : "UserModel",
              "@mappings" : {
                "name" : "name",
                "imageUrl" : "profile_image_url"
              }
            }
          },

          "message" : "text",
          "identifier" : "id_str",
          "coordinates" : {
            "@keyPath" : "@self",
            "@transformClass" : "MyTransformers",
            "@transformSelector" : "CLLocationCoordinate2DFromFloatArray:error:",
            "@transformUserData" : {
              "longitude" : "long",
              "latitude" : "lat"
            }
          }
        }
      }
      """)
    let payload = #"""
      {"long": 1.5, "lat": 2.5, "id_str": "3", "text": "t",
       "user": {"name": "Twitter API", "profile_image_url": "http://a0.twimg.com/x.png"}}
      """#
    let tweet = try catalog.mapping("$TweetModel", as: TweetModel.self).map(payload)
    #expect(
      tweet.user
        == UserModel(imageUrl: URL(string: "http://a0.twimg.com/x.png"), name: "Twitter API"))
    #expect(tweet.coordinates == Coordinate(latitude: 2.5, longitude: 1.5))
  }

  /// `@mappings` naming another context, with and without `@class` beside it.
  @Test(arguments: [
    #""@mappings" : "$UserModel""#, #""@class" : "UserModel", "@mappings" : "$UserModel""#,
  ])
  func objectPropertyByContext(object: String) throws {
    let catalog = try Self.catalog(
      """
      {
        "$UserModel" : {
          "@class" : "UserModel",
          "name" : "name",
          "imageUrl" : "profile_image_url"
        },

        "$TweetModel" : {
          "@class" : "TweetModel",
          "user" : {
            "@keyPath" : "user",
            "@object" : {
              \(object)
            }
          },
          "message" : "text",
          "identifier" : "id_str"
        }
      }
      """)
    let tweet = try catalog.mapping("$TweetModel", as: TweetModel.self).map(Self.tweet)
    #expect(tweet.user?.name == "Twitter API")
    #expect(tweet.user?.imageUrl?.host == "a0.twimg.com")
    #expect(tweet.identifier == "240859602684612608")
    // The context is also a mapping of its own, and the type's default one; its fields are
    // required, as every AppCoreKit mapping without @optional.
    let users = try catalog.mapping(for: UserModel.self)
    #expect(try users.map(#"{"name": "Ann", "profile_image_url": "http://a"}"#).name == "Ann")
    let error = #expect(throws: MappingErrors.self) { try users.map(#"{"name": "Ann"}"#) }
    #expect(error?.errors.map(\.path) == ["/profile_image_url"])
  }

  static let timelineContexts = """
    {
      "$TweetModel" : {
        "@class" : "TweetModel",
        "message" : "text",
        "identifier" : "id_str"
      },
      "$TimelineModel" : {
        "@class" : "TimelineModel",
        "tweets" : {
          "@keyPath" : "@self", //The tweet payload array
          %@
          "@object" : {
            "@mappings" : "$TweetModel"
          }
        }
      }
    }
    """

  @Test func collectionProperty() throws {
    let catalog = try Self.catalog(
      Self.timelineContexts.replacingOccurrences(of: "%@", with: ""))
    let mapping: Mapping<TimelineModel> = try catalog.mapping("$TimelineModel")
    let payload = #"[{"id_str": "1", "text": "one"}, {"id_str": "2", "text": "two"}]"#
    let timeline = try mapping.map(payload)
    #expect(timeline.tweets.map(\.identifier) == ["1", "2"])
    // Onto an existing timeline, new tweets go at the end by default.
    var existing = TimelineModel(tweets: [TweetModel(message: "old", identifier: "0")])
    try mapping.map(payload, onto: &existing)
    #expect(existing.tweets.map(\.identifier) == ["0", "1", "2"])
  }

  @Test(arguments: [
    (#""@clearContent" : 1,"#, ["1", "2"]),
    (#""@insertContentAtBegin" : 1,"#, ["1", "2", "0"]),
    (#""@clearContent" : 1, "@insertContentAtBegin" : 1,"#, ["1", "2"]),
  ])
  func collectionPolicies(keywords: String, expected: [String]) throws {
    let catalog = try Self.catalog(
      Self.timelineContexts.replacingOccurrences(of: "%@", with: keywords))
    let mapping: Mapping<TimelineModel> = try catalog.mapping("$TimelineModel")
    var existing = TimelineModel(tweets: [TweetModel(message: "old", identifier: "0")])
    try mapping.map(
      #"[{"id_str": "1", "text": "one"}, {"id_str": "2", "text": "two"}]"#, onto: &existing)
    #expect(existing.tweets.map(\.identifier) == expected)
  }

  /// A context that refers to itself (a comment's replies) builds once and maps any depth.
  @Test func recursiveContext() throws {
    let catalog = try Self.catalog(
      """
      { "$Comment": { "@class": "Comment", "text": "body",
                      "replies": { "@keyPath": "replies", "@optional": true,
                                   "@object": { "@mappings": "$Comment" } } } }
      """)
    let mapping: Mapping<Comment> = try catalog.mapping("$Comment")
    let comment = try mapping.map(
      #"{"body": "a", "replies": [{"body": "b", "replies": [{"body": "c"}]}]}"#)
    #expect(comment.replies.first?.replies.first?.text == "c")
    try RoundTripLaws(mapping).checkValue(comment)
  }
}
