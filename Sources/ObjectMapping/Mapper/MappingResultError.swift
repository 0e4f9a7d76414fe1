import Foundation

/// The objects of a mapping result turned into one error (``MappingResult/asError()``), as
/// RestKit did for server error payloads.
///
/// ```swift
/// // {"errors": [{"message": "Title is empty"}, {"message": "Body is empty"}]}
/// let error = result.asError()
/// error?.description                          // "Title is empty, Body is empty"
/// error?.objects(ErrorMessage.self).map(\.message)
/// ```
public struct MappingResultError: Error, Sendable, CustomStringConvertible, LocalizedError {
  /// Each object's description, in result order.
  public let messages: [String]
  /// The objects whose model type is `Sendable`, in result order.
  public let objects: [any Sendable]

  /// Creates an error from descriptions and the objects it keeps.
  public init(messages: [String], objects: [any Sendable] = []) {
    self.messages = messages
    self.objects = objects
  }

  /// The messages joined with `", "`: `"error1, error2"`.
  ///
  /// Each message is escaped and shortened like an error's text (``ErrorMessage/description``),
  /// and past the first 100 messages the rest are counted (`…, … and 900 more messages`), so
  /// the text stays readable whatever the server sent.
  public var description: String {
    var text = messages.prefix(100).map { MessageText.message($0) }.joined(separator: ", ")
    if messages.count > 100 {
      text += ", … and \(MessageText.grouped(messages.count - 100)) more messages"
    }
    return text
  }

  /// The same text as ``description``, for `localizedDescription`.
  public var errorDescription: String? { description }

  /// The kept objects of type `T`, in result order.
  public func objects<T>(_ type: T.Type) -> [T] {
    objects.compactMap { $0 as? T }
  }
}

extension MappingResultError: Equatable {
  /// Two errors are equal when their messages are (the objects are not compared).
  public static func == (lhs: MappingResultError, rhs: MappingResultError) -> Bool {
    lhs.messages == rhs.messages
  }
}
