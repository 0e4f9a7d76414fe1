/// The step of a rule tagged with groups (``Attribute/groups(_:)``): runs the rule's step only
/// in runs whose context selects one of its groups (or no groups at all).
///
/// Groups are chosen per run (``_ValueContext/groups``), so that a call's groups reach every
/// child mapping; only grouped rules pay for the check.
final class _GroupedStep: _DecodeStep, @unchecked Sendable {
  // @unchecked: immutable after init (see _DecodeStep).
  let inner: _DecodeStep
  let groups: [String]

  init(_ inner: _DecodeStep, groups: [String]) {
    self.inner = inner
    self.groups = groups
  }

  override func decode(
    into object: UnsafeMutableRawPointer, objectIndex: Int, hint: inout _MemberHint,
    run: inout _MappingRun
  ) {
    guard run.context.includes(groups: groups) else { return }
    inner.decode(into: object, objectIndex: objectIndex, hint: &hint, run: &run)
  }

  override func decodeExisting(
    from object: UnsafeRawPointer, objectIndex: Int, hint: inout _MemberHint,
    run: inout _MappingRun, patch: UnsafeMutableRawPointer
  ) {
    guard run.context.includes(groups: groups) else { return }
    inner.decodeExisting(
      from: object, objectIndex: objectIndex, hint: &hint, run: &run, patch: patch)
  }

  override func sourceIsPresent(objectIndex: Int, run: inout _MappingRun) -> Bool {
    run.context.includes(groups: groups)
      && inner.sourceIsPresent(objectIndex: objectIndex, run: &run)
  }

  override func applies(in run: borrowing _MappingRun) -> Bool {
    run.context.includes(groups: groups)
  }
}
