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
///
/// A class: a special source's enum holds a reference, so the frames a recursion through an
/// operator repeats per level do not copy the operation.
final class CollectionOperatorSource: Sendable {
  let operation: CollectionOperation
  private let base: CompiledSource
  /// The UTF-8 bytes of ``CollectionOperation/rest``'s keys, read in each element.
  private let restKeys: [[UInt8]]
  /// The rule's path, for errors.
  let pathComponents: [_PathComponent]

  init(_ operation: CollectionOperation) {
    self.operation = operation
    base = CompiledSource(SourcePath(keys: operation.base), mayRepeat: false)
    restKeys = operation.rest.map { Array($0.utf8) }
    pathComponents = operation.base.map { .key($0) } + [.key(operation.operator.rawValue)]
  }

  /// Whether the collection's key is in the object at `objectIndex` (`null` included, as for
  /// any key: the object is not an unmappable representation).
  func isPresent(in tape: _UnsafeTapeView, from objectIndex: Int) -> Bool {
    collection(in: tape, from: objectIndex) != nil
  }

  /// Whether the operator's value is the collection's values themselves
  /// (`@unionOfObjects`, `@unionOfArrays`), which ``unionEntries(in:from:)`` gives in place.
  var isPlainUnion: Bool {
    operation.operator == .unionOfObjects || operation.operator == .unionOfArrays
  }

  /// The operator's value for the object at `objectIndex`: `nil` when absent, a failure's
  /// expected and found descriptions when the collection or its values do not fit.
  ///
  /// The collection is read in place: only the values the operator returns or compares are
  /// copied out of the tape (a number for `@sum`; each object of a union), so `@count` over a
  /// subtree of any size copies nothing. Out of line: a relationship reading an operator
  /// recurses under its caller's frame, which this work (a set of values, decimal sums) would
  /// make large.
  @inline(never)
  func value(in tape: _UnsafeTapeView, from objectIndex: Int) -> Result<
    Node?, CollectionOperatorFailure
  > {
    let values: [FannedValue]
    switch operands(in: tape, from: objectIndex) {
    case .failure(let failure): return .failure(failure)
    case .success(nil): return .success(nil)
    case .success(.count(let count)?): return .success(.integer(Int64(count)))
    case .success(.values(let read)?): values = read
    }
    switch operation.operator {
    case .count: return .success(nil)
    case .unionOfObjects, .unionOfArrays:
      return .success(.array(values.map { $0.node(in: tape) }))
    case .distinctUnionOfObjects, .distinctUnionOfArrays:
      var seen: Set<Node> = []
      return .success(.array(values.map { $0.node(in: tape) }.filter { seen.insert($0).inserted }))
    case .sum, .avg:
      return total(values.map { Self.scalar($0, in: tape) }, average: operation.operator == .avg)
    case .max, .min:
      return extreme(values.map { Self.scalar($0, in: tape) }, largest: operation.operator == .max)
    }
  }

  /// For ``isPlainUnion`` operators: the tape entries of the union's values, in order, so that a
  /// relationship maps them in place; `.success(nil)` when absent, `nil` when a value is not an
  /// entry of the tape (an element of a nested fan-out), which only a copy can hold.
  @inline(never)
  func unionEntries(in tape: _UnsafeTapeView, from objectIndex: Int) -> Result<
    [Int]?, CollectionOperatorFailure
  >? {
    switch operands(in: tape, from: objectIndex) {
    case .failure(let failure): return .failure(failure)
    case .success(nil): return .success(nil)
    case .success(.count?): return nil
    case .success(.values(let values)?):
      var entries: [Int] = []
      entries.reserveCapacity(values.count)
      for value in values {
        guard case .entry(let index) = value else { return nil }
        entries.append(index)
      }
      return .success(entries)
    }
  }

  /// What the operator works on: a count (`@count`), or the values the rest of the path reaches
  /// in each element (the elements of each array for the `…OfArrays` operators), `null` and
  /// absent ones skipped.
  private enum Operands {
    case count(Int)
    case values([FannedValue])
  }

