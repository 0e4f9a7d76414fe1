import ObjectMappingDocument

/// Reads XML property lists (CSMapper's per-class `.plist` files) into definition values,
/// keeping where every key and value was written.
///
/// Supported: `<dict>`, `<array>`, `<key>`, `<string>`, `<integer>`, `<real>`, `<true/>`,
/// `<false/>`, `<date>` and `<data>` (both read as strings), the XML declaration, a DOCTYPE,
/// comments, CDATA and the five predefined entities plus numeric character references.
/// Binary property lists are not read (convert them with `plutil -convert xml1`).
///
/// One leniency, for the files in CSMapper's own documentation: a `<plist>` whose children are
/// `<key>`/value pairs, without the `<dict>` around them, is read as that dictionary.
struct PropertyListReader {
  /// An XML element: its name, where its start tag begins, its child elements and its text.
  private struct Element {
    var name: String
    var location: DefinitionLocation
    var children: [Element] = []
    var text = ""
  }

  static let maximumDepth = DefinitionValue.maximumDepth

  private var cursor: TextCursor

  private init(_ text: String, file: String) {
    cursor = TextCursor(text, file: file)
  }

  /// Reads a whole property list.
  static func read(_ text: String, file: String) throws(DefinitionError) -> DefinitionValue {
    try checkCharacters(text, file: file)
    var reader = PropertyListReader(text, file: file)
    let root = try reader.readDocument()
    guard root.name == "plist" else {
      throw DefinitionError(
        .syntax, at: root.location, "the root element is <\(root.name)>, not <plist>")
    }
    if root.children.count == 1, root.children[0].name != "key" {
      try expectNoText(root)
      return try value(of: root.children[0])
    }
    if root.children.first?.name == "key" {
      // CSMapper's documentation leaves out the <dict> around the members.
      return DefinitionValue(kind: .object(try members(of: root)), location: root.location)
    }
    throw DefinitionError(
      .syntax, at: root.location,
      "<plist> must hold exactly one value, found \(root.children.count)")
  }

