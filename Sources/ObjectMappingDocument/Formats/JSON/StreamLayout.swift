/// Where the elements of a streamed JSON payload are: the elements of a top-level array, of an
/// array under a key path, or one value per line (JSON Lines).
///
/// A stream reader (`mapping.elements(of:as:)`, `FastJSONDecoder.elements(of:as:)`) reads one
/// element at a time, so memory is bounded by the largest element, not by the payload:
///
/// ```swift
/// // [{"id": 1}, {"id": 2}]
/// for try await article in articleMapping.elements(of: bytes, as: .array) { … }
/// // {"data": [{"id": 1}, {"id": 2}], "next": "/articles?page=2"}
/// let page = articleMapping.elements(of: bytes, as: .array(at: "data"))
/// // {"id": 1}\n{"id": 2}\n
/// let events = eventMapping.elements(of: bytes, as: .jsonLines)
/// ```
///
/// The same layouts write a stream of objects back (`mapping.serializedChunks(of:as:)`): `[…]`,
/// `{"data": […]}` (the key path's objects around the array) or one compact value per line.
public struct StreamLayout: Sendable, Hashable, CustomStringConvertible {
  /// The elements are those of a JSON array; `keys` lead from the top-level object to it
  /// (none: the array is the document).
  package let keys: [String]?
  /// The key path as the caller wrote it (`"data.items"`), for messages.
  package let keyPath: String

  private init(keys: [String]?, keyPath: String) {
    self.keys = keys
    self.keyPath = keyPath
  }

  /// The elements of a top-level JSON array: `[{…}, {…}]`.
  ///
  /// A payload that is not an array is read whole (within the stream's element size limit) and
  /// mapped as a collection is: an object is a collection of one.
  public static let array = StreamLayout(keys: [], keyPath: "")

  /// The elements of the array at a key path in the top-level object:
  /// `{"data": [{…}, {…}], "next": "…"}` with `"data"`, `{"result": {"items": […]}}` with
  /// `"result.items"` (`\.` is a literal dot in a key).
  ///
  /// The members around the array are kept (within the element size limit) and are the
  /// stream summary's `envelope` at the end: the document with the array emptied, for
  /// pagination (`envelope["next"]`). When the same key appears twice, the first member wins,
  /// as everywhere in the library. A value at the key path that is not an array is mapped as
  /// a collection is (an object is a collection of one); a key path that crosses an array (a
  /// RestKit fan-out) is not followed: nothing is found there.
  ///
  /// - Parameter keyPath: Dot-separated object keys; `""` is the top-level array (``array``).
  /// - Returns: The layout.
  public static func array(at keyPath: String) -> StreamLayout {
    keyPath.isEmpty ? .array : StreamLayout(keys: _dottedKeys(keyPath).keys, keyPath: keyPath)
  }

  /// JSON Lines (NDJSON, `application/x-ndjson`, `application/jsonl`): one JSON value per line,
  /// lines separated by `\n` (a `\r` before it is allowed); blank lines are skipped.
  ///
  /// Each line is read as a document of its own, so a line that is not valid JSON is a failed
  /// element: with `onElementFailure: .skip` the stream goes on at the next line.
  public static let jsonLines = StreamLayout(keys: nil, keyPath: "")

  /// Whether this is ``jsonLines``.
  package var isJSONLines: Bool { keys == nil }

  /// `array`, `array(at: "data")` or `jsonLines`.
  public var description: String {
    guard let keys else { return "jsonLines" }
    return keys.isEmpty ? "array" : "array(at: \(MessageText.quoted(keyPath)))"
  }

  /// The layout for a `Content-Type` header value: JSON Lines for `application/x-ndjson`,
  /// `application/jsonl`, `application/json-lines` and `application/jsonlines` (parameters and
  /// case are ignored), else `fallback`.
  ///
  /// - Parameters:
  ///   - contentType: The header value, if any.
  ///   - fallback: The layout of anything else.
  /// - Returns: The layout.
  package static func forContentType(_ contentType: String?, fallback: StreamLayout)
    -> StreamLayout
  {
    guard let contentType else { return fallback }
    var type = contentType.split(separator: ";", maxSplits: 1).first ?? ""
    while let first = type.first, first == " " || first == "\t" { type = type.dropFirst() }
    while let last = type.last, last == " " || last == "\t" { type = type.dropLast() }
    switch type.lowercased() {
    case "application/x-ndjson", "application/jsonl", "application/json-lines",
      "application/jsonlines", "application/x-jsonlines":
      return .jsonLines
    default:
      return fallback
    }
  }
}
