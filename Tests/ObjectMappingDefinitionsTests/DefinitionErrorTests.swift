import Foundation
import ObjectMapping
import ObjectMappingDefinitions
import Testing

/// Malformed definition files: each mistake is a precise error with its file, line and column,
/// and every mistake of a set of files is reported at once.
@Suite("Definition files: errors")
struct DefinitionErrorTests {
  static let types: [any DefinableModel.Type] = [TweetModel.self, UserModel.self]

  static func errors(_ text: String, name: String = "E.mappings") -> [DefinitionError] {
    do {
      _ = try DefinitionCatalog(
        appCoreKitFiles: [.string(text, name: name)], types: types,
        transforms: Transforms.registry)
      return []
    } catch {
      return error.errors
    }
  }

  @Test(arguments: [
    (
      "{\n  \"$A\": { \"@class\": \"TweetModel\" \"name\": \"x\" }\n}", 2, 34,
      "expected \",\" or \"}\""
    ),
    ("{\n  \"$A\": [1, 2,, 3]\n}", 2, 15, "expected a value"),
    ("{ \"$A\": \"unterminated }", 1, 9, "not closed"),
    ("{ /* never closed", 1, 3, "comment is not closed"),
    ("{ \"$A\": tru }", 1, 9, "unexpected word \"tru\""),
    (String(repeating: "[", count: 300), 1, 257, "nesting deeper than 256"),
  ])
  func syntaxErrors(text: String, line: Int, column: Int, message: String) {
    let errors = Self.errors(text)
    #expect(errors.count == 1)
    #expect(errors.first?.kind == .syntax)
    #expect(
      errors.first?.location == DefinitionLocation(file: "E.mappings", line: line, column: column))
    #expect(errors.first?.message.contains(message) == true, "\(errors)")
  }

  @Test func commentsAndTrailingCommasAreAccepted() throws {
    let text = """
      // Tweets
      {
        /* the tweet */
        "$TweetModel": { "@class": "TweetModel", "message": "text", // the body
                         "identifier": "id_str", "name": "user.name", },
      }
      """
    #expect(Self.errors(text).isEmpty)
  }

  /// Every kind of mistake in one file, reported together, in file order.
  @Test func everyMistakeAtOnce() throws {
    let text = """
      {
        "$TweetModel": {
          "@class": "TweetModel",
          "message": { "@keyPth": "text" },
          "imageURL": "user.profile_image_url",
          "summary": "text",
          "retweets": { "@keyPath": "retweet_count", "@defaultValue": "many" },
          "name": { "@keyPath": "user.name", "@transformSelector": "noSuchTransform" },
          "coordinates": { "@keyPath": "coordinates", "@transformSelector": "integerString" },
          "identifier": { "@keyPath": "id_str", "@object": { "@mappings": "$UserModel" } },
          "user": { "@keyPath": "user", "@object": { "@class": "TweetModel" } }
        },
        "$Other": { "@class": "NoSuchClass" }
      }
      """
    let errors = Self.errors(text)
    let summary = errors.map {
      "\($0.location.map { "\($0.line):\($0.column)" } ?? "-") \($0.kind)"
    }
    #expect(
      summary == [
        "4:18 unknownKeyword",
        "5:5 unknownProperty",
        "6:5 readOnlyProperty",
        "7:65 typeMismatch",
        "8:62 unknownTransform",
        "9:71 typeMismatch",
        "10:54 typeMismatch",
        "11:58 typeMismatch",
        "13:25 unknownClass",
      ], "\(errors)")
    #expect(errors[1].message.contains("unknown property \"imageURL\" of TweetModel"))
    #expect(errors[1].message.contains("imageUrl"))
    #expect(
      errors[3].message.contains("the default for \"retweets\" of TweetModel cannot be an Int"))
    #expect(errors[5].message.contains("the transform \"integerString\" produces an Int"))
    #expect(errors[7].message.contains("@class TweetModel"))
    #expect("\(errors[0])".hasPrefix("E.mappings:4:18: "))
  }

  @Test func missingFileAndBundleResource() {
    let error = #expect(throws: DefinitionErrors.self) {
      try DefinitionCatalog(
        appCoreKitFiles: [
          .url(URL(fileURLWithPath: "/nonexistent/Tweets.mappings")),
          .resource("Nope", withExtension: "mappings", in: .main),
        ], types: Self.types)
    }
    #expect(error?.errors.map(\.kind) == [.missingFile, .missingFile])
  }

  @Test func propertyTableMistakes() {
    struct Broken: DefinableModel {
      var a = 0
      var b: Int { a }
      static let properties = PropertyTable(Broken.init) {
        Property("a", \.a)
        Property("a", \.a)
      }
    }
    let error = #expect(throws: DefinitionErrors.self) {
      try DefinitionCatalog(
        appCoreKitFiles: [.string(#"{"$B": {"@class": "Broken", "a": "a"}}"#, name: "B.mappings")],
        types: [Broken.self])
    }
    #expect(error?.errors.first?.message.contains("lists \"a\" twice") == true)
  }

  @Test func csMapperMistakes() throws {
    let person = """
      {
        "__parent__": ["Nobody"],
        "name": { "key": "person_name", "colour": "red" },
        "age": { "key": "person_age", "type": "NSDate" },
        "height": { "key": ["a", "b"] },
        "address": { "mapper": "CSJoinMapper", "key": [{"key": "street"}, {"key": "city"}], "default": "x" }
      }
      """
    let error = #expect(throws: DefinitionErrors.self) {
      try DefinitionCatalog(
        csMapperFiles: [
          .string(person, name: "Person.json"),
          .string("<plist><dict><key>x</key></dict></plist>", name: "Stray.plist"),
        ], types: [Person.self])
    }
    let summary = (error?.errors ?? []).map {
      "\($0.location?.file ?? "-"):\($0.location.map { "\($0.line):\($0.column)" } ?? "-") \($0.kind)"
    }
    #expect(
      summary == [
        "Person.json:2:18 unknownContext",
        "Person.json:3:35 unknownKeyword",
        "Person.json:4:41 typeMismatch",
        "Person.json:5:3 invalidValue",
        "Person.json:6:98 invalidValue",
        "Stray.plist:1:14 syntax",
      ], "\(error?.errors ?? [])")
  }
}
