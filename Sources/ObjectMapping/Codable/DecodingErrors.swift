import Foundation

/// The ``MappingError`` for an error thrown while decoding: its path from the coding path, its
/// kind from the `DecodingError`, the error itself kept.
///
/// `payloadPath` turns a coding path into the payload's path when a key strategy renamed the
/// members (the model's `openIssues` is the payload's `open_issues`).
func convertedMappingError(
  _ error: any Error, payloadPath: (([any CodingKey]) -> [_PathComponent])? = nil
) -> MappingError {
  guard let decoding = error as? DecodingError else {
    return MappingError(.validationFailed(message: "\(error)"), underlyingError: error)
  }
  func pointer(_ path: [any CodingKey]) -> String {
    if let payloadPath { return _jsonPointer(payloadPath(path)) }
    return _jsonPointer(
      path.map { key in key.intValue.map { .index($0) } ?? .key(key.stringValue) })
  }
  switch decoding {
  case .keyNotFound(let key, let context):
    return MappingError(
      path: pointer(context.codingPath + [key]), .missingRequiredKey, underlyingError: error)
  case .valueNotFound(let type, let context):
    return MappingError(
      path: pointer(context.codingPath),
      .typeMismatch(expected: articledTypeName(type), found: "null"), underlyingError: error)
  case .typeMismatch(let type, let context):
    if let failure = context.underlyingError as? ConversionFailure {
      return MappingError(
        path: pointer(context.codingPath), errorKind(of: failure), underlyingError: error)
    }
    return MappingError(
      path: pointer(context.codingPath),
      .typeMismatch(expected: articledTypeName(type), found: context.debugDescription),
      underlyingError: error)
  case .dataCorrupted(let context):
    if let failure = context.underlyingError as? ConversionFailure {
      return MappingError(
        path: pointer(context.codingPath), errorKind(of: failure), underlyingError: error)
    }
    if let syntax = context.underlyingError as? FormatError {
      return MappingError(syntax)
    }
    return MappingError(
      path: pointer(context.codingPath),
      .conversionFailed(expected: "a valid value", raw: "", reason: context.debugDescription),
      underlyingError: error)
  @unknown default:
    return MappingError(.validationFailed(message: "\(error)"), underlyingError: error)
  }
}

/// The kind of ``MappingError`` a conversion failure makes.
private func errorKind(of failure: ConversionFailure) -> MappingError.Kind {
  switch failure {
  case .typeMismatch(let expected, let found):
    return .typeMismatch(expected: expected, found: found)
  case .invalidValue(let expected, let raw, let reason):
    return .conversionFailed(expected: expected, raw: raw, reason: reason)
  case .notRepresentable(let value, let reason):
    return .notRepresentable(reason: "\(value): \(reason)")
  }
}
