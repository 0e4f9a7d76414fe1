import ObjectMapping

/// A path with named parameters, `/articles/:articleID/comments`: filled from values
/// (``interpolate(_:escaping:)``) and matched against paths (``match(_:)``).
///
/// ```swift
/// let pattern = try PathPattern("/directory/:folder/{name}\\.json?rev=:rev")
/// try pattern.interpolate(["folder": "a b", "name": "..", "rev": "1&2"])
/// // "/directory/a%20b/%2E%2E.json?rev=1%262"
/// pattern.match("/directory/docs/readme.json?rev=7")
/// // ["folder": "docs", "name": "readme", "rev": "7"]
/// ```
///
/// The syntax:
/// - `:name` (RestKit), `{name}` and `(name)` (RestKit 0.10) are parameters. A `:name` is
///   letters, digits and `_`, starting with a letter or `_`; braces and parentheses also allow
///   `.` (`{user.id}`, a key of the values dictionary like any other).
/// - A literal `.` or `@` right after a `:name` parameter must be escaped, `:filename\.json`:
///   RestKit read `:filename.json` as the key path `filename.json`, so the unescaped form is an
///   error rather than a guess. `\:`, `\{`, `\}`, `\(`, `\)` and `\\` are the other escapes.
/// - A parameter spans at most one path segment: it never matches a `/`. The one exception is
///   declared: `{name*}` spans one or more whole segments (`/files/{path*}/raw` fills and
///   matches `/files/docs/2026/report.pdf/raw`). Its value's segments are encoded one by one,
///   so its `/`s stay separators; an empty segment (a leading, trailing or doubled `/`) is an
///   error. A pattern has one such parameter at most, and only in the path.
/// - A `?` starts the query (`/people?password=:password`); its parameters are query values.
/// - Anything else that looks like a parameter (a `:` without a name, an unclosed `{`, two
///   parameters with no text between them, a name used twice) is an error when the pattern is
///   made, and so is text that cannot be part of a URL (a space, `#`, non-ASCII: percent-encode
///   it), never literal text in a request.
public struct PathPattern: Sendable, Hashable, CustomStringConvertible {
  enum Part: Sendable, Hashable {
    /// Text as it appears in the URL (ASCII, percent-encoded).
    case literal([UInt8])
    case parameter(String)
    /// A `{name*}` parameter: one or more whole path segments, `/` included.
    case segments(String)
  }

  /// One `name=value` item of the query part: the name is literal, the value may hold
  /// parameters.
  struct QueryItem: Sendable, Hashable {
    let name: [UInt8]
    let value: [Part]
  }

  /// The path part, before any `?`.
  let pathParts: [Part]
  /// The query part as written (`nil` without a `?`), for interpolation.
  let queryParts: [Part]?
  /// The query part split into items, for matching.
  let queryItems: [QueryItem]
  /// The pattern as written.
  public let description: String

  /// Parses `pattern`.
  ///
  /// - Parameter pattern: The pattern (see ``PathPattern`` for the syntax).
  /// - Throws: ``RouterError`` with ``RouterError/Kind/invalidPattern(_:position:reason:)``
  ///   naming the first problem and where it is.
  public init(_ pattern: String) throws(RouterError) {
    description = pattern
    let scalars = Array(pattern.unicodeScalars)
    let questionMark = Self.firstUnescaped("?", in: scalars, from: 0)
    let pathEnd = questionMark ?? scalars.count
    pathParts = try Self.parse(scalars, pattern, 0..<pathEnd, inQuery: false)
    var seen: Set<String> = []
    var parameters = pathParts.compactMap(\.parameterName)
    if let questionMark {
      let range = (questionMark + 1)..<scalars.count
      queryParts = try Self.parse(scalars, pattern, range, inQuery: true)
      var items: [QueryItem] = []
      var start = range.lowerBound
      while start <= range.upperBound {
        let end = Self.firstUnescaped("&", in: scalars, from: start) ?? range.upperBound
        if end > start {
          let equals = Self.firstUnescaped("=", in: scalars, from: start).flatMap {
            $0 < end ? $0 : nil
          }
          let nameParts = try Self.parse(scalars, pattern, start..<(equals ?? end), inQuery: true)
          guard nameParts.allSatisfy({ $0.parameterName == nil }) else {
            throw RouterError(
              .invalidPattern(
                pattern, position: start + 1,
                reason: "a parameter cannot be the name of a query item"))
          }
          var valueParts: [Part] = []
          if let equals {
            valueParts = try Self.parse(scalars, pattern, (equals + 1)..<end, inQuery: true)
          }
          items.append(
            QueryItem(name: nameParts.flatMap(\.literalBytes), value: valueParts))
        }
        start = end + 1
      }
      queryItems = items
      parameters += (queryParts ?? []).compactMap(\.parameterName)
    } else {
      queryParts = nil
      queryItems = []
    }
    for name in parameters where !seen.insert(name).inserted {
      throw RouterError(
        .invalidPattern(
          pattern, position: nil, reason: "the parameter '\(name)' appears more than once"))
    }
  }

