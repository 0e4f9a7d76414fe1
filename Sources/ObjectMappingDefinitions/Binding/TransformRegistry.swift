import Foundation
import ObjectMapping

/// The transforms definition files name: AppCoreKit's `@transformClass`/`@transformSelector`
/// and CSMapper's `mapper` become names in this registry, which the app fills.
///
/// ```swift
/// var transforms = TransformRegistry.standard
/// // "coordinates": {"@keyPath": "coordinates", "@transformClass": "MyTransformers",
/// //                 "@transformSelector": "coordinate2DFromFloatArray:error:"}
/// transforms.register(
///   "coordinate2DFromFloatArray:error:",
///   ValueTransform<[Double], Coordinate>(
///     forward: { pair in
///       guard pair.count == 2 else {
///         throw ConversionFailure.invalidValue(expected: "[latitude, longitude]", raw: "\(pair)", reason: nil)
///       }
///       return Coordinate(latitude: pair[0], longitude: pair[1])
///     },
///     reverse: { [$0.latitude, $0.longitude] }))
/// ```
///
/// A file's transform is looked up as `Class.selector` first (`MyTransformers.coordinate2DFromFloatArray:error:`),
/// then as the selector alone, so one registration serves both spellings. A transform's output
/// type must be the property's type (or the property's `Optional` of it): anything else is a
/// ``DefinitionError/Kind/typeMismatch`` when the file is loaded. Two-way transforms keep the
/// loaded mapping two-way; a `decodeOnly` one is left out of the inverse, which says so.
///
/// Built in (``TransformRegistry/standard``):
///
/// | name | converts | user data |
/// |---|---|---|
/// | `date` | `String` ⇄ `Date` by a pattern (`"dd/MM/yyyy"`), ISO 8601 without one | the pattern, or `{"format": …}` |
/// | `iso8601` | `String` ⇄ `Date` | |
/// | `epochSeconds`, `epochMilliseconds` | `Double` ⇄ `Date` | |
/// | `url` | `String` ⇄ `URL` | |
/// | `numericString` | `String` ⇄ `Double` | |
/// | `integerString` | `String` ⇄ `Int` | |
/// | `boolWords` | `String` ⇄ `Bool` | `{"true": "yes", "false": "no"}` |
/// | `separated` | `String` ⇄ `[String]` | the separator (`","` when left out) |
/// | `CSJoinMapper`, `join` | several values ⇄ `String`, joined by `":"` | the separator |
/// | `CSAPIBoolMapper`, `bool` | `on`/`off`, `1`/`0`, `true`/`false`, `yes`/`no` (any case), numbers, booleans ⇄ `Bool` | |
public struct TransformRegistry: Sendable {
  var factories: [String: TransformFactory] = [:]

  /// An empty registry.
  public init() {}

  /// The names the registry knows, sorted.
  public var names: [String] { factories.keys.sorted() }

  /// Registers a two-way transform under `name`.
  public mutating func register<Wire: MappableValue & Sendable, Value>(
    _ name: String, _ transform: ValueTransform<Wire, Value>
  ) {
    factories[name] = TransformFactory(takesUserData: false) { _ in
      SingleTransform(name: name, transform: transform)
    }
  }

  /// Registers a transform made from the user data the file passes (AppCoreKit's
  /// `@transformUserData`): a parameterised transform such as
  /// `{"longitude": "long", "latitude": "lat"}`. Throw to reject user data; the error is
  /// reported at the user data's place in the file.
  public mutating func register<Wire: MappableValue & Sendable, Value>(
    _ name: String,
    userData make: @escaping @Sendable (Node) throws -> ValueTransform<Wire, Value>
  ) {
    factories[name] = TransformFactory(takesUserData: true) { userData in
      SingleTransform(name: name, transform: try make(userData))
    }
  }

  /// Registers a one-way conversion: rules using it map, and the inverse leaves them out and
  /// says so.
  public mutating func register<Wire: MappableValue & Sendable, Value>(
    _ name: String, decodeOnly convert: @escaping @Sendable (Wire) throws -> Value
  ) {
    factories[name] = TransformFactory(takesUserData: false) { _ in
      SingleTransform(name: name, transform: ValueTransform(decodeOnly: convert))
    }
  }

