extension _Tape {
  /// A tape of `node`, so mappings read a built `Node` exactly as they read scanned JSON.
  ///
  /// Strings are stored unescaped, numbers as their text. A non-finite `.double` cannot be
  /// stored and is an error at its path.
  init(node: Node) throws(MappingError) {
    var entries: [_TapeEntry] = []
    var bytes: [UInt8] = []
    var path: [_PathComponent] = []
    try _Tape.append(node, to: &entries, bytes: &bytes, path: &path)
    try self.init(unpacked: entries, bytes: bytes)
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

  private static func append(
    _ node: Node, to entries: inout [_TapeEntry], bytes: inout [UInt8],
    path: inout [_PathComponent]
  ) throws(MappingError) {
    switch node {
    case .null: entries.append(_TapeEntry(kind: .null))
    case .bool(let value): entries.append(_TapeEntry(kind: value ? .true : .false))
    case .integer(let value): entries.append(_TapeEntry(kind: .integer, payload: value))
    case .double(let value):
      guard value.isFinite else {
        throw MappingError(path: _jsonPointer(path), .nonFiniteNumber(value: "\(value)"))
      }
      if let integer = Int64(exactly: value), value != 0 || value.sign == .plus {
        entries.append(_TapeEntry(kind: .integer, payload: integer))
      } else {
        appendText(value.description, kind: .number, to: &entries, bytes: &bytes)
      }
    case .decimal(let text):
      let integral = !text.utf8.contains {
        $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e")
      }
      appendText(
        text, kind: .number, flags: integral ? _TapeEntry.numberIsIntegral : 0, to: &entries,
        bytes: &bytes)
    case .string(let text):
      appendText(text, kind: .string, to: &entries, bytes: &bytes)
    case .array(let elements):
      let start = entries.count
      entries.append(_TapeEntry(kind: .array, length: UInt32(truncatingIfNeeded: elements.count)))
      for (index, element) in elements.enumerated() {
        path.append(.index(index))
        try append(element, to: &entries, bytes: &bytes, path: &path)
        path.removeLast()
      }
      entries[start].payload = Int64(entries.count)
    case .object(let members):
      let start = entries.count
      entries.append(_TapeEntry(kind: .object, length: UInt32(truncatingIfNeeded: members.count)))
      for member in members {
        appendText(member.key, kind: .string, to: &entries, bytes: &bytes)
        path.append(.key(member.key))
        try append(member.value, to: &entries, bytes: &bytes, path: &path)
        path.removeLast()
      }
      entries[start].payload = Int64(entries.count)
    }
  }
}
