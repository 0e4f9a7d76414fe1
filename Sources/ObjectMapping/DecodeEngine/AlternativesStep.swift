/// The steps of the rules that write one property (composition): the present ones run in
/// order, so the last present one wins; when none is present, the last rule's absence rule
/// (default or requirement) applies.
final class AlternativesStep<Object>: DecodeStepKind {
  let alternatives: [DecodeStep<Object>]

  init(_ alternatives: [DecodeStep<Object>]) {
    self.alternatives = alternatives
  }

  func decode(
    _ object: inout Object, _ patch: inout Patch<Object>, objectIndex: Int,
    hint: inout _MemberHint,
    run: inout MappingRun
  ) {
    var applied = false
    for step in alternatives where step.sourceIsPresent(objectIndex: objectIndex, run: &run) {
      step.decode(&object, &patch, objectIndex: objectIndex, hint: &hint, run: &run)
      applied = true
    }
    // None present: the last alternative that applies in this run decides (a default, or
    // the missing-key error; nothing onto an existing instance, unless that rule treats
    // absence there as for a new object, as definition files do).
    if !applied, let last = alternatives.last(where: { $0.applies(in: run) }),
      !run.ontoExisting || last.absenceAppliesOntoExistingInstances
    {
      last.decode(&object, &patch, objectIndex: objectIndex, hint: &hint, run: &run)
    }
  }

  func sourceIsPresent(objectIndex: Int, run: inout MappingRun) -> Bool {
    alternatives.contains { $0.sourceIsPresent(objectIndex: objectIndex, run: &run) }
  }

  func sourceIsFound(objectIndex: Int, run: inout MappingRun) -> Bool {
    alternatives.contains { $0.sourceIsFound(objectIndex: objectIndex, run: &run) }
  }
}
