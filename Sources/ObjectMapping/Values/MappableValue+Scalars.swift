import Foundation

extension String: MappableValue {
  /// Reads a string; under lenient coercion a number becomes its text as written in the payload
  /// (`123`, `1.50`) and a boolean becomes `"true"`/`"false"`.
  public init(payload: PayloadValue) throws {
    let entry = payload.entry
    let tape = payload.tape
    switch entry.kind {
    case .string: self = tape.string(at: payload.index)
    case .integer where payload.context.coercion == .lenient,
      .number where payload.context.coercion == .lenient:
      self = tape.numberText(at: payload.index)
    case .true where payload.context.coercion == .lenient: self = "true"
    case .false where payload.context.coercion == .lenient: self = "false"
    default: throw payload.mismatch(expected: "a string")
    }
  }
  /// The string.
  public func payloadNode() -> Node { .string(self) }
  /// `"a string"`.
  public static var expectedDescription: String { "a string" }
}

extension Bool: MappableValue {
  /// `false`.
  public static var zeroValue: Bool? { false }
  /// The words lenient coercion reads as `true` (compared case-insensitively).
  static let trueWords: Set<String> = ["true", "yes", "t", "y", "on", "1"]
  /// The words lenient coercion reads as `false` (compared case-insensitively).
  static let falseWords: Set<String> = ["false", "no", "f", "n", "off", "0"]

  /// Reads a JSON boolean; under lenient coercion also the numbers `0`/`1` and, in any case, the
  /// words `true`, `yes`, `t`, `y`, `on`, `1` (true) and `false`, `no`, `f`, `n`, `off`, `0`
  /// (false). Other numbers and words are errors.
  public init(payload: PayloadValue) throws {
    let entry = payload.entry
    switch entry.kind {
    case .true: self = true
    case .false: self = false
    case .integer where payload.context.coercion == .lenient:
      switch entry.payload {
      case 0: self = false
      case 1: self = true
      default: throw payload.invalid(expected: "a boolean", reason: "only 0 and 1 are booleans")
      }
    case .string where payload.context.coercion == .lenient:
      let word = payload.tape.string(at: payload.index).lowercased()
      if Bool.trueWords.contains(word) {
        self = true
      } else if Bool.falseWords.contains(word) {
        self = false
      } else {
        throw payload.invalid(expected: "a boolean")
      }
    default: throw payload.mismatch(expected: "a boolean")
    }
  }
  /// `true` or `false`.
  public func payloadNode() -> Node { .bool(self) }
  /// `"a boolean"`.
  public static var expectedDescription: String { "a boolean" }
}

