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
}

/// A ``SourcePath`` compiled for lookups: its keys' UTF-8 bytes allocated once.
struct _CompiledSource: @unchecked Sendable {
  // @unchecked: the key buffers are written once and freed by the owning step's `deinit`.

  /// The path's first key; `nil` for a special source (the object itself).
  let first: _KeyBytes?
  /// The path's other keys.
  let rest: [_KeyBytes]
  /// An earlier rule of the same mapping reads the same first key.
  let mayRepeat: Bool
  /// The path, for error messages.
  let pathComponents: [_PathComponent]

  init(_ source: SourcePath, mayRepeat: Bool) {
    if source.isSpecial {
      first = nil
      rest = []
    } else {
      let keys = source.utf8Keys.map(_KeyBytes.init)
      first = keys.first
      rest = Array(keys.dropFirst())
    }
    self.mayRepeat = mayRepeat
    pathComponents = source.pathComponents
  }

  /// The tape index of the value this path reaches from the object at `objectIndex`, or `nil`
  /// when absent. The first key's lookup starts at `hint`.
  @inline(__always)
  func resolve(in tape: _TapeView, from objectIndex: Int, hint: inout _MemberHint) -> Int? {
    // A special source reads the index its wrapping step resolved (`-1`: absent).
    guard let first else { return objectIndex >= 0 ? objectIndex : nil }
    guard
      var current = tape.member(of: objectIndex, named: first, hint: &hint, mayRepeat: mayRepeat)
    else { return nil }
    for key in rest {
      guard let found = tape.member(of: current, named: key.buffer) else { return nil }
      current = found
    }
    return current
  }

  /// Frees the key buffers.
  func deallocate() {
    first?.deallocate()
    for key in rest { key.deallocate() }
  }
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
