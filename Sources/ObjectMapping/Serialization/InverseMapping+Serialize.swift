import Foundation

extension InverseMapping {
  /// Serializes one object.
  ///
  /// JSON is written straight into a byte buffer (no intermediate `Node` or `Any`); other
  /// formats, and JSON with sorted keys, go through a `Node`.
  ///
  /// ```swift
  /// let json = try articleMapping.inverted().serialize(article, as: .json)
  /// // {"id":7,"title":"Hello","body":"","publication_date":"3/1/2012","meta":{"tags":["a"]}}
  /// ```
  ///
  /// - Parameters:
  ///   - object: The object to write.
  ///   - format: The payload format (``PayloadFormat/json`` by default).
  ///   - extra: Parameters deep-merged into the output (object members win over theirs, nested
  ///     objects merge); `nil` for none.
  ///   - options: Settings for this call (nulls, groups, date formats), reaching every child
  ///     mapping unless it sets its own (see ``MappingOptions``).
  /// - Returns: The payload bytes.
  /// - Throws: ``MappingErrors`` with every value that cannot be written (a NaN, a cycle in a
  ///   class graph, a failing reverse transform), each with its output path.
  public func serialize(
    _ object: Object, as format: PayloadFormat = .json, merging extra: Node? = nil,
    with options: MappingOptions = .none
  ) throws(MappingErrors) -> Data {
    if extra == nil, case .json(let writing, _) = format.kind, !writing.contains(.sortedKeys) {
      var writer = try withPayloadWriter(
        to: .json, pretty: writing.contains(.prettyPrinted), options: options
      ) {
        plan.encode(object, to: &$0, run: &$1)
      }
      return writer.json.takeData()
    }
    return try format.encode(
      node(object, merging: extra, with: options), form: options.form ?? form)
  }

  /// Serializes objects as an array: at the top level, or under ``rootKey(_:)``
  /// (`{"articles": [...]}`).
  ///
  /// - Parameters:
  ///   - objects: The objects to write, in order.
  ///   - format: The payload format; a form body needs a root key (it has no top-level array).
  ///   - extra: Parameters deep-merged into the output; an error for a top-level array.
  ///   - options: Settings for this call, reaching every object and child mapping.
  /// - Returns: The payload bytes.
  /// - Throws: ``MappingErrors`` with every value that cannot be written, at its path
  ///   (`/3/price`).
  public func serializeCollection(
    _ objects: some Sequence<Object>, as format: PayloadFormat = .json, merging extra: Node? = nil,
    with options: MappingOptions = .none
  ) throws(MappingErrors) -> Data {
    if extra == nil, case .json(let writing, _) = format.kind, !writing.contains(.sortedKeys) {
      var writer = try withPayloadWriter(
        to: .json, pretty: writing.contains(.prettyPrinted),
        capacity: 256 * objects.underestimatedCount, options: options
      ) { writer, run in
        writeArray(objects, to: &writer, run: &run)
      }
      return writer.json.takeData()
    }
    return try format.encode(
      nodeCollection(objects, merging: extra, with: options), form: options.form ?? form)
  }

  /// The object as a `Node` (under the root key, if any).
  ///
  /// - Parameters:
  ///   - object: The object to write.
  ///   - extra: Parameters deep-merged into the output.
  ///   - options: Settings for this call.
  /// - Returns: The document.
  /// - Throws: ``MappingErrors`` as ``serialize(_:as:merging:with:)`` does.
  public func node(
    _ object: Object, merging extra: Node? = nil, with options: MappingOptions = .none
  ) throws(MappingErrors) -> Node {
    let writer = try withPayloadWriter(to: .node, options: options) {
      plan.encode(object, to: &$0, run: &$1)
    }
    return try mergedWithExtra(writer.nodes.result, extra)
  }

  /// The objects as an array `Node` (under the root key, if any).
  ///
  /// - Parameters:
  ///   - objects: The objects to write, in order.
  ///   - extra: Parameters deep-merged into the output; an error for a top-level array.
  ///   - options: Settings for this call.
  /// - Returns: The document.
  /// - Throws: ``MappingErrors`` as ``serializeCollection(_:as:merging:with:)`` does.
  public func nodeCollection(
    _ objects: some Sequence<Object>, merging extra: Node? = nil,
    with options: MappingOptions = .none
  ) throws(MappingErrors) -> Node {
    let writer = try withPayloadWriter(to: .node, options: options) { writer, run in
      writeArray(objects, to: &writer, run: &run)
    }
    return try mergedWithExtra(writer.nodes.result, extra)
  }

