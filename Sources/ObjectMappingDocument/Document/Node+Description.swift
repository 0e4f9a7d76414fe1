extension Node: CustomStringConvertible {
  /// The node as compact JSON-like text, for logs and messages; never fails.
  ///
  /// The text is the compact JSON output of ``jsonString(options:)``, except that NaN and
  /// infinite doubles, which JSON cannot hold, print as `nan`, `inf` and `-inf`.
  ///
  /// ```swift
  /// let node: Node = ["id": 7, "ratio": .double(.nan), "tags": ["a"]]
  /// node.description  // {"id":7,"ratio":nan,"tags":["a"]}
  /// ```
  public var description: String {
    var writer = _JSONWriter()
    // The `.describe` policy writes non-finite numbers as text instead of throwing, so this
    // cannot fail.
    try? _writeJSON(to: &writer, sortedKeys: false, nonFinite: .describe)
    return writer.text
  }
}

extension Node: CustomDebugStringConvertible {
  /// The node spelled as its cases, showing what the JSON text hides: which numbers are
  /// integers, doubles or exact decimals.
  ///
  /// ```swift
  /// let node: Node = ["id": 7, "price": .decimal("12.50"), "tags": ["a"], "meta": [:]]
  /// node.debugDescription
  /// // .object(["id": .integer(7), "price": .decimal("12.50"), "tags": .array([.string("a")]),
  /// //   "meta": .object([:])])   (on one line)
  /// ```
  public var debugDescription: String {
    var output: [UInt8] = []
    var stack: [_WriteFrame] = []
    var value = self
    while true {
      switch value {
      case .null: output.append(contentsOf: ".null".utf8)
      case .bool(let flag): output.append(contentsOf: ".bool(\(flag))".utf8)
      case .integer(let number): output.append(contentsOf: ".integer(\(number))".utf8)
      case .double(let number): output.append(contentsOf: ".double(\(number))".utf8)
      case .decimal(let number):
        output.append(contentsOf: ".decimal(".utf8)
        _appendDebugQuoted(number.text, to: &output)
        output.append(UInt8(ascii: ")"))
      case .string(let text):
        output.append(contentsOf: ".string(".utf8)
        _appendDebugQuoted(text, to: &output)
        output.append(UInt8(ascii: ")"))
      case .array(let elements):
        output.append(contentsOf: ".array([".utf8)
        if elements.isEmpty {
          output.append(contentsOf: "])".utf8)
        } else {
          stack.append(_WriteFrame(elements: elements))
        }
      case .object(let members):
        output.append(contentsOf: ".object([".utf8)
        if members.isEmpty {
          output.append(contentsOf: ":])".utf8)
        } else {
          stack.append(_WriteFrame(members: members))
        }
      }
      while true {
        guard let top = stack.indices.last else {
          return String(decoding: output, as: UTF8.self)
        }
        let index = stack[top].index
        let count = stack[top].isObject ? stack[top].members.count : stack[top].elements.count
        if index < count {
          stack[top].index = index + 1
          if index > 0 { output.append(contentsOf: ", ".utf8) }
          if stack[top].isObject {
            let member = stack[top].members[index]
            _appendDebugQuoted(member.key, to: &output)
            output.append(contentsOf: ": ".utf8)
            value = member.value
          } else {
            value = stack[top].elements[index]
          }
          break
        }
        output.append(contentsOf: "])".utf8)
        stack.removeLast()
      }
    }
  }
}

/// Appends `text` quoted and escaped as in JSON.
private func _appendDebugQuoted(_ text: String, to output: inout [UInt8]) {
  output.append(UInt8(ascii: "\""))
  output.append(contentsOf: _JSONWriter.escapedUTF8(text))
  output.append(UInt8(ascii: "\""))
}
