import Foundation
import Testing

@testable import ObjectMapping

/// The document layer's readers and writers throw ``FormatError``; the mapping layer wraps it
/// into a ``MappingError`` that reads exactly the same (issue 22: format readers throw their own
/// errors, and the texts tests assert are API).
@Suite struct FormatErrorTests {
  struct Box: Equatable {
    var value = 0
  }

  static let mapping = Mapping(Box.init) { Attribute("value", \.value) }

  @Test func theJSONReaderThrowsAFormatErrorThatMappingWrapsWithTheSameText() throws {
    let text = #"{"value": 1,}"#
    let expected =
      "syntax error at line 1, column 13 (byte 12): expected a string key after ',' in an "
      + "object, found '}'"
    let readError = #expect(throws: FormatError.self) { try Node(jsonString: text) }
    #expect(readError?.description == expected)
    #expect(
      readError?.kind
        == .syntax(
          message: "expected a string key after ',' in an object, found '}'",
          location: TextLocation(offset: 12, line: 1, column: 13)))
    let mapError = #expect(throws: MappingErrors.self) { try Self.mapping.map(text) }
    #expect(mapError?.errors.map(\.description) == [expected])
    #expect(
      mapError?.errors.first?.kind
        == .format(
          .syntax(
            message: "expected a string key after ',' in an object, found '}'",
            location: TextLocation(offset: 12, line: 1, column: 13))))
  }

  @Test func theFormReaderAndTheFoundationBridgeThrowFormatErrors() {
    let form = #expect(throws: FormatError.self) { try Node(formURLEncoded: "a=%zz") }
    #expect(
      form?.description
        == #"syntax error at line 1, column 3 (byte 2): expected two hexadecimal digits after "#
        + #"'%', found "zz""#)
    let foundation = #expect(throws: FormatError.self) {
      try Node(foundation: ["a": [[1]]], maximumDepth: 2)
    }
    #expect(foundation?.description == "/a/0: nesting deeper than 2 levels")
    #expect(foundation?.path == "/a/0")
  }

  @Test func theWritersThrowFormatErrors() {
    let node: Node = ["x": [.double(.nan)]]
    let json = #expect(throws: FormatError.self) { try node.jsonData() }
    #expect(json == FormatError(path: "/x/0", .nonFiniteNumber(value: "nan")))
    let form = #expect(throws: FormatError.self) { try node.formURLEncodedString() }
    #expect(form?.description == "/x/0: cannot write the non-finite number nan")
  }

  static let location = TextLocation(offset: 4, line: 2, column: 3)

  @Test(arguments: [
    (
      FormatError(.syntax(message: "expected a value, found 'x'", location: location)),
      MappingError(.format(.syntax(message: "expected a value, found 'x'", location: location))),
      "syntax error at line 2, column 3 (byte 4): expected a value, found 'x'"
    ),
    (
      FormatError(path: "/a", .depthLimitExceeded(limit: 2, location: location)),
      MappingError(path: "/a", .format(.depthLimitExceeded(limit: 2, location: location))),
      "/a: nesting deeper than 2 levels at line 2, column 3 (byte 4)"
    ),
    (
      FormatError(.invalidUTF8(location: location)),
      MappingError(.format(.invalidUTF8(location: location))),
      "invalid UTF-8 at line 2, column 3 (byte 4)"
    ),
    (
      FormatError(path: "/n", .nonFiniteNumber(value: "-inf")),
      MappingError(path: "/n", .format(.nonFiniteNumber(value: "-inf"))),
      "/n: cannot write the non-finite number -inf"
    ),
    (
      FormatError(path: "/d", .invalidNumber(text: "1e")),
      MappingError(path: "/d", .format(.invalidNumber(text: "1e"))),
      #"/d: cannot convert .decimal("1e") to a number: not a JSON number"#
    ),
    (
      FormatError(path: "/k", .notRepresentable(reason: "the key \"0\" reads back as an index")),
      MappingError(
        path: "/k", .format(.notRepresentable(reason: "the key \"0\" reads back as an index"))),
      #"/k: cannot serialize: the key "0" reads back as an index"#
    ),
  ])
  func everyKindWrapsIntoTheMappingErrorOfTheSameText(
    format: FormatError, mapping: MappingError, text: String
  ) {
    #expect(format.description == text)
    #expect(MappingError(format) == mapping)
    #expect(mapping.description == text)
  }

  @Test func aFormatErrorThrownByATransformReadsAsBefore() {
    struct Holder: Equatable { var inner: Node = .null }
    let mapping = Mapping(Holder.init) {
      Attribute(
        "inner", \.inner,
        ValueTransform<String, Node>(
          forward: { try Node(jsonString: $0) }, reverse: { try $0.jsonString() }))
    }
    let failure = #expect(throws: MappingErrors.self) {
      try mapping.map(#"{"inner": "[1,"}"#)
    }
    #expect(
      failure?.errors.map(\.description) == [
        #"/inner: cannot convert "[1," to a string: syntax error at line 1, column 4 (byte 3): "#
          + "expected a value, found end of input"
      ])
  }

  /// A value type that reads JSON embedded in a string: the reader's error is the reason of the
  /// conversion failure, in the reader's words (as when readers threw `MappingError`).
  struct EmbeddedJSON: MappableValue, Equatable {
    var node: Node

    init(node: Node) { self.node = node }

    init(payload: PayloadValue) throws {
      node = try Node(jsonString: try payload.decode(String.self))
    }

    func payloadNode() throws -> Node { .string(try node.jsonString()) }
  }

  @Test func aFormatErrorThrownByAValueTypeIsTheReasonOfItsConversionFailure() throws {
    struct Holder: Equatable { var inner = EmbeddedJSON(node: .null) }
    let mapping = Mapping(Holder.init) { Attribute("inner", \.inner) }
    #expect(try mapping.map(#"{"inner": "[1]"}"#) == Holder(inner: EmbeddedJSON(node: [1])))
    let failure = #expect(throws: MappingErrors.self) {
      try mapping.map(#"{"inner": "[1,"}"#)
    }
    #expect(
      failure?.errors.map(\.description) == [
        #"/inner: cannot convert "[1," to a value of type EmbeddedJSON: syntax error at line 1, "#
          + "column 4 (byte 3): expected a value, found end of input"
      ])
  }

  /// The sample of Documentation/ErrorsAndDiagnostics.md, "FormatError".
  @Test func theGuideSampleReadsAsDocumented() {
    let text = "syntax error at line 1, column 4 (byte 3): expected a value, found end of input"
    let read = #expect(throws: FormatError.self) { try Node(jsonString: "[1,") }
    #expect(read?.description == text)
    let mapped = #expect(throws: MappingErrors.self) { try Self.mapping.map("[1,") }
    #expect(mapped?.errors.map(\.description) == [text])
  }
}
