import Foundation
import ObjectMapping

extension ObjectManager {
  /// The messages of an error body, in the shapes APIs use:
  ///
  /// - RestKit's `{"error": "…"}` and `{"errors": ["…", …]}` (strings or objects with a
  ///   `message`);
  /// - RFC 9457 problem details (`application/problem+json`): `title` and `detail` (read only
  ///   under that content type: in other bodies they are the resource's own members), and the
  ///   `errors` extension;
  /// - GitHub's `{"message": "Validation Failed", "errors": [{"resource", "field", "code"}]}`:
  ///   the message, then one message per error (its own `message`, or
  ///   `"<resource>.<field> <code>"`).
  ///
  /// ```swift
  /// let messages = ObjectManager.errorMessages(
  ///   in: Data(#"{"errors": ["first", "second"]}"#.utf8), contentType: "application/json")
  /// messages.map(\.message)     // ["first", "second"]
  /// ```
  ///
  /// Each ``ErrorMessage`` keeps the node it was read from. A body no format reads, or of
  /// another shape, gives no messages (the body stays in ``HTTPFailure/body``).
  ///
  /// - Parameters:
  ///   - body: The response body.
  ///   - contentType: Its `Content-Type` (JSON when `nil`).
  ///   - formats: The formats to read it with.
  /// - Returns: Every message, in body order.
  public static func errorMessages(
    in body: Data, contentType: String?, formats: FormatRegistry = .standard
  ) -> [ErrorMessage] {
    guard !body.isEmpty,
      let node = try? formats.read(body, contentType: contentType ?? "application/json")
    else { return [] }
    var messages: [ErrorMessage] = []
    func add(_ value: Node?) {
      guard let value else { return }
      switch value {
      case .string(let text):
        messages.append(ErrorMessage(message: text, representation: value))
      case .object:
        if case .string(let text)? = value["message"] {
          messages.append(ErrorMessage(message: text, representation: value))
        } else if case .string(let text)? = value["detail"] ?? value["title"] {
          messages.append(ErrorMessage(message: text, representation: value))
        } else {
          let parts = ["resource", "field"].compactMap { key -> String? in
            if case .string(let text)? = value[key] { return text }
            return nil
          }
          var text = parts.joined(separator: ".")
          if case .string(let code)? = value["code"] { text += text.isEmpty ? code : " \(code)" }
          if !text.isEmpty { messages.append(ErrorMessage(message: text, representation: value)) }
        }
      case .array(let elements):
        // One level: an array of messages, not arrays of arrays (bounded recursion).
        for element in elements where !element.isArray { add(element) }
      default:
        break
      }
    }
    add(node["error"])
    // A problem's `title` and `detail` only under its own media type: in another JSON body they
    // are the resource's own members (an error response that echoes `{"title": …}`).
    if isProblemDetails(contentType) {
      if case .string? = node["title"] { add(node["title"]) }
      if case .string? = node["detail"] { add(node["detail"]) }
    }
    if case .string? = node["message"] { add(node["message"]) }
    add(node["errors"])
    return messages
  }
}

/// Whether a `Content-Type` is RFC 9457's `application/problem+json`.
private func isProblemDetails(_ contentType: String?) -> Bool {
  contentType.map(bareMediaType) == "application/problem+json"
}

extension Node {
  fileprivate var isArray: Bool {
    if case .array = self { true } else { false }
  }
}
