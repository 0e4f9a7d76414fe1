import Foundation

// Top-level payloads whose objects sit in containers: a dictionary of objects, a dictionary of
// arrays and an array of arrays (ObjectMapper's `mapDictionary`, `mapDictionaryOfArrays` and
// `mapArrayOfArrays`, and their `toJSON` counterparts). Each reads and writes through the same
// `Shape` a relationship of that shape uses.

extension MappingProtocol {
  /// Maps a payload that is an object of objects, keyed by the payload's keys.
  ///
  /// ```swift
  /// let users = try userMapping.mapDictionary(#"{"blake": {"id": 1}, "rachit": {"id": 2}}"#)
  /// users["blake"]?.id   // 1
  /// ```
  ///
  /// With a nested-key mapping (``KeyAttribute``), each key is also read into its object.
  ///
  /// - Parameters:
  ///   - input: The payload (see `map(_:with:)`).
  ///   - options: Settings for this call, reaching every object and child mapping.
  /// - Returns: The objects by key. A repeated key keeps its first member.
  /// - Throws: ``MappingErrors`` with every failing object's errors at their paths
  ///   (`/blake/email`), or a type mismatch when the payload is not an object.
  public func mapDictionary(
    _ input: some MappingInputConvertible, with options: MappingOptions = .none
  ) throws(MappingErrors) -> [String: Object] {
    try mapShaped(input.mappingInput, .keyedObjects, options: options)
  }

  /// Maps a payload that is an object of arrays of objects
  /// (`{"open": [{...}], "done": [{...}, {...}]}`).
  ///
  /// - Parameters:
  ///   - input: The payload (see `map(_:with:)`).
  ///   - options: Settings for this call.
  /// - Returns: The arrays of objects by key.
  /// - Throws: ``MappingErrors`` with every error at its path (`/done/1/title`).
  public func mapDictionaryOfArrays(
    _ input: some MappingInputConvertible, with options: MappingOptions = .none
  ) throws(MappingErrors) -> [String: [Object]] {
    try mapShaped(input.mappingInput, .dictionary(of: .array(of: .object)), options: options)
  }

  /// Maps a payload that is an array of arrays of objects (`[[{...}, {...}], [{...}]]`).
  ///
  /// - Parameters:
  ///   - input: The payload (see `map(_:with:)`).
  ///   - options: Settings for this call.
  /// - Returns: The arrays of objects, in payload order.
  /// - Throws: ``MappingErrors`` with every error at its path (`/2/0/id`).
  public func mapArrayOfArrays(
    _ input: some MappingInputConvertible, with options: MappingOptions = .none
  ) throws(MappingErrors) -> [[Object]] {
    try mapShaped(input.mappingInput, .array(of: .array(of: .object)), options: options)
  }

  /// Serializes objects by key as one object, keys sorted: the inverse of
  /// `mapDictionary(_:with:)`.
  ///
  /// - Parameters:
  ///   - objects: The objects by key.
  ///   - format: The payload format.
  ///   - options: Settings for this call.
  /// - Returns: The payload bytes.
  /// - Throws: ``MappingErrors`` with every value that cannot be written, at its path.
  public func serializeDictionary(
    _ objects: [String: Object], as format: PayloadFormat = .json,
    with options: MappingOptions = .none
  ) throws(MappingErrors) -> Data {
    try _plan.inverse.serializeShaped(objects, .keyedObjects, as: format, options: options)
  }

  /// Serializes arrays of objects by key: the inverse of `mapDictionaryOfArrays(_:with:)`.
  ///
  /// - Parameters:
  ///   - objects: The arrays of objects by key.
  ///   - format: The payload format.
  ///   - options: Settings for this call.
  /// - Returns: The payload bytes.
  /// - Throws: ``MappingErrors`` with every value that cannot be written, at its path.
  public func serializeDictionaryOfArrays(
    _ objects: [String: [Object]], as format: PayloadFormat = .json,
    with options: MappingOptions = .none
  ) throws(MappingErrors) -> Data {
    try _plan.inverse.serializeShaped(
      objects, .dictionary(of: .array(of: .object)), as: format, options: options)
  }

  /// Serializes arrays of objects as an array of arrays: the inverse of
  /// `mapArrayOfArrays(_:with:)`.
  ///
  /// - Parameters:
  ///   - objects: The arrays of objects.
  ///   - format: The payload format; a form body needs the inverse's root key.
  ///   - options: Settings for this call.
  /// - Returns: The payload bytes.
  /// - Throws: ``MappingErrors`` with every value that cannot be written, at its path.
  public func serializeArrayOfArrays(
    _ objects: [[Object]], as format: PayloadFormat = .json, with options: MappingOptions = .none
  ) throws(MappingErrors) -> Data {
    try _plan.inverse.serializeShaped(
      objects, .array(of: .array(of: .object)), as: format, options: options)
  }

  /// Maps the whole payload as `shape`.
  func mapShaped<Value>(
    _ input: MappingInput, _ shape: Shape<Value, Object>, options: MappingOptions
  ) throws(MappingErrors) -> Value {
    try input.withView { view -> Result<Value, MappingErrors> in
      do throws(MappingErrors) {
        try _plan.checkDefinition()
      } catch {
        return .failure(error)
      }
      var run = MappingRun(tape: view, root: _plan, options: options)
      guard let value = shape.decode(0, _plan, &run), run.errors.isEmpty else {
        return .failure(MappingErrors(run.errors))
      }
      return .success(value)
    }.get()
  }
}

extension InverseMapping {
  /// Writes `value` as `shape` (under the root key, if any).
  func serializeShaped<Value>(
    _ value: Value, _ shape: Shape<Value, Object>, as format: PayloadFormat,
    options: MappingOptions
  ) throws(MappingErrors) -> Data {
    if case .json(let writing, _) = format.kind, !writing.contains(.sortedKeys) {
      let writer = try withPayloadWriter(
        to: .json, pretty: writing.contains(.prettyPrinted), options: options
      ) { writer, run in
        _ = shape.encode(value, plan, &writer, &run, run.options.nulls ?? .omit)
      }
      return writer.json.data
    }
    let writer = try withPayloadWriter(to: .node, options: options) { writer, run in
      _ = shape.encode(value, plan, &writer, &run, run.options.nulls ?? .omit)
    }
    return try format.encode(writer.nodes.result)
  }
}
