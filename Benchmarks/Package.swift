// swift-tools-version: 6.1
import PackageDescription

// Benchmarks live in their own package so the library itself stays dependency-free.
// Run from the repository root:
//   swift package --package-path Benchmarks benchmark
// or `Benchmarks/run.sh` for the comparison table of Documentation/Performance.md.
//
// Peers (opt-in): two other Swift JSON libraries can run beside ours, swift-extras-json
// (`XJSONDecoder`, `XJSONEncoder`, `JSONParser`) and ObjectMapper (`Mapper`, `Mappable`). They are
// never fetched by this manifest, so a plain build (CI, a fresh clone without network) has no
// peer at all. To include them, clone both into one folder and name it in `OBJECT_MAPPING_PEERS`:
//
//   mkdir -p ~/peers && cd ~/peers
//   git clone https://github.com/swift-extras/swift-extras-json
//   git clone https://github.com/tristanhimmelman/ObjectMapper
//   cd <repository> && OBJECT_MAPPING_PEERS=~/peers Benchmarks/run.sh
//
// The folder must hold `swift-extras-json/` and `ObjectMapper/` under exactly these names. The
// peer benchmarks (`Peers.swift`, `ObjectMapperModels.swift`) compile only where
// `OBJECT_MAPPING_PEERS && canImport(ExtrasJSON)` / `... && canImport(ObjectMapper)`: the define
// is set below with the peers, since `canImport` alone stays true in a `.build` that once built
// them (their modules are left in it) and the link would then fail without them. With the variable
// unset or empty, the manifest is the plain one.
let peersFolder: String? = {
  guard let path = Context.environment["OBJECT_MAPPING_PEERS"], !path.isEmpty else { return nil }
  return path.hasSuffix("/") ? String(path.dropLast()) : path
}()

var dependencies: [Package.Dependency] = [
  .package(name: "swift-object-mapping", path: ".."),
  .package(
    url: "https://github.com/ordo-one/benchmark",
    exact: "1.38.1",
    traits: ["MallocInterposer"]
  ),
]

var swiftSettings: [SwiftSetting] = []
var benchmarkDependencies: [Target.Dependency] = [
  .product(name: "ObjectMapping", package: "swift-object-mapping"),
  .product(name: "ObjectMappingDefinitions", package: "swift-object-mapping"),
  .product(name: "ObjectMappingStore", package: "swift-object-mapping"),
  "BenchmarkSQLite",
  .product(name: "Benchmark", package: "benchmark"),
]

if let peersFolder {
  dependencies += [
    .package(path: "\(peersFolder)/swift-extras-json"),
    .package(path: "\(peersFolder)/ObjectMapper"),
  ]
  benchmarkDependencies += [
    .product(name: "ExtrasJSON", package: "swift-extras-json"),
    .product(name: "ObjectMapper", package: "ObjectMapper"),
  ]
  swiftSettings.append(.define("OBJECT_MAPPING_PEERS"))
}

let package = Package(
  name: "ObjectMappingBenchmarks",
  platforms: [.macOS(.v13)],
  dependencies: dependencies,
  targets: [
    // The system's SQLite, for the store benchmarks' baselines (`Store.swift`).
    .systemLibrary(
      name: "BenchmarkSQLite",
      path: "Benchmarks/BenchmarkSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
    ),
    .executableTarget(
      name: "ObjectMappingBenchmarks",
      dependencies: benchmarkDependencies,
      path: "Benchmarks/ObjectMappingBenchmarks",
      swiftSettings: swiftSettings,
      plugins: [
        .plugin(name: "BenchmarkPlugin", package: "benchmark")
      ]
    ),
  ]
)
