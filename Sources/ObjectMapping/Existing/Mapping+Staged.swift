/// The writes of a mapping onto an existing instance, collected but not applied: a caller that
/// updates several instances from one payload (the object manager's store-backed loads) stages
/// every update first and applies them only when all of them mapped, so a failure anywhere
/// changes nothing.
package struct StagedUpdate<Object> {
  private let patch: Patch<Object>

  fileprivate init(_ patch: Patch<Object>) {
    self.patch = patch
  }

  /// Applies the writes (to a class instance through its reference).
  package func apply(to object: inout Object) {
    patch.apply(to: &object)
  }
}

extension MappingProtocol {
  /// The writes that `map(_:onto:with:)` would make, without making them.
  ///
  /// - Throws: ``MappingErrors`` with every problem, exactly as `map(_:onto:with:)` throws them.
  package func stageUpdate(
    _ input: some MappingInputConvertible, onto existing: Object, with options: MappingOptions
  ) throws(MappingErrors) -> StagedUpdate<Object> {
    let outcome = try input.mappingInput.withView {
      collectExisting(view: $0, onto: existing, options: options)
    }
    guard let patch = outcome.patch else { throw MappingErrors(outcome.errors) }
    return StagedUpdate(patch)
  }
}

extension MappingProtocol {
  /// Whether the mapping declares an identity (``Mapping/identified(by:)``).
  package var declaresIdentity: Bool { _plan.identity != nil }

  /// The identity of the object `input` describes, read from the payload by the identity rule
  /// as merges read it (its source, key convention, transform and coercion), without making a
  /// model; `nil` when the mapping has no identity or the payload has no usable id (absent,
  /// `null` or not convertible), which never matches.
  ///
  /// - Throws: ``MappingErrors`` with the mapping's definition problems, or when `input` cannot
  ///   be read.
  package func payloadIdentity(
    of input: some MappingInputConvertible, with options: MappingOptions
  ) throws(MappingErrors) -> AnyHashable? {
    let plan = _plan
    try plan.checkDefinition()
    guard plan.identity != nil else { return nil }
    return try input.mappingInput.withView { view in
      var run = MappingRun(tape: view, root: plan, options: options)
      return plan.payloadIdentity(at: 0, run: &run)
    }
  }
}
