// swift-tools-version: 6.0
import PackageDescription

// Coverage-guided fuzzers (libFuzzer) for the readers and the mapper; see
// Documentation/Fuzzing.md. Build with
// `swift build --package-path Fuzz -c release --sanitize=fuzzer --sanitize=address`.
// Each target's `main.swift` holds only `LLVMFuzzerTestOneInput`: libFuzzer supplies `main`.
let package = Package(
  name: "ObjectMappingFuzz",
  dependencies: [.package(name: "swift-object-mapping", path: "..")],
  targets: [
    .executableTarget(
      name: "JSONReaderFuzz",
      dependencies: [.product(name: "ObjectMapping", package: "swift-object-mapping")]
    ),
    .executableTarget(
      name: "FormReaderFuzz",
      dependencies: [.product(name: "ObjectMapping", package: "swift-object-mapping")]
    ),
    .executableTarget(
      name: "MapperFuzz",
      dependencies: [.product(name: "ObjectMapping", package: "swift-object-mapping")]
    ),
  ]
)
