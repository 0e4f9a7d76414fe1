import Foundation

/// Everything one mapping run found: the object (when it mapped), every error, and every
/// diagnostic (values rejected by validators, elements declined or skipped) — AppCoreKit's
/// summary of what is missing, for forms and debugging.
///
/// ```swift
/// let report = articleMapping.report(json)
/// report.object          // the article, or nil when it failed
/// report.summary         // ["/title: required value is missing",
///                        //  "/id: value rejected: id 0 is a placeholder", …]
/// ```
public struct MappingReport<Object> {
  /// The mapped object; `nil` when the payload had errors.
  public let object: Object?
  /// The object built from what was present, also when the payload had errors (AppCoreKit's
  /// report of a form half filled in): every value that mapped is set, every failing or
  /// missing one is left as `make()` made it. `nil` only when no object could be made at all
  /// (the payload is not an object, a dynamic mapping declined it). Equal to ``object`` when
  /// the payload mapped; for `report(_:onto:)`, the instance as it would have been updated is
  /// not computed, and this is ``object``.
  public let partialObject: Object?
  /// Every error, with its path: missing required keys, conversion and validation failures
  /// (at most the run's ``MappingOptions/errorLimit``).
  public let errors: [MappingError]
  /// Everything noticed that is not an error: rejected values, declined or skipped elements
  /// (at most the run's ``MappingOptions/errorLimit``).
  public let diagnostics: [MappingDiagnostic]
  /// How many more errors the run found past its ``MappingOptions/errorLimit``: counted, not kept.
  public let omittedErrorCount: Int
  /// How many more diagnostics the run noticed past its ``MappingOptions/errorLimit``.
  public let omittedDiagnosticCount: Int

  /// Whether the payload mapped without an error.
  public var succeeded: Bool { errors.isEmpty && omittedErrorCount == 0 }

  /// The paths of the required values that were missing (`["/title", "/author/email"]`), in the
  /// order found: AppCoreKit's list of what a form still needs.
  public var missingKeys: [String] {
    errors.filter { $0.kind == .missingRequiredKey }.map(\.path)
  }

  /// Errors then diagnostics, one line each, in the order found; a line counts each that were
  /// left out past the limit (`… and 5 more errors (beyond the error limit of a run; see
  /// MappingOptions.errorLimit)`).
  public var summary: [String] {
    var lines = errors.map(\.description)
    if let more = MessageText.omittedLine(omittedErrorCount, of: "error") { lines.append(more) }
    lines += diagnostics.map(\.description)
    if let more = MessageText.omittedLine(omittedDiagnosticCount, of: "diagnostic") {
      lines.append(more)
    }
    return lines
  }

  init(
    object: Object?, partialObject: Object? = nil, errors: CappedList<MappingError>,
    diagnostics: CappedList<MappingDiagnostic>
  ) {
    self.object = object
    self.partialObject = partialObject ?? object
    self.errors = errors.kept
    self.diagnostics = diagnostics.kept
    omittedErrorCount = errors.omittedCount
    omittedDiagnosticCount = diagnostics.omittedCount
  }

  /// The report of a payload or definition that could not be mapped at all.
  init(failure: MappingErrors) {
    object = nil
    partialObject = nil
    errors = failure.errors
    diagnostics = []
    omittedErrorCount = failure.omittedCount
    omittedDiagnosticCount = 0
  }
}

extension MappingReport: Sendable where Object: Sendable {}

extension MappingProtocol {
  /// Maps one object, or maps onto an existing one, and reports everything the run found,
  /// without throwing: a payload that cannot be read is reported as an error too.
  ///
  /// ```swift
  /// let report = signupMapping.report(formBody)
  /// if !report.succeeded { showProblems(report.summary) }
  ///
  /// let update = articleMapping.report(#"{"title": ""}"#, onto: article)
  /// update.object    // the updated article, or nil when nothing was written
  /// ```
  ///
  /// With `existing`, the payload is mapped onto it transactionally, as
  /// `map(_:onto:with:)` does: ``MappingReport/object`` is the updated instance (a copy of a
  /// struct; a class instance updated in place), or `nil` when anything failed, in which case
  /// nothing was written.
  ///
  /// - Parameters:
  ///   - input: The payload (see ``MappingInput``).
  ///   - existing: The instance to update, or `nil` (the default) to map a new object.
  ///   - options: Settings for this call, reaching every child mapping unless it sets its own.
  /// - Returns: The object (when it mapped), every error and every diagnostic.
  public func report(
    _ input: some MappingInputConvertible, onto existing: Object? = nil,
    with options: MappingOptions = .none
  ) -> MappingReport<Object> {
    guard var updated = existing else {
      do {
        return try input.mappingInput.withView { reportResult(view: $0, options: options) }
      } catch {
        return MappingReport(failure: error)
      }
    }
    let current = updated
    let outcome: ExistingOutcome<Object>
    do throws(MappingErrors) {
      outcome = try input.mappingInput.withView {
        collectExisting(view: $0, onto: current, options: options)
      }
    } catch {
      return MappingReport(failure: error)
    }
    guard let patch = outcome.patch else {
      return MappingReport(object: nil, errors: outcome.errors, diagnostics: outcome.diagnostics)
    }
    patch.apply(to: &updated)
    return MappingReport(object: updated, errors: outcome.errors, diagnostics: outcome.diagnostics)
  }

  private func reportResult(view: _UnsafeTapeView, options: MappingOptions) -> MappingReport<Object>
  {
    do {
      try _plan.checkDefinition()
    } catch {
      return MappingReport(failure: error)
    }
    var run = MappingRun(tape: view, root: _plan, options: options)
    guard _plan.isPlain, let make = _plan.make else {
      let object = _plan.decodeNew(at: 0, run: &run, declineIsAcceptable: false)
      if run.errors.isEmpty { run.applyMerges() }
      return MappingReport(
        object: run.errors.isEmpty ? object : nil, errors: run.errors,
        diagnostics: run.diagnostics)
    }
    // Built in place, kept whatever failed: the partial object of what was present.
    var partial: Object?
    if _plan.acceptsValue(at: 0, run: &run) {
      var object = make()
      _ = _plan.decode(into: &object, at: 0, run: &run)
      partial = object
    }
    if run.errors.isEmpty { _ = _plan.failsUnmappable(at: 0, run: &run) }
    // A failed report's partial object holds the call's instances as they were first mapped:
    // the later occurrences' writes are applied only when the whole payload mapped.
    if run.errors.isEmpty { run.applyMerges() }
    return MappingReport(
      object: run.errors.isEmpty ? partial : nil, partialObject: partial, errors: run.errors,
      diagnostics: run.diagnostics)
  }
}
