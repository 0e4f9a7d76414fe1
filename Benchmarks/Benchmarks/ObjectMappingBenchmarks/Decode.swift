import Benchmark
import Foundation
import ObjectMapping

/// Decode bytes into typed models: an ObjectMapping `Mapping` (`mapping.map(data)`) against
/// `JSONDecoder().decode(_:from:)`, both producing the same struct types (the corpus models in
/// `TwitterModel.swift`, `CitmCatalogModel.swift` and `CanadaModel.swift`).
///
/// Before measuring, the ObjectMapping benchmark decodes the corpus with both decoders and stops
/// the run if the models differ, so both sides are known to do the same work.
func registerDecodeBenchmarks() {
  registerDecode(.twitter, TwitterMappings.search)
  registerDecode(.citmCatalog, CitmMappings.catalog)
  registerDecode(.canada, CanadaMappings.featureCollection)
  registerDerivedDecode(.twitter, TwitterSearch.self)
  registerDerivedDecode(.citmCatalog, CitmCatalog.self)
  registerDerivedDecode(.canada, CanadaFeatureCollection.self)
  registerScalingBenchmarks()
}

private func registerDecode<Model: Decodable & Equatable>(
  _ corpus: Corpus, _ mapping: Mapping<Model>
) {
  Benchmark("Decode.\(corpus.name).ObjectMapping") { benchmark, data in
    for _ in benchmark.scaledIterations {
      blackHole(try mapping.map(data))
    }
  } setup: {
    try checkedCorpus(corpus, mapping)
  }

  Benchmark("Decode.\(corpus.name).JSONDecoder") { benchmark, data in
    let decoder = JSONDecoder()
    for _ in benchmark.scaledIterations {
      blackHole(try decoder.decode(Model.self, from: data))
    }
  } setup: {
    try corpus.data()
  }

  // The same Codable models through ObjectMapping's Codable decoder (issue 20).
  Benchmark("Decode.\(corpus.name).FastJSONDecoder") { benchmark, data in
    let decoder = FastJSONDecoder()
    for _ in benchmark.scaledIterations {
      blackHole(try decoder.decode(Model.self, from: data))
    }
  } setup: {
    try fastDecodeCorpus(corpus, Model.self)
  }
}

/// The same Codable models through a mapping derived from their `Codable` conformance
/// (`Mapping(Model.self)`, issue 41): their `init(from:)` on the library's reader, as
/// FastJSONDecoder runs it, inside a mapping.
func registerDerivedDecode<Model: Codable & Equatable & SendableMetatype>(
  _ corpus: Corpus, _: Model.Type
) {
  let mapping = Mapping(Model.self)
  Benchmark("Decode.\(corpus.name).Derived") { benchmark, data in
    for _ in benchmark.scaledIterations {
      blackHole(try mapping.map(data))
    }
  } setup: { () throws -> Data in
    let data = try fastDecodeCorpus(corpus, Model.self)
    guard try mapping.map(data) == FastJSONDecoder().decode(Model.self, from: data) else {
      FileHandle.standardError.write(
        Data("error: Decode.\(corpus.name): the derived mapping and FastJSONDecoder differ\n".utf8))
      exit(1)
    }
    return data
  }
}

/// The corpus bytes, after checking that FastJSONDecoder and JSONDecoder make equal models.
private func fastDecodeCorpus<Model: Decodable & Equatable>(_ corpus: Corpus, _: Model.Type)
  throws -> Data
{
  let data = try corpus.data()
  let fast = try FastJSONDecoder().decode(Model.self, from: data)
  guard try fast == JSONDecoder().decode(Model.self, from: data) else {
    FileHandle.standardError.write(
      Data("error: Decode.\(corpus.name): FastJSONDecoder and JSONDecoder models differ\n".utf8))
    exit(1)
  }
  return data
}

/// The corpus bytes, after checking that both decoders make equal models from them.
private func checkedCorpus<Model: Decodable & Equatable>(
  _ corpus: Corpus, _ mapping: Mapping<Model>
) throws -> Data {
  let data = try corpus.data()
  let ours = try mapping.map(data)
  let foundation = try JSONDecoder().decode(Model.self, from: data)
  guard ours == foundation else {
    FileHandle.standardError.write(
      Data("error: Decode.\(corpus.name): ObjectMapping and JSONDecoder models differ\n".utf8))
    exit(1)
  }
  return data
}

/// The scaling series: a generated array of N articles mapped with `mapCollection`; the table
/// reports the median time per article and the peak resident memory.
private func registerScalingBenchmarks() {
  for count in ArticlePayload.counts {
    let configuration = Benchmark.Configuration(
      metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
      warmupIterations: 1,
      maxDuration: .seconds(2),
      maxIterations: count >= 1_000_000 ? 3 : 1_000
    )
    Benchmark("Scale.articles_\(count).ObjectMapping", configuration: configuration) {
      benchmark, data in
      for _ in benchmark.scaledIterations {
        blackHole(try ArticleMappings.article.mapCollection(data))
      }
    } setup: {
      ArticlePayload.data(count: count)
    }
  }
}
