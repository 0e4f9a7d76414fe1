/// How a ``Node`` is written as `application/x-www-form-urlencoded` text.
///
/// The defaults follow what Rails, PHP and most form parsers expect: scalar arrays as
/// `tags[]=a&tags[]=b`, `null` members left out, booleans as `true`/`false`.
///
/// ```swift
/// let node: Node = ["tags": ["a", "b"], "admin": true, "note": nil]
/// try node.formURLEncodedString()
/// // tags[]=a&tags[]=b&admin=true
/// try node.formURLEncodedString(
///   options: .init(arrays: .indexed, nulls: .emptyValue, booleans: .numeric))
/// // tags[0]=a&tags[1]=b&admin=1&note=
/// ```
public struct FormEncodingOptions: Sendable, Hashable {
  /// How arrays of scalars are written. Arrays holding objects or arrays are always indexed
  /// (`items[0][name]=x`), since the bracket form cannot say where one element ends.
  public enum ArrayEncoding: Sendable, Hashable {
    /// `tags[]=a&tags[]=b` (the default).
    case brackets
    /// `tags[0]=a&tags[1]=b`.
    case indexed
  }

  /// How `null` values are written.
  public enum NullEncoding: Sendable, Hashable {
    /// Left out entirely (the default).
    case omit
    /// Written with an empty value: `key=`. (It reads back as the empty string.)
    case emptyValue
  }

  /// How booleans are written.
  public enum BoolEncoding: Sendable, Hashable {
    /// `true` and `false` (the default).
    case literal
    /// `1` and `0`.
    case numeric
  }

  /// How arrays of scalars are written; ``ArrayEncoding/brackets`` by default.
  public var arrays: ArrayEncoding
  /// How `null` values are written; ``NullEncoding/omit`` by default.
  public var nulls: NullEncoding
  /// How booleans are written; ``BoolEncoding/literal`` by default.
  public var booleans: BoolEncoding

  /// Creates form encoding options.
  ///
  /// ```swift
  /// let options = FormEncodingOptions(booleans: .numeric)  // admin=1
  /// ```
  ///
  /// - Parameters:
  ///   - arrays: How arrays of scalars are written.
  ///   - nulls: How `null` values are written.
  ///   - booleans: How booleans are written.
  public init(
    arrays: ArrayEncoding = .brackets, nulls: NullEncoding = .omit,
    booleans: BoolEncoding = .literal
  ) {
    self.arrays = arrays
    self.nulls = nulls
    self.booleans = booleans
  }
}
