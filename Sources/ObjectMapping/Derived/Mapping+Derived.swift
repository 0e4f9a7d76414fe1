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
  /// collection of children through another mapping (a ``DynamicMapping`` too), a
  /// `[String: T]`, `[String: [T]]` or `[[T]]` relationship. A rule that cannot
  /// override, and an override for a property that the model's `init(from:)` never asks for
  /// (found the first time an object is mapped), are definition problems. The mapping's
  /// convention reaches the child mappings of its relationship overrides that declare none.
  ///
  /// Dates that the model's `Codable` reads are read with the mapping's date formats, else the
  /// call's, else ISO 8601 then epoch seconds, and written in the first of them; `Data` is
  /// base64. Onto an existing struct the model's `init(from:)` makes a whole new value, which
  /// replaces the existing one; onto an existing class instance, which it cannot update in
  /// place, mapping is an error (write a full mapping for classes updated in place).
  ///
  /// - Parameters:
  ///   - type: The model type, whose `Codable` conformance the mapping derives from.
  ///   - keys: The convention that makes payload keys from coding keys (`.snakeCase`:
  ///     `createdAt` → `created_at`). Without one, the call's (``MappingOptions/keys``) or a
  ///     parent mapping's convention applies, as to a full mapping that declares none, else
  ///     the coding keys are read as they are.
  ///   - overrides: The rules for the properties whose mapping differs.
  public init(
    _ type: Object.Type, keys: KeyConvention? = nil,
    @MappingBuilder<Object> overrides: () -> [any MappingRule<Object>] = { [] }
  ) {
    make = nil
    derivation = Derivation(keys: keys)
    rules = keys.map { Self.applying($0, to: overrides()) } ?? overrides()
    rebuildPlan()
  }
}

/// What a mapping derived from a `Codable` conformance needs besides its rules: the
/// convention's key names, and how its plan is built from the mapping's rules and settings.
final class Derivation<Object>: Sendable {
  /// The keys of the mapping's own convention; `nil` when it declares none.
  let own: DerivedKeys?
  /// The coding keys as they are, for runs without a convention.
  let identity: DerivedKeys
  private let build: @Sendable (Mapping<Object>, Derivation<Object>) -> _MappingPlan<Object>
  /// The keys of the conventions calls and parent mappings gave (up to 64).
  private let called = Locked([ConventionName: DerivedKeys]())
  /// The overrides compiled for those conventions, when some are keyless (up to 64).
  private let calledOverrides = Locked([ConventionName: [DerivedOverride]]())

  init(keys: KeyConvention?) where Object: Codable & SendableMetatype {
    own = keys.map { DerivedKeys(PayloadKeyNames($0)) }
    identity = DerivedKeys(PayloadKeyNames(.identity))
    build = { mapping, derivation in DerivedPlan.make(mapping, derivation: derivation) }
  }

  private init(
    own: DerivedKeys?, identity: DerivedKeys,
    build: @escaping @Sendable (Mapping<Object>, Derivation<Object>) -> _MappingPlan<Object>
  ) {
    self.own = own
    self.identity = identity
    self.build = build
  }

  /// This derivation with `convention` as the mapping's own when it declares none
  /// (``Mapping/keys(_:)``); a declared convention is kept.
  func declaring(_ convention: KeyConvention) -> Derivation {
    guard own == nil else { return self }
    return Derivation(
      own: DerivedKeys(PayloadKeyNames(convention)), identity: identity, build: build)
  }

  /// The plan of `mapping`, whose rules are the overrides.
  func plan(of mapping: Mapping<Object>) -> _MappingPlan<Object> { build(mapping, self) }

  /// The keys a run reads and writes: the mapping's own convention's, else the run's
  /// (`convention`: the call's or a parent mapping's), else the coding keys as they are.
  func keys(for convention: KeyConvention?) -> DerivedKeys {
    if let own { return own }
    guard let convention, convention.name != .identity else { return identity }
    if let known = called.withLock({ $0[convention.name] }) { return known }
    let made = DerivedKeys(PayloadKeyNames(convention))
    called.withLock { called in
      if called.count < 64 { called[convention.name] = made }
    }
    return made
  }

  /// The overrides for `convention`, made by `compile` the first time.
  func overrides(for convention: KeyConvention, compile: () -> [DerivedOverride])
    -> [DerivedOverride]
  {
    if let known = calledOverrides.withLock({ $0[convention.name] }) { return known }
    let made = compile()
    calledOverrides.withLock { called in
      if called.count < 64 { called[convention.name] = made }
    }
    return made
  }
}

/// A convention's key names with the decoding options and encoding settings that use them.
struct DerivedKeys: Sendable {
  let names: PayloadKeyNames
  /// Dates read with the library's default formats.
  let decoding: DecodingOptions
  /// Dates written as ISO 8601.
  let encoding: NodeEncodingSettings

  init(_ names: PayloadKeyNames) {
    self.names = names
    decoding = derivedOptions(names: names, formats: DateFormat.defaultFormats)
    encoding = derivedEncoding(names: names, dateFormat: .iso8601)
  }
}

/// The payload keys a convention makes from coding keys, made once per name and kept (up to
/// ``limit`` names: coding keys are the model's, but a custom `init(from:)` may ask for keys
/// it read from the payload).
final class PayloadKeyNames: Sendable {
  let convention: KeyConvention
  private let kept = Locked([String: String]())

  static var limit: Int { 4096 }

  init(_ convention: KeyConvention) {
    self.convention = convention
  }

  /// The payload key for the coding key `name`.
  func payloadKey(for name: String) -> String {
    if let known = kept.withLock({ $0[name] }) { return known }
    let made = convention.key(for: name)
    kept.withLock { kept in
      if kept.count < Self.limit { kept[name] = made }
    }
    return made
  }
}
