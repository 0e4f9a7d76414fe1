import Benchmark
import Foundation
import ObjectMapping

#if OBJECT_MAPPING_PEERS && canImport(ExtrasJSON)
  import ExtrasJSON
#endif
#if OBJECT_MAPPING_PEERS && canImport(ObjectMapper)
  import ObjectMapper
#endif

/// Other Swift JSON libraries on the same corpora and models, beside ours, and the UTF-8 limit.
///
/// The peers are opt-in: they are compiled only when the benchmark package is built with
/// `OBJECT_MAPPING_PEERS` naming a folder that holds checkouts of both (see Package.swift), that
/// is where the `OBJECT_MAPPING_PEERS` condition is defined and `canImport(ExtrasJSON)` /
/// `canImport(ObjectMapper)`. Their rows share the `<Area>.<corpus>` of ours, so `table.py` puts
/// them in its peers and targets tables:
///
/// - swift-extras-json (`import ExtrasJSON`), a pure-Swift parser and Codable coders:
///   `Decode.<corpus>.XJSONDecoder` is `XJSONDecoder().decode(Model.self, from: bytes)` with the
///   Codable models of `Decode.<corpus>.JSONDecoder`; `Encode.<corpus>.XJSONEncoder` is
///   `XJSONEncoder().encode(model)` (to `[UInt8]`); `Parse.<corpus>.ExtrasJSON` is
///   `JSONParser().parse(bytes: bytes)` to its `JSONValue` tree. Its input is any collection of
///   bytes, but it copies anything that is not an `[UInt8]` into one first (`DocumentReader`), so
///   the corpus is converted to `[UInt8]` once in setup, as a user of the library would keep it.
/// - tristanhimmelman/ObjectMapper (`import ObjectMapper`), `Mappable` models
///   (ObjectMapperModels.swift): `Decode.<corpus>.ObjectMapper` is what its users do with the
///   `Data` of a response, `JSONSerialization.jsonObject(with: data)` and then
///   `Mapper<Model>().map(JSONObject:)` (`map(JSONString:)` would first need a `String` of the
///   bytes and then converts it back to `Data` for the same `JSONSerialization` call);
///   `Encode.<corpus>.ObjectMapper` is `Mapper<Model>().toJSON(model)` written by
///   `JSONSerialization.data(withJSONObject:)`, the `Data` of a request body (`toJSONString`
///   makes the same call and then a `String`).
///
/// Before measuring, each peer's setup checks its work against Foundation's and stops the run
/// with a message if they differ, as Decode.swift and Encode.swift do: a decode must give a model
/// equal to JSONDecoder's, an encode's output must read back (with JSONDecoder) as an equal model.
/// One exception: ObjectMapper's canada model is only checked to within 16 ulps per coordinate,
/// since Linux's `JSONSerialization` rounds decimal numbers inexactly (`canadaWithinULPs`).
///
/// `Limit.<corpus>.UTF8String` (always registered, no peer needed) is the floor every decoder
/// above sits on: one pass that validates the corpus bytes as UTF-8 into a `String`
/// (`String(validating: data, as: UTF8.self)`, one validation and one copy). `table.py` reports
/// its time as a share of our decode's.
func registerPeerBenchmarks() {
  for corpus in Corpus.allCases {
    registerUTF8Limit(corpus)
    registerScanFloor(corpus)
  }
  #if OBJECT_MAPPING_PEERS && canImport(ExtrasJSON)
    registerExtrasJSON(.twitter, TwitterSearch.self)
    registerExtrasJSON(.citmCatalog, CitmCatalog.self)
    registerExtrasJSON(.canada, CanadaFeatureCollection.self)
  #endif
  #if OBJECT_MAPPING_PEERS && canImport(ObjectMapper)
    registerObjectMapper(.twitter, TwitterSearch.self)
    registerObjectMapper(.citmCatalog, CitmCatalog.self)
    // Not equal, only within 16 ulps per coordinate: see `canadaWithinULPs`.
    registerObjectMapper(.canada, CanadaFeatureCollection.self, matches: canadaWithinULPs)
  #endif
}

// MARK: - The UTF-8 limit

private func registerUTF8Limit(_ corpus: Corpus) {
  Benchmark("Limit.\(corpus.name).UTF8String") { benchmark, data in
    for _ in benchmark.scaledIterations {
      blackHole(String(validating: data, as: UTF8.self))
    }
  } setup: {
    try utf8Corpus(corpus)
  }
}

