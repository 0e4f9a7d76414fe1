import Foundation
import ObjectMapping

/// What went wrong in a request of the ``ObjectManager``, or in making it: each cause is its
/// own case, with what a user needs to act on it. `localizedDescription` is ``description``.
///
/// ```swift
/// do {
///   _ = try await manager.post(issue, mapping: issueMapping)
/// } catch {
///   switch error {
///   case .status(let failure) where failure.statusCode == 422: show(failure.messages)
///   case .timedOut, .transport: offerRetry()
///   default: report(error.localizedDescription)
///   }
/// }
/// ```
public enum ObjectManagerError: Error, Sendable, CustomStringConvertible, LocalizedError {
  /// A path parameter has no value (absent, `nil` or empty): the request was not sent.
  case missingParameter(name: String, route: String)
  /// No route covers the object's type and method (or no route has that name).
  case noRoute(String)
  /// The path cannot be a request target (it is an absolute URL, or the base URL is not `http`
  /// or `https` with a host): nothing was sent.
  case invalidPath(String, reason: String)
  /// The request's URL is not under the base URL (another scheme, host or port, or a path that
  /// leaves the base path): nothing was sent.
  case outsideBaseURL(URL, base: URL)
  /// A header field cannot be sent (a value with CR, LF, NUL or another control character, or a
  /// name that is not an HTTP token): nothing was sent.
  case invalidHeader(name: String, reason: String)
  /// The query's object could not be written by its mapping: nothing was sent.
  case query(MappingErrors)
  /// The request body could not be written: nothing was sent.
  case requestBody(MappingErrors)
  /// The server answered with a status outside 200–299.
  case status(HTTPFailure)
  /// The server redirected the request somewhere the ``RedirectPolicy`` does not go.
  case redirectRefused(location: String, status: Int, reason: RedirectRefusal)
  /// The response's body is larger than the limit (counted after decompression, or announced by
  /// its `Content-Length`): the transfer was stopped and its connection closed.
  case responseTooLarge(limit: Int)
  /// The consumer of a streamed response fell behind: more bytes than the limit
  /// (``RequestLimits/maximumResponseSize``) arrived and were not taken, so the transfer was
  /// stopped and its connection closed, rather than hold more on disk (see
  /// ``ObjectManager/elements(_:query:mapping:as:onElementFailure:headers:limits:)``).
  case consumerFellBehind(limit: Int)
  /// The request did not complete: no connection, a reset, a truncated body (`URLError`).
  case transport(URLError)
  /// The request's deadline passed (its duration), or the transport gave up waiting for data
  /// (`nil`, its own idle timeout): the transfer was abandoned.
  case timedOut(after: Duration?)
  /// The task was cancelled.
  case cancelled
  /// A body was expected and the response had none.
  case emptyBody(status: Int)
  /// No payload format reads the response's `Content-Type`.
  case unsupportedContentType(String, status: Int)
  /// The body could not be read (malformed JSON: line and column) or mapped: the mapping's
  /// errors, each with its path.
  case mapping(MappingErrors, status: Int)

  /// One line that says what happened, with the server's messages for a status.
  public var description: String {
    switch self {
    case .missingParameter(let name, let route):
      return "the path parameter '\(name)' of \(MessageText.quoted(route)) has no value"
    case .noRoute(let route):
      return "no route for \(MessageText.message(route))"
    case .invalidPath(let path, let reason):
      return "cannot request \(MessageText.quoted(path)): \(reason)"
    case .outsideBaseURL(let url, let base):
      return "the request URL \(MessageText.quoted(url.withoutCredentials)) is not under the "
        + "base URL \(MessageText.quoted(base.withoutCredentials)); nothing was sent"
    case .invalidHeader(let name, let reason):
      return "the header field \(MessageText.quoted(name)) cannot be sent: \(reason)"
    case .query(let errors):
      return "the query could not be written: \(errors)"
    case .requestBody(let errors):
      return "the request body could not be written: \(errors)"
    case .status(let failure):
      let messages = failure.description
      return failure.messages.isEmpty
        ? messages : "status \(failure.statusCode): \(messages)"
    case .redirectRefused(let location, let status, let reason):
      let shown = URL(string: location)?.withoutCredentials ?? location
      return "the redirect (status \(status)) to \(MessageText.quoted(shown)) was not "
        + "followed: \(reason)"
    case .responseTooLarge(let limit):
      return "the response is larger than the limit of \(MessageText.grouped(limit)) bytes"
    case .consumerFellBehind(let limit):
      return "the stream was stopped: more than \(MessageText.grouped(limit)) bytes of the "
        + "response arrived and were not read (the consumer fell behind)"
    case .transport(let error):
      return "the request failed: \(error.localizedDescription) (URLError \(error.code.rawValue))"
    case .timedOut(let duration):
      return duration.map { "the request timed out after \($0)" }
        ?? "the request timed out waiting for data"
    case .cancelled:
      return "the request was cancelled"
    case .emptyBody(let status):
      return "the response (status \(status)) has no body"
    case .unsupportedContentType(let type, let status):
      return "no format reads the response's content type \(MessageText.quoted(type)) "
        + "(status \(status))"
    case .mapping(let errors, let status):
      return "the response (status \(status)) could not be mapped: \(errors)"
    }
  }

