import Foundation
import ObjectMapping
import ObjectMappingDocument
import Testing

/// A decoder or container that a model's `init(from:)` keeps (legal `Codable`) gives, after
/// `decode` returned, the answers `JSONDecoder`'s give for the same code, on the same input,
/// with the heap reused in between; and its reading never touches the reading state of the
/// thread that releases it (issue 34).
///
/// Each test runs the same code against both decoders and compares the answers. Under
/// AddressSanitizer (`swift test --sanitize=address --filter FastJSONDecoderLifetime`) a read
/// of freed memory stops the run.
@Suite("FastJSONDecoder lifetime")
struct FastJSONDecoderLifetimeTests {
  struct Key: CodingKey, Hashable {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  /// Everything a model can keep from its `init(from:)`.
  final class Keeper: Decodable, @unchecked Sendable {
    // @unchecked: read by one thread at a time (a test hands it over after decode returned).
    let decoder: any Decoder
    let keyed: KeyedDecodingContainer<Key>
    var unkeyed: any UnkeyedDecodingContainer
    let single: any SingleValueDecodingContainer
    /// The first element, read during the call (the unkeyed container goes on from there).
    let first: Int

    init(from decoder: any Decoder) throws {
      self.decoder = decoder
      keyed = try decoder.container(keyedBy: Key.self)
      unkeyed = try keyed.nestedUnkeyedContainer(forKey: Key("list"))
      first = try unkeyed.decode(Int.self)
      single = try decoder.singleValueContainer()
    }
  }

