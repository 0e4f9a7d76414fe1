/// The serializing steps of ``Relationship``: each reads the child (or children) in place and
/// writes it with the child mapping's inverse plan, lent in place (no copy of the child).

/// What every relationship step holds: how to read the property in place, the child mapping
/// (resolved when first written, for recursion) and the relationship's source, appended to the
/// run's path while the child is written. Each step kind (a final class) keeps one and writes
/// the child, children or dictionary.
struct RelationshipEncodeParts<Object, Property, M: MappingProtocol>: Sendable {
  let reader: PropertyReader<Object, Property>
  let mapping: @Sendable () -> M
  let components: [_PathComponent]
  /// The relationship sets its own nil policy (``Relationship/nulls(_:)``), which the run's
  /// ``EncodingRun/relationshipNulls`` does not override.
  let ownsNulls: Bool
}

/// A relationship's encode step kind: the parts it holds (``RelationshipEncodeParts``) and the
/// writing of a child they share.
protocol RelationshipEncodeStep<Object, Property, M>: EncodeStepKind {
  associatedtype Object
  associatedtype Property
  associatedtype M: MappingProtocol

  var parts: RelationshipEncodeParts<Object, Property, M> { get }

  init(parts: RelationshipEncodeParts<Object, Property, M>)
}

extension RelationshipEncodeStep {
  init(
    _ property: WritableKeyPath<Object, Property>, mapping: @escaping @Sendable () -> M,
    components: [_PathComponent], ownsNulls: Bool
  ) {
    self.init(
      parts: RelationshipEncodeParts(
        reader: PropertyReader(property), mapping: mapping, components: components,
        ownsNulls: ownsNulls))
  }

  @inline(__always) var reader: PropertyReader<Object, Property> { parts.reader }
  @inline(__always) var mapping: @Sendable () -> M { parts.mapping }
  @inline(__always) var components: [_PathComponent] { parts.components }

  /// The nil policy for a `nil` child: the relationship's own, else the run's policy for
  /// relationships (``MappingOptions/relationshipNulls``), else `nulls`.
  @inline(__always)
  func nilPolicy(_ nulls: NullPolicy, run: borrowing EncodingRun) -> NullPolicy {
    parts.ownsNulls ? nulls : run.relationshipNulls ?? nulls
  }
}

extension RelationshipEncodeStep {
  /// Writes the child at `child` with `plan`, the relationship's source on the path.
  @inline(__always)
  func writeChild<Child>(
    _ child: UnsafeBorrowedModel, plan: InversePlan<Child>, to writer: inout PayloadWriter,
    run: inout EncodingRun
  ) {
    let depth = run.path.count
    run.path.push(components)
    plan.encode(at: child, to: &writer, run: &run)
    run.path.truncate(to: depth)
  }

  /// ``writeChild(_:plan:to:run:)`` for a child passed inout (a copy).
  @inline(__always)
  func writeChild<Child>(
    copy child: inout Child, plan: InversePlan<Child>,
    to writer: inout PayloadWriter, run: inout EncodingRun
  ) {
    withBorrowed(copy: &child) { writeChild($0, plan: plan, to: &writer, run: &run) }
  }
}

/// The inverse plan of a relationship's child mapping. Out of line, so that the mapping value
/// (a ``Mapping`` is a large struct) never takes room in the frames of a recursion, which run
/// once per level of nesting.
@inline(never)
func childInversePlan<Child, M: MappingProtocol<Child>>(_ mapping: () -> M) -> InversePlan<
  Child
> {
  mapping()._plan.inverse.plan
}

/// The child's inverse plan when the relationship was given its mapping as a value (not
/// `lazy:`): a ``ResolvedMapping`` holds the child's compiled plan, so its inverse plan is fixed
/// and the step keeps it instead of resolving it per object (a closure call, a plan getter and
/// three retains and releases each). `nil` for a `lazy:` mapping, which is resolved when first
/// written (recursion) and never called here.
func resolvedInversePlan<Child, M: MappingProtocol<Child>>(_ mapping: () -> M)
  -> InversePlan<Child>?
{
  guard M.self == ResolvedMapping<Child>.self else { return nil }
  return mapping()._plan.inverse.plan
}

/// A required to-one relationship.
final class ToOneEncodeStep<Object, Child, M: MappingProtocol<Child>>: RelationshipEncodeStep {
  let parts: RelationshipEncodeParts<Object, Child, M>
  /// See ``resolvedInversePlan(_:)``.
  private let resolvedPlan: InversePlan<Child>?

  init(parts: RelationshipEncodeParts<Object, Child, M>) {
    self.parts = parts
    resolvedPlan = resolvedInversePlan(parts.mapping)
  }

  /// The child mapping's inverse plan.
  @inline(__always)
  private var childPlan: InversePlan<Child> { resolvedPlan ?? childInversePlan(mapping) }

  func write(
    _ object: UnsafeBorrowedModel, to writer: inout PayloadWriter, run: inout EncodingRun,
    nulls: NullPolicy
  ) -> Bool {
    guard let child = reader.storedValue(in: object) else {
      return writeCopy(object, to: &writer, run: &run)
    }
    writeChild(child, plan: childPlan, to: &writer, run: &run)
    return true
  }

  /// ``write(_:to:run:nulls:)`` for a class or computed property: through a copy.
  @inline(never)
  private func writeCopy(
    _ object: UnsafeBorrowedModel, to writer: inout PayloadWriter, run: inout EncodingRun
  ) -> Bool {
    var child = reader.value(in: object)
    writeChild(copy: &child, plan: childPlan, to: &writer, run: &run)
    return true
  }
}

