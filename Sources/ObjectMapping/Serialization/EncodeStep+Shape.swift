/// Serializes a relationship of a nested shape.
final class ShapeEncodeStep<Object, Value, M: MappingProtocol>:
  RelationshipEncodeStep<Object, Value, M>, @unchecked Sendable
{
  // @unchecked: immutable after init (see EncodeStep).
  let shape: _Shape<Value, M.Object>

  init(
    _ property: WritableKeyPath<Object, Value>, mapping: @escaping @Sendable () -> M,
    components: [_PathComponent], ownsNulls: Bool, shape: _Shape<Value, M.Object>
  ) {
    self.shape = shape
    super.init(property, mapping: mapping, components: components, ownsNulls: ownsNulls)
  }

  override func write(
    _ object: UnsafeBorrowedModel, to writer: inout PayloadWriter, run: inout EncodingRun,
    nulls: NullPolicy
  ) -> Bool {
    let value = reader.value(in: object)
    let depth = run.path.count
    run.path.push(components)
    defer { run.path.truncate(to: depth) }
    return shape.encode(
      value, _childInversePlan(mapping), &writer, &run, nilPolicy(nulls, run: run))
  }
}
