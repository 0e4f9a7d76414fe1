import Foundation
import ObjectMapping
import Testing

// Error texts echo the payload: these tests pin how hostile keys and values are rendered
// (escaped, shortened to both ends) while the structured fields stay exact.

struct Labelled: Equatable {
  var id = 0
  var name = ""
}

private let strictMapping = Mapping(Labelled.init) {
  Attribute("id", \.id).optional()
  Attribute("name", \.name).optional()
}.rejectingUnknownKeys()

private struct Shouting: Error, CustomStringConvertible {
  var description: String
}

/// The errors `body` throws.
private func failure(_ body: () throws -> Void) -> MappingErrors? {
  do {
    try body()
    return nil
  } catch let failure as MappingErrors {
    return failure
  } catch {
    return nil
  }
}

@Suite("Error text: hostile keys and values")
struct ErrorTextTests {
  @Test func aMegabyteKeyIsShortenedToBothEndsAndThePathStaysExact() throws {
    let key = String(repeating: "a", count: 500_000) + String(repeating: "z", count: 500_000)
    let failure = try #require(failure { _ = try strictMapping.map(#"{"\#(key)": 1}"#) })
    // Compared outside #expect, which would print a megabyte when it fails.
    let pathIsExact = failure.errors.map(\.path) == ["/" + key]
    #expect(pathIsExact)
    #expect(
      failure.description
        == "/" + String(repeating: "a", count: 50) + "…(999,900 more bytes)…"
        + String(repeating: "z", count: 50) + ": unknown key")
  }

  @Test func aLongNumberIsShortenedToBothEnds() throws {
    let digits = "1" + String(repeating: "0", count: 998) + "9"
    let failure = try #require(
      failure { _ = try strictMapping.coercion(.strict).map(#"{"name": \#(digits)}"#) })
    #expect(
      failure.description
        == "/name: expected a string, found 1" + String(repeating: "0", count: 49)
        + "…(900 more bytes)…" + String(repeating: "0", count: 49) + "9")
  }

  @Test func aLongStringValueKeepsBothEndsAndCountsWhatWasCut() throws {
    let text = String(repeating: "é", count: 300) + "end"
    let failure = try #require(failure { _ = try strictMapping.map(#"{"id": "\#(text)"}"#) })
    // 50 bytes are 25 "é"; the tail keeps "end" and 23 more "é" (2 bytes each).
    #expect(
      failure.description
        == "/id: cannot convert \"" + String(repeating: "é", count: 25)
        + "…(504 more bytes)…" + String(repeating: "é", count: 23) + "end\" to an integer")
  }

  @Test func controlCharactersInKeysCannotForgeLinesOrTerminalCodes() throws {
    let failure = try #require(
      failure { _ = try strictMapping.map(#"{"a\nb\u001b[31mc\r\u0000": 1}"#) })
    #expect(failure.errors.map(\.path) == ["/a\nb\u{1B}[31mc\r\u{0}"])
    #expect(failure.description == #"/a\nb\u001B[31mc\r\u0000: unknown key"#)
    #expect(!failure.description.contains("\n"))
  }

  @Test func delC1SeparatorsAndBidiOverridesAreEscapedInValues() throws {
    let failure = try #require(
      failure {
        _ = try strictMapping.map(#"{"id": "x\u007f\u0085\u009b\u2028\u2029\u202e\u2066\u200fy"}"#)
      })
    #expect(
      failure.description
        == #"/id: cannot convert "x\u007F\u0085\u009B\u2028\u2029\u202E\u2066\u200Fy" to an integer"#
    )
  }

  @Test func jsonPointerEscapingComparesScalarsNotCharacters() throws {
    // "/" followed by a combining accent is one Character but still a "/" in the key.
    let failure = try #require(failure { _ = try strictMapping.map(#"{"x/\u0301y~": 1}"#) })
    #expect(failure.errors.map(\.path) == ["/x~1\u{301}y~0"])
    #expect(failure.description == "/x~1\u{301}y~0: unknown key")
  }

  @Test func aValidatorMessageWithLineBreaksStaysOneLine() throws {
    let mapping = Mapping(Labelled.init) {
      Attribute("name", \.name).validate { _ in
        throw Shouting(description: "bad\n/id: forged error\u{1B}[2J")
      }
    }
    let failure = try #require(failure { _ = try mapping.map(#"{"name": "x"}"#) })
    #expect(failure.description == #"/name: validation failed: bad\n/id: forged error\u001B[2J"#)
  }

  @Test func aLongFreeTextMessageKeepsBothEnds() throws {
    let message = String(repeating: "m", count: 3_000) + "!"
    let mapping = Mapping(Labelled.init) {
      Attribute("name", \.name).validate { _ in throw Shouting(description: message) }
    }
    let failure = try #require(failure { _ = try mapping.map(#"{"name": "x"}"#) })
    #expect(
      failure.description
        == "/name: validation failed: " + String(repeating: "m", count: 450)
        + "…(2,101 more bytes)…" + String(repeating: "m", count: 449) + "!")
  }

  @Test func diagnosticsAndReportsEscapeToo() throws {
    let mapping = Mapping(Labelled.init) {
      Attribute("name", \.name).validate("no\u{1B}]0;title\u{7}") { _ in false }
    }
    let report = mapping.report(#"{"name": "a\u2028b"}"#)
    #expect(report.summary == [#"/name: value rejected: no\u001B]0;title\u0007"#])
    let rejectedByValue = Mapping(Labelled.init) {
      Attribute("name", \.name).validate { _ in false }
    }.report(#"{"name": "a\u2028b"}"#)
    #expect(rejectedByValue.summary == [#"/name: value rejected: rejected "a\u2028b""#])
  }

  @Test func aServerErrorMessageCannotForgeLines() throws {
    let mapper = Mapper(MappingProvider { Route("items", strictMapping) })
    let result = try mapper.map(#"{"error": "Denied\n\u001b[2Jfake: all good"}"#)
    let error = try #require(result.asError())
    #expect(error.description == #"Denied\n\u001B[2Jfake: all good"#)
    #expect(error.messages == [#"Denied\n\u001B[2Jfake: all good"#])
    #expect(result.first(ErrorMessage.self)?.message == "Denied\n\u{1B}[2Jfake: all good")
  }

  @Test func aMappingResultErrorCountsMessagesPastAHundred() throws {
    let error = MappingResultError(messages: (1...250).map { "e\($0)" })
    #expect(
      error.description
        == (1...100).map { "e\($0)" }.joined(separator: ", ") + ", … and 150 more messages")
  }

  @Test func renderedValuesAreNotCutTwice() throws {
    // The found value is rendered when the error is made and again in the description.
    let text = String(repeating: "b", count: 156)
    let failure = try #require(failure { _ = try strictMapping.map(#"{"id": "\#(text)"}"#) })
    #expect(failure.description == "/id: cannot convert \"\(text)\" to an integer")
  }
}