/// An optional to-one relationship: `nil` is left to the null policy.
final class OptionalToOneEncodeStep<Object, Child, M: MappingProtocol<Child>>:
  RelationshipEncodeStep
{
  let parts: RelationshipEncodeParts<Object, Child?, M>
  /// See ``resolvedInversePlan(_:)``.
  private let resolvedPlan: InversePlan<Child>?

  init(parts: RelationshipEncodeParts<Object, Child?, M>) {
    self.parts = parts
    resolvedPlan = resolvedInversePlan(parts.mapping)
  }

  /// The child mapping's inverse plan.
  @inline(__always)
  private var childPlan: InversePlan<Child> { resolvedPlan ?? childInversePlan(mapping) }

  func write(
    _ object: UnsafeBorrowedModel, to writer: inout PayloadWriter, run: inout EncodingRun,
    nulls: NullPolicy
  ) -> Bool {
    guard let optional = reader.storedValue(in: object) else {
      return writeCopy(object, to: &writer, run: &run, nulls: nulls)
    }
    // The child is unwrapped as a typed value (no assumption about where an `Optional` keeps
    // its payload) and written from this frame.
    guard var child = optional.typed(Child?.self).value else {
      return writer.nullIfIncluded(nilPolicy(nulls, run: run))
    }
    writeChild(copy: &child, plan: childPlan, to: &writer, run: &run)
    return true
  }

  /// ``write(_:to:run:nulls:)`` for a class or computed property: through a copy.
  @inline(never)
  private func writeCopy(
    _ object: UnsafeBorrowedModel, to writer: inout PayloadWriter, run: inout EncodingRun,
    nulls: NullPolicy
  ) -> Bool {
    guard var child = reader.value(in: object) else {
      return writer.nullIfIncluded(nilPolicy(nulls, run: run))
    }
    // The pointer comes from passing `child` inout: no closure frames in the recursion.
    writeChild(copy: &child, plan: childPlan, to: &writer, run: &run)
    return true
  }
}

/// A to-many relationship into an array, a set, or an optional of either.
final class ToManyEncodeStep<
  Object, Collection: MappableCollection, M: MappingProtocol<Collection.Element>
>: RelationshipEncodeStep {
  let parts: RelationshipEncodeParts<Object, Collection, M>
  /// See ``resolvedInversePlan(_:)``.
  private let resolvedPlan: InversePlan<Collection.Element>?

  init(parts: RelationshipEncodeParts<Object, Collection, M>) {
    self.parts = parts
    resolvedPlan = resolvedInversePlan(parts.mapping)
    isStoredArray =
      Collection.self == [Collection.Element].self && parts.reader.storedOffset != nil
  }

  /// How the elements of a value (maybe a `nil` optional) are read, and whether they are
  /// written sorted.
  private let traits = CollectionTraits<Collection>.of

  /// The property's type is an array (not a set or an optional): when it is also a stored
  /// property, the elements are written from the model's own array, borrowed in place (no
  /// copy of the array, no witness call for its elements).
  private let isStoredArray: Bool

  func write(
    _ object: UnsafeBorrowedModel, to writer: inout PayloadWriter, run: inout EncodingRun,
    nulls: NullPolicy
  ) -> Bool {
    if isStoredArray, let array = reader.storedValue(in: object), let plan = resolvedPlan,
      plan.keyEncoder == nil
    {
      let depth = run.path.count
      run.path.push(components)
      writer.beginArray()
      array.withValue([Collection.Element].self) {
        $0.encodeEachBorrowed(with: plan, to: &writer, run: &run)
      }
      writer.endArray()
      run.path.truncate(to: depth)
      return true
    }
    let elements = reader.withValue(in: object) { borrowed -> [Collection.Element]? in
      let value = borrowed.typed(Collection.self).value
      // Only an optional collection has an `isNil`: an array pays one test of a constant.
      if let isNil = traits.isNil, isNil(value) { return nil }
      return value.mappedElements
    }
    guard let elements else { return writer.nullIfIncluded(nilPolicy(nulls, run: run)) }
    let plan = resolvedPlan ?? childInversePlan(mapping)
    let depth = run.path.count
    if plan.keyEncoder != nil {
      run.path.push(components)
      plan.encodeKeyedCollection(elements, to: &writer, run: &run)
      run.path.truncate(to: depth)
      return true
    }
    guard !traits.isUnordered else {
      writeSorted(elements, plan: plan, to: &writer, run: &run)
      return true
    }
    run.path.push(components)
    writer.beginArray()
    // The children are written in place, from the array's storage.
    elements.encodeEachBorrowed(with: plan, to: &writer, run: &run)
    writer.endArray()
    run.path.truncate(to: depth)
    return true
  }

  /// Writes a set, its elements sorted by their output; out of line, so that the frame of the
  /// common path, which recursion repeats per level, stays small.
  @inline(never)
  private func writeSorted(
    _ elements: [Collection.Element], plan: InversePlan<Collection.Element>,
    to writer: inout PayloadWriter, run: inout EncodingRun
  ) {
    let depth = run.path.count
    run.path.push(components)
    writer.beginArray()
    let sorted = try? sortedForOutput(elements, writer: writer) { child, nested in
      plan.encode(child, to: &nested, run: &run)
    }
    for node in sorted ?? [] { try? writer.node(node) }
    writer.endArray()
    run.path.truncate(to: depth)
  }
}
