/// Reads `application/x-www-form-urlencoded` bytes into a ``Node`` object.
///
/// The input is split on `&` (empty pieces are skipped), each piece on its first `=` (a piece
/// without `=` has the empty value), `+` becomes a space and `%XX` a byte, and the decoded
/// bytes must be UTF-8. Names are then read as `base[segment][segment]…`: `[key]` nests an
/// object, `[]` appends to an array, `[0]`, `[1]`… index an array (canonical decimal, counting
/// up from 0). Every value is a ``Node/string(_:)``. See ``Node/init(formURLEncoded:)-(String)``
/// for the complete rules.
package struct _FormURLDecoder {
  /// Deeper bracket nesting than this is an error.
  package static let maximumDepth = 512

  private let input: [UInt8]
  private let root = FormContainer(isArray: false)
  private var scratch: [UInt8] = []

  private init(input: [UInt8]) {
    self.input = input
  }

  /// Decodes form bytes into an object node.
  ///
  /// - Throws: ``FormatError`` `.syntax` for malformed percent-encoding, malformed brackets
  ///   and conflicting or sparse names; `.invalidUTF8` when decoded bytes are not UTF-8;
  ///   `.depthLimitExceeded` beyond ``maximumDepth`` levels of brackets.
  package static func decode(_ input: [UInt8]) throws(FormatError) -> Node {
    var decoder = _FormURLDecoder(input: input)
    try decoder.run()
    return decoder.root.node
  }

  private mutating func run() throws(FormatError) {
    var start = 0
    while start <= input.count {
      var end = start
      while end < input.count && input[end] != UInt8(ascii: "&") { end += 1 }
      if end > start { try pair(start..<end) }
      start = end + 1
    }
  }

  /// Reads one `name=value` piece.
  private mutating func pair(_ range: Range<Int>) throws(FormatError) {
    var equals = range.lowerBound
    while equals < range.upperBound && input[equals] != UInt8(ascii: "=") { equals += 1 }
    let nameRange = range.lowerBound..<equals
    let valueRange = min(equals + 1, range.upperBound)..<range.upperBound
    let name = try decodeComponent(nameRange)
    let value = String(decoding: try decodeComponent(valueRange), as: UTF8.self)
    let segments = try parseName(name, range: nameRange)
    try insert(value, at: segments, name: name, pairStart: range.lowerBound)
  }

  // MARK: Percent-decoding

  /// The decoded, UTF-8-validated bytes of a name or value.
  private mutating func decodeComponent(_ range: Range<Int>) throws(FormatError) -> [UInt8] {
    scratch.removeAll(keepingCapacity: true)
    var index = range.lowerBound
    while index < range.upperBound {
      let byte = input[index]
      if byte == UInt8(ascii: "+") {
        scratch.append(UInt8(ascii: " "))
        index += 1
      } else if byte == UInt8(ascii: "%") {
        guard index + 3 <= range.upperBound, let high = _hexValue(input[index + 1]),
          let low = _hexValue(input[index + 2])
        else {
          let found = input[(index + 1)..<min(index + 3, range.upperBound)]
          let foundText =
            found.isEmpty ? "nothing" : "\"\(String(decoding: found, as: UTF8.self))\""
          throw FormatError(
            .syntax(
              message: "expected two hexadecimal digits after '%', found \(foundText)",
              location: location(of: index)))
        }
        scratch.append(high << 4 | low)
        index += 3
      } else {
        scratch.append(byte)
        index += 1
      }
    }
    if let bad = _firstInvalidUTF8(scratch) {
      throw FormatError(.invalidUTF8(location: location(of: rawOffset(of: bad, in: range))))
    }
    return scratch
  }

  /// The input offset of the byte that produced decoded byte `decodedIndex` of `range`.
  private func rawOffset(of decodedIndex: Int, in range: Range<Int>) -> Int {
    var index = range.lowerBound
    var decoded = 0
    while index < range.upperBound && decoded < decodedIndex {
      index += input[index] == UInt8(ascii: "%") ? 3 : 1
      decoded += 1
    }
    return index
  }

  /// The location of input byte `offset`: forms are one line; columns count scalars.
  private func location(of offset: Int) -> TextLocation {
    var column = 1
    for byte in input[0..<offset] where byte & 0xC0 != 0x80 { column += 1 }
    return TextLocation(offset: offset, line: 1, column: column)
  }

  // MARK: Names

  /// Splits a decoded name into its base and bracket segments.
  private func parseName(_ name: [UInt8], range: Range<Int>) throws(FormatError) -> [FormSegment] {
    let text = String(decoding: name, as: UTF8.self)
    func malformed(_ detail: String, at decodedIndex: Int) -> FormatError {
      FormatError(
        .syntax(
          message: "malformed key \"\(text)\": \(detail)",
          location: location(of: rawOffset(of: decodedIndex, in: range))))
    }
    guard let open = name.firstIndex(where: { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") })
    else { return [.key(text)] }
    guard name[open] == UInt8(ascii: "[") else {
      throw malformed("unexpected ']'", at: open)
    }
    guard open > 0 else { throw malformed("expected a name before '['", at: open) }
    var segments: [FormSegment] = [.key(String(decoding: name[0..<open], as: UTF8.self))]
    var index = open
    while index < name.count {
      guard name[index] == UInt8(ascii: "[") else {
        throw malformed("expected '[' or the end of the key after ']'", at: index)
      }
      var close = index + 1
      while close < name.count && name[close] != UInt8(ascii: "]") {
        guard name[close] != UInt8(ascii: "[") else { throw malformed("unexpected '['", at: close) }
        close += 1
      }
      guard close < name.count else { throw malformed("expected ']'", at: name.count) }
      let segment = name[(index + 1)..<close]
      if segment.isEmpty {
        segments.append(.append)
      } else if let position = _formIndex(segment) {
        segments.append(.index(position))
      } else {
        segments.append(.key(String(decoding: segment, as: UTF8.self)))
      }
      if segments.count > _FormURLDecoder.maximumDepth + 1 {
        throw FormatError(
          .depthLimitExceeded(
            limit: _FormURLDecoder.maximumDepth,
            location: location(of: rawOffset(of: index, in: range))))
      }
      index = close + 1
    }
    return segments
  }

  // MARK: Building

  /// Stores `value` at the place `segments` names.
  private func insert(
    _ value: String, at segments: [FormSegment], name: [UInt8], pairStart: Int
  ) throws(FormatError) {
    var container = root
    for (position, segment) in segments.enumerated() {
      // What the next segment needs here: an array, an object, or (last) the value itself.
      var needsArray: Bool?
      if position + 1 < segments.count {
        if case .key = segments[position + 1] { needsArray = false } else { needsArray = true }
      }
      func conflict(_ message: String) -> FormatError {
        FormatError(
          .syntax(
            message: "key \"\(String(decoding: name, as: UTF8.self))\" \(message)",
            location: location(of: pairStart)))
      }
      func mismatch(_ existing: FormValue) -> FormatError {
        let place = "\"\(_describe(segments[0...position]))\""
        guard let needsArray else {
          return conflict("gives \(place) a value, but it already holds \(existing.kindName)")
        }
        return conflict(
          "needs \(place) to be \(needsArray ? "an array" : "an object"), but it already holds "
            + existing.kindName)
      }
      switch segment {
      case .append:
        container = container.add(value, needsArray: needsArray)
      case .index(let index):
        let count = container.values.count
        if index == count {
          container = container.add(value, needsArray: needsArray)
        } else if index > count {
          throw conflict(
            "skips an index: \"\(_describe(segments[0..<position]))\" has \(count) "
              + "element\(count == 1 ? "" : "s"), so the next index is \(count)")
        } else if let needsArray {
          guard case .container(let existing) = container.values[index],
            existing.isArray == needsArray
          else { throw mismatch(container.values[index]) }
          container = existing
        } else {
          throw conflict("sets \"\(_describe(segments[0...position]))\" a second time")
        }
      case .key(let key):
        guard let slot = container.lookup[key] else {
          container.lookup[key] = container.values.count
          container.keys.append(key)
          container = container.add(value, needsArray: needsArray)
          continue
        }
        let existing = container.values[slot]
        switch (existing, needsArray) {
        case (.string(let old), nil):
          // A repeated plain key collects its values into an array.
          let array = FormContainer(isArray: true)
          array.values = [.string(old), .string(value)]
          container.values[slot] = .container(array)
        case (.container(let array), nil) where array.isArray:
          array.values.append(.string(value))
        case (.string(let old), true?):
          // `a=1&a[]=2`: the plain value becomes the array's first element.
          let array = FormContainer(isArray: true)
          array.values = [.string(old)]
          container.values[slot] = .container(array)
          container = array
        case (.container(let child), let needsArray?) where child.isArray == needsArray:
          container = child
        default:
          throw mismatch(existing)
        }
      }
    }
  }
}

/// One step of a form name: the base and each bracket segment.
private enum FormSegment {
  /// The base name or `[key]`.
  case key(String)
  /// `[0]`, `[1]`, …
  case index(Int)
  /// `[]`.
  case append
}

/// `a[b][0][]`: the name of the place a run of segments leads to.
private func _describe(_ segments: ArraySlice<FormSegment>) -> String {
  var text = ""
  for (offset, segment) in segments.enumerated() {
    switch segment {
    case .key(let key): text += offset == 0 ? key : "[\(key)]"
    case .index(let index): text += "[\(index)]"
    case .append: text += "[]"
    }
  }
  return text
}

/// A container being filled by the decoder (reference type, so nested inserts are in place).
private final class FormContainer {
  let isArray: Bool
  /// Object keys in first-seen order (parallel to `values` for objects).
  var keys: [String] = []
  /// Object member values or array elements.
  var values: [FormValue] = []
  /// Object key → position in `values`.
  var lookup: [String: Int] = [:]

  init(isArray: Bool) {
    self.isArray = isArray
  }

  var kindName: String { isArray ? "an array" : "an object" }

  /// Appends `value` (when `needsArray` is `nil`) or a new container of the needed kind, and
  /// returns the container to continue in (`self` after appending a value).
  func add(_ value: String, needsArray: Bool?) -> FormContainer {
    guard let needsArray else {
      values.append(.string(value))
      return self
    }
    let child = FormContainer(isArray: needsArray)
    values.append(.container(child))
    return child
  }

  /// The finished node. Recursion is bounded by the decoder's depth limit.
  var node: Node {
    if isArray { return .array(values.map(\.node)) }
    return .object(zip(keys, values).map { Node.Member($0, $1.node) })
  }
}

private enum FormValue {
  case string(String)
  case container(FormContainer)

  var kindName: String {
    switch self {
    case .string: return "a value"
    case .container(let container): return container.kindName
    }
  }

  var node: Node {
    switch self {
    case .string(let text): return .string(text)
    case .container(let container): return container.node
    }
  }
}

@inline(__always)
private func _hexValue(_ byte: UInt8) -> UInt8? {
  switch byte {
  case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
  case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
  case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
  default: return nil
  }
}

/// The index of the first byte that does not start a valid UTF-8 sequence (overlong forms,
/// surrogates and values beyond U+10FFFF are invalid), or `nil` when all of `bytes` is valid.
private func _firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
  var index = 0
  while index < bytes.count {
    let lead = bytes[index]
    if lead < 0x80 {
      index += 1
      continue
    }
    let length: Int
    var lower: UInt8 = 0x80
    var upper: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      lower = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      upper = 0x9F
    case 0xF0:
      length = 4
      lower = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      upper = 0x8F
    default: return index
    }
    guard index + length <= bytes.count, bytes[index + 1] >= lower, bytes[index + 1] <= upper
    else { return index }
    for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { return index }
    index += length
  }
  return nil
}
