/// How text taken from a payload (or from user code) is rendered in error messages, diagnostics
/// and trace events, so that one error stays one readable line whatever the payload holds.
///
/// - Characters that move the cursor, change a terminal or reorder text are escaped as
///   `\n`, `\t`, `\r` or `\u001B`: the C0 controls, DEL, the C1 controls, U+2028 and U+2029
///   (line and paragraph separators), and the bidirectional marks and overrides
///   (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069).
/// - A text longer than its limit keeps both ends and says how many bytes of the original were
///   left out: `aaaa…(999,900 more bytes)…zzzz`.
///
/// Rendering is idempotent: a rendered text renders to itself, so a message that already holds
/// a rendered value (a `found` description) is not cut twice.
package enum MessageText {
  /// Values and keys echoed from the payload: shown whole up to 160 bytes (after escaping),
  /// else 50 bytes from each end.
  package static let valueLimit = 160
  /// Free text (reasons, validator messages, syntax messages): shown whole up to 1,000 bytes,
  /// else 450 bytes from each end.
  package static let messageLimit = 1_000

  /// A value or key as it appears unquoted in a message (a path segment, a number as written).
  package static func value(_ text: String) -> String {
    render(text, limit: valueLimit, kept: 50, quoting: false)
  }

  /// A value in double quotes, with `"` and `\` escaped as well: `"12abc"`.
  package static func quoted(_ text: String) -> String {
    // The quotes count towards the limit, so a quoted value is never cut again as a value.
    "\"" + render(text, limit: valueLimit - 2, kept: 50, quoting: true) + "\""
  }

  /// Free text: a reason, a validator's message, a message from a server.
  package static func message(_ text: String) -> String {
    render(text, limit: messageLimit, kept: 450, quoting: false)
  }

  /// A JSON Pointer with each segment rendered as a ``value(_:)``: the pointer stays exact in
  /// the error's `path`; only its text is escaped and shortened.
  package static func pointer(_ path: String) -> String {
    guard path.utf8.contains(where: { $0 >= 0x7F || $0 < 0x20 }) || path.utf8.count > valueLimit
    else { return path }
    var result = ""
    var first = true
    for segment in path.split(separator: "/", omittingEmptySubsequences: false) {
      if !first { result += "/" }
      first = false
      result += value(String(segment))
    }
    return result
  }

  /// The line that counts what a run left out past its `MappingOptions.errorLimit`, or `nil` when
  /// nothing was: `… and 999,000 more errors (beyond the error limit of a run; see
  /// MappingOptions.errorLimit)`.
  package static func omittedLine(_ count: Int, of noun: String) -> String? {
    guard count > 0 else { return nil }
    return "… and \(grouped(count)) more \(noun)\(count == 1 ? "" : "s") (beyond the error limit "
      + "of a run; see MappingOptions.errorLimit)"
  }

  /// `count` with thousands separators: `999,900`.
  package static func grouped(_ count: Int) -> String {
    let digits = Array(String(count.magnitude))
    var result = count < 0 ? "-" : ""
    for (offset, digit) in digits.enumerated() {
      if offset > 0, (digits.count - offset) % 3 == 0 { result += "," }
      result.append(digit)
    }
    return result
  }

  /// `text` escaped, and shortened to `kept` bytes at each end when its escaped form is longer
  /// than `limit` bytes.
  private static func render(_ text: String, limit: Int, kept: Int, quoting: Bool) -> String {
    let scalars = text.unicodeScalars
    var escapedLength = 0
    var needsEscaping = false
    for scalar in scalars {
      let length = escapedUTF8Length(of: scalar, quoting: quoting)
      if length != scalar.utf8.count { needsEscaping = true }
      escapedLength += length
    }
    guard escapedLength > limit else {
      return needsEscaping ? escape(scalars[...], quoting: quoting) : text
    }
    var headEnd = scalars.startIndex
    var used = 0
    while headEnd < scalars.endIndex {
      let length = escapedUTF8Length(of: scalars[headEnd], quoting: quoting)
      if used + length > kept { break }
      used += length
      headEnd = scalars.index(after: headEnd)
    }
    var tailStart = scalars.endIndex
    used = 0
    while tailStart > headEnd {
      let before = scalars.index(before: tailStart)
      let length = escapedUTF8Length(of: scalars[before], quoting: quoting)
      if used + length > kept { break }
      used += length
      tailStart = before
    }
    let omitted = text.utf8.distance(from: headEnd, to: tailStart)
    return escape(scalars[..<headEnd], quoting: quoting) + "…(\(grouped(omitted)) more bytes)…"
      + escape(scalars[tailStart...], quoting: quoting)
  }

  private static func escape(_ scalars: Substring.UnicodeScalarView, quoting: Bool) -> String {
    var result = ""
    for scalar in scalars {
      switch scalar {
      case "\n": result += "\\n"
      case "\t": result += "\\t"
      case "\r": result += "\\r"
      case "\"" where quoting: result += "\\\""
      case "\\" where quoting: result += "\\\\"
      default:
        if isUnsafe(scalar) {
          let hex = String(scalar.value, radix: 16, uppercase: true)
          result += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result
  }

  /// The bytes `scalar` takes once escaped.
  private static func escapedUTF8Length(of scalar: Unicode.Scalar, quoting: Bool) -> Int {
    switch scalar {
    case "\n", "\t", "\r": return 2
    case "\"", "\\": return quoting ? 2 : 1
    default: return isUnsafe(scalar) ? 6 : scalar.utf8.count
    }
  }

  /// Whether `scalar` can change a terminal, end a line or reorder the text around it.
  private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0..<0x20, 0x7F...0x9F: return true
    case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
    default: return false
    }
  }
}
