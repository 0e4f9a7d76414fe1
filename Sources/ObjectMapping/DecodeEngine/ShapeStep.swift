/// How one level of containers is read and written around children of type `Child`.
struct Shape<Value, Child>: Sendable {
  /// The value at `index`, as far as it mapped: an entry that failed is in it, filled as far as
  /// it mapped, unless the relationship drops failed children
  /// (``MappingRun/dropsFailedChildren``), when it is left out with a diagnostic. `nil` when no
  /// value could be made (a container of the wrong kind). Callers tell a failure by the errors
  /// the call recorded in `run`, at their paths.
  let decode:
    @Sendable (_ index: Int, _ plan: _MappingPlan<Child>, _ run: inout MappingRun) -> Value?
  /// Writes `value`; `false` when nothing was written (`nil` under an omitting null policy).
  let encode:
    @Sendable (
      _ value: Value, _ plan: InversePlan<Child>, _ writer: inout PayloadWriter,
      _ run: inout EncodingRun, _ nulls: NullPolicy
    ) -> Bool
  /// Onto an existing value under ``CollectionPolicy/merge``: the value at `index` mapped onto
  /// `current` (entries merged by key); `nil` for shapes that are replaced as a whole.
  var merge: Merge?
  /// A container's `null` where the value is required: the kind expected, for the error, and
  /// the empty container ``NullIntoNonOptional/zero`` sets. `nil` for a shape that reads `null`
  /// itself (an optional one).
  var null: NullValue?

  /// A container shape's ``null``.
  struct NullValue: Sendable {
    let expected: String
    let zero: @Sendable () -> Value
  }

  typealias Merge =
    @Sendable (
      _ current: Value, _ index: Int, _ plan: _MappingPlan<Child>, _ run: inout MappingRun
    ) -> PendingValue<Value>?

  init(
    decode: @escaping @Sendable (Int, _MappingPlan<Child>, inout MappingRun) -> Value?,
    encode:
      @escaping @Sendable (
        Value, InversePlan<Child>, inout PayloadWriter, inout EncodingRun, NullPolicy
      ) -> Bool,
    merge: Merge? = nil, null: NullValue? = nil
  ) {
    self.decode = decode
    self.encode = encode
    self.merge = merge
    self.null = null
  }
}

/// One entry of a container shape's element loop, decoded by `decode`: under
/// ``MappingRun/dropsFailedChildren`` an entry that failed is left out (`nil`), its errors
/// becoming a diagnostic at its path and its writes into the call's instances forgotten, as a
/// to-many relationship drops one element (``ChildFailurePolicy/dropChild``). The diagnostic
/// is at the current path and `extra` below it (the key a nested-key child adds itself).
@inline(__always)
func decodeEntry<Entry>(
  run: inout MappingRun, at extra: [_PathComponent] = [],
  _ decode: (inout MappingRun) -> Entry?
) -> Entry? {
  guard run.dropsFailedChildren else { return decode(&run) }
  return decodeDroppingFailure(run: &run, at: extra, decode)
}

/// ``decodeEntry(run:_:)`` when failed entries are dropped. Out of line, off the common path.
@inline(never)
func decodeDroppingFailure<Entry>(
  run: inout MappingRun, at extra: [_PathComponent] = [],
  _ decode: (inout MappingRun) -> Entry?
) -> Entry? {
  let errorsBefore = run.errors.count
  let mark = run.mergeMark
  let entry = decode(&run)
  guard run.errors.count > errorsBefore else { return entry }
  run.dropFailedChild(errorsSince: errorsBefore, mark: mark, at: extra)
  return nil
}

/// A value built onto an existing one, computed before anything changes (see
/// ``PendingChild``): what a relationship writes onto an existing instance.
struct PendingValue<Value> {
  /// The value, merged into the existing children (only called once the whole mapping
  /// succeeded).
  let materialize: () -> Value
  /// The value `materialize` gives, computed without changing anything (see
  /// ``PendingChild/preview``), for validators and for previewing enclosing children.
  let preview: () -> Value
  /// Merges into the existing class instances that `materialize` would merge into, for writing a
  /// validated value instead.
  let commitMerges: () -> Void
  /// Whether the property is written at all: `false` keeps its value without running its
  /// setter (a combining policy's `null`).
  private(set) var writesProperty = true