  /// The object as Foundation values (`[String: Any]` with `NSNumber`, `Bool`, `String`,
  /// `NSNull`, arrays and dictionaries), for APIs that take a parameters dictionary
  /// (ObjectMapper's `toJSON()`).
  ///
  /// Numbers are `NSNumber`s, so a whole `Double` (`150.0`) reads back `as? Double` as well as
  /// `as? Int`. A `Float` property's value is an `NSNumber` of the `Float`: it reads back
  /// `as? Float` (Foundation's bridging checks exactness, so an `NSNumber` of the `Double` 1.3
  /// would not, on Linux) and `as? Double` as the `Float`'s own value (`1.2999999523162842`).
  ///
  /// - Parameters:
  ///   - object: The object to write.
  ///   - options: Settings for this call.
  /// - Returns: The parameters.
  /// - Throws: ``MappingErrors`` as ``serialize(_:as:merging:with:)`` does.
  public func dictionary(_ object: Object, with options: MappingOptions = .none)
    throws(MappingErrors) -> [String: Any]
  {
    (try node(object, with: options).foundationValue(numbersAsNSNumber: true) as? [String: Any])
      ?? [:]
  }

  /// The request body for a POST or PUT of `object`: the bytes and the `Content-Type` to send.
  ///
  /// ```swift
  /// let body = try articleMapping.requestBody(for: article, as: .formURLEncoded, rootKey: "article")
  /// request.httpBody = body.data
  /// request.setValue(body.contentType, forHTTPHeaderField: "Content-Type")
  /// ```
  ///
  /// - Parameters:
  ///   - object: The object to send.
  ///   - format: The payload format.
  ///   - rootKey: A key to wrap the object in (`{"article": {...}}`), or `nil` to keep this
  ///     inverse's root key.
  ///   - options: Settings for this call.
  /// - Returns: The body and its `Content-Type`.
  /// - Throws: ``MappingErrors`` as ``serialize(_:as:merging:with:)`` does.
  public func requestBody(
    for object: Object, as format: PayloadFormat = .json, rootKey: String? = nil,
    with options: MappingOptions = .none
  ) throws(MappingErrors) -> RequestBody {
    let inverse = rootKey.map { self.rootKey($0) } ?? self
    return RequestBody(
      data: try inverse.serialize(object, as: format, with: options),
      contentType: format.contentType)
  }

  // MARK: Internals

  private func writeArray(
    _ objects: some Sequence<Object>, to writer: inout PayloadWriter, run: inout EncodingRun
  ) {
    if plan.keyEncoder != nil { return plan.encodeKeyedCollection(objects, to: &writer, run: &run) }
    writer.beginArray()
    var offset = 0
    for object in objects {
      run.path.append(.index(offset))
      plan.encode(object, to: &writer, run: &run)
      run.path.removeLast()
      offset += 1
    }
    writer.endArray()
  }

  /// Runs `body` with a new writer and run; `options` are the call's (they reach every child
  /// mapping, see ``MappingOptions``).
  func withPayloadWriter(
    to target: PayloadWriter.Target, pretty: Bool = false, capacity: Int = 1024,
    options: MappingOptions = .none, _ body: (inout PayloadWriter, inout EncodingRun) -> Void
  ) throws(MappingErrors) -> PayloadWriter {
    var writer = PayloadWriter(target: target, pretty: pretty, capacity: max(capacity, 256))
    writer.decimals = options.decimals ?? decimalOutput ?? .number
    var run = EncodingRun(options: options)
    // The call's policy for `nil` relationships, else the root mapping's: every mapping of the
    // call follows it unless it (or the relationship) sets its own.
    run.relationshipNulls = options.relationshipNulls ?? relationshipNulls
    for key in rootPath {
      writer.beginObject()
      writer.key(key)
      run.path.append(.key(key))
    }
    body(&writer, &run)
    for _ in rootPath { writer.endObject() }
    guard run.errors.isEmpty else { throw MappingErrors(run.errors) }
    return writer
  }

  private func mergedWithExtra(_ node: Node, _ extra: Node?) throws(MappingErrors) -> Node {
    guard let extra else { return node }
    guard case .object = node else {
      throw MappingErrors([
        MappingError(.notRepresentable(reason: "cannot merge parameters into a top-level array"))
      ])
    }
    return node.deepMerged(with: extra)
  }
}

extension Node {
  /// This object with `other`'s members merged in: members of both that are objects merge
  /// recursively, any other member of `other` replaces or is appended.
  func deepMerged(with other: Node) -> Node {
    guard case .object(var members) = self, case .object(let extra) = other else { return other }
    for member in extra {
      if let index = members.firstIndex(where: { $0.key == member.key }) {
        members[index].value = members[index].value.deepMerged(with: member.value)
      } else {
        members.append(member)
      }
    }
    return .object(members)
  }
}

/// A serialized request body and the `Content-Type` header that goes with it.
public struct RequestBody: Sendable, Equatable {
  /// The payload bytes.
  public let data: Data
  /// The media type to send as `Content-Type` (`application/json`).
  public let contentType: String

  /// Creates a request body.
  public init(data: Data, contentType: String) {
    self.data = data
    self.contentType = contentType
  }
}
