import Foundation
import ObjectMapping

/// Where objects live on the server (RestKit's router): a path per model type and HTTP
/// methods, filled from the object; named routes with parameters; and matching of paths back to
/// routes.
///
/// ```swift
/// var router = Router()
/// try router.add(Article.self, "/articles/:id") { ["id": "\($0.id)"] }      // any method
/// try router.add(Article.self, .post, "/articles")                          // POST only
/// try router.add(named: "comments", "/articles/:articleID/comments")
/// try router.add(relationship: "comments", of: Article.self, "/articles/:id/comments") {
///   ["id": "\($0.id)"]
/// }
///
/// try router.path(for: article, method: .put)                  // "/articles/12"
/// try router.path(named: "comments", ["articleID": "12"])      // "/articles/12/comments"
/// router.match("/articles/12/comments?page=2")                 // comments, articleID 12, page 2
/// try router.path(forRelationship: "comments", of: article)   // "/articles/12/comments"
/// ```
///
/// **Precedence** (RestKit's): for an object, the routes of its own type are looked at first —
/// the route for exactly the method, then a set of methods holding it, then the any-method
/// route — then those of its nearest superclass in the same order, and so on up. A nearer
/// class's any-method route therefore wins over a farther superclass's route for the method.
///
/// **Registration is checked**: a pattern with a syntax problem, a second route for the same
/// type and method (or two sets of methods that share one), and a second route with the same
/// name are errors of ``add(_:_:_:escaping:allowingTrailingSlash:parameters:)`` — never a silent
/// first-wins. A `Router` value is therefore always consistent.
public struct Router: Sendable {
  struct ObjectRoute: Sendable {
    let type: Any.Type
    let typeName: String
    /// The relationship the route is for (RestKit's relationship routes), or `nil` for the
    /// object's own route.
    let relationship: String?
    let methods: HTTPMethods
    let pattern: PathPattern
    let escapes: Bool
    let allowsTrailingSlash: Bool
    /// The parameter values of an object of the route's type, `nil` when it is another type.
    let values: @Sendable (Any) -> [String: String?]?
    /// Whether a type is the route's type or a subtype of it.
    let covers: @Sendable (Any.Type) -> Bool
  }

  struct NamedRoute: Sendable {
    let name: String
    let methods: HTTPMethods
    let pattern: PathPattern
    let escapes: Bool
    let allowsTrailingSlash: Bool
  }

  /// A route found by ``match(_:method:)``.
  public struct Match: Sendable, Equatable {
    /// The route's name (named routes), or `nil`.
    public var name: String?
    /// The model type's name (object and relationship routes), or `nil`.
    public var typeName: String?
    /// The relationship's name (relationship routes), or `nil`.
    public var relationship: String? = nil
    /// The pattern that matched.
    public var pattern: PathPattern
    /// The parameters read from the path, percent-decoded.
    public var parameters: [String: String]
    /// The query items, percent-decoded (`+` is a space), in order; a name may repeat.
    public var queryItems: [Query.Item]
    /// The query items by name; the first item of a repeated name wins.
    public var query: [String: String] {
      var result: [String: String] = [:]
      for item in queryItems where result[item.name] == nil { result[item.name] = item.value }
      return result
    }
    /// The query items and the path parameters in one dictionary (RestKit's arguments): a path
    /// parameter wins over a query item of the same name.
    public var arguments: [String: String] {
      query.merging(parameters) { _, parameter in parameter }
    }
  }

  private var objectRoutes: [ObjectRoute] = []
  private var namedRoutes: [NamedRoute] = []

  /// An empty router.
  public init() {}

  // MARK: Registering

