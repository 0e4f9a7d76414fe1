/// One rule of a mapping plan compiled for decoding (see ``_MappingPlan/steps``).
///
/// There is one decode engine: a step reads its value from the payload and writes it in place
/// into a new model, or, when the run maps onto an existing instance
/// (``_MappingRun/ontoExisting``), records the write in the object's patch, applied only when
/// the whole object mapped (see ``_Patch``). Steps are classes generic over the model, so a
/// plan runs them as a plain array with no existential opening per object.
class _DecodeStep<Object>: @unchecked Sendable {
  // @unchecked: steps are immutable after init; subclasses hold only `let` properties.

  /// Reads this step's value from the object at `objectIndex` and writes it into `object`, or
  /// onto an existing instance (``_MappingRun/ontoExisting``) appends the write to `patch`
  /// (`object` is then the instance as it is, for merges and validators). Problems go to `run`.
  /// `hint` carries where the previous key lookup in this object stopped. Onto an existing
  /// instance an absent value is never an error and sets no default.
  func decode(
    _ object: inout Object, _ patch: inout _Patch<Object>, objectIndex: Int,
    hint: inout _MemberHint,
    run: inout _MappingRun
  ) {}

  /// Whether this step's source is present (and not `null`) in the object at `objectIndex`:
  /// how a property written by several rules (composition) knows that one of them applied.
  func sourceIsPresent(objectIndex: Int, run: inout _MappingRun) -> Bool { true }

  /// Whether the rule applies in this run at all (a grouped rule outside the run's groups does
  /// not, see ``_GroupedStep``).
  func applies(in run: borrowing _MappingRun) -> Bool { true }

  /// Whether an absent value sets the default or fails a required value onto an existing
  /// instance too (``_AbsenceTreatment/appliesOntoExisting``, definition files).
  var absenceAppliesOntoExistingInstances: Bool { false }
}

/// The step of a rule whose definition cannot be run (a key path that could trap, see
/// ``_KeyPathCheck``): records an `invalidDefinition` error for every object instead of touching
/// the model.
final class _InvalidRuleStep<Object>: _DecodeStep<Object>, @unchecked Sendable {
  // @unchecked: immutable after init (see _DecodeStep).
  let message: String

  init(_ message: String) {
    self.message = message
  }

  override func decode(
    _ object: inout Object, _ patch: inout _Patch<Object>, objectIndex: Int,
    hint: inout _MemberHint,
    run: inout _MappingRun
  ) {
    run.fail(.invalidDefinition(message: message))
  }

  override func sourceIsPresent(objectIndex: Int, run: inout _MappingRun) -> Bool { false }
}
