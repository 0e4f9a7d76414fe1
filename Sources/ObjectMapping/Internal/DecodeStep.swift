/// One rule of a mapping plan compiled for decoding (see ``_MappingPlan/steps``).
///
/// The base class is not generic, so a plan runs its steps as a plain array of class
/// references: no existential opening and no generic metadata lookups per object. Each
/// subclass is generic over the model (and value) type and reads its type parameters from its
/// own class metadata.
class _DecodeStep: @unchecked Sendable {
  // @unchecked: steps are immutable after init; subclasses hold only `let` properties.

  /// Reads this step's value from the object at `objectIndex` and writes it into the model at
  /// `object` (a pointer to the plan's `Object`), recording problems in `run`. `hint` carries
  /// where the previous key lookup in this object stopped.
  func decode(
    into object: UnsafeMutableRawPointer, objectIndex: Int, hint: inout _MemberHint,
    run: inout _MappingRun
  ) {}

  /// Like `decode`, for mapping onto an existing instance: reads the existing model at `object`
  /// (for merge decisions) and appends its writes to the `_Patch<Object>` at `patch` instead of
  /// writing. An absent value is never an error here.
  func decodeExisting(
    from object: UnsafeRawPointer, objectIndex: Int, hint: inout _MemberHint,
    run: inout _MappingRun, patch: UnsafeMutableRawPointer
  ) {}

  /// Whether this step's source is present (and not `null`) in the object at `objectIndex`:
  /// how a property written by several rules (composition) knows that one of them applied.
  func sourceIsPresent(objectIndex: Int, run: inout _MappingRun) -> Bool { true }

  /// Whether the rule applies in this run at all (a grouped rule outside the run's groups does
  /// not, see ``_GroupedStep``).
  func applies(in run: borrowing _MappingRun) -> Bool { true }
}

/// The step of a rule whose definition cannot be run (a key path that could trap, see
/// ``_KeyPathCheck``): records an `invalidDefinition` error for every object instead of touching
/// the model.
final class _InvalidRuleStep: _DecodeStep, @unchecked Sendable {
  // @unchecked: immutable after init (see _DecodeStep).
  let message: String

  init(_ message: String) {
    self.message = message
  }

  override func decode(
    into object: UnsafeMutableRawPointer, objectIndex: Int, hint: inout _MemberHint,
    run: inout _MappingRun
  ) {
    run.fail(.invalidDefinition(message: message))
  }

  override func decodeExisting(
    from object: UnsafeRawPointer, objectIndex: Int, hint: inout _MemberHint,
    run: inout _MappingRun, patch: UnsafeMutableRawPointer
  ) {
    run.fail(.invalidDefinition(message: message))
  }

  override func sourceIsPresent(objectIndex: Int, run: inout _MappingRun) -> Bool { false }
}
