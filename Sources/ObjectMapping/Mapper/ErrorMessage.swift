/// A server error message (RestKit's `RKErrorMessage`): what ``MappingProvider`` maps the
/// `error` and `errors` key paths into unless told otherwise.
///
/// Each of these payloads maps to error messages, and ``MappingResult/asError()`` joins them:
///
/// ```swift
/// {"error": "Not signed in"}                                   // "Not signed in"
/// {"errors": ["Title is empty", "Body is empty"]}              // "Title is empty, Body is empty"
/// {"errors": [{"message": "Title is empty", "code": 12}]}      // "Title is empty"
/// ```
///
/// The whole representation stays available in ``representation`` (codes, fields). To map error
/// payloads into a type of your own, pass `errorRoutes:` to the provider:
///
/// ```swift
/// let provider = MappingProvider(errorRoutes: [Route("errors", apiErrorMapping)]) {
///   Route("articles", articleMapping)
/// }
/// ```
public struct ErrorMessage: Sendable, Hashable, CustomStringConvertible {
  /// The message text.
  public var message: String
  /// The value the message was read from: a string, or an object with a `message` member.
  public var representation: Node

  /// Creates an error message.
  public init(message: String, representation: Node? = nil) {
    self.message = message
    self.representation = representation ?? .string(message)
  }

  /// The message text, so that ``MappingResult/asError()`` reads `"error1, error2"`.
  ///
  /// The text comes from a server, so it is made safe to print or log: control characters,
  /// line separators and bidirectional overrides are escaped (`\n`, `\u001B`) and a message
  /// past 1,000 bytes keeps 450 bytes at each end (`…(52,100 more bytes)…`). ``message`` stays
  /// exact.
  public var description: String { MessageText.message(message) }

  /// Reads a string, or an object with a string `message` member, as an error message.
  ///
  /// It reads the value it is given (``SourcePath/root``), so a route's array of strings or of
  /// objects maps one message per element. Decode only: the inverse writes nothing.
  public static let mapping = Mapping(ErrorMessage.empty) {
    Attribute(.root, \.message, decodeOnly: { (text: ErrorMessageText) in text.text })
    Attribute(.root, \.representation, decodeOnly: { (node: Node) in node })
  }

  private static func empty() -> ErrorMessage { ErrorMessage(message: "") }

  /// The built-in routes: `error` and `errors` into ``mapping``.
  public static let routes: [Route] = [
    Route("error", mapping),
    Route("errors", mapping),
  ]
}

/// The text of an error message: a string, or the `message` member of an object.
struct ErrorMessageText: MappableValue {
  var text: String

  init(payload: PayloadValue) throws {
    switch payload.kind {
    case .string:
      text = try payload.decode(String.self)
    case .object:
      guard let message = payload["message"], message.kind == .string else {
        throw payload.mismatch(expected: Self.expectedDescription)
      }
      text = try message.decode(String.self)
    default:
      throw payload.mismatch(expected: Self.expectedDescription)
    }
  }

  func payloadNode() throws -> Node { .string(text) }

  static var expectedDescription: String {
    "an error message (a string or an object with a string \"message\")"
  }
}
