import Foundation

/// A model whose `Codable` conformance is its mapping: it can sit inside other `Codable` models
/// and go through any `Codable` coder (`JSONDecoder`, ``FastJSONDecoder``, a property list
/// encoder), read and written exactly as its mapping says.
///
/// ```swift
/// struct Article: MappedCodable {
///   var id = 0
///   var title = ""
///   static let mapping = Mapping(Article.init) {
///     Attribute("article_id", \.id)
///     Attribute("headline", \.title)
///   }
/// }
/// struct Feed: Codable { var articles: [Article] }   // synthesized: each article by its mapping
/// let feed = try JSONDecoder().decode(Feed.self, from: data)
/// ```
///
/// Under ``FastJSONDecoder`` the mapping reads the scanned document in place. Any other decoder
/// first reads the value as a ``Node`` (through `Node`'s `Codable` conformance), which the mapping
/// then maps; encoding writes the mapping's ``Node`` to the encoder. A payload the mapping
/// rejects is a `DecodingError.dataCorrupted` whose `underlyingError` is the ``MappingErrors``.
public protocol MappedCodable: Codable {
  /// The mapping that reads and writes the type.
  static var mapping: Mapping<Self> { get }
}

extension MappedCodable {
  /// Reads the value with ``mapping``.
  public init(from decoder: any Decoder) throws {
    if let tapeDecoder = decoder as? _TapeDecoder {
      self = try Self.mapped(at: tapeDecoder)
      return
    }
    let node = try Node(from: decoder)
    do {
      self = try Self.mapping.map(node)
    } catch {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath, debugDescription: error.description,
          underlyingError: error))
    }
  }

  /// Writes the value with ``mapping``'s inverse.
  public func encode(to encoder: any Encoder) throws {
    try Self.mapping.node(self).encode(to: encoder)
  }

  /// The value at `decoder`'s position of the document ``FastJSONDecoder`` scanned, mapped in
  /// place.
  private static func mapped(at decoder: _TapeDecoder) throws -> Self {
    decoder.reading.checkLifetime()
    let plan = mapping._plan
    try plan.checkDefinition()
    var run = _MappingRun(tape: decoder.reading.tape, root: plan, options: .none)
    run.path = decoder.codingPath.map { key in
      key.intValue.map { .index($0) } ?? .key(key.stringValue)
    }
    guard let value = plan.decodeNew(at: decoder.index, run: &run, declineIsAcceptable: false),
      run.errors.isEmpty
    else {
      throw MappingErrors(run.errors)
    }
    return value
  }
}
