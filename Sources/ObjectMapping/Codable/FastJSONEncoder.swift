import Foundation

/// An `Encodable` encoder writing JSON with ObjectMapping's writer: the drop-in for
/// `JSONEncoder`.
///
/// ```swift
/// let encoder = FastJSONEncoder()                      // was: let encoder = JSONEncoder()
/// encoder.keyEncodingStrategy = .convertToSnakeCase
/// encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
/// let data = try encoder.encode(search)
/// ```
///
/// It takes `JSONEncoder`'s settings (its own strategy types for keys, dates, data and
/// non-conforming floats; `userInfo`; the `.sortedKeys`, `.prettyPrinted` and
/// `.withoutEscapingSlashes` output formats) and writes what `JSONEncoder` writes: the same
/// bytes (`/` as `\/`, `1000.0` as `1000`, a `Float` in its shortest form, `"key" : value` when
/// pretty-printed), the same `EncodingError`s with the same coding paths. Like `JSONEncoder` it
/// is a class whose settings can be changed on a `let`, and it can be shared between threads.
/// Members of a dictionary come in the dictionary's order, as with `JSONEncoder`; set
/// `.sortedKeys` for output that does not depend on it.
///
/// Values are written straight into the writer (no value tree) unless a model uses the
/// coders in a way a stream cannot follow (a `superEncoder`, a key written twice, a nested
/// container written after its parent moved on); those are encoded again through a tree, with
/// the same result (the model's `encode(to:)` then runs twice). `.sortedKeys` always takes the
/// tree.
///
/// Set ``errorReporting`` to ``ErrorReporting/mappingErrors`` for ``MappingErrors`` with the
/// JSON Pointer path of the value that cannot be written.
public final class FastJSONEncoder: Sendable {

  /// `JSONEncoder.OutputFormatting`, so that code written for `JSONEncoder` compiles unchanged.
  public typealias OutputFormatting = JSONEncoder.OutputFormatting
  /// `JSONEncoder.KeyEncodingStrategy`.
  public typealias KeyEncodingStrategy = JSONEncoder.KeyEncodingStrategy
  /// `JSONEncoder.DateEncodingStrategy`.
  public typealias DateEncodingStrategy = JSONEncoder.DateEncodingStrategy
  /// `JSONEncoder.DataEncodingStrategy`.
  public typealias DataEncodingStrategy = JSONEncoder.DataEncodingStrategy
  /// `JSONEncoder.NonConformingFloatEncodingStrategy`.
  public typealias NonConformingFloatEncodingStrategy =
    JSONEncoder.NonConformingFloatEncodingStrategy

  /// How ``FastJSONEncoder/encode(_:)`` reports a failure.
  public enum ErrorReporting: Sendable, Equatable {
    /// `JSONEncoder`'s errors: `EncodingError.invalidValue` with its coding path, and an error
    /// a model's own `encode(to:)` throws, unchanged. The default.
    case encodingError
    /// ``MappingErrors``: the problem with its JSON Pointer path (`/items/2/ratio: …`), the
    /// `EncodingError` or the model's own error kept as its ``MappingError/underlyingError``.
    case mappingErrors
  }

  /// The settings as the properties set them, and the settings made from them until a
  /// property changes them; a call copies them once and reads the copy.
  private let stored = Locked<(options: EncodingOptions, settings: NodeEncodingSettings?)>(
    (EncodingOptions(), nil))

  /// The settings as the properties set them.
  private var options: EncodingOptions { stored.withLock { $0.options } }

  /// The settings, as one call reads them (made once per change of a property).
  var settings: NodeEncodingSettings {
    stored.withLock { stored in
      if let settings = stored.settings { return settings }
      let settings = NodeEncodingSettings(stored.options)
      stored.settings = settings
      return settings
    }
  }

  private func update(_ change: (inout EncodingOptions) -> Void) {
    stored.withLock { stored in
      change(&stored.options)
      stored.settings = nil
    }
  }

