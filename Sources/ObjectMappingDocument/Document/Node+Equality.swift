extension Node: Hashable {
  /// Structural equality, with numbers compared by exact value across representations.
  ///
  /// `.integer(1)`, `.double(1.0)` and `.decimal("1.0")` are equal; `.decimal("0.1")` equals
  /// `.double(0.1)` (whose shortest text is `0.1`), but `.decimal("0.10000000000000000001")` does
  /// not, even though both read as the same `Double`.
  ///
  /// Objects are unordered, as in JSON (RFC 8259): two objects are equal when they have the same
  /// members, whatever their order, so `{"t":true,"one":1}` read from JSON equals the same
  /// dictionary read through `Node(foundation:)`. Members that share a key must come in the
  /// same relative order (the first one is the one lookups find): `{"a":1,"a":2}` and
  /// `{"a":2,"a":1}` differ. Equality never reorders anything: a node keeps its members in
  /// payload order, and writers output them in that order.
  ///
  /// ```swift
  /// let parsed = try Node(jsonString: #"{"t":true,"one":1}"#)
  /// parsed == .object([.init("one", 1), .init("t", true)])  // true
  /// parsed.keys                                              // ["t", "one"]
  /// ```
  public static func == (lhs: Node, rhs: Node) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.integer(let a), .integer(let b)): return a == b
    case (.double(let a), .double(let b)): return a == b
    case (.decimal(let a), .decimal(let b)) where a == b: return true
    case (.string(let a), .string(let b)): return a == b
    case (.array(let a), .array(let b)): return a == b
    case (.object(let a), .object(let b)): return _membersEqual(a, b)
    default:
      guard let a = lhs._canonicalNumber, let b = rhs._canonicalNumber else { return false }
      return a == b
    }
  }

  /// Hashes consistently with ``==(_:_:)``: numbers hash by their canonical value, and an
  /// object's members are combined in an order-independent way.
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null: hasher.combine(0)
    case .bool(let value):
      hasher.combine(1)
      hasher.combine(value)
    case .integer, .double, .decimal:
      hasher.combine(2)
      hasher.combine(_canonicalNumber)
    case .string(let value):
      hasher.combine(3)
      hasher.combine(value)
    case .array(let value):
      hasher.combine(4)
      hasher.combine(value)
    case .object(let members):
      hasher.combine(5)
      hasher.combine(members.count)
      // The sum of the members' own hashes does not depend on their order. A member whose key
      // came before is hashed with its position among that key's members, which equality
      // keeps: without it, every reordering of `{"a":0,"a":1,…,"a":9}` (millions of unequal
      // objects) had the same hash, and a set of n of them took n² comparisons.
      var sum = 0
      // Small objects count earlier members with the same key; larger ones keep a table.
      let keepsTable = members.count > 16
      var occurrences: [String: Int] = [:]
      for position in members.indices {
        let member = members[position]
        var occurrence = 0
        if keepsTable {
          occurrence = occurrences[member.key, default: 0]
          occurrences[member.key] = occurrence + 1
        } else {
          for earlier in members[..<position] where earlier.key == member.key { occurrence += 1 }
        }
        guard occurrence > 0 else {
          sum &+= member.hashValue
          continue
        }
        var memberHasher = Hasher()
        memberHasher.combine(member)
        memberHasher.combine(occurrence)
        sum &+= memberHasher.finalize()
      }
      hasher.combine(sum)
    }
  }

  /// The number as (negative, significant digits without leading or trailing zeros, exponent of
  /// the last digit), so that equal values compare equal whatever their spelling. `nil` for
  /// non-numbers and non-finite doubles; zero is `(false, "", 0)`.
  package var _canonicalNumber: _CanonicalNumber? {
    switch self {
    case .integer(let value): return _CanonicalNumber(text: String(value))
    case .double(let value):
      guard value.isFinite else { return nil }
      return _CanonicalNumber(text: value.description)
    case .decimal(let number): return _CanonicalNumber(text: number.text)
    default: return nil
    }
  }
}

/// Whether two objects' members are equal as JSON objects: the same members in any order, where
/// members sharing a key keep their relative order.
private func _membersEqual(_ lhs: [Node.Member], _ rhs: [Node.Member]) -> Bool {
  guard lhs.count == rhs.count else { return false }
  // Keys in the same order (the common case) need no sorting: the values are then compared in
  // place, which is what comparing both sorted would do. Each pair of values is compared at
  // most once: trying whole members in place first and then again sorted compared the values
  // twice at every level, 2^depth comparisons for two deep objects that differ only at the
  // bottom (a few hundred bytes of payload in a distinct union or a `Set<Node>` never ended).
  if lhs.indices.allSatisfy({ lhs[$0].key == rhs[$0].key }) {
    return lhs.indices.allSatisfy { lhs[$0].value == rhs[$0].value }
  }
  // Sorted by key, ties kept in their order: equal members then line up.
  func byKey(_ members: [Node.Member]) -> [Node.Member] {
    members.enumerated()
      .sorted {
        $0.element.key < $1.element.key
          || ($0.element.key == $1.element.key && $0.offset < $1.offset)
      }
      .map(\.element)
  }
  return byKey(lhs) == byKey(rhs)
}

/// A number in canonical form: sign, significant digits and the power of ten of the last digit.
package struct _CanonicalNumber: Hashable {
  package var negative: Bool
  package var digits: [UInt8]
  package var exponent: Int

  /// Parses number text (JSON grammar, plus Swift's `1e-05` spelling). Returns `nil` for
  /// anything else.
  package init?(text: String) {
    var negative = false
    var digits: [UInt8] = []
    var exponent = 0
    var sawDigit = false
    var inFraction = false
    var utf8 = text.utf8[...]
    if utf8.first == UInt8(ascii: "-") {
      negative = true
      utf8 = utf8.dropFirst()
    } else if utf8.first == UInt8(ascii: "+") {
      utf8 = utf8.dropFirst()
    }
    while let byte = utf8.first {
      if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
        sawDigit = true
        if !(digits.isEmpty && byte == UInt8(ascii: "0")) { digits.append(byte) }
        if inFraction { exponent -= 1 }
      } else if byte == UInt8(ascii: ".") && !inFraction {
        inFraction = true
      } else {
        break
      }
      utf8 = utf8.dropFirst()
    }
    guard sawDigit else { return nil }
    if let marker = utf8.first, marker == UInt8(ascii: "e") || marker == UInt8(ascii: "E") {
      utf8 = utf8.dropFirst()
      var exponentNegative = false
      if utf8.first == UInt8(ascii: "-") {
        exponentNegative = true
        utf8 = utf8.dropFirst()
      } else if utf8.first == UInt8(ascii: "+") {
        utf8 = utf8.dropFirst()
      }
      guard !utf8.isEmpty else { return nil }
      var value = 0
      for byte in utf8 {
        guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
        // Exponents beyond this are not distinguishable in practice; clamp to stay finite.
        value = min(value * 10 + Int(byte - UInt8(ascii: "0")), 1_000_000_000)
      }
      exponent += exponentNegative ? -value : value
    } else if !utf8.isEmpty {
      return nil
    }
    while digits.last == UInt8(ascii: "0") {
      digits.removeLast()
      exponent += 1
    }
    if digits.isEmpty {
      negative = false
      exponent = 0
    }
    self.negative = negative
    self.digits = digits
    self.exponent = exponent
  }
}
