import Foundation

/// A `Decodable` decoder on ObjectMapping's JSON reader: the drop-in for `JSONDecoder`.
///
/// ```swift
/// let decoder = FastJSONDecoder()                      // was: let decoder = JSONDecoder()
/// decoder.keyDecodingStrategy = .convertFromSnakeCase
/// let search = try decoder.decode(TwitterSearch.self, from: data)
/// ```
///
/// It takes `JSONDecoder`'s settings (its own strategy types for keys, dates, data and
/// non-conforming floats; `userInfo`, `allowsJSON5`, `assumesTopLevelDictionary`) and gives its
/// results: the same values, the same `DecodingError`s with the same coding paths, the same
/// leniencies (a trailing comma, a byte order mark, UTF-16 and UTF-32 input). Like
/// `JSONDecoder` it is a class whose settings can be changed on a `let`, and it can be shared
/// between threads: each call reads the settings once, when it starts.
///
/// The payload is scanned once into the flat index the mappings read; containers read it in
/// place (no `Any`, no dictionaries of members, no `NSNumber`). A container or decoder that a
/// model keeps past its `init(from:)` keeps working after the call returned, as with
/// `JSONDecoder`: the call then copies the document for it.
///
/// Set ``errorReporting`` to ``ErrorReporting/mappingErrors`` for the library's own errors
/// instead: ``MappingErrors`` with a JSON Pointer path (`/statuses/3/user/id`), the line and
/// column of a syntax error, and every problem of a `MappedCodable` value inside.
public final class FastJSONDecoder: Sendable {

  /// `JSONDecoder.KeyDecodingStrategy`, so that code written for `JSONDecoder` compiles
  /// unchanged (`let strategy: FastJSONDecoder.KeyDecodingStrategy = .convertFromSnakeCase`).
  public typealias KeyDecodingStrategy = JSONDecoder.KeyDecodingStrategy
  /// `JSONDecoder.DateDecodingStrategy`.
  public typealias DateDecodingStrategy = JSONDecoder.DateDecodingStrategy
  /// `JSONDecoder.DataDecodingStrategy`.
  public typealias DataDecodingStrategy = JSONDecoder.DataDecodingStrategy
  /// `JSONDecoder.NonConformingFloatDecodingStrategy`.
  public typealias NonConformingFloatDecodingStrategy =
    JSONDecoder.NonConformingFloatDecodingStrategy

  /// How `FastJSONDecoder.decode(_:from:)` reports a failure.
  public enum ErrorReporting: Sendable, Equatable {
    /// `JSONDecoder`'s errors: a `DecodingError` (`.keyNotFound`, `.typeMismatch`,
    /// `.valueNotFound`, `.dataCorrupted`) with its coding path, and an error a model's own
    /// `init(from:)` throws, unchanged. The default: code written for `JSONDecoder` catches
    /// them as it did.
    case decodingError
    /// ``MappingErrors``: each problem with its JSON Pointer path (the payload's own keys
    /// when a key strategy renamed them), a syntax error with its line and column, and every
    /// problem a `MappedCodable` value's mapping found. The `DecodingError` or the model's
    /// own error is kept as each error's ``MappingError/underlyingError``.
    case mappingErrors
  }

  /// The settings; a call copies them once and reads the copy.
  private let storedOptions = Locked(DecodingOptions())

  /// The settings, as one call reads them.
  var options: DecodingOptions { storedOptions.value }

  private func update(_ change: (inout DecodingOptions) -> Void) {
    storedOptions.withLock { change(&$0) }
  }

  /// How keys of the payload are matched with coding keys (`JSONDecoder`'s type; default
  /// `.useDefaultKeys`). The keys of a `[String: V]` are data and are left as they are, as
  /// `JSONDecoder` leaves them.
  public var keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy {
    get { options.keyDecodingStrategy }
    set { update { $0.keyDecodingStrategy = newValue } }
  }

  /// How dates are read (`JSONDecoder`'s type; default `.deferredToDate`).
  public var dateDecodingStrategy: JSONDecoder.DateDecodingStrategy {
    get { options.dateDecodingStrategy }
    set { update { $0.dateDecodingStrategy = newValue } }
  }

  /// How `Data` is read (default `.base64`).
  public var dataDecodingStrategy: JSONDecoder.DataDecodingStrategy {
    get { options.dataDecodingStrategy }
    set { update { $0.dataDecodingStrategy = newValue } }
  }

  /// Whether strings stand for infinities and NaN (default `.throw`).
  public var nonConformingFloatDecodingStrategy: JSONDecoder.NonConformingFloatDecodingStrategy {
    get { options.nonConformingFloatDecodingStrategy }
    set { update { $0.nonConformingFloatDecodingStrategy = newValue } }
  }

  /// Values the models' `init(from:)` can read from `decoder.userInfo`.
  ///
  /// `@preconcurrency`, as `JSONDecoder`'s and `JSONEncoder`'s are: a value that is not
  /// `Sendable` is a warning, not an error, in Swift 6 mode, so code moving from Foundation's
  /// coders builds as it did.
  @preconcurrency
  public var userInfo: [CodingUserInfoKey: any Sendable] {
    get { options.userInfo }
    set { update { $0.userInfo = newValue } }
  }

  /// Whether the payload may be JSON5 (comments, unquoted keys, single-quoted strings,
  /// hexadecimal numbers, `Infinity` and `NaN`, trailing commas), as with `JSONDecoder`'s
  /// setting of the same name. Default `false`.
  public var allowsJSON5: Bool {
    get { options.allowsJSON5 }
    set { update { $0.allowsJSON5 = newValue } }
  }