  private func operands(in tape: _UnsafeTapeView, from objectIndex: Int) -> Result<
    Operands?, CollectionOperatorFailure
  > {
    guard let collection = collection(in: tape, from: objectIndex) else { return .success(nil) }
    let name = operation.operator.rawValue
    var elements: [FannedValue] = []
    switch collection {
    case .entry(let index):
      let kind = tape[index].kind
      switch kind {
      case .null: return .success(nil)
      case .array:
        if operation.operator == .count { return .success(.count(tape.count(at: index))) }
        elements.reserveCapacity(tape.count(at: index))
        var cursor = index + 1
        for _ in 0..<tape.count(at: index) {
          elements.append(.entry(cursor))
          cursor = tape.next(after: cursor)
        }
      case .object where operation.operator == .count:
        return .success(.count(tape.count(at: index)))
      default:
        let expected = operation.operator == .count ? "a collection" : "an array"
        return .failure(
          .init(expected: "\(expected) for \(name)", found: Self.scalar(.entry(index), in: tape)))
      }
    case .fanned(let slots):
      if operation.operator == .count { return .success(.count(slots.count)) }
      elements = slots
    }
    var values: [FannedValue] = []
    values.reserveCapacity(elements.count)
    switch operation.operator {
    case .unionOfArrays, .distinctUnionOfArrays:
      for element in elements {
        switch element {
        case .entry(let index) where tape[index].kind == .null: continue
        case .entry(let index) where tape[index].kind == .array:
          var cursor = index + 1
          for _ in 0..<tape.count(at: index) {
            if let value = read(.entry(cursor), in: tape) { values.append(value) }
            cursor = tape.next(after: cursor)
          }
        case .built(.null): continue
        case .built(.array(let inner)):
          for node in inner { if let value = read(.built(node), in: tape) { values.append(value) } }
        default:
          return .failure(
            .init(expected: "arrays for \(name)", found: Self.scalar(element, in: tape)))
        }
      }
    default:
      for element in elements { if let value = read(element, in: tape) { values.append(value) } }
    }
    return .success(.values(values))
  }

  /// The collection an operator reads: the value the keys before it reach, or the values they
  /// reach across an array they meet (one per element).
  private enum Collection {
    case entry(Int)
    case fanned([FannedValue])
  }

  /// The value the keys before the operator reach, fanned out across an array they meet.
  private func collection(in tape: _UnsafeTapeView, from objectIndex: Int) -> Collection? {
    var hint = _MemberHint(object: objectIndex)
    if let index = base.resolve(in: tape, from: objectIndex, hint: &hint) {
      return .entry(index)
    }
    return base.fanOutSlots(in: tape, from: objectIndex).map { .fanned($0.values) }
  }

  /// The value the rest of the path reaches in `element` (the element itself for none or
  /// `self`); `nil` for an absent or `null` one.
  private func read(_ element: FannedValue, in tape: _UnsafeTapeView) -> FannedValue? {
    guard case .entry(var current) = element else {
      guard case .built(let node) = element else { return nil }
      return read(node).map { .built($0) }
    }
    for (key, bytes) in zip(operation.rest, restKeys) {
      if tape[current].kind == .object, let member = tape.member(of: current, named: bytes) {
        current = member
      } else if key == "self" {
        continue
      } else if tape[current].kind == .array, let position = Int(key),
        let found = tape.element(of: current, at: position)
      {
        current = found
      } else {
        return nil
      }
    }
    if tape[current].kind == .null { return nil }
    return .entry(current)
  }

  /// ``read(_:in:)`` for a value built out of the tape.
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

  /// A value compared or added by `@sum`, `@avg`, `@max` or `@min`, or named in a failure: a
  /// scalar as it is, a container as an empty one of its kind (only its kind is ever read, so
  /// no subtree is copied for it).
  private static func scalar(_ value: FannedValue, in tape: _UnsafeTapeView) -> Node {
    switch value {
    case .built(let node): return node
    case .entry(let index):
      switch tape[index].kind {
      case .object: return .object([])
      case .array: return .array([])
      default: return tape.node(at: index)
      }
    }
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
