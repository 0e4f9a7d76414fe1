/// One step of a path into a payload.
enum _PathComponent: Sendable, Equatable {
  case key(String)
  case index(Int)
}

/// Renders path components as a JSON Pointer (RFC 6901): `/articles/3/author`, with `~` and
/// `/` in keys escaped as `~0` and `~1`.
func _jsonPointer(_ components: some Sequence<_PathComponent>) -> String {
  var result = ""
  for component in components {
    result += "/"
    switch component {
    case .index(let index): result += String(index)
    case .key(let key):
      if key.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) {
        result += key.replacingOccurrences(of: "~", with: "~0")
          .replacingOccurrences(of: "/", with: "~1")
      } else {
        result += key
      }
    }
  }
  return result
}

extension String {
  fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
    var result = ""
    var remainder = self[...]
    while let range = remainder.range(of: target) {
      result += remainder[..<range.lowerBound]
      result += replacement
      remainder = remainder[range.upperBound...]
    }
    return result + remainder
  }
}

extension Substring {
  fileprivate func range(of target: String) -> Range<Index>? {
    var index = startIndex
    while index < endIndex {
      if self[index...].hasPrefix(target) {
        return index..<self.index(index, offsetBy: target.count)
      }
      index = self.index(after: index)
    }
    return nil
  }
}

/// The state of one mapping run: the document, the current path and every problem found.
///
/// A run is created per call of a mapping entry point and passed `inout` down the plan, so a
/// mapping itself holds no mutable state and can be used from many tasks at once. It reads the
/// document through a ``_TapeView``, so it lives inside the ``_Tape/withView(_:)`` call that
/// made the view.
struct _MappingRun {
  /// The document; when a top-level array is mapped an element at a time, the current
  /// element's entries (see ``readsElementsAlone``).
  var tape: _TapeView
  /// The tape holds one element of a top-level array, not the whole payload: a rule reading
  /// ``SourcePath/payload`` cannot be served and sets ``needsWholePayload``, and the caller maps
  /// the payload again from a whole tape.
  var readsElementsAlone = false
  /// Set when a rule needed the whole payload while ``readsElementsAlone``.
  var needsWholePayload = false
  var errors: [MappingError] = []
  var path: [_PathComponent] = []
  /// What the run noticed that is not an error (declined elements, rejected values).
  var diagnostics: [MappingDiagnostic] = []
  /// The trace, when one was asked for; `nil` (and free) otherwise.
  var trace: [MappingTraceEvent]?
  /// Whether the to-many relationship being mapped drops failed children
  /// (``ChildFailurePolicy/dropChild``) instead of failing its parent.
  var dropsFailedChildren = false
  /// The tape index of the parent object's representation (``SourcePath/parent``) while a
  /// relationship's child is mapped; `-1` at the top level.
  var parentIndex = -1
  /// The path depth at which ``SourcePath/index`` reads as absent although the path ends in an
  /// index: the child of an empty-source to-one relationship sits at its parent's path.
  var indexHiddenAtDepth = -1

  /// The position of the object being mapped in its collection (``SourcePath/index``): the
  /// last path component when it is an index; `nil` for anything else.
  var collectionIndex: Int? {
    guard path.count != indexHiddenAtDepth, case .index(let index)? = path.last else {
      return nil
    }
    return index
  }

  /// Turns the errors recorded since `count` into one diagnostic at the current path: the
  /// element they belong to is skipped.
  mutating func dropErrors(since count: Int) {
    let reason = errors[count...].map(\.description).joined(separator: "; ")
    errors.removeSubrange(count...)
    note(.skippedElement(reason: reason))
  }

  init(tape: _TapeView) {
    self.tape = tape
  }

  /// Records a diagnostic at the current path plus `extra`.
  mutating func note(_ kind: MappingDiagnostic.Kind, at extra: [_PathComponent] = []) {
    diagnostics.append(MappingDiagnostic(path: _jsonPointer(path + extra), kind))
  }

  /// Records a trace event at the current path plus `extra`, when tracing.
  mutating func traceEvent(_ kind: MappingTraceEvent.Kind, at extra: [_PathComponent] = []) {
    guard trace != nil else { return }
    trace?.append(MappingTraceEvent(path: _jsonPointer(path + extra), kind))
  }

  /// Records a problem at the current path plus `extra` (a missing key is also traced).
  mutating func fail(_ kind: MappingError.Kind, at extra: [_PathComponent] = []) {
    if trace != nil, case .missingRequiredKey = kind { traceEvent(.missingKey, at: extra) }
    errors.append(MappingError(path: _jsonPointer(path + extra), kind))
  }

  /// Records an error thrown by a value conversion, a transform or a validator.
  mutating func record(_ error: any Error, at extra: [_PathComponent] = []) {
    switch error {
    case let nested as _NestedConversionFailures:
      for inner in nested.failures { record(inner.failure, at: extra + inner.path) }
    case let failure as ConversionFailure:
      switch failure {
      case .typeMismatch(let expected, let found):
        fail(.typeMismatch(expected: expected, found: found), at: extra)
      case .invalidValue(let expected, let raw, let reason):
        fail(.conversionFailed(expected: expected, raw: raw, reason: reason), at: extra)
      case .notRepresentable(let value, let reason):
        fail(.notRepresentable(reason: "\(value): \(reason)"), at: extra)
      }
    case let mappingError as MappingError:
      errors.append(
        MappingError(path: _jsonPointer(path + extra) + mappingError.path, mappingError.kind))
    case let mappingErrors as MappingErrors:
      for inner in mappingErrors.errors { record(inner, at: extra) }
    default:
      fail(.validationFailed(message: "\(error)"), at: extra)
    }
  }
}

extension Array where Element == _PathComponent {
  /// Appends `components` one by one (no generic `append(contentsOf:)` metadata per call).
  @inline(__always)
  mutating func push(_ components: [_PathComponent]) {
    for component in components { append(component) }
  }

  /// Removes the components after the first `count` (no `Range` metadata per call).
  @inline(__always)
  mutating func truncate(to count: Int) {
    while self.count > count { removeLast() }
  }
}
