import Foundation

/// A two-way conversion between a payload type and a model type.
///
/// `forward` turns the payload value into the model value when mapping; `reverse` turns it back
/// when serializing, so a mapping that uses a transform stays invertible.
///
/// ```swift
/// extension ValueTransform where Input == String, Output == [String] {
///   /// `"swift,linux"` on the wire, `["swift", "linux"]` in the model.
///   static var commaSeparated: Self { .separated(by: ",") }
/// }
///
/// Attribute("tags", \.tags, .separated(by: ","))
/// ```
///
/// Throw ``ConversionFailure`` from either closure to report a value that does not convert; the
/// mapping adds the path. A one-way conversion is spelled differently, as `decodeOnly:` (on
/// ``Attribute`` or ``init(decodeOnly:)``), and the inverse reports the rule it had to leave
/// out.
public struct ValueTransform<Input, Output>: Sendable {
  let forwardBody: @Sendable (Input) throws -> Output
  let reverseBody: (@Sendable (Output) throws -> Input)?

  /// Creates a two-way transform.
  ///
  /// - Parameters:
  ///   - forward: Payload value to model value.
  ///   - reverse: Model value to payload value.
  @preconcurrency
  public init(
    forward: @escaping @Sendable (Input) throws -> Output,
    reverse: @escaping @Sendable (Output) throws -> Input
  ) {
    forwardBody = forward
    reverseBody = reverse
  }

  /// Creates a one-way transform: it converts payload values, and a rule using it is left out
  /// of the inverse, which lists it (``InverseMapping/omitted``).
  ///
  /// A mapping that uses it maps payloads; serializing leaves the rule out and says so:
  ///
  /// ```swift
  /// let display = ValueTransform<[String], String>(decodeOnly: { $0.joined(separator: " / ") })
  /// Attribute(sources: ["person_name", "person_age"], \.summary, display)
  /// // map:       {"person_name": "Ann", "person_age": "41"}  ->  summary == "Ann / 41"
  /// // serialize: the rule is omitted: "it converts with a one-way closure or transform"
  /// ```
  ///
  /// ``reverse(_:)`` of such a transform throws ``ConversionFailure/notRepresentable(_:reason:)``;
  /// ``isReversible`` is `false`.
  ///
  /// - Parameter forward: Payload value to model value.
  @preconcurrency
  public init(decodeOnly forward: @escaping @Sendable (Input) throws -> Output) {
    forwardBody = forward
    reverseBody = nil
  }

  /// Whether the transform has a reverse direction (decode-only transforms do not).
  public var isReversible: Bool { reverseBody != nil }

  /// Converts a payload value to a model value.
  ///
  /// - Throws: ``ConversionFailure`` or the error the closure throws.
  public func forward(_ input: Input) throws -> Output { try forwardBody(input) }

  /// Converts a model value back to a payload value.
  ///
  /// - Throws: ``ConversionFailure/notRepresentable(_:reason:)`` for a decode-only transform, or
  ///   the error the closure throws.
  public func reverse(_ output: Output) throws -> Input {
    guard let reverseBody else {
      throw ConversionFailure.notRepresentable(
        "\(output)", reason: "the transform is decode-only")
    }
    return try reverseBody(output)
  }

  /// This transform applied to every element of an array, in order (ObjectMapper's transforms
  /// on `[T]`); an element that fails fails the whole value. Nest it for arrays of arrays.
  ///
  /// ```swift
  /// Attribute("dates", \.dates, .date(format: "dd/MM/yyyy").elements)          // [Date]
  /// Attribute("grid", \.grid, playerTransform.elements.elements)               // [[Player]]
  /// ```
  public var elements: ValueTransform<[Input], [Output]> {
    let each = self
    guard each.isReversible else {
      return ValueTransform<[Input], [Output]>(decodeOnly: { try $0.map(each.forward) })
    }
    return ValueTransform<[Input], [Output]>(
      forward: { try $0.map(each.forward) }, reverse: { try $0.map(each.reverse) })
  }

