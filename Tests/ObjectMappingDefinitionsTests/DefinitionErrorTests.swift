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

  /// The `.mappings` dialect is the document layer's lenient JSON reader: its syntax errors, at
  /// the line and column of the offending character.
  @Test(arguments: [
    (
      "{\n  \"$A\": { \"@class\": \"TweetModel\" \"name\": \"x\" }\n}", 2, 34,
      "expected ',' or '}' after an object member, found '\"'"
    ),
    ("{\n  \"$A\": [1, 2,, 3]\n}", 2, 15, "expected a value, found ','"),
    ("{ \"$A\": \"unterminated }", 1, 24, "unexpected end of input inside a string"),
    ("{ /* never closed", 1, 18, "unexpected end of input inside a comment"),
    ("{ \"$A\": tru }", 1, 12, "expected 'true', found U+0020"),
    (String(repeating: "[", count: 300), 1, 65, "nesting deeper than 64 levels"),
    ("{ \"$A\": {}, \"$A\": {} }", 1, 13, "duplicate key \"$A\" (first at line 1, column 3)"),
  ])
  func syntaxErrors(text: String, line: Int, column: Int, message: String) {
    let errors = Self.errors(text)
    #expect(errors.count == 1)
    #expect(errors.first?.kind == .syntax)
    #expect(
      errors.first?.location == DefinitionLocation(file: "E.mappings", line: line, column: column))
    #expect(errors.first?.message == message, "\(errors)")
  }

  /// The reader is the document layer's: the same text gives the same error as
  /// `Node(jsonString:options:)`, at the same line and column.
  @Test(arguments: [
    "{\r\n  \"a\": [1,\r\n  2 3]}", "// c\r{\"a\": nul}", "\u{FEFF}{\"é\": \"\\x\"}",
  ])
  func syntaxErrorsAreTheJSONReaders(text: String) throws {
    var options = JSONReadingOptions.lenient
    options.maximumDepth = 64
    options.rejectsDuplicateKeys = true
    let expected = #expect(throws: FormatError.self) {
      try Node(jsonString: text, options: options)
    }
    guard case .syntax(let message, let location)? = expected?.kind else {
      Issue.record("not a syntax error: \(String(describing: expected))")
      return
    }
    let errors = Self.errors(text)
    #expect(errors.map(\.message) == [message])
    #expect(
      errors.first?.location
        == DefinitionLocation(file: "E.mappings", line: location.line, column: location.column))
  }

  /// Found by a probe with hostile files (session 24): property lists read as strictly as the
  /// JSON dialect.
  static func plistErrors(_ text: String) -> [String] {
    do {
      _ = try DefinitionCatalog(
        csMapperFiles: [.string(text, name: "Person.plist")], types: [Person.self])
      return []
    } catch {
      return error.errors.map {
        "\($0.location?.line ?? 0):\($0.location?.column ?? 0) \($0.message)"
      }
    }
  }

  /// A file that is not UTF-8 is a syntax error at the first byte that is not (lines end at LF,
  /// CR LF or CR, columns count scalars); a binary property list and a UTF-16 file are named as
  /// such. It was a `missingFile` error with no position.
  @Test func aFileThatIsNotUTF8IsASyntaxErrorWhereItStops() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    func load(_ bytes: [UInt8], _ name: String) throws -> DefinitionError? {
      let url = folder.url.appendingPathComponent(name)
      try Data(bytes).write(to: url)
      do {
        if name.hasSuffix(".mappings") {
          _ = try DefinitionCatalog(appCoreKitFiles: [.url(url)], types: [UserModel.self])
        } else {
          _ = try DefinitionCatalog(csMapperFiles: [.url(url)], types: [Person.self])
        }
        return nil
      } catch {
        return error.errors.first
      }
    }
    let invalid =
      Array("{\n  \"$U\": {\"@class\": \"UserModel\", \"name\": \"na".utf8) + [0xC3, 0x28]
      + Array("me\"}}".utf8)
    let error = try #require(try load(invalid, "Bad.mappings"))
    #expect(error.kind == .syntax)
    #expect(error.location == DefinitionLocation(file: "Bad.mappings", line: 2, column: 44))
    #expect(error.description.contains("invalid UTF-8 at byte 45"), "\(error)")

    // "é" counts one column; CR and CR LF each end one line.
    let crLines =
      Array("<plist>\r<dict>\r\n<key>é".utf8) + [0xFF] + Array("</key></dict></plist>".utf8)
    let located = try #require(try load(crLines, "Person.plist"))
    #expect(located.location == DefinitionLocation(file: "Person.plist", line: 3, column: 7))

    let utf16 = try #require(
      try load([0xFF, 0xFE] + Array("{}".utf8).flatMap { [$0, 0] }, "Person.json"))
    #expect(utf16.kind == .syntax)
    #expect(utf16.location == DefinitionLocation(file: "Person.json", line: 1, column: 1))
    #expect(utf16.description.contains("UTF-16"), "\(utf16)")
    let binary = try #require(
      try load(Array("bplist00".utf8) + [0xD1, 0x01, 0x02], "Person.plist"))
    #expect(binary.description.contains("plutil -convert xml1"), "\(binary)")
  }

  /// A lone CR ends a line in a property list, as XML 1.0 reads it and as the JSON reader
  /// counts it; every error was on line 1.
  @Test func aLoneCREndsALineInAPropertyList() {
    let unknown = "<plist>\r<dict>\r  <key>nam</key><string>x</string>\r</dict></plist>"
    #expect(Self.plistErrors(unknown).first?.hasPrefix("3:3 ") == true)
    let mismatched = "<plist>\r<dict>\r  <key>name</key><strin>x</string>\r</dict></plist>"
    #expect(
      Self.plistErrors(mismatched).first?.hasPrefix(
        "3:26 </string> closes <strin> (opened at line 3, column 18)") == true,
      "\(Self.plistErrors(mismatched))")
    let nul = "<plist>\r\n<dict>\r  <key>name</key><string>\u{0}</string>\r</dict></plist>"
    #expect(Self.plistErrors(nul).first?.hasPrefix("3:") == true, "\(Self.plistErrors(nul))")
  }

  /// XML allows leading zeros in a character reference; they were counted towards its length
  /// and refused as "too long".
  @Test func aCharacterReferenceMayHaveLeadingZeros() throws {
    let text =
      "<plist><dict><key>name</key><string>&#x0000000041;&#0000000066;&#0;</string></dict></plist>"
    #expect(
      Self.plistErrors(text).first?.contains("&#0; names") == true, "\(Self.plistErrors(text))")
    let valid = text.replacingOccurrences(of: "&#0;", with: "&#x00030;")
    let catalog = try DefinitionCatalog(
      csMapperFiles: [.string(valid, name: "Person.plist")], types: [Person.self])
    #expect(try catalog.rules(of: "Person").first?.keyPaths == ["AB0"])
  }

  /// Text beside the one value of a `<plist>` is refused, as text between a `<dict>`'s
  /// elements is; it was dropped.
  @Test func textBesideThePlistsValueIsRefused() {
    #expect(
      Self.plistErrors("<plist>hello<dict><key>name</key><string>n</string></dict></plist>")
        == [#"1:1 <plist> holds text between its elements: "hello""#])
    #expect(
      Self.plistErrors("<plist>\n  <dict><key>name</key><string>n</string></dict>\n</plist>")
        == [])
  }

  @Test func propertyListsAreReadStrictly() throws {
    let person =
      #"<plist><dict><key>age</key><dict><key>key</key><string>years</string>"#
      + #"<key>default</key><integer>7</integer></dict></dict></plist>"#
    // A byte order mark may start the file, as the JSON reader accepts it.
    let catalog = try DefinitionCatalog(
      csMapperFiles: [.string("\u{FEFF}" + person, name: "Person.plist")], types: [Person.self])
    #expect(try catalog.mapping(for: Person.self).map(#"{"years": 41}"#).age == 41)
    // Numbers are decimal numbers; `Double(_:)` reads `nan`, `inf` and `0x10` too.
    for number in ["nan", "inf", "-infinity", "0x", "0xZZ", "1.5", "1e3", "+", "."] {
      let text = person.replacingOccurrences(
        of: "<integer>7</integer>", with: "<integer>\(number)</integer>")
      #expect(
        Self.plistErrors(text) == [#"1:88 <integer> holds "\#(number)", not an integer"#],
        "\(number)")
    }
    // A hexadecimal integer is CFPropertyList's too.
    let hex = person.replacingOccurrences(
      of: "<integer>7</integer>", with: "<integer>0x1F</integer>")
    let hexCatalog = try DefinitionCatalog(
      csMapperFiles: [.string(hex, name: "Person.plist")], types: [Person.self])
    #expect(try hexCatalog.mapping(for: Person.self).map("{}").age == 31)
    let real = person.replacingOccurrences(of: "<integer>7</integer>", with: "<real>nan</real>")
    #expect(Self.plistErrors(real) == [#"1:88 <real> holds "nan", not a number"#])
    // A number JSON could not write would fail only when mapped: refused here.
    for number in [".5", "5.", "1e"] {
      let text = person.replacingOccurrences(
        of: "<integer>7</integer>", with: "<real>\(number)</real>")
      #expect(Self.plistErrors(text) == [#"1:88 <real> holds "\#(number)", not a number"#])
    }
    // A leading `+` is read, as CFPropertyList reads it.
    let plus = person.replacingOccurrences(
      of: "<integer>7</integer>", with: "<integer>+9</integer>")
    let plusCatalog = try DefinitionCatalog(
      csMapperFiles: [.string(plus, name: "Person.plist")], types: [Person.self])
    #expect(try plusCatalog.mapping(for: Person.self).map("{}").age == 9)
    // Text between a dictionary's elements is refused, not dropped.
    let stray = person.replacingOccurrences(of: "<key>age</key>", with: "<key>age</key>hello")
    #expect(Self.plistErrors(stray) == [#"1:8 <dict> holds text between its elements: "hello""#])
    // A character reference too long for any: said so, not "not closed with ;".
    let long = person.replacingOccurrences(of: "years", with: "&#99999999999999999999;")
    #expect(
      Self.plistErrors(long).first?.hasSuffix(
        "the entity &#999999999… is too long: no entity or character reference is") == true)
  }

  /// A date pattern that can match no date was accepted, and every value failed when mapping.
  @Test(arguments: [
    ("QQQQ", #"the date pattern's field "Q" is not one this library reads"#),
    ("GGGG yyyy", #"the date pattern's field "G" is not one this library reads"#),
    ("'unterminated", "the date pattern has a quote that is not closed"),
    ("", "the date pattern is empty"),
  ])
  func aDatePatternThatMatchesNoDateIsALoadError(pattern: String, problem: String) throws {
    func file(_ pattern: String) -> DefinitionFile {
      .string(
        #"{"hireDate": {"key": "hired", "mapper": "date", "mapperData": "\#(pattern)"}}"#,
        name: "Employee.json")
    }
    let error = #expect(throws: DefinitionErrors.self) {
      try DefinitionCatalog(csMapperFiles: [file(pattern)], types: [Employee.self])
    }
    #expect(error?.errors.map(\.kind) == [.invalidValue])
    #expect(error?.errors.first?.message.contains(problem) == true, "\(String(describing: error))")
    #expect(error?.errors.first?.location?.line == 1)
    // A pattern it reads loads and maps.
    let catalog = try DefinitionCatalog(
      csMapperFiles: [file("dd/MM/yyyy 'at' HH:mm")], types: [Employee.self])
    let employee = try catalog.mapping(for: Employee.self).map(#"{"hired": "03/01/2012 at 10:30"}"#)
    #expect(employee.hireDate == Date(timeIntervalSince1970: 1_325_586_600))
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
    #expect(
      errors.map(\.description) == [
        "E.mappings:4:18: unknown keyword \"@keyPth\" (keywords: @class, @clearContent, "
          + "@defaultValue, @import, @inherits, @insertContentAtBegin, @keyPath, @mappings, "
          + "@object, @optional, @transform, @transformClass, @transformSelector, "
          + "@transformUserData; selectors: @ipad, @iphone, @iphone5, @ios <op> <version> and "
          + "the app's own)",
        "E.mappings:5:5: unknown property \"imageURL\" of TweetModel (known: coordinates, "
          + "identifier, imageUrl, message, name, retweets, summary, user)",
        "E.mappings:6:5: \"summary\" of TweetModel is read-only; a definition can only map "
          + "properties with a setter",
        "E.mappings:7:65: the default for \"retweets\" of TweetModel cannot be an Int: "
          + "cannot convert \"many\" to an integer",
        "E.mappings:8:62: no transform named \"noSuchTransform\" is registered; register it "
          + "with TransformRegistry.register(\"noSuchTransform\", …) (registered: "
          + "CLLocationCoordinate2DFromFloatArray:error:, CSAPIBoolMapper, CSJoinMapper, bool, "
          + "boolWords, coordinate2DFromDictionary:userData:error:, "
          + "coordinate2DFromFloatArray:error:, date, epochMilliseconds, epochSeconds, "
          + "integerString, iso8601, join, numericString, separated, url)",
        "E.mappings:9:71: the transform \"integerString\" produces an Int, but \"coordinates\" "
          + "of TweetModel is a Coordinate",
        "E.mappings:10:54: \"identifier\" of TweetModel is a String, not an object: @object "
          + "and a class `type` need a property whose type is a DefinableModel",
        "E.mappings:11:58: @class TweetModel, but \"user\" of TweetModel holds UserModel objects",
        "E.mappings:13:25: no registered type is named \"NoSuchClass\" (registered: "
          + "TweetModel, UserModel); add it to `types:`, with a PropertyTable named "
          + "\"NoSuchClass\"",
      ])
    #expect(
      errors.map(\.kind) == [
        .unknownKeyword, .unknownProperty, .readOnlyProperty, .typeMismatch, .unknownTransform,
        .typeMismatch, .typeMismatch, .typeMismatch, .unknownClass,
      ])
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