extension Decimal: MappableValue {
  /// Reads a decimal exactly from the number's literal text (`0.7689993` stays `0.7689993`);
  /// under lenient coercion also from a string holding a number.
  ///
  /// `Decimal` holds a 128-bit significand (every number of 38 digits, and those of 39 up to
  /// 2^128 − 1 = 340282366920938463463374607431768211455) times 10^-128 through 10^127, counted
  /// after trailing zeros are dropped (`1200e125` is 12 × 10^127), so every `Decimal` written
  /// reads back, `Decimal.greatestFiniteMagnitude` included. More significant digits
  /// (`more than 38 significant digits`, or 39 above 2^128 − 1) or an exponent beyond that
  /// range, such as `1e128` or a non-zero `1e-129` (`exponent out of range`), is an error:
  /// never a rounding, a NaN or a silent 0.
  public init(payload: PayloadValue) throws {
    let entry = payload.entry
    let tape = payload.tape
    let text: String
    switch entry.kind {
    case .integer:
      self = Decimal(entry.payload)
      return
    case .number: text = tape.numberText(at: payload.index)
    case .string where payload.context.coercion == .lenient: text = tape.string(at: payload.index)
    default: throw payload.mismatch(expected: "a decimal number")
    }
    guard let canonical = _CanonicalNumber(text: text) else {
      throw payload.invalid(expected: "a decimal number")
    }
    guard canonical.digits.count <= 39 else {
      throw payload.invalid(
        expected: "a decimal number", reason: "more than 38 significant digits")
    }
    // 39 digits fit the 128-bit significand up to its largest value (same length: compared as
    // text).
    if canonical.digits.count == 39,
      !canonical.digits.lexicographicallyPrecedes(Self.largestSignificand.utf8)
        && !canonical.digits.elementsEqual(Self.largestSignificand.utf8)
    {
      throw payload.invalid(
        expected: "a decimal number",
        reason:
          "39 significant digits above \(Self.largestSignificand), the largest a Decimal holds")
    }
    // `Decimal` keeps its significand compact (trailing zeros become exponent), so a larger
    // exponent cannot be moved into it: beyond 127 the result would be NaN.
    guard canonical.exponent >= -128, canonical.exponent <= 127 else {
      throw payload.invalid(expected: "a decimal number", reason: "exponent out of range")
    }
    var significand = Decimal(0)
    for digit in canonical.digits {
      significand = significand * 10 + Decimal(Int(digit - UInt8(ascii: "0")))
    }
    self = Decimal(
      sign: canonical.negative ? .minus : .plus, exponent: canonical.exponent,
      significand: significand)
    guard isFinite else {
      throw payload.invalid(expected: "a decimal number", reason: "exponent out of range")
    }
  }
  /// 2^128 − 1, the largest significand of a `Decimal`, in digits.
  static let largestSignificand = "340282366920938463463374607431768211455"

  /// The exact decimal text, written as a JSON number.
  public func payloadNode() throws -> Node {
    guard isFinite else {
      throw ConversionFailure.notRepresentable("\(self)", reason: "not a finite decimal")
    }
    return .decimal(description)
  }
  /// `"a decimal number"`.
  public static var expectedDescription: String { "a decimal number" }
}

extension URL: MappableValue {
  /// Reads a URL from a string; a string that is not a URL is an error.
  public init(payload: PayloadValue) throws {
    let text = try String(payload: payload.requiringString("a URL"))
    guard !text.isEmpty, let url = URL(string: text) else {
      throw payload.invalid(expected: "a URL")
    }
    self = url
  }
  /// The absolute string.
  public func payloadNode() -> Node { .string(absoluteString) }
  /// `"a URL"`.
  public static var expectedDescription: String { "a URL" }
}

extension UUID: MappableValue {
  /// Reads a UUID from its string form (either case).
  public init(payload: PayloadValue) throws {
    let text = try String(payload: payload.requiringString("a UUID"))
    guard let uuid = UUID(uuidString: text) else { throw payload.invalid(expected: "a UUID") }
    self = uuid
  }
  /// The lowercase string form (RFC 9562).
  public func payloadNode() -> Node { .string(uuidString.lowercased()) }
  /// `"a UUID"`.
  public static var expectedDescription: String { "a UUID" }
}

extension Data: MappableValue {
  /// Reads bytes from a base64 string.
  public init(payload: PayloadValue) throws {
    let text = try String(payload: payload.requiringString("base64 data"))
    guard let data = Data(base64Encoded: text) else {
      throw payload.invalid(expected: "base64 data")
    }
    self = data
  }
  /// The bytes as a base64 string.
  public func payloadNode() -> Node { .string(base64EncodedString()) }
  /// `"base64 data"`.
  public static var expectedDescription: String { "base64 data" }
}

extension Node: MappableValue {
  /// Takes the payload value as it is (the whole subtree).
  public init(payload: PayloadValue) { self = payload.tape.node(at: payload.index) }
  /// The node itself.
  public func payloadNode() -> Node { self }
  /// `"any value"`.
  public static var expectedDescription: String { "any value" }
  /// ``Node/null``: a `Node` can hold `null`.
  public static var nullValue: Node? { .null }
}

extension PayloadValue {
  /// This value when it is a string; a type mismatch naming `expected` otherwise.
  func requiringString(_ expected: String) throws -> PayloadValue {
    guard entry.kind == .string else { throw mismatch(expected: expected) }
    return self
  }
}
