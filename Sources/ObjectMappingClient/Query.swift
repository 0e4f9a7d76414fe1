import Foundation
import ObjectMapping

/// Query items: from a dictionary literal (`["page": "2"]`), a list, or an object written by a
/// mapping's inverse (`Query(filter, mapping: filterMapping)`).
///
/// ```swift
/// let page = try await manager.getCollection(
///   "/issues", query: ["state": "open", "q": "ui & ux"], mapping: issueMapping)
/// // GET /issues?state=open&q=ui%20%26%20ux
///
/// let filter = Filter(state: "open", labelNames: ["bug", "ui & ux"])
/// let filtered = try await manager.getCollection(
///   "/issues", query: Query(filter, mapping: filterMapping), mapping: issueMapping)
/// // GET /issues?state=open&label_names%5B%5D=bug&label_names%5B%5D=ui%20%26%20ux
/// // (through a manager with MappingOptions(keys: .snakeCase))
/// ```
///
/// Items are encoded exactly once, when the request is made, the same way however the query
/// was built: every byte of a name or value but ASCII letters, digits and `-._~` is
/// percent-encoded (a space is `%20`, `&` is `%26`, `+` is `%2B`), so no value can add an item.
/// An object is written by its mapping's inverse as a form body would be (nested objects as
/// `filter[state]`, arrays as `labels[]`), with the ``MappingOptions`` of the manager that sends
/// the request: a snake_case client writes snake_case names.
public struct Query: Sendable, ExpressibleByDictionaryLiteral {
  /// One query item, not encoded.
  public struct Item: Sendable, Hashable {
    /// The name.
    public var name: String
    /// The value.
    public var value: String

    /// An item.
    ///
    /// - Parameters:
    ///   - name: The name, not encoded.
    ///   - value: The value, not encoded.
    public init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  private enum Source: Sendable {
    case items([Item])
    case object(@Sendable (MappingOptions) throws(MappingErrors) -> [Item])
  }

  private let source: Source

  /// Items from a dictionary, sorted by name.
  ///
  /// - Parameter items: The names and values, not encoded.
  public init(_ items: [String: String]) {
    source = .items(items.sorted { $0.key < $1.key }.map { Item(name: $0.key, value: $0.value) })
  }

  /// Items in the given order; a name may repeat.
  ///
  /// - Parameter items: The items, not encoded.
  public init(items: [Item]) {
    source = .items(items)
  }

  /// Items from a dictionary literal, in the literal's order.
  public init(dictionaryLiteral elements: (String, String)...) {
    source = .items(elements.map { Item(name: $0.0, value: $0.1) })
  }

  /// `object`'s members as items, written by `mapping`'s inverse like a form body
  /// (`filter[state]=open`, `labels[]=bug`) when the request is made, with the sending
  /// manager's options.
  ///
  /// - Parameters:
  ///   - object: The object to write.
  ///   - mapping: The mapping whose inverse writes it.
  ///   - format: How arrays, nulls and booleans are written (the form body's options).
  public init<M: MappingProtocol>(
    _ object: M.Object, mapping: M, format: FormEncodingOptions = FormEncodingOptions()
  ) where M.Object: Sendable {
    source = .object { options throws(MappingErrors) in
      let form = try mapping.serialize(object, as: .formURLEncoded(format), with: options)
      return Self.items(ofForm: Array(form))
    }
  }

  /// The items, with an object written with `options`.
  ///
  /// - Parameter options: The options an object's mapping writes with.
  /// - Returns: The items, not encoded.
  /// - Throws: ``MappingErrors`` when the mapping cannot write the object.
  public func items(with options: MappingOptions = .none) throws(MappingErrors) -> [Item] {
    switch source {
    case .items(let items): return items
    case .object(let write): return try write(options)
    }
  }

  /// The query string, without the `?`: each name and value percent-encoded once.
  ///
  /// - Parameter options: The options an object's mapping writes with.
  /// - Returns: `name=value` pairs joined by `&`.
  /// - Throws: ``MappingErrors`` when the mapping cannot write the object.
  public func encoded(with options: MappingOptions = .none) throws(MappingErrors) -> String {
    Self.encode(try items(with: options))
  }

  static func encode(_ items: [Item]) -> String {
    var bytes: [UInt8] = []
    for item in items {
      if !bytes.isEmpty { bytes.append(UInt8(ascii: "&")) }
      _appendPercentEncoded(item.name, keeping: .unreserved, to: &bytes)
      bytes.append(UInt8(ascii: "="))
      _appendPercentEncoded(item.value, keeping: .unreserved, to: &bytes)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The items of a form body: split on `&` and the first `=`, decoded (`+` is a space).
  private static func items(ofForm bytes: [UInt8]) -> [Item] {
    PathPattern.rawQueryItems(bytes, 0..<bytes.count).map {
      Item(
        name: PathPattern.decoded(bytes[$0.name], plusAsSpace: true),
        value: PathPattern.decoded(bytes[$0.value], plusAsSpace: true))
    }
  }
}
