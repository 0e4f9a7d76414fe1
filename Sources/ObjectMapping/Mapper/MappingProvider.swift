/// The routes from payload key paths to mappings, and the mappings registered by name
/// (RestKit's mapping provider, AppCoreKit's mapping contexts).
///
/// ```swift
/// let provider = MappingProvider {
///   Route("articles", articleMapping, name: "article")
///   Route("people", personMapping)
/// }
/// let result = try Mapper(provider).map(jsonData)
/// let articles = result.all(Article.self)
/// let mapping = provider.mapping(named: "article", as: Article.self)
/// ```
///
/// Routes are tried in order, each on its own; results keep route order, then payload order.
/// The built-in ``ErrorMessage`` routes (`error` and `errors`) come after yours; pass
/// `errorRoutes: []` to drop them or your own routes to replace them. A built-in error route
/// is also left out when one of your routes reads the same key path.
///
/// Names are unique: when two mappings share a name the first keeps it, and every mapping run
/// reports the mistake as an ``MappingError/Kind/invalidDefinition(message:)`` error.
public struct MappingProvider: Sendable {
  /// The routes that read the payload, in the order they are tried: yours, then the error
  /// routes.
  public let routes: [Route]
  /// Every registration, with name-only ones, in declaration order.
  let registrations: [Route]
  /// Mistakes in the definition (duplicate names), reported with every run.
  public let definitionErrors: [MappingError]
  /// What the definition shows that is not a mistake, noticed once when the provider is
  /// built: routes whose values lie inside the whole payload, which a whole-payload route
  /// (`Route("", …)`) also maps, so they are mapped twice
  /// (``MappingDiagnostic/Kind/overlappingRoutes(keyPaths:)``). Check it in a test:
  ///
  /// ```swift
  /// #expect(provider.diagnostics.isEmpty)
  /// ```
  public let diagnostics: [MappingDiagnostic]
  /// The key paths of the routes, once each, sorted (case-insensitively, then exactly): what a
  /// ``MappingError/Kind/nothingFound(searched:topLevelKeys:)`` error lists.
  let searchedKeyPaths: [String]
  /// How many key paths your routes read (the error routes left out): RestKit's "only key path
  /// in the mappings dictionary", under which a target of the wrong class is an error.
  let userKeyPathCount: Int
  /// The error routes whose model type is not ``ErrorMessage`` (RestKit's error descriptors with
  /// an error class of your own): the object manager reads a failed status's body with them.
  package let customErrorRoutes: [Route]

  /// Creates a provider from a block of ``Route`` and ``NamedMapping`` values.
  ///
  /// - Parameters:
  ///   - errorRoutes: Routes for server error payloads, tried after yours; the default maps
  ///     `error` and `errors` into ``ErrorMessage``.
  ///   - routes: The routes, in order.
  public init(
    errorRoutes: [Route] = ErrorMessage.routes,
    @MappingProviderBuilder _ routes: () -> [Route]
  ) {
    self.init(routes: routes(), errorRoutes: errorRoutes)
  }

  /// Creates a provider from a list of routes.
  ///
  /// - Parameters:
  ///   - routes: The routes (and name-only registrations), in order.
  ///   - errorRoutes: Routes for server error payloads, tried after yours; the default maps
  ///     `error` and `errors` into ``ErrorMessage``.
  public init(routes: [Route], errorRoutes: [Route] = ErrorMessage.routes) {
    let userKeyPaths = Set(routes.compactMap(\.keyPath))
    let extra = errorRoutes.filter { route in
      guard let keyPath = route.keyPath else { return true }
      return !userKeyPaths.contains(keyPath)
    }.map { route in
      var route = route
      route.isErrorRoute = true
      return route
    }
    registrations = routes + extra
    customErrorRoutes = extra.filter { !($0.mapping is any MappingProtocol<ErrorMessage>) }
    self.routes = registrations.filter { $0.keyPath != nil }
    userKeyPathCount = userKeyPaths.count
    searchedKeyPaths = Set(self.routes.compactMap(\.keyPath)).sorted { first, second in
      let (lower, otherLower) = (first.lowercased(), second.lowercased())
      return lower == otherLower ? first < second : lower < otherLower
    }
    // Routes inside a whole-payload route's value: every keyed route of yours (the error
    // routes find values only in error payloads, where both are meant to map).
    let keyPaths = Set(routes.compactMap(\.keyPath))
    let overlapping = keyPaths.contains("") ? keyPaths.filter { !$0.isEmpty }.sorted() : []
    diagnostics =
      overlapping.isEmpty
      ? [] : [MappingDiagnostic(path: "", .overlappingRoutes(keyPaths: overlapping))]
    var seen: [String: Int] = [:]
    var order: [String] = []
    for name in registrations.compactMap(\.name) {
      if seen[name] == nil { order.append(name) }
      seen[name, default: 0] += 1
    }
    definitionErrors = order.compactMap { name in
      guard let count = seen[name], count > 1 else { return nil }
      return MappingError(
        .invalidDefinition(
          message: "the name \"\(name)\" is given to \(count) mappings; the first one keeps it"))
    }
  }

  /// The names mappings are registered under, in declaration order.
  public var names: [String] {
    var result: [String] = []
    for name in registrations.compactMap(\.name) where !result.contains(name) {
      result.append(name)
    }
    return result
  }

  /// The mapping registered under `name`, whatever its model type.
  ///
  /// - Parameter name: The name given with ``Route`` or ``NamedMapping``.
  /// - Returns: The mapping, or `nil` when no mapping has that name.
  public func mapping(named name: String) -> (any MappingProtocol)? {
    registrations.first { $0.name == name }?.mapping
  }

  /// The mapping registered under `name`, when it maps to `type` (AppCoreKit's
  /// `contextWithIdentifier:`); use it as `objectFromValue` / `objectsFromValue` with
  /// `map(_:)` and `mapCollection(_:)`.
  ///
  /// ```swift
  /// if let tweets = provider.mapping(named: "tweet", as: Tweet.self) {
  ///   let tweet = try tweets.map(tweetData)
  ///   let timeline = try tweets.mapCollection(timelineData)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - name: The registered name.
  ///   - type: The model type the mapping must produce.
  /// - Returns: The mapping, or `nil` when no mapping has that name or it maps another type.
  public func mapping<T>(named name: String, as type: T.Type) -> (any MappingProtocol<T>)? {
    mapping(named: name) as? any MappingProtocol<T>
  }
}