  /// Adds the route of `type` for `methods`.
  ///
  /// ```swift
  /// try router.add(Article.self, [.get, .head], "/articles/:id") { ["id": "\($0.id)"] }
  /// ```
  ///
  /// - Parameters:
  ///   - type: The model type; its subclasses use the route too when they have none closer.
  ///   - methods: The methods (`.post`, `[.get, .head]`, `.any`).
  ///   - pattern: The path, with `:name`, `{name}` or `(name)` parameters (see
  ///     ``PathPattern``).
  ///   - escaping: Whether values are percent-encoded (default `true`); see
  ///     ``PathPattern/interpolate(_:escaping:)``.
  ///   - allowingTrailingSlash: Whether ``match(_:method:)`` also takes the path with (or
  ///     without) a trailing `/` the pattern does not have (default `false`, as RestKit).
  ///   - parameters: Each parameter's value for an object; `nil` and empty values are errors
  ///     when the path is made.
  /// - Throws: ``RouterError``: a pattern problem, or a route of `type` for one of `methods`
  ///   at the same precedence already (an exact method twice, any twice, or two sets that
  ///   share a method). The router is unchanged.
  public mutating func add<Model>(
    _ type: Model.Type, _ methods: HTTPMethods, _ pattern: String, escaping: Bool = true,
    allowingTrailingSlash: Bool = false,
    parameters: @escaping @Sendable (Model) -> [String: String?] = { _ in [:] }
  ) throws(RouterError) {
    try add(
      type, relationship: nil, methods, pattern, escaping: escaping,
      allowingTrailingSlash: allowingTrailingSlash, parameters: parameters)
  }

  /// Adds the route of a relationship of `type` for `methods` (RestKit's relationship route):
  /// where the related objects of one object live.
  ///
  /// ```swift
  /// try router.add(relationship: "friends", of: User.self, .get, "/users/:id/friends") {
  ///   ["id": "\($0.id)"]
  /// }
  /// let path = try router.path(forRelationship: "friends", of: user)   // "/users/7/friends"
  /// let friends = try await manager.getCollection(path, mapping: userMapping)
  /// ```
  ///
  /// The route is looked up by the relationship's name and the object's type, with the
  /// precedence of object routes (the type's own routes first, then its superclasses'; an
  /// exact method, then a set, then any).
  ///
  /// - Parameters:
  ///   - relationship: The relationship's name (`"friends"`); any text.
  ///   - type: The type that has the relationship; subclasses use the route too.
  ///   - methods: The methods (`.get`, `[.get, .head]`, `.any`).
  ///   - pattern: The path, with parameters filled from the object (see ``PathPattern``).
  ///   - escaping: Whether values are percent-encoded (default `true`).
  ///   - allowingTrailingSlash: Whether ``match(_:method:)`` also takes a trailing `/` the
  ///     pattern does not have.
  ///   - parameters: Each parameter's value for an object.
  /// - Throws: ``RouterError``: a pattern problem, or a route of the same relationship of
  ///   `type` for one of `methods` at the same precedence already.
  public mutating func add<Model>(
    relationship: String, of type: Model.Type, _ methods: HTTPMethods, _ pattern: String,
    escaping: Bool = true, allowingTrailingSlash: Bool = false,
    parameters: @escaping @Sendable (Model) -> [String: String?] = { _ in [:] }
  ) throws(RouterError) {
    try add(
      type, relationship: relationship, methods, pattern, escaping: escaping,
      allowingTrailingSlash: allowingTrailingSlash, parameters: parameters)
  }

  /// Adds the route of a relationship of `type` for every method without a closer route
  /// (``add(relationship:of:_:_:escaping:allowingTrailingSlash:parameters:)`` with
  /// ``HTTPMethods/any``).
  ///
  /// - Parameters:
  ///   - relationship: The relationship's name.
  ///   - type: The type that has the relationship.
  ///   - pattern: The path, with parameters.
  ///   - escaping: Whether values are percent-encoded (default `true`).
  ///   - allowingTrailingSlash: Whether matching also takes a trailing `/` the pattern does not
  ///     have.
  ///   - parameters: Each parameter's value for an object.
  /// - Throws: ``RouterError`` as the method form does.
  public mutating func add<Model>(
    relationship: String, of type: Model.Type, _ pattern: String, escaping: Bool = true,
    allowingTrailingSlash: Bool = false,
    parameters: @escaping @Sendable (Model) -> [String: String?] = { _ in [:] }
  ) throws(RouterError) {
    try add(
      type, relationship: relationship, .any, pattern, escaping: escaping,
      allowingTrailingSlash: allowingTrailingSlash, parameters: parameters)
  }

