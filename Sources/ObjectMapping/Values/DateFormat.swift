import Foundation

/// A way a date is written in a payload. Mappings try their formats in order.
///
/// The default list, ``defaultFormats``, accepts ISO 8601 (with or without fractional seconds
/// and zone; no zone means UTC) and epoch seconds (a number or a numeric string). Epoch
/// milliseconds is never guessed: ask for ``epochMilliseconds``.
///
/// Every format reads and writes the dates from 0000-01-01T00:00:00Z through
/// 9999-12-31T23:59:59.999999Z, what a four-digit ISO 8601 year can hold; `Date.distantPast`
/// and `Date.distantFuture` are inside. A payload naming a date outside that range (`1e300`
/// epoch seconds) is a conversion error, `cannot convert 1e300 to a date: outside the years
/// 0000 through 9999`, and serializing such a date (or one whose interval is NaN or infinite)
/// is an error at its path, never a trap.
///
/// ```swift
/// let mapping = Mapping(Event.init) {
///   Attribute("starts", \.starts)                                  // default formats
///   Attribute("ends", \.ends, .date(format: "dd/MM/yyyy HH:mm"))    // one pattern, both ways
/// }
/// .dateFormats([.pattern("dd/MM/yyyy"), .iso8601])                 // per mapping, in order
/// ```
public enum DateFormat: Sendable, Hashable, CustomStringConvertible {
  /// ISO 8601 / RFC 3339: `2011-07-07T04:35:28Z`, `2011-07-07T06:35:28.123+02:00`,
  /// `2011-07-07 04:35`, `2011-07-07` (midnight UTC). Written as `2011-07-07T04:35:28Z`, with
  /// `.123` when the date has a fraction of a second.
  case iso8601
  /// Seconds since 1970-01-01T00:00:00Z, as a number or a numeric string.
  case epochSeconds
  /// Milliseconds since 1970-01-01T00:00:00Z, as a number or a numeric string.
  case epochMilliseconds
  /// A fixed pattern of Unicode date-field symbols, read and written in UTC unless the pattern
  /// has a zone field, with English month names: `yyyy yy MMMM MMM MM M dd d HH H hh h a mm m
  /// ss s S…` (fraction), `Z` (`+0200`), `XXX`/`ZZZZZ` (`+02:00` or `Z`), `X` (`+02` or `Z`),
  /// `z`…`zzzz` (read: `GMT`, `UTC`, `GMT-7`, `PDT` and North America's other abbreviations,
  /// or an offset such as `-07:00`; written as `GMT`), `EEE`/`EEEE` (weekday names, read and
  /// ignored); text in single quotes and any character but an ASCII letter are literals (`''`
  /// is a quote). A pattern with another letter never matches.
  case pattern(String)

  /// ISO 8601, then epoch seconds.
  public static let defaultFormats: [DateFormat] = [.iso8601, .epochSeconds]

  /// The formats RestKit tried, in its order (``MappingOptions/restKitCompatible`` reads with
  /// them): ISO 8601 (`2011-07-07T04:35:28Z`, `2011-07-07`), epoch seconds (a number or a
  /// numeric string), `MM/dd/yyyy` (`01/03/2012` is 3 January), RFC 1123
  /// (`Sun, 06 Nov 1994 08:49:37 GMT`), RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and C's
  /// `asctime` (`Sun Nov  6 08:49:37 1994`, the day padded with a space or not), all in UTC.
  /// Dates are written with the first, ISO 8601, as RestKit did.
  public static let restKitFormats: [DateFormat] = [
    .iso8601, .epochSeconds, .pattern("MM/dd/yyyy"),
    .pattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'"), .pattern("EEEE, dd-MMM-yy HH:mm:ss 'GMT'"),
    .pattern("EEE MMM  d HH:mm:ss yyyy"), .pattern("EEE MMM d HH:mm:ss yyyy"),
  ]

  /// `iso8601`, `epoch seconds`, `epoch milliseconds` or the pattern in quotes.
  public var description: String {
    switch self {
    case .iso8601: return "ISO 8601"
    case .epochSeconds: return "epoch seconds"
    case .epochMilliseconds: return "epoch milliseconds"
    case .pattern(let pattern): return "'\(pattern)'"
    }
  }