  static let payload = #"""
    {"name": "Ann", "age": 41, "none": null, "ratio": 0.5, "list": [1, "two", [3, 4], {"k": "v"}, null],
     "nested": {"city": "Oslo", "zip": 123}, "flag": true, "big": 18446744073709551615,
     "tags": ["a", "b"], "text": "x/\u00e9\n"}
    """#

  /// Decodes ``payload`` from bytes that are freed when this returns.
  static func keep(
    with decode: (Data) throws -> Keeper
  ) throws -> Keeper {
    // A fresh buffer, not shared with any other `Data`: freed with this frame.
    let bytes = Data(Array(payload.utf8))
    return try decode(bytes)
  }

  /// Reuses the memory the decode freed: blocks of every size written with a pattern, and
  /// other documents decoded by both decoders.
  static func churnTheHeap() throws {
    var blocks: [[UInt8]] = []
    for size in [8, 16, 24, 32, 48, 64, 96, 128, 256, 512, 1024, 4096, 16384] {
      for seed in 0..<48 {
        blocks.append([UInt8](repeating: UInt8(truncatingIfNeeded: seed), count: size))
      }
    }
    let other = Data(#"{"x": [9, 8, 7], "y": {"z": "junk junk junk junk"}}"#.utf8)
    for _ in 0..<16 {
      _ = try FastJSONDecoder().decode(Node.self, from: other)
      _ = try JSONDecoder().decode([String: Node].self, from: other)
    }
    withExtendedLifetime(blocks) {}
  }

  /// What the kept decoder and containers answer: each answer or the error it threw, as text.
  static func answers(_ keeper: Keeper) -> [String] {
    var answers: [String] = []
    func record(_ label: String, _ body: () throws -> Any) {
      do {
        answers.append("\(label): \(try body())")
      } catch let error as DecodingError {
        answers.append("\(label): \(describe(error))")
      } catch {
        answers.append("\(label): \(error)")
      }
    }
    let keyed = keeper.keyed
    record("allKeys") { keyed.allKeys.map(\.stringValue).sorted() }
    record("contains name") { keyed.contains(Key("name")) }
    record("contains missing") { keyed.contains(Key("missing")) }
    record("name") { try keyed.decode(String.self, forKey: Key("name")) }
    record("age") { try keyed.decode(Int.self, forKey: Key("age")) }
    record("age as UInt8") { try keyed.decode(UInt8.self, forKey: Key("age")) }
    record("ratio as Float") { try keyed.decode(Float.self, forKey: Key("ratio")) }
    record("big") { try keyed.decode(UInt64.self, forKey: Key("big")) }
    record("text") { try keyed.decode(String.self, forKey: Key("text")) }
    record("none is nil") { try keyed.decodeNil(forKey: Key("none")) }
    record("flag if present") { try keyed.decodeIfPresent(Bool.self, forKey: Key("flag")) as Any }
    record("missing if present") {
      try keyed.decodeIfPresent(String.self, forKey: Key("missing")) as Any
    }
    record("missing") { try keyed.decode(String.self, forKey: Key("missing")) }
    record("name as Int") { try keyed.decode(Int.self, forKey: Key("name")) }
    record("tags") { try keyed.decode([String].self, forKey: Key("tags")) }
    record("nested") {
      let nested = try keyed.nestedContainer(keyedBy: Key.self, forKey: Key("nested"))
      return [
        try nested.decode(String.self, forKey: Key("city")),
        String(try nested.decode(Int.self, forKey: Key("zip"))),
        nested.allKeys.map(\.stringValue).sorted().joined(separator: ","),
      ]
    }
    record("super") {
      let decoder = try keyed.superDecoder(forKey: Key("nested"))
      return try decoder.container(keyedBy: Key.self).decode(Int.self, forKey: Key("zip"))
    }
    var unkeyed = keeper.unkeyed
    record("first") { keeper.first }
    record("count") { unkeyed.count as Any }
    record("index") { unkeyed.currentIndex }
    record("element 1") { try unkeyed.decode(String.self) }
    record("element 2") {
      var inner = try unkeyed.nestedUnkeyedContainer()
      return [try inner.decode(Int.self), try inner.decode(Int.self)]
    }
    record("element 3") {
      try unkeyed.nestedContainer(keyedBy: Key.self).decode(String.self, forKey: Key("k"))
    }
    record("element 4 is nil") { try unkeyed.decodeNil() }
    record("at end") { unkeyed.isAtEnd }
    record("past the end") { try unkeyed.decode(Int.self) }
    record("single") { try keeper.single.decode([String: Node].self).keys.sorted() }
    record("single nil") { keeper.single.decodeNil() }
    record("decoder") {
      try keeper.decoder.container(keyedBy: Key.self).decode(Int.self, forKey: Key("age"))
    }
    record("decoder unkeyed") { try keeper.decoder.unkeyedContainer().count as Any }
    return answers
  }

  /// A `DecodingError` as its case, its coding path and the type or key it names.
  static func describe(_ error: DecodingError) -> String {
    func path(_ context: DecodingError.Context) -> String {
      context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(
        separator: "/")
    }
    switch error {
    case .keyNotFound(let key, let context):
      return "keyNotFound \(key.stringValue) at [\(path(context))]"
    case .typeMismatch(let type, let context):
      return "typeMismatch \(type) at [\(path(context))]"
    case .valueNotFound(let type, let context):
      return "valueNotFound \(type) at [\(path(context))]"
    case .dataCorrupted(let context):
      return "dataCorrupted at [\(path(context))]"
    @unknown default:
      return "\(error)"
    }
  }

  static func fast(_ data: Data) throws -> Keeper {
    try FastJSONDecoder().decode(Keeper.self, from: data)
  }
  static func foundation(_ data: Data) throws -> Keeper {
    try JSONDecoder().decode(Keeper.self, from: data)
  }

  @Test func keptContainersAnswerAsJSONDecodersDoAfterDecodeReturned() throws {
    let ours = try Self.keep(with: Self.fast)
    let theirs = try Self.keep(with: Self.foundation)
    try Self.churnTheHeap()
    let expected = Self.answers(theirs)
    #expect(Self.answers(ours) == expected)
    // Spelled out for a few, so the test fails if both went wrong the same way.
    #expect(expected.contains("name: Ann") && expected.contains("element 1: two"))
    #expect(expected.contains("contains missing: false") && expected.contains("at end: true"))
  }

  @Test func keptContainersAnswerFromStringAndByteInputs() throws {
    // The text of a `String` and of a `[UInt8]` is borrowed as a `Data`'s is.
    func fromString() throws -> Keeper {
      try FastJSONDecoder().decode(
        Keeper.self, from: String(Self.payload.utf8.map { Character(UnicodeScalar($0)) }))
    }
    func fromBytes() throws -> Keeper {
      try FastJSONDecoder().decode(Keeper.self, from: Array(Self.payload.utf8))
    }
    let string = try fromString()
    let bytes = try fromBytes()
    let theirs = try Self.keep(with: Self.foundation)
    try Self.churnTheHeap()
    let expected = Self.answers(theirs)
    #expect(Self.answers(string) == expected)
    #expect(Self.answers(bytes) == expected)
  }

  @Test func keptContainersAnswerOnAnotherThread() async throws {
    let ours = try Self.keep(with: Self.fast)
    let theirs = try Self.keep(with: Self.foundation)
    try Self.churnTheHeap()
    let answers = await Task.detached { Self.answers(ours) }.value
    #expect(answers == Self.answers(theirs))
  }

  /// A model deep in the document keeps its container; the decode then fails further on.
  final class Deep: Decodable, @unchecked Sendable {
    // @unchecked: read by one thread at a time.
    nonisolated(unsafe) static var kept: [KeyedDecodingContainer<Key>] = []
    let value: Int
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: Key.self)
      Deep.kept.append(container)
      value = try container.decode(Int.self, forKey: Key("v"))
    }
  }

  @Test func aContainerKeptByAModelThatThrewStillAnswers() throws {
    struct Outer: Decodable { var items: [Deep] }
    let json = #"{"items": [{"v": 1, "w": [true]}, {"v": "bad", "w": [false]}]}"#
    func run(_ decode: (Data) throws -> Outer) -> [String] {
      Deep.kept = []
      let data = Data(Array(json.utf8))
      #expect(throws: (any Error).self) { try decode(data) }
      var answers: [String] = []
      for container in Deep.kept {
        answers.append(
          container.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(
            separator: "/"))
        answers.append("\(container.allKeys.map(\.stringValue).sorted())")
        answers.append("\((try? container.decode([Bool].self, forKey: Key("w"))) ?? [])")
      }
      Deep.kept = []
      return answers
    }
    let ours = run { try FastJSONDecoder().decode(Outer.self, from: $0) }
    try Self.churnTheHeap()
    let theirs = run { try JSONDecoder().decode(Outer.self, from: $0) }
    #expect(ours == theirs)
    #expect(theirs == ["items/0", #"["v", "w"]"#, "[true]", "items/1", #"["v", "w"]"#, "[false]"])
  }

  // MARK: The reading state of other threads

  /// The last reference to a kept container, released while another reading is current on
  /// the releasing thread, leaves that reading current (a reading ends where it began, never
  /// in a `deinit`).
  @Test func aLateReleaseOnAnotherThreadLeavesThatThreadsReadingAlone() throws {
    let box = Box<Keeper?>(try Self.keep(with: Self.fast))
    let result = Box<Bool?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      let (token, previous) = _ReadingScope.begin()
      box.value = nil  // the reading is released here, on this thread
      result.value = _ReadingScope.isCurrent(token)
      _ReadingScope.end(restoring: previous)
      done.signal()
    }
    thread.start()
    done.wait()
    #expect(result.value == true)
  }

  @Test func aLateReleaseOnTheDecodingThreadLeavesItsReadingAlone() throws {
    var keeper: Keeper? = try Self.keep(with: Self.fast)
    let (token, previous) = _ReadingScope.begin()
    keeper = nil
    #expect(_ReadingScope.isCurrent(token))
    _ReadingScope.end(restoring: previous)
    #expect(keeper == nil)
  }

  /// A mapping call on another thread releases a kept container from inside a value's
  /// `init(payload:)` and goes on reading its payload.
  @Test func aMappingCallThatReleasesAKeptContainerGoesOn() throws {
    ReleasingValue.kept.value = try Self.keep(with: Self.fast)
    struct Model: Sendable { var value = ReleasingValue() }
    let mapping = Mapping(Model.init) { Attribute("value", \.value) }
    let result = Box<String?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      result.value = (try? mapping.map(#"{"value": "still readable"}"#))?.value.text
      done.signal()
    }
    thread.start()
    done.wait()
    #expect(result.value == "still readable")
    #expect(ReleasingValue.kept.value == nil)
  }

  struct ReleasingValue: MappableValue {
    static let kept = Box<Keeper?>(nil)
    var text = ""
    init() {}
    init(payload: PayloadValue) throws {
      ReleasingValue.kept.value = nil
      text = try payload.decode(String.self)
    }
    func payloadNode() throws -> Node { .string(text) }
  }

  // MARK: One coder, several threads

  struct Catalog: Codable, Equatable {
    var names: [String: String]
    var areas: [String: [Int]]
    var events: [Event]
    struct Event: Codable, Equatable {
      var id: Int
      var tags: [String: Bool]?
      var when: Date
    }
  }

  /// One `let` decoder and encoder used by several threads at once, as a `JSONDecoder` and a
  /// `JSONEncoder` can be: each thread gets `JSONDecoder`'s value and `JSONEncoder`'s bytes.
  /// (Under ThreadSanitizer this also checks the settings' lock and the table of conformances
  /// the decoding calls share.)
  @Test func oneCoderSharedByThreadsGivesFoundationsAnswers() throws {
    var events: [String] = []
    for id in 0..<40 {
      events.append(#"{"id": \#(id), "tags": {"t\#(id)": true}, "when": 1000\#(id)}"#)
    }
    let text =
      #"{"names": {"a": "b", "café": "x"}, "areas": {"1": [1, 2], "2": []}, "events": ["#
      + events.joined(separator: ",") + "]}"
    let data = Data(text.utf8)
    let foundation = JSONDecoder()
    foundation.dateDecodingStrategy = .secondsSince1970
    let expected = try foundation.decode(Catalog.self, from: data)
    let foundationEncoder = JSONEncoder()
    foundationEncoder.dateEncodingStrategy = .secondsSince1970
    foundationEncoder.outputFormatting = .sortedKeys
    let expectedBytes = try foundationEncoder.encode(expected)

    let decoder = FastJSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    let encoder = FastJSONEncoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    encoder.outputFormatting = .sortedKeys
    let results = Box<[Bool]>(Array(repeating: false, count: 8))
    let lock = NSLock()
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      var agreed = true
      for _ in 0..<20 {
        let decoded = try? decoder.decode(Catalog.self, from: data)
        agreed = agreed && decoded == expected
        agreed = agreed && (try? encoder.encode(expected)) == expectedBytes
      }
      lock.withLock { results.value[thread] = agreed }
    }
    #expect(results.value == Array(repeating: true, count: 8))
  }

  final class Box<Value>: @unchecked Sendable {
    // @unchecked: handed from one thread to the next with a semaphore.
    var value: Value
    init(_ value: Value) { self.value = value }
  }
}
