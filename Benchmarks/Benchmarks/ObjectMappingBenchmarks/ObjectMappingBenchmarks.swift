import Benchmark

// Entry point of the benchmark target: the BenchmarkPlugin generates a `main` that calls this
// closure to register every benchmark. Each area registers its benchmarks from its own file
// (`Parse.swift`, `Write.swift`, `Decode.swift`, `Encode.swift`); a new area adds a file and one line here.
// `Peers.swift` adds the `Limit.*` rows and, when the package is built with `OBJECT_MAPPING_PEERS`
// (see Package.swift), the rows of other Swift JSON libraries (swift-extras-json, ObjectMapper).
//
// Naming: `<Area>.<corpus>.<implementation>`, e.g. `Parse.twitter.ObjectMapping` and
// `Parse.twitter.JSONSerialization`, so ours and Foundation's run side by side in one run and
// `Benchmarks/run.sh` can pair them. No `/` or spaces: static thresholds cannot find such names.
let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
    warmupIterations: 3,
    maxDuration: .seconds(2),
    maxIterations: 1_000,
    thresholds: [
      // Wall clock is noisy on shared 2-core machines; allocation counts are deterministic.
      .wallClock: .init(relative: [.p50: 25.0, .p90: 35.0]),
      .mallocCountTotal: .init(relative: [.p50: 1.0, .p90: 1.0]),
    ]
  )

  Corpus.requireDirectory()
  registerParseBenchmarks()
  registerWriteBenchmarks()
  registerDecodeBenchmarks()
  registerEncodeBenchmarks()
  registerDefinitionFileBenchmarks()
  registerStoreBenchmarks()
  registerPeerBenchmarks()
  registerStreamingBenchmarks()
}
