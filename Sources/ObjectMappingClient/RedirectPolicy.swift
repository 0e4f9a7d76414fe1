import Foundation

/// Which redirects the object manager follows, and how many.
///
/// ```swift
/// let manager = ObjectManager(baseURL: api, redirects: .sameOrigin)     // the default
/// let crawler = ObjectManager(baseURL: api, redirects: .any(maximumCount: 3))
/// let strict = ObjectManager(baseURL: api, redirects: .never)
/// ```
///
/// The manager follows redirects itself (its transport never does), one hop at a time:
/// - `301`, `302` and `303` are followed with `GET` and no body (a `HEAD` stays a `HEAD`), except
///   that a `301` or `302` of a method other than `POST` keeps its method and body, as browsers
///   do; `307` and `308` re-send the same method and body.
/// - The `Location` is resolved against the URL that answered; only `http` and `https` targets
///   are followed.
/// - When a redirect leaves the origin of the first request (its scheme, host or port), the
///   `Authorization`, `Cookie` and `Proxy-Authorization` fields and every field the manager or
///   the request added are dropped for the rest of the chain: only `Accept` and the body's
///   `Content-Type` go on. ``sameOrigin`` never leaves the origin at all.
/// - A redirect the policy does not follow, one past ``maximumCount``, or one to an unusable
///   location is ``ObjectManagerError/redirectRefused(location:status:reason:)``, naming the
///   location; nothing is sent to it.
public struct RedirectPolicy: Sendable, Hashable, CustomStringConvertible {
  /// Where redirects may go.
  public enum Scope: Sendable, Hashable {
    /// No redirect is followed.
    case never
    /// Redirects within the first request's origin (scheme, host and port).
    case sameOrigin
    /// Redirects to any `http` or `https` URL.
    case anyOrigin
  }

  /// Where redirects may go.
  public var scope: Scope
  /// The most redirects one request follows.
  public var maximumCount: Int

  /// A policy.
  ///
  /// - Parameters:
  ///   - scope: Where redirects may go.
  ///   - maximumCount: The most redirects one request follows (default 10).
  public init(_ scope: Scope, maximumCount: Int = 10) {
    self.scope = scope
    self.maximumCount = max(0, maximumCount)
  }

  /// Follows up to 10 redirects within the first request's origin (the default).
  public static let sameOrigin = RedirectPolicy(.sameOrigin)
  /// Follows up to 10 redirects anywhere, dropping credentials and the manager's and request's
  /// fields when one leaves the origin.
  public static let any = RedirectPolicy(.anyOrigin)
  /// Follows no redirect.
  public static let never = RedirectPolicy(.never)

  /// Follows up to `maximumCount` redirects within the origin.
  ///
  /// - Parameter maximumCount: The most redirects one request follows.
  /// - Returns: The policy.
  public static func sameOrigin(maximumCount: Int) -> RedirectPolicy {
    RedirectPolicy(.sameOrigin, maximumCount: maximumCount)
  }

  /// Follows up to `maximumCount` redirects anywhere.
  ///
  /// - Parameter maximumCount: The most redirects one request follows.
  /// - Returns: The policy.
  public static func any(maximumCount: Int) -> RedirectPolicy {
    RedirectPolicy(.anyOrigin, maximumCount: maximumCount)
  }

  /// `sameOrigin (at most 10)`.
  public var description: String {
    switch scope {
    case .never: "never"
    case .sameOrigin: "sameOrigin (at most \(maximumCount))"
    case .anyOrigin: "any (at most \(maximumCount))"
    }
  }
}

/// Why a redirect was not followed.
public enum RedirectRefusal: Sendable, Hashable, CustomStringConvertible {
  /// The policy is ``RedirectPolicy/never``.
  case policyForbidsRedirects
  /// The location is on another origin and the policy is ``RedirectPolicy/sameOrigin``.
  case otherOrigin
  /// The request was redirected more times than the policy allows.
  case tooManyRedirects(limit: Int)
  /// The location is not an `http` or `https` URL with a host.
  case unsupportedLocation

  /// Why, in a few words.
  public var description: String {
    switch self {
    case .policyForbidsRedirects: "the redirect policy is never"
    case .otherOrigin: "it leaves the origin and the redirect policy is sameOrigin"
    case .tooManyRedirects(let limit): "more than \(limit) redirects"
    case .unsupportedLocation: "it is not an http or https URL with a host"
    }
  }
}

/// Bounds on one request, whatever the server does: the body size the manager accepts and the
/// time it waits in all.
///
/// ```swift
/// let manager = ObjectManager(baseURL: api, limits: RequestLimits(timeout: .seconds(20)))
/// let backup = try await manager.get(
///   "/backup", mapping: backupMapping,
///   limits: RequestLimits(maximumResponseSize: 512 << 20, timeout: .seconds(300)))
/// ```
public struct RequestLimits: Sendable, Hashable {
  /// The most body bytes a response may have, counted after decompression while they arrive
  /// (64 MiB by default): more is ``ObjectManagerError/responseTooLarge(limit:)``, and the
  /// connection is closed. For a streamed response, whose whole body is not held, it bounds the
  /// bytes that arrived and were not yet taken by the loop (see
  /// ``ObjectManagerError/consumerFellBehind(limit:)``).
  public var maximumResponseSize: Int
  /// The time the whole request may take, redirects included (60 seconds by default): then the
  /// manager abandons it with ``ObjectManagerError/timedOut(after:)`` and the transport's
  /// connection is closed, however slowly the server keeps sending.
  public var timeout: Duration
  /// For a streamed response (``ObjectManager/elements(_:query:mapping:as:onElementFailure:headers:limits:)``),
  /// the most bytes one element may take (16 MiB by default), in place of a limit on the whole
  /// body: memory is bounded by the largest element, and a larger one ends the stream.
  public var maximumElementSize: Int

  /// Limits.
  ///
  /// - Parameters:
  ///   - maximumResponseSize: The most body bytes (default 64 MiB).
  ///   - timeout: The whole request's deadline (default 60 seconds).
  ///   - maximumElementSize: The most bytes of one element of a streamed response (default
  ///     16 MiB).
  public init(
    maximumResponseSize: Int = 64 << 20, timeout: Duration = .seconds(60),
    maximumElementSize: Int = 16 << 20
  ) {
    self.maximumResponseSize = max(0, maximumResponseSize)
    self.timeout = timeout
    self.maximumElementSize = max(1, maximumElementSize)
  }

  /// 64 MiB, 60 seconds, and 16 MiB elements.
  public static let standard = RequestLimits()
}
