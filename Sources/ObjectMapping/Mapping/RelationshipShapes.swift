/// Relationships whose children sit in nested containers: `[String: Child]?`,
/// `[String: [Child]]` and `[[Child]]` (ObjectMapper's dictionary-of-arrays and array-of-arrays),
/// and the top-level entry points that read and write the same shapes.
///
/// A shape is the containers around the children, described once as a ``Shape`` that reads
/// them from the scanned payload and writes them back: the same description serves the
/// relationship step, its serializing step and the top-level calls, so the two directions
/// cannot disagree. These shapes are rare and small next to plain to-one and to-many
/// relationships, so they run through closures rather than specialized steps.

extension Relationship {
  /// A relationship of a nested shape (the designated path of the shape initializers).
  init<Value, M: MappingProtocol>(
    shaped source: SourcePath, property: WritableKeyPath<Object, Value> & Sendable,
    acceptsAbsence: Bool, kind: RelationshipShape, shape: Shape<Value, M.Object>,
    mapping: @escaping @Sendable () -> M
  ) {
    self.init(
      source: source, property: property, acceptsAbsence: acceptsAbsence,
      encode: RelationshipEncoder {
        ShapeEncodeStep(property, mapping: mapping, components: $0, ownsNulls: $1, shape: shape)
      },
      step: {
        RelationshipStep(
          $0, source: $1,
          kind: ShapeStep($0, property: property, mapping: mapping, shape: shape))
      })
    self.shape = kind
    derivedReader = { rule in rule.shapedSlotEvaluator(shape, kind: kind, lazy: mapping) }
  }

  /// An optional dictionary of objects keyed by the payload's keys: absent leaves it, `null`
  /// clears it.
  ///
  /// ```swift
  /// Relationship("teams", \.teams, teamMapping)   // teams: [String: Team]?
  /// ```
  public init<Child>(
    _ source: some SourcePathConvertible,
    _ property: WritableKeyPath<Object, [String: Child]?> & Sendable,
    _ mapping: some MappingProtocol<Child>
  ) {
    let resolved = ResolvedMapping(mapping)
    self.init(source, property, lazy: { resolved })
  }

  /// An optional dictionary of objects whose mapping is resolved when first used (recursion).
  public init<Child, M: MappingProtocol<Child>>(
    _ source: some SourcePathConvertible,
    _ property: WritableKeyPath<Object, [String: Child]?> & Sendable,
    lazy mapping: @escaping @Sendable () -> M
  ) {
    self.init(
      shaped: source.sourcePath, property: property, acceptsAbsence: true, kind: .dictionary,
      shape: .optional(.keyedObjects), mapping: mapping)
  }

  /// A dictionary of arrays of objects (`{"open": [{...}], "done": [{...}, {...}]}`); errors
  /// inside keep the whole path (`/tasks/open/1/taskId`).
  ///
  /// ```swift
  /// Relationship("tasks", \.tasksByState, taskMapping)   // [String: [Task]]
  /// ```
  public init<Child>(
    _ source: some SourcePathConvertible,
    _ property: WritableKeyPath<Object, [String: [Child]]> & Sendable,
    _ mapping: some MappingProtocol<Child>
  ) {
    let resolved = ResolvedMapping(mapping)
    self.init(source, property, lazy: { resolved })
  }

  /// A dictionary of arrays of objects whose mapping is resolved when first used (recursion).
  public init<Child, M: MappingProtocol<Child>>(
    _ source: some SourcePathConvertible,
    _ property: WritableKeyPath<Object, [String: [Child]]> & Sendable,
    lazy mapping: @escaping @Sendable () -> M
  ) {
    self.init(
      shaped: source.sourcePath, property: property, acceptsAbsence: false, kind: .dictionary,
      shape: .dictionary(of: .array(of: .object)), mapping: mapping)
  }

  /// An optional dictionary of arrays of objects: absent leaves it, `null` clears it.
  public init<Child>(
    _ source: some SourcePathConvertible,
    _ property: WritableKeyPath<Object, [String: [Child]]?> & Sendable,
    _ mapping: some MappingProtocol<Child>
  ) {
    let resolved = ResolvedMapping(mapping)
    self.init(
      shaped: source.sourcePath, property: property, acceptsAbsence: true, kind: .dictionary,
      shape: .optional(.dictionary(of: .array(of: .object))), mapping: { resolved })
  }

  /// An array of arrays of objects (`[[{...}, {...}], [{...}]]`, a grid or pages of rows);
  /// errors inside keep both indexes (`/rows/2/0/id`).
  ///
  /// ```swift
  /// Relationship("rows", \.rows, cellMapping)   // [[Cell]]
  /// ```
  public init<Child>(
    _ source: some SourcePathConvertible,
    _ property: WritableKeyPath<Object, [[Child]]> & Sendable,
    _ mapping: some MappingProtocol<Child>
  ) {
    let resolved = ResolvedMapping(mapping)
    self.init(source, property, lazy: { resolved })
  }

  /// An array of arrays of objects whose mapping is resolved when first used (recursion).
  public init<Child, M: MappingProtocol<Child>>(
    _ source: some SourcePathConvertible,
    _ property: WritableKeyPath<Object, [[Child]]> & Sendable,
    lazy mapping: @escaping @Sendable () -> M
  ) {
    self.init(
      shaped: source.sourcePath, property: property, acceptsAbsence: false, kind: .nested,
      shape: .array(of: .array(of: .object)), mapping: mapping)
  }