  private mutating func add<Model>(
    _ type: Model.Type, relationship: String?, _ methods: HTTPMethods, _ pattern: String,
    escaping: Bool, allowingTrailingSlash: Bool,
    parameters: @escaping @Sendable (Model) -> [String: String?]
  ) throws(RouterError) {
    let parsed = try PathPattern(pattern)
    let typeName = String(describing: type)
    if let clash = objectRoutes.first(where: {
      $0.type == type && $0.relationship == relationship
        && $0.methods.overlapsAtSameRank(methods)
    }) {
      throw RouterError(
        .duplicateRoute(
          type: relationship.map { "\(typeName).\($0)" } ?? typeName,
          methods: methods.description, pattern: pattern,
          existing: clash.pattern.description))
    }
    objectRoutes.append(
      ObjectRoute(
        type: type, typeName: typeName, relationship: relationship, methods: methods,
        pattern: parsed, escapes: escaping, allowsTrailingSlash: allowingTrailingSlash,
        values: { object in (object as? Model).map(parameters) },
        covers: { $0 is Model.Type }))
  }

  /// Adds the route of `type` for every method without a closer route
  /// (``add(_:_:_:escaping:allowingTrailingSlash:parameters:)`` with ``HTTPMethods/any``).
  ///
  /// - Parameters:
  ///   - type: The model type.
  ///   - pattern: The path, with parameters.
  ///   - escaping: Whether values are percent-encoded (default `true`).
  ///   - allowingTrailingSlash: Whether matching also takes a trailing `/` the pattern does not
  ///     have.
  ///   - parameters: Each parameter's value for an object.
  /// - Throws: ``RouterError`` as the method form does.
  public mutating func add<Model>(
    _ type: Model.Type, _ pattern: String, escaping: Bool = true,
    allowingTrailingSlash: Bool = false,
    parameters: @escaping @Sendable (Model) -> [String: String?] = { _ in [:] }
  ) throws(RouterError) {
    try add(
      type, .any, pattern, escaping: escaping, allowingTrailingSlash: allowingTrailingSlash,
      parameters: parameters)
  }

  /// Adds a named route.
  ///
  /// ```swift
  /// try router.add(named: "search", .get, "/search?q=:query")
  /// try router.path(named: "search", ["query": "a&b"])    // "/search?q=a%26b"
  /// ```
  ///
  /// - Parameters:
  ///   - name: The route's name; names are unique.
  ///   - methods: The methods the route serves (for ``match(_:method:)``).
  ///   - pattern: The path, with parameters.
  ///   - escaping: Whether values are percent-encoded (default `true`).
  ///   - allowingTrailingSlash: Whether matching also takes a trailing `/` the pattern does not
  ///     have.
  /// - Throws: ``RouterError``: a pattern problem, or a route with this name already.
  public mutating func add(
    named name: String, _ methods: HTTPMethods, _ pattern: String, escaping: Bool = true,
    allowingTrailingSlash: Bool = false
  ) throws(RouterError) {
    let parsed = try PathPattern(pattern)
    if let clash = namedRoutes.first(where: { $0.name == name }) {
      throw RouterError(
        .duplicateName(name, pattern: pattern, existing: clash.pattern.description))
    }
    namedRoutes.append(
      NamedRoute(
        name: name, methods: methods, pattern: parsed, escapes: escaping,
        allowsTrailingSlash: allowingTrailingSlash))
  }

  /// Adds a named route for every method.
  ///
  /// - Parameters:
  ///   - name: The route's name; names are unique.
  ///   - pattern: The path, with parameters.
  ///   - escaping: Whether values are percent-encoded (default `true`).
  ///   - allowingTrailingSlash: Whether matching also takes a trailing `/` the pattern does not
  ///     have.
  /// - Throws: ``RouterError`` as the method form does.
  public mutating func add(
    named name: String, _ pattern: String, escaping: Bool = true,
    allowingTrailingSlash: Bool = false
  ) throws(RouterError) {
    try add(
      named: name, .any, pattern, escaping: escaping,
      allowingTrailingSlash: allowingTrailingSlash)
  }

  // MARK: Paths

