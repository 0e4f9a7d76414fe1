import Foundation
import Testing

@testable import ObjectMapping

/// Dates outside the years 0000 through 9999 (what a four-digit ISO 8601 year can hold) are
/// conversion errors when read and serialization errors when written; nothing traps.
@Suite struct DateRangeTests {
  struct Event: Equatable {
    var at: Date?
  }

  static let mapping = Mapping(Event.init) { Attribute("at", \.at) }
  static let range = "outside the years 0000 through 9999"

  /// 0000-01-01T00:00:00Z and the first second after 9999-12-31T23:59:59Z.
  static let first = -62_167_219_200.0
  static let end = 253_402_300_800.0

  private func written(
    _ date: Date, formats: [DateFormat] = [.iso8601]
  ) -> [String] {
    let mapping = Self.mapping.dateFormats(formats)
    do {
      return [String(decoding: try mapping.serialize(Event(at: date)), as: UTF8.self)]
    } catch {
      return error.errors.map(\.description)
    }
  }

  // MARK: Reading

  @Test(arguments: [
    "1e300", "-1e300", "9.3e18", "-9.3e18", "12345678901234567890", "-12345678901234567890",
    "253402300800", "-62167219201", "1e999999999999",
  ])
  func epochNumbersOutsideTheRangeAreErrors(number: String) {
    #expect(
      errorLines { try Self.mapping.map(#"{"at": \#(number)}"#) } == [
        "/at: cannot convert \(number) to a date: \(Self.range)"
      ])
    #expect(
      errorLines { try Self.mapping.map(#"{"at": "\#(number)"}"#) } == [
        "/at: cannot convert \"\(number)\" to a date: \(Self.range)"
      ])
  }

  @Test func epochNumbersAtTheEdgesRead() throws {
    #expect(
      try Self.mapping.map(#"{"at": 253402300799}"#).at
        == Date(timeIntervalSince1970: Self.end - 1))
    #expect(
      try Self.mapping.map(#"{"at": -62167219200}"#).at
        == Date(timeIntervalSince1970: Self.first))
    let millis = Self.mapping.dateFormats([.epochMilliseconds])
    #expect(
      try millis.map(#"{"at": 253402300799999}"#).at
        == Date(timeIntervalSince1970: 253_402_300_799.999))
    #expect(
      try millis.map(#"{"at": -62167219200000}"#).at == Date(timeIntervalSince1970: Self.first))
    #expect(
      errorLines { try millis.map(#"{"at": 253402300800000}"#) } == [
        "/at: cannot convert 253402300800000 to a date: \(Self.range)"
      ])
    #expect(
      errorLines { try millis.map(#"{"at": -62167219200001}"#) } == [
        "/at: cannot convert -62167219200001 to a date: \(Self.range)"
      ])
    #expect(
      errorLines { try millis.map(#"{"at": 1e300}"#) } == [
        "/at: cannot convert 1e300 to a date: \(Self.range)"
      ])
  }

  @Test func iso8601AtTheEdges() throws {
    #expect(
      try Self.mapping.map(#"{"at": "0000-01-01T00:00:00Z"}"#).at
        == Date(timeIntervalSince1970: Self.first))
    #expect(
      try Self.mapping.map(#"{"at": "9999-12-31T23:59:59Z"}"#).at
        == Date(timeIntervalSince1970: Self.end - 1))
    #expect(
      try Self.mapping.map(#"{"at": "9999-12-31T23:59:59.5Z"}"#).at
        == Date(timeIntervalSince1970: Self.end - 0.5))
    for text in ["0000-01-01T00:30:00+01:00", "9999-12-31T23:30:00-01:00"] {
      #expect(
        errorLines { try Self.mapping.map(#"{"at": "\#(text)"}"#) } == [
          "/at: cannot convert \"\(text)\" to a date: \(Self.range)"
        ])
    }
  }

  @Test func patternsAtTheEdges() throws {
    let fiveDigitYears = Self.mapping.dateFormats([.pattern("yyyyy-MM-dd")])
    #expect(try fiveDigitYears.map(#"{"at": "09999-12-31"}"#).at == utc(9999, 12, 31))
    #expect(
      errorLines { try fiveDigitYears.map(#"{"at": "10000-01-01"}"#) } == [
        #"/at: cannot convert "10000-01-01" to a date: \#(Self.range)"#
      ])
    let longYears = Self.mapping.dateFormats([.pattern(String(repeating: "y", count: 24))])
    let nines = String(repeating: "9", count: 24)
    #expect(
      errorLines { try longYears.map(#"{"at": "\#(nines)"}"#) } == [
        #"/at: cannot convert "\#(nines)" to a date: \#(Self.range)"#
      ])
    let longFraction = Self.mapping.dateFormats([
      .pattern("yyyy-MM-dd HH:mm:ss." + String(repeating: "S", count: 24))
    ])
    let event = try longFraction.map(
      #"{"at": "2011-07-07 04:35:28.\#(String(repeating: "9", count: 24))"}"#)
    let at = try #require(event.at)
    #expect(abs(at.timeIntervalSince1970 - 1_310_013_328.999_999_999) < 0.000_001)
    #expect(
      try ValueTransform<String, Date>.date(format: "yyyy-MM-dd").forward("0000-01-01")
        == Date(timeIntervalSince1970: Self.first))
    #expect(throws: ConversionFailure.self) {
      try ValueTransform<String, Date>.date(format: "yyyyy").forward("99999")
    }
  }

