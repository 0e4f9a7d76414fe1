import Foundation
import ObjectMappingDocument
import Testing

/// The document layer's lenient reader with positions (`_LocatedJSON`), which definition files
/// are read with: the same values and errors as `Node(jsonString:options:)`, and every place
/// counted as `FormatError` counts it.
@Suite("The JSON reader with positions")
struct LocatedJSONTests {
  static let options: JSONReadingOptions = {
    var options = JSONReadingOptions.lenient
    options.rejectsDuplicateKeys = true
    return options
  }()

  /// The node a located value holds.
  static func node(_ value: _LocatedJSON) -> Node {
    switch value.kind {
    case .object(let members): return .object(members.map { Node.Member($0.key, node($0.value)) })
    case .array(let elements): return .array(elements.map(node))
    case .string(let text): return .string(text)
    case .number(let text): return (try? Node(jsonString: text)) ?? .decimal(text)
    case .bool(let flag): return .bool(flag)
    case .null: return .null
    }
  }

  /// Every place in `value` (values and keys), with the byte offset each must be at.
  static func places(_ value: _LocatedJSON, into places: inout [TextLocation]) {
    places.append(value.location)
    switch value.kind {
    case .object(let members):
      for member in members {
        places.append(member.keyLocation)
        Self.places(member.value, into: &places)
      }
    case .array(let elements):
      for element in elements { Self.places(element, into: &places) }
    default:
      break
    }
  }

  /// The node `body` reads, or its error's description.
  static func outcome(_ body: () throws -> Node) -> String {
    do {
      return "\(try body())"
    } catch {
      return "error: \(error)"
    }
  }

  /// The location `FormatError` gives `offset` in `text`.
  static func scannerLocation(of offset: Int, in text: String) -> TextLocation {
    Array(text.utf8).withUnsafeBufferPointer { _JSONScanner.location(of: offset, in: $0) }
  }

  static let samples = [
    "\u{FEFF}// a comment\r\n{ \"a\": [1, -2.5e3, true, null, \"x\\n\\u00e9\"], /* b */ \"é\": {},\r\"c\": [ ],}",
    "[\n  {\"key\": \"value\"},\n  {\"ünï\": \"cödé\", \"n\": 12345678901234567890},\n]",
    "  \"just a string\"  ",
    "{\"a\":{\"b\":{\"c\":[[[]],[{}]]}}}",
  ]

  @Test(arguments: samples)
  func valuesAndPlacesAreTheReaders(text: String) throws {
    let located = try _LocatedJSON.read(text, options: Self.options)
    #expect(Self.node(located) == (try Node(jsonString: text, options: Self.options)))
    var places: [TextLocation] = []
    Self.places(located, into: &places)
    let bytes = Array(text.utf8)
    for place in places {
      #expect(place == Self.scannerLocation(of: place.offset, in: text))
      // Each place is where its value or key starts: `{`, `[`, a quote, a digit, a sign or a
      // literal's first letter.
      let first = bytes[place.offset]
      #expect(Array("{[\"-0123456789tfn".utf8).contains(first), "\(place)")
    }
  }

  @Test func placesOfASmallDocument() throws {
    let located = try _LocatedJSON.read("{\r\n  \"a\": [1,\n  true]}", options: Self.options)
    let member = try #require(located.members?.first)
    #expect(located.location == TextLocation(offset: 0, line: 1, column: 1))
    #expect(member.keyLocation == TextLocation(offset: 5, line: 2, column: 3))
    #expect(member.value.location == TextLocation(offset: 10, line: 2, column: 8))
    guard case .array(let elements) = member.value.kind else {
      Issue.record("not an array")
      return
    }
    #expect(
      elements.map(\.location) == [
        TextLocation(offset: 11, line: 2, column: 9), TextLocation(offset: 16, line: 3, column: 3),
      ])
  }

  /// Seeded random documents: the same values as `Node`, places as `FormatError` counts them;
  /// the same errors for truncated ones.
  @Test func randomDocuments() throws {
    var generator = SeededGenerator(seed: 0x10CA7ED)
    func value(_ depth: Int) -> String {
      let choice = Int.random(in: 0..<(depth > 4 ? 5 : 8), using: &generator)
      switch choice {
      case 0: return "\(Int.random(in: -1_000...1_000, using: &generator))"
      case 1:
        return ["true", "false", "null", "1.5e-3", "-0"][Int.random(in: 0..<5, using: &generator)]
      case 2:
        return ["\"\"", "\"a b\"", "\"é\\u0041\\\"\"", "\"\\ud83d\\ude00\"", "\"日本\""][
          Int.random(in: 0..<5, using: &generator)]
      case 3: return "/* c */ 7"
      case 4: return "// line\r\n 8"
      case 5, 6:
        let count = Int.random(in: 0...4, using: &generator)
        let members = (0..<count).map { "\"k\($0)\"\r: \n\(value(depth + 1))" }
        return "{" + members.joined(separator: ",\r\n") + (count > 0 && choice == 6 ? ",}" : "}")
      default:
        let count = Int.random(in: 0...4, using: &generator)
        return "[" + (0..<count).map { _ in value(depth + 1) }.joined(separator: " ,\t") + "]"
      }
    }
    for round in 0..<300 {
      let text = value(0)
      let located = try _LocatedJSON.read(text, options: Self.options)
      #expect(
        Self.node(located) == (try Node(jsonString: text, options: Self.options)), "round \(round)")
      var places: [TextLocation] = []
      Self.places(located, into: &places)
      for place in places {
        #expect(place == Self.scannerLocation(of: place.offset, in: text), "round \(round)")
      }
      // Cut in half: the same error (or the same value) as `Node`.
      let cut = String(decoding: Array(text.utf8).prefix(text.utf8.count / 2), as: UTF8.self)
      #expect(
        Self.outcome { Self.node(try _LocatedJSON.read(cut, options: Self.options)) }
          == Self.outcome { try Node(jsonString: cut, options: Self.options) },
        "round \(round)")
    }
  }
}
