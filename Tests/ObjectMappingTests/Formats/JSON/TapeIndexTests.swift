import Foundation
import Testing

@testable import ObjectMapping

/// The scanned index (tape) of a document costs at most 4 bytes per payload byte, and reads
/// back exactly what the payload holds at the limits of its packed entries.
@Suite struct TapeIndexTests {
  /// A document of about `size` bytes: `prefix`, then `element` repeated and separated by
  /// commas, then `suffix`.
  static func document(
    _ prefix: String, _ element: String, _ suffix: String, size: Int = 1 << 20
  ) -> [UInt8] {
    var bytes = Array(prefix.utf8)
    let element = Array(element.utf8)
    let count = max(1, (size - bytes.count) / (element.count + 1))
    bytes.reserveCapacity(size + 16)
    for index in 0..<count {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      bytes.append(contentsOf: element)
    }
    bytes.append(contentsOf: suffix.utf8)
    return bytes
  }

  /// `[[[…]]]` 500 levels deep, repeated in an array.
  static var deepNesting: [UInt8] {
    let nested = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
    return document("[", nested, "]")
  }

  /// The shapes with the most values per byte: 2 bytes per value for `[0,0,…]`.
  static let hostileShapes: [(name: String, bytes: [UInt8])] = [
    ("one key beside a large array", document(#"{"a":1,"x":["#, "0", "]}")),
    ("an array of zeros", document("[", "0", "]")),
    ("an array of empty arrays", document("[", "[]", "]")),
    ("an array of empty objects", document("[", "{}", "]")),
    ("an object of empty keys", document("{", #""":0"#, "}")),
    ("an array of empty strings", document("[", #""""#, "]")),
    ("deep nesting", deepNesting),
  ]

  /// The index of every hostile shape reserves at most 4 bytes per payload byte, and scanning
  /// never grows it (a growing array briefly holds two copies). Reserved pages that are never
  /// written never become resident, so this bounds the index's share of the peak memory.
  @Test(arguments: hostileShapes.map(\.name))
  func indexReservesAtMostFourBytesPerPayloadByte(shape: String) throws {
    let bytes = try #require(Self.hostileShapes.first { $0.name == shape }?.bytes)
    let tape = try _Tape(json: bytes)
    let stride = MemoryLayout.stride(ofValue: tape.entries[0])
    let reserved = tape.entries.capacity * stride
    let written = tape.entries.count * stride
    // Beyond 4 bytes per byte: the allocator rounds large blocks up to whole pages.
    #expect(reserved <= 4 * bytes.count + 8192, "reserved \(reserved) for \(bytes.count) bytes")
    #expect(written <= reserved)
  }

  /// Mapping one value out of a large payload costs no more than the index above: the peak of
  /// the index for 40 MB was 386 MB with 16-byte entries.
  @Test func mappingOneValueOutOfALargeArrayReadsIt() throws {
    struct One { var a = 0 }
    let mapping = Mapping(One.init) { Attribute("a", \.a) }
    let bytes = Self.document(#"{"x":["#, "0", #"],"a":7}"#)
    #expect(try mapping.map(Data(bytes)).a == 7)
    let tape = try _Tape(json: bytes)
    #expect(tape.next(after: 2) == tape.entries.count - 2)
  }

  // MARK: - Packed limits

  /// Integers inside `-2⁶² ..< 2⁶²` are packed; those beyond keep their text and still read as
  /// exact integers, as `Int64` values of a `Node` and as correctly rounded doubles.
  @Test(arguments: [
    Int64(1 << 62) - 1, 1 << 62, -(1 << 62), -(1 << 62) - 1, .max, .min, 0, -1,
  ])
  func integersAtThePackedLimitsReadExactly(value: Int64) throws {
    struct Number { var value: Int64 = 0 }
    let mapping = Mapping(Number.init) { Attribute("n", \.value) }
    let json = #"{"n":\#(value)}"#
    #expect(try mapping.map(json).value == value)
    #expect(try Node(jsonString: json) == .object([.init("n", .integer(value))]))
    #expect(try mapping.map(Node.object([.init("n", .integer(value))])).value == value)
    let tape = try _Tape(json: Array(json.utf8))
    #expect(tape.doubleValue(at: 2) == Double(value))
    let packed = value >= -(1 << 62) && value < 1 << 62
    #expect(tape.entry(at: 2).kind == (packed ? .integer : .number))
  }

  /// Strings, keys and containers longer than a packed entry's length field (2²¹ − 1) keep
  /// their exact length, in a whole index, a streamed element and a tape built from a `Node`.
  @Test func lengthsBeyondThePackedFieldAreExact() throws {
    struct Big: Equatable {
      var text = ""
      var numbers: [Int] = []
      var after = 0
    }
    let long = String(repeating: "é", count: 1_100_000)  // 2,200,000 UTF-8 bytes
    let count = 2_100_000
    let mapping = Mapping(Big.init) {
      Attribute(SourcePath(keys: [long]), \.text)
      Attribute("numbers", \.numbers)
      Attribute("after", \.after)
    }
    let numbers = "[" + Array(repeating: "1", count: count).joined(separator: ",") + "]"
    let object = #"{"\#(long)":"\#(long)","numbers":\#(numbers),"after":5}"#
    let expected = Big(text: long, numbers: Array(repeating: 1, count: count), after: 5)
    #expect(try mapping.map(object) == expected)
    #expect(try mapping.mapCollection("[\(object),\(object)]") == [expected, expected])
    let node = try Node(jsonString: object)
    #expect(node[long] == .string(long))
    #expect(node["numbers"]?.arrayValue?.count == count)
    #expect(try mapping.map(node) == expected)
    let tape = try _Tape(json: Array(object.utf8))
    #expect(tape.entry(at: 1).length == 2_200_000)
    #expect(tape.entry(at: 4).length == UInt32(count))
    #expect(tape.next(after: 4) == 5 + count)
  }
}
