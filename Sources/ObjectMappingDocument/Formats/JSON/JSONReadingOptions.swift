/// How the JSON reader treats input that strict RFC 8259 does not allow.
///
/// The defaults (``strict``) accept exactly RFC 8259 JSON: any top-level value, surrounded only
/// by space, tab, line feed and carriage return, in UTF-8 without a byte order mark, nested at
/// most 512 levels deep. ``lenient`` adds what hand-written files tend to contain: comments,
/// trailing commas and a leading byte order mark.
///
/// ```swift
/// let text = """
///   // service settings
///   {"retries": 3, "hosts": ["a", "b",],}
///   """
/// let settings = try Node(jsonString: text, options: .lenient)
/// settings["retries"]  // .integer(3)
/// // With the default options the same text is a syntax error:
/// // syntax error at line 1, column 1 (byte 0): expected a value, found '/'
/// ```
public struct JSONReadingOptions: Sendable, Equatable {
  /// What the reader does with a `\uXXXX` escape that is half of a UTF-16 surrogate pair
  /// without its other half (`"\uD800"`), which names no Unicode scalar.
  public enum LoneSurrogatePolicy: Sendable, Equatable {
    /// The escape is a syntax error that names it: `lone surrogate '\uD800' in a string`.
    case reject
    /// The escape reads as U+FFFD REPLACEMENT CHARACTER.
    case replace
  }

  /// The deepest nesting of arrays and objects accepted; deeper input throws
  /// ``FormatError/Kind/depthLimitExceeded(limit:location:)``.
  ///
  /// `[[1]]` is nested 2 levels deep; a scalar at the top level is 0 levels deep. The scanner
  /// does not recurse, so any limit is safe for scanning. Building, comparing, hashing and
  /// destroying a ``Node`` recurse once per level, so keep the limit in the thousands when the
  /// result is a `Node`: tens of thousands of levels can exhaust a thread's stack.
  public var maximumDepth: Int
  /// Whether `// line` and `/* block */` comments are allowed wherever whitespace is.
  public var allowsComments: Bool
  /// Whether a comma may follow the last element of an array or the last member of an object:
  /// `[1, 2,]`, `{"a": 1,}`.
  public var allowsTrailingCommas: Bool
  /// Whether a UTF-8 byte order mark (`EF BB BF`) at the very start of the input is skipped.
  ///
  /// RFC 8259 forbids writers to add one and lets readers ignore it; the strict reader rejects
  /// it so that what it accepts is exactly JSON.
  public var allowsByteOrderMark: Bool
  /// What happens to `\uXXXX` escapes of lone surrogates.
  public var loneSurrogates: LoneSurrogatePolicy
  /// Whether an object that names the same key twice is an error.
  ///
  /// RFC 8259 leaves duplicate keys to the reader. By default they are accepted and the
  /// **first** member wins everywhere: attributes, nested key paths, relationships,
  /// `[String: Value]` values, nested-key collections, ``Node`` lookups and
  /// ``Node/foundationValue`` (a ``Node`` keeps every member, in payload order). Foundation's
  /// `JSONSerialization` and `JSONDecoder` and JavaScript keep the *last* one instead, so a
  /// payload checked by one of them and mapped by this library could be read two ways; reject
  /// duplicates when payloads come from untrusted senders and another component reads them too.
  ///
  /// Keys compare by their decoded text (`"a"` and `"\u0061"` are the same key). The error
  /// names the object's path, the key and both places:
  ///
  /// ```swift
  /// let options = JSONReadingOptions(rejectsDuplicateKeys: true)
  /// try mapping.map(#"{"user": {"id": 1, "id": 2}}"#, options: options)
  /// // throws: /user: syntax error at line 1, column 20 (byte 19): duplicate key "id"
  /// //         (first at line 1, column 11)
  /// ```
  ///
  /// Cost: each key is compared with the keys before it in its object (byte by byte up to 16
  /// members, through a seeded hash table beyond): a decode of a key-heavy document takes more
  /// instructions, +36% for twitter.json and +6% for citm_catalog.json
  /// (Documentation/Performance.md, "Duplicate keys"). Off, it costs nothing measurable.
  public var rejectsDuplicateKeys: Bool

  /// Creates reading options; every parameter defaults to the strict behaviour.
  ///
  /// ```swift
  /// let deep = JSONReadingOptions(maximumDepth: 2_000)
  /// let node = try Node(jsonData: data, options: deep)
  /// ```
  ///
  /// - Parameters:
  ///   - maximumDepth: The deepest nesting of arrays and objects accepted (512).
  ///   - allowsComments: Whether `//` and `/* */` comments are allowed (`false`).
  ///   - allowsTrailingCommas: Whether `[1,]` and `{"a":1,}` are allowed (`false`).
  ///   - allowsByteOrderMark: Whether a leading UTF-8 byte order mark is skipped (`false`).
  ///   - loneSurrogates: What to do with escaped lone surrogates (``LoneSurrogatePolicy/reject``).
  ///   - rejectsDuplicateKeys: Whether an object naming a key twice is an error (`false`: the
  ///     first member wins).
  public init(
    maximumDepth: Int = 512,
    allowsComments: Bool = false,
    allowsTrailingCommas: Bool = false,
    allowsByteOrderMark: Bool = false,
    loneSurrogates: LoneSurrogatePolicy = .reject,
    rejectsDuplicateKeys: Bool = false
  ) {
    self.maximumDepth = maximumDepth
    self.allowsComments = allowsComments
    self.allowsTrailingCommas = allowsTrailingCommas
    self.allowsByteOrderMark = allowsByteOrderMark
    self.loneSurrogates = loneSurrogates
    self.rejectsDuplicateKeys = rejectsDuplicateKeys
  }

  /// RFC 8259 JSON and nothing else, nested at most 512 levels: the default.
  ///
  /// ```swift
  /// try Node(jsonString: "[1, 2]", options: .strict)  // .array([.integer(1), .integer(2)])
  /// try Node(jsonString: "[1, 2,]", options: .strict) // throws: expected a value, found ']'
  /// ```
  public static let strict = JSONReadingOptions()

  /// The dialect for hand-written files: comments, trailing commas and a leading byte order
  /// mark are allowed; everything else is as strict as ``strict``.
  ///
  /// ```swift
  /// try Node(jsonString: "[1, /* two */ 2,]", options: .lenient)
  /// // .array([.integer(1), .integer(2)])
  /// ```
  public static let lenient = JSONReadingOptions(
    allowsComments: true, allowsTrailingCommas: true, allowsByteOrderMark: true)
}
