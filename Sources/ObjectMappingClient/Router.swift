import Foundation
import ObjectMapping

/// An HTTP method.
public enum HTTPMethod: String, Sendable, Hashable, CaseIterable {
  case get = "GET"
  case post = "POST"
  case put = "PUT"
  case patch = "PATCH"
  case delete = "DELETE"
}

/// A path with named parameters, `/articles/:articleID/comments`: filled from values
/// (``interpolate(_:)``) and matched against paths (``match(_:)``).
///
/// A parameter is a `:` followed by letters, digits and `_`; it spans one whole segment or the
/// start of one (`/files/:name.json`). Interpolated values are percent-escaped for a path segment
/// (`a/b` → `a%2Fb`, space → `%20`) unless the route says otherwise.
public struct PathPattern: Sendable, Hashable, CustomStringConvertible {
  enum Part: Sendable, Hashable {
    case literal(String)
    case parameter(String)
  }

  let parts: [Part]
  /// The pattern as written.
  public let description: String

  /// Parses `pattern`.
  public init(_ pattern: String) {
    description = pattern
    var parts: [Part] = []
    var literal = ""
    var index = pattern.startIndex
    while index < pattern.endIndex {
      let character = pattern[index]
      let next = pattern.index(after: index)
      if character == ":", next < pattern.endIndex, Self.isNameCharacter(pattern[next]) {
        if !literal.isEmpty { parts.append(.literal(literal)) }
        literal = ""
        var end = next
        while end < pattern.endIndex, Self.isNameCharacter(pattern[end]) {
          end = pattern.index(after: end)
        }
        parts.append(.parameter(String(pattern[next..<end])))
        index = end
      } else {
        literal.append(character)
        index = next
      }
    }
    if !literal.isEmpty { parts.append(.literal(literal)) }
    self.parts = parts
  }

  private static func isNameCharacter(_ character: Character) -> Bool {
    character == "_" || character.isLetter || character.isNumber
  }

  /// The names of the parameters, in order.
  public var parameterNames: [String] {
    parts.compactMap {
      if case .parameter(let name) = $0 { name } else { nil }
    }
  }

  /// The path with every parameter replaced by its value from `values`.
  ///
  /// - Parameters:
  ///   - values: The value of each parameter; `nil` (absent, or an optional that is `nil`) is an
  ///     error, never the text `nil` or `(null)`.
  ///   - escaping: Whether values are percent-escaped for a path segment (the default).
  /// - Throws: ``ObjectManagerError/missingParameter(name:route:)``.
  public func interpolate(_ values: [String: String?], escaping: Bool = true)
    throws(ObjectManagerError) -> String
  {
    var path = ""
    for part in parts {
      switch part {
      case .literal(let text):
        path += text
      case .parameter(let name):
        guard case .some(.some(let value)) = values[name] else {
          throw .missingParameter(name: name, route: description)
        }
        path += escaping ? Self.escapeSegment(value) : value
      }
    }
    return path
  }

  /// The parameters `path` gives this pattern (its query string is ignored; values are
  /// percent-decoded), or `nil` when it does not match.
  public func match(_ path: String) -> [String: String]? {
    let path = String(path.prefix { $0 != "?" && $0 != "#" })
    var values: [String: String] = [:]
    var rest = Substring(path)
    for (position, part) in parts.enumerated() {
      switch part {
      case .literal(let text):
        guard rest.hasPrefix(text) else { return nil }
        rest = rest.dropFirst(text.count)
      case .parameter(let name):
        // Up to the next literal (or the segment's end).
        var end = rest.firstIndex(of: "/") ?? rest.endIndex
        if position + 1 < parts.count, case .literal(let next) = parts[position + 1],
          let found = rest[..<end].range(of: next.prefix { $0 != "/" })?.lowerBound,
          !next.hasPrefix("/")
        {
          end = found
        }
        let raw = rest[..<end]
        guard !raw.isEmpty else { return nil }
        values[name] = String(raw).removingPercentEncoding ?? String(raw)
        rest = rest[end...]
      }
    }
    // A trailing slash is the same path.
    guard rest.isEmpty || rest == "/" else { return nil }
    return values
  }