  init(
    materialize: @escaping () -> Value, preview: @escaping () -> Value,
    commitMerges: @escaping () -> Void
  ) {
    self.materialize = materialize
    self.preview = preview
    self.commitMerges = commitMerges
  }

  /// A value that merges into nothing (a replaced, cleared or fresh value).
  init(_ value: Value) {
    self.init(materialize: { value }, preview: { value }, commitMerges: {})
  }

  /// A child mapped onto an existing one, or new.
  init(_ child: PendingChild<Value>) {
    self.init(
      materialize: child.materialize, preview: { child.preview },
      commitMerges: child.commitMerges)
  }

  /// This pending value seen through `transform` (an optional's `.some`), keeping whether it
  /// writes the property.
  func map<T>(_ transform: @escaping (Value) -> T) -> PendingValue<T> {
    let (materialize, preview) = (self.materialize, self.preview)
    var mapped = PendingValue<T>(
      materialize: { transform(materialize()) }, preview: { transform(preview()) },
      commitMerges: commitMerges)
    mapped.writesProperty = writesProperty
    return mapped
  }

  /// The property's `current` value, kept: nothing is written when the relationship has no
  /// validators; with validators, the kept value is validated and the accepted value written, as
  /// any other.
  static func keeping(_ current: Value) -> Self {
    var kept = Self(current)
    kept.writesProperty = false
    return kept
  }
}

extension Shape where Value == Child {
  /// One child object; `null` is an error. A child that failed is kept, filled as far as it
  /// mapped, unless failed children are dropped (``MappingRun/dropsFailedChildren``).
  static var object: Self {
    Shape(
      decode: { index, plan, run in
        guard run.tape[index].kind != .null else {
          run.fail(.typeMismatch(expected: "an object", found: "null"))
          return nil
        }
        var mapped: Child?
        plan.decodeChild(at: index, run: &run, declineIsAcceptable: false) { mapped = $0 }
        return mapped
      },
      encode: { child, plan, writer, run, _ in
        plan.encode(child, to: &writer, run: &run)
        return true
      })
  }
}

extension Shape where Value == [String: Child] {
  /// Objects keyed by the payload's keys: a nested-key child mapping (``KeyAttribute``) reads
  /// each key into its child and writes each child's body under its key.
  static var keyedObjects: Self {
    Shape(
      decode: { index, plan, run in decodeChildDictionary(at: index, plan: plan, run: &run) },
      encode: { children, plan, writer, run, _ in
        writer.beginObject()
        for key in children.keys.sorted(by: { _compareUTF8($0, $1) < 0 }) {
          guard let child = children[key] else { continue }
          writer.key(key)
          run.path.append(.key(key))
          plan.encodeBody(child, to: &writer, run: &run)
          run.path.removeLast()
        }
        writer.endObject()
        return true
      },
      merge: { current, index, plan, run in
        mergeDictionary(current, at: index, plan: plan, run: &run)
      },
      null: NullValue(expected: "an object", zero: { [:] }))
  }
}

extension Shape {
  /// An array of `element`s, each at its index on the error path.
  static func array<Element>(of element: Shape<Element, Child>) -> Self
  where Value == [Element] {
    Shape(
      decode: { index, plan, run in
        let entry = run.tape[index]
        guard entry.kind == .array else {
          run.fail(.typeMismatch(expected: "an array", found: run.foundDescription(at: index)))
          return nil
        }
        var elements: [Element] = []
        elements.reserveCapacity(Int(entry.length))
        var cursor = index + 1
        for offset in 0..<Int(entry.length) {
          run.path.append(.index(offset))
          let at = cursor
          if let value = decodeEntry(run: &run, { element.decode(at, plan, &$0) }) {
            elements.append(value)
          }
          run.path.removeLast()
          cursor = run.tape.next(after: cursor)
        }
        return elements
      },
      encode: { elements, plan, writer, run, nulls in
        writer.beginArray()
        for (offset, value) in elements.enumerated() {
          run.path.append(.index(offset))
          _ = element.encode(value, plan, &writer, &run, nulls)
          run.path.removeLast()
        }
        writer.endArray()
        return true
      },
      null: NullValue(expected: "an array", zero: { [] }))
  }