  /// Registers a multi-value transform (CSMapper's multi-value mappers): it receives the values
  /// of a property's keys, in order, and its reverse splits the property's value back. A
  /// decode-only transform (`ValueTransform(decodeOnly:)`, a mapper made only to display
  /// values) maps, and the inverse leaves its rules out and says so.
  ///
  /// ```swift
  /// // "metaDisplayString": {"mapper": "APIMetaStringMapper",
  /// //                       "key": [{"key": "person_name"}, {"key": "person_age"}]}
  /// transforms.register(
  ///   "APIMetaStringMapper",
  ///   values: ValueTransform<[String], String>(decodeOnly: { $0.joined(separator: " / ") }))
  /// ```
  public mutating func register<Wire: MappableValue & Sendable, Value>(
    _ name: String, values transform: ValueTransform<[Wire], Value>
  ) {
    factories[name] = TransformFactory(takesUserData: false) { _ in
      MultiTransform(name: name, transform: transform)
    }
  }

  /// Registers a multi-value transform made from the file's user data.
  public mutating func register<Wire: MappableValue & Sendable, Value>(
    _ name: String, values make: @escaping @Sendable (Node) throws -> ValueTransform<[Wire], Value>
  ) {
    factories[name] = TransformFactory(takesUserData: true) { userData in
      MultiTransform(name: name, transform: try make(userData))
    }
  }

  /// The registry with the built-in transforms (see the table above).
  public static var standard: TransformRegistry {
    var registry = TransformRegistry()
    registry.register("date", userData: _dateTransform)
    registry.register("iso8601", ValueTransform<String, Date>.iso8601)
    registry.register("epochSeconds", ValueTransform<Double, Date>.epochSeconds)
    registry.register("epochMilliseconds", ValueTransform<Double, Date>.epochMilliseconds)
    registry.register(
      "url",
      ValueTransform<String, URL>(
        forward: { text in
          guard let url = URL(string: text) else {
            throw ConversionFailure.invalidValue(expected: "a URL", raw: "\"\(text)\"", reason: nil)
          }
          return url
        },
        reverse: { $0.absoluteString }))
    registry.register("numericString", ValueTransform<String, Double>.numericString)
    registry.register("integerString", ValueTransform<String, Int>.numericString)
    registry.register("boolWords", userData: _boolWordsTransform)
    registry.register("separated", userData: _separatedTransform)
    registry.register("CSJoinMapper", values: _joinTransform)
    registry.register("join", values: _joinTransform)
    registry.register("CSAPIBoolMapper", _apiBool)
    registry.register("bool", _apiBool)
    return registry
  }

  /// The transform a file names, made with its user data.
  func resolve(
    className: String?, selector: String, userData: DefinitionValue?,
    location: DefinitionLocation
  ) throws(DefinitionError) -> ResolvedTransform {
    let qualified = className.map { "\($0).\(selector)" }
    guard
      let (name, factory) = [qualified, selector].lazy.compactMap({ name in
        name.flatMap { key in self.factories[key].map { (key, $0) } }
      }).first
    else {
      let spelled = qualified ?? selector
      throw DefinitionError(
        .unknownTransform, at: location,
        "no transform named \"\(spelled)\" is registered; register it with "
          + "TransformRegistry.register(\"\(selector)\", …) (registered: "
          + "\(names.joined(separator: ", ")))")
    }
    if userData != nil, !factory.takesUserData {
      throw DefinitionError(
        .invalidValue, at: userData?.location ?? location,
        "the transform \"\(name)\" takes no user data; register it with "
          + "register(_:userData:) to receive it")
    }
    do {
      let box = try factory.make(userData?.node ?? .null)
      // Named as the file spells it, in messages: `MyTransformers.coordinate2DFromFloatArray:error:`.
      return ResolvedTransform(name: qualified ?? selector, location: location, box: box)
    } catch {
      throw DefinitionError(
        .invalidValue, at: userData?.location ?? location,
        "the transform \"\(name)\" rejects its user data: \(error)")
    }
  }
}

/// A registered transform, not yet given its user data.
struct TransformFactory: Sendable {
  let takesUserData: Bool
  let make: @Sendable (Node) throws -> any AnyTransform
}

/// A transform a file named, ready to make rules.
struct ResolvedTransform: Sendable {
  let name: String
  let location: DefinitionLocation
  let box: any AnyTransform
}

/// A transform of some payload type into some property type, which makes the attribute rule
/// once the property's type is known, checking that the types meet.
protocol AnyTransform: Sendable {
  func attribute<Object, Value: Sendable>(
    _ request: RuleRequest, _ property: WritableKeyPath<Object, Value> & Sendable
  ) throws(DefinitionError) -> Attribute<Object, Value>
}

