import Foundation
import ObjectMapping

/// What went wrong in a request of the ``ObjectManager``, or in making its path: each cause is
/// its own case, with what a user needs to act on it.
public enum ObjectManagerError: Error, Sendable, CustomStringConvertible {
  /// A path parameter has no value (absent or `nil`): the request was not sent.
  case missingParameter(name: String, route: String)
  /// No route covers the object's type and method (or no route has that name).
  case noRoute(String)
  /// The server answered with a status outside 200–299.
  case status(HTTPFailure)
  /// The request did not complete: no connection, a reset, a truncated body (`URLError`).
  case transport(URLError)
  /// The server did not answer in time.
  case timedOut(URLError)
  /// The task was cancelled.
  case cancelled
  /// A body was expected and the response had none.
  case emptyBody(status: Int)
  /// No payload format reads the response's `Content-Type`.
  case unsupportedContentType(String, status: Int)
  /// The body could not be read (malformed JSON: line and column) or mapped: the mapping's
  /// errors, each with its path.
  case mapping(MappingErrors, status: Int)
  /// The request body could not be written.
  case requestBody(MappingErrors)

  public var description: String {
    switch self {
    case .missingParameter(let name, let route):
      "the path parameter '\(name)' of \(route) has no value"
    case .noRoute(let route):
      "no route for \(route)"
    case .status(let failure):
      failure.description
    case .transport(let error):
      "the request failed: \(error.localizedDescription) (URLError \(error.code.rawValue))"
    case .timedOut:
      "the request timed out"
    case .cancelled:
      "the request was cancelled"
    case .emptyBody(let status):
      "the response (status \(status)) has no body"
    case .unsupportedContentType(let type, let status):
      "no format reads the response's content type '\(type)' (status \(status))"
    case .mapping(let errors, let status):
      "the response (status \(status)) could not be mapped: \(errors)"
    case .requestBody(let errors):
      "the request body could not be written: \(errors)"
    }
  }
}

/// A response with a status outside 200–299: the status, the messages read from its body and
/// the body itself.
public struct HTTPFailure: Sendable, CustomStringConvertible {
  /// The HTTP status code.
  public var statusCode: Int
  /// The messages the body carries (see ``ObjectManager/errorMessages(in:contentType:)``).
  public var messages: [ErrorMessage]
  /// The body bytes, as received.
  public var body: Data
  /// The response's `Content-Type`, if any.
  public var contentType: String?
  /// The response's header fields.
  public var headers: [String: String]

  /// `"status 422: Validation Failed, title missing_field"`.
  public var description: String {
    let text = messages.map(\.description).joined(separator: ", ")
    return text.isEmpty ? "status \(statusCode)" : "status \(statusCode): \(text)"
  }
}
