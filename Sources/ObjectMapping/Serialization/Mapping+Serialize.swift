import Foundation

extension MappingProtocol {
  /// The serializing direction of this mapping, derived from its two-way rules; see
  /// ``InverseMapping``.
  public func inverted() -> InverseMapping<Object> {
    _plan.inverse
  }

  /// Serializes one object with this mapping's inverse; see
  /// ``InverseMapping/serialize(_:as:merging:with:)``.
  ///
  /// ```swift
  /// let json = try articleMapping.serialize(article, as: .json)
  /// let put = try articleMapping.serialize(article, with: MappingOptions(nulls: .include))
  /// ```
  ///
  /// - Parameters:
  ///   - object: The object to write.
  ///   - format: The payload format (``PayloadFormat/json`` by default).
  ///   - extra: Parameters deep-merged into the output; `nil` for none.
  ///   - options: Settings for this call (nulls, groups, date formats), reaching every child
  ///     mapping unless it sets its own.
  /// - Returns: The payload bytes.
  /// - Throws: ``MappingErrors`` with every value that cannot be written, each with its path.
  public func serialize(
    _ object: Object, as format: PayloadFormat = .json, merging extra: Node? = nil,
    with options: MappingOptions = .none
  ) throws(MappingErrors) -> Data {
    try _plan.inverse.serialize(object, as: format, merging: extra, with: options)
  }

  /// Serializes objects as an array; see
  /// ``InverseMapping/serializeCollection(_:as:merging:with:)``.
  ///
  /// - Parameters:
  ///   - objects: The objects to write, in order.
  ///   - format: The payload format.
  ///   - extra: Parameters deep-merged into the output; an error for a top-level array.
  ///   - options: Settings for this call.
  /// - Returns: The payload bytes.
  /// - Throws: ``MappingErrors`` with every value that cannot be written, each with its path.
  public func serializeCollection(
    _ objects: some Sequence<Object>, as format: PayloadFormat = .json, merging extra: Node? = nil,
    with options: MappingOptions = .none
  ) throws(MappingErrors) -> Data {
    try _plan.inverse.serializeCollection(objects, as: format, merging: extra, with: options)
  }

  /// The object as a `Node`; see ``InverseMapping/node(_:merging:with:)``.
  ///
  /// - Parameters:
  ///   - object: The object to write.
  ///   - options: Settings for this call.
  /// - Returns: The document.
  /// - Throws: ``MappingErrors`` with every value that cannot be written, each with its path.
  public func node(_ object: Object, with options: MappingOptions = .none) throws(MappingErrors)
    -> Node
  {
    try _plan.inverse.node(object, with: options)
  }

  /// The object as Foundation values; see ``InverseMapping/dictionary(_:with:)``.
  ///
  /// - Parameters:
  ///   - object: The object to write.
  ///   - options: Settings for this call.
  /// - Returns: The parameters.
  /// - Throws: ``MappingErrors`` with every value that cannot be written, each with its path.
  public func dictionary(_ object: Object, with options: MappingOptions = .none)
    throws(MappingErrors) -> [String: Any]
  {
    try _plan.inverse.dictionary(object, with: options)
  }

  /// The POST or PUT body for `object` and its `Content-Type`; see
  /// ``InverseMapping/requestBody(for:as:rootKey:with:)``.
  ///
  /// ```swift
  /// let body = try articleMapping.requestBody(for: article, as: .json, rootKey: "article")
  /// ```
  ///
  /// - Parameters:
  ///   - object: The object to send.
  ///   - format: The payload format.
  ///   - rootKey: A key to wrap the object in, or `nil` for none.
  ///   - options: Settings for this call.
  /// - Returns: The body and its `Content-Type`.
  /// - Throws: ``MappingErrors`` with every value that cannot be written, each with its path.
  public func requestBody(
    for object: Object, as format: PayloadFormat = .json, rootKey: String? = nil,
    with options: MappingOptions = .none
  ) throws(MappingErrors) -> RequestBody {
    try _plan.inverse.requestBody(for: object, as: format, rootKey: rootKey, with: options)
  }
}