/// `Limit.<corpus>.Scan` is the floor of `Decode.<corpus>.ObjectMapping` in our own code: the same
/// verb on the same bytes with a mapping whose one rule reads a key no corpus has (allowed to map
/// nothing), so the whole
/// document is validated and its tape written (as for every decode) and nothing is mapped.
/// `table.py` reports one UTF-8 pass's time as a share of it: the most the decode's share can
/// reach without a faster scan.
private func registerScanFloor(_ corpus: Corpus) {
  let mapping = Mapping(ScanFloor.init) { Attribute("objectMappingScanFloor", \.value) }
    .allowingUnmappableRepresentation()
  Benchmark("Limit.\(corpus.name).Scan") { benchmark, data in
    for _ in benchmark.scaledIterations {
      blackHole(try mapping.map(data))
    }
  } setup: { () throws -> Data in
    let data = try utf8Corpus(corpus)
    guard try mapping.map(data).value == nil else {
      stop("Limit.\(corpus.name).Scan: the corpus has the key meant to be missing")
    }
    return data
  }
}

/// The model of `Limit.<corpus>.Scan`: one property no corpus fills.
private struct ScanFloor: Sendable {
  var value: Int?
}

/// The corpus bytes, after checking that they are valid UTF-8.
private func utf8Corpus(_ corpus: Corpus) throws -> Data {
  let data = try corpus.data()
  guard String(validating: data, as: UTF8.self) != nil else {
    stop("Limit.\(corpus.name): the corpus is not valid UTF-8")
  }
  return data
}

// MARK: - swift-extras-json

#if OBJECT_MAPPING_PEERS && canImport(ExtrasJSON)
  private func registerExtrasJSON<Model: Codable & Equatable>(
    _ corpus: Corpus, _: Model.Type
  ) {
    Benchmark("Decode.\(corpus.name).XJSONDecoder") { benchmark, bytes in
      let decoder = XJSONDecoder()
      for _ in benchmark.scaledIterations {
        blackHole(try decoder.decode(Model.self, from: bytes))
      }
    } setup: {
      try extrasDecodeBytes(corpus, Model.self)
    }

    Benchmark("Encode.\(corpus.name).XJSONEncoder") { benchmark, model in
      let encoder = XJSONEncoder()
      for _ in benchmark.scaledIterations {
        blackHole(try encoder.encode(model))
      }
    } setup: {
      try extrasEncodeModel(corpus, Model.self)
    }

    Benchmark("Parse.\(corpus.name).ExtrasJSON") { benchmark, bytes in
      let parser = ExtrasJSON.JSONParser()
      for _ in benchmark.scaledIterations {
        blackHole(try parser.parse(bytes: bytes))
      }
    } setup: {
      try extrasParseBytes(corpus)
    }
  }

  /// The corpus as `[UInt8]`, after checking that XJSONDecoder and JSONDecoder make equal models.
  private func extrasDecodeBytes<Model: Decodable & Equatable>(_ corpus: Corpus, _: Model.Type)
    throws -> [UInt8]
  {
    let data = try corpus.data()
    let bytes = [UInt8](data)
    let peer = try XJSONDecoder().decode(Model.self, from: bytes)
    guard try peer == JSONDecoder().decode(Model.self, from: data) else {
      stop("Decode.\(corpus.name): XJSONDecoder and JSONDecoder models differ")
    }
    return bytes
  }

  /// The corpus model, after checking that XJSONEncoder's output reads back equal.
  private func extrasEncodeModel<Model: Codable & Equatable>(_ corpus: Corpus, _: Model.Type)
    throws -> Model
  {
    let model = try JSONDecoder().decode(Model.self, from: corpus.data())
    let bytes = try XJSONEncoder().encode(model)
    guard try JSONDecoder().decode(Model.self, from: Data(bytes)) == model else {
      stop("Encode.\(corpus.name): XJSONEncoder output reads back differently")
    }
    return model
  }

  /// The corpus as `[UInt8]`, after checking that ExtrasJSON reads it as an object.
  private func extrasParseBytes(_ corpus: Corpus) throws -> [UInt8] {
    let bytes = try [UInt8](corpus.data())
    guard case .object = try ExtrasJSON.JSONParser().parse(bytes: bytes) else {
      stop("Parse.\(corpus.name): ExtrasJSON did not read an object")
    }
    return bytes
  }
#endif

// MARK: - ObjectMapper