  /// The output format: `.sortedKeys` (by the keys' UTF-8 bytes, as `JSONEncoder` on Linux
  /// sorts them), `.prettyPrinted` (`JSONEncoder`'s layout) and `.withoutEscapingSlashes`.
  public var outputFormatting: JSONEncoder.OutputFormatting {
    get { options.outputFormatting }
    set { update { $0.outputFormatting = newValue } }
  }

  /// How coding keys become output keys (`JSONEncoder`'s type; default `.useDefaultKeys`). The
  /// keys of a `[String: V]` are data and are written as they are, as `JSONEncoder` writes
  /// them.
  public var keyEncodingStrategy: JSONEncoder.KeyEncodingStrategy {
    get { options.keyEncodingStrategy }
    set { update { $0.keyEncodingStrategy = newValue } }
  }

  /// How dates are written (default `.deferredToDate`).
  public var dateEncodingStrategy: JSONEncoder.DateEncodingStrategy {
    get { options.dateEncodingStrategy }
    set { update { $0.dateEncodingStrategy = newValue } }
  }

  /// How `Data` is written (default `.base64`).
  public var dataEncodingStrategy: JSONEncoder.DataEncodingStrategy {
    get { options.dataEncodingStrategy }
    set { update { $0.dataEncodingStrategy = newValue } }
  }

  /// Whether infinities and NaN are written as strings (default `.throw`).
  public var nonConformingFloatEncodingStrategy: JSONEncoder.NonConformingFloatEncodingStrategy {
    get { options.nonConformingFloatEncodingStrategy }
    set { update { $0.nonConformingFloatEncodingStrategy = newValue } }
  }

  /// Values the models' `encode(to:)` can read from `encoder.userInfo`.
  ///
  /// `@preconcurrency`, as `JSONDecoder`'s and `JSONEncoder`'s are: a value that is not
  /// `Sendable` is a warning, not an error, in Swift 6 mode, so code moving from Foundation's
  /// coders builds as it did.
  @preconcurrency
  public var userInfo: [CodingUserInfoKey: any Sendable] {
    get { options.userInfo }
    set { update { $0.userInfo = newValue } }
  }

  /// How a failure is reported (default ``ErrorReporting/encodingError``, as `JSONEncoder`).
  public var errorReporting: ErrorReporting {
    get { options.errorReporting }
    set { update { $0.errorReporting = newValue } }
  }

  /// Creates an encoder with `JSONEncoder`'s defaults.
  public init() {}

  /// `value` as JSON, as `JSONEncoder` writes it.
  ///
  /// ```swift
  /// let data = try FastJSONEncoder().encode(["path": "/a/b", "ratio": 1000.0])
  /// // {"path":"\/a\/b","ratio":1000} (members in the dictionary's order)
  /// ```
  ///
  /// - Parameter value: The value to write.
  /// - Returns: The UTF-8 JSON bytes.
  /// - Throws: With ``errorReporting`` at its default, `EncodingError.invalidValue` as
  ///   `JSONEncoder` throws it (a non-finite number, a top-level value that writes nothing,
  ///   nesting deeper than 512 levels) or the error the model's own `encode(to:)` threw; with
  ///   ``ErrorReporting/mappingErrors``, ``MappingErrors``.
  public func encode<T: Encodable>(_ value: T) throws -> Data {
    let settings = self.settings
    return try settings.reporting {
      try settings.json(
        stream: { try settings.streamTopLevel(value, into: &$0) },
        node: { try settings.topLevelNode(value) }, describing: value)
    }
  }

  /// `value`, a type that needs a configuration to encode, as JSON (`JSONEncoder`'s method of
  /// the same name).
  ///
  /// - Parameters:
  ///   - value: The value to write.
  ///   - configuration: What the type's `encode(to:configuration:)` receives.
  /// - Returns: The UTF-8 JSON bytes.
  /// - Throws: As ``encode(_:)``.
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  public func encode<T: EncodableWithConfiguration>(
    _ value: T, configuration: T.EncodingConfiguration
  ) throws -> Data {
    let settings = self.settings
    let encode: (any Encoder) throws -> Void = {
      try value.encode(to: $0, configuration: configuration)
    }
    return try settings.reporting {
      try settings.json(
        stream: { try settings.streamTopLevel(value, into: &$0, encode: encode) },
        node: { try settings.topLevelNode(value, encode: encode) }, describing: value)
    }
  }

