/// A leaf type that mappings can read from a payload value and write back.
///
/// Built in: every integer type, `Double`, `Float`, `Bool`, `String`, `Decimal`, `Date`, `URL`,
/// `UUID`, `Data` (base64), ``Node`` (pass-through), `Optional`, `Array`, `Set` and
/// `Dictionary<String, V>` of mappable values. A `RawRepresentable` enum whose raw value is
/// mappable conforms with an empty extension:
///
/// ```swift
/// enum Status: String { case draft, published }
/// extension Status: MappableValue {}
///
/// let mapping = Mapping(Article.init) { Attribute("status", \.status) }
/// ```
///
/// To add a leaf type of your own, read it from a ``PayloadValue`` (which already applies the
/// mapping's coercion rules when you ask it for a `String`, a number or a `Bool`) and write it
/// back as a ``Node``:
///
/// ```swift
/// struct Cents: MappableValue {
///   var amount: Int
///   init(payload: PayloadValue) throws { amount = try payload.decode(Int.self) }
///   func payloadNode() throws -> Node { .integer(Int64(amount)) }
/// }
/// ```
///
/// Serialization writes the built-in types straight into the output bytes; a type of your own
/// is written as its ``payloadNode()``.
public protocol MappableValue: SendableMetatype {
  /// Reads a value from a payload value.
  ///
  /// - Parameter payload: The value in the payload, never absent. It may be `null`; only
  ///   optional types accept that.
  /// - Throws: ``ConversionFailure`` when the payload holds something this type cannot be made
  ///   from. The mapping adds the path.
  init(payload: PayloadValue) throws

  /// The value as a document node, for serialization.
  ///
  /// - Throws: ``ConversionFailure/notRepresentable(_:reason:)`` when the value cannot be written.
  func payloadNode() throws -> Node

  /// How error messages name this type: `"an integer"`, `"a date"`.
  static var expectedDescription: String { get }

  /// The value `null` stands for, for types that accept it (`Optional`'s `nil`, ``Node/null``);
  /// `nil` for every other type, which makes a `null` payload an error.
  static var nullValue: Self? { get }

  /// The value `null` becomes under ``NullIntoNonOptional/zero`` (`0`, `false`, `""`, an empty
  /// collection); `nil` for types without an obvious zero (a `Date`, a `URL`), for which `null`
  /// stays an error.
  static var zeroValue: Self? { get }
}

extension MappableValue {
  /// `"a value of type T"` unless a type says better.
  public static var expectedDescription: String { "a value of type \(Self.self)" }
  /// `nil`: only types such as `Optional` accept `null`.
  public static var nullValue: Self? { nil }
  /// `nil`: no zero unless the type has one.
  public static var zeroValue: Self? { nil }
}

extension MappableValue where Self: AdditiveArithmetic {
  /// `0`.
  public static var zeroValue: Self? { .zero }
}

extension MappableValue where Self: RangeReplaceableCollection {
  /// Empty (`""`, `[]`, empty `Data`).
  public static var zeroValue: Self? { Self() }
}

extension MappableValue where Self: SetAlgebra {
  /// Empty.
  public static var zeroValue: Self? { Self() }
}

/// Why a payload value could not be converted, or a value could not be serialized.
///
/// Thrown by ``MappableValue`` conformances and ``ValueTransform`` closures; the mapping turns it
/// into a ``MappingError`` with the path.
public enum ConversionFailure: Error, Sendable, Equatable {
  /// The payload value has the wrong shape (`expected a number, found a string`).
  case typeMismatch(expected: String, found: String)
  /// The payload value has the right shape but not a valid value (`"12abc"` for an integer).
  case invalidValue(expected: String, raw: String, reason: String?)
  /// A model value cannot be written (serialization).
  case notRepresentable(String, reason: String)
}

/// How forgiving conversions are (RestKit's type transformations, made honest).
public enum Coercion: Sendable, Equatable {
  /// Number-looking strings convert to numbers when the whole string parses exactly, numbers to
  /// strings, the documented words and `0`/`1` to `Bool`, single values into collections. Garbage
  /// is still an error, never 0.
  case lenient
  /// Only values of the expected JSON type are accepted (a number for an `Int`, a string for a
  /// `String`); a single value is not wrapped into a collection.
  case strict
}
