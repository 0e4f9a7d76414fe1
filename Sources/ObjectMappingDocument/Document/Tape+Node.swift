extension _Tape {
  /// A tape of `node`, so mappings read a built `Node` exactly as they read scanned JSON.
  ///
  /// Strings are stored unescaped, numbers as their text. A non-finite `.double` cannot be
  /// stored and is an error at its path, and so is a `.decimal` whose text is not a JSON number
  /// (`.decimal("1e")`, `.decimal("nan")`): the tape's number text must be valid for the
  /// number parser and the writers. The node is walked with an explicit stack, so its depth
  /// costs no call stack; a node nested deeper than `maximumDepth` (the JSON reader's default,
  /// 512) is an error at the path of the first container too deep, as from the JSON reader, so
  /// that mapping a hand-built `Node` never recurses deeper than mapping JSON text does.
  package init(node: Node, maximumDepth: Int = JSONReadingOptions.strict.maximumDepth)
    throws(FormatError)
  {
    let (entries, bytes) = try _Tape.build(node, maximumDepth: maximumDepth)
    try self.init(unpacked: entries, bytes: bytes)
  }

  /// One open container while a node is copied onto a tape.
  private struct BuildFrame {
    var frame: _WriteFrame
    /// The index of the container's entry, whose payload is set when it closes.
    let start: Int
  }

  private static func build(_ node: Node, maximumDepth: Int) throws(FormatError) -> (
    [_TapeEntry], [UInt8]
  ) {
    var entries: [_TapeEntry] = []
    var bytes: [UInt8] = []
    var stack: [BuildFrame] = []
    // Appends a container's entry; an empty one is closed at once, any other stays open on the
    // stack until its last element or member is copied.
    func open(_ kind: _TapeKind, count: Int, frame: @autoclosure () -> _WriteFrame) {
      let start = entries.count
      entries.append(_TapeEntry(kind: kind, length: UInt32(truncatingIfNeeded: count)))
      if count == 0 {
        entries[start].payload = Int64(entries.count)
      } else {
        stack.append(BuildFrame(frame: frame(), start: start))
      }
    }
    var value = node
    while true {
      switch value {
      case .null: entries.append(_TapeEntry(kind: .null))
      case .bool(let flag): entries.append(_TapeEntry(kind: flag ? .true : .false))
      case .integer(let number): entries.append(_TapeEntry(kind: .integer, payload: number))
      case .double(let number):
        guard number.isFinite else {
          throw FormatError(
            path: _WriteFrame.path(of: stack.map(\.frame)),
            .nonFiniteNumber(value: "\(number)"))
        }
        // Below 2^53 an integral double is the integer it reads as from its JSON text; beyond,
        // its text is the shortest that reads back (`2.209765712504466e+17`), which names
        // another integer: the tape keeps that text, so a node maps as its JSON text does.
        if number.magnitude < 0x1p53, let integer = Int64(exactly: number),
          number != 0 || number.sign == .plus
        {
          entries.append(_TapeEntry(kind: .integer, payload: integer))
        } else {
          appendText(number.description, kind: .number, to: &entries, bytes: &bytes)
        }
      case .decimal(let number):
        guard number.isJSONNumber else {
          throw FormatError(
            path: _WriteFrame.path(of: stack.map(\.frame)),
            .invalidNumber(text: number.text))
        }
        let offset = bytes.count
        number.appendText(to: &bytes)
        entries.append(
          _TapeEntry(
            kind: .number, flags: number.isIntegral ? _TapeEntry.numberIsIntegral : 0,
            length: UInt32(truncatingIfNeeded: bytes.count - offset), payload: Int64(offset)))
      case .string(let text):
        appendText(text, kind: .string, to: &entries, bytes: &bytes)
      case .array where stack.count >= maximumDepth, .object where stack.count >= maximumDepth:
        throw FormatError(
          path: _WriteFrame.path(of: stack.map(\.frame)),
          .depthLimitExceeded(
            limit: maximumDepth, location: TextLocation(offset: 0, line: 0, column: 0)))
      case .array(let elements):
        open(.array, count: elements.count, frame: _WriteFrame(elements: elements))
      case .object(let members):
        open(.object, count: members.count, frame: _WriteFrame(members: members))
      }
      // The next value: the next element or member of the innermost open container, closing
      // the containers that are done.
      while true {
        guard let top = stack.indices.last else { return (entries, bytes) }
        let index = stack[top].frame.index
        if stack[top].frame.isObject {
          if index < stack[top].frame.members.count {
            stack[top].frame.index = index + 1
            let member = stack[top].frame.members[index]
            appendText(member.key, kind: .string, to: &entries, bytes: &bytes)
            value = member.value
            break
          }
        } else if index < stack[top].frame.elements.count {
          stack[top].frame.index = index + 1
          value = stack[top].frame.elements[index]
          break
        }
        entries[stack[top].start].payload = Int64(entries.count)
        stack.removeLast()
      }
    }
  }

  private static func appendText(
    _ text: String, kind: _TapeKind, flags: UInt8 = 0, to entries: inout [_TapeEntry],
    bytes: inout [UInt8]
  ) {
    let offset = bytes.count
    bytes.append(contentsOf: text.utf8)
    entries.append(
      _TapeEntry(
        kind: kind, flags: flags, length: UInt32(truncatingIfNeeded: bytes.count - offset),
        payload: Int64(offset)))
  }
}
