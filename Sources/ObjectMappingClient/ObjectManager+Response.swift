import Foundation
import ObjectMapping

extension ObjectManager {
  /// A response with a status in 200–299, mapped the way the manager maps: with its
  /// `Content-Type`'s format, the manager's ``ObjectManager/options`` and the response's
  /// ``metadata``.
  ///
  /// ```swift
  /// let response = try await manager.send(.get, "/articles", query: ["page": "2"])
  /// let page = try response.mapCollection(articleMapping)
  /// let next = response.headers["Link"]          // case-insensitive: "link" works too
  /// ```
  public struct Response: Sendable {
    /// The status code.
    public var statusCode: Int
    /// The header fields (names compared without regard to case).
    public var headers: HeaderFields
    /// The body, decompressed.
    public var body: Data
    /// The URL that answered (after any redirect).
    public var url: URL
    /// The URL requested first.
    public var requestURL: URL
    /// The request's method.
    public var method: HTTPMethod
    /// The formats the body is read with.
    public var formats: FormatRegistry
    /// The manager's options, which mapping this response uses with its ``metadata``.
    public var options: MappingOptions
    /// The route of the manager's ``ObjectManager/router`` that the requested path matched
    /// (its parameters, RestKit's `@metadata.routing.parameters`), or `nil`.
    public var route: Router.Match?

    /// The response's `Content-Type`, if any.
    public var contentType: String? { headers["Content-Type"] }

    /// What mappings read through ``SourcePath/metadata`` while this response is mapped:
    ///
    /// ```json
    /// {"request": {"url": "https://…/articles?page=2", "method": "GET"},
    ///  "response": {"url": "…", "status": 200, "headers": {"content-type": "…", "etag": "…"}},
    ///  "HTTP": {"request": {"URL": "https://…/articles?page=2", "method": "GET"},
    ///           "response": {"URL": "…", "headers": {"Content-Type": "…", "Etag": "…"}}},
    ///  "routing": {"parameters": {"articleID": "12"}}}
    /// ```
    ///
    /// `routing` is there when the requested path matched a route of the manager's router
    /// (``route``): RestKit's `"@metadata.routing.parameters.articleID"`.
    ///
    /// Under `request` and `response` header names are lowercased. `HTTP` holds the same facts
    /// under RestKit's names, so RestKit's key paths read them as they did
    /// (`"@metadata.HTTP.request.method"`, `"@metadata.HTTP.response.headers.Content-Type"`),
    /// with header names as the transport reports them: Foundation's `URLSession` capitalizes
    /// each word (`Etag`, `Last-Modified`), so `response.headers.etag` is the spelling that
    /// does not depend on the transport. A repeated field's values are joined with `", "`.
    /// A URL's user name and password (`https://user:secret@host/`) are written as `***`, so a
    /// mapping cannot copy them into a model.
    public var metadata: Node {
      var metadata: Node = [
        "request": [
          "url": .string(requestURL.withoutCredentials), "method": .string(method.rawValue),
        ],
        "response": [
          "url": .string(url.withoutCredentials), "status": .integer(Int64(statusCode)),
          "headers": .object(headerMembers(lowercased: true)),
        ],
        "HTTP": [
          "request": [
            "URL": .string(requestURL.withoutCredentials), "method": .string(method.rawValue),
          ],
          "response": [
            "URL": .string(url.withoutCredentials),
            "headers": .object(headerMembers(lowercased: false)),
          ],
        ],
      ]
      if let route {
        let parameters = route.parameters.sorted { $0.key < $1.key }.map {
          Node.Member($0.key, .string($0.value))
        }
        var routing: [Node.Member] = [Node.Member("parameters", .object(parameters))]
        if let name = route.name { routing.append(Node.Member("route", .string(name))) }
        metadata["routing"] = .object(routing)
      }
      return metadata
    }

    /// The header fields as members of an object, sorted by name, a repeated field's values
    /// joined with `", "` (fields whose names differ only in case are one field).
    private func headerMembers(lowercased: Bool) -> [Node.Member] {
      var names: [String] = []
      var values: [String: [String]] = [:]
      for field in headers {
        let key = field.name.lowercased()
        if values[key] == nil { names.append(lowercased ? key : field.name) }
        values[key, default: []].append(field.value)
      }
      return names.sorted().map { name in
        Node.Member(name, .string((values[name.lowercased()] ?? []).joined(separator: ", ")))
      }
    }

    /// The options this response is mapped with: ``options`` and ``metadata``, merged with
    /// the metadata of the manager's options (the response's facts shadow members of the same
    /// name).
    public var mappingOptions: MappingOptions {
      var options = options
      options.metadata = MappingOptions.metadata(metadata, over: options.metadata)
      return options
    }

    /// The options the body at `keyPath` is mapped with: ``mappingOptions``, with RestKit's
    /// `mapping.rootKeyPath` in the metadata (`keyPath`, or `null` for the whole body), so
    /// `"@metadata.mapping.rootKeyPath"` reads as it does under a ``Mapper`` route.
    package func mappingOptions(at keyPath: String?) -> MappingOptions {
      var options = mappingOptions
      options.metadata = Mapper.metadata(options.metadata, rootKeyPath: keyPath ?? "")
      return options
    }

