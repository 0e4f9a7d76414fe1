import Foundation

extension Node {
  /// The node as JSON text in UTF-8 `Data`.
  ///
  /// Compact by default; see ``JSONWritingOptions`` for pretty-printing and sorted keys.
  /// Strings are minimally escaped (`/` and non-ASCII are written as is), doubles in their
  /// shortest round-trip form, ``decimal(_:)-enum.case`` numbers as their exact literal text. The writer
  /// walks the node with an explicit stack, so any nesting depth is fine.
  ///
  /// ```swift
  /// let node: Node = ["id": 7, "price": .decimal("12.50"), "path": "a/b"]
  /// let data = try node.jsonData()     // {"id":7,"price":12.50,"path":"a/b"}
  /// let back = try Node(jsonData: data)
  /// ```
  ///
  /// - Parameter options: Pretty-printing and key sorting; compact, in member order by default.
  /// - Returns: The UTF-8 bytes of the JSON text.
  /// - Throws: ``FormatError`` `.nonFiniteNumber` at the path of the first NaN or infinite
  ///   ``double(_:)``, for example `/values/2: cannot write the non-finite number nan`;
  ///   `.notRepresentable` at the path of a ``decimal(_:)-enum.case`` whose text is not a JSON number, for
  ///   example `/n: cannot serialize: .decimal("1,\"admin\":true") is not a JSON number`.
  public func jsonData(options: JSONWritingOptions = []) throws -> Data {
    var writer = _JSONWriter(pretty: options.contains(.prettyPrinted))
    try _writeJSON(to: &writer, sortedKeys: options.contains(.sortedKeys), nonFinite: .error)
    return writer.takeData()
  }

  /// The node as JSON text in UTF-8 bytes; see ``jsonData(options:)``.
  ///
  /// ```swift
  /// let node: Node = ["a": [1, 2.5]]
  /// try node.jsonBytes()  // Array(#"{"a":[1,2.5]}"#.utf8)
  /// ```
  ///
  /// - Parameter options: Pretty-printing and key sorting; compact, in member order by default.
  /// - Returns: The UTF-8 bytes of the JSON text.
  /// - Throws: ``FormatError`` `.nonFiniteNumber` at the path of the first NaN or infinite
  ///   ``double(_:)``; `.notRepresentable` at the path of a ``decimal(_:)-enum.case`` whose text is not a
  ///   JSON number.
  public func jsonBytes(options: JSONWritingOptions = []) throws -> [UInt8] {
    var writer = _JSONWriter(pretty: options.contains(.prettyPrinted))
    try _writeJSON(to: &writer, sortedKeys: options.contains(.sortedKeys), nonFinite: .error)
    return writer.takeBytes()
  }

  /// The node as a JSON string; see ``jsonData(options:)``.
  ///
  /// ```swift
  /// let node: Node = ["name": "Zoë", "tags": []]
  /// try node.jsonString()                        // {"name":"Zoë","tags":[]}
  /// try node.jsonString(options: .prettyPrinted) // "{\n  \"name\": \"Zoë\",\n  \"tags\": []\n}"
  /// ```
  ///
  /// - Parameter options: Pretty-printing and key sorting; compact, in member order by default.
  /// - Returns: The JSON text.
  /// - Throws: ``FormatError`` `.nonFiniteNumber` at the path of the first NaN or infinite
  ///   ``double(_:)``; `.notRepresentable` at the path of a ``decimal(_:)-enum.case`` whose text is not a
  ///   JSON number.
  public func jsonString(options: JSONWritingOptions = []) throws -> String {
    String(decoding: try jsonBytes(options: options), as: UTF8.self)
  }

  /// What to do with NaN and infinite doubles while writing.
  package enum _NonFinitePolicy {
    /// Throw `.nonFiniteNumber` (JSON output).
    case error
    /// Write Swift's spelling (`nan`, `inf`, `-inf`) as bare text (descriptions).
    case describe
  }

