/// A to-one relationship into a non-optional property: `null` is an error.
final class ToOneStep<Object, Child, M: MappingProtocol<Child>>: RelationshipKind {
  let rule: Relationship<Object>
  let writer: PropertyWriter<Object, Child>
  let validators: [Validator<Child>]
  let mapping: @Sendable () -> M

  init(
    _ rule: Relationship<Object>, property: WritableKeyPath<Object, Child>,
    mapping: @escaping @Sendable () -> M
  ) {
    self.rule = rule
    writer = PropertyWriter(property)
    self.mapping = mapping
    validators = rule.validators.compactMap { $0.typed(as: Child.self) }
  }

  func decodeValue(into object: inout Object, at index: Int, run: inout MappingRun) {
    guard run.tape[index].kind != .null else { return recordNullObject(run: &run) }
    resolvedChildPlan(mapping).decodeChild(at: index, run: &run, declineIsAcceptable: false) {
      child in
      writer.write(taking: consume child, into: &object)
    }
  }

  func mergeValue(onto object: Object, at index: Int, run: inout MappingRun)
    -> PendingValue<Child>?
  {
    guard run.tape[index].kind != .null else {
      recordNullObject(run: &run)
      return nil
    }
    let current = writer.value(in: object)
    let plan = mapping()._plan
    let match: ExistingMatch = rule.mergesInPlace(in: run) ? .inPlace : .identity
    return plan.map(existing: current, at: index, matching: match, run: &run)
      .map(PendingValue.init)
  }
}

/// A to-one relationship into an optional property: `null` clears it.
final class OptionalToOneStep<Object, Child, M: MappingProtocol<Child>>: RelationshipKind {
  let rule: Relationship<Object>
  let writer: PropertyWriter<Object, Child?>
  let validators: [Validator<Child?>]
  let mapping: @Sendable () -> M

  init(
    _ rule: Relationship<Object>, property: WritableKeyPath<Object, Child?>,
    mapping: @escaping @Sendable () -> M
  ) {
    self.rule = rule
    writer = PropertyWriter(property)
    self.mapping = mapping
    validators = rule.validators.compactMap { $0.typed(as: Child?.self) }
  }

  func decodeValue(into object: inout Object, at index: Int, run: inout MappingRun) {
    guard run.tape[index].kind != .null else {
      writer.write(nil, into: &object)
      return
    }
    // The child is handed over: a copy into the `Optional`, destroyed after the write, cost a
    // whole model's reference counting (twitter.json's `retweeted_status`, written through a
    // computed property's key path).
    resolvedChildPlan(mapping).decodeChild(at: index, run: &run) { child in
      writer.write(taking: Optional(consume child), into: &object)
    }
  }

  func mergeValue(onto object: Object, at index: Int, run: inout MappingRun)
    -> PendingValue<Child?>?
  {
    guard run.tape[index].kind != .null else { return PendingValue(nil) }
    let plan = mapping()._plan
    let match: ExistingMatch = rule.mergesInPlace(in: run) ? .inPlace : .identity
    // No child yet: a new one, which a dynamic mapping may decline as when mapping new.
    guard
      let pending = plan.map(
        existing: writer.value(in: object), at: index, matching: match,
        declineIsAcceptable: true, run: &run)
    else { return nil }
    return PendingValue(
      materialize: { pending.materialize() }, preview: { pending.preview },
      commitMerges: pending.commitMerges)
  }
}
