import Foundation

/// A ``CollectionOperation`` compiled for a rule: the collection's keys compiled once, the
/// operator applied per object to the values they reach.
///
/// The collection is the value the keys before the operator reach, or, when the walk meets an
/// array where it needs a member, the values the rest of those keys reach in each element (as
/// ``CompiledSource/fanOut(in:from:)`` reads `friends.name`). The operator then follows
/// key-value coding, with JSON's values:
/// - `@count`: the number of elements of an array (or members of an object);
/// - `@sum`, `@avg`: of the numbers the rest of the path reaches in each element (`null` and
///   absent values skipped); the sum of none is `0`, the average of none absent;
/// - `@max`, `@min`: of those numbers, or of strings (compared by their Unicode scalars); of
///   none, absent;
/// - `@unionOfObjects`, `@distinctUnionOfObjects`: those values as an array (`null` skipped;
///   the distinct union keeps each value's first occurrence, in payload order);
/// - `@unionOfArrays`, `@distinctUnionOfArrays`: the same over the elements of the collection's
///   arrays (an array of arrays).
///
/// A collection that is absent or `null` makes the value absent; one of the wrong kind, or
/// values `@sum`, `@avg`, `@max` or `@min` cannot compare, is a type mismatch at the rule's
/// path.
struct CollectionOperatorSource: Sendable {
  let operation: CollectionOperation
  private let base: CompiledSource
  /// The rule's path, for errors.
  let pathComponents: [_PathComponent]

  init(_ operation: CollectionOperation) {
    self.operation = operation
    base = CompiledSource(SourcePath(keys: operation.base), mayRepeat: false)
    pathComponents = operation.base.map { .key($0) } + [.key(operation.operator.rawValue)]
  }

  /// Whether the collection's key is in the object at `objectIndex` (`null` included, as for
  /// any key: the object is not an unmappable representation).
  func isPresent(in tape: _UnsafeTapeView, from objectIndex: Int) -> Bool {
    collection(in: tape, from: objectIndex) != nil
  }

  /// The operator's value for the object at `objectIndex`: `nil` when absent, a failure's
  /// expected and found descriptions when the collection or its values do not fit.
  ///
  /// Out of line: a relationship reading an operator recurses under its caller's frame, which
  /// this work (a set of values, decimal sums) would make large.
  @inline(never)
  func value(in tape: _UnsafeTapeView, from objectIndex: Int) -> Result<
    Node?, CollectionOperatorFailure
  > {
    guard let collection = collection(in: tape, from: objectIndex) else { return .success(nil) }
    if case .null = collection { return .success(nil) }
    let name = operation.operator.rawValue
    if operation.operator == .count {
      switch collection {
      case .array(let elements): return .success(.integer(Int64(elements.count)))
      case .object(let members): return .success(.integer(Int64(members.count)))
      default: return .failure(.init(expected: "a collection for \(name)", found: collection))
      }
    }
    guard case .array(let elements) = collection else {
      return .failure(.init(expected: "an array for \(name)", found: collection))
    }
    var values: [Node] = []
    values.reserveCapacity(elements.count)
    switch operation.operator {
    case .unionOfArrays, .distinctUnionOfArrays:
      for element in elements {
        switch element {
        case .null: continue
        case .array(let inner): values += inner.lazy.compactMap(read)
        default: return .failure(.init(expected: "arrays for \(name)", found: element))
        }
      }
    default:
      values = elements.compactMap(read)
    }
    switch operation.operator {
    case .count: return .success(nil)
    case .unionOfObjects, .unionOfArrays: return .success(.array(values))
    case .distinctUnionOfObjects, .distinctUnionOfArrays:
      var seen: Set<Node> = []
      return .success(.array(values.filter { seen.insert($0).inserted }))
    case .sum, .avg: return total(values, average: operation.operator == .avg)
    case .max, .min: return extreme(values, largest: operation.operator == .max)
    }
  }

