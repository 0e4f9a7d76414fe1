import Foundation
import ObjectMapping
import ObjectMappingDocument
import Testing

/// The scanner's word-at-a-time paths over string bodies: plain ASCII sixteen and eight bytes a
/// step, then byte by byte near the end of the input; non-ASCII runs six, three or two bytes a
/// step; everything else one sequence at a time. Each test puts the byte that stops a path at
/// every position of strings of every length from 0 to 64, at every alignment of the input,
/// as a value and as a key, and near the end of the input, and compares with what the
/// standard library makes of the same bytes.
@Suite struct StringScanningTests {
  /// Plain ASCII letters for filling (no quote, backslash or control character).
  private static func filler(_ count: Int, seed: Int) -> [UInt8] {
    (0..<count).map { UInt8(ascii: "a") + UInt8((seed &+ $0 &* 7) % 26) }
  }

  /// The document `<padding>["<content>"]`, or `<padding>{"<content>":1}` as a key.
  private static func document(_ content: [UInt8], padding: Int, asKey: Bool) -> [UInt8] {
    let spaces = [UInt8](repeating: UInt8(ascii: " "), count: padding)
    return asKey
      ? spaces + Array(#"{""#.utf8) + content + Array(#"":1}"#.utf8)
      : spaces + Array(#"[""#.utf8) + content + Array(#""]"#.utf8)
  }

  /// The string the reader made of `bytes` (a document from ``document(_:padding:asKey:)``).
  private static func readString(_ bytes: [UInt8], asKey: Bool) throws -> String? {
    let node = try Node(jsonBytes: bytes)
    if asKey {
      guard case .object(let members) = node, members.count == 1 else { return nil }
      return members[0].key
    }
    guard case .array(let elements) = node, elements.count == 1,
      case .string(let text) = elements[0]
    else { return nil }
    return text
  }

  // MARK: - Where a string ends

  /// Strings of plain ASCII of every length, at every alignment, as values and keys, also
  /// with nothing after the closing quote (the byte-by-byte tail).
  @Test func plainStringsOfEveryLengthAndAlignment() throws {
    for length in 0...64 {
      for padding in 0..<16 {
        for asKey in [false, true] {
          let content = Self.filler(length, seed: padding)
          let bytes = Self.document(content, padding: padding, asKey: asKey)
          #expect(
            try Self.readString(bytes, asKey: asKey) == String(decoding: content, as: UTF8.self),
            "length \(length), padding \(padding)")
        }
        let alone =
          [UInt8](repeating: 0x20, count: padding) + [0x22] + Self.filler(length, seed: 1)
          + [0x22]
        #expect(
          try Node(jsonBytes: alone)
            == .string(String(decoding: alone.dropFirst(padding + 1).dropLast(), as: UTF8.self)))
      }
    }
  }