#if OBJECT_MAPPING_PEERS && canImport(ObjectMapper)
  private func registerObjectMapper<Model: Codable & Equatable & ObjectMapper.Mappable>(
    _ corpus: Corpus, _: Model.Type, matches: @escaping (Model, Model) -> Bool = { $0 == $1 }
  ) {
    Benchmark("Decode.\(corpus.name).ObjectMapper") { benchmark, data in
      let mapper = ObjectMapper.Mapper<Model>()
      for _ in benchmark.scaledIterations {
        blackHole(mapper.map(JSONObject: try JSONSerialization.jsonObject(with: data)))
      }
    } setup: {
      try objectMapperDecodeData(corpus, Model.self, matches: matches)
    }

    Benchmark("Encode.\(corpus.name).ObjectMapper") { benchmark, model in
      let mapper = ObjectMapper.Mapper<Model>()
      for _ in benchmark.scaledIterations {
        blackHole(try JSONSerialization.data(withJSONObject: mapper.toJSON(model)))
      }
    } setup: {
      try objectMapperEncodeModel(corpus, Model.self)
    }
  }

  /// The corpus bytes, after checking that ObjectMapper and JSONDecoder make equal models
  /// (`matches`: `==` but for canada).
  private func objectMapperDecodeData<Model: Decodable & Equatable & ObjectMapper.Mappable>(
    _ corpus: Corpus, _: Model.Type, matches: (Model, Model) -> Bool
  ) throws -> Data {
    let data = try corpus.data()
    let object = try JSONSerialization.jsonObject(with: data)
    guard let peer = ObjectMapper.Mapper<Model>().map(JSONObject: object) else {
      stop("Decode.\(corpus.name): ObjectMapper did not map the corpus")
    }
    guard try matches(peer, JSONDecoder().decode(Model.self, from: data)) else {
      stop("Decode.\(corpus.name): ObjectMapper and JSONDecoder models differ")
    }
    return data
  }

  /// The corpus model, after checking that ObjectMapper's output reads back equal.
  private func objectMapperEncodeModel<Model: Codable & Equatable & ObjectMapper.Mappable>(
    _ corpus: Corpus, _: Model.Type
  ) throws -> Model {
    let model = try JSONDecoder().decode(Model.self, from: corpus.data())
    let json = ObjectMapper.Mapper<Model>().toJSON(model)
    let data = try JSONSerialization.data(withJSONObject: json)
    guard try JSONDecoder().decode(Model.self, from: data) == model else {
      stop("Encode.\(corpus.name): ObjectMapper output reads back differently")
    }
    return model
  }

  /// Whether ObjectMapper's canada model `peer` is JSONDecoder's `reference` but for the last bits
  /// of the coordinates: every string and count equal, every coordinate within 16 ulps.
  ///
  /// ObjectMapper maps the values of `JSONSerialization`, and on Linux (swift-corelibs-foundation,
  /// Swift 6.3) `JSONSerialization` does not round decimal numbers correctly: 62,860 of canada's
  /// 111,126 coordinates come out 1 to 5 ulps from the nearest `Double`, which JSONDecoder (and
  /// ObjectMapping) return, e.g. `-65.613616999999977` reads as `-65.61361699999996` instead of
  /// `-65.61361699999998`. ObjectMapper's own mapping is exact (`[[[Double]]]` is a cast of the
  /// `NSNumber`s), so its canada model cannot equal JSONDecoder's on Linux; the row stays, the
  /// work is the same, and this check still stops the run on a missing or wrong value.
  private func canadaWithinULPs(
    _ peer: CanadaFeatureCollection, _ reference: CanadaFeatureCollection
  ) -> Bool {
    func near(_ x: Double, _ y: Double) -> Bool { abs(x - y) <= 16 * y.ulp }
    func same<Element>(_ xs: [Element], _ ys: [Element], _ equal: (Element, Element) -> Bool)
      -> Bool
    {
      xs.count == ys.count && zip(xs, ys).allSatisfy(equal)
    }
    return peer.type == reference.type
      && same(peer.features, reference.features) { feature, expected in
        feature.type == expected.type && feature.properties == expected.properties
          && feature.geometry.type == expected.geometry.type
          && same(feature.geometry.coordinates, expected.geometry.coordinates) {
            ring, expectedRing in
            same(ring, expectedRing) { point, expectedPoint in same(point, expectedPoint, near) }
          }
      }
  }
#endif

private func stop(_ message: String) -> Never {
  FileHandle.standardError.write(Data("error: \(message)\n".utf8))
  exit(1)
}
