import Foundation

/// A payload format: how to read bytes into a ``Node`` and write one back, and its media type.
///
/// JSON and form-URL-encoded bodies are built in; register others (YAML, MessagePack, …) in a
/// ``FormatRegistry`` with ``init(contentType:additionalContentTypes:read:write:)``.
///
/// ```swift
/// try mapping.serialize(article, as: .json)
/// try mapping.serialize(article, as: .json(.prettyPrinted))
/// try mapping.serialize(article, as: .formURLEncoded(FormEncodingOptions(booleans: .numeric)))
/// ```
public struct PayloadFormat: Sendable {
  enum Kind: Sendable {
    case json(JSONWritingOptions, JSONReadingOptions)
    /// `nil`: no options given (``formURLEncoded``): a call's ``MappingOptions/form``, else
    /// the defaults.
    case form(FormEncodingOptions?)
    case custom(
      read: @Sendable (Data) throws -> Node, write: @Sendable (Node) throws -> Data)
  }

  /// The media type written as `Content-Type` (`application/json`).
  public let contentType: String
  /// Other media types this format reads (`text/json`).
  public let additionalContentTypes: [String]
  let kind: Kind

  init(contentType: String, additionalContentTypes: [String], kind: Kind) {
    self.contentType = contentType
    self.additionalContentTypes = additionalContentTypes
    self.kind = kind
  }

  /// A format of your own.
  ///
  /// - Parameters:
  ///   - contentType: The media type it writes and reads (`application/x-yaml`).
  ///   - additionalContentTypes: Other media types it reads.
  ///   - read: Parses a payload into a node; throw for malformed input.
  ///   - write: Writes a node; throw for values the format cannot hold.
  @preconcurrency
  public init(
    contentType: String, additionalContentTypes: [String] = [],
    read: @escaping @Sendable (Data) throws -> Node,
    write: @escaping @Sendable (Node) throws -> Data
  ) {
    self.init(
      contentType: contentType, additionalContentTypes: additionalContentTypes,
      kind: .custom(read: read, write: write))
  }

  /// JSON (`application/json`), compact, strict reading.
  public static var json: PayloadFormat { json([]) }

  /// JSON with writing (and reading) options.
  public static func json(
    _ options: JSONWritingOptions, reading: JSONReadingOptions = .strict
  ) -> PayloadFormat {
    PayloadFormat(
      contentType: "application/json", additionalContentTypes: ["text/json"],
      kind: .json(options, reading))
  }

  /// Form-URL-encoded bodies (`application/x-www-form-urlencoded`): `article[title]=Hello`,
  /// written with the serializing call's ``MappingOptions/form`` (RestKit's style under
  /// ``MappingOptions/restKitCompatible``), else ``FormEncodingOptions``' defaults.
  public static var formURLEncoded: PayloadFormat {
    PayloadFormat(
      contentType: "application/x-www-form-urlencoded", additionalContentTypes: [],
      kind: .form(nil))
  }

  /// Form-URL-encoded bodies with options (array style, nulls, booleans as `1`/`0`, RestKit's
  /// style with ``FormEncodingOptions/restKit``); they win over a call's
  /// ``MappingOptions/form``.
  public static func formURLEncoded(_ options: FormEncodingOptions) -> PayloadFormat {
    PayloadFormat(
      contentType: "application/x-www-form-urlencoded", additionalContentTypes: [],
      kind: .form(options))
  }

  /// Reads a payload in this format.
  ///
  /// - Throws: ``MappingError`` for malformed input (with line and column for JSON).
  public func read(_ data: Data) throws(MappingError) -> Node {
    do {
      switch kind {
      case .json(_, let reading): return try Node(jsonData: data, options: reading)
      case .form: return try Node(formURLEncoded: data)
      case .custom(let read, _): return try read(data)
      }
    } catch let error as FormatError {
      throw MappingError(error)
    } catch let error as MappingError {
      throw error
    } catch {
      throw MappingError(
        .format(
          .syntax(message: "\(error)", location: TextLocation(offset: 0, line: 1, column: 1))))
    }
  }

  /// Writes a node in this format.
  ///
  /// - Throws: ``MappingError`` for values the format cannot hold.
  public func write(_ node: Node) throws(MappingError) -> Data {
    do {
      switch kind {
      case .json(let options, _): return try node.jsonData(options: options)
      case .form(let options):
        return try node.formURLEncodedData(options: options ?? FormEncodingOptions())
      case .custom(_, let write): return try write(node)
      }
    } catch let error as FormatError {
      throw MappingError(error)
    } catch let error as MappingError {
      throw error
    } catch {
      throw MappingError(.notRepresentable(reason: "\(error)"))
    }
  }

  /// Writes `node`; a form format given no options of its own uses `form` when set.
  func encode(_ node: Node, form: FormEncodingOptions? = nil) throws(MappingErrors) -> Data {
    do {
      if let form, case .form(nil) = kind {
        return try PayloadFormat.formURLEncoded(form).write(node)
      }
      return try write(node)
    } catch {
      throw MappingErrors([error])
    }
  }

  /// Whether this format reads `mediaType` (lowercased, without parameters).
  func handles(_ mediaType: String) -> Bool {
    mediaType == contentType || additionalContentTypes.contains(mediaType)
  }
}

/// The formats a program reads and writes, by media type (RestKit's parser registry).
///
/// ``standard`` has JSON and form bodies. Registries are values: make one with your own formats
/// and pass it where payloads are read by `Content-Type`.
///
/// ```swift
/// let formats = FormatRegistry.standard.registering(yamlFormat)
/// let node = try formats.read(data, contentType: "application/json; charset=utf-8")
/// ```
public struct FormatRegistry: Sendable {
  /// The registered formats; later registrations win for the same media type.
  public private(set) var formats: [PayloadFormat]

  /// JSON (`application/json`, `text/json`, and any `+json` type) and form bodies.
  public static let standard = FormatRegistry([.json, .formURLEncoded])

  /// A registry of `formats`.
  public init(_ formats: [PayloadFormat]) {
    self.formats = formats
  }

  /// This registry with `format` added (it wins over earlier formats for its media types).
  public func registering(_ format: PayloadFormat) -> FormatRegistry {
    var copy = self
    copy.formats.append(format)
    return copy
  }

  /// The format for a `Content-Type` header value: parameters (`; charset=utf-8`) and case are
  /// ignored; a structured-syntax suffix (`application/vnd.api+json`) falls back to its base
  /// format.
  public func format(forContentType contentType: String) -> PayloadFormat? {
    let mediaType = bareMediaType(contentType)
    if let format = formats.last(where: { $0.handles(mediaType) }) { return format }
    if let plus = mediaType.lastIndex(of: "+") {
      let suffix = mediaType[mediaType.index(after: plus)...]
      return formats.last { $0.handles("application/\(suffix)") }
    }
    return nil
  }

  /// Reads a payload with the format registered for its `Content-Type`.
  ///
  /// - Throws: ``MappingError`` `.unsupportedContentType` when no format handles it, or the
  ///   format's error for malformed input.
  public func read(_ data: Data, contentType: String) throws(MappingError) -> Node {
    guard let format = format(forContentType: contentType) else {
      throw MappingError(.unsupportedContentType(contentType))
    }
    return try format.read(data)
  }
}

/// The media type of a `Content-Type` value, lowercased, without parameters or spaces (for the
/// format registry here and the object manager's error bodies).
package func bareMediaType(_ contentType: String) -> String {
  let base = contentType.split(separator: ";", maxSplits: 1).first ?? ""
  return base.trimmingCharacters(in: .whitespaces).lowercased()
}