  /// `value` escaped for one path segment: unreserved characters and `!$&'()*+,;=:@` stay.
  static func escapeSegment(_ value: String) -> String {
    _percentEscape(value, keeping: "-._~!$&'()*+,;=:@")
  }
}

/// `text` with every byte percent-escaped but ASCII letters, digits and `kept` (non-ASCII
/// letters too: they are escaped byte by byte as UTF-8).
func _percentEscape(_ text: String, keeping kept: String) -> String {
  var allowed = CharacterSet.alphanumerics
  allowed.insert(charactersIn: kept)
  return text.unicodeScalars.map { scalar in
    if scalar.isASCII, allowed.contains(scalar) { return String(scalar) }
    return String(scalar).utf8.map { String(format: "%%%02X", $0) }.joined()
  }.joined()
}

/// Where objects live on the server (RestKit's `RKObjectRouter`): a path per model type and
/// HTTP method, filled from the object; named routes with parameters; and matching of paths
/// back to routes.
///
/// ```swift
/// var router = Router()
/// router.add(Article.self, "/articles/:id") { ["id": "\($0.id)"] }             // any method
/// router.add(Article.self, .post, "/articles")                                 // POST only
/// router.add(named: "comments", "/articles/:articleID/comments")
///
/// try router.path(for: article, method: .put)                                 // "/articles/12"
/// try router.path(named: "comments", ["articleID": "12"])                     // "/articles/12/comments"
/// router.match("/articles/12/comments?page=2")                                // comments, ["articleID": "12"]
/// ```
///
/// For an object, the route is the one for its exact type and the method, else its exact type
/// and any method, else the nearest superclass's (method first), in that order.
public struct Router: Sendable {
  struct ObjectRoute: Sendable {
    let type: Any.Type
    let typeName: String
    let method: HTTPMethod?
    let pattern: PathPattern
    let escapes: Bool
    /// The parameter values of an object of the route's type, `nil` when it is another type.
    let values: @Sendable (Any) -> [String: String?]?
    /// Whether a type is the route's type or a subclass of it.
    let covers: @Sendable (Any.Type) -> Bool
  }

  /// A route found by ``match(_:method:)``.
  public struct Match: Sendable, Equatable {
    /// The route's name (named routes), or `nil`.
    public var name: String?
    /// The model type's name (object routes), or `nil`.
    public var typeName: String?
    /// The pattern that matched.
    public var pattern: PathPattern
    /// The parameters read from the path.
    public var parameters: [String: String]
    /// The query items, percent-decoded (`?page=2&sort=new`).
    public var query: [String: String]
  }

  private var objectRoutes: [ObjectRoute] = []
  private var namedRoutes: [(name: String, method: HTTPMethod?, pattern: PathPattern)] = []

  /// An empty router.
  public init() {}

  /// Adds the route of `type` for `method` (`nil`: any method).
  ///
  /// - Parameters:
  ///   - type: The model type.
  ///   - method: The HTTP method, or `nil` for every method without a route of its own.
  ///   - pattern: The path, with `:name` parameters.
  ///   - escaping: Whether values are percent-escaped (default `true`).
  ///   - parameters: Each parameter's value for an object; `nil` values are errors when the path
  ///     is made.
  public mutating func add<Model>(
    _ type: Model.Type, _ method: HTTPMethod?, _ pattern: String, escaping: Bool = true,
    parameters: @escaping @Sendable (Model) -> [String: String?] = { _ in [:] }
  ) {
    objectRoutes.append(
      ObjectRoute(
        type: type, typeName: "\(type)", method: method,
        pattern: PathPattern(pattern), escapes: escaping,
        values: { object in (object as? Model).map(parameters) },
        covers: { $0 is Model.Type }))
  }

