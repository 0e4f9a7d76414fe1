/// Writes a ``Node`` object as `application/x-www-form-urlencoded` bytes.
///
/// Layout (see ``Node/formURLEncodedString(options:)`` for the user-facing rules):
/// - top-level members are `name=value` pairs joined by `&`, in member order;
/// - nested objects extend the name with `[key]`: `user[name]=Ann`;
/// - arrays of scalars use `name[]` (or `name[0]`, ``FormEncodingOptions/ArrayEncoding``);
///   arrays holding any object or array are always indexed: `items[0][a]=x`;
/// - indexes count only the elements that wrote something, so they stay dense (`0, 1, 2…`)
///   when `null`s or empty containers are left out;
/// - names and values are percent-encoded as WHATWG's `application/x-www-form-urlencoded`
///   serializer does (space as `+`; ASCII letters, digits and `*-._` as is; every other byte of
///   the UTF-8 text as `%XX` with uppercase hex); the structural brackets are written as is.
///
/// The node is walked with an explicit stack, so any depth is safe.
package struct _FormURLEncoder {
  private var output: [UInt8] = []
  private var name: [UInt8] = []
  private let options: FormEncodingOptions

  private init(options: FormEncodingOptions) {
    self.options = options
    output.reserveCapacity(256)
    name.reserveCapacity(64)
  }

  /// Encodes `node`, which must be an object.
  ///
  /// - Throws: ``FormatError`` `.notRepresentable` when the top level is not an object or a
  ///   key would read back differently (see ``Node/formURLEncodedString(options:)``), and
  ///   `.nonFiniteNumber` for NaN or infinite doubles, with the value's path.
  package static func encode(_ node: Node, options: FormEncodingOptions) throws(FormatError)
    -> [UInt8]
  {
    guard case .object(let members) = node else {
      throw FormatError(
        .notRepresentable(
          reason: "form URL-encoded data needs an object at the top level, found "
            + node.kindDescription))
    }
    var encoder = _FormURLEncoder(options: options)
    try encoder.write(members: members)
    return encoder.output
  }

  /// One open container and where its elements' names start.
  private struct _Frame {
    var frame: _WriteFrame
    /// The length of `name` for this container (the name the container itself has).
    var nameLength: Int
    /// Whether array elements are written with explicit indexes.
    var isIndexed: Bool
    /// The index the next written array element gets.
    var nextIndex = 0
    /// `output.count` when the current array element started.
    var outputMark = 0
  }

  private mutating func write(members: [Node.Member]) throws(FormatError) {
    var stack: [_Frame] = [
      _Frame(frame: _WriteFrame(members: ordered(members)), nameLength: 0, isIndexed: false)
    ]
    try _checkRepeatedKeys(members, stack: stack)
    while let top = stack.indices.last {
      let frame = stack[top].frame
      let index = frame.index
      var value: Node
      if frame.isObject {
        guard index < frame.members.count else {
          stack.removeLast()
          continue
        }
        let key = frame.members[index].key
        stack[top].frame.index = index + 1
        let isContainer = frame.members[index].value.isContainer
        if let problem = _formKeyProblem(key, isNested: top > 0, holdsContainer: isContainer) {
          throw FormatError(
            path: _WriteFrame.path(of: stack.map(\.frame)), .notRepresentable(reason: problem))
        }
        name.removeSubrange(stack[top].nameLength...)
        if top > 0 { name.append(UInt8(ascii: "[")) }
        appendEscaped(key, to: &name)
        if top > 0 { name.append(UInt8(ascii: "]")) }
        value = frame.members[index].value
      } else {
        if index > 0 && output.count > stack[top].outputMark { stack[top].nextIndex += 1 }
        guard index < frame.elements.count else {
          stack.removeLast()
          continue
        }
        stack[top].frame.index = index + 1
        stack[top].outputMark = output.count
        name.removeSubrange(stack[top].nameLength...)
        name.append(UInt8(ascii: "["))
        if stack[top].isIndexed { _appendDecimal(stack[top].nextIndex, to: &name) }
        name.append(UInt8(ascii: "]"))
        value = frame.elements[index]
      }
      switch value {
      case .null:
        switch options.nulls {
        case .omit: break
        case .emptyValue: beginPair()
        case .bareKey:
          // An empty name has no bare form (it would read back as nothing).
          if !name.isEmpty { beginBareName() }
        }
      case .bool(let flag):
        beginPair()
        switch (options.booleans, flag) {
        case (.literal, true): output.append(contentsOf: "true".utf8)
        case (.literal, false): output.append(contentsOf: "false".utf8)
        case (.numeric, true): output.append(UInt8(ascii: "1"))
        case (.numeric, false): output.append(UInt8(ascii: "0"))
        }
      case .integer(let number):
        beginPair()
        if number < 0 { output.append(UInt8(ascii: "-")) }
        _appendDecimal(number.magnitude, to: &output)
      case .double(let number):
        guard number.isFinite else {
          throw FormatError(
            path: _WriteFrame.path(of: stack.map(\.frame)),
            .nonFiniteNumber(value: number.description))
        }
        beginPair()
        var text: [UInt8] = []
        _appendShortestText(of: number, to: &text)
        appendEscaped(text, to: &output)
      case .decimal(let number):
        beginPair()
        appendEscaped(number.text, to: &output)
      case .string(let text):
        beginPair()
        appendEscaped(text, to: &output)
      case .array(let elements):
        guard !elements.isEmpty else { break }
        let isIndexed: Bool
        switch options.arrays {
        case .brackets: isIndexed = elements.contains { $0.isContainer }
        case .indexed: isIndexed = true
        case .bracketsAtEveryLevel: isIndexed = false
        }
        stack.append(
          _Frame(
            frame: _WriteFrame(elements: elements), nameLength: name.count, isIndexed: isIndexed))
      case .object(let members):
        guard !members.isEmpty else { break }
        stack.append(
          _Frame(
            frame: _WriteFrame(members: ordered(members)), nameLength: name.count,
            isIndexed: false))
        try _checkRepeatedKeys(members, stack: stack)
      }
    }
  }

  /// An object's members in the order they are written: sorted by name (a stable sort) with
  /// ``FormEncodingOptions/sortsKeys``, else as they are.
  private func ordered(_ members: [Node.Member]) -> [Node.Member] {
    options.sortsKeys ? members.sorted { $0.key < $1.key } : members
  }

  /// Throws when an object names a key twice: `id=1&id=2` reads back as an array, so a repeated
  /// key cannot be written (a `Node` keeps every member of `{"id":1,"id":2}`).
  private func _checkRepeatedKeys(_ members: [Node.Member], stack: [_Frame]) throws(FormatError) {
    guard members.count > 1 else { return }
    var seen = Set<String>(minimumCapacity: members.count)
    for member in members where !seen.insert(member.key).inserted {
      throw FormatError(
        path: _WriteFrame.path(of: stack.dropLast().map(\.frame)),
        .notRepresentable(
          reason: "the key \"\(member.key)\" appears twice in one object, which form "
            + "URL-encoded data reads back as an array"))
    }
  }

  /// Writes `&` (when needed), the current name and `=`; the value follows.
  private mutating func beginPair() {
    beginBareName()
    output.append(UInt8(ascii: "="))
  }

  /// Writes `&` (when needed) and the current name.
  private mutating func beginBareName() {
    if !output.isEmpty { output.append(UInt8(ascii: "&")) }
    output.append(contentsOf: name)
  }

  /// Appends `text` percent-encoded as the options' ``FormEncodingOptions/Escaping`` says.
  private func appendEscaped(_ text: String, to bytes: inout [UInt8]) {
    switch options.escaping {
    case .whatwg: _appendPercentEncoded(text, to: &bytes)
    case .rfc3986: _appendRFC3986Encoded(text.utf8, to: &bytes)
    }
  }

  /// ``appendEscaped(_:to:)`` for UTF-8 bytes.
  private func appendEscaped(_ utf8: [UInt8], to bytes: inout [UInt8]) {
    switch options.escaping {
    case .whatwg: _appendPercentEncoded(utf8, to: &bytes)
    case .rfc3986: _appendRFC3986Encoded(utf8, to: &bytes)
    }
  }
}

