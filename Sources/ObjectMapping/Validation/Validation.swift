/// A model that validates every value a mapping is about to set (RestKit's key-value
/// validation, `validateValue:forKeyPath:error:`).
///
/// The hook runs after the attribute's or relationship's own `.validate { }`, for every property
/// the mapping sets, with the same three outcomes:
///
/// ```swift
/// extension Article: KeyValueValidating {
///   func validateValue(_ value: inout Any, forKeyPath keyPath: PartialKeyPath<Article>) throws
///     -> Bool
///   {
///     if keyPath == \Article.title, let title = value as? String {
///       value = title.uppercased()            // replace
///     }
///     if keyPath == \Article.id, value as? Int == 0 {
///       return false                          // reject: the property keeps its value
///     }
///     if keyPath == \Article.body, value as? String == "" {
///       throw ArticleError.emptyBody          // fail the object
///     }
///     return true
///   }
/// }
/// ```
///
/// A replacement must keep the property's type; one of another type is an error.
public protocol KeyValueValidating {
  /// Validates `value`, about to be set at `keyPath`: change `value` to replace it, return
  /// `false` to reject it (the property keeps its previous value and mapping goes on), throw to
  /// fail the object (it is not produced; an existing instance is left unchanged).
  ///
  /// Called on the object being mapped, as it is before this property is set.
  func validateValue(_ value: inout Any, forKeyPath keyPath: PartialKeyPath<Self>) throws -> Bool
}

/// The outcome of validating one value.
enum _Validation<Value> {
  case accept(Value)
  case reject(message: String)
  case fail(any Error)
}

/// A per-rule validator with the message its rejection reports.
struct Validator<Value>: Sendable {
  let message: String?
  let body: @Sendable (inout Value) throws -> Bool
}

/// An error thrown by a validator, kept as the validator's message.
struct ValidationFailure: Error {
  let message: String
}

/// Runs a rule's validators, then the model's hook, on `value` about to be set at `keyPath` of
/// `object`.
func _validate<Object, Value>(
  _ value: Value, validators: [Validator<Value>], object: Object,
  keyPath: AnyKeyPath
) -> _Validation<Value> {
  var value = value
  for validator in validators {
    do {
      guard try validator.body(&value) else {
        return .reject(message: validator.message ?? "rejected \(_describeForMessage(value))")
      }
    } catch {
      return .fail(error)
    }
  }
  guard let validating = object as? any KeyValueValidating else { return .accept(value) }
  var boxed: Any = value
  do {
    guard try _callModelHook(validating, &boxed, keyPath) else {
      return .reject(
        message: "rejected \(_describeForMessage(value)) (\(Object.self).validateValue)")
    }
  } catch {
    return .fail(error)
  }
  guard let replaced = boxed as? Value else {
    return .fail(
      ValidationFailure(
        message:
          "validateValue replaced the value with a \(type(of: boxed)), expected \(Value.self)"))
  }
  return .accept(replaced)
}

private func _callModelHook<Model: KeyValueValidating>(
  _ model: Model, _ value: inout Any, _ keyPath: AnyKeyPath
) throws -> Bool {
  guard let typed = keyPath as? PartialKeyPath<Model> else { return true }
  return try model.validateValue(&value, forKeyPath: typed)
}

/// A short description of a value for a rejection message: strings quoted, others as printed;
/// escaped and shortened like every value echoed in a message (``MessageText``).
func _describeForMessage(_ value: Any) -> String {
  if let text = value as? String { return _quotedForMessage(text) }
  return MessageText.value(String(describing: value))
}

extension MappingRun {
  /// Records a validation outcome that is not an acceptance, at `extra` below the current path.
  mutating func record<Value>(_ outcome: _Validation<Value>, at extra: [_PathComponent]) {
    switch outcome {
    case .accept: break
    case .reject(let message):
      note(.rejected(message: message), at: extra)
      traceEvent(.rejected(message: message), at: extra)
    case .fail(let error):
      // Past the limit the error is only counted: its description (user code) is not asked for.
      guard errors.keepsNext else { return errors.countOmitted(1) }
      if let failure = error as? ValidationFailure {
        return fail(.validationFailed(message: failure.message), at: extra)
      }
      errors.append(
        MappingError(
          path: _jsonPointer(path + extra), .validationFailed(message: "\(error)"),
          underlyingError: error))
    }
  }
}