  /// This transform applied to every value of a dictionary, keys kept (ObjectMapper's
  /// transforms on `[String: T]`); a value that fails fails the whole dictionary.
  ///
  /// ```swift
  /// Attribute("birthdays", \.birthdays, .date(format: "dd/MM/yyyy").values)   // [String: Date]
  /// ```
  public var values: ValueTransform<[String: Input], [String: Output]> {
    let each = self
    guard each.isReversible else {
      return ValueTransform<[String: Input], [String: Output]>(decodeOnly: {
        try $0.mapValues(each.forward)
      })
    }
    return ValueTransform<[String: Input], [String: Output]>(
      forward: { try $0.mapValues(each.forward) }, reverse: { try $0.mapValues(each.reverse) })
  }

  /// This transform followed by `next`: forward runs this then `next`, reverse runs `next`'s
  /// reverse then this one's.
  public func then<Next>(_ next: ValueTransform<Output, Next>) -> ValueTransform<Input, Next> {
    let first = self
    guard first.isReversible, next.isReversible else {
      return ValueTransform<Input, Next>(decodeOnly: { try next.forward(first.forward($0)) })
    }
    return ValueTransform<Input, Next>(
      forward: { try next.forward(first.forward($0)) },
      reverse: { try first.reverse(next.reverse($0)) })
  }
}

extension ValueTransform where Input == String, Output == Date {
  /// A date written with a fixed pattern (see ``DateFormat/pattern(_:)``), read and written in
  /// UTC: `.date(format: "dd/MM/yyyy")` reads `"01/03/2012"` as 1 March 2012 and writes it back
  /// the same way.
  public static func date(format pattern: String) -> Self {
    let compiled = DatePattern(pattern)
    return ValueTransform(
      forward: { text in
        try dateOrFailure(from: compiled.parse(text), text: text, expected: "'\(pattern)'")
      },
      reverse: { try compiled.format($0) })
  }

  /// ISO 8601 / RFC 3339 (see ``DateFormat/iso8601``), written in UTC.
  public static var iso8601: Self {
    ValueTransform(
      forward: { text in
        try dateOrFailure(from: ISO8601.parse(Array(text.utf8)), text: text, expected: "ISO 8601")
      },
      reverse: { try ISO8601.format($0) })
  }
}

extension ValueTransform where Input == Double, Output == Date {
  /// Seconds since 1970-01-01T00:00:00Z, fractions kept; dates outside the years 0000
  /// through 9999 are errors both ways (see ``DateFormat``).
  public static var epochSeconds: Self {
    ValueTransform(
      forward: { try epochDate(seconds: $0, raw: $0) },
      reverse: { date in
        try Civil.checkRange(date)
        return date.timeIntervalSince1970
      })
  }

  /// Milliseconds since 1970-01-01T00:00:00Z (`1386786787000`); dates outside the years 0000
  /// through 9999 are errors both ways (see ``DateFormat``).
  public static var epochMilliseconds: Self {
    ValueTransform(
      forward: { try epochDate(seconds: $0 / 1000, raw: $0) },
      reverse: { date in
        try Civil.checkRange(date)
        return (date.timeIntervalSince1970 * 1000).rounded()
      })
  }
}

extension ValueTransform where Input == String, Output == [String] {
  /// `"swift,linux"` on the wire, `["swift", "linux"]` in the model; an element that contains
  /// the separator cannot be written back.
  public static func separated(by separator: Character) -> Self {
    ValueTransform(
      forward: {
        $0.isEmpty
          ? [] : $0.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
      },
      reverse: { parts in
        if let bad = parts.first(where: { $0.contains(separator) }) {
          throw ConversionFailure.notRepresentable(bad, reason: "contains the separator")
        }
        return parts.joined(separator: String(separator))
      })
  }
}

extension ValueTransform where Input == [String], Output == String {
  /// Several payload values joined into one string (CSMapper's join mapper), for a compound
  /// source: `["E42", "31"]` becomes `"E42:31"`, and serializing splits it back into one value
  /// per source.
  ///
  /// ```swift
  /// Attribute(sources: ["employee_identifier", "employee_age"], \.badge, .joined(":"))
  /// // {"employee_identifier": "E42", "employee_age": "31"}  <->  badge == "E42:31"
  /// ```
  public static func joined(_ separator: String) -> Self {
    ValueTransform(
      forward: { parts in
        if let bad = parts.first(where: { !separator.isEmpty && $0.contains(separator) }) {
          throw ConversionFailure.invalidValue(
            expected: "values without \"\(separator)\"", raw: bad,
            reason: "it contains the separator, so the joined value could not be split back")
        }
        return parts.joined(separator: separator)
      },
      reverse: { joined in
        guard !separator.isEmpty else { return [joined] }
        return joined.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
      })
  }
}

