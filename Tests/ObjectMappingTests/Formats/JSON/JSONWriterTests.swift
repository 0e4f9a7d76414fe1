import Foundation
import Testing

@testable import ObjectMapping

@Suite struct JSONWriterTests {
  static let nested: Node = [
    "name": "Ann",
    "id": 7,
    "tags": ["a", true, nil, 2.5],
    "meta": ["z": [:], "a": []],
    "items": [["b": 1, "a": 2], []],
  ]

  // MARK: Layout

  @Test func compactOutputHasNoWhitespace() throws {
    #expect(
      try Self.nested.jsonString()
        == #"{"name":"Ann","id":7,"tags":["a",true,null,2.5],"meta":{"z":{},"a":[]},"#
        + #""items":[{"b":1,"a":2},[]]}"#)
    #expect(try Self.nested.jsonBytes() == Array(try Self.nested.jsonString().utf8))
    #expect(try Self.nested.jsonData() == Data(try Self.nested.jsonBytes()))
  }

  @Test func prettyOutputIndentsTwoSpacesPerLevel() throws {
    let expected = """
      {
        "name": "Ann",
        "id": 7,
        "tags": [
          "a",
          true,
          null,
          2.5
        ],
        "meta": {
          "z": {},
          "a": []
        },
        "items": [
          {
            "b": 1,
            "a": 2
          },
          []
        ]
      }
      """
    #expect(try Self.nested.jsonString(options: .prettyPrinted) == expected)
  }

  @Test func sortedKeysSortsEveryObjectByUTF8Bytes() throws {
    #expect(
      try Self.nested.jsonString(options: .sortedKeys)
        == #"{"id":7,"items":[{"a":2,"b":1},[]],"meta":{"a":[],"z":{}},"name":"Ann","#
        + #""tags":["a",true,null,2.5]}"#)
    // Uppercase before lowercase, multi-byte UTF-8 after ASCII.
    let node: Node = ["é": 1, "b": 2, "a": 3, "B": 4, "z": 5, "": 6]
    #expect(try node.jsonString(options: .sortedKeys) == #"{"":6,"B":4,"a":3,"b":2,"z":5,"é":1}"#)
  }

  @Test func sortedKeysIsStableForDuplicateKeys() throws {
    let node: Node = ["k": 1, "a": 0, "k": 2, "k": 3]
    #expect(try node.jsonString(options: .sortedKeys) == #"{"a":0,"k":1,"k":2,"k":3}"#)
  }

  @Test func prettyAndSortedTogether() throws {
    let node: Node = ["b": [1], "a": ["d": nil, "c": false]]
    let expected = """
      {
        "a": {
          "c": false,
          "d": null
        },
        "b": [
          1
        ]
      }
      """
    #expect(try node.jsonString(options: [.prettyPrinted, .sortedKeys]) == expected)
  }

