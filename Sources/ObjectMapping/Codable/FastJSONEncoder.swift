import Foundation

/// An `Encodable` encoder writing JSON with ObjectMapping's writer: the counterpart of
/// ``FastJSONDecoder`` for `JSONEncoder`.
///
/// ```swift
/// var encoder = FastJSONEncoder()
/// encoder.keyEncodingStrategy = .convertToSnakeCase
/// let data = try encoder.encode(search)
/// ```
///
/// It takes `JSONEncoder`'s own strategy types (keys, dates, data, non-conforming floats),
/// `userInfo` and the `.sortedKeys` and `.prettyPrinted` output formats. The output reads back
/// to the same values with either decoder; its bytes can differ from `JSONEncoder`'s where JSON
/// allows it (`/` is not escaped; a `Double` is written in its shortest exact form). Errors are
/// ``MappingErrors`` with the JSON Pointer path of the value that cannot be written, its
/// `EncodingError` kept as ``MappingError/underlyingError``.
public struct FastJSONEncoder {
  /// `.sortedKeys` and `.prettyPrinted` are honoured; the other formats change nothing.
  public var outputFormatting: JSONEncoder.OutputFormatting = []
  /// How coding keys become output keys (`JSONEncoder`'s type).
  public var keyEncodingStrategy: JSONEncoder.KeyEncodingStrategy = .useDefaultKeys
  /// How dates are written (default `.deferredToDate`).
  public var dateEncodingStrategy: JSONEncoder.DateEncodingStrategy = .deferredToDate
  /// How `Data` is written (default `.base64`).
  public var dataEncodingStrategy: JSONEncoder.DataEncodingStrategy = .base64
  /// Whether infinities and NaN are written as strings (default `.throw`).
  public var nonConformingFloatEncodingStrategy: JSONEncoder.NonConformingFloatEncodingStrategy =
    .throw
  /// Values the models' `encode(to:)` can read from `encoder.userInfo`.
  public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

  /// Creates an encoder with `JSONEncoder`'s defaults.
  public init() {}

  /// `value` as UTF-8 JSON.
  ///
  /// - Parameter value: The value to write.
  /// - Returns: The JSON bytes.
  /// - Throws: ``MappingErrors`` with the path of the value that cannot be written.
  public func encode<T: Encodable>(_ value: T) throws(MappingErrors) -> Data {
    // Written straight into the writer unless keys must be sorted (which needs every member
    // first) or the value uses the coders in a way a stream cannot follow.
    if !outputFormatting.contains(.sortedKeys) {
      var writer = _JSONWriter(pretty: outputFormatting.contains(.prettyPrinted), capacity: 4096)
      if settings.stream(value, into: &writer) {
        return writer.takeData()
      }
    }
    let node = try node(of: value)
    var options: JSONWritingOptions = []
    if outputFormatting.contains(.sortedKeys) { options.insert(.sortedKeys) }
    if outputFormatting.contains(.prettyPrinted) { options.insert(.prettyPrinted) }
    do {
      return try node.jsonData(options: options)
    } catch let error as FormatError {
      throw MappingErrors([MappingError(error)])
    } catch {
      throw MappingErrors([MappingError(.notRepresentable(reason: "\(error)"))])
    }
  }

  /// `value` as a ``Node``.
  func node<T: Encodable>(of value: T) throws(MappingErrors) -> Node {
    do {
      return try settings.node(of: value)
    } catch {
      throw MappingErrors([_encodingMappingError(error)])
    }
  }

  var settings: _NodeEncodingSettings {
    _NodeEncodingSettings(
      keyEncodingStrategy: keyEncodingStrategy, dateEncodingStrategy: dateEncodingStrategy,
      dataEncodingStrategy: dataEncodingStrategy,
      nonConformingFloatEncodingStrategy: nonConformingFloatEncodingStrategy,
      userInfo: userInfo.mapValues { $0 as Any })
  }
}

/// The ``MappingError`` for an error thrown while encoding.
func _encodingMappingError(_ error: any Error) -> MappingError {
  if let mapping = error as? MappingError { return mapping }
  guard case EncodingError.invalidValue(_, let context) = error else {
    return MappingError(.notRepresentable(reason: "\(error)"), underlyingError: error)
  }
  let path = _jsonPointer(
    context.codingPath.map { key in key.intValue.map { .index($0) } ?? .key(key.stringValue) })
  return MappingError(
    path: path, .notRepresentable(reason: context.debugDescription), underlyingError: error)
}