  /// Whether XML 1.0 allows `scalar` in a document (its `Char` production): tab, line feed,
  /// carriage return and everything from U+0020 on, but U+FFFE and U+FFFF. NUL and the other
  /// C0 control characters are not allowed, written raw or as a character reference.
  static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x9, 0xA, 0xD: return true
    case 0x20...0xFFFD: return true
    case 0x10000...: return true
    default: return false
    }
  }

  /// Throws a syntax error at the first character XML 1.0 does not allow (a raw NUL), before
  /// anything is read: such a file is not XML, whatever a lenient reader would make of it.
  private static func checkCharacters(_ text: String, file: String) throws(DefinitionError) {
    var position = LinePosition()
    for scalar in text.unicodeScalars {
      if !isXMLCharacter(scalar) {
        throw DefinitionError(
          .syntax, at: DefinitionLocation(file: file, line: position.line, column: position.column),
          "the character \(_scalarName(scalar)) is not allowed in XML (XML 1.0 allows no NUL "
            + "and no control character but tab, line feed and carriage return)")
      }
      position.move(past: scalar)
    }
  }

  // MARK: Property list semantics

  /// The value of a hexadecimal integer (`0x1F`, `-0X10`); `nil` for other text, or one past
  /// `Int64`.
  static func hexInteger(_ text: String) -> Int64? {
    var digits = Substring(text)
    let negative = digits.first == "-"
    if negative || digits.first == "+" { digits = digits.dropFirst() }
    guard digits.hasPrefix("0x") || digits.hasPrefix("0X") else { return nil }
    digits = digits.dropFirst(2)
    guard !digits.isEmpty, digits.allSatisfy(\.isHexDigit),
      let magnitude = UInt64(digits, radix: 16)
    else { return nil }
    return negative
      ? (magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil)
      : Int64(exactly: magnitude)
  }

  private static func value(of element: Element) throws(DefinitionError) -> DefinitionValue {
    let location = element.location
    switch element.name {
    case "dict":
      return DefinitionValue(kind: .object(try members(of: element)), location: location)
    case "array":
      try expectNoText(element)
      var values: [DefinitionValue] = []
      for child in element.children { values.append(try value(of: child)) }
      return DefinitionValue(kind: .array(values), location: location)
    case "string", "date", "data":
      try expectNoChildren(element)
      return DefinitionValue(kind: .string(element.text), location: location)
    case "integer", "real":
      try expectNoChildren(element)
      let written = element.text.trimmingWhitespace
      let isInteger = element.name == "integer"
      // CFPropertyList reads `<integer>0x1F</integer>` as 31: kept as its decimal text. A
      // number as JSON writes one (an optional `+` dropped): not `nan` or `inf`, which
      // `Double(_:)` reads too, and not `.5`, which would fail only when mapped; an `<integer>`
      // without a fraction or an exponent.
      let text =
        isInteger
        ? Self.hexInteger(written).map(String.init) ?? String(written.trimmingPrefix("+"))
        : String(written.trimmingPrefix("+"))
      guard _isJSONNumber(text), Double(text)?.isFinite == true,
        !isInteger || !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
      else {
        throw DefinitionError(
          .syntax, at: location,
          "<\(element.name)> holds \"\(written)\", not \(isInteger ? "an integer" : "a number")")
      }
      return DefinitionValue(kind: .number(text), location: location)
    case "true", "false":
      try expectNoChildren(element)
      return DefinitionValue(kind: .bool(element.name == "true"), location: location)
    default:
      throw DefinitionError(
        .syntax, at: location, "<\(element.name)> is not a property list element")
    }
  }

  private static func expectNoChildren(_ element: Element) throws(DefinitionError) {
    if let child = element.children.first {
      throw DefinitionError(
        .syntax, at: child.location, "<\(child.name)> cannot be inside <\(element.name)>")
    }
  }

  /// Text between the elements of a `<dict>` or an `<array>` (`<key>age</key>hello<string>`)
  /// is a mistake, not a value: it is refused rather than dropped.
  private static func expectNoText(_ element: Element) throws(DefinitionError) {
    guard element.text.trimmingWhitespace.isEmpty else {
      throw DefinitionError(
        .syntax, at: element.location,
        "<\(element.name)> holds text between its elements: "
          + "\"\(String(element.text.trimmingWhitespace.prefix(40)))\"")
    }
  }

  private static func members(of element: Element) throws(DefinitionError) -> [DefinitionValue
    .Member]
  {
    try expectNoText(element)
    var members: [DefinitionValue.Member] = []
    var seen: [String: DefinitionLocation] = [:]
    var index = 0
    let children = element.children
    while index < children.count {
      let key = children[index]
      guard key.name == "key" else {
        throw DefinitionError(
          .syntax, at: key.location, "expected <key> in <\(element.name)>, found <\(key.name)>")
      }
      try expectNoChildren(key)
      guard index + 1 < children.count else {
        throw DefinitionError(.syntax, at: key.location, "<key>\(key.text)</key> has no value")
      }
      if let first = seen.updateValue(key.location, forKey: key.text) {
        throw DefinitionError(
          .syntax, at: key.location,
          "duplicate key \"\(key.text)\" (first at line \(first.line), column \(first.column))")
      }
      let value = try value(of: children[index + 1])
      members.append(
        DefinitionValue.Member(key: key.text, keyLocation: key.location, value: value))
      index += 2
    }
    return members
  }

  // MARK: XML

  private var location: DefinitionLocation { cursor.location }
  private var current: Unicode.Scalar? { cursor.current }
  private func starts(with prefix: String) -> Bool { cursor.starts(with: prefix) }
  private mutating func advance(_ count: Int = 1) { cursor.advance(count) }
  private func error(_ message: String, at location: DefinitionLocation? = nil) -> DefinitionError {
    cursor.error(message, at: location)
  }

  /// Skips until just after `terminator`; an error naming `what` when the file ends first.
  private mutating func skip(past terminator: String, what: String) throws(DefinitionError) {
    let start = location
    while current != nil {
      if starts(with: terminator) {
        advance(terminator.unicodeScalars.count)
        return
      }
      advance()
    }
    throw error("\(what) is not closed", at: start)
  }

  private mutating func skipMisc() throws(DefinitionError) {
    while let scalar = current {
      if scalar.properties.isWhitespace {
        advance()
      } else if starts(with: "<?") {
        try skip(past: "?>", what: "a processing instruction")
      } else if starts(with: "<!--") {
        try skip(past: "-->", what: "a comment")
      } else if starts(with: "<!DOCTYPE") {
        try skip(past: ">", what: "the DOCTYPE")
      } else {
        return
      }
    }
  }

  private mutating func readDocument() throws(DefinitionError) -> Element {
    // A byte order mark (U+FEFF) may start the file, as editors write it; the JSON reader
    // accepts one too.
    if current == "\u{FEFF}" { advance() }
    try skipMisc()
    guard current == "<" else {
      throw error(current == nil ? "the file is empty" : "expected an element, found text")
    }
    let root = try readElement(depth: 0)
    try skipMisc()
    if current != nil { throw error("unexpected content after the root element") }
    return root
  }

  private mutating func readName() -> String {
    var name = ""
    while let scalar = current,
      scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-"
        || scalar == "_" || scalar == ":" || scalar == "."
    {
      name.unicodeScalars.append(scalar)
      advance()
    }
    return name
  }

  /// Reads the start tag whose `<` is the current character: the element, and whether it is
  /// already closed (`<true/>`).
  private mutating func readStartTag(depth: Int) throws(DefinitionError) -> (Element, Bool) {
    guard depth < Self.maximumDepth else {
      throw error("nesting deeper than \(Self.maximumDepth) levels")
    }
    let start = location
    advance()  // <
    let name = readName()
    guard !name.isEmpty else { throw error("expected an element name after \"<\"", at: start) }
    // Attributes are read past, not kept (<plist version="1.0">).
    while let scalar = current, scalar != ">", scalar != "/" {
      if scalar == "\"" || scalar == "'" {
        advance()
        while let inner = current, inner != scalar { advance() }
        guard current != nil else { throw error("an attribute value is not closed") }
      }
      advance()
    }
    if starts(with: "/>") {
      advance(2)
      return (Element(name: name, location: start), true)
    }
    guard current == ">" else { throw error("the tag <\(name)> is not closed", at: start) }
    advance()
    return (Element(name: name, location: start), false)
  }

  /// Reads an element whose `<` is the current character, with everything in it. The open
  /// elements are kept on an explicit stack: nesting costs no call stack.
  private mutating func readElement(depth: Int) throws(DefinitionError) -> Element {
    var (root, isClosed) = try readStartTag(depth: depth)
    if isClosed { return root }
    var open: [Element] = [root]
    while let top = open.indices.last {
      let name = open[top].name
      let start = open[top].location
      guard let scalar = current else {
        throw error(
          "<\(name)> is not closed: expected </\(name)> before the end of file", at: start)
      }
      if starts(with: "</") {
        let closing = location
        advance(2)
        let closingName = readName()
        while let space = current, space.properties.isWhitespace { advance() }
        guard current == ">" else { throw error("the closing tag </\(closingName)> is not closed") }
        advance()
        guard closingName == name else {
          throw error(
            "</\(closingName)> closes <\(name)> (opened at line \(start.line), column \(start.column))",
            at: closing)
        }
        let finished = open.removeLast()
        if let parent = open.indices.last {
          open[parent].children.append(finished)
        } else {
          root = finished
        }
      } else if starts(with: "<!--") {
        try skip(past: "-->", what: "a comment")
      } else if starts(with: "<![CDATA[") {
        advance(9)
        let cdata = location
        while current != nil, !starts(with: "]]>") {
          if let inner = current { open[top].text.unicodeScalars.append(inner) }
          advance()
        }
        guard current != nil else { throw error("a CDATA section is not closed", at: cdata) }
        advance(3)
      } else if scalar == "<" {
        let (child, childIsClosed) = try readStartTag(depth: depth + open.count)
        if childIsClosed {
          open[top].children.append(child)
        } else {
          open.append(child)
        }
      } else if scalar == "&" {
        open[top].text.unicodeScalars.append(try readEntity())
      } else {
        open[top].text.unicodeScalars.append(scalar)
        advance()
      }
    }
    return root
  }

  private mutating func readEntity() throws(DefinitionError) -> Unicode.Scalar {
    let start = location
    advance()  // &
    var name = ""
    while let scalar = current, scalar != ";" {
      guard name.unicodeScalars.count < 10 else { break }
      // XML allows leading zeros in a character reference (`&#x0000000041;` is "A"): they are
      // skipped, so they do not count towards the ten characters. A zero before `;` is kept.
      let isLeadingZero = scalar == "0" && (name == "#" || name == "#x") && cursor.peek(1) != ";"
      if !isLeadingZero { name.unicodeScalars.append(scalar) }
      advance()
    }
    guard current == ";" else {
      // A name cut at ten characters is too long for any entity (`&#99999999999999999999;`).
      throw error(
        name.unicodeScalars.count >= 10
          ? "the entity &\(name)… is too long: no entity or character reference is"
          : "an entity is not closed with \";\"", at: start)
    }
    advance()
    switch name {
    case "amp": return "&"
    case "lt": return "<"
    case "gt": return ">"
    case "quot": return "\""
    case "apos": return "'"
    default:
      var digits = Substring(name)
      var radix = 10
      guard digits.first == "#" else { throw error("unknown entity &\(name);", at: start) }
      digits = digits.dropFirst()
      if digits.first == "x" {
        radix = 16
        digits = digits.dropFirst()
      }
      guard let value = UInt32(digits, radix: radix), let scalar = Unicode.Scalar(value) else {
        throw error("invalid character reference &\(name);", at: start)
      }
      guard Self.isXMLCharacter(scalar) else {
        throw error(
          "the character reference &\(name); names \(_scalarName(scalar)), which XML 1.0 does "
            + "not allow", at: start)
      }
      return scalar
    }
  }
}

extension String {
  /// The string without leading and trailing whitespace.
  var trimmingWhitespace: String {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
      let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
    else { return "" }
    return String(scalars[first...last])
  }
}

/// `U+0000`: how messages name a character.
func _scalarName(_ scalar: Unicode.Scalar) -> String {
  let hex = String(scalar.value, radix: 16, uppercase: true)
  return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
}
