import Foundation

/// A payload to map: JSON bytes or text, a `Node`, a value parsed by Foundation, or bytes in
/// the format their `Content-Type` names.
///
/// Every decoding verb takes an input: `map(_:with:)`, `mapCollection(_:with:)`,
/// `map(_:onto:with:)`, `report(_:onto:with:)` and ``Mapper/map(_:target:with:)``.
/// `Data`, `[UInt8]`, `String` and `Node` are inputs as they are (strict JSON for the first
/// three); the static members spell the rest:
///
/// ```swift
/// let article = try articleMapping.map(jsonData)                        // strict JSON
/// let draft = try articleMapping.map(.json(text, reading: .lenient))     // comments allowed
/// let posted = try articleMapping.map(.payload(body, contentType: "application/json"))
/// let parsed = try articleMapping.map(.foundation(jsonObject))          // JSONSerialization's
/// ```
///
/// JSON is scanned in place into a flat index that the mapping reads lazily, whichever way it
/// arrives (bytes, text, or a `Content-Type` that names JSON): no `Node` tree is built.
public struct MappingInput {
  enum Source {
    case data(Data, JSONReadingOptions)
    case bytes([UInt8], JSONReadingOptions)
    case text(String, JSONReadingOptions)
    case node(Node)
    case foundation(Any)
    case payload(Data, contentType: String, formats: FormatRegistry?)
  }

  let source: Source
}

// The spellings of inputs, on the protocol so that `.json(data, reading: .lenient)` reads at a
// call site that takes `some MappingInputConvertible` (SE-0299).
extension MappingInputConvertible where Self == MappingInput {
  /// UTF-8 JSON bytes.
  ///
  /// ```swift
  /// let article = try articleMapping.map(.json(data, reading: .lenient))
  /// ```
  ///
  /// - Parameters:
  ///   - data: The payload.
  ///   - reading: Reader options (depth limit, lenient dialect, duplicate keys rejected).
  /// - Returns: The input.
  public static func json(_ data: Data, reading: JSONReadingOptions = .strict) -> MappingInput {
    MappingInput(source: .data(data, reading))
  }

  /// UTF-8 JSON bytes in an array; see `json(_:reading:)`.
  ///
  /// - Parameters:
  ///   - bytes: The payload.
  ///   - reading: Reader options.
  /// - Returns: The input.
  public static func json(_ bytes: [UInt8], reading: JSONReadingOptions = .strict)
    -> MappingInput
  {
    MappingInput(source: .bytes(bytes, reading))
  }

  /// JSON text; a native string's UTF-8 is read in place.
  ///
  /// ```swift
  /// let article = try articleMapping.map(.json(#"{"id": 1, /* draft */ "title": "Hi"}"#,
  ///   reading: .lenient))
  /// ```
  ///
  /// - Parameters:
  ///   - text: The payload.
  ///   - reading: Reader options.
  /// - Returns: The input.
  public static func json(_ text: String, reading: JSONReadingOptions = .strict) -> MappingInput {
    MappingInput(source: .text(text, reading))
  }

  /// A document already read (by any format, or built in code).
  ///
  /// - Parameter node: The payload.
  /// - Returns: The input.
  public static func node(_ node: Node) -> MappingInput {
    MappingInput(source: .node(node))
  }

  /// A value parsed by `JSONSerialization` or `PropertyListSerialization` (`NSNumber` booleans
  /// are told from numbers).
  ///
  /// ```swift
  /// let parsed = try JSONSerialization.jsonObject(with: data)
  /// let article = try articleMapping.map(.foundation(parsed))
  /// ```
  ///
  /// - Parameter value: The payload; anything else than dictionaries, arrays, strings, numbers,
  ///   dates, data and `NSNull` is an error when it is mapped.
  /// - Returns: The input.
  public static func foundation(_ value: Any) -> MappingInput {
    MappingInput(source: .foundation(value))
  }

  /// Bytes in the format their `Content-Type` names, read with a ``FormatRegistry``; JSON is
  /// scanned in place with the registered format's reading options.
  ///
  /// ```swift
  /// let article = try articleMapping.map(
  ///   .payload(body, contentType: "application/x-www-form-urlencoded"))
  /// ```
  ///
  /// - Parameters:
  ///   - data: The payload.
  ///   - contentType: A `Content-Type` header value; parameters and case are ignored.
  ///   - formats: The formats to choose from; by default those of the verb: a ``Mapper``'s
  ///     ``Mapper/formats``, ``FormatRegistry/standard`` for a mapping's own verbs.
  /// - Returns: The input; a content type no format reads is an
  ///   ``MappingError/Kind/unsupportedContentType(_:)`` error when it is mapped.
  public static func payload(
    _ data: Data, contentType: String, formats: FormatRegistry? = nil
  ) -> MappingInput {
    MappingInput(source: .payload(data, contentType: contentType, formats: formats))
  }
}

/// A value that can be mapped as it is: `Data`, `[UInt8]` and `String` (strict JSON), `Node`,
/// Foundation dictionaries (`[String: Any]`, `[[String: Any]]`) and ``MappingInput`` itself. Any
/// other Foundation value (an `Any` from `JSONSerialization`) is passed as
/// ``MappingInput/foundation(_:)``.
///
/// Conform a type of your own (a byte buffer of a networking library, say) to hand it to every
/// decoding verb directly:
///
/// ```swift
/// extension ByteBuffer: MappingInputConvertible {
///   public var mappingInput: MappingInput { .json(Array(readableBytesView)) }
/// }
/// let article = try articleMapping.map(buffer)
/// ```
public protocol MappingInputConvertible {
  /// The payload this value stands for.
  var mappingInput: MappingInput { get }
}

