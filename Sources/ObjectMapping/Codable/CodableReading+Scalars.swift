import Foundation

/// The values `JSONDecoder` reads itself, read as it reads them: the same conversions (an
/// integer from `1.0` or `1e2`, a `Float` parsed from the text rather than through a `Double`,
/// a `Decimal` from up to 38 significant digits), the same strategies and the same errors.
///
/// Errors are `DecodingError`s with the texts `JSONDecoder` uses and the value's coding path.
/// One difference, on purpose: a number that the asked type cannot hold (`300` for a `UInt8`,
/// `1e400` for a `Double`) is `.dataCorrupted` at the number's own path with the text "Number
/// 300 is not representable in Swift.", where `JSONDecoder` on Linux reports "The given data
/// was not valid JSON." at the root (its reader's error, rethrown without the path).
extension CodableReading {
  // MARK: Strings and booleans

  /// The string at `index`.
  @inline(__always)
  func readString(at index: Int, path: @autoclosure () -> [any CodingKey]) throws -> String {
    guard _fastPath(tape[index].kind == .string) else {
      throw mismatch(String.self, at: index, path: path())
    }
    return tape.string(at: index)
  }

  /// The boolean at `index`. (`null` is a type mismatch here, not a missing value: the one
  /// type `JSONDecoder` reports so.)
  @inline(__always)
  func readBool(at index: Int, path: @autoclosure () -> [any CodingKey]) throws -> Bool {
    switch tape[index].kind {
    case .true: return true
    case .false: return false
    default: throw mismatch(Bool.self, at: index, path: path(), nullIsMismatch: true)
    }
  }

  // MARK: Numbers

  /// The integer at `index`, as `JSONDecoder` reads one: a number written with a fraction or
  /// an exponent is read when its value is a whole number that fits (`1.0`, `1e2`).
  @inline(__always)
  func readInteger<T: FixedWidthInteger>(
    _ type: T.Type, at index: Int, path: @autoclosure () -> [any CodingKey]
  ) throws -> T {
    let entry = tape[index]
    if _fastPath(entry.kind == .integer), let value = T(exactly: entry.payload) { return value }
    return try readIntegerSlowly(T.self, at: index, path: path())
  }

  @inline(never)
  private func readIntegerSlowly<T: FixedWidthInteger>(
    _ type: T.Type, at index: Int, path: [any CodingKey]
  ) throws -> T {
    let entry = tape[index]
    switch entry.kind {
    case .integer:
      throw notRepresentable(String(entry.payload), path: path)
    case .number:
      let text = tape.numberText(at: index)
      if let value = integerFromNumberText(T.self, fromNumber: text, json5: options.allowsJSON5) {
        return value
      }
      throw notRepresentable(text, path: path)
    default:
      throw mismatch(T.self, at: index, path: path)
    }
  }

  /// The `Double` or `Float` at `index`: parsed from the number's text (correctly rounded, a
  /// `Float` without going through a `Double`), or a string the non-conforming float strategy
  /// names. A number too large for the type, or one that rounds to zero without being zero,
  /// is an error.
  @inline(__always)
  func readFloat<T: BinaryFloatingPoint & LosslessStringConvertible>(
    _ type: T.Type, at index: Int, path: @autoclosure () -> [any CodingKey]
  ) throws -> T {
    let entry = tape[index]
    if _fastPath(entry.kind == .integer) { return T(entry.payload) }
    if T.self == Double.self, entry.kind == .number, let double = tape.doubleValue(at: index),
      double.isFinite, double != 0
    {
      return T(double)
    }
    return try readFloatSlowly(T.self, at: index, path: path())
  }

  @inline(never)
  private func readFloatSlowly<T: BinaryFloatingPoint & LosslessStringConvertible>(
    _ type: T.Type, at index: Int, path: [any CodingKey]
  ) throws -> T {
    let entry = tape[index]
    switch entry.kind {
    case .number:
      let text = tape.numberText(at: index)
      if options.allowsJSON5 {
        if let special = json5Special(text, as: T.self) { return special }
        // A hexadecimal number too large for 64 bits, kept as written: no type reads it.
        if text.utf8.contains(UInt8(ascii: "x")) { throw notRepresentable(text, path: path) }
      }
      let value: T? =
        T.self == Double.self ? tape.doubleValue(at: index).map { T($0) } : T(text)
      if let value, value.isFinite, value != 0 || isZero(text) { return value }
      throw notRepresentable(text, path: path)
    case .string:
      if entry.flags & _TapeEntry.stringHasEscapes == 0,
        case .convertFromString(let positive, let negative, let nan) =
          options.nonConformingFloatDecodingStrategy
      {
        let text = tape.string(at: index)
        if text == positive { return .infinity }
        if text == negative { return -.infinity }
        if text == nan { return .nan }
      }
      throw mismatch(T.self, at: index, path: path)
    default:
      throw mismatch(T.self, at: index, path: path)
    }
  }

