/// The serializing steps of ``Relationship``: each reads the child (or children) in place and
/// writes it with the child mapping's inverse plan, through a pointer (no copy of the child).

/// What every relationship step holds: how to read the property in place, the child mapping
/// (resolved when first written, for recursion) and the relationship's source, appended to the
/// run's path while the child is written. Subclasses write the child, children or dictionary.
class _RelationshipEncodeStep<Object, Property, M: MappingProtocol>: _EncodeStep,
  @unchecked Sendable
{
  // @unchecked: immutable after init (see _EncodeStep).
  let reader: _PropertyReader<Object, Property>
  let mapping: @Sendable () -> M
  let components: [_PathComponent]

  init(
    _ property: WritableKeyPath<Object, Property>, mapping: @escaping @Sendable () -> M,
    components: [_PathComponent]
  ) {
    reader = _PropertyReader(property)
    self.mapping = mapping
    self.components = components
  }
}

/// A required to-one relationship.
final class _ToOneEncodeStep<Object, Child, M: MappingProtocol<Child>>:
  _RelationshipEncodeStep<Object, Child, M>, @unchecked Sendable
{
  // @unchecked: immutable after init (see _EncodeStep).

  override func write(
    _ object: UnsafeRawPointer, to writer: inout _PayloadWriter, run: inout _EncodingRun,
    nulls: NullPolicy
  ) -> Bool {
    let plan = mapping()._plan.inverse.plan
    let depth = run.path.count
    run.path.push(components)
    reader.withValue(at: object) { plan.encode(at: $0, to: &writer, run: &run) }
    run.path.truncate(to: depth)
    return true
  }
}

/// An optional to-one relationship: `nil` is left to the null policy.
final class _OptionalToOneEncodeStep<Object, Child, M: MappingProtocol<Child>>:
  _RelationshipEncodeStep<Object, Child?, M>, @unchecked Sendable
{
  // @unchecked: immutable after init (see _EncodeStep).

  override func write(
    _ object: UnsafeRawPointer, to writer: inout _PayloadWriter, run: inout _EncodingRun,
    nulls: NullPolicy
  ) -> Bool {
    reader.withValue(at: object) { optional in
      guard optional.pointee != nil else { return writer.nullIfIncluded(nulls) }
      let plan = mapping()._plan.inverse.plan
      let depth = run.path.count
      run.path.push(components)
      // An optional's payload is stored at its start (the ABI's layout of single-payload
      // enums), so the child is read in place.
      plan.encode(at: UnsafeRawPointer(optional), to: &writer, run: &run)
      run.path.truncate(to: depth)
      return true
    }
  }
}

/// A to-many relationship into an array, a set, or an optional of either.
final class _ToManyEncodeStep<
  Object, Collection: RelationshipCollection, M: MappingProtocol<Collection.Element>
>: _RelationshipEncodeStep<Object, Collection, M>, @unchecked Sendable {
  // @unchecked: immutable after init (see _EncodeStep).
  /// The distance between elements in an array's storage.
  let stride = MemoryLayout<Collection.Element>.stride

  override func write(
    _ object: UnsafeRawPointer, to writer: inout _PayloadWriter, run: inout _EncodingRun,
    nulls: NullPolicy
  ) -> Bool {
    let elements = reader.withValue(at: object) { $0.pointee._elementsForSerialization }
    guard let elements else { return writer.nullIfIncluded(nulls) }
    let plan = mapping()._plan.inverse.plan
    let depth = run.path.count
    run.path.push(components)
    defer { run.path.truncate(to: depth) }
    if plan.keyEncoder != nil {
      plan.encodeKeyedCollection(elements, to: &writer, run: &run)
      return true
    }
    writer.beginArray()
    if Collection._isUnordered {
      let sorted = try? _sortedForOutput(elements, writer: writer) { child, nested in
        plan.encode(child, to: &nested, run: &run)
      }
      for node in sorted ?? [] { try? writer.node(node) }
    } else {
      // The children are written in place, from the array's storage.
      elements.withUnsafeBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return }
        let start = UnsafeRawPointer(base)
        for offset in 0..<buffer.count {
          run.path.append(.index(offset))
          plan.encode(at: start + offset * stride, to: &writer, run: &run)
          run.path.removeLast()
        }
      }
    }
    writer.endArray()
    return true
  }
}

/// A dictionary of objects, written with its keys sorted.
final class _DictionaryEncodeStep<Object, Child, M: MappingProtocol<Child>>:
  _RelationshipEncodeStep<Object, [String: Child], M>, @unchecked Sendable
{
  // @unchecked: immutable after init (see _EncodeStep).

  override func write(
    _ object: UnsafeRawPointer, to writer: inout _PayloadWriter, run: inout _EncodingRun,
    nulls: NullPolicy
  ) -> Bool {
    let children = reader.withValue(at: object) { $0.pointee }
    let plan = mapping()._plan.inverse.plan
    let depth = run.path.count
    run.path.push(components)
    defer { run.path.truncate(to: depth) }
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
  }
}
