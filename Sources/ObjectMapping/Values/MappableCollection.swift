/// A collection type that to-many relationships and collection attributes can fill: `Array`,
/// `ContiguousArray`, `Set`, optionals of them, and any collection you conform.
///
/// ```swift
/// Relationship("comments", \.comments, commentMapping)   // [Comment], [Comment]?, Set<Comment>
/// Attribute("tags", \.tags)                               // ContiguousArray<String>
/// ```
///
/// A collection that is a `RangeReplaceableCollection` (swift-collections' `Deque`, your own
/// ring buffer) conforms with an empty extension; any other collection says how to build
/// itself from the mapped elements, in payload order. swift-collections' `OrderedSet` takes
/// one initializer:
///
/// ```swift
/// import OrderedCollections
///
/// extension Deque: MappableCollection {}
/// extension OrderedSet: MappableCollection {
///   public init(mappedElements elements: [Element]) { self.init(elements) }
/// }
/// ```
///
/// Relationships then accept the collection as it is. To use it for an attribute of leaf
/// values (`OrderedSet<String>`), add the value conformance too; its conversions come with
/// it (each element read with its own, a lone value wrapped under lenient coercion, written
/// back as an array):
///
/// ```swift
/// extension OrderedSet: MappableValue where Element: MappableValue {}
/// extension Deque: MappableValue where Element: MappableValue {}
/// ```
///
/// Elements are written in the collection's own order (a `Set` is the exception: it has none,
/// so its elements are written sorted by their output, for deterministic payloads). Mapping
/// onto an existing instance merges into the collection's elements in that order too. An
/// optional collection (`Deque<Comment>?`) is absent or `nil` for `null`, as an optional array
/// is.
public protocol MappableCollection<Element>: SendableMetatype {
  /// The element type: a leaf value for an attribute, a model for a relationship.
  associatedtype Element
  /// Creates the collection holding `elements`, in payload order (a set drops duplicates).
  ///
  /// - Parameter elements: The mapped elements, in payload order.
  init(mappedElements elements: [Element])
  /// The elements, in the order they are written and merged into.
  var mappedElements: [Element] { get }
}

extension MappableCollection where Self: RangeReplaceableCollection {
  /// The collection built with `init(_:)` from the elements in order.
  ///
  /// - Parameter elements: The mapped elements, in payload order.
  public init(mappedElements elements: [Element]) {
    self.init(elements)
  }
}

extension MappableCollection where Self: Sequence {
  /// The elements in the collection's order.
  public var mappedElements: [Element] { Array(self) }
}

extension Array: MappableCollection {
  /// The elements.
  ///
  /// - Parameter elements: The mapped elements, in payload order.
  public init(mappedElements elements: [Element]) {
    self = elements
  }
  /// The array itself.
  public var mappedElements: [Element] { self }
}

extension ContiguousArray: MappableCollection {}

extension Set: MappableCollection {
  /// The elements as a set (duplicates collapse).
  ///
  /// - Parameter elements: The mapped elements.
  public init(mappedElements elements: [Element]) {
    self.init(elements)
  }
}

extension Optional: MappableCollection where Wrapped: MappableCollection {
  /// The wrapped collection.
  ///
  /// - Parameter elements: The mapped elements, in payload order.
  public init(mappedElements elements: [Wrapped.Element]) {
    self = Wrapped(mappedElements: elements)
  }
  /// The wrapped collection's elements; none for `nil`.
  public var mappedElements: [Wrapped.Element] { self?.mappedElements ?? [] }
}

extension MappableValue where Self: MappableCollection, Element: MappableValue {
  /// Each element converted with its own conversion, in order; under lenient coercion a
  /// single value becomes a one-element collection. Every failing element is reported with
  /// its index.
  ///
  /// - Parameter payload: The payload value.
  /// - Throws: The failures of every element that does not convert, each with its index.
  public init(payload: PayloadValue) throws {
    self.init(mappedElements: try payload.collectionElements(Element.self))
  }

  /// An array node of the elements, in the collection's order.
  public func payloadNode() throws -> Node {
    .array(try mappedElements.map { try $0.payloadNode() })
  }

  /// `"an array"`.
  public static var expectedDescription: String { "an array" }
}

extension ContiguousArray: MappableValue where Element: MappableValue {}

// MARK: What the engine knows of a collection type

/// What the engine knows about a collection type beyond its ``MappableCollection``
/// conformance, found once per relationship (not per value) from internal conformances: what
/// `null` and absence produce, how to tell a `nil` optional collection from an empty one, and
/// whether the type has an order of its own.
struct CollectionTraits<Collection: MappableCollection>: Sendable {
  /// What `null` sets and absence leaves: `nil` for an optional collection; `nil` here means
  /// `null` is an error and absence makes the relationship required.
  let nullValue: (@Sendable () -> Collection)?
  /// For an optional collection: whether a value is `nil` (its ``MappableCollection/mappedElements``
  /// are then empty); `nil` for any other collection, which is never `nil`.
  let isNil: (@Sendable (Collection) -> Bool)?
  /// The type has no order of its own (`Set`): its elements are written sorted by their
  /// output.
  let isUnordered: Bool

  /// The traits of `Collection`.
  static var of: Self {
    if let optional = Collection.self as? any OptionalCollection.Type,
      let traits = optional.optionalCollectionTraits() as? Self
    {
      return traits
    }
    return CollectionTraits(
      nullValue: nil, isNil: nil, isUnordered: Collection.self is any UnorderedCollection.Type)
  }
}

/// An optional collection, seen without its wrapped type (see ``CollectionTraits``).
protocol OptionalCollection {
  /// `CollectionTraits<Self>`, as `Any` (the protocol is used as an existential metatype).
  static func optionalCollectionTraits() -> Any
}

extension Optional: OptionalCollection where Wrapped: MappableCollection {
  static func optionalCollectionTraits() -> Any {
    CollectionTraits<Wrapped?>(
      nullValue: { nil }, isNil: { $0 == nil },
      isUnordered: CollectionTraits<Wrapped>.of.isUnordered)
  }
}

/// A collection without an order of its own, written sorted: the library's `Set`.
protocol UnorderedCollection {}

extension Set: UnorderedCollection {}