  /// An object of `element`s keyed by the payload's keys, each key on the error path
  /// (`/tasks/t1/taskId`). A repeated key keeps its first member; the keys are written sorted.
  static func dictionary<Element>(of element: Shape<Element, Child>) -> Self
  where Value == [String: Element] {
    Shape(
      decode: { index, plan, run in
        let entry = run.tape[index]
        guard entry.kind == .object else {
          run.fail(.typeMismatch(expected: "an object", found: run.foundDescription(at: index)))
          return nil
        }
        var members: [String: Element] = [:]
        members.reserveCapacity(Int(entry.length))
        var seen: Set<String> = []
        var cursor = index + 1
        for _ in 0..<Int(entry.length) {
          let key = run.tape.string(at: cursor)
          if seen.insert(key).inserted {
            run.path.append(.key(key))
            let at = cursor + 1
            if let value = decodeEntry(run: &run, { element.decode(at, plan, &$0) }) {
              members[key] = value
            }
            run.path.removeLast()
          }
          cursor = run.tape.next(after: cursor + 1)
        }
        return members
      },
      encode: { members, plan, writer, run, nulls in
        writer.beginObject()
        for key in members.keys.sorted(by: { _compareUTF8($0, $1) < 0 }) {
          guard let value = members[key] else { continue }
          writer.key(key)
          run.path.append(.key(key))
          _ = element.encode(value, plan, &writer, &run, nulls)
          run.path.removeLast()
        }
        writer.endObject()
        return true
      },
      null: NullValue(expected: "an object", zero: { [:] }))
  }

  /// `wrapped`, or `nil` for `null`; `nil` is written as the null policy says.
  static func optional<Wrapped>(_ wrapped: Shape<Wrapped, Child>) -> Self
  where Value == Wrapped? {
    var merge: Merge?
    if let inner = wrapped.merge {
      merge = { current, index, plan, run in
        guard let current, run.tape[index].kind != .null else { return nil }
        return inner(current, index, plan, &run)?.map { .some($0) }
      }
    }
    return Shape(
      decode: { index, plan, run in
        guard run.tape[index].kind != .null else { return .some(nil) }
        return wrapped.decode(index, plan, &run).map { .some($0) }
      },
      encode: { value, plan, writer, run, nulls in
        guard let value else { return writer.nullIfIncluded(nulls) }
        return wrapped.encode(value, plan, &writer, &run, nulls)
      },
      merge: merge)
  }
}

/// A relationship of a nested shape: the value is built whole, into a new model and onto an
/// existing instance alike (where it replaces the property's value, as a dictionary does).
final class ShapeStep<Object, Value, M: MappingProtocol>: RelationshipKind {
  let rule: Relationship<Object>
  let writer: PropertyWriter<Object, Value>
  let validators: [Validator<Value>]
  let mapping: @Sendable () -> M
  let shape: Shape<Value, M.Object>

  init(
    _ rule: Relationship<Object>, property: WritableKeyPath<Object, Value>,
    mapping: @escaping @Sendable () -> M, shape: Shape<Value, M.Object>
  ) {
    self.rule = rule
    writer = PropertyWriter(property)
    self.mapping = mapping
    validators = rule.validators.compactMap { $0.typed(as: Value.self) }
    self.shape = shape
  }

  /// Written also when an entry failed (the parent fails then, unless the errors become
  /// diagnostics under ``ChildFailurePolicy/keepPartial``): the value keeps its entries as far
  /// as they mapped, as a to-many relationship keeps its elements.
  func decodeValue(into object: inout Object, at index: Int, run: inout MappingRun) {
    if let null = shape.null, run.tape[index].kind == .null {
      if let zero = decodeNull(null, run: &run) { writer.write(zero, into: &object) }
      return
    }
    if let value = shape.decode(index, resolvedChildPlan(mapping), &run) {
      writer.write(value, into: &object)
    }
  }