  // MARK: Dates, data, URLs, decimals, nodes

  /// A `Date`, `Data`, `URL`, `Decimal` or ``Node`` (`T`, one of them) at `index`: the first
  /// four with `JSONDecoder`'s strategies and checks, a node read whole from the document.
  @inline(never)
  func readSpecial<T: Decodable>(
    _ type: T.Type, at index: Int, parent: PathNode?, key: (any CodingKey)?
  ) throws -> T {
    if T.self == Node.self {
      return identityCast(tape.node(at: index).keepingFirstOfEqualKeys(), to: T.self)
    }
    if tape[index].kind == .null { throw nullFound(T.self, path: childCodingPath(parent, key)) }
    if T.self == Date.self {
      return identityCast(try readDate(at: index, parent: parent, key: key), to: T.self)
    }
    if T.self == Data.self {
      return identityCast(try readData(at: index, parent: parent, key: key), to: T.self)
    }
    if T.self == URL.self {
      let text = try readString(at: index, path: childCodingPath(parent, key))
      guard let url = URL(string: text) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: childCodingPath(parent, key), debugDescription: "Invalid URL string."))
      }
      return identityCast(url, to: T.self)
    }
    return identityCast(try readDecimal(at: index, path: childCodingPath(parent, key)), to: T.self)
  }

  private func readDecimal(at index: Int, path: @autoclosure () -> [any CodingKey]) throws
    -> Decimal
  {
    let kind = tape[index].kind
    guard kind == .integer || kind == .number else {
      // `JSONDecoder`'s error, whose text is empty here; the library's description of the
      // mismatch underneath (for ``FastJSONDecoder/ErrorReporting/mappingErrors``).
      throw DecodingError.typeMismatch(
        Decimal.self,
        DecodingError.Context(
          codingPath: path(), debugDescription: "",
          underlyingError: ConversionFailure.typeMismatch(
            expected: articledTypeName(Decimal.self), found: rawDescription(at: index))))
    }
    let text = tape.numberText(at: index)
    if options.allowsJSON5 {
      if let value = json5Decimal(text) { return value }
      // A hexadecimal number too large for 64 bits, kept as written: no type reads it.
      if text.utf8.contains(UInt8(ascii: "x")) { throw notRepresentable(text, path: path()) }
    }
    guard let value = Decimal(string: text), !value.isNaN else {
      throw notRepresentable(text, path: path())
    }
    return value
  }

  private func readDate(at index: Int, parent: PathNode?, key: (any CodingKey)?) throws -> Date {
    switch options.dateDecodingStrategy {
    case .deferredToDate:
      return try Date(from: TapeDecoder(self, index: index, parent: parent, key: key))
    case .secondsSince1970:
      return Date(
        timeIntervalSince1970: try readFloat(
          Double.self, at: index, path: childCodingPath(parent, key)))
    case .millisecondsSince1970:
      let milliseconds = try readFloat(Double.self, at: index, path: childCodingPath(parent, key))
      return Date(timeIntervalSince1970: milliseconds / 1000)
    case .iso8601:
      let text = try readString(at: index, path: childCodingPath(parent, key))
      guard let date = ISO8601Coding.date(from: text) else {
        // `JSONDecoder` gives its container's path here, without the date's own key; the
        // date's path is given here, as for every other error.
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: childCodingPath(parent, key),
            debugDescription: "Expected date string to be ISO8601-formatted."))
      }
      return date
    case .custom(let closure):
      return try closure(TapeDecoder(self, index: index, parent: parent, key: key))
    @unknown default:
      // `.formatted(DateFormatter)`, where Foundation has it: use `.custom` with the formatter.
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: childCodingPath(parent, key),
          debugDescription: "this date decoding strategy is not supported; use .custom"))
    }
  }

  private func readData(at index: Int, parent: PathNode?, key: (any CodingKey)?) throws -> Data {
    switch options.dataDecodingStrategy {
    case .deferredToData:
      return try Data(from: TapeDecoder(self, index: index, parent: parent, key: key))
    case .base64:
      let text = try readString(at: index, path: childCodingPath(parent, key))
      guard let data = Data(base64Encoded: text) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: childCodingPath(parent, key),
            debugDescription: "Encountered Data is not valid Base64."))
      }
      return data
    case .custom(let closure):
      return try closure(TapeDecoder(self, index: index, parent: parent, key: key))
    @unknown default:
      return try Data(from: TapeDecoder(self, index: index, parent: parent, key: key))
    }
  }

  // MARK: Errors

  /// The error for a value at `index` that is not a `type`: `.valueNotFound` for `null`,
  /// `.typeMismatch` naming what was found otherwise (`JSONDecoder`'s texts), with the
  /// library's description of the two as the underlying error (for
  /// ``FastJSONDecoder/ErrorReporting/mappingErrors``).
  @inline(never)
  func mismatch(
    _ type: Any.Type, at index: Int, path: [any CodingKey], nullIsMismatch: Bool = false
  ) -> DecodingError {
    let kind = tape[index].kind
    if kind == .null, !nullIsMismatch { return nullFound(type, path: path) }
    let found: String
    switch kind {
    case .string: found = "a string"
    case .integer, .number: found = "number"
    case .true, .false: found = "bool"
    case .object: found = "a dictionary"
    case .array: found = "an array"
    case .null: found = "null"
    }
    return .typeMismatch(
      type,
      DecodingError.Context(
        codingPath: path,
        debugDescription: "Expected to decode \(type) but found \(found) instead.",
        underlyingError: ConversionFailure.typeMismatch(
          expected: articledTypeName(type), found: rawDescription(at: index))))
  }

  /// The error for a number `text` that the asked type cannot hold.
  @inline(never)
  func notRepresentable(_ text: String, path: [any CodingKey]) -> DecodingError {
    .dataCorrupted(
      DecodingError.Context(
        codingPath: path, debugDescription: "Number \(text) is not representable in Swift.",
        underlyingError: ConversionFailure.invalidValue(
          expected: "a number that fits", raw: MessageText.value(text), reason: "out of range")))
  }
}

