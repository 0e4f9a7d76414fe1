import Foundation

/// A mapping for a `Codable` type, with no rules to write: its values are read from the payload
/// by the type's `init(from:)` (through ``FastJSONDecoder``'s reader, straight from the scanned
/// document) and written by its `encode(to:)` (through ``FastJSONEncoder``'s writer).
///
/// Use it wherever a mapping goes, so a `Codable` model can be a relationship's target, a
/// route's mapping or a dynamic case without a mapping of its own:
///
/// ```swift
/// struct Milestone: Codable { var title: String; var dueOn: Date? }
///
/// let issueMapping = Mapping(Issue.init) {
///   Attribute("title", \.title)
///   Relationship("milestone", \.milestone, CodableMapping<Milestone>())
///   Relationship("labels", \.labels)        // [Label] where Label: Codable, decoded whole
/// }
/// ```
///
/// A failure inside the value is an error whose path continues the relationship's
/// (`/milestone/due_on`). Mapping onto an existing instance replaces the value whole: `Codable`
/// has no way to update part of one. Keys are the `Codable` type's own coding keys, converted by
/// the decoder's and encoder's key strategies.
public struct CodableMapping<Object: Codable & Sendable>: MappingProtocol {
  /// The compiled plan (opaque).
  public let plan: MappingPlan<Object>

  /// A mapping reading with `decoder`'s strategies and writing with `encoder`'s.
  ///
  /// - Parameters:
  ///   - decoder: The decoding strategies (keys, dates, data, non-conforming floats).
  ///   - encoder: The encoding strategies.
  public init(
    decoder: FastJSONDecoder = FastJSONDecoder(), encoder: FastJSONEncoder = FastJSONEncoder()
  ) {
    let options = decoder.options
    let settings = encoder.settings
    let name = "\(Object.self)"
    let decode: @Sendable (Int, inout MappingRun) -> Object? = { index, run in
      guard run.hasStackLeft(forNestingAt: index, perLevel: NestingCost.codable) else {
        return nil
      }
      let payload = PayloadValue(run: run, index: index, context: run.context)
      do {
        return try decodeCodable(Object.self, from: payload, with: options)
      } catch {
        run.record(error)
        return nil
      }
    }
    let single = DynamicCase<Object>(
      // `Codable` replaces the value whole.
      name: name, decode: decode, update: .replacing,
      makeEncoder: { _ in
        CaseEncoder { value, _, writer, run in
          if writer.target == .json, settings.stream(value, into: &writer.json) { return true }
          do {
            try writer.node(try settings.node(of: value))
          } catch {
            let failure = encodingMappingError(error)
            run.errors.append(
              MappingError(
                path: _jsonPointer(run.path) + failure.path, failure.kind,
                underlyingError: failure.underlyingError))
            writer.null()
          }
          return true
        }
      })
    let dispatch = DynamicDispatch(
      cases: [single], matchers: [nil], chooser: { _ in single }, fallback: nil,
      declineIsError: true)
    let inverse = InverseMapping(dispatchingTo: [single.makeEncoder(nil)], typeName: name)
    plan = MappingPlan(_MappingPlan(dynamic: dispatch, inverse: inverse))
  }
}

extension Relationship {
  /// A relationship to a `Codable` value, read and written by its `Codable` conformance
  /// (``CodableMapping``). The value may be a collection (`[Label]`, `Set<Tag>`,
  /// `[String: Reactions]`): it is then decoded whole, as `JSONDecoder` would decode it, and
  /// replaced whole on an existing instance.
  @_disfavoredOverload
  public init<Child: Codable & Sendable>(
    _ source: some SourcePathConvertible, _ property: WritableKeyPath<Object, Child> & Sendable
  ) {
    self.init(source, property, CodableMapping<Child>())
  }

  /// An optional to-one relationship to a `Codable` value: absent leaves it, `null` clears it.
  @_disfavoredOverload
  public init<Child: Codable & Sendable>(
    _ source: some SourcePathConvertible, _ property: WritableKeyPath<Object, Child?> & Sendable
  ) {
    self.init(source, property, CodableMapping<Child>())
  }
}

extension Relationship {
  /// A relationship to a `Codable` value at the key the mapping's ``KeyConvention`` makes from
  /// the property's name, read and written by its `Codable` conformance (``CodableMapping``).
  ///
  /// ```swift
  /// Mapping(Issue.init, keys: .snakeCase) {
  ///   Relationship(\.milestone)     // "milestone", a Codable Milestone
  ///   Relationship(\.labels)        // "labels", [Label] decoded whole
  /// }
  /// ```
  @_disfavoredOverload
  public init<Child: Codable & Sendable>(
    _ property: WritableKeyPath<Object, Child> & Sendable
  ) {
    self.init(property, CodableMapping<Child>())
  }

  /// An optional to-one relationship to a `Codable` value at the key the convention makes:
  /// absent leaves it, `null` clears it.
  @_disfavoredOverload
  public init<Child: Codable & Sendable>(
    _ property: WritableKeyPath<Object, Child?> & Sendable
  ) {
    self.init(property, CodableMapping<Child>())
  }
}