  @Test(
    arguments: [
      (Node.null, "null"), (true, "true"), (false, "false"), ("", #""""#), ([], "[]"), ([:], "{}"),
    ] as [(Node, String)])
  func topLevelScalarsAndEmptyContainers(node: Node, text: String) throws {
    #expect(try node.jsonString() == text)
    #expect(try node.jsonString(options: .prettyPrinted) == text)
  }

  // MARK: Strings

  @Test func escapingIsMinimal() throws {
    let node: Node = ["q\"k\\": "say \"hi\" \\ a/b\n\r\t\u{8}\u{C}\u{0}\u{1F}\u{7F} é 日本 😀"]
    #expect(
      try node.jsonString()
        == #"{"q\"k\\":"say \"hi\" \\ a/b\n\r\t\b\f\u0000\u001f"# + "\u{7F} é 日本 😀\"}")
  }

  @Test func nonASCIIIsWrittenAsRawUTF8() throws {
    let node: Node = "é😀"
    #expect(try node.jsonBytes() == [0x22, 0xC3, 0xA9, 0xF0, 0x9F, 0x98, 0x80, 0x22])
  }

  @Test func stringsBridgedFromFoundationAreEscapedToo() throws {
    let bridged = NSString(string: "a\"b/é") as String
    #expect(try Node.string(bridged).jsonString() == #""a\"b/é""#)
  }

  // MARK: Numbers

  @Test(
    arguments: [
      (Int64.min, "-9223372036854775808"), (Int64.max, "9223372036854775807"), (0, "0"),
      (-1, "-1"), (9, "9"), (10, "10"), (99, "99"), (100, "100"), (-1_234_567, "-1234567"),
    ] as [(Int64, String)])
  func integersAreDecimal(value: Int64, text: String) throws {
    #expect(try Node.integer(value).jsonString() == text)
  }

  @Test(
    arguments: [
      (0.1, "0.1"), (1e-5, "1e-05"), (-0.0, "-0.0"), (0.0, "0.0"), (1.0, "1.0"), (100.0, "100.0"),
      (2.5e-7, "2.5e-07"), (1e20, "1e+20"), (1e16, "1e+16"),
      (123_456_789_012_345.0, "123456789012345.0"),
      (0.1 + 0.2, "0.30000000000000004"), (.leastNonzeroMagnitude, "5e-324"),
      (1.7976931348623157e308, "1.7976931348623157e+308"),
      (2.2250738585072014e-308, "2.2250738585072014e-308"),
      (-65.613616999999977, "-65.61361699999998"),
    ] as [(Double, String)])
  func doublesAreShortestAndReadBack(value: Double, text: String) throws {
    let written = try Node.double(value).jsonString()
    #expect(written == text)
    let readBack = try #require(Double(written))
    #expect(readBack == value)
    #expect(readBack.sign == value.sign)
  }

  @Test func nonFiniteDoublesAreErrorsWithTheirPath() throws {
    #expect(throws: FormatError(.nonFiniteNumber(value: "nan"))) {
      try Node.double(.nan).jsonData()
    }
    let node: Node = ["values": [1, .double(.infinity)], "a/b~c": .double(-.infinity)]
    do {
      _ = try node.jsonBytes()
      Issue.record("expected an error")
    } catch let error as FormatError {
      #expect(error.description == "/values/1: cannot write the non-finite number inf")
    }
    do {
      _ = try (["a/b~c": .double(-.infinity)] as Node).jsonString(options: .prettyPrinted)
      Issue.record("expected an error")
    } catch let error as FormatError {
      #expect(error.description == "/a~1b~0c: cannot write the non-finite number -inf")
    }
  }

  @Test(arguments: [
    "0.1000000000000000000000000001", "12345678901234567890", "1E+2", "-0.0", "12.50", "1e-400",
  ])
  func decimalsAreWrittenVerbatim(text: String) throws {
    #expect(try Node.decimal(text).jsonString() == text)
    #expect(try (["x": .decimal(text)] as Node).jsonString() == #"{"x":"# + text + "}")
  }

  // MARK: Depth

  @Test func deeplyNestedNodesAreWrittenWithoutRecursion() throws {
    let depth = 100_000
    var node: Node = 1
    for level in 0..<depth { node = level.isMultiple(of: 2) ? [node] : ["k": node] }
    defer { Self.dismantle(&node) }
    let bytes = try node.jsonBytes()
    #expect(bytes.count == 1 + depth * 2 + (depth / 2) * 4)
    #expect(Array(bytes.prefix(7)) == Array(#"{"k":[{"#.utf8))
    #expect(bytes[depth * 3] == UInt8(ascii: "1"))
    #expect(Array(bytes.suffix(4)) == Array("]}]}".utf8))
    #expect(node.description.utf8.count == bytes.count)
    #expect(node.debugDescription.hasPrefix(#".object(["k": .array([.object(["k": "#))
  }

  @Test func prettyOutputOfADeepNodeIndentsEveryLevel() throws {
    var node: Node = 1
    for _ in 0..<1_000 { node = [node] }
    defer { Self.dismantle(&node) }
    let lines = try node.jsonString(options: [.prettyPrinted, .sortedKeys])
      .split(separator: "\n")
    #expect(lines.count == 2_001)
    #expect(lines[1_000] == String(repeating: " ", count: 2_000) + "1")
    #expect(lines[2_000] == "]")
  }

  /// Releases a deep chain one level at a time (a recursive release would overflow the stack).
  static func dismantle(_ node: inout Node) {
    while true {
      switch node {
      case .array(let elements) where elements.count == 1: node = elements[0]
      case .object(let members) where members.count == 1: node = members[0].value
      default: return
      }
    }
  }

  // MARK: The streaming writer

  @Test func writerDrivenDirectly() throws {
    var writer = _JSONWriter()
    writer.beginObject()
    writer.key("a\"")
    writer.uint64(.max)
    let key = Array("k/é".utf8)
    key.withUnsafeBufferPointer { writer.key(utf8: $0) }
    writer.beginArray()
    writer.numberText("1.50")
    Array("7e3".utf8).withUnsafeBufferPointer { writer.numberText(utf8: $0) }
    Array("x\ny".utf8).withUnsafeBufferPointer { writer.string(utf8: $0) }
    try writer.double(0.5)
    writer.endArray()
    let escaped = _JSONWriter.escapedUTF8("tab\there")
    #expect(escaped == Array(#"tab\there"#.utf8))
    escaped.withUnsafeBufferPointer { writer.key(escapedUTF8: $0) }
    writer.null()
    writer.endObject()
    #expect(writer.depth == 0)
    #expect(
      String(decoding: writer.bytes, as: UTF8.self)
        == #"{"a\"":18446744073709551615,"k/é":[1.50,7e3,"x\ny",0.5],"tab\there":null}"#)
  }

