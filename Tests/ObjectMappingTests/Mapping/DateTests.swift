import Foundation
import Testing

@testable import ObjectMapping

@Suite struct DateTests {
  struct Event: Equatable {
    var at: Date?
  }

  static let mapping = Mapping(Event.init) { Attribute("at", \.at) }

  @Test(arguments: [
    ("2011-07-07T04:35:28Z", 1_310_013_328.0),
    ("2011-07-07T06:35:28+02:00", 1_310_013_328.0),
    ("2011-07-07T00:35:28-0400", 1_310_013_328.0),
    ("2011-07-07T04:35:28", 1_310_013_328.0),
    ("2011-07-07 04:35:28", 1_310_013_328.0),
    ("2011-07-07T04:35:28.123Z", 1_310_013_328.123),
    ("2011-07-07T04:35Z", 1_310_013_300.0),
    ("2011-07-07", 1_309_996_800.0),
  ])
  func iso8601Variants(text: String, seconds: Double) throws {
    let event = try Self.mapping.map(#"{"at": "\#(text)"}"#)
    let at = try #require(event.at)
    #expect(abs(at.timeIntervalSince1970 - seconds) < 0.000_5)
  }

  @Test func epochSecondsByDefaultMillisecondsOnlyWhenAsked() throws {
    #expect(
      try Self.mapping.map(#"{"at": 1310013328}"#).at == Date(timeIntervalSince1970: 1_310_013_328))
    #expect(
      try Self.mapping.map(#"{"at": "1310013328.5"}"#).at
        == Date(timeIntervalSince1970: 1_310_013_328.5))
    let millis = Self.mapping.dateFormats([.epochMilliseconds])
    #expect(
      try millis.map(#"{"at": 1386786787000}"#).at == Date(timeIntervalSince1970: 1_386_786_787))
  }

  @Test func formatsAreTriedInOrder() throws {
    let european = Self.mapping.dateFormats([.pattern("dd/MM/yyyy"), .iso8601])
    #expect(try european.map(#"{"at": "01/03/2012"}"#).at == utc(2012, 3, 1))
    #expect(try european.map(#"{"at": "2012-03-01T00:00:00Z"}"#).at == utc(2012, 3, 1))
    let american = Self.mapping.dateFormats([.pattern("MM/dd/yyyy")])
    #expect(try american.map(#"{"at": "01/03/2012"}"#).at == utc(2012, 1, 3))
    let perAttribute = Mapping(Event.init) {
      Attribute("at", \.at).dateFormats([.pattern("d MMM yyyy HH:mm")])
    }
    #expect(try perAttribute.map(#"{"at": "7 Jul 2011 04:35"}"#).at == utc(2011, 7, 7, 4, 35))
  }

  @Test func impossibleDatesAreErrors() {
    #expect(
      errorLines { try Self.mapping.map(#"{"at": "2021-02-29T00:00:00Z"}"#) } == [
        #"/at: cannot convert "2021-02-29T00:00:00Z" to a date: February 29, 2021 does not exist"#
      ])
    #expect(
      errorLines { try Self.mapping.map(#"{"at": "2021-13-01"}"#) } == [
        #"/at: cannot convert "2021-13-01" to a date: month 13 does not exist"#
      ])
    #expect(
      errorLines { try Self.mapping.map(#"{"at": "yesterday"}"#) } == [
        #"/at: cannot convert "yesterday" to a date: expected ISO 8601, epoch seconds"#
      ])
  }

  /// A `z` zone field (CSMapper's README reads `2013-11-01T07:20:20-07:00` with
  /// `yyyy-MM-dd'T'HH:mm:sszzzz`): before, a pattern with `z` never matched.
  @Test(arguments: [
    ("2013-11-01T07:20:20-07:00", 1_383_315_620.0), ("2013-11-01T07:20:20-0700", 1_383_315_620.0),
    ("2013-11-01T14:20:20GMT", 1_383_315_620.0), ("2013-11-01T07:20:20GMT-7", 1_383_315_620.0),
    ("2013-11-01T07:20:20GMT-07:00", 1_383_315_620.0), ("2013-11-01T07:20:20PDT", 1_383_315_620.0),
    ("2013-11-01T14:20:20UTC", 1_383_315_620.0), ("2013-11-01T10:20:20edt", 1_383_315_620.0),
    ("2013-11-01T19:50:20+05:30", 1_383_315_620.0),
  ])
  func zoneNamesAndOffsetsReadWithZ(text: String, seconds: Double) throws {
    let mapping = Self.mapping.dateFormats([.pattern("yyyy-MM-dd'T'HH:mm:sszzzz")])
    let event = try mapping.map(#"{"at": "\#(text)"}"#)
    #expect(event.at?.timeIntervalSince1970 == seconds)
    let transform = ValueTransform<String, Date>.date(format: "yyyy-MM-dd'T'HH:mm:sszzzz")
    #expect(try transform.forward(text).timeIntervalSince1970 == seconds)
  }

  @Test func aZoneFieldRejectsWhatIsNoZoneAndWritesGMT() throws {
    let pattern = DateFormat.pattern("yyyy-MM-dd HH:mm z")
    let mapping = Self.mapping.dateFormats([pattern])
    for text in ["2013-11-01 07:20 XYZ", "2013-11-01 07:20 +25:00", "2013-11-01 07:20 "] {
      #expect(throws: MappingErrors.self) { try mapping.map(#"{"at": "\#(text)"}"#) }
    }
    let written = try pattern.format(Date(timeIntervalSince1970: 1_383_315_600))
    #expect(written == "2013-11-01 14:20 GMT")
    let back = try mapping.map(#"{"at": "2013-11-01 14:20 GMT"}"#)
    #expect(back.at?.timeIntervalSince1970 == 1_383_315_600)
  }

  @Test func datesWriteInTheFirstFormat() throws {
    #expect(
      try Date(timeIntervalSince1970: 1_310_013_328).payloadNode()
        == .string("2011-07-07T04:35:28Z"))
    #expect(
      try Date(timeIntervalSince1970: 1_310_013_328.123).payloadNode()
        == .string("2011-07-07T04:35:28.123Z"))
    let transform = ValueTransform<String, Date>.date(format: "M/d/yyyy")
    #expect(try transform.reverse(utc(2012, 3, 1)) == "3/1/2012")
    #expect(try transform.forward("3/1/2012") == utc(2012, 3, 1))
    #expect(
      try DateFormat.pattern("EEE, dd MMM yyyy HH:mm:ss Z").format(utc(2011, 7, 7, 4, 35, 28))
        == .string("Thu, 07 Jul 2011 04:35:28 +0000"))
  }
}
