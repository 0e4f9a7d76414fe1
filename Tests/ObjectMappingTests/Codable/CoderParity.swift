import Foundation
import ObjectMapping
import Testing

/// Runs `FastJSONDecoder` and `JSONDecoder` (or `FastJSONEncoder` and `JSONEncoder`) on the same
/// input with the same settings and compares what they give: the value, or the error's case,
/// coding path and text (issue 34: the judge of every parity test is Foundation on this
/// machine, in the same test).
enum Parity {
  /// What a call gave: a value (as compared text) or an error (its case, path and text).
  enum Outcome: Equatable, CustomStringConvertible {
    case value(String)
    case error(String)

    var description: String {
      switch self {
      case .value(let text): return "value \(text)"
      case .error(let text): return "error \(text)"
      }
    }

    var isError: Bool {
      if case .error = self { return true }
      return false
    }
  }

  /// A coding path as text: keys by name, indexes as `[n]` (with their key's name).
  static func render(_ path: [any CodingKey]) -> String {
    path.map { key in key.intValue.map { "[\($0)|\(key.stringValue)]" } ?? key.stringValue }
      .joined(separator: "/")
  }

  /// An error as its case, type or key, coding path and text (the underlying error left out:
  /// Foundation on Linux gives none).
  static func describe(_ error: any Error) -> String {
    switch error {
    case DecodingError.keyNotFound(let key, let context):
      return "keyNotFound(\(key.stringValue)) at \(render(context.codingPath)): "
        + context.debugDescription
    case DecodingError.typeMismatch(let type, let context):
      return "typeMismatch(\(type)) at \(render(context.codingPath)): \(context.debugDescription)"
    case DecodingError.valueNotFound(let type, let context):
      return "valueNotFound(\(type)) at \(render(context.codingPath)): \(context.debugDescription)"
    case DecodingError.dataCorrupted(let context):
      return "dataCorrupted at \(render(context.codingPath)): \(context.debugDescription)"
    case EncodingError.invalidValue(let value, let context):
      return "invalidValue(\(type(of: value))) at \(render(context.codingPath)): "
        + context.debugDescription
    default:
      return "\(type(of: error)): \(error)"
    }
  }

  static func outcome<T>(_ body: () throws -> T, text: (T) -> String) -> Outcome {
    do {
      return .value(text(try body()))
    } catch {
      return .error(describe(error))
    }
  }

  /// Decodes `json` as `T` with both decoders (each configured by `configure`); returns both
  /// outcomes, values as their `String(reflecting:)`.
  static func decode<T: Decodable>(
    _ type: T.Type, _ json: Data,
    configure: (FastJSONDecoder, JSONDecoder) -> Void = { _, _ in }
  ) -> (ours: Outcome, foundation: Outcome) {
    decode(type, json, configure: configure, same: { _, _ in false })
  }

  /// ``decode(_:_:configure:)`` for an `Equatable` type: values equal by `==` (dictionaries
  /// in different orders) give the same outcome.
  static func decode<T: Decodable & Equatable>(
    _ type: T.Type, _ json: Data,
    configure: (FastJSONDecoder, JSONDecoder) -> Void = { _, _ in }
  ) -> (ours: Outcome, foundation: Outcome) {
    decode(type, json, configure: configure, same: ==)
  }

  private static func decode<T: Decodable>(
    _ type: T.Type, _ json: Data, configure: (FastJSONDecoder, JSONDecoder) -> Void,
    same: (T, T) -> Bool
  ) -> (ours: Outcome, foundation: Outcome) {
    let fast = FastJSONDecoder()
    let foundation = JSONDecoder()
    configure(fast, foundation)
    let ours = Result { try fast.decode(T.self, from: json) }
    let theirs = Result { try foundation.decode(T.self, from: json) }
    if case .success(let a) = ours, case .success(let b) = theirs, same(a, b) {
      return (.value(String(reflecting: b)), .value(String(reflecting: b)))
    }
    let text: (Result<T, any Error>) -> Outcome = { result in
      switch result {
      case .success(let value): return .value(String(reflecting: value))
      case .failure(let error): return .error(describe(error))
      }
    }
    return (text(ours), text(theirs))
  }