/// `transform` seen as producing `Value`: itself when `Value` is its output, a wrapper when
/// `Value` is its output's `Optional` (one-way when `transform` is), else `nil`.
private func _adapted<Wire, Output, Value>(
  _ transform: ValueTransform<Wire, Output>, to: Value.Type
) -> ValueTransform<Wire, Value>? {
  if let same = transform as? ValueTransform<Wire, Value> { return same }
  guard ObjectIdentifier(Value.self) == ObjectIdentifier(Output?.self) else { return nil }
  let forward: @Sendable (Wire) throws -> Value = { wire in
    guard let value = try transform.forward(wire) as? Value else {
      throw ConversionFailure.notRepresentable("\(wire)", reason: "the transform's result")
    }
    return value
  }
  guard transform.isReversible else { return ValueTransform(decodeOnly: forward) }
  return ValueTransform<Wire, Value>(
    forward: forward,
    reverse: { value in
      guard let output = value as? Output else {
        throw ConversionFailure.notRepresentable("nil", reason: "the transform needs a value")
      }
      return try transform.reverse(output)
    })
}

/// `transform` seen as producing `Value`, its failures naming it and the property (see
/// ``NamedTransformFailure``), or the definition error saying it produces another type.
private func _adapted<Wire, Output, Value>(
  _ transform: ValueTransform<Wire, Output>, to: Value.Type, transform name: String,
  _ request: RuleRequest
) throws(DefinitionError) -> ValueTransform<Wire, Value> {
  guard let adapted = _adapted(transform, to: Value.self) else {
    throw request.error(
      .typeMismatch,
      "the transform \"\(name)\" produces \(_article("\(Output.self)")), but "
        + "\"\(request.propertyName)\" of \(request.ownerName) is \(_article("\(_unwrapped(Value.self))"))",
      at: request.transform?.location)
  }
  // Named as the file spells it (`MyTransformers.coordinate2DFromFloatArray:error:`).
  let spelled = request.transform?.name ?? name
  return _named(
    adapted, "\(spelled) for property \(request.propertyName) of \(request.ownerName)")
}

/// `transform` whose failures (both ways) are ``NamedTransformFailure``s labelled `label`; one-way
/// when `transform` is.
private func _named<Wire, Output>(_ transform: ValueTransform<Wire, Output>, _ label: String)
  -> ValueTransform<Wire, Output>
{
  let forward: @Sendable (Wire) throws -> Output = { wire in
    do {
      return try transform.forward(wire)
    } catch {
      throw NamedTransformFailure(label: label, underlying: error)
    }
  }
  guard transform.isReversible else { return ValueTransform(decodeOnly: forward) }
  return ValueTransform(
    forward: forward,
    reverse: { value in
      do {
        return try transform.reverse(value)
      } catch {
        throw NamedTransformFailure(label: label, underlying: error)
      }
    })
}

/// A failure of a transform a definition file named: its text names the transform as the file
/// spells it and the property, so that an error whose path says nothing (a `@self` rule reads
/// the whole object) still says which rule failed.
///
/// ```
/// /coordinates: the transform failed on [1]: MyTransformers.coordinate2DFromFloatArray:error:
/// for property coordinates of TweetModel: cannot convert 1 numbers to two numbers
/// ```
struct NamedTransformFailure: Error, CustomStringConvertible {
  let label: String
  let underlying: any Error

  var description: String { "\(label): \(_reason(underlying))" }
}

/// What went wrong, in words: a ``ConversionFailure`` as the library's own errors word it.
func _reason(_ error: any Error) -> String {
  switch error {
  case let failure as ConversionFailure:
    switch failure {
    case .typeMismatch(let expected, let found): return "expected \(expected), found \(found)"
    case .invalidValue(let expected, let raw, let reason):
      return "cannot convert \(raw) to \(expected)" + (reason.map { ": \($0)" } ?? "")
    case .notRepresentable(let value, let reason): return "\(value): \(reason)"
    }
  default:
    return "\(error)"
  }
}

/// A one-value transform.
struct SingleTransform<Wire: MappableValue & Sendable, Output>: AnyTransform {
  let name: String
  let transform: ValueTransform<Wire, Output>