    /// The body mapped with `mapping`, as ``ObjectManager/get(_:query:mapping:rootKey:headers:limits:)``
    /// maps it.
    ///
    /// ```swift
    /// let article = try response.map(articleMapping)
    /// let wrapped = try response.map(articleMapping, at: "data.article")
    /// ```
    ///
    /// - Parameters:
    ///   - mapping: The mapping.
    ///   - keyPath: A dotted key path the object is under (`\.` is a literal dot), or `nil`.
    /// - Returns: The object.
    /// - Throws: ``ObjectManagerError``: `.emptyBody`, `.unsupportedContentType` or `.mapping`.
    public func map<M: MappingProtocol>(_ mapping: M, at keyPath: String? = nil)
      throws(ObjectManagerError) -> sending M.Object
    {
      let input = try input(at: keyPath)
      do {
        return try mapping.map(input, with: mappingOptions(at: keyPath))
      } catch {
        throw .mapping(error, status: statusCode)
      }
    }

    /// The body mapped as a collection with `mapping` (a single object is a collection of
    /// one), as ``ObjectManager/getCollection(_:query:mapping:rootKey:headers:limits:)`` maps it.
    ///
    /// - Parameters:
    ///   - mapping: The mapping of each element.
    ///   - keyPath: A dotted key path the array is under, or `nil`.
    /// - Returns: The objects, in payload order.
    /// - Throws: ``ObjectManagerError``: `.emptyBody`, `.unsupportedContentType` or `.mapping`.
    public func mapCollection<M: MappingProtocol>(_ mapping: M, at keyPath: String? = nil)
      throws(ObjectManagerError) -> sending [M.Object]
    {
      let input = try input(at: keyPath)
      do {
        return try mapping.mapCollection(input, with: mappingOptions(at: keyPath))
      } catch {
        throw .mapping(error, status: statusCode)
      }
    }

    /// The body mapped onto `object` (transactional: unchanged when anything fails).
    ///
    /// - Parameters:
    ///   - mapping: The mapping.
    ///   - keyPath: A dotted key path the object is under, or `nil`.
    ///   - object: The object to update.
    /// - Throws: ``ObjectManagerError``: `.emptyBody`, `.unsupportedContentType` or `.mapping`.
    public func map<M: MappingProtocol>(
      _ mapping: M, at keyPath: String? = nil, onto object: inout M.Object
    ) throws(ObjectManagerError) {
      let input = try input(at: keyPath)
      do {
        try mapping.map(input, onto: &object, with: mappingOptions(at: keyPath))
      } catch {
        throw .mapping(error, status: statusCode)
      }
    }

    /// The body mapped through a provider's routes; an empty body is an empty result.
    ///
    /// - Parameter provider: The routes.
    /// - Returns: The objects of every route that found its key path.
    /// - Throws: ``ObjectManagerError``: `.unsupportedContentType` or `.mapping` (a body that
    ///   cannot be read).
    public func map(_ provider: MappingProvider) throws(ObjectManagerError)
      -> sending MappingResult
    {
      let mapper = Mapper(provider, formats: formats)
      let payload: MappingInput = body.isEmpty ? .node(Node.object([])) : try input(at: nil)
      do throws(MappingErrors) {
        return try mapper.map(payload, with: mappingOptions)
      } catch {
        throw .mapping(error, status: statusCode)
      }
    }

    /// The body as a mapping input: the payload by its `Content-Type` (JSON without one), or
    /// the node at `keyPath`.
    func input(at keyPath: String?) throws(ObjectManagerError) -> MappingInput {
      guard !body.isEmpty else { throw .emptyBody(status: statusCode) }
      let type = contentType ?? "application/json"
      guard formats.format(forContentType: type) != nil else {
        throw .unsupportedContentType(type, status: statusCode)
      }
      guard let keyPath else {
        return .payload(body, contentType: type, formats: formats)
      }
      return .node(try node(at: keyPath))
    }

    /// The body read as a document, and the value at `keyPath` in it (also for the persistent
    /// store's loads, in ObjectMappingStore).
    package func node(at keyPath: String?) throws(ObjectManagerError) -> Node {
      guard !body.isEmpty else { throw .emptyBody(status: statusCode) }
      let type = contentType ?? "application/json"
      let document: Node
      do {
        document = try formats.read(body, contentType: type)
      } catch {
        if case .unsupportedContentType = error.kind {
          throw .unsupportedContentType(type, status: statusCode)
        }
        throw .mapping(MappingErrors([error]), status: statusCode)
      }
      guard let keyPath else { return document }
      guard let value = document.value(atKeyPath: keyPath) else {
        var keys: [String]?
        if case .object(let members) = document { keys = members.map(\.key) }
        throw .mapping(
          MappingErrors([MappingError(.nothingFound(searched: [keyPath], topLevelKeys: keys))]),
          status: statusCode)
      }
      return value
    }
  }
}

extension Node {
  /// The value at a dotted key path (`\.` is a literal dot); a path that crosses an array
  /// reaches into every element (RestKit: `"human"` over `[{"human": …}, …]`), leaving out the
  /// elements without it. `nil` when nothing is there.
  func value(atKeyPath keyPath: String) -> Node? {
    value(at: _dottedKeys(keyPath).keys[...])
  }

  private func value(at keys: ArraySlice<String>) -> Node? {
    guard let key = keys.first else { return self }
    switch self {
    case .object:
      return self[key]?.value(at: keys.dropFirst())
    case .array(let elements):
      return .array(elements.compactMap { $0.value(at: keys) })
    default:
      return nil
    }
  }
}