  /// Onto an existing instance a failed entry is never written: under
  /// ``ChildFailurePolicy/dropChild`` and ``ChildFailurePolicy/keepPartial`` it is left out
  /// with a diagnostic (as a to-many relationship leaves out a failed element there), else the
  /// parent fails.
  func mergeValue(onto object: Object, at index: Int, run: inout MappingRun)
    -> PendingValue<Value>?
  {
    if let null = shape.null, run.tape[index].kind == .null {
      if let zero = decodeNull(null, run: &run) { return PendingValue(zero) }
      return run.context.nullIntoNonOptional == .keepCurrent
        ? .keeping(writer.value(in: object)) : nil
    }
    let outerDrops = run.replaceDropsFailedChildren(with: rule.childFailure != .failParent)
    defer { run.dropsFailedChildren = outerDrops }
    let errorsBefore = run.errors.count
    if !run.mergesCallInstance, rule.mergesInPlace(in: run), let merge = shape.merge {
      if let pending = merge(writer.value(in: object), index, resolvedChildPlan(mapping), &run) {
        return pending
      }
      // Nothing to merge into (a nil dictionary, null): mapped as a new value below.
      guard run.errors.count == errorsBefore else { return nil }
    }
    guard let value = shape.decode(index, resolvedChildPlan(mapping), &run),
      run.errors.count == errorsBefore
    else { return nil }
    return PendingValue(value)
  }
}

/// A container relationship's `null` where its value is required, as the run's
/// ``NullIntoNonOptional`` says: the empty container (``NullIntoNonOptional/zero``), or `nil`
/// with an error (``NullIntoNonOptional/fail``) or a diagnostic, the property keeping its value
/// (``NullIntoNonOptional/keepCurrent``), as for a to-many relationship.
@inline(never)
private func decodeNull<Value, Child>(
  _ null: Shape<Value, Child>.NullValue, run: inout MappingRun
) -> Value? {
  switch run.context.nullIntoNonOptional {
  case .fail:
    run.fail(.typeMismatch(expected: null.expected, found: "null"))
  case .keepCurrent:
    run.note(.nullIgnored(kept: true))
  case .zero:
    run.note(.nullIgnored(kept: false))
    return null.zero()
  }
  return nil
}

/// The object at `index` merged into `current` by key (``CollectionPolicy/merge``): a member
/// whose key `current` has is mapped onto that entry in place, a new key is mapped fresh, and
/// entries the payload does not name are kept. `nil` when a member failed and failed members
/// are not dropped (``MappingRun/dropsFailedChildren``).
private func mergeDictionary<Child>(
  _ current: [String: Child], at index: Int, plan: _MappingPlan<Child>, run: inout MappingRun
) -> PendingValue<[String: Child]>? {
  let entry = run.tape[index]
  guard entry.kind == .object else {
    run.fail(.typeMismatch(expected: "an object", found: run.foundDescription(at: index)))
    return nil
  }
  let before = run.errors.count
  var pending: [String: PendingChild<Child>] = [:]
  var cursor = index + 1
  for _ in 0..<Int(entry.length) {
    let key = run.tape.string(at: cursor)
    if pending[key] == nil, let keyRule = plan.keyRule {
      // A nested-key child reads its key: mapped fresh, as keyed children always are.
      let at = cursor
      if let child = decodeEntry(
        run: &run, at: [.key(key)],
        { plan.decodeKeyed(keyIndex: at, keyRule: keyRule, run: &$0) })
      {
        pending[key] = .fresh(child)
      }
    } else if pending[key] == nil {
      run.path.append(.key(key))
      let at = cursor + 1
      if let child = decodeEntry(
        run: &run, { plan.map(existing: current[key], at: at, matching: .inPlace, run: &$0) })
      {
        pending[key] = child
      }
      run.path.removeLast()
    }
    cursor = run.tape.next(after: cursor + 1)
  }
  guard run.errors.count == before else { return nil }
  let merged = pending
  return PendingValue(
    materialize: { current.merging(merged.mapValues { $0.materialize() }) { $1 } },
    preview: { current.merging(merged.mapValues(\.preview)) { $1 } },
    commitMerges: { for child in merged.values { child.commitMerges() } })
}
