// swift-tools-version: 6.1
import PackageDescription

// Benchmarks live in their own package so the library itself stays dependency-free.
// Run from the repository root:
//   swift package --package-path Benchmarks benchmark
// or `Benchmarks/run.sh` for the comparison table of Documentation/Performance.md.
let package = Package(
  name: "ObjectMappingBenchmarks",
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(name: "swift-object-mapping", path: ".."),
    .package(
      url: "https://github.com/ordo-one/benchmark",
      exact: "1.38.1",
      traits: ["MallocInterposer"]
    ),
  ],
  targets: [
    .executableTarget(
      name: "ObjectMappingBenchmarks",
      dependencies: [
        .product(name: "ObjectMapping", package: "swift-object-mapping"),
        .product(name: "ObjectMappingDefinitions", package: "swift-object-mapping"),
        .product(name: "Benchmark", package: "benchmark"),
      ],
      path: "Benchmarks/ObjectMappingBenchmarks",
      plugins: [
        .plugin(name: "BenchmarkPlugin", package: "benchmark")
      ]
    )
  ]
)
