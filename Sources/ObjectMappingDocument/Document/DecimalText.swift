extension Node {
  /// A number kept exactly as its literal text: the payload of ``Node/decimal(_:)-enum.case``.
  ///
  /// The JSON reader keeps every number that is not an `Int64` (anything with a fraction or an
  /// exponent, and integers beyond `Int64`) as its text, so `Decimal` reads it exactly, a
  /// `Double` is its correctly rounded value, and writing the node gives back the same bytes.
  /// A text of at most 19 digits before its exponent (almost every number payloads contain:
  /// `12.50`, `-65.613616999999977`, `6.02214076e23`) is held in two words, without a `String`
  /// allocation; ``text`` spells it again, byte for byte. Any other text is stored as given,
  /// including text that is not a JSON number, which writers reject at its path.
  ///
  /// ```swift
  /// let node = try Node(jsonString: #"{"price": 12.50}"#)
  /// if case .decimal(let price)? = node["price"] {
  ///   price.text             // "12.50"
  ///   Double(price.text)     // 12.5
  /// }
  /// let built: Node = .decimal("1E+06")  // from a string literal, or .decimal(someString)
  /// ```
  ///
  /// Two values are equal when their texts are (`"1.0"` and `"1.00"` differ here; ``Node``'s
  /// own equality compares numbers by value).
  public struct DecimalText: Sendable, Hashable, CustomStringConvertible,
    ExpressibleByStringLiteral
  {
    /// How the text is held: packed (see `DecimalText+Packing.swift`) whenever it fits, so
    /// each text has one storage and equal storages mean equal texts, or as the `Float` it
    /// spells.
    package enum Storage: Sendable, Hashable {
      /// A JSON number of at most 19 digits, as its digits and the layout of its text.
      case packed(significand: UInt64, layout: UInt64)
      /// Any other text, as given.
      case text(String)
      /// A finite `Float`'s shortest text (`Float.description`), kept as the `Float`: what a
      /// `Float` property writes, so that Foundation values made from it (an object's
      /// `dictionary(_:)`) hold an `NSNumber` of the `Float`, which reads back `as? Float`.
      /// Equal to the same text held otherwise (see ``canonical``).
      case float(Float)
    }

    /// The storage with a ``Storage/float(_:)`` turned into its text's own storage: what
    /// equality and hashing compare, so that a `Float`'s text equals the same literal.
    package var canonical: Storage {
      guard case .float(let value) = storage else { return storage }
      let text = value.description
      return Self.packed(text) ?? .text(text)
    }

    /// A finite `Float`'s shortest text, kept as the `Float` (see ``Storage/float(_:)``).
    package init(float value: Float) {
      storage = .float(value)
    }

    /// Whether the texts are equal (a `Float`'s text and the same literal are).
    public static func == (lhs: DecimalText, rhs: DecimalText) -> Bool {
      lhs.canonical == rhs.canonical
    }

    /// Hashes the text.
    public func hash(into hasher: inout Hasher) {
      hasher.combine(canonical)
    }

    /// The text, packed or as given.
    package let storage: Storage

    package init(storage: Storage) {
      self.storage = storage
    }

    /// Keeps `text` as the number's exact text.
    ///
    /// Nothing is checked here, as a `String` payload was not: text that is not a JSON number
    /// (`"1,2"`, `"nan"`) is kept, and writing it throws at its path.
    ///
    /// - Parameter text: The number's literal text, for example `"12.50"` or `"1e-7"`.
    public init(_ text: String) {
      storage = Self.packed(text) ?? .text(text)
    }

    /// Keeps a string literal as the number's exact text (see ``init(_:)``).
    ///
    /// - Parameter value: The number's literal text.
    public init(stringLiteral value: String) {
      self.init(value)
    }

    /// The number's text, exactly as it was read or given.
    public var text: String {
      switch storage {
      case .packed(let significand, let layout):
        return Self.text(significand: significand, layout: layout)
      case .text(let text): return text
      case .float(let value): return value.description
      }
    }

    /// The number's text (``text``).
    public var description: String { text }

    /// Whether the text is a JSON number (RFC 8259 grammar); packed texts always are.
    package var isJSONNumber: Bool {
      switch storage {
      case .packed: return true
      case .text(let text): return _isJSONNumber(text)
      case .float(let value): return value.isFinite
      }
    }

    /// Whether the text has neither a fraction nor an exponent (a large integer).
    package var isIntegral: Bool {
      switch storage {
      case .packed(_, let layout): return Self.isIntegral(layout: layout)
      case .text(let text):
        return !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
      case .float: return false
      }
    }
  }

  /// A number kept as its exact literal `text`: ``decimal(_:)-enum.case`` with a ``DecimalText``.
  ///
  /// ```swift
  /// let price = "12.50"
  /// let node = Node.decimal(price)
  /// try node.jsonString()  // "12.50"
  /// ```
  ///
  /// - Parameter text: The number's literal text; see ``DecimalText/init(_:)``.
  /// - Returns: `.decimal(DecimalText(text))`.
  public static func decimal(_ text: String) -> Node {
    .decimal(DecimalText(text))
  }
}
