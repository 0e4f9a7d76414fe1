import Foundation
import ObjectMappingTestSupport
import Testing

@testable import ObjectMapping

@Suite struct JSONReaderTests {
  // MARK: - Values

  @Test(arguments: [
    ("null", Node.null),
    ("true", .bool(true)),
    ("false", .bool(false)),
    ("0", .integer(0)),
    ("-12", .integer(-12)),
    ("1.5", .decimal("1.5")),
    (#""""#, .string("")),
    (#""hi""#, .string("hi")),
    ("[]", .array([])),
    ("{}", .object([])),
    (" \t\r\n[ \t\r\n1 \t\r\n, \t\r\n2 \t\r\n] \t\r\n", .array([.integer(1), .integer(2)])),
    (
      #"{"a": [1, {"b": null}], "c": "d", "e": {}}"#,
      .object([
        .init("a", .array([.integer(1), .object([.init("b", .null)])])),
        .init("c", .string("d")),
        .init("e", .object([])),
      ])
    ),
    (
      #"[[], [[]], {"": []}]"#,
      .array([.array([]), .array([.array([])]), .object([.init("", .array([]))])])
    ),
  ])
  func readsValues(text: String, expected: Node) throws {
    #expect(try Node(jsonString: text) == expected)
  }

  @Test func decodesEveryEscape() throws {
    let node = try Node(jsonString: #""\"\\\/\b\f\n\r\t\u00e9\u00E9\ud83d\ude00\u0000x""#)
    #expect(node == .string("\"\\/\u{08}\u{0C}\n\r\té\u{E9}😀\u{0}x"))
  }

  @Test func keepsUTF8TextAsIs() throws {
    let node = try Node(jsonString: #"{"名前": "Zoë 😀", "plain": "long enough to use words"}"#)
    #expect(node["名前"] == .string("Zoë 😀"))
    #expect(node["plain"] == .string("long enough to use words"))
  }

  @Test func duplicateKeysAreKeptAndLookupsFindTheFirst() throws {
    let node = try Node(jsonString: #"{"a": 1, "b": 2, "a": 3}"#)
    #expect(node.keys == ["a", "b", "a"])
    #expect(node["a"] == .integer(1))
  }

  @Test func everyEntryPointAgrees() throws {
    let text = #"{"list": [1, "two", 3.0]}"#
    let expected = try Node(jsonString: text)
    #expect(try Node(jsonData: Data(text.utf8)) == expected)
    #expect(try Node(jsonBytes: Array(text.utf8)) == expected)
    #expect(try Node(jsonBytes: text.utf8) == expected)
    #expect(try Node(jsonBytes: Array(("  " + text).utf8)[2...]) == expected)
    #expect(expected["list"]?[2] == .decimal("3.0"))
  }

  /// Strings are scanned eight bytes at a time: a special byte must be found at every offset of
  /// a word, and whitespace runs of every length must be skipped exactly.
  @Test func specialBytesAreFoundAtEveryOffset() throws {
    for length in 0..<20 {
      let run = String(repeating: "a", count: length)
      #expect(try Node(jsonString: "\"\(run)\"") == .string(run))
      #expect(try Node(jsonString: "\"\(run)\\n\(run)\"") == .string(run + "\n" + run))
      #expect(try Node(jsonString: "\"\(run)é😀\(run)\"") == .string(run + "é😀" + run))
      let error = #expect(throws: FormatError.self) {
        try Node(jsonString: "\"\(run)\u{1F}\(run)\"")
      }
      #expect(
        error?.kind
          == .syntax(
            message: "unescaped control character U+001F in a string",
            location: TextLocation(offset: length + 1, line: 1, column: length + 2)))
      let spaces = String(repeating: " ", count: length)
      let text = "\(spaces)[\(spaces)1,\n\(spaces)\t\(spaces)2\(spaces)]\(spaces)"
      #expect(try Node(jsonString: text) == [1, 2].node)
      let late = #expect(throws: FormatError.self) { try Node(jsonString: "[1,\n\(spaces)x]") }
      #expect(
        late?.description
          == "syntax error at line 2, column \(length + 1) (byte \(length + 4)): expected a value, "
          + "found 'x'")
    }
  }

  @Test func unescapingToleratesContentNoReaderProduces() {
    func unescape(_ text: String) -> String {
      Array(text.utf8).withUnsafeBufferPointer { _unescapeJSONString($0) }
    }
    #expect(unescape(#"a\u12"#) == "a\u{FFFD}12")
    #expect(unescape(#"a\"#) == #"a\"#)
    #expect(unescape(#"\uDC00\uD800"#) == "\u{FFFD}\u{FFFD}")
    #expect(
      unescape(String(repeating: #"\u"#, count: 50)) == String(repeating: "\u{FFFD}", count: 50))
  }

  /// Unescaped strings are made without a second UTF-8 check: multi-byte text between escapes,
  /// `\u` escapes of every UTF-8 length and a surrogate pair must come out as the same scalars.
  @Test func unescapedStringsKeepMultiByteTextBetweenEscapes() throws {
    let json = #"["é日本\u00e9\u65e5\n\ud83d\ude00x\t\u0041", "\"\\\/\b\f\r", "\udc00ü"]"#
    let expected = ["é日本\u{E9}\u{65E5}\n😀x\tA", "\"\\/\u{8}\u{C}\r", "\u{FFFD}ü"]
    let node = try Node(jsonString: json, options: JSONReadingOptions(loneSurrogates: .replace))
    #expect(node == .array(expected.map(Node.string)))
    for case .string(let text) in node.arrayValue ?? [] {
      #expect(String(validating: Array(text.utf8), as: UTF8.self) == text)
    }
  }

  /// Key comparison reads words, then the last word again: every length up to 40, with the keys
  /// equal and differing at each position, agrees with a byte-by-byte comparison.
  @Test func keyComparisonAgreesWithBytewiseAtEveryLengthAndPosition() {
    for length in 0...40 {
      let key = (0..<length).map { UInt8(0x61 + $0 % 26) }
      var candidates = [key]
      for position in 0..<length {
        var changed = key
        changed[position] ^= 0x20
        candidates.append(changed)
      }
      for candidate in candidates {
        let same = key.withUnsafeBytes { left in
          candidate.withUnsafeBytes { right in
            guard let left = left.baseAddress, let right = right.baseAddress else { return true }
            return _bytesEqual(left, right, length)
          }
        }
        #expect(same == (candidate == key), "length \(length)")
      }
    }
  }

  /// Long keys are shared through a cache keyed by their bytes: keys that agree in length, head
  /// and tail (and so share a cache slot) must still come out as themselves.
  @Test func longKeysThatLookAlikeStayDistinct() throws {
    let keys =
      (0..<12).map { "abcdefgh_\($0 % 10)\($0 / 10)_stuvwxyz" } + [
        "profile_background_color", "profile_background_colour", "short", "",
        "escaped_key_\u{E9}_long_enough",
      ]
    let objects = (0..<4).map { round in
      "{"
        + keys.enumerated().map { index, key in
          let written = key.replacingOccurrences(of: "\u{E9}", with: "\\u00e9")
          return "\"\(written)\": \(round * 100 + index)"
        }.joined(separator: ", ") + "}"
    }
    let node = try Node(jsonString: "[" + objects.joined(separator: ",\n") + "]")
    let expected = Node.array(
      (0..<4).map { round in
        .object(
          keys.enumerated().map { index, key in
            Node.Member(key, .integer(Int64(round * 100 + index)))
          })
      })
    #expect(node == expected)
  }

  // MARK: - Tape layout

  @Test func tapeLayoutRecordsOffsetsCountsAndSubtreeEnds() throws {
    let text = #"{"a": [1, 2.5, "x\n"], "b": true}"#
    let tape = try _Tape(json: Array(text.utf8))
    #expect(tape.bytes == Array(text.utf8))
    #expect(
      tape.unpackedEntries == [
        _TapeEntry(kind: .object, length: 2, payload: 8),
        _TapeEntry(kind: .string, length: 1, payload: 2),
        _TapeEntry(kind: .array, length: 3, payload: 6),
        _TapeEntry(kind: .integer, payload: 1),
        _TapeEntry(kind: .number, length: 3, payload: 10),
        _TapeEntry(kind: .string, flags: _TapeEntry.stringHasEscapes, length: 3, payload: 16),
        _TapeEntry(kind: .string, length: 1, payload: 24),
        _TapeEntry(kind: .true),
      ])
    #expect(tape.next(after: 0) == tape.entries.count)
    #expect(tape.next(after: 2) == 6)
    #expect(tape.string(at: 5) == "x\n")
    #expect(tape.numberText(at: 4) == "2.5")
  }

  @Test func largeIntegersAreFlaggedIntegral() throws {
    let tape = try _Tape(json: Array("[12345678901234567890, 1e3, -0, -0.0]".utf8))
    #expect(tape.entry(at: 1).kind == .number)
    #expect(tape.entry(at: 1).flags == _TapeEntry.numberIsIntegral)
    #expect(tape.entry(at: 2).flags == 0)
    // `-0` keeps its text, so that it reads as the Double -0.0.
    #expect(
      tape.entry(at: 3)
        == _TapeEntry(
          kind: .number, flags: _TapeEntry.numberIsIntegral, length: 2, payload: 28))
    #expect(tape.doubleValue(at: 3)?.sign == .minus)
    #expect(tape.entry(at: 4).flags == 0)
    #expect(tape.doubleValue(at: 4)?.sign == .minus)
  }

  // MARK: - Syntax errors

  @Test(arguments: [
    ("", "syntax error at line 1, column 1 (byte 0): expected a value, found end of input"),
    ("   ", "syntax error at line 1, column 4 (byte 3): expected a value, found end of input"),
    ("}", "syntax error at line 1, column 1 (byte 0): expected a value, found '}'"),
    (
      "[1, 2 x]",
      "syntax error at line 1, column 7 (byte 6): expected ',' or ']' after an array element, "
        + "found 'x'"
    ),
    (
      #"{"a": 1 "b": 2}"#,
      "syntax error at line 1, column 9 (byte 8): expected ',' or '}' after an object member, "
        + #"found '"'"#
    ),
    (
      "[1}",
      "syntax error at line 1, column 3 (byte 2): expected ',' or ']' after an array element, "
        + "found '}'"
    ),
    (
      "[1",
      "syntax error at line 1, column 3 (byte 2): expected ',' or ']' after an array element, "
        + "found end of input"
    ),
    (
      #"{"a" 1}"#,
      "syntax error at line 1, column 6 (byte 5): expected ':' after an object key, found '1'"
    ),
    ("{1:2}", "syntax error at line 1, column 2 (byte 1): expected a string key or '}', found '1'"),
    // Around the one-comparison `": ` and `:` after a key.
    (
      #"{"a""#,
      "syntax error at line 1, column 5 (byte 4): expected ':' after an object key, found end of input"
    ),
    (
      #"{"a";1}"#,
      "syntax error at line 1, column 5 (byte 4): expected ':' after an object key, found ';'"
    ),
    (#"{"a":"#, "syntax error at line 1, column 6 (byte 5): expected a value, found end of input"),
    (#"{"a": "#, "syntax error at line 1, column 7 (byte 6): expected a value, found end of input"),
    (#"{"a":}"#, "syntax error at line 1, column 6 (byte 5): expected a value, found '}'"),
    (#"{"a":  }"#, "syntax error at line 1, column 8 (byte 7): expected a value, found '}'"),
    (#"{"a" :}"#, "syntax error at line 1, column 7 (byte 6): expected a value, found '}'"),
    (
      #"{"a":1,}"#,
      "syntax error at line 1, column 8 (byte 7): expected a string key after ',' in an object, "
        + "found '}'"
    ),
    ("[1,]", "syntax error at line 1, column 4 (byte 3): expected a value, found ']'"),
    (
      "1 2",
      "syntax error at line 1, column 3 (byte 2): trailing characters after the top-level value"
    ),
    (
      "[1]\u{0}",
      "syntax error at line 1, column 4 (byte 3): trailing characters after the top-level value"
    ),
    (
      #""abc"#, "syntax error at line 1, column 5 (byte 4): unexpected end of input inside a string"
    ),
    (
      #""ab\"#, "syntax error at line 1, column 5 (byte 4): unexpected end of input inside a string"
    ),
    (#""\q""#, #"syntax error at line 1, column 2 (byte 1): invalid escape '\q' in a string"#),
    (
      #""\é""#,
      #"syntax error at line 1, column 2 (byte 1): invalid escape in a string: '\' followed by 'é'"#
    ),
    (
      #""\u12G4""#,
      #"syntax error at line 1, column 6 (byte 5): expected 4 hex digits after '\u', found 'G'"#
    ),
    (
      #"["\uD800"]"#,
      #"syntax error at line 1, column 3 (byte 2): lone surrogate '\uD800' in a string"#
    ),
    (
      #"["\ude00\ud83d"]"#,
      #"syntax error at line 1, column 3 (byte 2): lone surrogate '\ude00' in a string"#
    ),
    (
      "\"a\u{1}\"",
      "syntax error at line 1, column 3 (byte 2): unescaped control character U+0001 in a string"
    ),
    (
      "\"a\tb\"",
      "syntax error at line 1, column 3 (byte 2): unescaped control character U+0009 in a string"
    ),
    ("tru", "syntax error at line 1, column 4 (byte 3): expected 'true', found end of input"),
    ("[nul]", "syntax error at line 1, column 5 (byte 4): expected 'null', found ']'"),
    ("[True]", "syntax error at line 1, column 2 (byte 1): expected a value, found 'T'"),
    ("'a'", #"syntax error at line 1, column 1 (byte 0): expected a value, found "'""#),
    ("[é]", "syntax error at line 1, column 2 (byte 1): expected a value, found 'é'"),
    ("[\u{2060}1]", "syntax error at line 1, column 2 (byte 1): expected a value, found U+2060"),
    ("[\u{0C}1]", "syntax error at line 1, column 2 (byte 1): expected a value, found U+000C"),
    (
      "\u{FEFF}{}",
      "syntax error at line 1, column 1 (byte 0): expected a value, found a byte order mark "
        + "(U+FEFF)"
    ),
    (
      "[1] // no",
      "syntax error at line 1, column 5 (byte 4): trailing characters after the top-level value"
    ),
    // Multi-line inputs: \n, \r\n and a lone \r each end one line.
    (
      "{\n  \"name\": \"Zoë\",\n  \"age\": 3x\n}",
      "syntax error at line 3, column 11 (byte 30): expected ',' or '}' after an object member, "
        + "found 'x'"
    ),
    ("[\r\n1,\r\n\r\n]", "syntax error at line 4, column 1 (byte 9): expected a value, found ']'"),
    ("[1,\r2,\rx]", "syntax error at line 3, column 1 (byte 7): expected a value, found 'x'"),
    // Columns count Unicode scalars, bytes count bytes.
    (
      #"["日本語", 1 2]"#,
      "syntax error at line 1, column 11 (byte 16): expected ',' or ']' after an array element, "
        + "found '2'"
    ),
    (
      "[\n  \"😀é\", nope\n]",
      "syntax error at line 2, column 10 (byte 15): expected 'null', found 'o'"
    ),
  ])
  func syntaxErrorsSayWhatWasExpectedAndWhere(text: String, description: String) {
    let error = #expect(throws: FormatError.self) { try Node(jsonString: text) }
    #expect(error?.description == description)
    #expect(error?.path == "")
  }

  @Test func bytesThatAreNotJSONOutsideStringsAreSyntaxErrors() {
    let error = #expect(throws: FormatError.self) { try Node(jsonBytes: [0x5B, 0xFF, 0x5D]) }
    #expect(
      error?.description
        == "syntax error at line 1, column 2 (byte 1): expected a value, found byte 0xFF")
  }

  // MARK: - UTF-8

  @Test(
    arguments: [
      ([0x22, 0xC3, 0x22], 1, 2),  // truncated two-byte sequence
      ([0x22, 0xC0, 0xAF, 0x22], 1, 2),  // overlong "/"
      ([0x22, 0xE0, 0x80, 0xAF, 0x22], 1, 2),  // overlong three-byte
      ([0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22], 1, 2),  // overlong four-byte
      ([0x22, 0xED, 0xA0, 0x80, 0x22], 1, 2),  // U+D800 encoded in UTF-8
      ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1, 2),  // above U+10FFFF
      ([0x22, 0xF8, 0x88, 0x80, 0x80, 0x80, 0x22], 1, 2),  // five-byte form
      ([0x22, 0x61, 0x62, 0x80, 0x22], 3, 4),  // lone continuation byte
      ([0x22, 0x61, 0xFF, 0x22], 2, 3),
      ([0x22, 0xC3, 0xA9, 0xE2, 0x82, 0x22], 3, 3),  // "é", then a truncated "€"
      ([0x22, 0xF0, 0x9F, 0x98], 1, 2),  // truncated by the end of the input
    ] as [([UInt8], Int, Int)])
  func invalidUTF8InStringsReportsTheFirstBadByte(bytes: [UInt8], offset: Int, column: Int) {
    let error = #expect(throws: FormatError.self) { try Node(jsonBytes: bytes) }
    let location = TextLocation(offset: offset, line: 1, column: column)
    #expect(error == FormatError(.invalidUTF8(location: location)))
  }

  @Test func invalidUTF8LocationCountsScalarsOnItsLine() {
    // ["é",\n "a<E2 82>"]
    let bytes: [UInt8] =
      [0x5B, 0x22, 0xC3, 0xA9, 0x22, 0x2C, 0x0A, 0x20, 0x22, 0x61, 0xE2, 0x82]
      + [0x22, 0x5D]
    let error = #expect(throws: FormatError.self) { try Node(jsonBytes: bytes) }
    #expect(error?.description == "invalid UTF-8 at line 2, column 4 (byte 10)")
  }

  /// Every lead byte from 0x80 with every second byte and the third bytes that matter, inside
  /// a string and followed by more text (so the reader's four-byte fast paths run), is accepted
  /// exactly when the standard library's validation accepts it, and read as the same text.
  @Test func agreesWithTheStandardLibraryOnEveryShortSequence() throws {
    var mismatches: [[UInt8]] = []
    for lead in UInt8(0x80)...0xFF {
      for second in UInt8(0)...0xFF {
        for third: UInt8 in [0x41, 0x80, 0x9F, 0xA0, 0xBF, 0xC0] {
          let sequence = [lead, second, third, 0x80, 0x61]
          let bytes = [0x22] + sequence + [0x62, 0x63, 0x64, 0x22]
          // Control characters and quotes are JSON's business, not UTF-8's.
          if sequence.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) { continue }
          let expected = String(validating: bytes.dropFirst().dropLast(), as: UTF8.self)
          let read = try? Node(jsonBytes: bytes)
          if read != expected.map(Node.string) { mismatches.append(sequence) }
        }
      }
    }
    #expect(mismatches.isEmpty, "first: \(mismatches.prefix(3))")
  }

  @Test func acceptsEveryWellFormedSequenceLength() throws {
    let text = "\"\u{7F}\u{80}\u{7FF}\u{800}\u{D7FF}\u{E000}\u{FFFF}\u{10000}\u{10FFFF}\""
    #expect(try Node(jsonString: text) == .string(String(text.dropFirst().dropLast())))
  }

  // MARK: - Surrogates

  @Test func lonesSurrogatesAreReplacedWhenAsked() throws {
    let options = JSONReadingOptions(loneSurrogates: .replace)
    let node = try Node(
      jsonString: #"["\uD800", "a\uDC00b", "\uD800\uD800", "\ud83d\ude00", "\uD800\n"]"#,
      options: options)
    #expect(
      node
        == .array([
          .string("\u{FFFD}"), .string("a\u{FFFD}b"), .string("\u{FFFD}\u{FFFD}"), .string("😀"),
          .string("\u{FFFD}\n"),
        ]))
  }

  @Test func brokenEscapesAfterALoneSurrogateAreStillErrors() {
    let options = JSONReadingOptions(loneSurrogates: .replace)
    let error = #expect(throws: FormatError.self) {
      try Node(jsonString: #""\uD800\u12""#, options: options)
    }
    #expect(
      error?.description
        == #"syntax error at line 1, column 12 (byte 11): expected 4 hex digits after '\u', found '"'"#
    )
  }

  // MARK: - Depth

  @Test func depthOf100000IsAnErrorNotACrash() {
    let text = String(repeating: "[", count: 100_000)
    let error = #expect(throws: FormatError.self) { try Node(jsonString: text) }
    #expect(error?.description == "nesting deeper than 512 levels at line 1, column 513 (byte 512)")
  }

  @Test func defaultDepthLimitIs512() throws {
    func nested(_ depth: Int) -> String {
      String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }
    var node = try Node(jsonString: nested(512))
    var levels = 0
    while case .array(let elements) = node {
      levels += 1
      node = elements.first ?? .null
    }
    #expect(levels == 512)
    let error = #expect(throws: FormatError.self) { try Node(jsonString: nested(513)) }
    #expect(
      error?.kind
        == .depthLimitExceeded(
          limit: 512, location: TextLocation(offset: 512, line: 1, column: 513)))
  }

  @Test func depthLimitCountsObjectsAndIsConfigurable() throws {
    let objects = String(repeating: #"{"a":"#, count: 3) + "1" + String(repeating: "}", count: 3)
    let three = JSONReadingOptions(maximumDepth: 3)
    let two = JSONReadingOptions(maximumDepth: 2)
    #expect(try Node(jsonString: objects, options: three)["a"]?["a"]?["a"] == .integer(1))
    let error = #expect(throws: FormatError.self) { try Node(jsonString: objects, options: two) }
    #expect(error?.description == "nesting deeper than 2 levels at line 1, column 11 (byte 10)")

    let deep = String(repeating: "[", count: 1_500) + String(repeating: "]", count: 1_500)
    #expect(throws: FormatError.self) { try Node(jsonString: deep) }
    #expect(throws: Never.self) { try Node(jsonString: deep, options: .init(maximumDepth: 1_500)) }

    let scalarsOnly = JSONReadingOptions(maximumDepth: 0)
    #expect(try Node(jsonString: "7", options: scalarsOnly) == .integer(7))
    #expect(throws: FormatError.self) { try Node(jsonString: "[]", options: scalarsOnly) }
  }

  // MARK: - Lenient dialect

  @Test func commentsNeedTheOption() throws {
    let text = """
      // settings
      {
        "a": 1, /* inline */ "b": [2 /* two */, 3] // end of line
        /* block
           over lines */
      }
      // last
      """
    let expected: Node = .object([
      .init("a", .integer(1)), .init("b", .array([.integer(2), .integer(3)])),
    ])
    #expect(try Node(jsonString: text, options: .init(allowsComments: true)) == expected)
    #expect(try Node(jsonString: text, options: .lenient) == expected)
    let error = #expect(throws: FormatError.self) { try Node(jsonString: text) }
    #expect(
      error?.description == "syntax error at line 1, column 1 (byte 0): expected a value, found '/'"
    )
    #expect(throws: FormatError.self) {
      try Node(jsonString: text, options: .init(allowsTrailingCommas: true))
    }
  }

  @Test(arguments: [
    (
      "[1] /* open",
      "syntax error at line 1, column 12 (byte 11): unexpected end of input inside a comment"
    ),
    ("[1] /", "syntax error at line 1, column 6 (byte 5): unexpected end of input after '/'"),
    (
      "[1 /x]",
      "syntax error at line 1, column 5 (byte 4): expected '/' or '*' after '/' to start a comment, "
        + "found 'x'"
    ),
    ("/**/", "syntax error at line 1, column 5 (byte 4): expected a value, found end of input"),
    (
      "[1, // x]",
      "syntax error at line 1, column 10 (byte 9): expected a value, found end of input"
    ),
  ])
  func malformedCommentsAreErrors(text: String, description: String) {
    let error = #expect(throws: FormatError.self) {
      try Node(jsonString: text, options: .lenient)
    }
    #expect(error?.description == description)
  }

  @Test func commentsEndAtEitherLineBreak() throws {
    #expect(try Node(jsonString: "[1, // a\r2 // b\n]", options: .lenient) == [1, 2].node)
    #expect(try Node(jsonString: "/* ** / */ 3 //", options: .lenient) == .integer(3))
  }

  @Test func trailingCommasNeedTheOption() throws {
    let options = JSONReadingOptions(allowsTrailingCommas: true)
    #expect(try Node(jsonString: "[1, 2 ,\n]", options: options) == [1, 2].node)
    #expect(
      try Node(jsonString: #"{"a": [1,], "b": {"c": 2,},}"#, options: options)
        == .object([
          .init("a", [1].node), .init("b", .object([.init("c", .integer(2))])),
        ]))
    #expect(throws: FormatError.self) { try Node(jsonString: "[1, 2,]") }
    #expect(throws: FormatError.self) {
      try Node(jsonString: "[1, 2,]", options: .init(allowsComments: true))
    }
    for text in ["[,]", "[1,,]", "{,}", #"{"a":1,,}"#, "[1,] ,", "1,"] {
      #expect(throws: FormatError.self, "\(text)") {
        try Node(jsonString: text, options: .lenient)
      }
    }
  }

  @Test func byteOrderMarkNeedsTheOption() throws {
    let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("{\n\"a\": x}".utf8)
    #expect(throws: FormatError.self) { try Node(jsonBytes: bytes) }
    let lenient = #expect(throws: FormatError.self) {
      try Node(jsonBytes: bytes, options: .lenient)
    }
    // The mark is skipped, and not counted as a column.
    #expect(
      lenient?.description
        == "syntax error at line 2, column 6 (byte 10): expected a value, found 'x'")
    let options = JSONReadingOptions(allowsByteOrderMark: true)
    #expect(
      try Node(jsonBytes: [0xEF, 0xBB, 0xBF] + Array("[]".utf8), options: options) == .array([]))
    let onlyMark = #expect(throws: FormatError.self) {
      try Node(jsonBytes: [0xEF, 0xBB, 0xBF], options: options)
    }
    #expect(
      onlyMark?.description
        == "syntax error at line 1, column 1 (byte 3): expected a value, found end of input")
  }

  @Test func presetsAreWhatTheyClaim() {
    #expect(JSONReadingOptions.strict == JSONReadingOptions())
    #expect(JSONReadingOptions.strict.maximumDepth == 512)
    #expect(JSONReadingOptions.strict.loneSurrogates == .reject)
    #expect(
      JSONReadingOptions.lenient
        == JSONReadingOptions(
          allowsComments: true, allowsTrailingCommas: true, allowsByteOrderMark: true))
  }

  // MARK: - Fuzzing

  /// Seeded mutations of small documents: every input either reads or throws a `FormatError`,
  /// a successful tape is well formed, and error locations lie inside the input.
  @Test func mutatedInputsReadOrThrowButNeverCrash() {
    let seeds = [
      #"{"a": [1, -2.5e+3, true, false, null], "b": {"c": "d\n\u00e9\ud83d\ude00"}}"#,
      #"[0, 12345678901234567890, -9223372036854775808, 1E-7, "x\"y", [], {}]"#,
      "{\"名前\": \"Zoë 😀\", \"list\": [[[[\"deep\"]]]], \"s\": \"tab\\tfree\"}",
      "// c\n[1, /* two */ 2,] ",
    ].map { Array($0.utf8) }
    let interesting: [UInt8] =
      Array("[]{}\",:\\/*-+.eE0123456789tfnu \n".utf8)
      + [0x00, 0x1F, 0x7F, 0x80, 0xBF, 0xC3, 0xE2, 0xED, 0xF0, 0xF4, 0xFF]
    var random = JSONReaderRandom(seed: 0x5EED)
    var accepted = 0
    var rejected = 0
    for _ in 0..<2_500 {
      var bytes = seeds[random.next(below: seeds.count)]
      for _ in 0...random.next(below: 4) {
        let index = random.next(below: bytes.count + 1)
        let byte =
          random.next(below: 2) == 0
          ? interesting[random.next(below: interesting.count)]
          : UInt8(truncatingIfNeeded: random.next())
        switch random.next(below: 5) {
        case 0 where index < bytes.count: bytes[index] = byte
        case 1: bytes.insert(byte, at: index)
        case 2 where index < bytes.count: bytes.remove(at: index)
        case 3: bytes.removeSubrange(index...)
        default:
          let end = min(bytes.count, index + random.next(below: 8))
          bytes.insert(contentsOf: bytes[index..<end], at: index)
        }
      }
      for options in [JSONReadingOptions.strict, .lenient] {
        do {
          let tape = try _Tape(json: bytes, options: options)
          #expect(tape.next(after: 0) == tape.entries.count)
          _ = tape.node(at: 0)
          accepted += 1
        } catch {
          let location: TextLocation
          switch error.kind {
          case .syntax(_, let at), .invalidUTF8(let at), .depthLimitExceeded(_, let at):
            location = at
          default:
            Issue.record("unexpected error \(error) for \(bytes)")
            continue
          }
          #expect(location.offset >= 0 && location.offset <= bytes.count)
          #expect(location.line >= 1 && location.column >= 1)
          rejected += 1
        }
      }
    }
    // The mutations are mild enough that both outcomes occur often.
    #expect(accepted > 250)
    #expect(rejected > 4_000)
  }

  // MARK: - Corpora

  @Test(.enabled(if: TestData.isAvailable)) func readsTheBenchmarkCorpora() throws {
    let twitter = try Node(jsonData: TestData.data("json-benchmark/twitter.json"))
    #expect(twitter["statuses"]?.arrayValue?.count == 100)
    #expect(twitter["search_metadata"]?["count"] == .integer(100))
    #expect(twitter["statuses"]?[0]?["id"] == .integer(505_874_924_095_815_700))
    #expect(twitter["statuses"]?[0]?["user"]?["screen_name"] == .string("ayuu0123"))
    let text = twitter["statuses"]?[0]?["text"]?.stringValue ?? ""
    #expect(text.hasPrefix("@aym0566x \n\n名前:前田あゆみ\n"))
    #expect(text.hasSuffix("一言:お前は一生もんのダチ💖"))

    let citm = try Node(jsonData: TestData.data("json-benchmark/citm_catalog.json"))
    #expect(citm["areaNames"]?["205705993"] == .string("Arrière-scène central"))
    #expect(citm["events"]?.objectValue?.count == 184)
    #expect(citm["performances"]?.arrayValue?.count == 243)

    let canada = try Node(jsonData: TestData.data("json-benchmark/canada.json"))
    #expect(canada["type"] == .string("FeatureCollection"))
    let coordinates = canada["features"]?[0]?["geometry"]?["coordinates"]
    #expect(coordinates?.arrayValue?.count == 480)
    #expect(
      coordinates?[0]?[0]
        == .array([.decimal("-65.613616999999977"), .decimal("43.420273000000009")]))
  }
}

extension Array where Element == Int {
  fileprivate var node: Node { .array(map { .integer(Int64($0)) }) }
}

/// A SplitMix64 generator: small, fast and seedable, so the fuzz test sees the same inputs on every
/// run.
struct JSONReaderRandom {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }

  /// A value in `0..<bound`.
  mutating func next(below bound: Int) -> Int {
    Int(next() % UInt64(bound))
  }
}
