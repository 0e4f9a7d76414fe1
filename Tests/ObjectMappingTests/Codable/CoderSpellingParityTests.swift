import Foundation
import ObjectMapping
import Testing

/// Found by running swift-foundation's `JSONEncoderTests.swift` with the names renamed to the
/// Fast coders: code written for `JSONEncoder`/`JSONDecoder` names their nested types through
/// the class (`JSONEncoder.OutputFormatting`), so the renamed code must find them on ours; and
/// a date written as seconds or milliseconds that is not finite is an error whatever the
/// non-conforming float strategy, as `JSONEncoder` throws it.
@Suite("FastJSON coders: JSONEncoder's spellings and date numbers")
struct CoderSpellingParityTests {
  /// Compiles only while the nested names exist; each is the very type `JSONEncoder`'s is.
  @Test func theNestedTypeNamesOfJSONEncoderAndJSONDecoderAreTheSameTypes() throws {
    let formatting: FastJSONEncoder.OutputFormatting = [.sortedKeys, .prettyPrinted]
    let keys: FastJSONEncoder.KeyEncodingStrategy = .convertToSnakeCase
    let dates: FastJSONEncoder.DateEncodingStrategy = .secondsSince1970
    let data: FastJSONEncoder.DataEncodingStrategy = .base64
    let floats: FastJSONEncoder.NonConformingFloatEncodingStrategy = .throw
    let encoder = FastJSONEncoder()
    encoder.outputFormatting = formatting
    encoder.keyEncodingStrategy = keys
    encoder.dateEncodingStrategy = dates
    encoder.dataEncodingStrategy = data
    encoder.nonConformingFloatEncodingStrategy = floats
    let foundation = JSONEncoder()
    foundation.outputFormatting = formatting
    foundation.keyEncodingStrategy = keys
    foundation.dateEncodingStrategy = dates
    let value = ["someKey": Date(timeIntervalSince1970: 10)]
    #expect(try encoder.encode(value) == (try foundation.encode(value)))

    let decodingKeys: FastJSONDecoder.KeyDecodingStrategy = .convertFromSnakeCase
    let decodingDates: FastJSONDecoder.DateDecodingStrategy = .secondsSince1970
    let decodingData: FastJSONDecoder.DataDecodingStrategy = .base64
    let decodingFloats: FastJSONDecoder.NonConformingFloatDecodingStrategy = .throw
    let decoder = FastJSONDecoder()
    decoder.keyDecodingStrategy = decodingKeys
    decoder.dateDecodingStrategy = decodingDates
    decoder.dataDecodingStrategy = decodingData
    decoder.nonConformingFloatDecodingStrategy = decodingFloats
    let reference = JSONDecoder()
    reference.keyDecodingStrategy = decodingKeys
    reference.dateDecodingStrategy = decodingDates
    struct Stamped: Codable, Equatable { var someKey: Date }
    let json = Data(#"{"some_key": 10}"#.utf8)
    let decoded = try decoder.decode(Stamped.self, from: json)
    #expect(decoded == Stamped(someKey: Date(timeIntervalSince1970: 10)))
    #expect(decoded == (try reference.decode(Stamped.self, from: json)))
    // A dictionary's keys are its own, not coding keys: neither converts them.
    #expect(
      try decoder.decode([String: Date].self, from: json)
        == (try reference.decode([String: Date].self, from: json)))
  }

  static let infinities: [Date] = [
    Date(timeIntervalSince1970: .infinity), Date(timeIntervalSince1970: -.infinity),
  ]

  @Test(arguments: [
    JSONEncoder.DateEncodingStrategy.secondsSince1970, .millisecondsSince1970,
  ])
  func aDateNumberThatIsNotFiniteIsAnErrorAsJSONEncoderThrows(
    strategy: JSONEncoder.DateEncodingStrategy
  ) throws {
    for date in Self.infinities {
      let value = ["k": date]
      let ours = FastJSONEncoder()
      let theirs = JSONEncoder()
      for encoder in [ours] { encoder.dateEncodingStrategy = strategy }
      theirs.dateEncodingStrategy = strategy
      let convert = JSONEncoder.NonConformingFloatEncodingStrategy.convertToString(
        positiveInfinity: "INF", negativeInfinity: "-INF", nan: "NaN")
      ours.nonConformingFloatEncodingStrategy = convert
      theirs.nonConformingFloatEncodingStrategy = convert
      func failure(_ body: () throws -> Data) -> String {
        do {
          return "wrote \(String(decoding: try body(), as: UTF8.self))"
        } catch EncodingError.invalidValue(let value, let context) {
          let path = context.codingPath.map(\.stringValue)
          return "invalidValue \(value) \(path) \(context.debugDescription)"
        } catch {
          return "\(error)"
        }
      }
      let expected = failure { try theirs.encode(value) }
      #expect(expected.hasPrefix("invalidValue"))
      #expect(failure { try ours.encode(value) } == expected)
    }
    // `.deferredToDate` writes the date's number through the float strategy, in both.
    let ours = FastJSONEncoder()
    let theirs = JSONEncoder()
    let convert = JSONEncoder.NonConformingFloatEncodingStrategy.convertToString(
      positiveInfinity: "INF", negativeInfinity: "-INF", nan: "NaN")
    ours.nonConformingFloatEncodingStrategy = convert
    theirs.nonConformingFloatEncodingStrategy = convert
    let deferred = [Date(timeIntervalSinceReferenceDate: .infinity)]
    #expect(try ours.encode(deferred) == (try theirs.encode(deferred)))
  }
}