/// `.valueNotFound` for a `null` where a `type` was asked for (`JSONDecoder`'s text).
func nullFound(_ type: Any.Type, path: [any CodingKey]) -> DecodingError {
  .valueNotFound(
    type,
    DecodingError.Context(
      codingPath: path,
      debugDescription: "Cannot get value of type \(type) -- found null value instead"))
}

/// The `T` a JSON number's `text` stands for, as `JSONDecoder` reads it: digits parsed as
/// they are; a fraction or exponent through a `Double` when the result is a whole number
/// below 2⁵³, else through a `Decimal` (its integral part, when it fits 64 bits).
func integerFromNumberText<T: FixedWidthInteger>(
  _ type: T.Type, fromNumber text: String, json5: Bool
) -> T? {
  if let value = T(text, radix: 10) { return value }
  if text.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || ($0 >= 0x30 && $0 <= 0x39) }) {
    // Digits that do not fit (a `-0` for an unsigned type reads as 0, as in `JSONDecoder`).
    return text == "-0" ? 0 : nil
  }
  guard let double = Double(text) else { return nil }
  guard let value = T(exactly: double) else { return nil }
  if double.magnitude < 0x1p53 { return value }
  guard let decimal = Decimal(string: text), !decimal.isNaN else { return nil }
  return integralPart(of: decimal, as: T.self)
}

/// The integral part of `decimal` (truncated toward zero) as a `T`, as `JSONDecoder` converts
/// a `Decimal`: only when all its significant digits, the fraction's included, fit 64 bits
/// (`12345678901234567890.5` does not, though its integral part would), and the integral part
/// fits `T`.
private func integralPart<T: FixedWidthInteger>(of decimal: Decimal, as type: T.Type) -> T? {
  var text = decimal.description
  let negative = text.hasPrefix("-")
  if negative {
    guard T.isSigned else { return nil }
    text.removeFirst()
  }
  let digits = text.filter { $0 != "." }.drop { $0 == "0" }
  guard digits.isEmpty || UInt64(digits) != nil else { return nil }
  if let point = text.firstIndex(of: ".") { text = String(text[..<point]) }
  guard let magnitude = UInt64(text), let value = T(exactly: magnitude) else { return nil }
  return negative ? 0 - value : value
}

/// Whether a JSON number's text is zero (no digit 1–9 before its exponent).
private func isZero(_ text: String) -> Bool {
  for byte in text.utf8 {
    if byte >= UInt8(ascii: "1") && byte <= UInt8(ascii: "9") { return false }
    if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { return true }
  }
  return true
}

/// `"a String"`, `"an Int"`: a type for an error message.
func articledTypeName(_ type: Any.Type) -> String {
  if let mappable = type as? any MappableValue.Type { return mappable.expectedDescription }
  return withArticle("\(type)")
}
