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
/// then maps; encoding writes the mapping's ``Node`` to the encoder. Either way the keys are
/// the ones the mapping spells: a coder's key strategy (`.convertFromSnakeCase`,
/// `.convertToSnakeCase`) converts the keys of the `Codable` models around the value, not the
/// mapping's. A payload the mapping rejects is a `DecodingError.dataCorrupted` whose
/// `underlyingError` is the ``MappingErrors``.
public protocol MappedCodable: Codable {
  /// The mapping that reads and writes the type.
  static var mapping: Mapping<Self> { get }
}

extension MappedCodable {
  /// Reads the value with ``mapping``.
  ///
  /// A payload the mapping rejects is a `DecodingError.dataCorrupted` at the value's coding
  /// path whose `underlyingError` is the ``MappingErrors`` (every problem, each at its path
  /// from the root of the document), with any decoder; ``FastJSONDecoder`` with
  /// ``FastJSONDecoder/ErrorReporting/mappingErrors`` throws the ``MappingErrors`` themselves.
  public init(from decoder: any Decoder) throws {
    if let tapeDecoder = decoder as? TapeDecoder {
      self = try Self.mapped(at: tapeDecoder)
      return
    }
    // Objects are read as dictionaries, whose keys no key strategy converts: the mapping
    // sees the keys it spells.
    let node = try Node(from: decoder)
    do {
      self = try Self.mapping.map(node)
    } catch {
      throw Self.decodingError(error, at: decoder.codingPath)
    }
  }

  /// Writes the value with ``mapping``'s inverse: the keys its mapping spells, which no key
  /// strategy converts.
  public func encode(to encoder: any Encoder) throws {
    try Self.mapping.node(self).encode(to: encoder)
  }

  /// The value at `decoder`'s position of the document ``FastJSONDecoder`` scanned, mapped in
  /// place.
  private static func mapped(at decoder: TapeDecoder) throws -> Self {
    decoder.reading.checkLifetime()
    let plan = mapping._plan
    try plan.checkDefinition()
    var run = MappingRun(tape: decoder.reading.tape, root: plan, options: .none)
    let codingPath = decoder.codingPath
    run.path = codingPath.map { key in
      key.intValue.map { .index($0) } ?? .key(key.stringValue)
    }
    guard let value = plan.decodeNew(at: decoder.index, run: &run, declineIsAcceptable: false),
      run.errors.isEmpty
    else {
      let errors = MappingErrors(run.errors)
      switch decoder.reading.options.errorReporting {
      case .decodingError:
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: codingPath, debugDescription: errors.description, underlyingError: errors))
      case .mappingErrors:
        throw errors
      }
    }
    run.applyMerges()
    return value
  }

  /// The error for the mapping's `error` at `codingPath`: `.dataCorrupted` holding the
  /// mapping's errors, their paths continued from the root of the document.
  private static func decodingError(_ error: MappingErrors, at codingPath: [any CodingKey])
    -> DecodingError
  {
    let prefix = _jsonPointer(
      codingPath.map { key in key.intValue.map { .index($0) } ?? .key(key.stringValue) })
    var errors = error
    errors.errors = error.errors.map { inner in
      var inner = inner
      inner.path = prefix + inner.path
      return inner
    }
    return DecodingError.dataCorrupted(
      DecodingError.Context(
        codingPath: codingPath, debugDescription: errors.description, underlyingError: errors))
  }
}
