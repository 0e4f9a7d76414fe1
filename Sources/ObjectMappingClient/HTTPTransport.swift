import Foundation

/// Sends one HTTP request and receives its response: the object manager's connection to the
/// network. ``URLSessionTransport`` is the default; conform another HTTP client (AsyncHTTPClient
/// on a server, a test double in tests) to use it without this package depending on it.
///
/// ```swift
/// struct CannedTransport: HTTPTransport {
///   func send(_ request: TransportRequest, maximumBodySize: Int)
///     async throws(URLError) -> TransportResponse
///   {
///     TransportResponse(
///       statusCode: 200, headers: ["Content-Type": "application/json"],
///       body: Data(#"{"id": 1, "title": "Canned"}"#.utf8), url: request.url)
///   }
/// }
/// let manager = ObjectManager(baseURL: api, transport: CannedTransport())
/// ```
///
/// What the manager relies on:
/// - **No redirects.** A 3xx is returned as it is: the manager follows redirects itself, with
///   its ``RedirectPolicy``, stripping credentials when a redirect leaves the origin.
/// - **The size limit while receiving.** Once more than `maximumBodySize` bytes of the body
///   (after any decompression) have arrived, or when the response announces more, stop reading,
///   close the connection and throw `URLError(.dataLengthExceedsMaximum)`. The manager checks the
///   size again, but only a transport that stops early keeps memory bounded.
/// - **Cancellation.** When the calling task is cancelled (the manager's deadline does that),
///   stop the transfer, close the connection and throw `URLError(.cancelled)`. The manager
///   returns at its deadline whether the transport stops or not.
/// - **Nothing added on its own** that the manager must control: no cookies from a shared
///   store, no credentials.
///
/// Errors are `URLError`s, Foundation's vocabulary for network failures on every platform: map
/// your client's errors to the closest code (`.timedOut`, `.cannotConnectToHost`,
/// `.networkConnectionLost`, …).
public protocol HTTPTransport: Sendable {
  /// Sends `request` and returns the response with its whole body.
  ///
  /// - Parameters:
  ///   - request: The method, URL, header fields and body.
  ///   - maximumBodySize: The most body bytes to accept, counted after decompression.
  /// - Returns: The status, header fields, body and the URL that answered.
  /// - Throws: `URLError`: `.dataLengthExceedsMaximum` past the limit, `.cancelled` when the task
  ///   was cancelled, any other code for a failed transfer.
  func send(_ request: TransportRequest, maximumBodySize: Int) async throws(URLError)
    -> TransportResponse

  /// Sends `request` and returns the response once its head arrived, with its body to read as
  /// it arrives (``ObjectManager/elements(_:query:mapping:as:onElementFailure:headers:limits:)``).
  ///
  /// A transport that streams delivers the body in chunks, reading from the network only as
  /// fast as the chunks are taken (backpressure), or holding what arrives ahead of the
  /// consumer within `maximumBodySize` (``URLSessionTransport``, which cannot pause a
  /// transfer), and closes the connection when the body is released before its end or
  /// cancelled. The default implementation calls
  /// ``send(_:maximumBodySize:)`` and delivers the whole body as one chunk, within
  /// `maximumBodySize`: existing transports stream that way with no change.
  ///
  /// - Parameters:
  ///   - request: The method, URL, header fields and body.
  ///   - maximumBodySize: The most body bytes a transport that holds the whole body may hold;
  ///     a transport that streams delivers any number (the reader bounds each element), and
  ///     holds at most this many received and not yet taken (the manager passes
  ///     ``RequestLimits/maximumResponseSize``): past them its body fails with
  ///     `URLError(.dataLengthExceedsMaximum)`, which the manager reports as
  ///     ``ObjectManagerError/consumerFellBehind(limit:)``.
  /// - Returns: The status, header fields, URL and body.
  /// - Throws: `URLError`, as ``send(_:maximumBodySize:)`` does; the body's own errors are
  ///   thrown as it is read.
  func stream(_ request: TransportRequest, maximumBodySize: Int) async throws(URLError)
    -> StreamedTransportResponse
}

/// A request as the manager hands it to its ``HTTPTransport``.
public struct TransportRequest: Sendable, Equatable {
  /// The method.
  public var method: HTTPMethod
  /// The URL, absolute.
  public var url: URL
  /// The header fields, checked (names are tokens, values hold no CR, LF or NUL).
  public var headers: HeaderFields
  /// The body, if any.
  public var body: Data?

  /// A request.
  ///
  /// - Parameters:
  ///   - method: The method.
  ///   - url: The absolute URL.
  ///   - headers: The header fields.
  ///   - body: The body.
  public init(method: HTTPMethod, url: URL, headers: HeaderFields = [:], body: Data? = nil) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
  }
}

/// A response as an ``HTTPTransport`` returns it.
public struct TransportResponse: Sendable, Equatable {
  /// The status code.
  public var statusCode: Int
  /// The header fields.
  public var headers: HeaderFields
  /// The body, decompressed.
  public var body: Data
  /// The URL that answered.
  public var url: URL

  /// A response.
  ///
  /// - Parameters:
  ///   - statusCode: The status code.
  ///   - headers: The header fields.
  ///   - body: The body.
  ///   - url: The URL that answered (the request's).
  public init(statusCode: Int, headers: HeaderFields = [:], body: Data = Data(), url: URL) {
    self.statusCode = statusCode
    self.headers = headers
    self.body = body
    self.url = url
  }
}

extension TransportRequest {
  /// Whether every field name is a token and no value holds CR, LF, NUL or another control
  /// character (what the manager checks before sending, as
  /// ``ObjectManagerError/invalidHeader(name:reason:)``): the transports check it again, for a
  /// caller that hands them a request directly.
  var fieldsCanBeWritten: Bool {
    headers.allSatisfy { HeaderFields.problem(name: $0.name, value: $0.value) == nil }
  }
}
