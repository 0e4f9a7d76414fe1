// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "swift-object-mapping",
  products: [
    .library(name: "ObjectMapping", targets: ["ObjectMapping"]),
    .library(name: "ObjectMappingTesting", targets: ["ObjectMappingTesting"]),
    .executable(name: "showcase", targets: ["showcase"]),
  ],
  targets: [
    .target(name: "ObjectMapping"),
    .target(
      name: "ObjectMappingTesting",
      dependencies: ["ObjectMapping"]
    ),
    .target(
      name: "ObjectMappingTestSupport",
      dependencies: ["ObjectMapping"]
    ),
    // The showcase's models, mappings and payloads, shared by the executable and the tests.
    .target(
      name: "ShowcaseKit",
      dependencies: ["ObjectMapping"]
    ),
    .executableTarget(
      name: "showcase",
      dependencies: ["ObjectMapping", "ShowcaseKit"]
    ),
    .testTarget(
      name: "ObjectMappingTests",
      dependencies: [
        "ObjectMapping", "ObjectMappingTesting", "ObjectMappingTestSupport", "ShowcaseKit",
      ]
    ),
  ]
)
