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
  /// Every error, with its path: missing required keys, conversion and validation failures.
  public let errors: [MappingError]
  /// Everything noticed that is not an error: rejected values, declined or skipped elements.
  public let diagnostics: [MappingDiagnostic]

  /// Whether the payload mapped without an error.
  public var succeeded: Bool { errors.isEmpty }

  /// Errors then diagnostics, one line each, in the order found.
  public var summary: [String] { errors.map(\.description) + diagnostics.map(\.description) }
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
      return MappingReport(object: nil, errors: error.errors, diagnostics: [])
    }
    guard let patch = outcome.patch else {
      return MappingReport(object: nil, errors: outcome.errors, diagnostics: outcome.diagnostics)
    }
    patch.apply(to: &existing)
    return MappingReport(object: existing, errors: [], diagnostics: outcome.diagnostics)
  }

  /// The report of `scan` (which maps with ``_report(view:)``), or of the payload or definition
  /// problem that stopped it.
  private func _report(_ scan: () throws(MappingErrors) -> MappingReport<Object>)
    -> MappingReport<Object>
  {
    do {
      return try scan()
    } catch {
      return MappingReport(object: nil, errors: error.errors, diagnostics: [])
    }
  }

  private func _report(view: _TapeView) -> MappingReport<Object> {
    do {
      try _plan.checkDefinition()
    } catch {
      return MappingReport(object: nil, errors: error.errors, diagnostics: [])
    }
    var run = _MappingRun(tape: view)
    let object = _plan.decodeNew(at: 0, run: &run, declineIsAcceptable: false)
    return MappingReport(
      object: run.errors.isEmpty ? object : nil, errors: run.errors, diagnostics: run.diagnostics)
  }
}
