// swift-tools-version: 6.0
import PackageDescription

// Coverage-guided fuzzers (libFuzzer) for the readers and the mapper; see
// Documentation/Fuzzing.md. Build with
// `Scripts/fuzz.sh build` (never `--sanitize=fuzzer --sanitize=address`: see the script).
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
    .executableTarget(
      name: "NodeFuzz",
      dependencies: [.product(name: "ObjectMapping", package: "swift-object-mapping")]
    ),
    .executableTarget(
      name: "ModelFuzz",
      dependencies: [.product(name: "ObjectMapping", package: "swift-object-mapping")]
    ),
    .executableTarget(
      name: "StreamReaderFuzz",
      dependencies: [.product(name: "ObjectMapping", package: "swift-object-mapping")]
    ),
    .executableTarget(
      name: "DefinitionFuzz",
      dependencies: [
        .product(name: "ObjectMapping", package: "swift-object-mapping"),
        .product(name: "ObjectMappingDefinitions", package: "swift-object-mapping"),
      ]
    ),
  ]
)
