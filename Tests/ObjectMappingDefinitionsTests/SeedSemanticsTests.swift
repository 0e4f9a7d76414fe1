import Foundation
import ObjectMapping
import ObjectMappingDefinitions
import ObjectMappingTesting
import Testing

/// A loaded file means what it meant in its own system: the rules the seeds state, each tested
/// as the seed says it (`Documentation/DefinitionFiles.md` quotes the sentence each follows).
@Suite("Definition files: what the seeds' files mean")
struct SeedSemanticsTests {
  static let types: [any DefinableModel.Type] = [
    TweetModel.self, UserModel.self, TimelineModel.self, Comment.self,
  ]

  static func catalog(_ text: String, transforms: TransformRegistry = Transforms.registry) throws
    -> DefinitionCatalog
  {
    try DefinitionCatalog(
      appCoreKitFiles: [.string(text, name: "S.mappings")], types: types, transforms: transforms)
  }

  /// The lines of every error a call throws (mapping or loading).
  static func errorLines(_ body: () throws -> Void) -> [String] {
    do {
      try body()
      return []
    } catch let error as MappingErrors {
      return error.errors.map(\.description)
    } catch let error as DefinitionErrors {
      return error.errors.map(\.description)
    } catch {
      return ["\(error)"]
    }
  }

  // MARK: The seeds' skeletons

  /// The guide's first steps (`"@class" : "TweetModel"` alone) and contexts whose rules read
  /// none of the payload's keys map to a fresh object, without error.
  /// "Each mapping context has a unique identifier": a context's name is free-form, dots
  /// included, and a relationship given as a plain key path uses the one context whose
  /// `@class` is its type whatever that context is named. A dotted name was taken for an
  /// inline `@mappings` and never chosen (`no context has "@class": "UserModel"`).
  @Test func aContextWhoseNameHasADotIsFoundByItsClass() throws {
    let tweet = #"{"text": "t", "id_str": "1", "user": {"name": "Ann"}}"#
    for name in ["$User.v2", "UserModel.json", "$UserModel"] {
      let catalog = try Self.catalog(
        #"{"\#(name)": {"@class": "UserModel", "name": "name"}, "#
          + #""$T": {"@class": "TweetModel", "message": "text", "identifier": "id_str", "#
          + #""user": "user"}}"#)
      let mapped = try catalog.mapping("$T", as: TweetModel.self).map(tweet)
      #expect(mapped.user?.name == "Ann", "\(name)")
    }
  }

  @Test func skeletonsMap() throws {
    let catalog = try Self.catalog(
      """
      {
        "$TweetModel" : {
          "@class" : "TweetModel"
        },
        "$UserModel" : { "@class": "UserModel", "name": { "@keyPath": "name", "@optional": 1 } }
      }
      """)
    #expect(
      try catalog.mapping("$TweetModel", as: TweetModel.self).map(AppCoreKitSeedTests.tweet)
        == TweetModel())
    #expect(try catalog.mapping("$UserModel", as: UserModel.self).map(#"{"id": 1}"#) == UserModel())
    let person = try DefinitionCatalog(
      csMapperFiles: [.string(CSMapperSeedTests.personJSON, name: "Person.json")],
      types: [Person.self])
    #expect(try person.mapping(for: Person.self).map(#"{"unrelated": 1}"#) == Person())
  }

  // MARK: Templates

