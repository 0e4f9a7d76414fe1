import Foundation
import ObjectMappingTestSupport
import Testing

@testable import ObjectMapping

/// JSONTestSuite (`test_parsing`): `y_` files must be accepted, `n_` files rejected with a
/// `FormatError`, and each `i_` file has the decided outcome listed in ``decisions`` (also
/// documented in `Documentation/JSONConformance.md`).
@Suite(.enabled(if: TestData.isAvailable)) struct JSONTestSuiteTests {
  private static let folder = "JSONTestSuite/test_parsing"

  @Test func acceptsEveryYFile() throws {
    let files = try TestData.files(in: Self.folder).filter { $0.lastPathComponent.hasPrefix("y_") }
    #expect(files.count == 95)
    for file in files {
      let bytes = try [UInt8](Data(contentsOf: file))
      #expect(throws: Never.self, "\(file.lastPathComponent)") { try Node(jsonBytes: bytes) }
    }
  }

  @Test func rejectsEveryNFileWithAFormatError() throws {
    let files = try TestData.files(in: Self.folder).filter { $0.lastPathComponent.hasPrefix("n_") }
    #expect(files.count == 188)
    for file in files {
      let bytes = try [UInt8](Data(contentsOf: file))
      #expect(throws: FormatError.self, "\(file.lastPathComponent)") {
        try Node(jsonBytes: bytes)
      }
      // The lenient dialect only adds comments, trailing commas and the byte order mark.
      if Self.acceptedByLenientReading.contains(file.lastPathComponent) {
        #expect(throws: Never.self, "\(file.lastPathComponent) (lenient)") {
          try Node(jsonBytes: bytes, options: .lenient)
        }
      } else {
        #expect(throws: FormatError.self, "\(file.lastPathComponent) (lenient)") {
          try Node(jsonBytes: bytes, options: .lenient)
        }
      }
    }
  }

  /// The `n_` files that are valid in the lenient dialect.
  private static let acceptedByLenientReading: Set<String> = [
    "n_array_extra_comma.json",  // ["",]
    "n_array_number_and_comma.json",  // [1,]
    "n_object_trailing_comma.json",  // {"id":0,}
    "n_object_trailing_comment.json",  // {"a":"b"}/**/
    "n_object_trailing_comment_slash_open.json",  // {"a":"b"}//
    "n_structure_object_with_comment.json",  // {"a":/*comment*/"b"}
  ]

  /// What the reader does with an implementation-defined (`i_`) file, with default options.
  enum Outcome: Sendable, CustomStringConvertible {
    /// Read successfully.
    case accepted
    /// A syntax error (the bytes are not UTF-8 JSON at all).
    case syntaxError
    /// `invalidUTF8` inside a string.
    case invalidUTF8
    /// A syntax error naming an escaped lone surrogate; `loneSurrogates: .replace` reads it.
    case loneSurrogate
    /// A syntax error naming the byte order mark; `allowsByteOrderMark` reads it.
    case byteOrderMark

    var description: String {
      switch self {
      case .accepted: return "accepted"
      case .syntaxError: return "syntax error"
      case .invalidUTF8: return "invalid UTF-8"
      case .loneSurrogate: return "lone surrogate"
      case .byteOrderMark: return "byte order mark"
      }
    }
  }

  /// Every `i_` file, its outcome and why.
  static let decisions: [(file: String, outcome: Outcome, reason: String)] = [
    ("i_number_double_huge_neg_exp.json", .accepted, "valid grammar; kept as decimal text"),
    ("i_number_huge_exp.json", .accepted, "valid grammar; kept as decimal text"),
    ("i_number_neg_int_huge_exp.json", .accepted, "valid grammar; kept as decimal text"),
    ("i_number_pos_double_huge_exp.json", .accepted, "valid grammar; kept as decimal text"),
    ("i_number_real_neg_overflow.json", .accepted, "valid grammar; kept as decimal text"),
    ("i_number_real_pos_overflow.json", .accepted, "valid grammar; kept as decimal text"),
    ("i_number_real_underflow.json", .accepted, "valid grammar; kept as decimal text"),
    ("i_number_too_big_neg_int.json", .accepted, "beyond Int64; kept as decimal text"),
    ("i_number_too_big_pos_int.json", .accepted, "beyond Int64; kept as decimal text"),
    ("i_number_very_big_negative_int.json", .accepted, "beyond Int64; kept as decimal text"),
    ("i_object_key_lone_2nd_surrogate.json", .loneSurrogate, "\\uDFAA names no scalar"),
    ("i_string_1st_surrogate_but_2nd_missing.json", .loneSurrogate, "\\uDADA alone"),
    ("i_string_1st_valid_surrogate_2nd_invalid.json", .loneSurrogate, "\\uD888 then \\u1234"),
    ("i_string_UTF-16LE_with_BOM.json", .syntaxError, "UTF-16 is not read; FF FE is no value"),
    ("i_string_UTF-8_invalid_sequence.json", .invalidUTF8, "FA is not a UTF-8 lead byte"),
    ("i_string_UTF8_surrogate_U+D800.json", .invalidUTF8, "surrogates are not UTF-8"),
    ("i_string_incomplete_surrogate_and_escape_valid.json", .loneSurrogate, "\\uD800 then \\n"),
    ("i_string_incomplete_surrogate_pair.json", .loneSurrogate, "\\uDd1e alone"),
    ("i_string_incomplete_surrogates_escape_valid.json", .loneSurrogate, "two high surrogates"),
    ("i_string_invalid_lonely_surrogate.json", .loneSurrogate, "\\ud800 alone"),
    ("i_string_invalid_surrogate.json", .loneSurrogate, "\\ud800 then abc"),
    ("i_string_invalid_utf-8.json", .invalidUTF8, "FF is never UTF-8"),
    ("i_string_inverted_surrogates_U+1D11E.json", .loneSurrogate, "low before high"),
    ("i_string_iso_latin_1.json", .invalidUTF8, "Latin-1 E9 is a truncated sequence"),
    ("i_string_lone_second_surrogate.json", .loneSurrogate, "\\uDFAA alone"),
    ("i_string_lone_utf8_continuation_byte.json", .invalidUTF8, "81 has no lead byte"),
    ("i_string_not_in_unicode_range.json", .invalidUTF8, "F4 BF encodes above U+10FFFF"),
    ("i_string_overlong_sequence_2_bytes.json", .invalidUTF8, "C0 AF is an overlong '/'"),
    ("i_string_overlong_sequence_6_bytes.json", .invalidUTF8, "six-byte forms are not UTF-8"),
    ("i_string_overlong_sequence_6_bytes_null.json", .invalidUTF8, "six-byte forms are not UTF-8"),
    ("i_string_truncated-utf-8.json", .invalidUTF8, "E0 needs a continuation byte"),
    ("i_string_utf16BE_no_BOM.json", .syntaxError, "UTF-16 is not read; NUL is no value"),
    ("i_string_utf16LE_no_BOM.json", .syntaxError, "UTF-16 is not read; NUL is no value"),
    ("i_structure_500_nested_arrays.json", .accepted, "500 levels is within the 512 limit"),
    ("i_structure_UTF-8_BOM_empty_object.json", .byteOrderMark, "strict JSON has no BOM"),
  ]

  @Test func everyIFileHasADecision() throws {
    let files = try TestData.files(in: Self.folder).map(\.lastPathComponent)
      .filter { $0.hasPrefix("i_") }
    #expect(files == Self.decisions.map(\.file))
  }

  @Test func iFilesHaveTheirDecidedOutcome() throws {
    let folder = try TestData.files(in: Self.folder)
    for decision in Self.decisions {
      let file = try #require(folder.first { $0.lastPathComponent == decision.file })
      let bytes = try [UInt8](Data(contentsOf: file))
      let name = Comment(rawValue: decision.file)
      switch decision.outcome {
      case .accepted:
        #expect(throws: Never.self, name) { try Node(jsonBytes: bytes) }
      case .syntaxError:
        let error = #expect(throws: FormatError.self, name) { try Node(jsonBytes: bytes) }
        guard case .syntax = error?.kind else {
          Issue.record("\(decision.file): \(String(describing: error))")
          continue
        }
      case .invalidUTF8:
        let error = #expect(throws: FormatError.self, name) { try Node(jsonBytes: bytes) }
        guard case .invalidUTF8 = error?.kind else {
          Issue.record("\(decision.file): \(String(describing: error))")
          continue
        }
      case .loneSurrogate:
        let error = #expect(throws: FormatError.self, name) { try Node(jsonBytes: bytes) }
        guard case .syntax(let message, _) = error?.kind, message.hasPrefix("lone surrogate '\\u")
        else {
          Issue.record("\(decision.file): \(String(describing: error))")
          continue
        }
        let replacing = JSONReadingOptions(loneSurrogates: .replace)
        #expect(throws: Never.self, name) { try Node(jsonBytes: bytes, options: replacing) }
      case .byteOrderMark:
        let error = #expect(throws: FormatError.self, name) { try Node(jsonBytes: bytes) }
        #expect(
          error?.description
            == "syntax error at line 1, column 1 (byte 0): expected a value, found a byte order "
            + "mark (U+FEFF)")
        let skipping = JSONReadingOptions(allowsByteOrderMark: true)
        #expect(try Node(jsonBytes: bytes, options: skipping) == .object([]), name)
      }
    }
  }

  /// The accepted number files keep their text; as a `Double` they read as the values
  /// `Documentation/JSONConformance.md` states.
  @Test(arguments: [
    ("i_number_double_huge_neg_exp.json", 0.0),
    ("i_number_huge_exp.json", .infinity),
    ("i_number_neg_int_huge_exp.json", -.infinity),
    ("i_number_pos_double_huge_exp.json", .infinity),
    ("i_number_real_neg_overflow.json", -.infinity),
    ("i_number_real_pos_overflow.json", .infinity),
    ("i_number_real_underflow.json", 0.0),
    ("i_number_too_big_neg_int.json", -123_123_123_123_123_123_123_123_123_123.0),
    ("i_number_too_big_pos_int.json", 1e20),
  ])
  func numbersOfTheIFilesReadAsDocumented(file: String, expected: Double) throws {
    let url = try #require(
      try TestData.files(in: Self.folder).first { $0.lastPathComponent == file })
    let bytes = try [UInt8](Data(contentsOf: url))
    let tape = try _Tape(json: bytes)
    #expect(tape.entry(at: 1).kind == .number)
    #expect(tape.doubleValue(at: 1) == expected)
    let text = String(decoding: bytes.dropFirst().prefix { $0 != UInt8(ascii: "]") }, as: UTF8.self)
    #expect(tape.node(at: 0) == .array([.decimal(text)]))
  }

  @Test func selectedNFilesFailWithTheExpectedMessage() throws {
    let expectations = [
      "n_structure_100000_opening_arrays.json":
        "nesting deeper than 512 levels at line 1, column 513 (byte 512)",
      "n_structure_UTF8_BOM_no_data.json":
        "syntax error at line 1, column 1 (byte 0): expected a value, found a byte order mark "
        + "(U+FEFF)",
      "n_string_unescaped_tab.json":
        "syntax error at line 1, column 3 (byte 2): unescaped control character U+0009 in a string",
      "n_structure_whitespace_formfeed.json":
        "syntax error at line 1, column 2 (byte 1): expected a value, found U+000C",
      "n_number_with_leading_zero.json":
        "syntax error at line 1, column 2 (byte 1): leading zeros are not allowed in numbers",
      "n_single_space.json":
        "syntax error at line 1, column 2 (byte 1): expected a value, found end of input",
    ]
    let folder = try TestData.files(in: Self.folder)
    for (name, description) in expectations {
      let file = try #require(folder.first { $0.lastPathComponent == name })
      let bytes = try [UInt8](Data(contentsOf: file))
      let error = #expect(throws: FormatError.self) { try Node(jsonBytes: bytes) }
      #expect(error?.description == description, "\(name)")
    }
  }
}
