import Foundation

// Top-level payloads whose objects sit in containers: a dictionary of objects, a dictionary of
// arrays and an array of arrays (ObjectMapper's `mapDictionary`, `mapDictionaryOfArrays` and
// `mapArrayOfArrays`, and their `toJSON` counterparts), one verb each way over a `PayloadShape`.
// Each reads and writes through the same `Shape` a relationship of that shape uses.

/// The containers a top-level payload holds its objects in, for ``MappingProtocol/map(_:as:with:)``
/// and ``MappingProtocol/serialize(_:as:format:with:)``: a dictionary of objects, a dictionary of
/// arrays of objects, or an array of arrays of objects. An array of objects is
/// `mapCollection(_:with:)`'s, and one object is `map(_:with:)`'s.
///
/// ```swift
/// let users = try userMapping.map(json, as: .dictionary)            // [String: User]
/// let byState = try taskMapping.map(json, as: .dictionaryOfArrays)  // [String: [Task]]
/// let rows = try cellMapping.map(json, as: .arrayOfArrays)          // [[Cell]]
/// ```
///
/// `Value` is what the payload becomes (`[String: Object]` for ``dictionary``); the same shape
/// reads and writes it, as a relationship of that shape does inside an object.
public struct PayloadShape<Value, Object>: Sendable {
  let shape: Shape<Value, Object>
}

extension PayloadShape where Value == [String: Object] {
  /// An object of objects, keyed by the payload's keys (`{"blake": {...}, "rachit": {...}}`;
  /// ObjectMapper's `mapDictionary` and `toJSONDictionary`). A repeated key keeps its first
  /// member; the keys are written sorted. With a nested-key mapping (``KeyAttribute``), each key
  /// is also read into its object.
  public static var dictionary: Self { PayloadShape(shape: .keyedObjects) }
}

extension PayloadShape where Value == [String: [Object]] {
  /// An object of arrays of objects (`{"open": [{...}], "done": [{...}, {...}]}`; ObjectMapper's
  /// `mapDictionaryOfArrays`). Errors keep the whole path (`/done/1/title`).
  public static var dictionaryOfArrays: Self {
    PayloadShape(shape: .dictionary(of: .array(of: .object)))
  }
}

extension PayloadShape where Value == [[Object]] {
  /// An array of arrays of objects (`[[{...}, {...}], [{...}]]`; ObjectMapper's
  /// `mapArrayOfArrays`). Errors keep both indexes (`/2/0/id`).
  public static var arrayOfArrays: Self { PayloadShape(shape: .array(of: .array(of: .object))) }
}

extension MappingProtocol {
  /// Maps a payload whose objects sit in containers: a dictionary of objects, a dictionary of
  /// arrays, or an array of arrays (see ``PayloadShape``).
  ///
  /// ```swift
  /// let users = try userMapping.map(#"{"blake": {"id": 1}, "rachit": {"id": 2}}"#, as: .dictionary)
  /// users["blake"]?.id   // 1
  /// ```
  ///
  /// - Parameters:
  ///   - input: The payload (see `map(_:with:)`).
  ///   - shape: The containers around the objects: ``PayloadShape/dictionary``,
  ///     ``PayloadShape/dictionaryOfArrays`` or ``PayloadShape/arrayOfArrays``.
  ///   - options: Settings for this call, reaching every object and child mapping.
  /// - Returns: The objects in their containers (arrays in payload order).
  /// - Throws: ``MappingErrors`` with every failing object's errors at their paths
  ///   (`/blake/email`, `/2/0/id`), or a type mismatch when a container is not the shape's.
  public func map<Value>(
    _ input: some MappingInputConvertible, as shape: PayloadShape<Value, Object>,
    with options: MappingOptions = .none
  ) throws(MappingErrors) -> Value {
    try mapShaped(input.mappingInput, shape.shape, options: options)
  }

  /// Serializes objects in containers: the inverse of ``map(_:as:with:)`` (a dictionary's keys
  /// sorted).
  ///
  /// ```swift
  /// let json = try userMapping.serialize(users, as: .dictionary)   // {"blake":{"id":1},...}
  /// ```
  ///
  /// - Parameters:
  ///   - value: The objects in their containers.
  ///   - shape: The containers (see ``PayloadShape``).
  ///   - format: The payload format; a form body of an array of arrays needs the inverse's root
  ///     key.
  ///   - options: Settings for this call.
  /// - Returns: The payload bytes.
  /// - Throws: ``MappingErrors`` with every value that cannot be written, at its path.
  public func serialize<Value>(
    _ value: Value, as shape: PayloadShape<Value, Object>, format: PayloadFormat = .json,
    with options: MappingOptions = .none
  ) throws(MappingErrors) -> Data {
    try _plan.inverse.serializeShaped(value, shape.shape, as: format, options: options)
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
      run.applyMerges()
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