  /// "Defining templates that can be reused in several parts of your context definitions": a
  /// template may hold the attributes of one property, which a property inherits.
  @Test func templatesHoldPropertyAttributes() throws {
    let catalog = try Self.catalog(
      """
      {
        "$OptionalURL" : { "@optional" : 1, "@transformSelector" : "url",
                           "@defaultValue" : "https://si0.twimg.com/Untitled.png" },
        "$UserModel" : {
          "@class" : "UserModel",
          "name" : "name",
          "imageUrl" : { "@inherits" : ["$OptionalURL"], "@keyPath" : "profile_image_url" }
        }
      }
      """)
    let users: Mapping<UserModel> = try catalog.mapping("$UserModel")
    #expect(
      try users.map(#"{"name": "Ann"}"#)
        == UserModel(imageUrl: URL(string: "https://si0.twimg.com/Untitled.png"), name: "Ann"))
    #expect(
      try users.map(#"{"name": "Ann", "profile_image_url": "http://a/ann.png"}"#).imageUrl
        == URL(string: "http://a/ann.png"))
    // A template of attributes is no definition of its own.
    #expect(catalog.definitionNames == ["$UserModel"])
    #expect(
      Self.errorLines { _ = try catalog.mapping("$OptionalURL", as: UserModel.self) } == [
        "\"$OptionalURL\" is a template of property attributes (for @inherits inside a "
          + "property), not a definition"
      ])
    #expect(
      try catalog.rules(of: "$UserModel").map(\.description) == [
        "name <- name (required, at S.mappings:6:5)",
        "imageUrl <- profile_image_url (optional, default \"https://si0.twimg.com/Untitled.png\", "
          + "transform url, at S.mappings:7:5)",
      ])
  }

  /// Several templates: the first listed wins for an attribute both set, and the property's own
  /// attributes win over all (AppCoreKit's cascading tree sets an inherited entry only when the
  /// key is not yet present, in order).
  @Test func firstListedTemplateWinsAndOwnAttributesWin() throws {
    let templates = """
      "$FromA" : { "@keyPath" : "a", "@optional" : 1 },
      "$FromB" : { "@keyPath" : "b", "@defaultValue" : "from B" },
      """
    let catalog = try Self.catalog(
      """
      {
        \(templates)
        "$UserModel" : { "@class" : "UserModel",
                         "name" : { "@inherits" : ["$FromA", "$FromB"] } },
        "$Own" : { "@class" : "UserModel", "@inherits": "$UserModel",
                   "name" : { "@inherits" : ["$FromB", "$FromA"], "@optional" : 0 } }
      }
      """)
    let first: Mapping<UserModel> = try catalog.mapping("$UserModel")
    #expect(try first.map(#"{"a": "A", "b": "B"}"#).name == "A")
    #expect(try first.map(#"{"b": "B"}"#).name == "from B")
    let own: Mapping<UserModel> = try catalog.mapping("$Own")
    #expect(try own.map(#"{"a": "A", "b": "B"}"#).name == "B")
    #expect(try own.rules(in: catalog, "$Own") == ["name <- b (optional, default \"from B\")"])
  }

  // MARK: Transforms

  /// A decode-only multi-value mapper (a display string made of several keys) is registered
  /// with `ValueTransform(decodeOnly:)`: it maps, and the inverse lists it as left out.
  @Test func decodeOnlyMultiValueMapper() throws {
    var transforms = TransformRegistry.standard
    transforms.register(
      "APIMetaStringMapper",
      values: ValueTransform<[String], String>(decodeOnly: { $0.joined(separator: " / ") }))
    let catalog = try DefinitionCatalog(
      csMapperFiles: [
        .string(
          #"{"metaDisplayString": {"mapper": "APIMetaStringMapper", "key": [{"key": "person_name"}, {"key": "person_age"}]}, "active": "active"}"#,
          name: "Employee.json")
      ], types: [Employee.self], transforms: transforms)
    let employees = try catalog.mapping(for: Employee.self)
    let employee = try employees.map(#"{"person_name": "Ann", "person_age": 41, "active": true}"#)
    #expect(employee.metaDisplayString == "Ann / 41")
    #expect(
      employees.inverted().omitted.map(\.description) == [
        "Attribute \"person_name+person_age\": it converts with a one-way closure or transform"
      ])
    #expect(try employees.node(employee) == ["active": true])
  }

  /// A transform's failure names the transform as the file spells it and the rule, also for a
  /// `@self` rule, whose error has no path.
  @Test func transformFailuresNameTheTransformAndTheRule() throws {
    let catalog = try Self.catalog(
      """
      {
        "$TweetModel" : {
          "@class" : "TweetModel",
          "coordinates" : { "@keyPath" : "coordinates", "@transformClass" : "MyTransformers",
                            "@transformSelector" : "coordinate2DFromFloatArray:error:" }
        },
        "$Located" : {
          "@class" : "TweetModel",
          "coordinates" : { "@keyPath" : "@self", "@transformClass" : "MyTransformers",
                            "@transformSelector" : "coordinate2DFromDictionary:userData:error:",
                            "@transformUserData" : { "longitude" : "long", "latitude" : "lat" } }
        }
      }
      """)
    #expect(
      Self.errorLines {
        _ = try catalog.mapping("$TweetModel", as: TweetModel.self).map(#"{"coordinates": [1]}"#)
      }
        == [
          "/coordinates: the transform failed on an array: MyTransformers.coordinate2DFromFloatArray:error: "
            + "for property coordinates of TweetModel: cannot convert 1 numbers to two numbers"
        ])
    #expect(
      Self.errorLines {
        _ = try catalog.mapping("$Located", as: TweetModel.self).map(#"{"long": 1}"#)
      }
        == [
          "the transform failed on an object: MyTransformers.coordinate2DFromDictionary:userData:error: "
            + "for property coordinates of TweetModel: cannot convert an object to an object "
            + "with long and lat"
        ])
  }

  // MARK: Absent, null and existing objects (AppCoreKit)

  static let validation = """
    {
      "$TweetModel" : {
        "@class" : "TweetModel",
        "imageUrl" : { "@keyPath" : "user.profile_image_url", "@optional" : 1,
                       "@defaultValue" : "https://si0.twimg.com/Untitled.png" },
        "name" : "user.name",
        "message" : "text",
        "identifier" : { "@keyPath" : "id_str", "@optional" : 1 },
        "retweets" : { "@keyPath" : "retweet_count", "@defaultValue" : 0 },
        "user" : { "@keyPath" : "user", "@optional" : 1, "@object" : { "@mappings" : "$UserModel" } }
      },
      "$UserModel" : { "@class" : "UserModel", "name" : "name" }
    }
    """

  /// AppCoreKit: `null` is an absent key. A required key's `null` is an error, also for an
  /// `Optional` property; a `@defaultValue` fills it in; anything else leaves the property as
  /// it is.
  @Test func appCoreKitNullIsAbsent() throws {
    let mapping: Mapping<TweetModel> = try Self.catalog(Self.validation).mapping("$TweetModel")
    // The tweet's `name` ("user.name") and the user's own `name` are both required; the
    // key-path attribute runs after the `user` relationship (RestKit's order), so its error
    // comes last.
    #expect(
      Self.errorLines { _ = try mapping.map(#"{"text": null, "user": {"name": null}}"#) } == [
        "/text: required value is missing", "/user/name: required value is missing",
        "/user/name: required value is missing",
      ])
    let tweet = try mapping.map(
      #"{"text": "t", "retweet_count": null, "id_str": null, "user": {"name": "Ann", "profile_image_url": null}}"#
    )
    #expect(tweet.retweets == 0)
    #expect(tweet.identifier == "")
    #expect(tweet.imageUrl == URL(string: "https://si0.twimg.com/Untitled.png"))
    // An optional relationship's null leaves it as it is too (a DSL rule would clear it).
    let users: Mapping<TweetModel> = try Self.catalog(
      """
      { "$TweetModel": { "@class": "TweetModel", "message": "text",
          "user": { "@keyPath": "user", "@optional": 1, "@object": { "@mappings": "$UserModel" } } },
        "$UserModel": { "@class": "UserModel", "name": "name" } }
      """
    ).mapping("$TweetModel")
    var existing = TweetModel(user: UserModel(name: "Bo"))
    try users.map(#"{"text": "t", "user": null}"#, onto: &existing)
    #expect(existing == TweetModel(message: "t", user: UserModel(name: "Bo")))
  }

  /// AppCoreKit: a required rule is required onto an existing object too (`mapValue:toObject:`
  /// reports the missing field), and a `@defaultValue` fills an absent key there too.
  @Test func appCoreKitRulesHoldOntoExistingObjects() throws {
    let mapping: Mapping<TweetModel> = try Self.catalog(Self.validation).mapping("$TweetModel")
    var existing = TweetModel(
      imageUrl: URL(string: "http://a/old.png"), name: "Old", message: "old", identifier: "7",
      retweets: 5)
    let before = existing
    #expect(
      Self.errorLines { try mapping.map(#"{"user": {"name": "Ann"}}"#, onto: &existing) } == [
        "/text: required value is missing"
      ])
    #expect(existing == before)  // transactional: nothing written
    try mapping.map(#"{"text": "new", "user": {"name": "Ann"}}"#, onto: &existing)
    #expect(existing.message == "new")
    #expect(existing.retweets == 0)  // absent: the default
    #expect(existing.imageUrl == URL(string: "https://si0.twimg.com/Untitled.png"))
    #expect(existing.identifier == "7")  // optional without a default: left as it is
  }

  // MARK: Absent, null and existing objects (CSMapper)

  static let heightDefault = """
    <plist version="1.0">
    	<key>name</key>
    	<dict>
    		<key>key</key>
    		<string>person_name</string>
    	</dict>
    	<key>height</key>
    	<dict>
    		<key>key</key>
    		<string>person_height</string>
    		<key>default</key>
    		<string>10</string>
    	</dict>
    </plist>
    """

  /// CSMapper maps onto instances (`mapAttributesWithDictionary:`): its `default` applies
  /// whenever the key is absent, on an existing object too; `null` is absent; nothing is ever
  /// required.
  @Test func csMapperDefaultsApplyOntoExistingObjects() throws {
    let mapping = try DefinitionCatalog(
      csMapperFiles: [.string(Self.heightDefault, name: "Person.plist")], types: [Person.self]
    ).mapping(for: Person.self)
    var person = Person(name: "Ann", age: 41, height: 170)
    try mapping.map(#"{"person_name": "Bo"}"#, onto: &person)
    #expect(person == Person(name: "Bo", age: 41, height: 10))
    person.height = 170
    try mapping.map(#"{"person_name": null, "person_height": null}"#, onto: &person)
    #expect(person == Person(name: "Bo", age: 41, height: 10))
  }

  // MARK: @self, both ways

  /// A `@self` collection (the guide's `$TimelineModel`: "the tweet payload array") is written
  /// back as the payload array itself: the round-trip laws hold.
  @Test func selfCollectionIsWrittenBack() throws {
    let catalog = try Self.catalog(
      AppCoreKitSeedTests.timelineContexts.replacingOccurrences(of: "%@", with: ""))
    let mapping: Mapping<TimelineModel> = try catalog.mapping("$TimelineModel")
    let payload = #"[{"id_str": "1", "text": "one"}, {"id_str": "2", "text": "two"}]"#
    let timeline = try mapping.map(payload)
    #expect(try mapping.node(timeline) == (try Node(jsonString: payload)))
    #expect(mapping.inverted().keyPaths == ["@self"])
    let laws = RoundTripLaws(mapping)
    try laws.checkValue(timeline)
    try laws.checkPayload(json: payload)
    try laws.checkValue(TimelineModel())
  }

  /// A `@self` rule whose transform is decode-only is left out of the inverse and listed.
  @Test func selfRuleWithAOneWayTransformIsLeftOut() throws {
    var transforms = Transforms.registry
    transforms.register(
      "centre", decodeOnly: { (_: Node) in Coordinate(latitude: 0, longitude: 0) })
    let catalog = try Self.catalog(
      #"{ "$TweetModel": { "@class": "TweetModel", "message": "text", "coordinates": { "@keyPath": "@self", "@transform": "centre" } } }"#,
      transforms: transforms)
    let mapping: Mapping<TweetModel> = try catalog.mapping("$TweetModel")
    #expect(
      mapping.inverted().omitted.map(\.description) == [
        "Attribute \"@self\": it converts with a one-way closure or transform"
      ])
    #expect(try mapping.node(TweetModel(message: "hi")) == ["text": "hi"])
  }

  /// A `@self` transform's members never repeat a key another rule writes: that rule's value is
  /// the one written.
  @Test func selfMembersNeverRepeatAKey() throws {
    let catalog = try Self.catalog(
      """
      { "$TweetModel": { "@class": "TweetModel", "message": "long",
          "coordinates": { "@keyPath": "@self", "@transformSelector": "coordinate2DFromDictionary:userData:error:",
                           "@transformUserData": { "longitude": "long", "latitude": "lat" } } } }
      """)
    let mapping: Mapping<TweetModel> = try catalog.mapping("$TweetModel")
    let written = try mapping.node(
      TweetModel(message: "m", coordinates: Coordinate(latitude: 1.5, longitude: 2.5)))
    #expect(written == ["long": "m", "lat": 1.5])
  }

  // MARK: Groups

  /// "the property is only mapped when the requested groups are contained in the mapping
  /// groups": a loaded CSMapper file matches groups all-of by itself (Example 2), and an empty
  /// selection, like none, maps every property.
  @Test func csMapperGroupsAreAllOf() throws {
    let catalog = try DefinitionCatalog(
      csMapperFiles: [.string(CSMapperSeedTests.groupsJSON, name: "Person.json")],
      types: [Person.self])
    let mapping = try catalog.mapping(for: Person.self)
    let everything = CSMapperSeedTests.everything
    #expect(
      try mapping.map(everything, with: MappingOptions(groups: ["list"]))
        == Person(name: "Ann", age: 41, height: 170))
    #expect(
      try mapping.map(everything, with: MappingOptions(groups: ["list", "detail"]))
        == Person(age: 41, height: 170))
    let all = Person(name: "Ann", age: 41, height: 170, address: "Main St")
    #expect(try mapping.map(everything, with: MappingOptions(groups: [])) == all)
    #expect(try mapping.map(everything) == all)
    #expect(
      try mapping.node(all, with: MappingOptions(groups: ["list", "detail"]))
        == ["person_age": 41, "person_height": 170])
    // A call can still ask for any-of.
    #expect(
      try mapping.map(
        everything, with: MappingOptions(groups: ["list", "detail"], groupMatching: .anyOf))
        == all)
  }

  /// `MappingOptions(groups: [])` selects every rule, as no selection does (GroupMatching's
  /// documentation), in the DSL too, mapping and serializing.
  @Test func emptyGroupSelectionAppliesEveryRule() throws {
    let mapping = Mapping(Person.init) {
      Attribute("name", \.name).groups("list")
      Attribute("age", \.age).groups("detail")
      Attribute("height", \.height)
    }
    let payload = #"{"name": "Ann", "age": 41, "height": 170}"#
    let all = Person(name: "Ann", age: 41, height: 170)
    for matching in [GroupMatching.anyOf, .allOf] {
      let options = MappingOptions(groups: [], groupMatching: matching)
      #expect(try mapping.map(payload, with: options) == all)
      #expect(try mapping.node(all, with: options) == ["name": "Ann", "age": 41, "height": 170])
      #expect(try mapping.groups([]).map(payload) == all)
    }
  }

  /// `groups` is an array of group names; anything else is an error at the value.
  @Test func groupsOfTheWrongTypeAreReported() {
    #expect(
      Self.errorLines {
        _ = try DefinitionCatalog(
          csMapperFiles: [
            .string(
              """
              { "name": { "key": "n", "groups": "list" },
                "age": { "key": "a", "groups": ["list", 3] },
                "height": { "key": "h", "groups": [] } }
              """, name: "Person.json")
          ], types: [Person.self])
      } == [
        "Person.json:1:35: groups takes an array of group names, not a string",
        "Person.json:2:43: groups takes an array of group names; this entry is a number",
      ])
  }

  // MARK: Errors where they belong

  /// Each error points at the offending value: a wrong `@mappings` at its value, an
  /// unregistered `@class` in `@object` or a CSMapper `type` naming nothing known is
  /// `.unknownClass`, a `__parent__` cycle is reported once.
  @Test func errorsPointAtTheOffendingValue() {
    #expect(
      Self.errorLines {
        _ = try Self.catalog(
          """
          {
            "$TweetModel": { "@class": "TweetModel", "message": "text",
              "user": { "@keyPath": "user", "@object": { "@mappings": "$Nope" } } },
            "$Other": { "@class": "TweetModel", "message": "text",
              "user": { "@keyPath": "user", "@object": { "@mappings": 5 } } },
            "$Third": { "@class": "TweetModel", "message": "text",
              "user": { "@keyPath": "user", "@object": { "@class": "Nobody" } } }
          }
          """)
      } == [
        "S.mappings:3:61: \"user\" names the definition \"$Nope\", which no loaded file defines",
        "S.mappings:5:61: @mappings takes a context name or an object of mappings, not a number",
        "S.mappings:7:58: no registered type is named \"Nobody\" (registered: Comment, "
          + "TimelineModel, TweetModel, UserModel); add it to `types:`, with a PropertyTable "
          + "named \"Nobody\"",
      ])
    #expect(
      Self.errorLines {
        _ = try DefinitionCatalog(
          csMapperFiles: [
            .string(
              #"{ "__parent__": "Programmer", "age": { "key": "a", "type": "NSFoo" } }"#,
              name: "Person.json"),
            .string(#"{ "__parent__": ["Person"], "name": "n" }"#, name: "Programmer.json"),
          ], types: [Person.self, Programmer.self])
      } == [
        "Person.json:1:60: type NSFoo names no known type (a Foundation type such as NSString, "
          + "NSNumber or NSDate, a registered type or a class file)",
        "Programmer.json:1:18: __parent__ cycle: Person inherits from Programmer inherits from Person",
      ])
  }

  /// A property list with a NUL (raw or `&#0;`) is not XML: a syntax error at its place.
  @Test(arguments: [
    (
      "<plist><dict><key>name</key><string>a\u{0}b</string></dict></plist>", 1, 38,
      "the character U+0000 is not allowed in XML (XML 1.0 allows no NUL and no control "
        + "character but tab, line feed and carriage return)"
    ),
    (
      "<plist><dict><key>name</key>\n<string>a&#0;b</string></dict></plist>", 2, 10,
      "the character reference &#0; names U+0000, which XML 1.0 does not allow"
    ),
    (
      "<plist><dict><key>name</key><string>&#x1B;</string></dict></plist>", 1, 37,
      "the character reference &#x1B; names U+001B, which XML 1.0 does not allow"
    ),
  ])
  func propertyListNULIsASyntaxError(text: String, line: Int, column: Int, message: String) {
    #expect(
      Self.errorLines {
        _ = try DefinitionCatalog(
          csMapperFiles: [.string(text, name: "Person.plist")], types: [Person.self])
      } == ["Person.plist:\(line):\(column): \(message)"])
  }

  /// A failed mapping's report keeps the child that failed, filled as far as it mapped
  /// (AppCoreKit returned the object with what it could fill), not `nil`.
  @Test func partialObjectKeepsThePartialChild() throws {
    let catalog = try Self.catalog(
      """
      { "$UserModel": { "@class": "UserModel", "name": "name", "imageUrl": "url" },
        "$TweetModel": { "@class": "TweetModel", "message": "text",
                         "user": { "@keyPath": "user", "@object": { "@mappings": "$UserModel" } } },
        "$TimelineModel": { "@class": "TimelineModel",
                            "tweets": { "@keyPath": "@self", "@object": { "@mappings": "$TweetModel" } } } }
      """)
    let report = try catalog.mapping("$TweetModel", as: TweetModel.self).report(
      #"{"text": "hi", "user": {"name": "Ann"}}"#)
    #expect(report.object == nil)
    #expect(report.errors.map(\.description) == ["/user/url: required value is missing"])
    #expect(report.partialObject == TweetModel(message: "hi", user: UserModel(name: "Ann")))
    let timeline = try catalog.mapping("$TimelineModel", as: TimelineModel.self).report(
      #"[{"text": "a", "user": {"name": "A", "url": "http://a"}}, {"text": "b", "user": {"name": "B"}}]"#
    )
    #expect(timeline.partialObject?.tweets.map(\.user?.name) == ["A", "B"])
  }

  // MARK: Inspecting

  /// A loaded definition's rules, as the files wrote them: the guide's tweet and CSMapper's
  /// programmer with its two parents.
  @Test func rulesOfALoadedDefinition() throws {
    let catalog = try Self.catalog(
      """
      {
        "$UserModel" : { "@class" : "UserModel", "name" : "name", "imageUrl" : "profile_image_url" },
        "$TweetModel" : {
          "@class" : "TweetModel",
          "imageUrl" : { "@keyPath" : "user.profile_image_url", "@optional" : 1,
                         "@defaultValue" : "https://si0.twimg.com/Untitled.png" },
          "coordinates" : { "@keyPath" : "@self", "@transformClass" : "MyTransformers",
                            "@transformSelector" : "coordinate2DFromDictionary:userData:error:",
                            "@transformUserData" : { "longitude" : "long", "latitude" : "lat" } },
          "user" : { "@keyPath" : "user", "@object" : { "@mappings" : "$UserModel" } }
        },
        "$TimelineModel" : { "@class" : "TimelineModel",
          "tweets" : { "@keyPath" : "@self", "@clearContent" : 1, "@object" : { "@mappings" : "$TweetModel" } } }
      }
      """)
    #expect(
      try catalog.rules(of: "$TweetModel").map(\.description) == [
        "imageUrl <- user.profile_image_url (optional, default \"https://si0.twimg.com/Untitled.png\", "
          + "at S.mappings:5:5)",
        "coordinates <- @self (required, transform "
          + "MyTransformers.coordinate2DFromDictionary:userData:error:, at S.mappings:7:5)",
        "user <- user (required, objects $UserModel, at S.mappings:10:5)",
      ])
    let tweets = try #require(try catalog.rules(of: "$TimelineModel").first)
    #expect(tweets.collectionPolicy == .clearThenAppend)
    #expect(tweets.keyPaths == ["@self"])
    #expect(tweets.definition == "$TweetModel")

    let programmer = """
      <plist version="1.0">
      	<key>__parent__</key>
      	<array>
      		<string>Person</string>
      		<string>Resource</string>
      	</array>
      	<key>programmingSkills</key>
      	<dict>
      		<key>key</key>
      		<string>programming_skills</string>
      	</dict>
      </plist>
      """
    let csMapper = try DefinitionCatalog(
      csMapperFiles: [
        .string(CSMapperSeedTests.resourcePlist, name: "Resource.plist"),
        .string(CSMapperSeedTests.twoPropertyPerson, name: "Person.plist"),
        .string(programmer, name: "Programmer.plist"),
      ], types: [Programmer.self])
    let rules = try csMapper.rules(of: "Programmer")
    #expect(rules.map(\.property) == ["name", "age", "name", "programmingSkills"])
    #expect(
      rules.map(\.keyPaths) == [
        ["person_name"], ["person_age"], ["resource_name"], ["programming_skills"],
      ])
    #expect(rules.map(\.definedIn) == ["Person", "Person", "Resource", "Programmer"])
    #expect(rules.allSatisfy { !$0.isRequired })
  }
}

extension Mapping where Object == UserModel {
  /// The rules of `name` in `catalog`, described without their places.
  fileprivate func rules(in catalog: DefinitionCatalog, _ name: String) throws -> [String] {
    try catalog.rules(of: name).map { rule in
      rule.description.replacingOccurrences(
        of: #", at S\.mappings:\d+:\d+"#, with: "", options: .regularExpression)
    }
  }
}
