// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "swift-object-mapping",
  products: [
    .library(name: "ObjectMapping", targets: ["ObjectMapping"]),
    .library(name: "ObjectMappingTesting", targets: ["ObjectMappingTesting"]),
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
    .testTarget(
      name: "ObjectMappingTests",
      dependencies: ["ObjectMapping", "ObjectMappingTesting", "ObjectMappingTestSupport"]
    ),
  ]
)