  /// Decodes `json` with both decoders and expects the same outcome.
  @discardableResult
  static func expectSameDecoding<T: Decodable>(
    _ type: T.Type, _ json: String,
    configure: (FastJSONDecoder, JSONDecoder) -> Void = { _, _ in },
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Outcome {
    expect(decode(type, Data(json.utf8), configure: configure), json, sourceLocation)
  }

  /// ``expectSameDecoding(_:_:configure:sourceLocation:)`` for bytes.
  @discardableResult
  static func expectSameDecoding<T: Decodable>(
    _ type: T.Type, _ data: Data, label: String,
    configure: (FastJSONDecoder, JSONDecoder) -> Void = { _, _ in },
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Outcome {
    expect(decode(type, data, configure: configure), label, sourceLocation)
  }

  /// ``expectSameDecoding(_:_:configure:sourceLocation:)`` for an `Equatable` type.
  @discardableResult
  static func expectSameDecoding<T: Decodable & Equatable>(
    _ type: T.Type, _ json: String,
    configure: (FastJSONDecoder, JSONDecoder) -> Void = { _, _ in },
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Outcome {
    expect(decode(type, Data(json.utf8), configure: configure), json, sourceLocation)
  }

  /// ``expectSameDecoding(_:_:label:configure:sourceLocation:)`` for an `Equatable` type.
  @discardableResult
  static func expectSameDecoding<T: Decodable & Equatable>(
    _ type: T.Type, _ data: Data, label: String,
    configure: (FastJSONDecoder, JSONDecoder) -> Void = { _, _ in },
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Outcome {
    expect(decode(type, data, configure: configure), label, sourceLocation)
  }

  private static func expect(
    _ outcomes: (ours: Outcome, foundation: Outcome), _ label: String,
    _ sourceLocation: SourceLocation
  ) -> Outcome {
    #expect(
      agree(outcomes.ours, outcomes.foundation),
      "input \(label.debugDescription): \(outcomes.ours) vs \(outcomes.foundation)",
      sourceLocation: sourceLocation)
    return outcomes.foundation
  }

  /// Decodes `json` as a ``Node`` with both decoders and expects equal nodes (numbers compared
  /// by value: `FastJSONDecoder` keeps a number's exact text, `JSONDecoder` gives a `Double`).
  @discardableResult
  static func expectSameNode(
    _ json: String, configure: (FastJSONDecoder, JSONDecoder) -> Void = { _, _ in },
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Outcome {
    expectSameNode(
      Data(json.utf8), label: json, configure: configure, sourceLocation: sourceLocation)
  }

  /// ``expectSameNode(_:configure:sourceLocation:)`` for bytes.
  @discardableResult
  static func expectSameNode(
    _ data: Data, label: String, configure: (FastJSONDecoder, JSONDecoder) -> Void = { _, _ in },
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Outcome {
    let fast = FastJSONDecoder()
    let foundation = JSONDecoder()
    configure(fast, foundation)
    let text: (Node) -> String = { try! $0.doublesOnly().jsonString(options: .sortedKeys) }
    let ours = outcome({ try fast.decode(Node.self, from: data) }, text: text)
    let theirs = outcome({ try foundation.decode(Node.self, from: data) }, text: text)
    #expect(
      agree(ours, theirs), "input \(label.debugDescription): \(ours) vs \(theirs)",
      sourceLocation: sourceLocation)
    return theirs
  }

  /// Whether two outcomes agree, allowing the two differences `FastJSONDecoder` makes on
  /// purpose (documented in MigratingFromCodable.md):
  /// - A number the asked type cannot hold: `FastJSONDecoder` reports `.dataCorrupted` at the
  ///   number's path, "Number 300 is not representable in Swift."; `JSONDecoder` on Linux
  ///   rethrows its reader's error at the root, "The given data was not valid JSON.".
  /// - An invalid ISO 8601 date: `FastJSONDecoder` names the date's path; `JSONDecoder` names
  ///   its container's (the date's key left out).
  static func agree(_ ours: Outcome, _ foundation: Outcome) -> Bool {
    if ours == foundation { return true }
    guard case .error(let mine) = ours, case .error(let theirs) = foundation else { return false }
    if mine.hasPrefix("dataCorrupted at "), mine.hasSuffix(" is not representable in Swift."),
      theirs == "dataCorrupted at : The given data was not valid JSON."
    {
      return true
    }
    let date = ": Expected date string to be ISO8601-formatted."
    if mine.hasSuffix(date), theirs.hasSuffix(date) {
      let ourPath = mine.dropFirst("dataCorrupted at ".count).dropLast(date.count)
      let theirPath = theirs.dropFirst("dataCorrupted at ".count).dropLast(date.count)
      return ourPath.hasPrefix(theirPath)
    }
    return false
  }

  /// Encodes `value` with both encoders and returns both outcomes (the output as text).
  static func encode<T: Encodable>(
    _ value: T, configure: (FastJSONEncoder, JSONEncoder) -> Void = { _, _ in }
  ) -> (ours: Outcome, foundation: Outcome) {
    let fast = FastJSONEncoder()
    let foundation = JSONEncoder()
    configure(fast, foundation)
    let text: (Data) -> String = { String(decoding: $0, as: UTF8.self) }
    return (
      outcome({ try fast.encode(value) }, text: text),
      outcome({ try foundation.encode(value) }, text: text)
    )
  }

  /// Encodes `value` with both encoders and expects the same bytes (or the same error).
  @discardableResult
  static func expectSameEncoding<T: Encodable>(
    _ value: T, configure: (FastJSONEncoder, JSONEncoder) -> Void = { _, _ in },
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Outcome {
    let (ours, foundation) = encode(value, configure: configure)
    #expect(ours == foundation, "value \(value)", sourceLocation: sourceLocation)
    return foundation
  }
}

/// A coding key made of a string.
struct ParityKey: CodingKey, Hashable {
  var stringValue: String
  var intValue: Int? { nil }
  init(_ name: String) { stringValue = name }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

extension Node {
  /// The node with every number as a `Double` (as `JSONDecoder` reads numbers into a `Node`),
  /// so that nodes from both decoders compare by value.
  func doublesOnly() -> Node {
    switch self {
    case .integer(let value): return .double(Double(value))
    case .decimal(let number): return Double(number.text).map { .double($0) } ?? self
    case .array(let elements): return .array(elements.map { $0.doublesOnly() })
    case .object(let members):
      return .object(members.map { Node.Member($0.key, $0.value.doublesOnly()) })
    default: return self
    }
  }
}
