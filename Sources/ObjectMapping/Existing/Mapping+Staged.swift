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

  /// Maps one element of a store-backed load (the object manager's): its identity is read
  /// from the payload first, by the identity rule as merges read it (its source, key
  /// convention, transform and coercion), without making a model; when `existing` has an
  /// instance for it, the element's writes onto that instance are staged, otherwise the element
  /// is mapped new. The payload is read once, and the user's initializer runs only for a new
  /// object.
  ///
  /// - Parameters:
  ///   - input: The element.
  ///   - options: Settings for the call.
  ///   - existing: The instance already known for an identity, if any.
  /// - Returns: The element mapped new (with its identity, `nil` when the payload has none
  ///   usable: absent, `null` or not convertible), or staged onto an existing instance.
  /// - Throws: ``MappingErrors`` with every problem, as `map(_:with:)` and `map(_:onto:with:)`
  ///   throw them, and the definition problems (a mapping without an identity is one here).
  package func mapIdentified(
    _ input: some MappingInputConvertible, with options: MappingOptions,
    existing: (AnyHashable) -> Object?
  ) throws(MappingErrors) -> IdentifiedElement<Object> {
    let plan = _plan
    try plan.checkDefinition()
    guard plan.identity != nil else {
      throw MappingErrors([
        MappingError(.invalidDefinition(message: "the mapping declares no identified(by:)"))
      ])
    }
    return try input.mappingInput.withView {
      view -> Result<IdentifiedElement<Object>, MappingErrors> in
      var run = MappingRun(tape: view, root: plan, options: options)
      let id = plan.payloadIdentity(at: 0, run: &run)
      if let id, let target = existing(id) {
        let outcome = pendingUpdate(view: view, onto: target, with: options)
        guard let patch = outcome.patch else { return .failure(MappingErrors(outcome.errors)) }
        return .success(.update(target, StagedUpdate(patch), id: id))
      }
      return mapResult(view: view, with: options).map { .new($0, id: id) }
    }.get()
  }
}

/// One element of a store-backed load, as ``MappingProtocol/mapIdentified(_:with:existing:)``
/// made it.
package enum IdentifiedElement<Object> {
  /// Mapped new; `id` is `nil` when the payload has no usable identity.
  case new(Object, id: AnyHashable?)
  /// The writes onto the existing instance for `id`, staged.
  case update(Object, StagedUpdate<Object>, id: AnyHashable)
}