  @Test func writerLeavesNoTraceOfARejectedDouble() throws {
    var writer = _JSONWriter(pretty: true)
    writer.beginArray()
    #expect(throws: FormatError(.nonFiniteNumber(value: "-inf"))) {
      try writer.double(-.infinity)
    }
    writer.int64(-3)
    writer.endArray()
    #expect(String(decoding: writer.bytes, as: UTF8.self) == "[\n  -3\n]")
  }

  @Test func writerGrowsFromNoCapacityAndRollsBackAcrossGrowth() throws {
    var writer = _JSONWriter(capacity: 0)
    writer.beginArray()
    writer.string("start")
    let mark = writer.checkpoint()
    // Enough to grow the buffer several times, then taken back.
    for number in 0..<1_000 { writer.int64(Int64(number)) }
    writer.string(String(repeating: "x", count: 5_000))
    writer.rollback(to: mark)
    #expect(writer.count == 8)
    writer.bool(true)
    try writer.double(1.25)
    writer.endArray()
    let expected = #"["start",true,1.25]"#
    #expect(writer.withBytes { String(decoding: $0, as: UTF8.self) } == expected)
    #expect(writer.bytes == Array(expected.utf8))
    #expect(writer.takeBytes() == Array(expected.utf8))
    #expect(writer.count == 0)
  }

  /// The writer's bytes live in a shared block: a copied writer must copy them before writing,
  /// so neither copy sees the other's output (value semantics), also across growth.
  @Test func copiedWritersDoNotShareTheirOutput() {
    var first = _JSONWriter(capacity: 16)
    first.beginArray()
    first.int64(1)
    var second = first
    first.int64(2)
    second.string("two")
    for number in 0..<2_000 { second.int64(Int64(number)) }
    first.endArray()
    second.endArray()
    #expect(first.bytes == Array("[1,2]".utf8))
    let numbers = (0..<2_000).map(String.init).joined(separator: ",")
    #expect(second.bytes == Array("[1,\"two\",\(numbers)]".utf8))
    // Taking the output of one copy leaves the other intact.
    var third = second
    let taken = third.takeData()
    #expect(Array(taken) == second.bytes)
    #expect(third.count == 0)
    #expect(third.bytes.isEmpty)
    #expect(second.bytes == Array(taken))
  }

  /// Copies share the block until one writes; only the copy whose length is the block's end
  /// writes in place. A copy that rolls back or takes its bytes while the block is shared must
  /// not write over bytes the other copy still holds.
  @Test func sharedWritersRollingBackOrTakingBytesLeaveTheOtherIntact() {
    var first = _JSONWriter(capacity: 64)
    first.beginArray()
    first.int64(1)
    let mark = first.checkpoint()
    first.string("kept by the copy")
    let second = first
    first.rollback(to: mark)
    first.int64(2)
    first.endArray()
    #expect(first.bytes == Array("[1,2]".utf8))
    #expect(second.bytes == Array(#"[1,"kept by the copy""#.utf8))

    // The copy that wrote first keeps writing in place; the other copies before writing.
    var third = second
    var fourth = second
    third.int64(3)
    fourth.int64(4)
    third.endArray()
    fourth.endArray()
    #expect(third.bytes == Array(#"[1,"kept by the copy",3]"#.utf8))
    #expect(fourth.bytes == Array(#"[1,"kept by the copy",4]"#.utf8))

    // Taking the bytes of a shared writer empties it without touching the other copy.
    // (The taker stays inside the open array, so its next value starts with a comma.)
    var open = _JSONWriter(capacity: 16)
    open.beginArray()
    open.int64(7)
    var taker = open
    #expect(taker.takeBytes() == Array("[7".utf8))
    taker.int64(8)
    open.int64(9)
    open.endArray()
    #expect(taker.bytes == Array(",8".utf8))
    #expect(open.bytes == Array("[7,9]".utf8))

    // A writer alone with its block rolls back and writes over the old bytes in place.
    var sixth = _JSONWriter(capacity: 16)
    sixth.beginArray()
    let start = sixth.checkpoint()
    sixth.string("gone")
    sixth.rollback(to: start)
    sixth.bool(false)
    sixth.endArray()
    #expect(sixth.bytes == Array("[false]".utf8))
  }

  /// A large output is handed to `Data` without a copy, a small one is copied; both read back
  /// the bytes written, and the writer is empty afterwards.
  @Test func takeDataGivesTheBytesWrittenAndEmptiesTheWriter() {
    for size in [0, 10, 4_000, 5_000, 70_000, 1_500_000] {
      var writer = _JSONWriter(capacity: 0)
      let text = String(repeating: "é1", count: size / 3)
      writer.string(text)
      let expected = Array(("\"" + text + "\"").utf8)
      let data = writer.takeData()
      #expect(Array(data) == expected, "size \(size)")
      #expect(writer.count == 0)
      #expect(writer.takeData().isEmpty)
    }
  }

  @Test func writerWithALargeReservedCapacity() {
    // A capacity reserved up front is written into without growing.
    var writer = _JSONWriter(capacity: 3 << 20)
    let text = String(repeating: "ab", count: 800_000)
    writer.beginArray()
    writer.string(text)
    writer.string(text)
    writer.endArray()
    #expect(writer.count == 2 * (text.utf8.count + 2) + 3)
    #expect(writer.takeBytes() == Array("[\"\(text)\",\"\(text)\"]".utf8))
  }
}

