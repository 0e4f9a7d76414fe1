/// Maps a nested object, or a collection of them, to a property with another mapping.
///
/// ```swift
/// Relationship("author", \.author, authorMapping)        // Author or Author?
/// Relationship("comments", \.comments, commentMapping)   // [Comment], [Comment]?, Set<Comment>
/// Relationship("teams", \.teams, teamMapping)            // [String: Team]
/// Relationship("replies", \.replies, lazy: { Comment.mapping })  // recursive
/// ```
///
/// A to-one property whose type is not optional is required; `null` clears an optional one. A
/// to-many property receives the mapped elements in payload order; under lenient coercion a
/// single object becomes a one-element collection. A child that fails makes its parent fail,
/// with every error reported at its path (`/articles/3/author/email`).
public struct Relationship<Object>: MappingRule, _DecodingRule {
  /// Where the nested value is read in the payload.
  public let source: SourcePath
  let propertyKeyPath: AnyKeyPath & Sendable
  let body: @Sendable (inout Object, Int, inout _MappingRun) -> Void
  let acceptsAbsence: Bool
  var presence: _Presence = .inferred
  var coercionMode: Coercion = .lenient

  /// The same rule, never required.
  public func optional() -> Self {
    var copy = self
    copy.presence = .optional
    return copy
  }

  /// The same rule, always required.
  public func required() -> Self {
    var copy = self
    copy.presence = .required
    return copy
  }

  func bound(to context: _ValueContext) -> Self {
    var copy = self
    copy.coercionMode = context.coercion
    return copy
  }

  func decodeStep(mayRepeat: Bool) -> _DecodeStep {
    _RelationshipStep(self, mayRepeat: mayRepeat)
  }
}

/// A ``Relationship`` compiled for decoding.
final class _RelationshipStep<Object>: _DecodeStep, @unchecked Sendable {
  // @unchecked: immutable after init (see _DecodeStep).
  let rule: Relationship<Object>
  let source: _CompiledSource
  /// An absent value is an error.
  let absenceIsError: Bool

  init(_ rule: Relationship<Object>, mayRepeat: Bool) {
    self.rule = rule
    source = _CompiledSource(rule.source, mayRepeat: mayRepeat)
    absenceIsError =
      rule.presence == .required || (rule.presence == .inferred && !rule.acceptsAbsence)
  }

  deinit { source.deallocate() }

  override func decode(
    into object: UnsafeMutableRawPointer, objectIndex: Int, hint: inout _MemberHint,
    run: inout _MappingRun
  ) {
    guard let index = source.resolve(in: run.tape, from: objectIndex, hint: &hint) else {
      if absenceIsError { run.fail(.missingRequiredKey, at: source.pathComponents) }
      return
    }
    let components = source.pathComponents
    if components.count == 1 {
      run.path.append(components[0])
      rule.body(&object.assumingMemoryBound(to: Object.self).pointee, index, &run)
      run.path.removeLast()
    } else {
      let depth = run.path.count
      run.path.append(contentsOf: components)
      rule.body(&object.assumingMemoryBound(to: Object.self).pointee, index, &run)
      run.path.removeSubrange(depth...)
    }
  }
}

extension Relationship {
  private init(
    source: SourcePath, propertyKeyPath: AnyKeyPath & Sendable, acceptsAbsence: Bool,
    body: @escaping @Sendable (inout Object, Int, inout _MappingRun) -> Void
  ) {
    self.source = source
    self.propertyKeyPath = propertyKeyPath
    self.acceptsAbsence = acceptsAbsence
    self.body = body
  }

  /// A required to-one relationship.
  public init<Child>(
    _ source: some SourcePathConvertible, _ property: WritableKeyPath<Object, Child> & Sendable,
    _ mapping: some MappingProtocol<Child>
  ) {
    let resolved = _ResolvedMapping(mapping)
    self.init(source, property, lazy: { resolved })
  }

  /// A required to-one relationship whose mapping is resolved when first used (recursion).
  public init<Child, M: MappingProtocol<Child>>(
    _ source: some SourcePathConvertible, _ property: WritableKeyPath<Object, Child> & Sendable,
    lazy mapping: @escaping @Sendable () -> M
  ) {
    self.init(source: source.sourcePath, propertyKeyPath: property, acceptsAbsence: false) {
      object, index, run in
      guard run.tape[index].kind != .null else {
        run.fail(.typeMismatch(expected: "an object", found: "null"))
        return
      }
      mapping()._plan.decodeNew(at: index, run: &run) { child in
        object[keyPath: property] = consume child
      }
    }
  }

  /// An optional to-one relationship: absent leaves it, `null` clears it.
  public init<Child>(
    _ source: some SourcePathConvertible, _ property: WritableKeyPath<Object, Child?> & Sendable,
    _ mapping: some MappingProtocol<Child>
  ) {
    let resolved = _ResolvedMapping(mapping)
    self.init(source, property, lazy: { resolved })
  }

  /// An optional to-one relationship whose mapping is resolved when first used (recursion).
  public init<Child, M: MappingProtocol<Child>>(
    _ source: some SourcePathConvertible, _ property: WritableKeyPath<Object, Child?> & Sendable,
    lazy mapping: @escaping @Sendable () -> M
  ) {
    self.init(source: source.sourcePath, propertyKeyPath: property, acceptsAbsence: true) {
      object, index, run in
      guard run.tape[index].kind != .null else {
        object[keyPath: property] = nil
        return
      }
      mapping()._plan.decodeNew(at: index, run: &run) { child in
        object[keyPath: property] = consume child
      }
    }
  }

