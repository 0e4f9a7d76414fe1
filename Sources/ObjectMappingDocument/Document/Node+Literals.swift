extension Node: ExpressibleByNilLiteral {
  /// `nil` is ``null``.
  ///
  /// ```swift
  /// let node: Node = ["deleted_at": nil]  // {"deleted_at":null}
  /// ```
  ///
  /// - Parameter nilLiteral: The `nil` literal.
  public init(nilLiteral: ()) {
    self = .null
  }
}

extension Node: ExpressibleByBooleanLiteral {
  /// `true` and `false` are ``bool(_:)``.
  ///
  /// ```swift
  /// let node: Node = true  // .bool(true)
  /// ```
  ///
  /// - Parameter value: The literal.
  public init(booleanLiteral value: Bool) {
    self = .bool(value)
  }
}

extension Node: ExpressibleByIntegerLiteral {
  /// Integer literals are ``integer(_:)``.
  ///
  /// ```swift
  /// let node: Node = 42  // .integer(42)
  /// ```
  ///
  /// - Parameter value: The literal.
  public init(integerLiteral value: Int64) {
    self = .integer(value)
  }
}

extension Node: ExpressibleByFloatLiteral {
  /// Floating-point literals are ``double(_:)``; write `.decimal("0.10")` to keep exact text.
  ///
  /// ```swift
  /// let node: Node = 2.5  // .double(2.5)
  /// ```
  ///
  /// - Parameter value: The literal.
  public init(floatLiteral value: Double) {
    self = .double(value)
  }
}

extension Node: ExpressibleByStringLiteral {
  /// String literals are ``string(_:)``.
  ///
  /// ```swift
  /// let node: Node = "Ann"  // .string("Ann")
  /// ```
  ///
  /// - Parameter value: The literal.
  public init(stringLiteral value: String) {
    self = .string(value)
  }
}

extension Node: ExpressibleByStringInterpolation {}

extension Node: ExpressibleByArrayLiteral {
  /// Array literals are ``array(_:)``.
  ///
  /// ```swift
  /// let node: Node = [1, "two", nil]  // .array([.integer(1), .string("two"), .null])
  /// ```
  ///
  /// - Parameter elements: The elements.
  public init(arrayLiteral elements: Node...) {
    self = .array(elements)
  }
}

extension Node: ExpressibleByDictionaryLiteral {
  /// Dictionary literals are ``object(_:)``, with members in the order they are written
  /// (duplicate keys are kept, as in a payload).
  ///
  /// ```swift
  /// let node: Node = ["b": 1, "a": 2]
  /// node.keys  // ["b", "a"]
  /// ```
  ///
  /// - Parameter elements: The members, in order.
  public init(dictionaryLiteral elements: (String, Node)...) {
    self = .object(elements.map { Member($0.0, $0.1) })
  }
}
