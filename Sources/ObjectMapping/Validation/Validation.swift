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
enum ValidationOutcome<Value> {
  case accept(Value)
  case reject(message: String)
  case fail(any Error)
}

/// A per-rule validator with the message its rejection reports.
struct Validator<Value>: Sendable {
  let message: String?
  let body: @Sendable (inout Value) throws -> Bool
}

extension Validator {
  /// The same validator for an optional of its type: `nil` passes (there is nothing to check),
  /// a value is checked and written back wrapped.
  var lifted: Validator<Value?> {
    let body = body
    return Validator<Value?>(message: message) { value in
      guard var wrapped = value else { return true }
      defer { value = wrapped }
      return try body(&wrapped)
    }
  }
}

/// A relationship's validator (``Relationship/validate(_:_:)``) kept with the type it takes.
///
/// ``Relationship`` is not generic over its property's type, so it stores its validators this
/// way; the relationship's step, which is, takes them back as `Validator`s of its property's
/// type once, when its plan is compiled (``typed(as:)``), so validating a value casts nothing.
/// A validator takes the property's type or, for an optional property, the type it wraps
/// (``validates(_:)``); any other type is a definition problem of the relationship.
struct TypedValidator: Sendable {
  /// The validator as given (a `Validator<V>`), and lifted to `V?` and `V??` for an optional
  /// property and for the optional slot a derived mapping's override reads into.
  private let exact: any Sendable
  private let optional: any Sendable
  private let doubleOptional: any Sendable
  private let takes: ObjectIdentifier
  private let takesOptional: ObjectIdentifier
  /// The type the validator takes, as messages print it.
  let valueTypeName: String

  init<Value>(_ validator: Validator<Value>) {
    exact = validator
    optional = validator.lifted
    doubleOptional = validator.lifted.lifted
    takes = ObjectIdentifier(Value.self)
    takesOptional = ObjectIdentifier(Value?.self)
    valueTypeName = "\(Value.self)"
  }

  /// Whether the validator can check a property of type `type`: its own type or an optional of
  /// it.
  func validates(_ type: Any.Type) -> Bool {
    let property = ObjectIdentifier(type)
    return property == takes || property == takesOptional
  }

  /// The validator as a `Validator<Value>`: the one given, or it lifted to the optional `Value`
  /// (once or twice); `nil` when it takes another type.
  func typed<Value>(as _: Value.Type) -> Validator<Value>? {
    exact as? Validator<Value> ?? optional as? Validator<Value>
      ?? doubleOptional as? Validator<Value>
  }
}

/// An error thrown by a validator, kept as the validator's message.
struct ValidationFailure: Error {
  let message: String
}

/// Runs a rule's validators, then the model's hook, on `value` about to be set at `keyPath` of
/// `object`.
func runValidators<Object, Value>(
  _ value: Value, validators: [Validator<Value>], object: Object,
  keyPath: AnyKeyPath
) -> ValidationOutcome<Value> {
  var value = value
  for validator in validators {
    do {
      guard try validator.body(&value) else {
        return .reject(message: validator.message ?? "rejected \(describeForMessage(value))")
      }
    } catch {
      return .fail(error)
    }
  }
  guard let validating = object as? any KeyValueValidating else { return .accept(value) }
  var boxed: Any = value
  do {
    guard try callModelHook(validating, &boxed, keyPath) else {
      return .reject(
        message: "rejected \(describeForMessage(value)) (\(Object.self).validateValue)")
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

private func callModelHook<Model: KeyValueValidating>(
  _ model: Model, _ value: inout Any, _ keyPath: AnyKeyPath
) throws -> Bool {
  guard let typed = keyPath as? PartialKeyPath<Model> else { return true }
  return try model.validateValue(&value, forKeyPath: typed)
}

/// A short description of a value for a rejection message: strings quoted, others as printed;
/// escaped and shortened like every value echoed in a message (``MessageText``).
func describeForMessage(_ value: Any) -> String {
  if let text = value as? String { return quotedForMessage(text) }
  return MessageText.value(String(describing: value))
}

extension MappingRun {
  /// Records a validation outcome that is not an acceptance, at `extra` below the current path.
  mutating func record<Value>(_ outcome: ValidationOutcome<Value>, at extra: [_PathComponent]) {
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
