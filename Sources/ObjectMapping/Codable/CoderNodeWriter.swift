import Foundation

/// Writes a ``Node`` as ``FastJSONEncoder`` writes values: doubles as `JSONEncoder` writes them
/// (`100`, not `100.0`), a decimal's exact text, keys sorted by their UTF-8 bytes when asked,
/// and `JSONEncoder`'s errors (a non-finite double under the non-conforming float strategy,
/// more than 512 levels of nesting). Without recursion: a node as deep as the reader accepts
/// costs no stack.
struct CoderNodeWriter {
  let settings: NodeEncodingSettings
  let sortedKeys: Bool
  /// The coding path of the node being written, and the nesting depth around it.
  let path: [any CodingKey]
  let depth: Int

  /// An open container: its members (objects) or elements (arrays) and the next one.
  private struct Frame {
    var members: [Node.Member] = []
    var elements: [Node] = []
    var isObject: Bool
    var next = 0
  }

  /// Writes `node` into `writer`.
  ///
  /// - Throws: `EncodingError.invalidValue` for a non-finite double the strategy does not
  ///   name, or ``TooDeep`` past 512 levels of nesting (the caller reports it as
  ///   `JSONEncoder` does).
  func write(_ node: Node, to writer: inout _JSONWriter) throws {
    var stack: [Frame] = []
    var value = node
    while true {
      switch value {
      case .null: writer.null()
      case .bool(let flag): writer.bool(flag)
      case .integer(let number): writer.int64(number)
      case .double(let number):
        if number.isFinite {
          writer.encoderNumber(number)
        } else {
          guard case .string(let text) = try settings.nonFinite(number, path: currentPath(stack))
          else { return }
          writer.string(text)
        }
      case .decimal(let number):
        guard number.isJSONNumber else {
          let text = number.text
          throw EncodingError.invalidValue(
            text,
            EncodingError.Context(
              codingPath: currentPath(stack), debugDescription: "\(text) is not a JSON number"))
        }
        writer.numberText(number)
      case .string(let text): writer.string(text)
      case .array(let elements):
        guard depth + stack.count < StreamEncoder.maximumDepth else { throw TooDeep() }
        writer.beginArray()
        if elements.isEmpty {
          writer.endArray()
        } else {
          stack.append(Frame(elements: elements, isObject: false))
        }
      case .object(let members):
        guard depth + stack.count < StreamEncoder.maximumDepth else { throw TooDeep() }
        writer.beginObject()
        if members.isEmpty {
          writer.endObject()
        } else {
          stack.append(Frame(members: sortedKeys ? _sortedByKey(members) : members, isObject: true))
        }
      }
      // The next value: the next member or element of the innermost open container, closing
      // the containers that are done.
      while true {
        guard let top = stack.indices.last else { return }
        let next = stack[top].next
        if stack[top].isObject {
          if next < stack[top].members.count {
            stack[top].next = next + 1
            writer.key(stack[top].members[next].key)
            value = stack[top].members[next].value
            break
          }
          writer.endObject()
        } else {
          if next < stack[top].elements.count {
            stack[top].next = next + 1
            value = stack[top].elements[next]
            break
          }
          writer.endArray()
        }
        stack.removeLast()
      }
    }
  }

  /// The coding path of the value being written (built for an error).
  private func currentPath(_ stack: [Frame]) -> [any CodingKey] {
    path
      + stack.map { frame -> any CodingKey in
        frame.isObject
          ? AnyCodingKey(stringValue: frame.members[frame.next - 1].key)
          : IndexKey(frame.next - 1)
      }
  }
}

/// Thrown when a value nests deeper than `JSONEncoder` writes (512 levels).
struct TooDeep: Error {}