  /// The outcome of reading a text or number with one format.
  enum ParseOutcome {
    case date(Date)
    case noMatch
    /// The text has the format's shape but names a date that does not exist.
    case impossible(String)
  }

  func parse(text: String) -> ParseOutcome {
    switch self {
    case .iso8601: return ISO8601.parse(Array(text.utf8))
    case .epochSeconds, .epochMilliseconds:
      guard _CanonicalNumber(text: text) != nil, let value = Double(text) else { return .noMatch }
      return parse(number: value)
    case .pattern(let pattern):
      return DatePattern(pattern).parse(text)
    }
  }

  func parse(number: Double) -> ParseOutcome {
    switch self {
    case .epochSeconds: return Civil.outcome(seconds: number)
    case .epochMilliseconds: return Civil.outcome(seconds: number / 1000)
    case .iso8601, .pattern: return .noMatch
    }
  }

  /// The date written in this format.
  ///
  /// - Throws: ``ConversionFailure/notRepresentable(_:reason:)`` for a date outside the years
  ///   0000 through 9999 (or with a NaN or infinite interval).
  func format(_ date: Date) throws -> Node {
    switch self {
    case .iso8601: return .string(try ISO8601.format(date))
    case .epochSeconds:
      try Civil.checkRange(date)
      return epochNode(date.timeIntervalSince1970)
    case .epochMilliseconds:
      try Civil.checkRange(date)
      return epochNode((date.timeIntervalSince1970 * 1000).rounded())
    case .pattern(let pattern): return .string(try DatePattern(pattern).format(date))
    }
  }

  private func epochNode(_ value: Double) -> Node {
    if let integer = Int64(exactly: value) { return .integer(integer) }
    return .double(value)
  }
}

extension Date: MappableValue {
  /// Reads a date with the mapping's date formats, tried in order (by default ISO 8601, then
  /// epoch seconds). A string that has a format's shape but names an impossible date
  /// (`2021-02-30`) is an error, not a rolled-over date.
  public init(payload: PayloadValue) throws {
    self = try Date.read(payload, formats: payload.context.dateFormats)
  }

  static func read(_ payload: PayloadValue, formats: [DateFormat]) throws -> Date {
    let entry = payload.entry
    var impossible: String?
    switch entry.kind {
    case .string:
      let text = payload.tape.string(at: payload.index)
      for format in formats {
        switch format.parse(text: text) {
        case .date(let date): return date
        case .impossible(let reason): impossible = impossible ?? reason
        case .noMatch: continue
        }
      }
    case .integer, .number:
      let value = payload.tape.doubleValue(at: payload.index) ?? .nan
      for format in formats {
        switch format.parse(number: value) {
        case .date(let date): return date
        case .impossible(let reason): impossible = impossible ?? reason
        case .noMatch: continue
        }
      }
    default:
      throw payload.mismatch(expected: "a date")
    }
    let names = formats.map(\.description).joined(separator: ", ")
    throw payload.invalid(expected: "a date", reason: impossible ?? "expected \(names)")
  }

  /// The date in ISO 8601 UTC (`2011-07-07T04:35:28Z`, `.123` kept when non-zero).
  ///
  /// - Throws: ``ConversionFailure/notRepresentable(_:reason:)`` for a date outside the years
  ///   0000 through 9999 (or with a NaN or infinite interval).
  public func payloadNode() throws -> Node { try DateFormat.iso8601.format(self) }
  /// `"a date"`.
  public static var expectedDescription: String { "a date" }
}

/// Calendar arithmetic on the proleptic Gregorian calendar, in UTC.
enum Civil {
  /// Seconds since 1970 from 0000-01-01T00:00:00Z up to 10000-01-01T00:00:00Z (excluded): the
  /// dates every ``DateFormat`` reads and writes, so that whole-second arithmetic fits `Int`.
  static let supportedSeconds = _CivilTime.supportedSeconds

  /// Why a date outside ``supportedSeconds`` is an error.
  static let rangeReason = "outside the years 0000 through 9999"

