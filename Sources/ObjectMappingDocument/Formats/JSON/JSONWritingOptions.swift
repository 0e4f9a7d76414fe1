/// Options for writing a ``Node`` (or a serialized object) as JSON text.
///
/// The default, `[]`, is compact output with members in their order.
///
/// ```swift
/// let node: Node = ["b": 1, "a": [true, nil]]
/// try node.jsonString()                                     // {"b":1,"a":[true,null]}
/// try node.jsonString(options: .sortedKeys)                 // {"a":[true,null],"b":1}
/// try node.jsonString(options: [.prettyPrinted, .sortedKeys])
/// // {
/// //   "a": [
/// //     true,
/// //     null
/// //   ],
/// //   "b": 1
/// // }
/// ```
public struct JSONWritingOptions: OptionSet, Sendable, Hashable {
  /// The option bits.
  public let rawValue: Int

  /// Creates options from their bits.
  ///
  /// - Parameter rawValue: The option bits.
  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// Pretty-printed output: each array element and object member on its own line, indented by
  /// two spaces per level, written `"key": value`; empty containers stay `[]` and `{}`; no
  /// trailing newline. (`JSONSerialization`'s layout, with two-space indentation and no space
  /// before the colon.)
  public static let prettyPrinted = JSONWritingOptions(rawValue: 1 << 0)

  /// Object members sorted by key, comparing the keys' UTF-8 bytes (so `"B"` sorts before
  /// `"a"`, and `"é"` after `"z"`). The sort is stable: members with the same key keep their
  /// relative order.
  public static let sortedKeys = JSONWritingOptions(rawValue: 1 << 1)
}
