import Foundation

/// UTC calendar arithmetic shared by the date formats of the mapping layer and the Foundation
/// bridge's `NSDate` writer: days to civil dates and back (Howard Hinnant's algorithms), and the
/// ISO 8601 text of a date, without `Calendar` or `DateFormatter`.
package enum _CivilTime {
  /// 0000-01-01T00:00:00Z up to 10000-01-01T00:00:00Z (excluded), in seconds since 1970: the
  /// dates a four-digit year can write.
  package static let supportedSeconds: Range<Double> = -62_167_219_200..<253_402_300_800

  /// The UTC fields of a date, with the fraction of its second in microseconds.
  package struct Fields {
    package var year: Int
    package var month: Int
    package var day: Int
    package var hour: Int
    package var minute: Int
    package var second: Int
    /// The fraction of the second in microseconds, rounded to the `unitsPerSecond` asked for.
    package var fraction: Int
    /// Days since 1970-01-01.
    package var days: Int
  }

  /// Splits seconds since 1970 into UTC fields, rounding the fraction of the second to whole
  /// `unitsPerSecond` (a power of ten up to a million); `nil` when the date, rounded, is outside
  /// ``supportedSeconds`` (NaN and infinities included).
  package static func fields(interval: Double, unitsPerSecond: Int = 1_000_000) -> Fields? {
    guard supportedSeconds.contains(interval) else { return nil }
    let whole = interval.rounded(.down)
    // In range, so both conversions are exact and cannot trap.
    var seconds = Int(whole)
    var fraction = Int(((interval - whole) * Double(unitsPerSecond)).rounded())
    if fraction >= unitsPerSecond {
      fraction -= unitsPerSecond
      seconds += 1
    }
    guard Double(seconds) < supportedSeconds.upperBound else { return nil }
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let secondOfDay = seconds - days * 86_400
    let (year, month, day) = civilDate(days: days)
    return Fields(
      year: year, month: month, day: day, hour: secondOfDay / 3600,
      minute: secondOfDay / 60 % 60, second: secondOfDay % 60,
      fraction: fraction * (1_000_000 / unitsPerSecond), days: days)
  }

  /// The date for a day count from 1970-01-01.
  package static func civilDate(days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// `2011-07-07T04:35:28Z`, with `.123` or `.123456` when the second has a fraction.
  package static func iso8601(_ f: Fields) -> String {
    pad(f.year, 4) + "-" + pad(f.month, 2) + "-" + pad(f.day, 2) + "T" + pad(f.hour, 2) + ":"
      + pad(f.minute, 2) + ":" + pad(f.second, 2) + fractionText(micros: f.fraction) + "Z"
  }

  /// `.123`, `.123456`, or empty for a whole second, from microseconds.
  package static func fractionText(micros: Int) -> String {
    guard micros > 0 else { return "" }
    if micros % 1000 == 0 { return "." + pad(micros / 1000, 3) }
    return "." + pad(micros, 6)
  }

  /// `value` in decimal, zero-padded to `width` digits (a minus sign before the digits).
  package static func pad(_ value: Int, _ width: Int) -> String {
    let text = String(abs(value))
    let padded =
      text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    return value < 0 ? "-" + padded : padded
  }
}
