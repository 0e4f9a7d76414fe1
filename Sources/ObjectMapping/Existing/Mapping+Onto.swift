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
  ///   - node: The payload.
  ///   - existing: The instance to update (a struct in place, or a class reference).
  /// - Throws: ``MappingErrors`` with every problem; nothing was written.
  public func map(_ node: Node, onto existing: inout Object) throws(MappingErrors) {
    try _Tape.checked(node: node).withView { _collectExisting(view: $0, onto: existing) }
      .apply(to: &existing)
  }

  /// Maps JSON onto an existing instance; see ``map(_:onto:)-(Node,_)``.
  public func map(
    _ data: Data, onto existing: inout Object, options: JSONReadingOptions = .strict
  ) throws(MappingErrors) {
    try _Tape.withView(json: data, options: options) { _collectExisting(view: $0, onto: existing) }
      .apply(to: &existing)
  }

  /// Maps JSON text onto an existing instance; see ``map(_:onto:)-(Node,_)``.
  public func map(
    _ json: String, onto existing: inout Object, options: JSONReadingOptions = .strict
  ) throws(MappingErrors) {
    try _Tape.withView(json: json, options: options) { _collectExisting(view: $0, onto: existing) }
      .apply(to: &existing)
  }

  /// The writes that map the payload onto `existing`, with the run's problems: nothing is
  /// written until the whole payload mapped.
  func _collectExisting(view: _TapeView, onto existing: Object) -> _ExistingOutcome<Object> {
    do {
      try _plan.checkDefinition()
    } catch {
      return _ExistingOutcome(
        patch: nil, errors: CappedList(error.errors, limit: .max),
        diagnostics: CappedList(limit: 0))
    }
    var run = _MappingRun(tape: view)
    let patch = _plan.collectExisting(existing, at: 0, run: &run)
    return _ExistingOutcome(
      patch: run.errors.isEmpty ? patch : nil, errors: run.errors, diagnostics: run.diagnostics)
  }
}

/// What mapping a payload onto an existing instance found: the writes to apply (`nil` when
/// anything failed) and the run's errors and diagnostics.
struct _ExistingOutcome<Object> {
  let patch: _Patch<Object>?
  let errors: CappedList<MappingError>
  let diagnostics: CappedList<MappingDiagnostic>

  /// Applies the writes to `existing`, or throws the errors.
  func apply(to existing: inout Object) throws(MappingErrors) {
    guard let patch else { throw MappingErrors(errors) }
    patch.apply(to: &existing)
  }
}

extension MappingProtocol where Object: AnyObject {
  /// Maps JSON onto an existing class instance, in place; see ``map(_:onto:)-(Node,_)``.
  public func map(_ data: Data, onto existing: Object, options: JSONReadingOptions = .strict)
    throws(MappingErrors)
  {
    var reference = existing
    try map(data, onto: &reference, options: options)
  }

  /// Maps JSON text onto an existing class instance, in place; see ``map(_:onto:)-(Node,_)``.
  public func map(_ json: String, onto existing: Object, options: JSONReadingOptions = .strict)
    throws(MappingErrors)
  {
    var reference = existing
    try map(json, onto: &reference, options: options)
  }
}