  /// The date `seconds` after 1970, or why there is none.
  static func outcome(seconds: Double) -> DateFormat.ParseOutcome {
    guard supportedSeconds.contains(seconds) else { return .impossible(rangeReason) }
    return .date(Date(timeIntervalSince1970: seconds))
  }

  /// Throws unless `date` is in ``supportedSeconds``.
  static func checkRange(_ date: Date) throws {
    guard supportedSeconds.contains(date.timeIntervalSince1970) else {
      throw outOfRange(date)
    }
  }

  /// The serialization error for a date outside ``supportedSeconds``.
  static func outOfRange(_ date: Date) -> ConversionFailure {
    .notRepresentable(
      "Date(timeIntervalSince1970: \(date.timeIntervalSince1970))", reason: rangeReason)
  }

  static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days from 1970-01-01 to the given date.
  static func days(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let shiftedMonth = month > 2 ? month - 3 : month + 9
    let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The date for a day count from 1970-01-01.
  static func civilDate(days: Int) -> (year: Int, month: Int, day: Int) {
    _CivilTime.civilDate(days: days)
  }

  static let monthNames = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
  ]
  static let weekdayNames = [
    "Thursday", "Friday", "Saturday", "Sunday", "Monday", "Tuesday", "Wednesday",
  ]

  /// Checks fields and builds the date; a reason when the fields name no real time.
  static func make(
    year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, fraction: Double,
    offsetSeconds: Int
  ) -> DateFormat.ParseOutcome {
    guard (1...12).contains(month) else { return .impossible("month \(month) does not exist") }
    guard day >= 1, day <= daysIn(month: month, year: year) else {
      return .impossible("\(monthNames[month - 1]) \(day), \(year) does not exist")
    }
    guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else {
      return .impossible(
        "time \(hour):\(minute < 10 ? "0" : "")\(minute):\(second < 10 ? "0" : "")\(second) "
          + "does not exist")
    }
    // Checked before the arithmetic: a pattern's year field may hold any number of digits.
    guard (0...9999).contains(year), abs(offsetSeconds) < 1_000_000 else {
      return .impossible(rangeReason)
    }
    let seconds =
      days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60
      + second - offsetSeconds
    return outcome(seconds: Double(seconds) + fraction)
  }

  /// The UTC fields of a date.
  typealias Fields = _CivilTime.Fields

  /// Splits a date into UTC fields, rounding the fraction of its second to whole
  /// `unitsPerSecond` (a power of ten up to a million).
  ///
  /// - Throws: ``ConversionFailure/notRepresentable(_:reason:)`` when the date, rounded, is
  ///   outside ``supportedSeconds`` (NaN and infinite intervals included).
  static func fields(of date: Date, unitsPerSecond: Int = 1_000_000) throws -> Fields {
    guard
      let fields = _CivilTime.fields(
        interval: date.timeIntervalSince1970, unitsPerSecond: unitsPerSecond)
    else { throw outOfRange(date) }
    return fields
  }

  static func pad(_ value: Int, _ width: Int) -> String {
    _CivilTime.pad(value, width)
  }
}

/// A hand-written ISO 8601 / RFC 3339 reader and writer (no `DateFormatter`).
enum ISO8601 {
  static func parse(_ bytes: [UInt8]) -> DateFormat.ParseOutcome {
    var reader = DigitReader(bytes)
    guard let year = reader.digits(exactly: 4), reader.expect("-"),
      let month = reader.digits(exactly: 2), reader.expect("-"),
      let day = reader.digits(exactly: 2)
    else { return .noMatch }
    var hour = 0
    var minute = 0
    var second = 0
    var fraction = 0.0
    var offset = 0
    if !reader.atEnd {
      guard reader.expect("T") || reader.expect("t") || reader.expect(" "),
        let parsedHour = reader.digits(exactly: 2), reader.expect(":"),
        let parsedMinute = reader.digits(exactly: 2)
      else { return .noMatch }
      hour = parsedHour
      minute = parsedMinute
      if reader.expect(":") {
        guard let parsedSecond = reader.digits(exactly: 2) else { return .noMatch }
        second = parsedSecond
        if reader.expect(".") || reader.expect(",") {
          guard let parsedFraction = reader.fraction() else { return .noMatch }
          fraction = parsedFraction
        }
      }
      if reader.expect("Z") || reader.expect("z") {
        offset = 0
      } else if let sign = reader.sign() {
        guard let offsetHours = reader.digits(exactly: 2) else { return .noMatch }
        var offsetMinutes = 0
        if reader.expect(":") {
          guard let parsed = reader.digits(exactly: 2) else { return .noMatch }
          offsetMinutes = parsed
        } else if let parsed = reader.digits(exactly: 2) {
          offsetMinutes = parsed
        }
        guard offsetHours <= 23, offsetMinutes <= 59 else {
          return .impossible("zone offset \(offsetHours):\(offsetMinutes) does not exist")
        }
        offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
      }
    }
    guard reader.atEnd else { return .noMatch }
    return Civil.make(
      year: year, month: month, day: day, hour: hour, minute: minute, second: second,
      fraction: fraction, offsetSeconds: offset)
  }

