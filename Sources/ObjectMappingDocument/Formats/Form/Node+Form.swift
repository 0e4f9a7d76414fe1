import Foundation

extension Node {
  /// Reads `application/x-www-form-urlencoded` text into an object node.
  ///
  /// The text is split on `&` (empty pieces are skipped) and each piece on its first `=` (a
  /// piece without `=` has the empty value); `+` is a space and `%XX` a byte, and the decoded
  /// bytes must be UTF-8. Literal and percent-encoded brackets (`%5B`, `%5D`, as browsers send
  /// them) are the same. Names build the nesting:
  /// - `user[name]=Ann` → `{"user": {"name": "Ann"}}`;
  /// - `tags[]=a&tags[]=b` → `{"tags": ["a", "b"]}` (each `[]` appends a new element, so
  ///   `items[][a]=x&items[][b]=y` makes two objects: index arrays of objects);
  /// - `items[0][a]=x&items[1][a]=y` → `{"items": [{"a": "x"}, {"a": "y"}]}`; indexes are
  ///   canonical decimals that count up from 0 (an index may be repeated to add to an element,
  ///   but not skipped);
  /// - a **repeated plain key collects its values into an array**, in order: `a=1&a=2` →
  ///   `{"a": ["1", "2"]}` (as sent by clients that repeat a name for each element); a plain
  ///   value followed by `a[]=…` becomes that array's first element;
  /// - members keep the order in which their names first appear.
  ///
  /// Form data has no types: **every value is a ``string(_:)``**, and mappings coerce them
  /// (`"42"` into an `Int`, `"true"` or `"1"` into a `Bool`). Nesting deeper than 512 bracket
  /// levels is an error.
  ///
  /// ```swift
  /// let node = try Node(formURLEncoded: "user[name]=Ann+Lee&tags[]=a&tags[]=b")
  /// // ["user": ["name": "Ann Lee"], "tags": ["a", "b"]]
  /// try node.formURLEncodedString()   // user[name]=Ann+Lee&tags[]=a&tags[]=b
  /// ```
  ///
  /// - Parameter text: The form text (a request body or URL query, without the `?`).
  /// - Throws: ``FormatError``, with a location on line 1 whose column and byte offset point
  ///   at the problem: `.syntax` for malformed percent-encoding (`%zz`), malformed brackets,
  ///   conflicting shapes (`a=1&a[b]=2`) and skipped indexes; `.invalidUTF8` when decoded
  ///   bytes are not UTF-8; `.depthLimitExceeded` beyond 512 levels.
  public init(formURLEncoded text: String) throws {
    self = try _FormURLDecoder.decode(_utf8Array(text))
  }

  /// Reads `application/x-www-form-urlencoded` bytes into an object node; see
  /// ``init(formURLEncoded:)-(String)``.
  ///
  /// ```swift
  /// let node = try Node(formURLEncoded: Data("a=1&b=x%2Fy".utf8))  // ["a": "1", "b": "x/y"]
  /// ```
  ///
  /// - Parameter data: The form bytes.
  /// - Throws: ``FormatError`` as ``init(formURLEncoded:)-(String)`` does.
  public init(formURLEncoded data: Data) throws {
    self = try _FormURLDecoder.decode([UInt8](data))
  }

  /// Writes an object node as `application/x-www-form-urlencoded` text.
  ///
  /// Rules:
  /// - members become `name=value` pairs joined by `&`, in member order; nested objects extend
  ///   the name: `user[name]=Ann`;
  /// - arrays of scalars are `tags[]=a&tags[]=b` (``FormEncodingOptions/ArrayEncoding/indexed``
  ///   writes `tags[0]=a`); arrays holding objects or arrays are indexed:
  ///   `items[0][a]=x&items[1][a]=y` (unless ``FormEncodingOptions/ArrayEncoding/bracketsAtEveryLevel``
  ///   asks for RestKit's `items[][a]=x`);
  /// - `null` is left out (``FormEncodingOptions/NullEncoding/emptyValue`` writes `key=`,
  ///   ``FormEncodingOptions/NullEncoding/bareKey`` writes `key`);
  ///   booleans are `true`/`false` (``FormEncodingOptions/BoolEncoding/numeric``: `1`/`0`);
  ///   numbers are their JSON text (doubles in shortest form, decimals verbatim);
  /// - empty arrays and objects are left out (form data cannot express them); indexes count
  ///   only the elements that wrote something, so they stay dense;
  /// - names and values are percent-encoded as WHATWG's form serializer does: space as `+`,
  ///   ASCII letters, digits and `*-._` as is, every other UTF-8 byte as `%XX` (uppercase);
  ///   the structural brackets are written as is (``FormEncodingOptions/Escaping/rfc3986``:
  ///   space as `%20`, `-._~` as is).
  ///
  /// Reading the output back with ``init(formURLEncoded:)-(String)`` gives the node with every
  /// scalar as a string, without the left-out `null`s and empty containers (with the default
  /// array and null encodings; RestKit's style, ``FormEncodingOptions/restKit``, is not read
  /// back as written).
  ///
  /// ```swift
  /// let node: Node = ["user": ["name": "Ann Lee"], "tags": ["a"], "items": [["a": "x"]]]
  /// try node.formURLEncodedString()  // user[name]=Ann+Lee&tags[]=a&items[0][a]=x
  /// ```
  ///
  /// - Parameter options: Array, `null` and boolean spellings.
  /// - Returns: The form text.
  /// - Throws: ``FormatError``: `.notRepresentable` when the node is not an object, or when a
  ///   key would read back as something else (a key containing `[` or `]`; inside a nested
  ///   object, an empty key or one that is an array index such as `"0"`; at the top level, an
  ///   empty key holding an array or object, as `=a&=b` reads); `.nonFiniteNumber` for NaN and
  ///   infinite doubles. The error's path points at the value.
  public func formURLEncodedString(options: FormEncodingOptions = .init()) throws -> String {
    String(decoding: try _FormURLEncoder.encode(self, options: options), as: UTF8.self)
  }

  /// Writes an object node as `application/x-www-form-urlencoded` bytes; see
  /// ``formURLEncodedString(options:)``.
  ///
  /// ```swift
  /// let body = try (["q": "a b"] as Node).formURLEncodedData()  // Data("q=a+b".utf8)
  /// ```
  ///
  /// - Parameter options: Array, `null` and boolean spellings.
  /// - Returns: The form bytes (ASCII).
  /// - Throws: ``FormatError`` as ``formURLEncodedString(options:)`` does.
  public func formURLEncodedData(options: FormEncodingOptions = .init()) throws -> Data {
    Data(try _FormURLEncoder.encode(self, options: options))
  }
}
