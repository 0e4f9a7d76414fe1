/// One rule of a mapping plan compiled for decoding (see ``_MappingPlan/steps``): a final class
/// holding the rule's step kind, so that the compiler checks that it is `Sendable`.
///
/// There is one decode engine: a step reads its value from the payload and writes it in place
/// into a new model, or, when the run maps onto an existing instance
/// (``MappingRun/ontoExisting``), records the write in the object's patch, applied only when
/// the whole object mapped (see ``Patch``). Steps are generic over the model, so a plan runs
/// them as a plain array of one class; each call goes to its ``kind`` (one witness call, as a
/// class hierarchy's override was one virtual call).
final class DecodeStep<Object>: Sendable {
  /// What this step does: an attribute, a relationship, a grouped or special-source wrapper, ….
  let kind: any DecodeStepKind<Object>

  init(_ kind: any DecodeStepKind<Object>) {
    self.kind = kind
  }

  /// Reads this step's value from the object at `objectIndex` and writes it into `object`, or
  /// onto an existing instance (``MappingRun/ontoExisting``) appends the write to `patch`
  /// (`object` is then the instance as it is, for merges and validators). Problems go to `run`.
  /// `hint` carries where the previous key lookup in this object stopped. Onto an existing
  /// instance an absent value is never an error and sets no default.
  @inline(__always)
  func decode(
    _ object: inout Object, _ patch: inout Patch<Object>, objectIndex: Int,
    hint: inout _MemberHint,
    run: inout MappingRun
  ) {
    kind.decode(&object, &patch, objectIndex: objectIndex, hint: &hint, run: &run)
  }

  /// Whether this step's source is present (and not `null`) in the object at `objectIndex`:
  /// how a property written by several rules (composition) knows that one of them applied.
  @inline(__always)
  func sourceIsPresent(objectIndex: Int, run: inout MappingRun) -> Bool {
    kind.sourceIsPresent(objectIndex: objectIndex, run: &run)
  }

  /// Whether this step's source is "found" in the object at `objectIndex`, in RestKit's sense
  /// present, and, when the run skips values that do not convert
  /// (``AttributeFailurePolicy/skipWithDiagnostic``), not such a value. An object none of
  /// whose sources is found is an unmappable representation (``_MappingPlan/isUnmappable(at:run:)``).
  func sourceIsFound(objectIndex: Int, run: inout MappingRun) -> Bool {
    kind.sourceIsFound(objectIndex: objectIndex, run: &run)
  }

  /// Whether the rule applies in this run at all (a grouped rule outside the run's groups does
  /// not, see ``GroupedStep``).
  @inline(__always)
  func applies(in run: borrowing MappingRun) -> Bool {
    kind.applies(in: run)
  }

  /// Whether an absent value sets the default or fails a required value onto an existing
  /// instance too (``_AbsenceTreatment/appliesOntoExisting``, definition files).
  var absenceAppliesOntoExistingInstances: Bool {
    kind.absenceAppliesOntoExistingInstances
  }

  /// The value this step would write, read from the object at `objectIndex` as an identity
  /// (``Mapping/identified(by:)``) without a model: converted with `key`, `nil` when it is
  /// absent, `null` or does not convert. Kinds that cannot read their value without a model
  /// say ``PayloadIdentityRead/unsupported``.
  func payloadIdentity(objectIndex: Int, key: IdentityKey, run: inout MappingRun)
    -> PayloadIdentityRead
  {
    kind.payloadIdentity(objectIndex: objectIndex, key: key, run: &run)
  }
}

/// Turns a value of the identity rule's type (seen as `Any`) into the identity it is, as
/// ``Identity/value`` does for a model's property; `nil` for `nil` or another type.
typealias IdentityKey = @Sendable (Any) -> AnyHashable?

/// What a step read as a payload element's identity (``DecodeStep/payloadIdentity(objectIndex:key:run:)``).
enum PayloadIdentityRead {
  /// The identity (`nil`: the payload has none, which never matches).
  case value(AnyHashable?)
  /// This kind of step writes its value only into a model (a relationship, a value read from
  /// the collection index or the metadata): the plan decodes it into a scratch model instead.
  case unsupported
}

/// What one kind of decode step does (``AttributeStep``, ``RelationshipStep``,
/// ``GroupedStep``, …): each kind is a final class, immutable after `init`, whose `Sendable`
/// conformance the compiler checks. See ``DecodeStep`` for the meaning of each requirement.
protocol DecodeStepKind<Object>: AnyObject, Sendable {
  associatedtype Object