  /// The same text as ``description``, for `localizedDescription`.
  public var errorDescription: String? { description }
}

/// A response with a status outside 200–299: the status, the messages read from its body and
/// the body itself.
///
/// ```swift
/// // 422 {"errors": ["Title is empty", "Body is empty"]}
/// failure.statusCode      // 422
/// failure.description     // "Title is empty, Body is empty"
/// failure.messages        // every message, with the node it was read from
/// ```
public struct HTTPFailure: Sendable, CustomStringConvertible {
  /// The HTTP status code.
  public var statusCode: Int
  /// Every message the body carries (see ``ObjectManager/errorMessages(in:contentType:formats:)``).
  public var messages: [ErrorMessage]
  /// The body bytes, as received.
  public var body: Data
  /// The response's `Content-Type`, if any.
  public var contentType: String?
  /// The response's header fields.
  public var headers: HeaderFields
  /// The objects the provider's error routes of your own types mapped from the body, in result
  /// order (RestKit's error objects, `RKObjectMapperErrorObjectsKey`); empty when the messages
  /// were read from the body's shape. Each one's description is one of ``messages``.
  public var objects: [any Sendable]

  /// Creates a failure.
  ///
  /// - Parameters:
  ///   - statusCode: The status code.
  ///   - messages: The messages of the body.
  ///   - body: The body.
  ///   - contentType: The body's `Content-Type`.
  ///   - headers: The header fields.
  ///   - objects: The error objects the provider's error routes mapped.
  public init(
    statusCode: Int, messages: [ErrorMessage], body: Data = Data(), contentType: String? = nil,
    headers: HeaderFields = [:], objects: [any Sendable] = []
  ) {
    self.statusCode = statusCode
    self.messages = messages
    self.body = body
    self.contentType = contentType
    self.headers = headers
    self.objects = objects
  }

  /// The error objects of type `T` (``objects``), in result order.
  ///
  /// ```swift
  /// catch ObjectManagerError.status(let failure) {
  ///   let apiErrors = failure.objects(APIError.self)
  /// }
  /// ```
  public func objects<T>(_ type: T.Type) -> [T] {
    objects.compactMap { $0 as? T }
  }

  /// The server's messages joined with `", "` (`"error1, error2"`, RestKit's error text), or
  /// `"status 503"` when the body has none.
  ///
  /// Bounded like mapping errors: each message is escaped and shortened (1,000 bytes), and past
  /// the first 100 the rest are counted (`…, … and 99,900 more messages`). ``messages`` keeps
  /// them all.
  public var description: String {
    guard !messages.isEmpty else { return "status \(statusCode)" }
    var text = messages.prefix(100).map(\.description).joined(separator: ", ")
    if messages.count > 100 {
      text += ", … and \(MessageText.grouped(messages.count - 100)) more messages"
    }
    return text
  }
}

extension URL {
  /// The URL's text with its user name and password, when it has either, written as `***`
  /// (`https://***@example.com/api`): for error descriptions and response metadata, which are
  /// logged and mapped, while the credentials stay in the URL the transport uses.
  var withoutCredentials: String {
    guard var components = URLComponents(url: self, resolvingAgainstBaseURL: true),
      components.percentEncodedUser != nil || components.percentEncodedPassword != nil
    else { return absoluteString }
    components.percentEncodedPassword = nil
    components.percentEncodedUser = "***"
    return components.url?.absoluteString ?? "(a URL with credentials)"
  }
}
