/// The step of a rule tagged with groups (``Attribute/groups(_:)-(String...)``): runs the rule's step only
/// in runs whose context selects one of its groups (or no groups at all).
///
/// Groups are chosen per run (``ValueContext/groups``), so that a call's groups reach every
/// child mapping; only grouped rules pay for the check.
final class GroupedStep<Object>: DecodeStepKind {
  let inner: DecodeStep<Object>
  let groups: [String]

  init(_ inner: DecodeStep<Object>, groups: [String]) {
    self.inner = inner
    self.groups = groups
  }

  func decode(
    _ object: inout Object, _ patch: inout Patch<Object>, objectIndex: Int,
    hint: inout _MemberHint,
    run: inout MappingRun
  ) {
    guard run.context.includes(groups: groups) else { return }
    inner.decode(&object, &patch, objectIndex: objectIndex, hint: &hint, run: &run)
  }

  func sourceIsPresent(objectIndex: Int, run: inout MappingRun) -> Bool {
    run.context.includes(groups: groups)
      && inner.sourceIsPresent(objectIndex: objectIndex, run: &run)
  }

  func sourceIsFound(objectIndex: Int, run: inout MappingRun) -> Bool {
    run.context.includes(groups: groups)
      && inner.sourceIsFound(objectIndex: objectIndex, run: &run)
  }

  func applies(in run: borrowing MappingRun) -> Bool {
    run.context.includes(groups: groups)
  }

  var absenceAppliesOntoExistingInstances: Bool {
    inner.absenceAppliesOntoExistingInstances
  }

  func payloadIdentity(objectIndex: Int, key: IdentityKey, run: inout MappingRun)
    -> PayloadIdentityRead
  {
    // Outside the run's groups the rule writes nothing: the element has no identity.
    guard run.context.includes(groups: groups) else { return .value(nil) }
    return inner.payloadIdentity(objectIndex: objectIndex, key: key, run: &run)
  }
}