  /// Writes the node through `writer`, walking it with an explicit stack (no recursion, so any
  /// depth is safe).
  ///
  /// - Parameters:
  ///   - writer: The writer to append to.
  ///   - sortedKeys: Whether to write object members sorted by the UTF-8 bytes of their keys.
  ///   - nonFinite: What to do with NaN and infinite doubles.
  /// - Throws: ``FormatError`` `.nonFiniteNumber` with the value's path, when `nonFinite` is
  ///   `.error`; `.notRepresentable` for ``decimal(_:)-enum.case`` text that is not a JSON number, also
  ///   only when `nonFinite` is `.error` (descriptions show any text).
  package func _writeJSON(
    to writer: inout _JSONWriter, sortedKeys: Bool, nonFinite: _NonFinitePolicy
  ) throws(FormatError) {
    var stack: [_WriteFrame] = []
    var value = self
    while true {
      switch value {
      case .null: writer.null()
      case .bool(let flag): writer.bool(flag)
      case .integer(let number): writer.int64(number)
      case .double(let number):
        if number.isFinite || nonFinite == .error {
          do {
            try writer.double(number)
          } catch {
            throw FormatError(path: _WriteFrame.path(of: stack), error.kind)
          }
        } else {
          writer.numberText(number.description)
        }
      case .decimal(let number):
        guard nonFinite == .describe || number.isJSONNumber else {
          throw FormatError(
            path: _WriteFrame.path(of: stack),
            .notRepresentable(reason: "\(_decimalForMessage(number.text)) is not a JSON number"))
        }
        writer.numberText(number)
      case .string(let text): writer.string(text)
      case .array(let elements):
        writer.beginArray()
        if elements.isEmpty {
          writer.endArray()
        } else {
          stack.append(_WriteFrame(elements: elements))
        }
      case .object(let members):
        writer.beginObject()
        if members.isEmpty {
          writer.endObject()
        } else {
          stack.append(_WriteFrame(members: sortedKeys ? _sortedByKey(members) : members))
        }
      }
      // Find the next value: the next element or member of the innermost open container,
      // closing the containers that are done.
      while true {
        guard let top = stack.indices.last else { return }
        let index = stack[top].index
        if stack[top].isObject {
          if index < stack[top].members.count {
            stack[top].index = index + 1
            let member = stack[top].members[index]
            writer.key(member.key)
            value = member.value
            break
          }
          writer.endObject()
        } else {
          if index < stack[top].elements.count {
            stack[top].index = index + 1
            value = stack[top].elements[index]
            break
          }
          writer.endArray()
        }
        stack.removeLast()
      }
    }
  }
}

/// One open container while a node is written or walked.
package struct _WriteFrame {
  /// The array's elements (empty for an object).
  package var elements: [Node]
  /// The object's members (empty for an array).
  package var members: [Node.Member]
  /// The position of the next element or member to visit.
  package var index = 0
  /// Whether this is an object.
  package var isObject: Bool

  package init(elements: [Node]) {
    self.elements = elements
    self.members = []
    self.isObject = false
  }

  package init(members: [Node.Member]) {
    self.elements = []
    self.members = members
    self.isObject = true
  }

  /// The JSON Pointer of the value visited last in each frame: the path of the current value.
  package static func path(of stack: [_WriteFrame]) -> String {
    var path = ""
    for frame in stack {
      path.append("/")
      if frame.isObject {
        path.append(_escapePointerToken(frame.members[frame.index - 1].key))
      } else {
        path.append(String(frame.index - 1))
      }
    }
    return path
  }
}

/// Escapes a JSON Pointer reference token (RFC 6901): `~` as `~0`, `/` as `~1`.
package func _escapePointerToken(_ token: String) -> String {
  guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else {
    return token
  }
  return token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
}

/// The members sorted by the UTF-8 bytes of their keys, stable for equal keys.
package func _sortedByKey(_ members: [Node.Member]) -> [Node.Member] {
  var isSorted = true
  for index in members.indices.dropFirst()
  where _compareUTF8(members[index - 1].key, members[index].key) > 0 {
    isSorted = false
    break
  }
  if isSorted { return members }
  return members.enumerated()
    .sorted { lhs, rhs in
      let order = _compareUTF8(lhs.element.key, rhs.element.key)
      return order == 0 ? lhs.offset < rhs.offset : order < 0
    }
    .map(\.element)
}

/// Compares two strings by their UTF-8 bytes: negative, zero or positive.
package func _compareUTF8(_ lhs: String, _ rhs: String) -> Int {
  var left = lhs.utf8.makeIterator()
  var right = rhs.utf8.makeIterator()
  while true {
    switch (left.next(), right.next()) {
    case (nil, nil): return 0
    case (nil, _): return -1
    case (_, nil): return 1
    case (let a?, let b?): if a != b { return a < b ? -1 : 1 }
    }
  }
}
