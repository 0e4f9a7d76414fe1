/// Sends the value found at a payload key path to a mapping (RestKit's
/// `setMapping:forKeyPath:`).
///
/// ```swift
/// let provider = MappingProvider {
///   Route("articles", articleMapping)               // {"articles": [...]}
///   Route("data.user", userMapping, name: "user")   // nested key path, registered as "user"
///   Route("", statusMapping)                        // the whole payload
/// }
/// ```
///
/// The key path is dotted (`\.` is a literal dot); `""` is the whole payload. A value that is an
/// array maps as a collection, one object per element; any other value maps as one object. A
/// key path that crosses an array reaches into every element (`"human"` over
/// `[{"human": {…}}, {"human": {…}}]` maps two objects).
///
/// A route takes any ``MappingProtocol``: a ``Mapping`` or any other kind of mapping.
public struct Route: Sendable {
  /// The payload key path the route reads: dotted, `""` for the whole payload; `nil` for a
  /// mapping registered by name only (``NamedMapping``).
  public let keyPath: String?
  /// The name the mapping is registered under in the provider, if any.
  public let name: String?
  /// The model type's name, for messages (`"Article"`).
  public let typeName: String
  let keys: [[UInt8]]
  /// An error route of a provider (``MappingProvider/init(routes:errorRoutes:)``): it looks for
  /// error messages in any payload, a success payload's `"error": false` among them, so a
  /// value it cannot map is passed over with a diagnostic, never an error, and finds no
  /// content.
  var isErrorRoute = false
  let mapping: any MappingProtocol
  /// Maps the value at `index` into a new object; a dynamic mapping's decline is a diagnostic
  /// `inCollection` (the element is skipped) and an error otherwise (RestKit's "could not find
  /// an object mapping for key path").
  let decode: @Sendable (_ index: Int, _ run: inout MappingRun, _ inCollection: Bool) -> Any?
  /// For a nested-key mapping (``KeyAttribute``): maps every member of the object at `index`
  /// as one element of a collection (RestKit's `forceCollectionMapping`); `nil` otherwise.
  let decodeMembers: (@Sendable (_ index: Int, _ run: inout MappingRun) -> [Any])?
  /// Maps the value at `index` onto `target` when the target is of this route's model type:
  /// `.mapped` with the updated target, `.failed` (errors in the run, target unchanged), or
  /// `.wrongType` when the target is of another type.
  let decodeOnto: @Sendable (_ index: Int, _ run: inout MappingRun, _ target: Any) -> TargetOutcome
  /// Views a mapped object as `Sendable` when the model type is, so errors can keep it.
  let sendable: (@Sendable (Any) -> (any Sendable)?)?
  /// Whether the object at `index` is an unmappable representation for the route's mapping;
  /// records the diagnostic when it is (the object is dropped).
  let dropsUnmappable: @Sendable (_ index: Int, _ run: inout MappingRun) -> Bool
  /// Whether a target object is of the route's model type.
  let acceptsTarget: @Sendable (_ target: Any) -> Bool

  /// Routes the value at `keyPath` to `mapping`.
  ///
  /// - Parameters:
  ///   - keyPath: A dotted key path into the payload; `""` is the whole payload.
  ///   - mapping: The mapping for the value (each element, when it is an array).
  ///   - name: A name to look the mapping up by (``MappingProvider/mapping(named:as:)``).
  public init<M: MappingProtocol>(_ keyPath: String, _ mapping: M, name: String? = nil) {
    self.init(keyPath: keyPath, mapping: mapping, name: name, sendable: nil)
  }

  /// Routes the value at `keyPath` to `mapping`; the model type is `Sendable`, so
  /// ``MappingResult/asError()`` can keep the objects.
  ///
  /// - Parameters:
  ///   - keyPath: A dotted key path into the payload; `""` is the whole payload.
  ///   - mapping: The mapping for the value (each element, when it is an array).
  ///   - name: A name to look the mapping up by (``MappingProvider/mapping(named:as:)``).
  public init<M: MappingProtocol>(_ keyPath: String, _ mapping: M, name: String? = nil)
  where M.Object: Sendable {
    self.init(
      keyPath: keyPath, mapping: mapping, name: name,
      sendable: { object -> (any Sendable)? in object as? M.Object })
  }

