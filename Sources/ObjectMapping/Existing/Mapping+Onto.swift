import Foundation

extension MappingProtocol {
  /// Maps a payload onto an existing instance (AppCoreKit's `mapValue:toObject:`, RestKit's
  /// target object): only the keys present are written, an absent key keeps the current value
  /// and is not an error (a partial update).
  ///
  /// ```swift
  /// var article = try articleMapping.map(original)
  /// try articleMapping.map(#"{"title": "Updated"}"#, onto: &article)   // only the title changes
  /// ```
  ///
  /// A class instance is updated in place through the same spelling: pass a variable holding
  /// it (`var target = profile`, then `onto: &target`); the reference is never replaced.
  ///
  /// Relationships merge into the existing child when the child mapping has an identity
  /// (``Mapping/identified(by:)``) and the ids match (the same instance, for classes), and
  /// replace it otherwise; to-many relationships combine children with their
  /// ``CollectionPolicy``.
  ///
  /// The update is **transactional**: every write is collected first and applied only when the
  /// whole payload mapped. When anything fails, `existing` — and every existing child the
  /// mapping would have merged into — is left exactly as it was.
  ///
  /// - Parameters:
  ///   - input: The payload (see ``MappingInput``).
  ///   - existing: The instance to update (a struct in place, or a class reference).
  ///   - options: Settings for this call, reaching every child mapping unless it sets its own.
  /// - Throws: ``MappingErrors`` with every problem; nothing was written.
  public func map(
    _ input: some MappingInputConvertible, onto existing: inout Object,
    with options: MappingOptions = .none
  ) throws(MappingErrors) {
    let current = existing
    try input.mappingInput.withView { collectExisting(view: $0, onto: current, options: options) }
      .apply(to: &existing)
  }

  /// The writes that map the payload onto `existing`, with the run's problems: nothing is
  /// written until the whole payload mapped.
  func pendingUpdate(
    view: _UnsafeTapeView, onto existing: Object, with settings: MappingOptions = .none
  ) -> ExistingOutcome<Object> {
    do {
      try _plan.checkDefinition()
    } catch {
      return ExistingOutcome(
        patch: nil, errors: CappedList(error.errors, limit: .max),
        diagnostics: CappedList(limit: 0))
    }
    var run = MappingRun(tape: view, root: _plan, options: settings)
    var patch = _plan.patch(onto: existing, at: 0, run: &run)
    if run.errors.isEmpty, _plan.failsUnmappable(at: 0, run: &run) { patch = nil }
    // The later occurrences' writes into instances this call made (which only the patch
    // refers to): applied with the patch, or never.
    if run.errors.isEmpty, patch != nil { run.applyMerges() }
    return ExistingOutcome(
      patch: run.errors.isEmpty ? patch : nil, errors: run.errors, diagnostics: run.diagnostics)
  }
}

/// What mapping a payload onto an existing instance found: the writes to apply (`nil` when
/// anything failed) and the run's errors and diagnostics.
struct ExistingOutcome<Object> {
  let patch: Patch<Object>?
  let errors: CappedList<MappingError>
  let diagnostics: CappedList<MappingDiagnostic>

  /// Applies the writes to `existing`, or throws the errors.
  func apply(to existing: inout Object) throws(MappingErrors) {
    guard let patch else { throw MappingErrors(errors) }
    patch.apply(to: &existing)
  }
}