  /// The value the keys before the operator reach, fanned out across an array they meet.
  private func collection(in tape: _UnsafeTapeView, from objectIndex: Int) -> Node? {
    var hint = _MemberHint(object: objectIndex)
    if let index = base.resolve(in: tape, from: objectIndex, hint: &hint) {
      return tape.node(at: index)
    }
    return base.fanOut(in: tape, from: objectIndex)?.values
  }

  /// The value the rest of the path reaches in `element` (the element itself for none or
  /// `self`); `nil` for an absent or `null` one.
  private func read(_ element: Node) -> Node? {
    var current = element
    for key in operation.rest {
      if case .object = current, let member = current[key] {
        current = member
      } else if key == "self" {
        continue
      } else if case .array(let inner) = current, let position = Int(key),
        inner.indices.contains(position)
      {
        current = inner[position]
      } else {
        return nil
      }
    }
    if case .null = current { return nil }
    return current
  }

  private func total(_ values: [Node], average: Bool) -> Result<Node?, CollectionOperatorFailure> {
    var sum: Decimal = 0
    var integerSum: Int64? = 0
    for value in values {
      guard let number = Self.decimal(value) else {
        return .failure(
          .init(expected: "numbers for \(operation.operator.rawValue)", found: value))
      }
      sum += number
      if let running = integerSum, case .integer(let integer) = value {
        let (next, overflow) = running.addingReportingOverflow(integer)
        integerSum = overflow ? nil : next
      } else {
        integerSum = nil
      }
    }
    guard average else {
      if let integerSum { return .success(.integer(integerSum)) }
      return .success(Self.node(sum))
    }
    guard !values.isEmpty else { return .success(nil) }
    return .success(Self.node(sum / Decimal(values.count)))
  }

  private func extreme(_ values: [Node], largest: Bool) -> Result<
    Node?, CollectionOperatorFailure
  > {
    guard let first = values.first else { return .success(nil) }
    let name = operation.operator.rawValue
    if case .string = first {
      var best = first
      for value in values {
        guard case .string(let text) = value, case .string(let current) = best else {
          return .failure(.init(expected: "strings for \(name)", found: value))
        }
        let precedes = text.unicodeScalars.lexicographicallyPrecedes(current.unicodeScalars)
        let follows = current.unicodeScalars.lexicographicallyPrecedes(text.unicodeScalars)
        if largest ? follows : precedes { best = value }
      }
      return .success(best)
    }
    var best = first
    var bestNumber: Decimal?
    for value in values {
      guard let number = Self.decimal(value) else {
        return .failure(.init(expected: "numbers for \(name)", found: value))
      }
      if let current = bestNumber, largest ? number <= current : number >= current { continue }
      best = value
      bestNumber = number
    }
    return .success(best)
  }

  /// A JSON number's value; `nil` for any other value.
  private static func decimal(_ value: Node) -> Decimal? {
    switch value {
    case .integer(let integer): return Decimal(integer)
    case .double(let double): return double.isFinite ? Decimal(double) : nil
    case .decimal(let text):
      return Decimal(string: text.description, locale: Locale(identifier: "en_US_POSIX"))
    default: return nil
    }
  }

  /// A number node for `value`: an integer when it is one and fits, its decimal text otherwise.
  private static func node(_ value: Decimal) -> Node {
    // `int64Value` drops a fraction and wraps past `Int64`'s range: the comparison catches both.
    let integer = NSDecimalNumber(decimal: value).int64Value
    if Decimal(integer) == value { return .integer(integer) }
    return .decimal(Node.DecimalText(value.description))
  }
}

/// Why a collection operator could not be applied: what it needed and the value it found.
struct CollectionOperatorFailure: Error {
  let expected: String
  let found: Node

  /// Whether `found` is a number, of a size the operator cannot compute with (beyond
  /// `Decimal`'s range): a conversion failure, not a mismatch of kinds.
  var isNumberOutOfRange: Bool {
    switch found {
    case .integer, .double, .decimal: true
    default: false
    }
  }
}