  /// `2011-07-07T04:35:28Z`, with `.123` or `.123456` when the date, rounded to
  /// `unitsPerSecond`, has a fraction of a second.
  ///
  /// - Throws: ``ConversionFailure/notRepresentable(_:reason:)`` for a date outside the years
  ///   0000 through 9999.
  static func format(_ date: Date, unitsPerSecond: Int = 1_000_000) throws -> String {
    _CivilTime.iso8601(try Civil.fields(of: date, unitsPerSecond: unitsPerSecond))
  }
}

/// Reads digits and punctuation from the front of a byte array.
struct DigitReader {
  let bytes: [UInt8]
  var position = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  var atEnd: Bool { position == bytes.count }

  mutating func expect(_ character: Unicode.Scalar) -> Bool {
    guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
    position += 1
    return true
  }

  mutating func digits(exactly count: Int) -> Int? {
    digits(min: count, max: count)
  }

  /// Between `min` and `max` digits as a number; a value past 10^17 stays there (it is out of
  /// range for every date field, and cannot overflow).
  mutating func digits(min: Int, max: Int) -> Int? {
    var value = 0
    var taken = 0
    while taken < max, position < bytes.count, bytes[position] >= UInt8(ascii: "0"),
      bytes[position] <= UInt8(ascii: "9")
    {
      if value < 100_000_000_000_000_000 {
        value = value * 10 + Int(bytes[position] - UInt8(ascii: "0"))
      }
      position += 1
      taken += 1
    }
    guard taken >= min else {
      position -= taken
      return nil
    }
    return value
  }

  /// Fraction digits after the point (`min` to `max`, at least one) as a value in [0, 1).
  mutating func fraction(min: Int = 1, max: Int = .max) -> Double? {
    let start = position
    var digits = 0
    var value = 0.0
    var scale = 1.0
    while digits < max, position < bytes.count, bytes[position] >= UInt8(ascii: "0"),
      bytes[position] <= UInt8(ascii: "9")
    {
      if digits < 9 {
        scale /= 10
        value += Double(bytes[position] - UInt8(ascii: "0")) * scale
      }
      digits += 1
      position += 1
    }
    guard digits >= Swift.max(min, 1) else {
      position = start
      return nil
    }
    return value
  }

  /// `+1` or `-1` for a sign character.
  mutating func sign() -> Int? {
    if expect("+") { return 1 }
    if expect("-") { return -1 }
    return nil
  }

  /// Matches one of `words` (case-insensitively, longest first); its index.
  mutating func word(from words: [String]) -> Int? {
    let rest = bytes[position...]
    var best: (index: Int, length: Int)?
    for (index, word) in words.enumerated() {
      let utf8 = Array(word.utf8)
      guard rest.count >= utf8.count else { continue }
      let candidate = rest.prefix(utf8.count)
      if zip(candidate, utf8).allSatisfy({ asciiLowercased($0) == asciiLowercased($1) }),
        utf8.count > (best?.length ?? 0)
      {
        best = (index, utf8.count)
      }
    }
    guard let best else { return nil }
    position += best.length
    return best.index
  }
}

private func asciiLowercased(_ byte: UInt8) -> UInt8 {
  byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
}