@Suite("JSON writer: word-at-a-time escaping")
struct JSONWriterEscapeScanTests {
  /// Strings of every length up to three words, with one special byte at every position: the
  /// word scan, the overlapping test of the last word and the byte loop must agree with a
  /// byte-by-byte escaper, with and without escaped slashes.
  @Test func everyLengthAndPositionMatchesAByteByByteEscaper() {
    func reference(_ bytes: [UInt8], slashes: Bool) -> [UInt8] {
      var out: [UInt8] = [UInt8(ascii: "\"")]
      for byte in bytes {
        switch byte {
        case UInt8(ascii: "\""): out += Array(#"\""#.utf8)
        case UInt8(ascii: "\\"): out += Array(#"\\"#.utf8)
        case UInt8(ascii: "/") where slashes: out += Array(#"\/"#.utf8)
        case 0x0A: out += Array(#"\n"#.utf8)
        case 0x1F: out += Array(#"\u001f"#.utf8)
        default: out.append(byte)
        }
      }
      out.append(UInt8(ascii: "\""))
      return out
    }
    for slashes in [false, true] {
      for length in 1...24 {
        for position in 0..<length {
          for special: UInt8 in [0x22, 0x5C, 0x2F, 0x0A, 0x1F] {
            var bytes = Array(repeating: UInt8(ascii: "b"), count: length)
            bytes[position] = special
            var writer = _JSONWriter(capacity: 0)
            writer.escapesSlashes = slashes
            bytes.withUnsafeBufferPointer { writer.string(utf8: $0) }
            #expect(
              writer.bytes == reference(bytes, slashes: slashes),
              "length \(length), byte \(special) at \(position), slashes \(slashes)")
          }
        }
      }
    }
  }

  /// Framed keys of every length (copied in words or by `memcpy`) write the comma only
  /// between members, and every byte of the key.
  @Test func framedKeysOfEveryLengthAreCopiedWhole() {
    for length in 0...40 {
      let name = String((0..<length).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
      let framed = Array("\"\(name)\":".utf8)
      var writer = _JSONWriter(capacity: 0)
      writer.beginObject()
      writer.key(framed: framed)
      writer.int64(1)
      writer.key(framed: framed)
      writer.bool(true)
      writer.endObject()
      #expect(writer.text == "{\"\(name)\":1,\"\(name)\":true}", "length \(length)")
    }
  }

  @Test func everySpecialByteIsEscapedAtEveryPositionOfAWord() throws {
    let specials: [Character] = ["\"", "\\", "\n", "\u{01}", "\u{1F}", "\t"]
    for special in specials {
      for position in 0..<20 {
        var characters = Array(repeating: Character("a"), count: 20)
        characters[position] = special
        let text = String(characters) + "é→😀" + String(characters)
        let json = try Node.string(text).jsonString()
        #expect(try Node(jsonString: json) == .string(text), "special \(special) at \(position)")
        #expect(!json.unicodeScalars.contains { $0.value < 0x20 }, "raw control character")
      }
    }
    // Bytes at and above 0x80 (UTF-8) and 0x20 itself never need escaping.
    let plain = String(repeating: "é ~}", count: 10)
    #expect(try Node.string(plain).jsonString() == "\"" + plain + "\"")
  }
}