  /// The names of the parameters, in order.
  public var parameterNames: [String] {
    (pathParts + (queryParts ?? [])).compactMap(\.parameterName)
  }

  /// Whether the pattern ends with a `/` (before any query).
  var endsWithSlash: Bool {
    if case .literal(let bytes)? = pathParts.last { return bytes.last == UInt8(ascii: "/") }
    return false
  }

  // MARK: Interpolation

  /// The path with every parameter replaced by its value from `values`.
  ///
  /// With escaping (the default), a value in the path is percent-encoded so that it stays one
  /// segment: every byte but ASCII letters, digits and `-._~` is encoded (`a/b c` →
  /// `a%2Fb%20c`), and a value that is `.` or `..` becomes `%2E` or `%2E%2E` (which the object
  /// manager refuses to send: servers may read it as a dot segment, as they may `..%2Fadmin`,
  /// a value `../admin`, which is refused too). A value in the query is
  /// encoded the same way, so `&`, `=`,
  /// `+`, `#` and `%` cannot add a query item (`1&admin=true` → `1%26admin%3Dtrue`).
  ///
  /// - Parameters:
  ///   - values: The value of each parameter; `nil`, absent or empty is an error, never the
  ///     text `nil`, `(null)` or a vanished segment.
  ///   - escaping: Whether values are percent-encoded (the default); `false` inserts values
  ///     that are already encoded paths as they are (the object manager still keeps the
  ///     request under its base URL).
  /// - Returns: The path, percent-encoded.
  /// - Throws: ``ObjectManagerError/missingParameter(name:route:)``, or
  ///   ``ObjectManagerError/invalidPath(_:reason:)`` for a `{name*}` value with an empty
  ///   segment.
  public func interpolate(_ values: [String: String?], escaping: Bool = true)
    throws(ObjectManagerError) -> String
  {
    var bytes: [UInt8] = []
    try append(pathParts, values, escaping: escaping, to: &bytes)
    if let queryParts {
      bytes.append(UInt8(ascii: "?"))
      try append(queryParts, values, escaping: escaping, to: &bytes)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private func append(
    _ parts: [Part], _ values: [String: String?], escaping: Bool, to bytes: inout [UInt8]
  ) throws(ObjectManagerError) {
    for part in parts {
      switch part {
      case .literal(let text):
        bytes += text
      case .parameter(let name):
        guard case .some(.some(let value)) = values[name], !value.isEmpty else {
          throw .missingParameter(name: name, route: description)
        }
        Self.appendSegment(value, escaping: escaping, to: &bytes)
      case .segments(let name):
        guard case .some(.some(let value)) = values[name], !value.isEmpty else {
          throw .missingParameter(name: name, route: description)
        }
        guard escaping else {
          bytes += value.utf8
          continue
        }
        let segments = value.split(separator: "/", omittingEmptySubsequences: false)
        guard !segments.contains(where: \.isEmpty) else {
          throw .invalidPath(
            value,
            reason: "the value of '{\(name)*}' in \(MessageText.quoted(description)) has an "
              + "empty segment (a leading, trailing or doubled '/')")
        }
        for (offset, segment) in segments.enumerated() {
          if offset > 0 { bytes.append(UInt8(ascii: "/")) }
          Self.appendSegment(String(segment), escaping: true, to: &bytes)
        }
      }
    }
  }

  /// One value, or one segment of a `{name*}` value, as the path holds it.
  private static func appendSegment(_ value: String, escaping: Bool, to bytes: inout [UInt8]) {
    if !escaping {
      bytes += value.utf8
    } else if value == "." || value == ".." {
      for _ in value.utf8 { bytes += "%2E".utf8 }
    } else {
      _appendPercentEncoded(value, keeping: .unreserved, to: &bytes)
    }
  }

  // MARK: Matching

  /// The parameters `path` gives this pattern (values percent-decoded), or `nil` when it does
  /// not match.
  ///
  /// The whole path must match; a parameter takes one or more characters up to the next
  /// literal text of the pattern or the end of its segment, never a `/`. A `{name*}`
  /// parameter takes whole segments: the rest of the path must hold as many `/` as the rest of
  /// the pattern, and within its last segment the value ends where the next literal text first
  /// begins (`/files/{path*}/raw` gives `path` = `a/raw/b` for `/files/a/raw/b/raw`). A path with a
  /// trailing `/` the pattern does not have (or the reverse) does not match (RestKit).
  /// Query items the pattern names must be present (in any order, others may follow); a path's
  /// query is ignored by a pattern without one.
  ///
  /// - Parameter path: A percent-encoded path, with or without a query.
  /// - Returns: The parameters by name.
  public func match(_ path: String) -> [String: String]? {
    match(path, allowingTrailingSlash: false)
  }

  func match(_ path: String, allowingTrailingSlash: Bool) -> [String: String]? {
    let bytes = Array(path.utf8)
    let pathEnd =
      bytes.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count
    var parts = pathParts
    var end = pathEnd
    if allowingTrailingSlash {
      if endsWithSlash, case .literal(var last)? = parts.last,
        !(parts.count == 1 && last.count == 1)
      {
        last.removeLast()
        parts[parts.count - 1] = .literal(last)
        if last.isEmpty { parts.removeLast() }
      }
      if end > 1, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
    }
    guard var values = Self.match(parts, bytes, 0..<end, separator: UInt8(ascii: "/")) else {
      return nil
    }
    guard !queryItems.isEmpty else { return values }
    guard pathEnd < bytes.count, bytes[pathEnd] == UInt8(ascii: "?") else { return nil }
    let queryEnd = bytes[pathEnd...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.count
    let items = Self.rawQueryItems(bytes, (pathEnd + 1)..<queryEnd)
    for item in queryItems {
      let name = Self.decoded(item.name[...], plusAsSpace: true)
      guard
        let found = items.first(where: {
          Self.decoded(bytes[$0.name], plusAsSpace: true) == name
        }),
        let itemValues = Self.match(item.value, bytes, found.value, separator: nil)
      else { return nil }
      values.merge(itemValues) { first, _ in first }
    }
    return values
  }

  /// Matches `parts` against `bytes[range]` whole.
  private static func match(
    _ parts: [Part], _ bytes: [UInt8], _ range: Range<Int>, separator: UInt8?
  ) -> [String: String]? {
    var values: [String: String] = [:]
    var position = range.lowerBound
    for (index, part) in parts.enumerated() {
      switch part {
      case .literal(let text):
        guard range.upperBound - position >= text.count,
          bytes[position..<(position + text.count)].elementsEqual(text)
        else { return nil }
        position += text.count
      case .parameter(let name):
        let segmentEnd =
          separator.flatMap { bytes[position..<range.upperBound].firstIndex(of: $0) }
          ?? range.upperBound
        var stop = segmentEnd
        if index + 1 < parts.count, case .literal(let next) = parts[index + 1] {
          let lead = next.prefix { $0 != separator }
          if !lead.isEmpty {
            guard let found = firstOccurrence(of: lead, in: bytes, position..<segmentEnd) else {
              return nil
            }
            stop = found
          }
        }
        guard stop > position, let value = _percentDecoded(substring(bytes, position..<stop))
        else { return nil }
        values[name] = value
        position = stop
      case .segments(let name):
        guard let separator,
          let stop = segmentsEnd(
            parts[(index + 1)...], bytes, position..<range.upperBound, separator),
          stop > position, let value = _percentDecoded(substring(bytes, position..<stop))
        else { return nil }
        values[name] = value
        position = stop
      }
    }
    return position == range.upperBound ? values : nil
  }

  /// Where a `{name*}` parameter starting at `range.lowerBound` ends, given the parts after
  /// it (which span no segments: a pattern has one such parameter at most). The rest of the
  /// path must hold as many `/` as those parts, which fixes the segment the value ends in;
  /// within it the value ends where the next literal text first begins, as a one-segment
  /// parameter does. One pass over the path, so a hostile path costs linear time.
  private static func segmentsEnd(
    _ rest: ArraySlice<Part>, _ bytes: [UInt8], _ range: Range<Int>, _ separator: UInt8
  ) -> Int? {
    let slashes = rest.reduce(0) { count, part in
      count + part.literalBytes.reduce(0) { $0 + ($1 == separator ? 1 : 0) }
    }
    // The segment the value ends in: from just after the (slashes + 1)-th `/` from the end
    // (or the value's start) to the slashes-th (or the path's end).
    var end = range.upperBound
    var seen = 0
    var cursor = range.upperBound
    while seen < slashes {
      guard let slash = bytes[range.lowerBound..<cursor].lastIndex(of: separator) else {
        return nil
      }
      seen += 1
      end = slash
      cursor = slash
    }
    let start =
      bytes[range.lowerBound..<end].lastIndex(of: separator).map { $0 + 1 }
      ?? range.lowerBound
    guard case .literal(let next)? = rest.first else { return end }
    let lead = next.prefix { $0 != separator }
    if lead.isEmpty { return end }
    return firstOccurrence(of: lead, in: bytes, start..<end)
  }

  private static func firstOccurrence(
    of needle: ArraySlice<UInt8>, in bytes: [UInt8], _ range: Range<Int>
  ) -> Int? {
    guard needle.count <= range.count else { return nil }
    var start = range.lowerBound
    while start + needle.count <= range.upperBound {
      if bytes[start..<(start + needle.count)].elementsEqual(needle) { return start }
      start += 1
    }
    return nil
  }

  /// The `name=value` items of a query, as byte ranges (not decoded).
  static func rawQueryItems(_ bytes: [UInt8], _ range: Range<Int>) -> [(
    name: Range<Int>, value: Range<Int>
  )] {
    var items: [(name: Range<Int>, value: Range<Int>)] = []
    var start = range.lowerBound
    while start < range.upperBound {
      let end =
        bytes[start..<range.upperBound].firstIndex(of: UInt8(ascii: "&")) ?? range.upperBound
      if end > start {
        let equals = bytes[start..<end].firstIndex(of: UInt8(ascii: "="))
        items.append(
          (name: start..<(equals ?? end), value: (equals.map { $0 + 1 } ?? end)..<end))
      }
      start = end + 1
    }
    return items
  }

  /// A query name or value decoded, or as it is when it is not a valid encoding.
  static func decoded(_ bytes: ArraySlice<UInt8>, plusAsSpace: Bool) -> String {
    let text = String(decoding: bytes, as: UTF8.self)
    return _percentDecoded(text[...], plusAsSpace: plusAsSpace) ?? text
  }

  private static func substring(_ bytes: [UInt8], _ range: Range<Int>) -> Substring {
    String(decoding: bytes[range], as: UTF8.self)[...]
  }

  // MARK: Parsing

  private static func firstUnescaped(
    _ character: Unicode.Scalar, in scalars: [Unicode.Scalar], from start: Int
  ) -> Int? {
    var index = start
    while index < scalars.count {
      if scalars[index] == "\\" {
        index += 2
        continue
      }
      if scalars[index] == character { return index }
      index += 1
    }
    return nil
  }

  private static func parse(
    _ scalars: [Unicode.Scalar], _ pattern: String, _ range: Range<Int>, inQuery: Bool
  ) throws(RouterError) -> [Part] {
    var parts: [Part] = []
    var literal: [UInt8] = []
    func fail(_ index: Int, _ reason: String) -> RouterError {
      RouterError(.invalidPattern(pattern, position: index + 1, reason: reason))
    }
    func addParameter(_ name: String, at index: Int, spansSegments: Bool = false)
      throws(RouterError)
    {
      if literal.isEmpty, let previous = parts.last?.parameterName {
        throw fail(
          index,
          "the parameters '\(previous)' and '\(name)' must be separated by literal text")
      }
      if spansSegments {
        if inQuery {
          throw fail(
            index, "'{\(name)*}' spans path segments; a query value cannot hold one")
        }
        if let other = parts.first(where: \.spansSegments)?.parameterName {
          throw fail(
            index,
            "'{\(other)*}' already spans segments; a pattern has one such parameter at most")
        }
      }
      if !literal.isEmpty { parts.append(.literal(literal)) }
      literal = []
      parts.append(spansSegments ? .segments(name) : .parameter(name))
    }
    var index = range.lowerBound
    while index < range.upperBound {
      let scalar = scalars[index]
      switch scalar {
      case "\\":
        guard index + 1 < range.upperBound else {
          throw fail(index, "a '\\' at the end escapes nothing")
        }
        let escaped = scalars[index + 1]
        switch escaped {
        case ".", ":", "@", "(", ")":
          literal.append(UInt8(escaped.value))
        case "{", "}", "\\":
          _appendPercentEncoded(String(escaped), keeping: .unreserved, to: &literal)
        default:
          throw fail(
            index,
            "'\\\(escaped)' is not an escape; only '\\.', '\\:', '\\@', '\\{', '\\}', '\\(', "
              + "'\\)' and '\\\\' are")
        }
        index += 2
      case ":":
        guard index + 1 < range.upperBound, isNameStart(scalars[index + 1]) else {
          throw fail(
            index, "':' starts no parameter name; write '\\:' for a literal colon")
        }
        var end = index + 1
        while end < range.upperBound, isNameCharacter(scalars[end], dots: false) { end += 1 }
        let name = String(String.UnicodeScalarView(scalars[(index + 1)..<end]))
        try addParameter(name, at: index)
        if end < range.upperBound, scalars[end] == "." || scalars[end] == "@" {
          throw fail(
            end,
            "'\(scalars[end])' right after the parameter ':\(name)' is ambiguous (RestKit read "
              + "it as part of a key path); write '\\\(scalars[end])' for a literal "
              + "'\(scalars[end])', or '{\(name)\(scalars[end])…}' for a longer name")
        }
        index = end
      case "{", "(":
        let close: Unicode.Scalar = scalar == "{" ? "}" : ")"
        var end = index + 1
        var spansSegments = false
        while end < range.upperBound, scalars[end] != close {
          if scalar == "{", scalars[end] == "*", end + 1 < range.upperBound,
            scalars[end + 1] == close
          {
            spansSegments = true
            end += 1
            continue
          }
          guard isNameCharacter(scalars[end], dots: true) else {
            throw fail(
              end,
              "'\(scalars[end])' cannot appear in the parameter name after '\(scalar)'; a name "
                + "is letters, digits, '_' and '.' (write '\\\(scalar)' for a literal "
                + "'\(scalar)')")
          }
          end += 1
        }
        guard end < range.upperBound else {
          throw fail(index, "the '\(scalar)' is never closed by '\(close)'")
        }
        let name = String(
          String.UnicodeScalarView(scalars[(index + 1)..<(spansSegments ? end - 1 : end)]))
        guard let first = name.unicodeScalars.first, isNameStart(first) else {
          throw fail(
            index,
            name.isEmpty
              ? "'\(scalar)\(close)' names no parameter"
              : "the parameter name '\(name)' must start with a letter or '_'")
        }
        try addParameter(name, at: index, spansSegments: spansSegments)
        index = end + 1
      case "}", ")":
        throw fail(
          index, "'\(scalar)' closes nothing; write '\\\(scalar)' for a literal '\(scalar)'")
      case "#":
        throw fail(index, "a route cannot hold a fragment ('#'); percent-encode it as %23")
      case "%":
        guard index + 2 < range.upperBound, let high = hexValue(scalars[index + 1]),
          let low = hexValue(scalars[index + 2])
        else {
          throw fail(index, "'%' must be followed by two hexadecimal digits; write %25 for '%'")
        }
        _ = (high, low)
        literal += [
          UInt8(ascii: "%"), UInt8(scalars[index + 1].value),
          UInt8(scalars[index + 2].value),
        ]
        index += 3
      default:
        guard scalar.isASCII,
          (inQuery ? _PercentEncodingSet.query : .path).contains(UInt8(scalar.value))
        else {
          let shown =
            scalar.value < 0x20 || scalar.value == 0x7F
            ? "U+" + String(scalar.value, radix: 16, uppercase: true) : "'\(scalar)'"
          throw fail(
            index,
            "\(shown) cannot appear in a URL \(inQuery ? "query" : "path"); percent-encode it "
              + "(\(_percentEncoded(String(scalar), keeping: .unreserved)))")
        }
        literal.append(UInt8(scalar.value))
        index += 1
      }
    }
    if !literal.isEmpty { parts.append(.literal(literal)) }
    return parts
  }

  private static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "a"..."z", "A"..."Z", "_": return true
    default: return false
    }
  }

  private static func isNameCharacter(_ scalar: Unicode.Scalar, dots: Bool) -> Bool {
    switch scalar {
    case "a"..."z", "A"..."Z", "0"..."9", "_": return true
    case ".": return dots
    default: return false
    }
  }

  private static func hexValue(_ scalar: Unicode.Scalar) -> UInt8? {
    scalar.isASCII ? _hexDigitValue(UInt8(scalar.value)) : nil
  }
}

extension PathPattern.Part {
  fileprivate var parameterName: String? {
    switch self {
    case .parameter(let name), .segments(let name): name
    case .literal: nil
    }
  }

  fileprivate var spansSegments: Bool {
    if case .segments = self { true } else { false }
  }

  fileprivate var literalBytes: [UInt8] {
    if case .literal(let bytes) = self { bytes } else { [] }
  }
}
