import struct Foundation.Data

extension Node {
  /// Reads a JSON text from UTF-8 bytes.
  ///
  /// The reader is strict RFC 8259 by default: it validates UTF-8, rejects trailing characters,
  /// leading zeros and escaped lone surrogates, and limits nesting to 512 levels. Integers that
  /// fit `Int64` become ``integer(_:)``; every other number keeps its literal text in
  /// ``decimal(_:)-enum.case``. Duplicate keys are kept in payload order; lookups find the first (or they
  /// are an error under ``JSONReadingOptions/rejectsDuplicateKeys``).
  ///
  /// ```swift
  /// let data = Data(#"{"id": 7, "price": 12.50}"#.utf8)
  /// let node = try Node(jsonData: data)
  /// node["id"]     // .integer(7)
  /// node["price"]  // .decimal("12.50")
  /// ```
  ///
  /// - Parameters:
  ///   - jsonData: One complete JSON text in UTF-8.
  ///   - options: What to accept beyond strict JSON, and the nesting limit.
  /// - Throws: `FormatError` with path `""`: a syntax error with its line, column and byte
  ///   offset, invalid UTF-8, or nesting deeper than `options.maximumDepth`.
  public init(jsonData: Data, options: JSONReadingOptions = .strict) throws {
    try self.init(_json: .data(jsonData), options: options)
  }

  /// Reads a JSON text from a string.
  ///
  /// ```swift
  /// let node = try Node(jsonString: #"[1, 2.5, "three", null]"#)
  /// // .array([.integer(1), .decimal("2.5"), .string("three"), .null])
  /// ```
  ///
  /// - Parameters:
  ///   - jsonString: One complete JSON text.
  ///   - options: What to accept beyond strict JSON, and the nesting limit.
  /// - Throws: `FormatError` with path `""`: a syntax error with its line, column and byte
  ///   offset, or nesting deeper than `options.maximumDepth`.
  public init(jsonString: String, options: JSONReadingOptions = .strict) throws {
    try self.init(_json: .string(jsonString), options: options)
  }

  /// Reads a JSON text from a collection of UTF-8 bytes (`[UInt8]`, `ArraySlice<UInt8>`, a
  /// string's `utf8` view).
  ///
  /// ```swift
  /// let bytes: [UInt8] = Array(#"{"ok": true}"#.utf8)
  /// let node = try Node(jsonBytes: bytes)  // .object([.init("ok", .bool(true))])
  /// ```
  ///
  /// - Parameters:
  ///   - jsonBytes: One complete JSON text in UTF-8.
  ///   - options: What to accept beyond strict JSON, and the nesting limit.
  /// - Throws: `FormatError` with path `""`: a syntax error with its line, column and byte
  ///   offset, invalid UTF-8, or nesting deeper than `options.maximumDepth`.
  public init(
    jsonBytes: some Collection<UInt8>, options: JSONReadingOptions = .strict
  ) throws {
    try self.init(_json: .bytes(Array(jsonBytes)), options: options)
  }

  /// Scans the text in place (never copied) and builds the node.
  private init(_json text: _JSONText, options: JSONReadingOptions) throws(FormatError) {
    self = try text.node(options: options)
  }
}
