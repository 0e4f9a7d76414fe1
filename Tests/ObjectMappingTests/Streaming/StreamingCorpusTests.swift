import Foundation
import ObjectMapping
import ObjectMappingTestSupport
import Testing

/// The corpora streamed in chunks of many sizes give the elements mapping (or decoding) the
/// whole payload gives: twitter's statuses under a key path, citm's performances, canada's
/// features (numbers split everywhere). Big payloads sample the chunk sizes: every size from 1
/// to 64 for a slice of each, a selection for the whole.
@Suite(.enabled(if: TestData.isAvailable)) struct StreamingCorpusTests {
  struct Feature: Equatable {
    var type = ""
    var name = ""
    var coordinates: [[[Double]]] = []

    static let mapping = Mapping(Feature.init) {
      Attribute("type", \.type)
      Attribute("properties.name", \.name)
      Attribute("geometry.coordinates", \.coordinates)
    }
  }

  /// The sizes every corpus is read in whole (a byte at a time only the smallest).
  static let sizes = [13, 1_021, 65_536, 1 << 22]

  /// Streams `bytes` with `mapping` in chunks of `size`.
  static func streamed<Object>(
    _ bytes: [UInt8], _ mapping: some MappingProtocol<Object>, at keyPath: String, size: Int
  ) async throws -> [Object] {
    var objects: [Object] = []
    for try await object in mapping.elements(
      of: ProbedChunks(bytes, size: size), as: .array(at: keyPath))
    {
      objects.append(object)
    }
    return objects
  }

  /// The first `count` elements of the array at `key`, as a payload of their own (with the
  /// text between them as it is in the corpus).
  static func slice(_ data: Data, key: String, count: Int) throws -> [UInt8] {
    let document = try Node(jsonData: data)
    guard case .array(let elements)? = document[key] else { return [] }
    let array = Node.array(Array(elements.prefix(count)))
    return Array(try Node.object([Node.Member(key, array)]).jsonData(options: [.prettyPrinted]))
  }

  @Test func twitterStatusesUnderAKeyPath() async throws {
    let data = try TestData.data("json-benchmark/twitter.json")
    let expected = try CorpusMappingTests.Search.mapping.map(data).statuses
    #expect(expected.count == 100)
    let bytes = Array(data)
    for size in [1] + Self.sizes {
      let statuses = try await Self.streamed(
        bytes, CorpusMappingTests.Status.mapping, at: "statuses", size: size)
      #expect(statuses == expected, "chunks of \(size)")
    }
    // Every size from 1 to 64 on the first three statuses (multi-byte text, escapes, numbers).
    let slice = try Self.slice(data, key: "statuses", count: 3)
    for size in 1...64 {
      let statuses = try await Self.streamed(
        slice, CorpusMappingTests.Status.mapping, at: "statuses", size: size)
      #expect(statuses == Array(expected.prefix(3)), "chunks of \(size)")
    }
  }

  @Test func citmPerformances() async throws {
    let data = try TestData.data("json-benchmark/citm_catalog.json")
    let expected = try CorpusMappingTests.Catalog.mapping.map(data).performances
    let bytes = Array(data)
    for size in Self.sizes {
      let performances = try await Self.streamed(
        bytes, CorpusMappingTests.Performance.mapping, at: "performances", size: size)
      #expect(performances == expected, "chunks of \(size)")
    }
    let slice = try Self.slice(data, key: "performances", count: 4)
    for size in 1...64 {
      let performances = try await Self.streamed(
        slice, CorpusMappingTests.Performance.mapping, at: "performances", size: size)
      #expect(performances == Array(expected.prefix(4)), "chunks of \(size)")
    }
  }

  @Test func canadaFeatures() async throws {
    let data = try TestData.data("json-benchmark/canada.json")
    let document = try Node(jsonData: data)
    let expected = try Feature.mapping.mapCollection(document["features"] ?? .null)
    let bytes = Array(data)
    for size in Self.sizes {
      let features = try await Self.streamed(bytes, Feature.mapping, at: "features", size: size)
      #expect(features == expected, "chunks of \(size)")
    }
  }

  // MARK: FastJSONDecoder against JSONDecoder

  @Test func decodedCorporaEqualJSONDecoderOnTheWholePayload() async throws {
    typealias Twitter = FastJSONDecoderTests.TwitterSearch
    let twitter = try TestData.data("json-benchmark/twitter.json")
    let foundation = JSONDecoder()
    foundation.keyDecodingStrategy = .convertFromSnakeCase
    let fast = FastJSONDecoder()
    fast.keyDecodingStrategy = .convertFromSnakeCase
    let expected = try foundation.decode(Twitter.self, from: twitter).statuses
    for size in [3, 4_096, 1 << 22] {
      var statuses: [Twitter.Status] = []
      for try await status in fast.elements(
        Twitter.Status.self, of: ProbedChunks(Array(twitter), size: size),
        as: .array(at: "statuses"))
      {
        statuses.append(status)
      }
      #expect(statuses == expected, "chunks of \(size)")
    }
    let citm = try TestData.data("json-benchmark/citm_catalog.json")
    typealias Catalog = FastJSONDecoderTests.Catalog
    let performances = try JSONDecoder().decode(Catalog.self, from: citm).performances
    let (streamed, error) = await collect(
      FastJSONDecoder().elements(
        Catalog.Performance.self, of: ProbedChunks(Array(citm), size: 777),
        as: .array(at: "performances")))
    #expect(error == nil)
    #expect(streamed == performances)
    let canada = try TestData.data("json-benchmark/canada.json")
    typealias Canada = FastJSONDecoderTests.Canada
    let features = try JSONDecoder().decode(Canada.self, from: canada).features
    let (decodedFeatures, featureError) = await collect(
      FastJSONDecoder().elements(
        Canada.Feature.self, of: ProbedChunks(Array(canada), size: 5_000),
        as: .array(at: "features")))
    #expect(featureError == nil)
    #expect(decodedFeatures == features)
  }
}
