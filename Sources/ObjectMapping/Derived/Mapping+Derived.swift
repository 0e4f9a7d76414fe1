import Foundation

extension Mapping where Object: Codable & SendableMetatype {
  /// A mapping derived from the model's own `Codable` conformance: every key its `init(from:)`
  /// reads and its `encode(to:)` writes is mapped, named by `keys` from the coding key, and the
  /// block lists only the properties whose mapping differs.
  ///
  /// ```swift
  /// struct Issue: Codable {
  ///   var id: Int
  ///   var htmlURL: URL                 // "html_url"
  ///   var createdAt: Date              // "created_at", ISO 8601 or epoch seconds
  ///   var pullRequestURL: URL?
  ///   var closedAt: Date?
  /// }
  ///
  /// let issueMapping = Mapping(Issue.self, keys: .snakeCase) {
  ///   Attribute("pull_request.url", \.pullRequestURL)     // a nested key
  ///   Attribute("closed_at", \.closedAt, .epochSeconds)   // a transform
  /// }
  /// let issue = try issueMapping.map(data)
  /// let body = try issueMapping.serialize(issue)           // the same keys, both overrides
  /// ```
  ///
  /// Decoding runs the model's `init(from:)` on the scanned document (the reader of
  /// ``FastJSONDecoder``), with keyed containers that look each coding key up under the
  /// convention. A coding key that an override names (matched by the override's property name,
  /// `\.pullRequestURL` for the coding key `pullRequestURL`) is answered by the override instead:
  /// its source path, transform, default and validators give the value `init(from:)` asks for.
  /// Errors are ``MappingError``s with the payload's paths, as many at once as the model's
  /// `init(from:)` lets through: every override's, and every scalar member's of the object (a
  /// failed `Int`, `String`, `Bool` or floating-point member is reported and the next one read).
  ///
  /// Encoding runs the model's `encode(to:)` with keys made by the convention, leaves out the
  /// members that overrides write, and adds what the overrides write, at their paths. JSON and
  /// form bodies come from the same definition.
  ///
  /// Overrides are ``Attribute`` rules (nested keys, transforms, defaults, validation,
  /// `decodeOnly()`, groups) and ``Relationship`` rules to one child, an optional child or a
  /// collection of children through another mapping (a ``DynamicMapping`` too); a
  /// `[String: T]` or nested-collection relationship cannot override yet. A rule that cannot
  /// override, and an override for a property that the model's `init(from:)` never asks for
  /// (found the first time an object is mapped), are definition problems. The mapping's
  /// convention reaches the child mappings of its relationship overrides that declare none.
  ///
  /// Dates that the model's `Codable` reads are read with the mapping's date formats, else the
  /// call's, else ISO 8601 then epoch seconds, and written in the first of them; `Data` is
  /// base64. Onto an existing instance the model's `init(from:)` makes a whole new value, which
  /// replaces the existing one.
  ///
  /// - Parameters:
  ///   - type: The model type, whose `Codable` conformance the mapping derives from.
  ///   - keys: The convention that makes payload keys from coding keys (`.snakeCase`:
  ///     `createdAt` → `created_at`); ``KeyConvention/identity`` by default.
  ///   - overrides: The rules for the properties whose mapping differs.
  public init(
    _ type: Object.Type, keys: KeyConvention = .identity,
    @MappingBuilder<Object> overrides: () -> [any MappingRule<Object>] = { [] }
  ) {
    make = nil
    derivation = _Derivation(keys: keys)
    rules = Self.applying(keys, to: overrides())
    rebuildPlan()
  }
}

/// What a mapping derived from a `Codable` conformance needs besides its rules: the
/// convention's key names, and how its plan is built from the mapping's rules and settings.
final class _Derivation<Object>: Sendable {
  let names: _PayloadKeyNames
  private let build: @Sendable (Mapping<Object>, _PayloadKeyNames) -> _MappingPlan<Object>

  init(keys: KeyConvention) where Object: Codable & SendableMetatype {
    names = _PayloadKeyNames(keys)
    build = { mapping, names in _DerivedPlan.make(mapping, names: names) }
  }

  /// The plan of `mapping`, whose rules are the overrides.
  func plan(of mapping: Mapping<Object>) -> _MappingPlan<Object> { build(mapping, names) }
}

/// The payload keys a convention makes from coding keys, made once per name and kept (up to
/// ``limit`` names: coding keys are the model's, but a custom `init(from:)` may ask for keys
/// it read from the payload).
final class _PayloadKeyNames: @unchecked Sendable {
  // @unchecked: `kept` is read and written under `lock` only.
  let convention: KeyConvention
  private let lock = NSLock()
  private var kept: [String: String] = [:]

  static var limit: Int { 4096 }

  init(_ convention: KeyConvention) {
    self.convention = convention
  }

  /// The payload key for the coding key `name`.
  func payloadKey(for name: String) -> String {
    lock.lock()
    let known = kept[name]
    lock.unlock()
    if let known { return known }
    let made = convention.key(for: name)
    lock.lock()
    if kept.count < Self.limit { kept[name] = made }
    lock.unlock()
    return made
  }
}
