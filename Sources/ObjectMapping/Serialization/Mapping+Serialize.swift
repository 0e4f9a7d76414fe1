import Foundation

extension MappingProtocol {
  /// The serializing direction of this mapping, derived from its two-way rules; see
  /// ``InverseMapping``.
  public func inverted() -> InverseMapping<Object> {
    _plan.inverse
  }

  /// Serializes one object with this mapping's inverse; see
  /// ``InverseMapping/serialize(_:as:merging:)``.
  ///
  /// ```swift
  /// let json = try articleMapping.serialize(article, as: .json)
  /// ```
  public func serialize(
    _ object: Object, as format: PayloadFormat = .json, merging extra: Node? = nil
  ) throws(MappingErrors) -> Data {
    try _plan.inverse.serialize(object, as: format, merging: extra)
  }

  /// Serializes objects as an array; see ``InverseMapping/serializeCollection(_:as:merging:)``.
  public func serializeCollection(
    _ objects: some Sequence<Object>, as format: PayloadFormat = .json, merging extra: Node? = nil
  ) throws(MappingErrors) -> Data {
    try _plan.inverse.serializeCollection(objects, as: format, merging: extra)
  }

  /// The object as a ``Node``; see ``InverseMapping/node(_:merging:)``.
  public func node(_ object: Object) throws(MappingErrors) -> Node {
    try _plan.inverse.node(object)
  }

  /// The object as Foundation values; see ``InverseMapping/dictionary(_:)``.
  public func dictionary(_ object: Object) throws(MappingErrors) -> [String: Any] {
    try _plan.inverse.dictionary(object)
  }

  /// The POST or PUT body for `object` and its `Content-Type`; see
  /// ``InverseMapping/requestBody(for:as:rootKey:)``.
  ///
  /// ```swift
  /// let body = try articleMapping.requestBody(for: article, as: .json, rootKey: "article")
  /// ```
  public func requestBody(
    for object: Object, as format: PayloadFormat = .json, rootKey: String? = nil
  ) throws(MappingErrors) -> RequestBody {
    try _plan.inverse.requestBody(for: object, as: format, rootKey: rootKey)
  }

  /// Maps a payload read with the format registered for its `Content-Type`.
  ///
  /// ```swift
  /// let article = try articleMapping.map(body, contentType: "application/x-www-form-urlencoded")
  /// ```
  ///
  /// - Throws: ``MappingErrors``: an unsupported content type, a malformed payload, or every
  ///   mapping problem.
  public func map(
    _ data: Data, contentType: String, formats: FormatRegistry = .standard
  ) throws(MappingErrors) -> Object {
    let node: Node
    do {
      node = try formats.read(data, contentType: contentType)
    } catch {
      throw MappingErrors([error])
    }
    return try map(node)
  }
}