  /// Whether the top level is an object even without its braces (`"a": 1, "b": 2`), as with
  /// `JSONDecoder`'s setting of the same name. Default `false`.
  public var assumesTopLevelDictionary: Bool {
    get { options.assumesTopLevelDictionary }
    set { update { $0.assumesTopLevelDictionary = newValue } }
  }

  /// The JSON reader's options: its depth limit, duplicate keys, lone surrogates.
  ///
  /// The default, ``defaultReading``, accepts what `JSONDecoder` accepts: strict JSON with a
  /// trailing comma in arrays and objects and a leading byte order mark. The first of
  /// duplicate keys is read, as `JSONDecoder` reads it.
  public var reading: JSONReadingOptions {
    get { options.reading }
    set { update { $0.reading = newValue } }
  }

  /// How a failure is reported (default ``ErrorReporting/decodingError``, as `JSONDecoder`).
  public var errorReporting: ErrorReporting {
    get { options.errorReporting }
    set { update { $0.errorReporting = newValue } }
  }

  /// The reading options `JSONDecoder` reads with: strict JSON, 512 levels deep, with a
  /// trailing comma and a leading UTF-8 byte order mark allowed.
  public static let defaultReading = JSONReadingOptions(
    allowsTrailingCommas: true, allowsByteOrderMark: true)

  /// Creates a decoder with `JSONDecoder`'s defaults.
  public init() {}

  /// Decodes a value of `type` from JSON: UTF-8, or UTF-16 or UTF-32 (told by a byte order
  /// mark or by the zero bytes around the first character, as `JSONDecoder` tells them).
  ///
  /// ```swift
  /// let user = try FastJSONDecoder().decode(User.self, from: Data(#"{"id": 1}"#.utf8))
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type to decode; a subclass's metatype passed as its superclass's
  ///     (`Employee.self as Person.Type`) decodes the subclass.
  ///   - data: The JSON bytes.
  /// - Returns: The value.
  /// - Throws: With ``errorReporting`` at its default, a `DecodingError` as `JSONDecoder`
  ///   throws it (`.dataCorrupted` for text that is not JSON) or the error the model's own
  ///   `init(from:)` threw; with ``ErrorReporting/mappingErrors``, ``MappingErrors``.
  public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
    try options.decode(from: .data(data)) { reading in
      try reading.decode(type, at: 0, parent: nil, key: nil)
    }
  }

  /// Decodes a value of a type that needs a configuration to decode, as `JSONDecoder`'s
  /// method of the same name does.
  ///
  /// ```swift
  /// let page = try decoder.decode(Page.self, from: data, configuration: .compact)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type to decode.
  ///   - data: The JSON bytes.
  ///   - configuration: What the type's `init(from:configuration:)` receives.
  /// - Returns: The value.
  /// - Throws: As the `Data` variant of `decode(_:from:)`.
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  public func decode<T: DecodableWithConfiguration>(
    _ type: T.Type, from data: Data, configuration: T.DecodingConfiguration
  ) throws -> T {
    try options.decode(from: .data(data)) { reading in
      reading.checkLifetime()
      return try type.init(
        from: TapeDecoder(reading, index: 0, parent: nil, key: nil), configuration: configuration)
    }
  }

  /// Decodes a value of a type that needs a configuration, taken from a provider type.
  ///
  /// - Parameters:
  ///   - type: The type to decode.
  ///   - data: The JSON bytes.
  ///   - configuration: The type that provides the configuration.
  /// - Returns: The value.
  /// - Throws: As the `Data` variant of `decode(_:from:)`.
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  public func decode<T, C>(_ type: T.Type, from data: Data, configuration: C.Type) throws -> T
  where
    T: DecodableWithConfiguration, C: DecodingConfigurationProviding,
    T.DecodingConfiguration == C.DecodingConfiguration
  {
    try decode(type, from: data, configuration: C.decodingConfiguration)
  }
}

/// A ``FastJSONDecoder``'s settings, as one call reads them.
struct DecodingOptions: Sendable {
  var keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys
  var dateDecodingStrategy: JSONDecoder.DateDecodingStrategy = .deferredToDate
  var dataDecodingStrategy: JSONDecoder.DataDecodingStrategy = .base64
  var nonConformingFloatDecodingStrategy: JSONDecoder.NonConformingFloatDecodingStrategy = .throw
  var userInfo: [CodingUserInfoKey: any Sendable] = [:]
  var allowsJSON5 = false
  var assumesTopLevelDictionary = false
  var reading = FastJSONDecoder.defaultReading
  var errorReporting = FastJSONDecoder.ErrorReporting.decodingError
  /// For a mapping derived from a model's `Codable` conformance: the payload keys its
  /// convention makes from the coding keys (``PayloadKeyNames``); `nil` for the coders.
  var payloadKeys: PayloadKeyNames?

  /// Reads `input` and decodes the value at its root with `body`, reporting failures as
  /// ``errorReporting`` says.
  func decode<T>(from input: JSONInput, _ body: (CodableReading) throws -> T) throws -> T {
    let outcome: Result<T, any Error>
    do throws(FormatError) {
      outcome = try input.scan(with: self) { view in
        CodableReading.run(tape: view, options: self) { reading in
          Result { try body(reading) }.mapError { reading.report($0, root: 0) }
        }
      }
    } catch {
      throw syntaxError(error)
    }
    return try outcome.get()
  }

  /// The error for text that is not JSON (or not JSON5): `JSONDecoder`'s `.dataCorrupted`
  /// (with the reader's error, and its line and column, as the underlying error), or the
  /// reader's error as ``MappingErrors``.
  func syntaxError(_ error: FormatError) -> any Error {
    switch errorReporting {
    case .decodingError:
      return DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: [], debugDescription: "The given data was not valid JSON.",
          underlyingError: error))
    case .mappingErrors:
      return MappingErrors([MappingError(error)])
    }
  }
}