  @Test func epochTransformsCheckTheRange() throws {
    #expect(
      throws: ConversionFailure.invalidValue(expected: "a date", raw: "1e+300", reason: Self.range)
    ) {
      try ValueTransform<Double, Date>.epochSeconds.forward(1e300)
    }
    #expect(
      throws: ConversionFailure.invalidValue(
        expected: "a date", raw: "253402300800000.0", reason: Self.range)
    ) {
      try ValueTransform<Double, Date>.epochMilliseconds.forward(253_402_300_800_000)
    }
    #expect(
      throws: ConversionFailure.notRepresentable(
        "Date(timeIntervalSince1970: inf)", reason: Self.range)
    ) {
      try ValueTransform<Double, Date>.epochSeconds.reverse(
        Date(timeIntervalSince1970: .infinity))
    }
    #expect(
      try ValueTransform<Double, Date>.epochMilliseconds.reverse(
        Date(timeIntervalSince1970: Self.first)) == Self.first * 1000)
  }

  // MARK: Writing

  @Test(arguments: [
    Double.infinity, -.infinity, .nan, 1e300, -1e300, 9.3e18, -9.3e18, 253_402_300_800,
    -62_167_219_201,
  ])
  func writersNeverTrap(seconds: Double) {
    let date = Date(timeIntervalSince1970: seconds)
    let line = "/at: cannot serialize: Date(timeIntervalSince1970: \(seconds)): \(Self.range)"
    for formats: [DateFormat] in [
      [.iso8601], [.epochSeconds], [.epochMilliseconds], [.pattern("EEE d MMM yyyy HH:mm:ss.SSS")],
    ] {
      #expect(written(date, formats: formats) == [line], "\(formats)")
    }
    #expect(
      throws: ConversionFailure.notRepresentable(
        "Date(timeIntervalSince1970: \(seconds))", reason: Self.range)
    ) {
      try date.payloadNode()
    }
    #expect(throws: ConversionFailure.self) {
      try ValueTransform<String, Date>.iso8601.reverse(date)
    }
    #expect(throws: ConversionFailure.self) {
      try ValueTransform<String, Date>.date(format: "yyyy").reverse(date)
    }
  }

  @Test func writersAtTheEdges() {
    #expect(
      written(Date(timeIntervalSince1970: Self.end - 0.5))
        == [#"{"at":"9999-12-31T23:59:59.500Z"}"#])
    #expect(
      written(Date(timeIntervalSince1970: Self.end - 1)) == [#"{"at":"9999-12-31T23:59:59Z"}"#])
    #expect(
      written(Date(timeIntervalSince1970: Self.end - 1), formats: [.epochSeconds])
        == [#"{"at":253402300799}"#])
    #expect(
      written(Date(timeIntervalSince1970: Self.first)) == [#"{"at":"0000-01-01T00:00:00Z"}"#])
    #expect(
      written(Date(timeIntervalSince1970: Self.first), formats: [.epochMilliseconds])
        == [#"{"at":-62167219200000}"#])
    #expect(written(.distantFuture) == [#"{"at":"4001-01-01T00:00:00Z"}"#])
    #expect(written(.distantPast) == [#"{"at":"0000-12-30T00:00:00Z"}"#])
    #expect(
      written(.distantPast, formats: [.pattern("EEEE d MMMM yyyy")])
        == [#"{"at":"Saturday 30 December 0000"}"#])
    #expect(
      written(
        Date(timeIntervalSince1970: 1_310_013_328.123_456),
        formats: [.pattern("HH:mm:ss.S SS SSSSSS " + String(repeating: "S", count: 24))])
        == [#"{"at":"04:35:28.1 12 123456 123456000000000000000000"}"#])
  }

  @Test func distantPastAndFutureRoundTrip() throws {
    for date in [Date.distantPast, .distantFuture] {
      let data = try Self.mapping.serialize(Event(at: date))
      #expect(try Self.mapping.map(data).at == date)
    }
  }
}
