/// HTTP header fields: names compared without regard to case (`ETag` finds `Etag`), values in
/// the order they were added.
///
/// ```swift
/// var headers: HeaderFields = ["Authorization": "Bearer t", "Accept-Language": "fr"]
/// headers["authorization"]                        // "Bearer t"
/// headers["ACCEPT-LANGUAGE"] = "de"               // replaces "fr", keeps the name's spelling
/// let merged = headers.merging(["accept-language": "en"])   // the argument wins: "en"
/// ```
///
/// The object manager merges its own fields, the manager's and a request's by name, whatever
/// their capitalisation: the request's field wins. Names must be HTTP tokens and values may not
/// hold CR, LF, NUL or other control characters (tabs excepted); the manager checks both before
/// anything is sent (``ObjectManagerError/invalidHeader(name:reason:)``).
public struct HeaderFields: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral,
  CustomStringConvertible
{
  /// One field: its name as written and its value.
  public struct Field: Sendable, Hashable {
    /// The name, as it was written.
    public var name: String
    /// The value.
    public var value: String

    /// A field.
    ///
    /// - Parameters:
    ///   - name: The name (`Content-Type`).
    ///   - value: The value.
    public init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  /// The fields, in order.
  public private(set) var fields: [Field]

  /// No fields.
  public init() {
    fields = []
  }

  /// Fields in the given order; repeated names are kept (``values(for:)`` lists them).
  ///
  /// - Parameter fields: The fields.
  public init(_ fields: [Field]) {
    self.fields = fields
  }

  /// Fields from a dictionary literal, in the literal's order.
  public init(dictionaryLiteral elements: (String, String)...) {
    fields = elements.map { Field(name: $0.0, value: $0.1) }
  }

  /// The value of the first field named `name` (any capitalisation); setting replaces every
  /// field of that name (keeping the first one's position), and `nil` removes them.
  public subscript(name: String) -> String? {
    get { fields.first { Self.same($0.name, name) }?.value }
    set {
      guard let newValue else {
        fields.removeAll { Self.same($0.name, name) }
        return
      }
      if let index = fields.firstIndex(where: { Self.same($0.name, name) }) {
        fields[index].value = newValue
        var position = fields.index(after: index)
        while position < fields.endIndex {
          if Self.same(fields[position].name, name) {
            fields.remove(at: position)
          } else {
            position = fields.index(after: position)
          }
        }
      } else {
        fields.append(Field(name: name, value: newValue))
      }
    }
  }

  /// Every value of the fields named `name` (any capitalisation), in order.
  ///
  /// - Parameter name: The field name.
  /// - Returns: The values; empty when there is no such field.
  public func values(for name: String) -> [String] {
    fields.filter { Self.same($0.name, name) }.map(\.value)
  }

  /// Adds a field after the others, keeping those of the same name.
  ///
  /// - Parameters:
  ///   - value: The value.
  ///   - name: The name.
  public mutating func append(_ value: String, for name: String) {
    fields.append(Field(name: name, value: value))
  }

  /// These fields with `other`'s: a field of `other` replaces every field of the same name
  /// here, whatever the capitalisation of either.
  ///
  /// - Parameter other: The fields that win.
  /// - Returns: The merged fields.
  public func merging(_ other: HeaderFields) -> HeaderFields {
    var merged = self
    merged.fields.removeAll { field in other.fields.contains { Self.same($0.name, field.name) } }
    merged.fields += other.fields
    return merged
  }

  /// Whether there are no fields.
  public var isEmpty: Bool { fields.isEmpty }

  /// Iterates the fields in order.
  public func makeIterator() -> IndexingIterator<[Field]> {
    fields.makeIterator()
  }

  /// `Name: value` lines.
  public var description: String {
    fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
  }

  /// Why `name` and `value` cannot be sent, or `nil` when they can: a name must be a non-empty
  /// HTTP token (RFC 9110), and a value may hold no control character but a tab (a CR or LF
  /// would start another field or the body, a NUL truncates it in many servers).
  static func problem(name: String, value: String) -> String? {
    if name.isEmpty { return "an empty name" }
    for scalar in name.unicodeScalars where !isTokenCharacter(scalar) {
      return "the name holds \(describe(scalar)), which is not allowed in a field name"
    }
    for scalar in value.unicodeScalars {
      switch scalar.value {
      case 0x0D, 0x0A, 0x00, 0x01...0x08, 0x0B, 0x0C, 0x0E...0x1F, 0x7F:
        return "the value holds \(describe(scalar)), which is not allowed in a field value"
      default: continue
      }
    }
    return nil
  }

  private static func describe(_ scalar: Unicode.Scalar) -> String {
    switch scalar {
    case "\r": "a carriage return (CR)"
    case "\n": "a line feed (LF)"
    case "\0": "a NUL character"
    default:
      scalar.value < 0x20 || scalar.value == 0x7F || !scalar.isASCII
        ? "U+"
          + String(scalar.value, radix: 16, uppercase: true)
          .leftPadded(to: 4) : "'\(scalar)'"
    }
  }

  private static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
    guard scalar.isASCII else { return false }
    switch scalar {
    case "a"..."z", "A"..."Z", "0"..."9": return true
    case "!", "#", "$", "%", "&", "'", "*", "+", "-", ".", "^", "_", "`", "|", "~": return true
    default: return false
    }
  }

  /// Whether two field names are the same (ASCII case-insensitive, as HTTP says).
  static func same(_ lhs: String, _ rhs: String) -> Bool {
    lhs.utf8.count == rhs.utf8.count
      && zip(lhs.utf8, rhs.utf8).allSatisfy { asciiLowercase($0) == asciiLowercase($1) }
  }

  static func asciiLowercase(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
  }
}

extension HeaderFields {
  /// Two header fields are equal when they hold the same fields in the same order, names
  /// compared without regard to case.
  public static func == (lhs: HeaderFields, rhs: HeaderFields) -> Bool {
    lhs.fields.count == rhs.fields.count
      && zip(lhs.fields, rhs.fields).allSatisfy { same($0.name, $1.name) && $0.value == $1.value }
  }

  /// Hashes the fields, names lowercased.
  public func hash(into hasher: inout Hasher) {
    for field in fields {
      hasher.combine(field.name.utf8.count)
      for byte in field.name.utf8 { hasher.combine(Self.asciiLowercase(byte)) }
      hasher.combine(field.value)
    }
  }
}

extension String {
  fileprivate func leftPadded(to length: Int) -> String {
    String(repeating: "0", count: Swift.max(0, length - count)) + self
  }
}
