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
  /// Every error, with its path: missing required keys, conversion and validation failures
  /// (at most the run's ``MappingErrorLimit``).
  public let errors: [MappingError]
  /// Everything noticed that is not an error: rejected values, declined or skipped elements
  /// (at most the run's ``MappingErrorLimit``).
  public let diagnostics: [MappingDiagnostic]
  /// How many more errors the run found past its ``MappingErrorLimit``: counted, not kept.
  public let omittedErrorCount: Int
  /// How many more diagnostics the run noticed past its ``MappingErrorLimit``.
  public let omittedDiagnosticCount: Int

  /// Whether the payload mapped without an error.
  public var succeeded: Bool { errors.isEmpty && omittedErrorCount == 0 }

  /// Errors then diagnostics, one line each, in the order found; a line counts each that were
  /// left out past the limit (`… and 5 more errors (beyond the error limit of a run; see
  /// MappingErrorLimit)`).
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
    object: Object?, errors: CappedList<MappingError>,
    diagnostics: CappedList<MappingDiagnostic>
  ) {
    self.object = object
    self.errors = errors.kept
    self.diagnostics = diagnostics.kept
    omittedErrorCount = errors.omittedCount
    omittedDiagnosticCount = diagnostics.omittedCount
  }

  /// The report of a payload or definition that could not be mapped at all.
  init(failure: MappingErrors) {
    object = nil
    errors = failure.errors
    diagnostics = []
    omittedErrorCount = failure.omittedCount
    omittedDiagnosticCount = 0
  }
}

extension MappingReport: Sendable where Object: Sendable {}

extension MappingProtocol {
  /// Maps one object and reports everything the run found, without throwing for mapping
  /// problems (a payload that cannot be read is reported as an error too).
  public func report(_ json: String, options: JSONReadingOptions = .strict) -> MappingReport<Object>
  {
    _report { () throws(MappingErrors) in
      try _Tape.withView(json: json, options: options) { _report(view: $0) }
    }
  }

  /// Maps one object from JSON bytes and reports everything the run found; see
  /// ``report(_:options:)-(String,_)``.
  public func report(_ data: Data, options: JSONReadingOptions = .strict) -> MappingReport<Object> {
    _report { () throws(MappingErrors) in
      try _Tape.withView(json: data, options: options) { _report(view: $0) }
    }
  }

  /// Maps one object from a node and reports everything the run found.
  public func report(_ node: Node) -> MappingReport<Object> {
    _report { () throws(MappingErrors) in
      try _Tape.checked(node: node).withView { _report(view: $0) }
    }
  }

  /// Maps JSON onto an existing instance (transactionally, as ``map(_:onto:)-(Node,_)``) and
  /// reports everything the run found; ``MappingReport/object`` is the updated instance, or
  /// `nil` when nothing was written.
  public func report(_ json: String, onto existing: inout Object) -> MappingReport<Object> {
    let current = existing
    let outcome: _ExistingOutcome<Object>
    do throws(MappingErrors) {
      outcome = try _Tape.withView(json: json, options: .strict) {
        _collectExisting(view: $0, onto: current)
      }
    } catch {
      return MappingReport(failure: error)
    }
    guard let patch = outcome.patch else {
      return MappingReport(object: nil, errors: outcome.errors, diagnostics: outcome.diagnostics)
    }
    patch.apply(to: &existing)
    return MappingReport(object: existing, errors: outcome.errors, diagnostics: outcome.diagnostics)
  }

  /// The report of `scan` (which maps with ``_report(view:)``), or of the payload or definition
  /// problem that stopped it.
  private func _report(_ scan: () throws(MappingErrors) -> MappingReport<Object>)
    -> MappingReport<Object>
  {
    do {
      return try scan()
    } catch {
      return MappingReport(failure: error)
    }
  }

  private func _report(view: _TapeView) -> MappingReport<Object> {
    do {
      try _plan.checkDefinition()
    } catch {
      return MappingReport(failure: error)
    }
    var run = _MappingRun(tape: view)
    let object = _plan.decodeNew(at: 0, run: &run, declineIsAcceptable: false)
    return MappingReport(
      object: run.errors.isEmpty ? object : nil, errors: run.errors, diagnostics: run.diagnostics)
  }
}