/// Appends UTF-8 bytes percent-encoded as RFC 3986 allows unreserved characters (RestKit's
/// form style, ``FormEncodingOptions/Escaping/rfc3986``): ASCII letters, digits and `-._~` as
/// is, every other byte as `%XX` (uppercase hex), space as `%20`. A plain byte loop: the style
/// is an opt-in for old servers, so it does not share the fast path of the default escaping.
private func _appendRFC3986Encoded(_ utf8: some Sequence<UInt8>, to bytes: inout [UInt8]) {
  for byte in utf8 {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
      UInt8(ascii: "_"), UInt8(ascii: "~"):
      bytes.append(byte)
    default:
      bytes.append(UInt8(ascii: "%"))
      bytes.append(_upperHexDigit(byte >> 4))
      bytes.append(_upperHexDigit(byte & 0x0F))
    }
  }
}

extension Node {
  /// Whether this is an array or an object.
  fileprivate var isContainer: Bool {
    switch self {
    case .array, .object: return true
    default: return false
    }
  }
}

/// Why `key` cannot be written as a form member name, or `nil` when it can.
///
/// The reader turns brackets into nesting, `[]` into an append and `[0]` into an index, so a
/// key that contains a bracket, or a nested key that is empty or a canonical index, would read
/// back as something else. A top-level empty key holding an array or object would be written as
/// a name starting with `[`, which the reader rejects.
private func _formKeyProblem(_ key: String, isNested: Bool, holdsContainer: Bool) -> String? {
  if key.utf8.contains(where: { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") }) {
    return "the key \"\(key)\" contains a bracket, which form URL-encoded data reads as nesting"
  }
  guard isNested else {
    guard key.isEmpty && holdsContainer else { return nil }
    return "an empty top-level key cannot hold an array or object in form URL-encoded data"
  }
  if key.isEmpty {
    return "an empty key inside an object reads back as an array append in form URL-encoded data"
  }
  if _formIndex(key.utf8) != nil {
    return "the key \"\(key)\" reads back as an array index in form URL-encoded data"
  }
  return nil
}

/// The array index a bracket segment denotes: canonical decimal digits (`0`, `12`, not `01`),
/// or `nil`. Indexes beyond `Int.max` return `Int.max`.
package func _formIndex<Bytes: Collection<UInt8>>(_ segment: Bytes) -> Int? {
  guard let first = segment.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9"),
    first != UInt8(ascii: "0") || segment.count == 1
  else { return nil }
  var value = 0
  for byte in segment {
    guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
    let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
    let (sum, overflow2) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
    value = overflow1 || overflow2 ? Int.max : sum
  }
  return value
}

/// Appends the decimal digits of a non-negative integer.
private func _appendDecimal<Integer: BinaryInteger>(_ value: Integer, to bytes: inout [UInt8]) {
  bytes.append(contentsOf: String(value).utf8)
}

@inline(__always)
package func _isFormUnreserved(_ byte: UInt8) -> Bool {
  switch byte {
  case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "*"), UInt8(ascii: "-"),
    UInt8(ascii: "."), UInt8(ascii: "_"):
    return true
  default:
    return false
  }
}

@inline(__always)
package func _upperHexDigit(_ nibble: UInt8) -> UInt8 {
  nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
}