  /// The path of `object` for `method`.
  ///
  /// - Parameters:
  ///   - object: The object; its type (or nearest superclass) must have a route.
  ///   - method: The request's method.
  /// - Returns: The percent-encoded path.
  /// - Throws: ``ObjectManagerError/noRoute(_:)`` when no route covers the object's type and
  ///   method, or ``ObjectManagerError/missingParameter(name:route:)`` for a parameter without
  ///   a value.
  public func path(for object: some Any, method: HTTPMethod) throws(ObjectManagerError) -> String {
    let type = Swift.type(of: object as Any)
    guard let route = route(for: type, method: method), let values = route.values(object) else {
      throw .noRoute("\(method.rawValue) \(type)")
    }
    return try route.pattern.interpolate(values, escaping: route.escapes)
  }

  /// The path of a relationship of `object` for `method` (RestKit's
  /// `getObjectsAtPathForRelationship:ofObject:`), filled from `object`.
  ///
  /// ```swift
  /// let path = try router.path(forRelationship: "friends", of: user)   // "/users/7/friends"
  /// ```
  ///
  /// - Parameters:
  ///   - relationship: The relationship's name.
  ///   - object: The object whose related objects the path names.
  ///   - method: The request's method (`GET` by default).
  /// - Returns: The percent-encoded path.
  /// - Throws: ``ObjectManagerError/noRoute(_:)`` when no route of the relationship covers the
  ///   object's type and method, or ``ObjectManagerError/missingParameter(name:route:)``.
  public func path(
    forRelationship relationship: String, of object: some Any, method: HTTPMethod = .get
  ) throws(ObjectManagerError) -> String {
    let type = Swift.type(of: object as Any)
    guard let route = route(for: type, method: method, relationship: relationship),
      let values = route.values(object)
    else {
      throw .noRoute("\(method.rawValue) \(type).\(relationship)")
    }
    return try route.pattern.interpolate(values, escaping: route.escapes)
  }

  /// The path of the named route, filled from `parameters`.
  ///
  /// - Parameters:
  ///   - name: The route's name.
  ///   - parameters: The value of each parameter.
  /// - Returns: The percent-encoded path.
  /// - Throws: ``ObjectManagerError/noRoute(_:)`` for an unknown name, or
  ///   ``ObjectManagerError/missingParameter(name:route:)``.
  public func path(named name: String, _ parameters: [String: String?] = [:])
    throws(ObjectManagerError) -> String
  {
    guard let route = namedRoutes.first(where: { $0.name == name }) else {
      throw .noRoute("the name \"\(name)\"")
    }
    return try route.pattern.interpolate(parameters, escaping: route.escapes)
  }

  // MARK: Matching

  /// The route that `path` names for `method`, with its parameters and query items.
  ///
  /// Among the routes whose pattern matches, one for exactly `method` wins over a set of
  /// methods holding it, which wins over an any-method route; at the same precedence named
  /// routes come before object routes, each in the order they were added. Without a method,
  /// the first matching route wins in that order. Any text is safe to pass: a path that is not
  /// a valid encoding simply matches nothing.
  ///
  /// - Parameters:
  ///   - path: A percent-encoded path, with or without a query (`/articles/12?page=2`).
  ///   - method: The request's method, or `nil` for any.
  /// - Returns: The match, or `nil`.
  public func match(_ path: String, method: HTTPMethod? = nil) -> Match? {
    var best: (rank: Int, match: Match)?
    func consider(
      _ methods: HTTPMethods, _ pattern: PathPattern, _ allowsTrailingSlash: Bool,
      name: String?, typeName: String?, relationship: String? = nil
    ) {
      let rank: Int
      if let method {
        guard let found = methods.rank(for: method) else { return }
        rank = found
      } else {
        rank = 0
      }
      guard best.map({ rank < $0.rank }) ?? true,
        let parameters = pattern.match(path, allowingTrailingSlash: allowsTrailingSlash)
      else { return }
      best = (
        rank,
        Match(
          name: name, typeName: typeName, relationship: relationship, pattern: pattern,
          parameters: parameters, queryItems: Self.queryItems(of: path))
      )
    }
    for route in namedRoutes {
      consider(
        route.methods, route.pattern, route.allowsTrailingSlash, name: route.name, typeName: nil)
    }
    for route in objectRoutes {
      consider(
        route.methods, route.pattern, route.allowsTrailingSlash, name: nil,
        typeName: route.typeName, relationship: route.relationship)
    }
    return best?.match
  }