  /// An optional array of arrays of objects: absent leaves it, `null` clears it.
  public init<Child>(
    _ source: some SourcePathConvertible,
    _ property: WritableKeyPath<Object, [[Child]]?> & Sendable,
    _ mapping: some MappingProtocol<Child>
  ) {
    let resolved = ResolvedMapping(mapping)
    self.init(
      shaped: source.sourcePath, property: property, acceptsAbsence: true, kind: .nested,
      shape: .optional(.array(of: .array(of: .object))), mapping: { resolved })
  }
}

// MARK: Keyless shapes

/// The keyless forms of the shapes above and of recursive relationships (issue 41): the key is
/// the one the mapping's ``KeyConvention`` makes from the property's name, as for every
/// keyless rule.
extension Relationship {
  /// A required to-one relationship whose mapping is resolved when first used (recursion), at
  /// the key the convention makes.
  ///
  /// ```swift
  /// let node: Mapping<Node> = Mapping(Node.init, keys: .snakeCase) {
  ///   Relationship(\.rootNode, lazy: { node })   // "root_node"
  /// }
  /// ```
  public init<Child, M: MappingProtocol<Child>>(
    _ property: WritableKeyPath<Object, Child> & Sendable,
    lazy mapping: @escaping @Sendable () -> M
  ) {
    self = Relationship("?", property, lazy: mapping).derivingKey(from: property)
  }

  /// A recursive dictionary of objects at the key the convention makes.
  public init<Child, M: MappingProtocol<Child>>(
    _ property: WritableKeyPath<Object, [String: Child]> & Sendable,
    lazy mapping: @escaping @Sendable () -> M
  ) {
    self = Relationship("?", property, lazy: mapping).derivingKey(from: property)
  }

  /// An optional dictionary of objects at the key the convention makes: absent leaves it,
  /// `null` clears it.
  ///
  /// ```swift
  /// Mapping(Org.init) { Relationship(\.teams, teamMapping) }   // teams: [String: Team]?
  /// ```
  public init<Child>(
    _ property: WritableKeyPath<Object, [String: Child]?> & Sendable,
    _ mapping: some MappingProtocol<Child>
  ) {
    self = Relationship("?", property, mapping).derivingKey(from: property)
  }

  /// A recursive optional dictionary of objects at the key the convention makes.
  public init<Child, M: MappingProtocol<Child>>(
    _ property: WritableKeyPath<Object, [String: Child]?> & Sendable,
    lazy mapping: @escaping @Sendable () -> M
  ) {
    self = Relationship("?", property, lazy: mapping).derivingKey(from: property)
  }

  /// A dictionary of arrays of objects at the key the convention makes.
  ///
  /// ```swift
  /// Mapping(Board.init, keys: .snakeCase) { Relationship(\.tasksByState, taskMapping) }
  /// // "tasks_by_state": {"open": [{...}], "done": [{...}]}
  /// ```
  public init<Child>(
    _ property: WritableKeyPath<Object, [String: [Child]]> & Sendable,
    _ mapping: some MappingProtocol<Child>
  ) {
    self = Relationship("?", property, mapping).derivingKey(from: property)
  }

  /// A recursive dictionary of arrays of objects at the key the convention makes.
  public init<Child, M: MappingProtocol<Child>>(
    _ property: WritableKeyPath<Object, [String: [Child]]> & Sendable,
    lazy mapping: @escaping @Sendable () -> M
  ) {
    self = Relationship("?", property, lazy: mapping).derivingKey(from: property)
  }

  /// An optional dictionary of arrays of objects at the key the convention makes: absent
  /// leaves it, `null` clears it.
  public init<Child>(
    _ property: WritableKeyPath<Object, [String: [Child]]?> & Sendable,
    _ mapping: some MappingProtocol<Child>
  ) {
    self = Relationship("?", property, mapping).derivingKey(from: property)
  }

  /// An array of arrays of objects at the key the convention makes.
  ///
  /// ```swift
  /// Mapping(Sheet.init) { Relationship(\.rows, cellMapping) }   // rows: [[Cell]]
  /// ```
  public init<Child>(
    _ property: WritableKeyPath<Object, [[Child]]> & Sendable,
    _ mapping: some MappingProtocol<Child>
  ) {
    self = Relationship("?", property, mapping).derivingKey(from: property)
  }

  /// A recursive array of arrays of objects at the key the convention makes.
  public init<Child, M: MappingProtocol<Child>>(
    _ property: WritableKeyPath<Object, [[Child]]> & Sendable,
    lazy mapping: @escaping @Sendable () -> M
  ) {
    self = Relationship("?", property, lazy: mapping).derivingKey(from: property)
  }

  /// An optional array of arrays of objects at the key the convention makes: absent leaves
  /// it, `null` clears it.
  public init<Child>(
    _ property: WritableKeyPath<Object, [[Child]]?> & Sendable,
    _ mapping: some MappingProtocol<Child>
  ) {
    self = Relationship("?", property, mapping).derivingKey(from: property)
  }
}
