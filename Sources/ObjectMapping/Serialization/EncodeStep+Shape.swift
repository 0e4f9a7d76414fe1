/// Serializes a relationship of a nested shape.
final class ShapeEncodeStep<Object, Value, M: MappingProtocol>: EncodeStepKind {
  let parts: RelationshipEncodeParts<Object, Value, M>
  let shape: Shape<Value, M.Object>

  init(
    _ property: WritableKeyPath<Object, Value>, mapping: @escaping @Sendable () -> M,
    components: [_PathComponent], ownsNulls: Bool, shape: Shape<Value, M.Object>
  ) {
    parts = RelationshipEncodeParts(
      reader: PropertyReader(property), mapping: mapping, components: components,
      ownsNulls: ownsNulls)
    self.shape = shape
  }

  func write(
    _ object: UnsafeBorrowedModel, to writer: inout PayloadWriter, run: inout EncodingRun,
    nulls: NullPolicy
  ) -> Bool {
    let value = parts.reader.value(in: object)
    let depth = run.path.count
    run.path.push(parts.components)
    defer { run.path.truncate(to: depth) }
    let nilPolicy = parts.ownsNulls ? nulls : run.relationshipNulls ?? nulls
    return shape.encode(value, childInversePlan(parts.mapping), &writer, &run, nilPolicy)
  }
}
