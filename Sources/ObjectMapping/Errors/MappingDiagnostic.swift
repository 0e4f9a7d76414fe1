/// Something a mapping run noticed that is not an error: an element a dynamic mapping declined,
/// a value a validator rejected, a target object that was ignored.
///
/// Diagnostics are collected with the results (``MappingResult``), so nothing is dropped silently.
public struct MappingDiagnostic: Sendable, Equatable, CustomStringConvertible {
  /// What was noticed.
  public enum Kind: Sendable, Equatable {
    /// A dynamic mapping found no case for the element, which was skipped.
    case declined(reason: String)
    /// A validator rejected a value; the property kept its previous value.
    case rejected(message: String)
    /// A failed element of a collection was left out (``Relationship`` or a collection option
    /// that skips invalid elements); its errors are reported with it.
    case skippedElement(reason: String)
    /// The target object passed to the mapper was not used.
    case targetIgnored(reason: String)
    /// A value no case of an enum has was read as the attribute's fallback
    /// (`Attribute.unknownValues(as:)`, `unknownValuesAsNil()`): `raw` is the payload's value,
    /// `fallback` what was set.
    case unknownValue(raw: String, fallback: String)
    /// `null` for a property that cannot hold `nil` was not an error, as
    /// ``NullIntoNonOptional`` asked, or was ignored by ``Attribute/ignoringNull()``: `kept` is
    /// `true` when the property kept its value, `false` when it was set to its type's zero.
    case nullIgnored(kept: Bool)
    /// An object none of whose keys its mapping reads was left out: under a ``Mapper`` route,
    /// or as an element of a to-many relationship that drops failed children
    /// (``ChildFailurePolicy/dropChild``); `keys` are the object's keys (none for `{}`).
    case unmappableRepresentation(keys: [String])
    /// A value was skipped instead of failing its object: the error it would have been. An
    /// attribute value that did not convert, as ``AttributeFailurePolicy/skipWithDiagnostic``
    /// asks (the property kept its value, or got its `default:`), or any error inside a child
    /// kept with what did map, as ``ChildFailurePolicy/keepPartial`` asks.
    case valueSkipped(MappingError.Kind)
    /// Routes of a ``MappingProvider`` read values inside the whole payload, which a
    /// whole-payload route (`Route("", …)`) also maps: `keyPaths` are theirs, sorted. Noticed
    /// once, when the provider is built (``MappingProvider/diagnostics``).
    case overlappingRoutes(keyPaths: [String])
  }

  /// Where it was noticed (a JSON Pointer; empty for the whole payload).
  public let path: String
  /// What was noticed.
  public let kind: Kind

  /// Creates a diagnostic.
  public init(path: String, _ kind: Kind) {
    self.path = path
    self.kind = kind
  }

  /// One line: the path, then what was noticed; escaped and shortened as
  /// ``MappingError/description`` says (the ``path`` and the ``Kind``'s values stay exact).
  public var description: String {
    let text: String
    switch kind {
    case .declined(let reason): text = "skipped: no mapping matches: \(MessageText.message(reason))"
    case .rejected(let message): text = "value rejected: \(MessageText.message(message))"
    case .skippedElement(let reason): text = "element skipped: \(MessageText.message(reason))"
    case .targetIgnored(let reason):
      text = "target object ignored: \(MessageText.message(reason))"
    case .unknownValue(let raw, let fallback):
      text = "unknown value \(MessageText.message(raw)) read as \(MessageText.message(fallback))"
    case .nullIgnored(let kept):
      text = kept ? "null ignored: the property kept its value" : "null read as zero"
    case .unmappableRepresentation(let keys):
      text =
        "object skipped: "
        + MappingError.Kind.unmappableRepresentation(keys: keys).description
    case .valueSkipped(let error):
      text = "value skipped: \(error.description)"
    case .overlappingRoutes(let keyPaths):
      let shown = keyPaths.prefix(10).map { MessageText.quoted($0) }.joined(separator: ", ")
      let more = keyPaths.count > 10 ? " and \(keyPaths.count - 10) more" : ""
      let routes = keyPaths.count == 1 ? "the route" : "the routes"
      let read = keyPaths.count == 1 ? "reads" : "read"
      text =
        "\(routes) \(shown)\(more) \(read) values inside the whole payload, which a "
        + "whole-payload route also maps: those values are mapped twice"
    }
    return path.isEmpty ? text : "\(MessageText.pointer(path)): \(text)"
  }
}

/// One step of a traced mapping run (RestKit's delegate callbacks, for debugging).
///
/// Ask for a trace where the mapper offers it; tracing costs nothing when it is off.
public struct MappingTraceEvent: Sendable, Equatable, CustomStringConvertible {
  /// What happened.
  public enum Kind: Sendable, Equatable {
    /// A route's key path was found and its mapping applied.
    case routeMatched(keyPath: String)
    /// A dynamic mapping chose a case (`"type == Boy"`).
    case caseChosen(String)
    /// A dynamic mapping found no case.
    case declined(reason: String)
    /// A required key was missing.
    case missingKey
    /// A validator rejected a value.
    case rejected(message: String)
    /// The target object was not used.
    case targetIgnored(reason: String)
  }

  /// Where it happened (a JSON Pointer).
  public let path: String
  /// What happened.
  public let kind: Kind

  /// Creates an event.
  public init(path: String, _ kind: Kind) {
    self.path = path
    self.kind = kind
  }

  /// One line: the path, then what happened; escaped and shortened as
  /// ``MappingError/description`` says.
  public var description: String {
    let text: String
    switch kind {
    case .routeMatched(let keyPath):
      text =
        keyPath.isEmpty
        ? "route matched the whole payload" : "route matched \(MessageText.quoted(keyPath))"
    case .caseChosen(let name): text = "case chosen: \(MessageText.message(name))"
    case .declined(let reason): text = "declined: \(MessageText.message(reason))"
    case .missingKey: text = "missing key"
    case .rejected(let message): text = "value rejected: \(MessageText.message(message))"
    case .targetIgnored(let reason): text = "target ignored: \(MessageText.message(reason))"
    }
    return "\(path.isEmpty ? "/" : MessageText.pointer(path)): \(text)"
  }
}