  /// `value` as JSON, with the configuration a provider type gives.
  ///
  /// - Parameters:
  ///   - value: The value to write.
  ///   - configuration: The type that provides the configuration.
  /// - Returns: The UTF-8 JSON bytes.
  /// - Throws: As ``encode(_:)``.
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  public func encode<T, C>(_ value: T, configuration: C.Type) throws -> Data
  where
    T: EncodableWithConfiguration, C: EncodingConfigurationProviding,
    T.EncodingConfiguration == C.EncodingConfiguration
  {
    try encode(value, configuration: C.encodingConfiguration)
  }
}

extension NodeEncodingSettings {
  /// A top-level value as JSON: written straight into a writer by `stream` when it can be
  /// (and keys need no sorting), else built as a `Node` by `node` and written.
  func json<T>(
    stream: (inout _JSONWriter) throws -> Bool, node: () throws -> Node, describing value: T
  ) throws -> Data {
    if !outputFormatting.contains(.sortedKeys) {
      var writer = makeWriter(capacity: 4096)
      if try stream(&writer) { return writer.takeData() }
    }
    let node = try node()
    var writer = makeWriter(capacity: 4096)
    do {
      try CoderNodeWriter(
        settings: self, sortedKeys: outputFormatting.contains(.sortedKeys), path: [], depth: 0
      ).write(node, to: &writer)
    } catch is TooDeep {
      throw Self.tooDeep(value)
    }
    return writer.takeData()
  }

  /// A writer with this encoder's output format.
  func makeWriter(capacity: Int) -> _JSONWriter {
    var writer = _JSONWriter(pretty: outputFormatting.contains(.prettyPrinted), capacity: capacity)
    writer.escapesSlashes = !outputFormatting.contains(.withoutEscapingSlashes)
    writer.encoderLayout = true
    return writer
  }

  /// `body`'s result, its failure reported as ``errorReporting`` says.
  func reporting<Result>(_ body: () throws -> Result) throws -> Result {
    do {
      return try body()
    } catch {
      switch errorReporting {
      case .encodingError:
        if let format = error as? FormatError {
          throw EncodingError.invalidValue(
            "", EncodingError.Context(codingPath: [], debugDescription: "\(format)"))
        }
        throw error
      case .mappingErrors:
        if let errors = error as? MappingErrors { throw errors }
        throw MappingErrors([encodingMappingError(error)])
      }
    }
  }

  /// `JSONEncoder`'s error for a value nested deeper than 512 levels. (`JSONEncoder` itself
  /// stops at 511, one level short of what its decoder reads; FastJSONEncoder writes what the
  /// readers read.)
  static func tooDeep<T>(_ value: T) -> EncodingError {
    .invalidValue(
      value,
      EncodingError.Context(
        codingPath: [], debugDescription: "Unable to encode the given top-level value to JSON."))
  }

  /// `JSONEncoder`'s error for a top-level value whose `encode(to:)` wrote nothing.
  static func wroteNothing<T>(_ value: T) -> EncodingError {
    .invalidValue(
      value,
      EncodingError.Context(
        codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
  }
}

/// The ``MappingError`` for an error thrown while encoding.
func encodingMappingError(_ error: any Error) -> MappingError {
  if let mapping = error as? MappingError { return mapping }
  if let format = error as? FormatError { return MappingError(format) }
  guard case EncodingError.invalidValue(_, let context) = error else {
    return MappingError(.notRepresentable(reason: "\(error)"), underlyingError: error)
  }
  let path = _jsonPointer(
    context.codingPath.map { key in key.intValue.map { .index($0) } ?? .key(key.stringValue) })
  return MappingError(
    path: path, .notRepresentable(reason: context.debugDescription), underlyingError: error)
}