  /// See ``DecodeStep/decode(_:_:objectIndex:hint:run:)``.
  func decode(
    _ object: inout Object, _ patch: inout Patch<Object>, objectIndex: Int,
    hint: inout _MemberHint,
    run: inout MappingRun
  )

  /// See ``DecodeStep/sourceIsPresent(objectIndex:run:)``; `true` unless a kind says otherwise.
  func sourceIsPresent(objectIndex: Int, run: inout MappingRun) -> Bool

  /// See ``DecodeStep/sourceIsFound(objectIndex:run:)``; ``sourceIsPresent(objectIndex:run:)``
  /// unless a kind says otherwise.
  func sourceIsFound(objectIndex: Int, run: inout MappingRun) -> Bool

  /// See ``DecodeStep/applies(in:)``; `true` unless a kind says otherwise.
  func applies(in run: borrowing MappingRun) -> Bool

  /// See ``DecodeStep/absenceAppliesOntoExistingInstances``; `false` unless a kind says
  /// otherwise.
  var absenceAppliesOntoExistingInstances: Bool { get }

  /// See ``DecodeStep/payloadIdentity(objectIndex:key:run:)``;
  /// ``PayloadIdentityRead/unsupported`` unless a kind says otherwise.
  func payloadIdentity(objectIndex: Int, key: IdentityKey, run: inout MappingRun)
    -> PayloadIdentityRead

  /// Whether ``decodeElements(_:into:_:objectIndex:run:)`` maps a list of the run's entries as
  /// this step's value in this run; `false` unless a kind says otherwise (a to-many
  /// relationship). Without `withChecks`, only for new children without dropping or
  /// validators: a union's checked path keeps the copy, whose run is on the heap (in place its
  /// frames overflowed 512 KB at 190 levels of a recursion).
  func mapsElementLists(in run: borrowing MappingRun, withChecks: Bool) -> Bool

  /// Maps the entries of `list` as the elements of this step's value, for the object at
  /// `objectIndex` (onto an existing instance, appending the write to `patch`), in place in
  /// the run's tape: what a key path across an array (`kids.node`) and a union
  /// (`rows.@unionOfObjects`) reach, without copying them into a document of their own.
  /// Called only when ``mapsElementLists(in:)``.
  func decodeElements(
    _ list: ElementList, into object: inout Object, _ patch: inout Patch<Object>,
    objectIndex: Int, run: inout MappingRun)
}

/// Entries of the run's tape mapped as the elements of a to-many value
/// (``DecodeStepKind/decodeElements(_:into:_:objectIndex:run:)``).
struct ElementList {
  /// The elements' entries, in order; `-1` for a missing one, mapped as `null`.
  var entries: [Int]
  /// Each element's payload path, relative to the current path (`kids/2/node` for a key path
  /// across an array); `nil`: its position (`3`).
  var paths: [[_PathComponent]]?
}

extension DecodeStepKind {
  func sourceIsPresent(objectIndex: Int, run: inout MappingRun) -> Bool { true }

  func sourceIsFound(objectIndex: Int, run: inout MappingRun) -> Bool {
    sourceIsPresent(objectIndex: objectIndex, run: &run)
  }

  func applies(in run: borrowing MappingRun) -> Bool { true }

  var absenceAppliesOntoExistingInstances: Bool { false }

  func payloadIdentity(objectIndex: Int, key: IdentityKey, run: inout MappingRun)
    -> PayloadIdentityRead
  { .unsupported }

  func mapsElementLists(in run: borrowing MappingRun, withChecks: Bool) -> Bool { false }

  func decodeElements(
    _ list: ElementList, into object: inout Object, _ patch: inout Patch<Object>,
    objectIndex: Int, run: inout MappingRun
  ) {}
}

/// The step of a rule whose definition cannot be run (a key path that could trap, see
/// ``KeyPathCheck``): records an `invalidDefinition` error for every object instead of touching
/// the model.
final class InvalidRuleStep<Object>: DecodeStepKind {
  let message: String

  init(_ message: String) {
    self.message = message
  }

  func decode(
    _ object: inout Object, _ patch: inout Patch<Object>, objectIndex: Int,
    hint: inout _MemberHint,
    run: inout MappingRun
  ) {
    run.fail(.invalidDefinition(message: message))
  }

  func sourceIsPresent(objectIndex: Int, run: inout MappingRun) -> Bool { false }
}
