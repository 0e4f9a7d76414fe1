/// A format-neutral document: the value every reader produces and every writer consumes.
///
/// `Node` is what mappings see of a payload, whatever format it arrived in (JSON, form
/// URL-encoded, Foundation objects). Numbers keep their exactness: integers that fit `Int64` are
/// ``integer(_:)``, numbers read from text that do not (large integers, anything with a fraction or
/// exponent) keep their literal text in ``decimal(_:)-enum.case``, so `Decimal` can be read exactly and a
/// `Double` is always the correctly rounded value of that text. Objects keep their members in
/// payload order, duplicates included.
///
/// ```swift
/// let node = try Node(jsonString: #"{"id": 7, "price": 12.50, "tags": ["a"]}"#)
/// node["id"]          // .integer(7)
/// node["price"]       // .decimal("12.50")
/// try node.jsonData() // {"id":7,"price":12.50,"tags":["a"]}
/// ```
public enum Node: Sendable {
  /// JSON `null`.
  case null
  /// A boolean.
  case bool(Bool)
  /// An integer that fits in `Int64`, kept exact.
  case integer(Int64)
  /// A binary floating-point number, as produced by code (readers produce ``decimal(_:)-enum.case``).
  case double(Double)
  /// A number kept as its exact literal text (RFC 8259 number grammar), for integers beyond
  /// `Int64` and for every number with a fraction or an exponent. Numbers of up to 19 digits
  /// are held without a `String` (see ``DecimalText``); build one from a `String` with
  /// ``decimal(_:)-type.method`` or a string literal (`.decimal("12.50")`).
  case decimal(DecimalText)
  /// A string.
  case string(String)
  /// An array of nodes.
  case array([Node])
  /// An object: members in payload order. Lookups by key find the first member with that key.
  case object([Member])

  /// One key–value member of an object node.
  public struct Member: Sendable, Hashable {
    /// The member's key.
    public var key: String
    /// The member's value.
    public var value: Node

    /// Creates a member.
    public init(_ key: String, _ value: Node) {
      self.key = key
      self.value = value
    }
  }
}

extension Node {
  /// A short name for the kind of value, as used in error messages (`"a string"`, `"an object"`).
  public var kindDescription: String {
    switch self {
    case .null: return "null"
    case .bool: return "a boolean"
    case .integer, .double, .decimal: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }

  /// Whether this node is `null`.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// The boolean, if this node is a boolean.
  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The string, if this node is a string.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The elements, if this node is an array.
  public var arrayValue: [Node]? {
    if case .array(let value) = self { return value }
    return nil
  }

  /// The members, if this node is an object.
  public var objectValue: [Member]? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// The keys of an object node in payload order; empty for any other node.
  public var keys: [String] {
    guard case .object(let members) = self else { return [] }
    return members.map(\.key)
  }

  /// The value of the first member named `key` of an object node; `nil` for a missing key or a
  /// node that is not an object.
  ///
  /// Setting a value replaces the first member with that key, or appends a member; setting `nil`
  /// removes every member with that key. Setting through a node that is not an object turns it
  /// into an object.
  public subscript(key: String) -> Node? {
    get {
      guard case .object(let members) = self else { return nil }
      for member in members where member.key == key { return member.value }
      return nil
    }
    set {
      var members: [Member]
      if case .object(let existing) = self { members = existing } else { members = [] }
      if let newValue {
        if let index = members.firstIndex(where: { $0.key == key }) {
          members[index].value = newValue
        } else {
          members.append(Member(key, newValue))
        }
      } else {
        members.removeAll { $0.key == key }
      }
      self = .object(members)
    }
  }

  /// The element at `index` of an array node; `nil` when out of range or not an array.
  public subscript(index: Int) -> Node? {
    guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
    return elements[index]
  }
}
