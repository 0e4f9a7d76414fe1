import Foundation

/// The `.iso8601` date strategy of the coders, exactly as `JSONDecoder` and `JSONEncoder` apply
/// it (`Date.ISO8601FormatStyle`): dates are written in UTC to the second, the fraction cut off
/// (0.5 s after the epoch is `1970-01-01T00:00:00Z`, −1.25 s is `1969-12-31T23:59:58Z`), and
/// read with a time zone, a `T` and the extended format.
///
/// The common forms are handled here without Foundation (`2023-11-14T22:13:20Z`, with `Z` or a
/// `±hh:mm` offset, a valid Gregorian date and time from 1583 to 9999): those give what
/// Foundation gives by construction (whole seconds, exact). Every other text, and every date
/// outside those years (Foundation's calendar is Julian before October 1582), goes to
/// `Date.ISO8601FormatStyle` itself, so what is accepted and what it reads as is Foundation's
/// decision.
enum ISO8601Coding {
  /// The date `text` stands for, or `nil` when `JSONDecoder` would refuse it.
  static func date(from text: String) -> Date? {
    var text = text
    text.makeContiguousUTF8()
    if let seconds = commonForm(text.utf8.span) {
      return Date(timeIntervalSince1970: Double(seconds))
    }
    return try? Date.ISO8601FormatStyle().parse(text)
  }

  /// `date` as `JSONEncoder` writes it.
  static func string(from date: Date) -> String {
    let interval = date.timeIntervalSince1970
    // Years 1583 through 9999.
    guard interval >= -12_212_553_600, interval < 253_402_300_800 else {
      return date.formatted(.iso8601)
    }
    let seconds = Int64(interval.rounded(.down))
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let secondOfDay = Int(seconds - days * 86_400)
    let (year, month, day) = civilDate(daysSinceEpoch: days)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(20)
    func append(_ value: Int, digits: Int) {
      var divisor = 1
      for _ in 1..<digits { divisor *= 10 }
      var remaining = value
      while divisor > 0 {
        bytes.append(UInt8(ascii: "0") + UInt8(remaining / divisor))
        remaining %= divisor
        divisor /= 10
      }
    }
    append(year, digits: 4)
    bytes.append(UInt8(ascii: "-"))
    append(month, digits: 2)
    bytes.append(UInt8(ascii: "-"))
    append(day, digits: 2)
    bytes.append(UInt8(ascii: "T"))
    append(secondOfDay / 3600, digits: 2)
    bytes.append(UInt8(ascii: ":"))
    append(secondOfDay / 60 % 60, digits: 2)
    bytes.append(UInt8(ascii: ":"))
    append(secondOfDay % 60, digits: 2)
    bytes.append(UInt8(ascii: "Z"))
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Seconds since 1970 for `yyyy-MM-ddTHH:mm:ssZ` or `yyyy-MM-ddTHH:mm:ss±hh:mm` with a valid
  /// date and time (`nil` for anything else, left to Foundation).
  private static func commonForm(_ bytes: Span<UInt8>) -> Int64? {
    guard bytes.count == 20 || bytes.count == 25 else { return nil }
    func number(_ start: Int, _ count: Int) -> Int? { digits(bytes, start, count) }
    guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
      bytes[16] == UInt8(ascii: ":"),
      let year = number(0, 4), year >= 1583, let month = number(5, 2), (1...12).contains(month),
      let day = number(8, 2), day >= 1, day <= daysIn(month: month, year: year),
      let hour = number(11, 2), hour < 24, let minute = number(14, 2), minute < 60,
      let second = number(17, 2), second < 60
    else { return nil }
    var offset = 0
    if bytes.count == 20 {
      guard bytes[19] == UInt8(ascii: "Z") else { return nil }
    } else {
      let sign = bytes[19]
      guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"), bytes[22] == UInt8(ascii: ":"),
        let hours = number(20, 2), hours < 24, let minutes = number(23, 2), minutes < 60
      else { return nil }
      offset = (hours * 60 + minutes) * 60 * (sign == UInt8(ascii: "-") ? -1 : 1)
    }
    let days = daysSinceEpoch(year: year, month: month, day: day)
    return days * 86_400 + Int64(hour * 3600 + minute * 60 + second - offset)
  }

  /// The decimal number in `bytes[start..<start + count]`; `nil` unless all are digits.
  private static func digits(_ bytes: Span<UInt8>, _ start: Int, _ count: Int) -> Int? {
    var value = 0
    for offset in start..<start + count {
      let digit = Int(bytes[offset]) - 0x30
      guard digit >= 0 && digit <= 9 else { return nil }
      value = value * 10 + digit
    }
    return value
  }

  private static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's
  /// `days_from_civil`).
  private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int64 {
    let shifted = Int64(month <= 2 ? year - 1 : year)
    let era = (shifted >= 0 ? shifted : shifted - 399) / 400
    let yearOfEra = shifted - era * 400
    let dayOfYear = Int64((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1)
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The date of the proleptic Gregorian calendar `days` after 1970-01-01 (`civil_from_days`).
  private static func civilDate(daysSinceEpoch days: Int64) -> (year: Int, month: Int, day: Int) {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
    let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
    let year = Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }
}
