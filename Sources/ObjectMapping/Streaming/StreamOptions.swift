/// How a stream of elements is read: the size limit of one element, what a failing element
/// does to the stream, and the JSON reader's options.
///
/// ```swift
/// let events = eventMapping.elements(
///   of: file, as: .jsonLines,
///   options: StreamOptions(maximumElementSize: 1 << 20, onElementFailure: .skip))
/// ```
///
/// Limits apply per element, as they apply per payload to `map(_:)`: the reader's depth limit
/// counts from the top of the payload, the size limit bounds each element (and the payload
/// around a streamed array), and the error limit (``MappingOptions/errorLimit``) bounds each element's
/// errors.
public struct StreamOptions: Sendable, Equatable {
  /// The most bytes one element may take, whitespace before it included (16 MiB by default).
  ///
  /// A larger element ends the stream with a syntax error at its start that names the limit
  /// (a JSON Lines line is a failed element, which ``ElementFailurePolicy/skip`` skips): the
  /// stream's memory is bounded by this limit, not by the payload. The payload around an array
  /// under a key path, and a payload that is not the array the layout names (read whole), are
  /// held to the same limit.
  public var maximumElementSize: Int
  /// What an element that fails to map does to the stream (``ElementFailurePolicy/fail`` by
  /// default).
  public var onElementFailure: ElementFailurePolicy
  /// The JSON reader's options (depth, comments, duplicate keys); `nil` for the reader's
  /// default: strict JSON for a mapping, the decoder's own `reading` for a
  /// ``FastJSONDecoder``.
  public var reading: JSONReadingOptions?

  /// Stream options.
  ///
  /// - Parameters:
  ///   - maximumElementSize: The most bytes one element may take (16 MiB).
  ///   - onElementFailure: What a failing element does (``ElementFailurePolicy/fail``).
  ///   - reading: The JSON reader's options, or `nil` for the reader's default.
  public init(
    maximumElementSize: Int = 16 << 20, onElementFailure: ElementFailurePolicy = .fail,
    reading: JSONReadingOptions? = nil
  ) {
    self.maximumElementSize = max(1, maximumElementSize)
    self.onElementFailure = onElementFailure
    self.reading = reading
  }

  /// 16 MiB elements, failing elements end the stream, the reader's default options.
  public static let standard = StreamOptions()
}

/// What an element that fails to map (or a JSON Lines line that is not valid JSON) does to a
/// stream of elements.
///
/// ```swift
/// let events = eventMapping.elements(
///   of: log, as: .jsonLines, options: StreamOptions(onElementFailure: .skip))
/// for try await event in events { … }
/// events.summary.skippedCount     // 2
/// events.summary.diagnostics      // ["/7: element skipped: /7/at: expected a string, found 3"]
/// ```
public enum ElementFailurePolicy: Sendable, Hashable {
  /// The stream ends with the element's errors (``MappingErrors``, each at its path:
  /// `/1234/author`). The elements before it were delivered.
  case fail
  /// The element is left out, with a ``MappingDiagnostic/Kind/skippedElement(reason:)``
  /// diagnostic at its path in the stream's ``StreamSummary``, which counts it. A syntax error
  /// in an array still ends the stream (nothing after it can be read reliably); a JSON Lines
  /// line that is not valid JSON is skipped, since the next line is a document of its own.
  case skip
}
