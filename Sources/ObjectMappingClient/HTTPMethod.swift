/// An HTTP method.
public enum HTTPMethod: String, Sendable, Hashable, CaseIterable {
  /// `GET`: reads a resource.
  case get = "GET"
  /// `HEAD`: reads a resource's header fields only.
  case head = "HEAD"
  /// `POST`: creates a resource.
  case post = "POST"
  /// `PUT`: replaces a resource.
  case put = "PUT"
  /// `PATCH`: updates part of a resource.
  case patch = "PATCH"
  /// `DELETE`: deletes a resource.
  case delete = "DELETE"
}

/// The methods a route serves: one method, a set of them, or any (RestKit's request method
/// bitmask).
///
/// ```swift
/// try router.add(Article.self, .post, "/articles")                 // one method
/// try router.add(Article.self, [.get, .head], "/articles/:id") { … }  // a set
/// try router.add(Article.self, .any, "/articles/:id") { … }          // every method
/// ```
///
/// When several routes of a type could serve a request, the exact method wins over a set that
/// contains it, and a set wins over ``any`` (RestKit's precedence).
public struct HTTPMethods: Sendable, Hashable, ExpressibleByArrayLiteral, CustomStringConvertible {
  /// The methods, or `nil` for any.
  let methods: Set<HTTPMethod>?

  private init(_ methods: Set<HTTPMethod>?) {
    self.methods = methods
  }

  /// A set of methods: `[.get, .head]`.
  ///
  /// - Parameter elements: The methods; an empty list serves no method.
  public init(arrayLiteral elements: HTTPMethod...) {
    self.init(Set(elements))
  }

  /// Every method.
  public static let any = HTTPMethods(nil)
  /// `GET` only.
  public static let get: HTTPMethods = [.get]
  /// `HEAD` only.
  public static let head: HTTPMethods = [.head]
  /// `POST` only.
  public static let post: HTTPMethods = [.post]
  /// `PUT` only.
  public static let put: HTTPMethods = [.put]
  /// `PATCH` only.
  public static let patch: HTTPMethods = [.patch]
  /// `DELETE` only.
  public static let delete: HTTPMethods = [.delete]

  /// Whether these methods include `method`.
  ///
  /// - Parameter method: The method of a request.
  /// - Returns: `true` for ``any`` and for a set holding `method`.
  public func contains(_ method: HTTPMethod) -> Bool {
    methods?.contains(method) ?? true
  }

  /// How closely these methods name `method`: 0 for exactly it, 1 for a set holding it, 2 for
  /// any, `nil` when they do not include it.
  func rank(for method: HTTPMethod) -> Int? {
    guard let methods else { return 2 }
    guard methods.contains(method) else { return nil }
    return methods.count == 1 ? 0 : 1
  }

  /// Whether a request could be served by both `self` and `other` at the same rank (which
  /// makes two routes of one type ambiguous).
  func overlapsAtSameRank(_ other: HTTPMethods) -> Bool {
    switch (methods, other.methods) {
    case (nil, nil): return true
    case (nil, _), (_, nil): return false
    case (let mine?, let theirs?):
      guard (mine.count == 1) == (theirs.count == 1) else { return false }
      return !mine.isDisjoint(with: theirs)
    }
  }

  /// `GET`, `[GET, HEAD]` (in declaration order), `any method`.
  public var description: String {
    guard let methods else { return "any method" }
    let names = HTTPMethod.allCases.filter { methods.contains($0) }.map(\.rawValue)
    return names.count == 1 ? names[0] : "[" + names.joined(separator: ", ") + "]"
  }
}