  /// The most specific route for `type` and `method` (RestKit's precedence).
  func route(for type: Any.Type, method: HTTPMethod, relationship: String? = nil)
    -> ObjectRoute?
  {
    let covering = objectRoutes.filter { $0.relationship == relationship && $0.covers(type) }
    // The class levels that have routes, nearest first: a level is nearer when more of the
    // other levels cover it (it is a subclass of each of them); ties keep registration order.
    var levels: [Any.Type] = []
    for route in covering where !levels.contains(where: { $0 == route.type }) {
      levels.append(route.type)
    }
    let depth = { (level: Any.Type) -> Int in
      covering.reduce(into: Set<ObjectIdentifier>()) { covered, route in
        if route.type != level, route.covers(level) { covered.insert(ObjectIdentifier(route.type)) }
      }.count
    }
    let ordered = levels.enumerated().map {
      (offset: $0.offset, level: $0.element, depth: depth($0.element))
    }
    .sorted { $0.depth != $1.depth ? $0.depth > $1.depth : $0.offset < $1.offset }
    for entry in ordered {
      let candidates = covering.filter { $0.type == entry.level }
      if let route = candidates.compactMap({ route in
        route.methods.rank(for: method).map { (rank: $0, route: route) }
      }).min(by: { $0.rank < $1.rank })?.route {
        return route
      }
    }
    return nil
  }

  /// The query items of a path, decoded (`+` is a space); a name or value that is not a valid
  /// encoding is kept as it is.
  static func queryItems(of path: String) -> [Query.Item] {
    let bytes = Array(path.utf8)
    guard let start = bytes.firstIndex(of: UInt8(ascii: "?")) else { return [] }
    let end = bytes[start...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.count
    return PathPattern.rawQueryItems(bytes, (start + 1)..<end).map {
      Query.Item(
        name: PathPattern.decoded(bytes[$0.name], plusAsSpace: true),
        value: PathPattern.decoded(bytes[$0.value], plusAsSpace: true))
    }
  }
}

/// A mistake in a router's registrations, reported by the `add` that makes it.
///
/// ```swift
/// do {
///   try router.add(Article.self, "/files/:name.json")
/// } catch {
///   print(error)
///   // invalid route pattern "/files/:name.json" at position 13: '.' right after the
///   // parameter ':name' is ambiguous (…); write '\.' for a literal '.', …
/// }
/// ```
public struct RouterError: Error, Sendable, Equatable, CustomStringConvertible,
  LocalizedError
{
  /// What is wrong.
  public enum Kind: Sendable, Equatable {
    /// The pattern cannot be parsed: where (the 1-based position of the character, when there
    /// is one) and why.
    case invalidPattern(String, position: Int?, reason: String)
    /// The type already has a route for one of these methods at the same precedence.
    case duplicateRoute(type: String, methods: String, pattern: String, existing: String)
    /// A route already has this name.
    case duplicateName(String, pattern: String, existing: String)
  }

  /// What is wrong.
  public let kind: Kind

  init(_ kind: Kind) {
    self.kind = kind
  }

  /// One line naming the pattern and the problem.
  public var description: String {
    switch kind {
    case .invalidPattern(let pattern, let position, let reason):
      let place = position.map { " at position \($0)" } ?? ""
      return "invalid route pattern \(MessageText.quoted(pattern))\(place): \(reason)"
    case .duplicateRoute(let type, let methods, let pattern, let existing):
      return "\(type) already has a route for \(methods) (\(MessageText.quoted(existing))); "
        + "\(MessageText.quoted(pattern)) would make the choice ambiguous"
    case .duplicateName(let name, let pattern, let existing):
      return "the route name \(MessageText.quoted(name)) is already given to "
        + "\(MessageText.quoted(existing)); \(MessageText.quoted(pattern)) needs another name"
    }
  }

  /// The same text as ``description``.
  public var errorDescription: String? { description }
}