extension ValueTransform where Input == String, Output == Bool {
  /// A boolean written as two words (`"yes"`/`"no"`), compared case-insensitively when read,
  /// written exactly as given.
  public static func boolWords(true trueWord: String, false falseWord: String) -> Self {
    ValueTransform(
      forward: { text in
        if text.lowercased() == trueWord.lowercased() { return true }
        if text.lowercased() == falseWord.lowercased() { return false }
        throw ConversionFailure.invalidValue(
          expected: "\"\(trueWord)\" or \"\(falseWord)\"", raw: quotedForMessage(text), reason: nil
        )
      },
      reverse: { $0 ? trueWord : falseWord })
  }
}

extension ValueTransform where Input == String, Output: FixedWidthInteger & SendableMetatype {
  /// An integer written as a string (`"42"`); the whole string must be the exact integer.
  public static var numericString: Self {
    ValueTransform(
      forward: { text in
        guard let number = _CanonicalNumber(text: text), let value = number.integer(as: Output.self)
        else {
          throw ConversionFailure.invalidValue(
            expected: "an integer", raw: quotedForMessage(text), reason: nil)
        }
        return value
      },
      reverse: { String($0) })
  }
}

extension ValueTransform where Input == String, Output == Double {
  /// A number written as a string (`"12.5"`); the whole string must be a number within
  /// `Double`'s range (`"1e400"` and `"1e-400"` are errors, not infinity or 0).
  public static var numericString: Self {
    ValueTransform(
      forward: { text in
        guard _CanonicalNumber(text: text) != nil, let value = Double(text), value.isFinite else {
          throw ConversionFailure.invalidValue(
            expected: "a number", raw: quotedForMessage(text), reason: nil)
        }
        if value == 0 && _hasNonZeroSignificand(text.utf8) {
          throw ConversionFailure.invalidValue(
            expected: "a number", raw: quotedForMessage(text), reason: "out of range (rounds to 0)"
          )
        }
        return value
      },
      reverse: { value in
        guard value.isFinite else {
          throw ConversionFailure.notRepresentable("\(value)", reason: "not a finite number")
        }
        return value.description
      })
  }
}

extension ValueTransform
where Output: RawRepresentable & SendableMetatype, Input == Output.RawValue {
  /// An enum read from and written as its raw value; an unknown raw value is an error.
  public static var rawValue: Self {
    ValueTransform(
      forward: { raw in
        guard let value = Output(rawValue: raw) else {
          throw ConversionFailure.invalidValue(
            expected: withArticle("\(Output.self)"),
            raw: (raw as? String).map(quotedForMessage) ?? "\(raw)",
            reason: unknownRawValueReason(Output.self))
        }
        return value
      },
      reverse: { $0.rawValue })
  }
}

/// The date `seconds` after 1970, or the conversion failure for a date out of range.
private func epochDate(seconds: Double, raw: Double) throws -> Date {
  guard Civil.supportedSeconds.contains(seconds) else {
    throw ConversionFailure.invalidValue(
      expected: "a date", raw: "\(raw)", reason: Civil.rangeReason)
  }
  return Date(timeIntervalSince1970: seconds)
}

/// The date of a parse outcome, or the conversion failure that names why there is none.
private func dateOrFailure(
  from outcome: DateFormat.ParseOutcome, text: String, expected format: String
) throws -> Date {
  switch outcome {
  case .date(let date): return date
  case .impossible(let reason):
    throw ConversionFailure.invalidValue(
      expected: "a date", raw: quotedForMessage(text), reason: reason)
  case .noMatch:
    throw ConversionFailure.invalidValue(
      expected: "a date", raw: quotedForMessage(text), reason: "expected \(format)")
  }
}