  /// Adds the route of `type` for every method without a route of its own.
  public mutating func add<Model>(
    _ type: Model.Type, _ pattern: String, escaping: Bool = true,
    parameters: @escaping @Sendable (Model) -> [String: String?] = { _ in [:] }
  ) {
    add(type, nil, pattern, escaping: escaping, parameters: parameters)
  }

  /// Adds a named route for every method.
  public mutating func add(named name: String, _ pattern: String) {
    namedRoutes.append((name, nil, PathPattern(pattern)))
  }

  /// Adds a named route (`method` `nil`: any method).
  public mutating func add(named name: String, _ method: HTTPMethod?, _ pattern: String) {
    namedRoutes.append((name, method, PathPattern(pattern)))
  }

  /// The path of `object` for `method`.
  ///
  /// - Throws: ``ObjectManagerError/noRoute(_:)`` when no route covers the object's type, or
  ///   ``ObjectManagerError/missingParameter(name:route:)`` for a parameter without a value.
  public func path(for object: some Any, method: HTTPMethod) throws(ObjectManagerError) -> String {
    let type = Swift.type(of: object as Any)
    guard let route = route(for: type, method: method), let values = route.values(object) else {
      throw .noRoute("\(method.rawValue) \(type)")
    }
    return try route.pattern.interpolate(values, escaping: route.escapes)
  }

  /// The path of the named route, filled from `parameters`.
  ///
  /// - Throws: ``ObjectManagerError/noRoute(_:)`` for an unknown name, or
  ///   ``ObjectManagerError/missingParameter(name:route:)``.
  public func path(
    named name: String, _ parameters: [String: String?] = [:], method: HTTPMethod? = nil
  ) throws(ObjectManagerError) -> String {
    let candidates = namedRoutes.filter { $0.name == name }
    guard
      let route = candidates.first(where: { $0.method == method && method != nil })
        ?? candidates.first(where: { $0.method == nil }) ?? candidates.first
    else { throw .noRoute(name) }
    return try route.pattern.interpolate(parameters)
  }

  /// The route that `path` (with or without a query) names for `method`: named routes first,
  /// then object routes, each in the order they were added.
  public func match(_ path: String, method: HTTPMethod? = nil) -> Match? {
    let query = Self.query(of: path)
    for route in namedRoutes where method == nil || route.method == nil || route.method == method {
      if let parameters = route.pattern.match(path) {
        return Match(
          name: route.name, typeName: nil, pattern: route.pattern, parameters: parameters,
          query: query)
      }
    }
    for route in objectRoutes where method == nil || route.method == nil || route.method == method {
      if let parameters = route.pattern.match(path) {
        return Match(
          name: nil, typeName: route.typeName, pattern: route.pattern, parameters: parameters,
          query: query)
      }
    }
    return nil
  }

  /// The most specific route for `type` and `method`.
  func route(for type: Any.Type, method: HTTPMethod) -> ObjectRoute? {
    let exact = objectRoutes.filter { $0.type == type }
    if let route = exact.first(where: { $0.method == method })
      ?? exact.first(where: { $0.method == nil })
    {
      return route
    }
    // Superclasses: the nearest one (a subclass of every other candidate) wins, its route for
    // the method before its route for any method.
    let inherited = objectRoutes.filter { $0.covers(type) }
    for method in [method, nil] {
      let candidates = inherited.filter { $0.method == method }
      if let nearest = candidates.first(where: { candidate in
        candidates.allSatisfy { $0.covers(candidate.type) }
      }) {
        return nearest
      }
    }
    return nil
  }

  private static func query(of path: String) -> [String: String] {
    guard let start = path.firstIndex(of: "?") else { return [:] }
    var items: [String: String] = [:]
    for pair in path[path.index(after: start)...].split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1)
      let name = String(parts[0]).replacingOccurrences(of: "+", with: " ")
      let value = parts.count > 1 ? String(parts[1]).replacingOccurrences(of: "+", with: " ") : ""
      items[name.removingPercentEncoding ?? name] = value.removingPercentEncoding ?? value
    }
    return items
  }
}
