/// How a ``Node`` is written as `application/x-www-form-urlencoded` text.
///
/// The defaults follow what Rails, PHP and most form parsers expect: scalar arrays as
/// `tags[]=a&tags[]=b`, `null` members left out, booleans as `true`/`false`, spaces as `+`.
///
/// ```swift
/// let node: Node = ["tags": ["a", "b"], "admin": true, "note": nil]
/// try node.formURLEncodedString()
/// // tags[]=a&tags[]=b&admin=true
/// try node.formURLEncodedString(
///   options: .init(arrays: .indexed, nulls: .emptyValue, booleans: .numeric))
/// // tags[0]=a&tags[1]=b&admin=1&note=
/// ```
///
/// ``restKit`` writes bodies as RestKit (through AFNetworking) did, for servers built for it:
///
/// ```swift
/// let old: Node = ["name": "Ann Lee", "note": nil, "r": [[["item1", "item2"]]], "admin": true]
/// try old.formURLEncodedString(options: .restKit)
/// // admin=1&name=Ann%20Lee&note&r[][][]=item1&r[][][]=item2
/// ```
public struct FormEncodingOptions: Sendable, Hashable {
  /// How arrays are written.
  public enum ArrayEncoding: Sendable, Hashable {
    /// Arrays of scalars as `tags[]=a&tags[]=b` (the default); arrays holding objects or
    /// arrays indexed (`items[0][name]=x`), since the bracket form cannot say where one
    /// element ends.
    case brackets
    /// Every array indexed: `tags[0]=a&tags[1]=b`.
    case indexed
    /// Every array with empty brackets, whatever it holds: `tags[]=a`, `items[][name]=x`,
    /// `r[][][]=item1` for arrays nested in arrays (RestKit's and AFNetworking's form). A reader
    /// cannot tell where an element of an array of objects ends, nor rebuild nested arrays:
    /// use it only for a server that expects it.
    case bracketsAtEveryLevel
  }

  /// How `null` values are written.
  public enum NullEncoding: Sendable, Hashable {
    /// Left out entirely (the default).
    case omit
    /// Written with an empty value: `key=`. (It reads back as the empty string.)
    case emptyValue
    /// Written as the bare name, without `=`: `key` (RestKit's form). It reads back as the
    /// empty string.
    case bareKey
  }

  /// How names and values are percent-encoded.
  public enum Escaping: Sendable, Hashable {
    /// As WHATWG's `application/x-www-form-urlencoded` serializer (and HTML forms) do: space
    /// as `+`; ASCII letters, digits and `*-._` as is; every other UTF-8 byte as `%XX` (the
    /// default).
    case whatwg
    /// As RFC 3986 unreserved characters allow, RestKit's form: space as `%20`; ASCII
    /// letters, digits and `-._~` as is; every other UTF-8 byte (`*`, `+`, `!` too) as `%XX`.
    case rfc3986
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
  /// How names and values are percent-encoded; ``Escaping/whatwg`` by default.
  public var escaping: Escaping
  /// Whether the members of every object are written sorted by name (RestKit's form, through
  /// AFNetworking); `false` by default: in the node's member order (the mapping's order).
  public var sortsKeys: Bool

  /// Creates form encoding options.
  ///
  /// ```swift
  /// let options = FormEncodingOptions(booleans: .numeric)  // admin=1
  /// ```
  ///
  /// - Parameters:
  ///   - arrays: How arrays are written.
  ///   - nulls: How `null` values are written.
  ///   - booleans: How booleans are written.
  ///   - escaping: How names and values are percent-encoded.
  ///   - sortsKeys: Whether every object's members are written sorted by name.
  public init(
    arrays: ArrayEncoding = .brackets, nulls: NullEncoding = .omit,
    booleans: BoolEncoding = .literal, escaping: Escaping = .whatwg, sortsKeys: Bool = false
  ) {
    self.arrays = arrays
    self.nulls = nulls
    self.booleans = booleans
    self.escaping = escaping
    self.sortsKeys = sortsKeys
  }

  /// Bodies as RestKit wrote them (through AFNetworking's serializer): spaces as `%20` and
  /// RFC 3986 escaping (``Escaping/rfc3986``), `null` as the bare name
  /// (``NullEncoding/bareKey``), every array with empty brackets, nested arrays as
  /// `r[][][]=item1&r[][][]=item2` (``ArrayEncoding/bracketsAtEveryLevel``), booleans as `1`
  /// and `0` (``BoolEncoding/numeric``), every object's members sorted by name, at every
  /// level (``sortsKeys``).
  public static let restKit = FormEncodingOptions(
    arrays: .bracketsAtEveryLevel, nulls: .bareKey, booleans: .numeric, escaping: .rfc3986,
    sortsKeys: true)
}