  func attribute<Object, Value: Sendable>(
    _ request: RuleRequest, _ property: WritableKeyPath<Object, Value> & Sendable
  ) throws(DefinitionError) -> Attribute<Object, Value> {
    let adapted = try _adapted(transform, to: Value.self, transform: name, request)
    if let compound = request.compoundSources {
      throw request.error(
        .invalidValue,
        "\"\(request.propertyName)\" reads \(compound.count) keys, but the transform \"\(name)\" "
          + "takes one value; register a multi-value transform (register(_:values:))")
    }
    guard let written = request.defaultValue else {
      return Attribute(request.source, property, adapted)
    }
    let wire = try _convertDefault(written, to: Wire.self, request)
    let value: Value
    do {
      value = try adapted.forward(wire)
    } catch {
      throw request.error(
        .typeMismatch,
        "the default for \"\(request.propertyName)\" does not convert through \"\(name)\": "
          + _reason((error as? NamedTransformFailure)?.underlying ?? error), at: written.location)
    }
    return Attribute(request.source, property, adapted, default: value)
  }
}

/// A multi-value transform.
struct MultiTransform<Wire: MappableValue & Sendable, Output>: AnyTransform {
  let name: String
  let transform: ValueTransform<[Wire], Output>

  func attribute<Object, Value: Sendable>(
    _ request: RuleRequest, _ property: WritableKeyPath<Object, Value> & Sendable
  ) throws(DefinitionError) -> Attribute<Object, Value> {
    let adapted = try _adapted(transform, to: Value.self, transform: name, request)
    if let written = request.defaultValue {
      throw request.error(
        .invalidValue,
        "a multi-value transform (\"\(name)\") cannot take a default; make the property "
          + "optional instead", at: written.location)
    }
    let sources = request.compoundSources ?? [request.source.description]
    // CSMapper's files make nothing required: a key that is absent or null while another is
    // present gives its entry's default, or is left out (CSMapper skipped it).
    var fallbacks: [Wire?] = []
    for written in request.compoundDefaults {
      fallbacks.append(
        try written.map { written throws(DefinitionError) in
          try _convertDefault(written, to: Wire.self, request)
        })
    }
    return Attribute(sources: sources, property, adapted, fallbacks: fallbacks)
  }
}

// MARK: Built-in transforms

@Sendable private func _dateTransform(_ userData: Node) throws -> ValueTransform<String, Date> {
  let format: String?
  switch userData {
  case .null: format = nil
  case .string(let text): format = text
  default:
    guard let text = userData["format"]?.stringValue else {
      throw ConversionFailure.invalidValue(
        expected: "a date pattern or {\"format\": …}", raw: userData.kindDescription, reason: nil)
    }
    format = text
  }
  // A pattern that can match no date is refused while loading, at the user data, not at every
  // value mapped.
  if let format, let problem = DateFormat.patternProblem(format) {
    throw _PatternProblem(description: problem)
  }
  return format.map { ValueTransform.date(format: $0) } ?? .iso8601
}

@Sendable private func _boolWordsTransform(_ userData: Node) throws -> ValueTransform<String, Bool>
{
  guard let trueWord = userData["true"]?.stringValue, let falseWord = userData["false"]?.stringValue
  else {
    throw ConversionFailure.invalidValue(
      expected: "{\"true\": …, \"false\": …}", raw: userData.kindDescription, reason: nil)
  }
  return .boolWords(true: trueWord, false: falseWord)
}

@Sendable private func _separatedTransform(_ userData: Node) throws -> ValueTransform<
  String, [String]
> {
  let separator = userData.stringValue ?? ","
  guard separator.count == 1, let character = separator.first else {
    throw ConversionFailure.invalidValue(
      expected: "a one-character separator", raw: "\"\(separator)\"", reason: nil)
  }
  return .separated(by: character)
}

@Sendable private func _joinTransform(_ userData: Node) throws -> ValueTransform<[String], String> {
  .joined(userData.stringValue ?? ":")
}

/// CSMapper's `CSAPIBoolMapper`: the many ways APIs write a boolean.
private let _apiBool = ValueTransform<Node, Bool>(
  forward: { node in
    switch node {
    case .bool(let value): return value
    case .integer(let value): return value != 0
    case .double(let value): return value != 0
    case .decimal(let number): return (Double(number.text) ?? 0) != 0
    case .string(let text):
      switch text.trimmingCharacters(in: .whitespaces).lowercased() {
      case "on", "1", "true", "yes", "y", "t": return true
      case "off", "0", "false", "no", "n", "f", "": return false
      default:
        throw ConversionFailure.invalidValue(
          expected: "a boolean word", raw: "\"\(text)\"", reason: nil)
      }
    default:
      throw ConversionFailure.typeMismatch(expected: "a boolean", found: node.kindDescription)
    }
  },
  reverse: { .bool($0) })

/// A date pattern that can match no date, in the words of `DateFormat.patternProblem(_:)`.
private struct _PatternProblem: Error, CustomStringConvertible {
  let description: String
}