  /// An escape at every position of every length: the string is read with the escape
  /// decoded, as `JSONSerialization` reads it.
  @Test func escapesAtEveryPosition() throws {
    let escapes: [(text: String, decoded: String)] = [
      (#"\""#, "\""), (#"\\"#, "\\"), (#"\/"#, "/"), (#"\n"#, "\n"), (#"\u00e9"#, "é"),
      (#"\ud83d\ude00"#, "😀"),
    ]
    for length in 0...64 {
      for position in 0...length {
        for (index, escape) in escapes.enumerated() where (position + index) % 3 == 0 {
          let before = Self.filler(position, seed: length)
          let after = Self.filler(length - position, seed: position)
          let content = before + Array(escape.text.utf8) + after
          for asKey in [false, true] {
            let bytes = Self.document(content, padding: (length + position) % 16, asKey: asKey)
            let expected =
              String(decoding: before, as: UTF8.self) + escape.decoded
              + String(decoding: after, as: UTF8.self)
            #expect(try Self.readString(bytes, asKey: asKey) == expected)
          }
        }
      }
    }
    // The same, against Foundation's reader.
    let sample = Array(#"["abc\"def\\ghi\/jkl\u00e9\ud83d\ude00mnopqrstuvwxyz0123456789"]"#.utf8)
    let foundation = try JSONSerialization.jsonObject(with: Data(sample)) as? [String]
    #expect(try Node(jsonBytes: sample) == .array([.string(foundation?.first ?? "")]))
  }

  /// A control character at every position is an error at exactly that byte.
  @Test func controlCharactersAtEveryPositionAreErrorsThere() {
    for length in 1...64 {
      for position in 0..<length {
        var content = Self.filler(length, seed: position)
        let control = UInt8((length * 3 + position) % 0x20)
        content[position] = control
        let padding = (length + position) % 16
        for asKey in [false, true] {
          let bytes = Self.document(content, padding: padding, asKey: asKey)
          let error = #expect(throws: FormatError.self) { try Node(jsonBytes: bytes) }
          let offset = padding + 2 + position
          let name =
            "U+" + String(repeating: "0", count: control < 0x10 ? 3 : 2)
            + String(control, radix: 16, uppercase: true)
          #expect(
            error?.description
              == "syntax error at line 1, column \(offset + 1) (byte \(offset)): unescaped "
              + "control character \(name) in a string",
            "length \(length), position \(position)")
        }
      }
    }
  }

  /// An unterminated string of every length is an error at the end of the input.
  @Test func unterminatedStringsOfEveryLength() {
    for length in 0...64 {
      let bytes = [0x22] + Self.filler(length, seed: length)
      let error = #expect(throws: FormatError.self) { try Node(jsonBytes: bytes) }
      #expect(
        error?.description
          == "syntax error at line 1, column \(length + 2) (byte \(length + 1)): unexpected end "
          + "of input inside a string")
    }
  }

  // MARK: - Non-ASCII

  /// Well-formed sequences of every length at every position, alone and in runs of up to 24
  /// (long enough for the six-bytes-a-step path), mixed, and with the E0 and ED leads whose
  /// second byte is range-checked: read as the same text as the standard library's decoding.
  @Test func wellFormedNonASCIIAtEveryPositionAndInRuns() throws {
    let scalars: [String] = [
      "é", "ж", "あ", "語", "\u{800}", "\u{D7FF}", "\u{E000}", "\u{FFFF}", "😀", "\u{10FFFF}",
      "\u{0A00}", "\u{D000}",
    ]
    for length in 0...64 {
      for position in stride(from: 0, through: length, by: 1) {
        for run in [1, 2, 3, 7, 24] where (length + position + run) % 4 == 0 || run == 1 {
          let scalar = scalars[(length + position + run) % scalars.count]
          let middle =
            String(repeating: scalar, count: run)
            + (run > 1 ? scalars[(position + 1) % scalars.count] : "")
          let before = Self.filler(position, seed: length)
          let after = Self.filler(length - position, seed: run)
          let content = before + Array(middle.utf8) + after
          let expected = String(validating: content, as: UTF8.self)
          for asKey in [false, true] {
            let bytes = Self.document(content, padding: (position + run) % 16, asKey: asKey)
            #expect(try Self.readString(bytes, asKey: asKey) == expected)
          }
          // The run ends the input's last word: nothing after the closing quote.
          let alone = [0x22] + content + [0x22]
          #expect(try Node(jsonBytes: alone) == .string(expected ?? ""))
        }
      }
    }
  }

  /// An ill-formed sequence at every position of every length, before, inside and after runs
  /// of three-byte text: an error exactly when the standard library rejects the bytes, at the
  /// first byte where its decoding fails.
  @Test func illFormedUTF8AtEveryPositionMatchesTheStandardLibrary() {
    let illFormed: [[UInt8]] = [
      [0x80], [0xBF], [0xC0, 0xAF], [0xC1, 0xBF], [0xC3], [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF],
      [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xE3, 0x81], [0xE3, 0x41, 0x81],
      [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],
      [0xF0, 0x9F, 0x98], [0xFF], [0xFE],
    ]
    let japanese = Array("日本語のテキスト".utf8)
    var checked = 0
    for length in 0...48 {
      for position in 0...length {
        let sequence = illFormed[(length * 7 + position) % illFormed.count]
        for context in 0..<3 {
          var before = Self.filler(position, seed: length)
          var after = Self.filler(length - position, seed: context)
          if context == 1 { before += japanese }
          if context == 2 { after = japanese + after }
          let content = before + sequence + after
          let bytes = Self.document(content, padding: (length + context) % 16, asKey: context == 1)
          let start = (length + context) % 16 + 2
          let expected = Self.firstInvalidOffset(content)
          do {
            _ = try Node(jsonBytes: bytes)
            Issue.record(
              "accepted \(content) (the standard library rejects it at \(expected ?? -1))")
          } catch let error as FormatError {
            if case .invalidUTF8(let location) = error.kind, let expected {
              #expect(location.offset == start + expected, "\(content)")
            } else {
              Issue.record("\(content): \(error)")
            }
          } catch {
            Issue.record("\(content): \(error)")
          }
          checked += 1
        }
      }
    }
    #expect(checked == 3 * (49 * 50 / 2))
  }

  /// Random bytes from 0x80 up, mixed with letters, of every length: accepted exactly when
  /// the standard library accepts them, and read as the same text.
  @Test func randomNonASCIIBytesAgreeWithTheStandardLibrary() throws {
    var generator = SplitMix64(seed: 0x5CA7_7E2E_D000_0008)
    var mismatches: [[UInt8]] = []
    for _ in 0..<40_000 {
      let length = Int(generator.next() % 40)
      var content: [UInt8] = []
      for _ in 0..<length {
        let random = generator.next()
        switch random % 8 {
        case 0: content.append(UInt8(ascii: "a") + UInt8(random >> 8 % 26))
        case 1: content += Array("あ".utf8)
        default: content.append(0x80 | UInt8(truncatingIfNeeded: random >> 8))
        }
      }
      let expected = String(validating: content, as: UTF8.self)
      let read = try? Node(jsonBytes: [0x22] + content + [0x22])
      if read != expected.map(Node.string) { mismatches.append(content) }
    }
    #expect(mismatches.isEmpty, "first: \(mismatches.prefix(3))")
  }

  /// The offset of the first byte where the standard library's UTF-8 decoding of `bytes`
  /// fails, or `nil` when it does not.
  private static func firstInvalidOffset(_ bytes: [UInt8]) -> Int? {
    var iterator = bytes.makeIterator()
    var parser = Unicode.UTF8.ForwardParser()
    var offset = 0
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let scalar):
        offset += scalar.count
      case .emptyInput:
        return nil
      case .error:
        return offset
      }
    }
  }

  // MARK: - Open containers

  /// The first 32 levels of open containers are kept in scratch memory, deeper ones in an
  /// array: nesting across that boundary reads the same, and a duplicate key found at depth
  /// 70 names the whole path, through both.
  @Test func nestingPastTheScratchFramesReadsTheSameAndNamesItsPath() throws {
    for depth in [31, 32, 33, 34, 70, 200] {
      let text =
        String(repeating: #"{"k":["#, count: depth) + "1"
        + String(repeating: "]}", count: depth)
      var node = try Node(jsonString: text)
      for _ in 0..<depth {
        guard case .object(let members) = node, members.count == 1,
          case .array(let elements) = members[0].value, elements.count == 1
        else {
          Issue.record("depth \(depth): unexpected shape")
          return
        }
        node = elements[0]
      }
      #expect(node == .integer(1), "depth \(depth)")
    }
    let options = JSONReadingOptions(maximumDepth: 1000, rejectsDuplicateKeys: true)
    let text =
      String(repeating: #"{"k":["#, count: 70) + #"{"a":1,"a":2}"#
      + String(repeating: "]}", count: 70)
    let error = #expect(throws: FormatError.self) {
      try Node(jsonString: text, options: options)
    }
    let path = String(repeating: "/k/0", count: 70)
    #expect(
      error?.description
        == "\(path): syntax error at line 1, column 428 (byte 427): duplicate key \"a\" (first at "
        + "line 1, column 422)")
  }

  // MARK: - The tape's storage

  /// A scan that runs out of its reserved entries runs again with room for one per byte and
  /// gives the same tape; so does streaming elements larger than the first reservation.
  @Test func aTapeThatRunsOutOfRoomIsScannedAgainWithTheSameResult() throws {
    let documents = [
      #"[1, [2, 3], {"a": [true, false, null]}, "x", 1.5, [[[[]]]]]"#,
      "[" + (0..<1000).map(String.init).joined(separator: ",") + "]",
      #"{"k": "v"}"#, "0", #""""#,
    ]
    for text in documents {
      let bytes = Array(text.utf8)
      let full = try bytes.withUnsafeBufferPointer {
        try _JSONScanner.scan($0, options: .strict)
      }
      for reserved in [1, 2, 5] {
        let small = try bytes.withUnsafeBufferPointer {
          try _JSONScanner.scan($0, options: .strict, reserving: reserved)
        }
        #expect(small.entries == full.entries, "\(text.prefix(20)), \(reserved)")
        #expect(small.longLengths == full.longLengths)
      }
    }
    // Streaming: elements of 600 entries and more (past the first 256), then small ones.
    let big = "[" + (0..<600).map(String.init).joined(separator: ",") + "]"
    let stream = Array("[\(big), 1, \(big), [\(big)], 2]".utf8)
    var counts: [Int] = []
    let result = try stream.withUnsafeBufferPointer { buffer in
      try _JSONScanner.scanArrayElements(buffer, options: .strict) { _, element, _ in
        counts.append(element.entries.count)
        return true
      }
    }
    #expect(result == .finished)
    #expect(counts == [601, 1, 601, 602, 1])
  }
}