  /// A to-many relationship into an array, a set, or an optional of either.
  public init<Collection: RelationshipCollection>(
    _ source: some SourcePathConvertible,
    _ property: WritableKeyPath<Object, Collection> & Sendable,
    _ mapping: some MappingProtocol<Collection.Element>
  ) {
    let resolved = _ResolvedMapping(mapping)
    self.init(source, property, lazy: { resolved })
  }

  /// A to-many relationship whose mapping is resolved when first used (recursion).
  public init<Collection: RelationshipCollection, M: MappingProtocol<Collection.Element>>(
    _ source: some SourcePathConvertible,
    _ property: WritableKeyPath<Object, Collection> & Sendable,
    lazy mapping: @escaping @Sendable () -> M
  ) {
    self.init(
      source: source.sourcePath, propertyKeyPath: property,
      acceptsAbsence: Collection.emptyForNull != nil
    ) { object, index, run in
      let entry = run.tape[index]
      if entry.kind == .null {
        if let empty = Collection.emptyForNull {
          object[keyPath: property] = empty
        } else {
          run.fail(.typeMismatch(expected: "an array", found: "null"))
        }
        return
      }
      let plan = mapping()._plan
      guard entry.kind == .array else {
        guard entry.kind == .object, plan.context.coercion == .lenient else {
          run.fail(.typeMismatch(expected: "an array", found: run.foundDescription(at: index)))
          return
        }
        plan.decodeNew(at: index, run: &run) {
          object[keyPath: property] = Collection.make(from: [$0])
        }
        return
      }
      let before = run.errors.count
      let count = Int(entry.length)
      // Children are moved straight into the array's storage: appending to a generic array
      // would look up its metadata once per child.
      let children = [Collection.Element](unsafeUninitializedCapacity: count) {
        buffer, initialized in
        var cursor = index + 1
        for offset in 0..<count {
          run.path.append(.index(offset))
          plan.decodeNew(at: cursor, run: &run) { child in
            buffer.initializeElement(at: initialized, to: consume child)
            initialized += 1
          }
          run.path.removeLast()
          cursor = run.tape.next(after: cursor)
        }
      }
      if run.errors.count == before {
        object[keyPath: property] = Collection.make(from: children)
      }
    }
  }

  /// A dictionary of objects keyed by the payload's keys (`{"ann": {...}, "bob": {...}}`).
  public init<Child>(
    _ source: some SourcePathConvertible,
    _ property: WritableKeyPath<Object, [String: Child]> & Sendable,
    _ mapping: some MappingProtocol<Child>
  ) {
    self.init(source: source.sourcePath, propertyKeyPath: property, acceptsAbsence: false) {
      object, index, run in
      let entry = run.tape[index]
      guard entry.kind == .object else {
        run.fail(.typeMismatch(expected: "an object", found: run.foundDescription(at: index)))
        return
      }
      let plan = mapping._plan
      let before = run.errors.count
      var children: [String: Child] = [:]
      children.reserveCapacity(Int(entry.length))
      var cursor = index + 1
      for _ in 0..<Int(entry.length) {
        let key = run.tape.string(at: cursor)
        run.path.append(.key(key))
        plan.decodeNew(at: cursor + 1, run: &run) { child in children[key] = consume child }
        run.path.removeLast()
        cursor = run.tape.next(after: cursor + 1)
      }
      if run.errors.count == before {
        object[keyPath: property] = children
      }
    }
  }
}

/// A mapping's plan on its own: what a relationship with a known mapping hands its decode
/// closure, so that resolving it per child object copies one reference instead of the whole
/// mapping.
struct _ResolvedMapping<Object>: MappingProtocol {
  let _plan: _MappingPlan<Object>

  init(_ mapping: some MappingProtocol<Object>) {
    _plan = mapping._plan
  }
}

/// A collection property a to-many ``Relationship`` can fill: `Array`, `Set`, and optionals of
/// them.
public protocol RelationshipCollection: SendableMetatype {
  /// The element type, mapped by the relationship's mapping.
  associatedtype Element
  /// The collection holding `elements` in payload order (a set drops duplicates).
  static func make(from elements: [Element]) -> Self
  /// What `null` and absence produce: `nil` for optional collections; `nil` here means `null`
  /// is an error and absence makes the relationship required.
  static var emptyForNull: Self? { get }
}

extension Array: RelationshipCollection {
  /// The elements.
  public static func make(from elements: [Element]) -> [Element] { elements }
  /// `nil`: a non-optional array is required and `null` is an error.
  public static var emptyForNull: [Element]? { nil }
}

extension Set: RelationshipCollection {
  /// The elements as a set.
  public static func make(from elements: [Element]) -> Set<Element> { Set(elements) }
  /// `nil`: a non-optional set is required and `null` is an error.
  public static var emptyForNull: Set<Element>? { nil }
}

extension Optional: RelationshipCollection where Wrapped: RelationshipCollection {
  /// The wrapped collection.
  public static func make(from elements: [Wrapped.Element]) -> Wrapped? {
    Wrapped.make(from: elements)
  }
  /// `nil`: absent leaves the property, `null` clears it.
  public static var emptyForNull: Wrapped?? { .some(nil) }
}