  init<M: MappingProtocol>(
    keyPath: String?, mapping: M, name: String?,
    sendable: (@Sendable (Any) -> (any Sendable)?)?
  ) {
    self.keyPath = keyPath
    self.name = name
    self.typeName = String(describing: M.Object.self)
    if let keyPath, !keyPath.isEmpty {
      keys = SourcePath(keyPath: keyPath).keys.map { Array($0.utf8) }
    } else {
      keys = []
    }
    self.mapping = mapping
    let plan = mapping._plan
    decode = { index, run, inCollection in
      plan.decodeNew(at: index, run: &run, declineIsAcceptable: inCollection)
    }
    if let keyRule = plan.keyRule {
      decodeMembers = { index, run in
        plan.decodeKeyedCollection(at: index, keyRule: keyRule, run: &run)
      }
    } else {
      decodeMembers = nil
    }
    dropsUnmappable = { index, run in plan.dropsUnmappable(at: index, run: &run) }
    acceptsTarget = { target in target is M.Object }
    decodeOnto = { index, run, target in
      guard var typed = target as? M.Object else { return .wrongType }
      let mark = run.mergeMark
      guard let patch = plan.patch(onto: typed, at: index, run: &run) else {
        run.rollBackMerges(to: mark)
        return .failed
      }
      // Nothing written for an unmappable representation: the target stays as it was.
      if plan.dropsUnmappable(at: index, run: &run) {
        run.rollBackMerges(to: mark)
        return .unmappable
      }
      patch.apply(to: &typed)
      return .mapped(typed)
    }
    self.sendable = sendable
  }
}

/// Registers a mapping under a name without routing any key path to it (AppCoreKit's mapping
/// contexts by identifier).
///
/// ```swift
/// let provider = MappingProvider {
///   Route("timeline", tweetMapping)
///   NamedMapping("tweet.details", tweetDetailsMapping)
/// }
/// let details = provider.mapping(named: "tweet.details", as: Tweet.self)
/// let tweet = try details?.map(tweetData)
/// ```
public struct NamedMapping: Sendable {
  let route: Route

  /// Registers `mapping` under `name`.
  ///
  /// - Parameters:
  ///   - name: The name to look it up by.
  ///   - mapping: The mapping.
  public init<M: MappingProtocol>(_ name: String, _ mapping: M) {
    route = Route(keyPath: nil, mapping: mapping, name: name, sendable: nil)
  }
}

/// Builds the routes of a ``MappingProvider`` block.
///
/// The block supports `if`/`else`, `if #available` and `for` loops; conditions run once, when the
/// provider is built.
@resultBuilder
public enum MappingProviderBuilder {
  /// One route.
  public static func buildExpression(_ route: Route) -> [Route] { [route] }

  /// A mapping registered by name only.
  public static func buildExpression(_ named: NamedMapping) -> [Route] { [named.route] }

  /// Routes listed elsewhere, for example ``ErrorMessage/routes``.
  public static func buildExpression(_ routes: [Route]) -> [Route] { routes }

  /// The routes of a block, in order.
  public static func buildBlock(_ parts: [Route]...) -> [Route] { parts.flatMap { $0 } }

  /// An `if` without `else`.
  public static func buildOptional(_ part: [Route]?) -> [Route] { part ?? [] }

  /// The `if` branch of an `if`/`else`.
  public static func buildEither(first part: [Route]) -> [Route] { part }

  /// The `else` branch of an `if`/`else`.
  public static func buildEither(second part: [Route]) -> [Route] { part }

  /// A `for` loop.
  public static func buildArray(_ parts: [[Route]]) -> [Route] { parts.flatMap { $0 } }

  /// An `if #available` branch.
  public static func buildLimitedAvailability(_ part: [Route]) -> [Route] { part }
}

/// What mapping a route's value onto a target object gave.
enum TargetOutcome {
  /// The updated target.
  case mapped(Any)
  /// The value did not map (the errors are in the run); the target is unchanged.
  case failed
  /// The value is an unmappable representation (a diagnostic is in the run); the target is
  /// unchanged.
  case unmappable
  /// The target is not of the route's model type.
  case wrongType
}

extension TargetOutcome {
  var isWrongType: Bool {
    if case .wrongType = self { return true }
    return false
  }
}