extension MappingInput: MappingInputConvertible {
  /// The input itself.
  public var mappingInput: MappingInput { self }
}

extension Data: MappingInputConvertible {
  /// The bytes as strict JSON.
  public var mappingInput: MappingInput { .json(self) }
}

extension Array: MappingInputConvertible where Element: MappingInputElement {
  /// The elements as one payload: bytes as strict JSON, Foundation dictionaries as an array of
  /// objects.
  public var mappingInput: MappingInput { Element.mappingInput(of: self) }
}

extension Dictionary: MappingInputConvertible where Key == String, Value == Any {
  /// The dictionary as a Foundation value (``MappingInput/foundation(_:)``): a payload built or
  /// parsed elsewhere (`JSONSerialization`, ObjectMapper's `[String: Any]`).
  public var mappingInput: MappingInput { .foundation(self) }
}

/// The element of an array that is a payload as it is: `UInt8` (`[UInt8]` is strict JSON) and
/// `[String: Any]` (`[[String: Any]]` is a Foundation array of objects).
///
/// ```swift
/// let json: [[String: Any]] = [["id": 1, "title": "Hello"], ["id": 2, "title": "Again"]]
/// let articles = try articleMapping.mapCollection(json)
/// ```
public protocol MappingInputElement {
  /// The payload that an array of these elements stands for.
  static func mappingInput(of elements: [Self]) -> MappingInput
}

extension UInt8: MappingInputElement {
  /// The bytes as strict JSON.
  public static func mappingInput(of elements: [UInt8]) -> MappingInput { .json(elements) }
}

extension Dictionary: MappingInputElement where Key == String, Value == Any {
  /// The dictionaries as a Foundation array of objects.
  public static func mappingInput(of elements: [[String: Any]]) -> MappingInput {
    .foundation(elements)
  }
}

extension String: MappingInputConvertible {
  /// The text as strict JSON.
  public var mappingInput: MappingInput { .json(self) }
}

extension Node: MappingInputConvertible {
  /// The node itself.
  public var mappingInput: MappingInput { .node(self) }
}

// MARK: Reading

extension MappingInput {
  /// Reads the input: calls `json` with the bytes of a JSON input, in place, and its reading
  /// options, or `node` with the document of any other input. A payload input without a
  /// registry of its own is read with `defaultFormats` (the verb's).
  ///
  /// - Throws: ``MappingErrors`` when the input cannot be read as a document at all (an
  ///   unsupported content type, a malformed form body, a Foundation value that is not a
  ///   payload); syntax errors of JSON are left to `json`, which scans it.
  func read<Result>(
    formats defaultFormats: FormatRegistry = .standard,
    json: (_JSONText, JSONReadingOptions) -> Result,
    node: (Node) -> Result
  ) throws(MappingErrors) -> Result {
    switch source {
    case .data(let data, let reading):
      return json(.data(data), reading)
    case .bytes(let bytes, let reading):
      return json(.bytes(bytes), reading)
    case .text(let text, let reading):
      return json(.string(text), reading)
    case .node(let document):
      return node(document)
    case .foundation(let value):
      return node(try _Tape.foundationNode(value))
    case .payload(let data, let contentType, let formats):
      let formats = formats ?? defaultFormats
      guard let format = formats.format(forContentType: contentType) else {
        throw MappingErrors([MappingError(.unsupportedContentType(contentType))])
      }
      if case .json(_, let reading) = format.kind {
        return json(.data(data), reading)
      }
      do {
        return node(try format.read(data))
      } catch {
        throw MappingErrors([error])
      }
    }
  }

  /// Reads the input into a scanned index and calls `body` with a view of it, valid during the
  /// call.
  ///
  /// - Throws: ``MappingErrors``: the input cannot be read (a syntax error with its line and
  ///   column, an unsupported content type, a non-finite double in a node).
  func withView<Result>(
    formats: FormatRegistry = .standard, _ body: (_UnsafeTapeView) -> Result
  ) throws(MappingErrors) -> Result {
    try read(
      formats: formats,
      json: { text, reading -> Swift.Result<Result, MappingError> in
        do throws(FormatError) {
          return .success(try text.scan(options: reading, body))
        } catch {
          return .failure(MappingError(error))
        }
      },
      node: { document -> Swift.Result<Result, MappingError> in
        do throws(FormatError) {
          return .success(try _Tape(node: document).withView(body))
        } catch {
          return .failure(MappingError(error))
        }
      }
    ).mapError { MappingErrors([$0]) }.get()
  }
}

extension _Tape {
  /// A tape of JSON bytes, with a failure reported as ``MappingErrors``.
  static func checked(json: [UInt8], options: JSONReadingOptions) throws(MappingErrors) -> _Tape {
    do {
      return try _Tape(json: json, options: options)
    } catch {
      throw MappingErrors([MappingError(error)])
    }
  }

  /// A tape of `node`, with a failure reported as ``MappingErrors``.
  static func checked(node: Node) throws(MappingErrors) -> _Tape {
    do {
      return try _Tape(node: node)
    } catch {
      throw MappingErrors([MappingError(error)])
    }
  }

  /// The document of a Foundation value, with a failure reported as ``MappingErrors``.
  static func foundationNode(_ value: Any) throws(MappingErrors) -> Node {
    do {
      return try Node(foundation: value)
    } catch let error as FormatError {
      throw MappingErrors([MappingError(error)])
    } catch {
      throw MappingErrors([MappingError(.notRepresentable(reason: "\(error)"))])
    }
  }
}
