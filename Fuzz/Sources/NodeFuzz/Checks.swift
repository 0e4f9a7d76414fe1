import Foundation
import ObjectMapping

/// `precondition` that prints its message in release builds too.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fatalError(message()) }
}

/// A node's JSON-like description, cut to 2 000 characters for crash messages.
func short(_ node: Node) -> String {
  let text = "\(node)"
  return text.count <= 2_000 ? text : text.prefix(2_000) + "… (\(text.count) characters)"
}

/// A model read from a `Node` built by the fuzzer: one attribute per common value type, all
/// optional so that most nodes map.
struct Sample: Equatable, Sendable {
  var id: Int?
  var name: String?
  var price: Decimal?
  var ratio: Double?
  var count: Int16?
  var when: Date?
  var flag: Bool?
  var tags: [String]?
  var anything: Node?
}

let sampleMapping = Mapping(Sample.init) {
  Attribute("id", \.id)
  Attribute("name", \.name)
  Attribute("price", \.price)
  Attribute("ratio", \.ratio)
  Attribute("count", \.count)
  Attribute("when", \.when)
  Attribute("flag", \.flag)
  Attribute("tags", \.tags)
  Attribute("a.b", \.anything)
}

/// The node `Node(foundation: node.foundationValue)` is documented to give back: members sorted
/// by the UTF-8 bytes of their keys with the first of duplicate keys kept, and decimal text
/// with a fraction or an exponent turned into a `Double`.
func foundationNormalized(_ node: Node) -> Node {
  switch node {
  case .object(let members):
    var seen = Set<String>()
    var kept: [Node.Member] = []
    for member in members where seen.insert(member.key).inserted {
      kept.append(Node.Member(member.key, foundationNormalized(member.value)))
    }
    kept.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    return .object(kept)
  case .array(let elements): return .array(elements.map(foundationNormalized))
  default: return node
  }
}

/// Equality after the Foundation round trip: numbers compare as `Double`s within a relative
/// 1e-15 (a large integer goes through `Decimal`, whose 38 digits round once more), NaN equals
/// NaN.
func sameAfterFoundation(_ lhs: Node, _ rhs: Node) -> Bool {
  switch (lhs, rhs) {
  case (.array(let a), .array(let b)):
    return a.count == b.count && zip(a, b).allSatisfy { sameAfterFoundation($0, $1) }
  case (.object(let a), .object(let b)):
    return a.count == b.count
      && zip(a, b).allSatisfy { $0.key == $1.key && sameAfterFoundation($0.value, $1.value) }
  default:
    if lhs == rhs { return true }
    guard let x = number(lhs), let y = number(rhs) else { return false }
    if x.isNaN && y.isNaN { return true }
    if x == y { return true }
    return abs(x - y) <= abs(x) * 1e-15
  }
}

func number(_ node: Node) -> Double? {
  switch node {
  case .integer(let value): return Double(value)
  case .double(let value): return value
  case .decimal(let number): return Double(number.text)
  default: return nil
  }
}
