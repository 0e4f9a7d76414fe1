// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "swift-object-mapping",
  products: [
    .library(name: "ObjectMapping", targets: ["ObjectMapping"])
  ],
  targets: [
    .target(name: "ObjectMapping"),
    .target(
      name: "ObjectMappingTestSupport",
      dependencies: ["ObjectMapping"]
    ),
    .testTarget(
      name: "ObjectMappingTests",
      dependencies: ["ObjectMapping", "ObjectMappingTestSupport"]
    ),
  ]
)
