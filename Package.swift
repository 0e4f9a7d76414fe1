// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "swift-object-mapping",
  products: [
    .library(name: "ObjectMapping", targets: ["ObjectMapping"]),
    .library(name: "ObjectMappingTesting", targets: ["ObjectMappingTesting"]),
    .library(name: "ObjectMappingClient", targets: ["ObjectMappingClient"]),
    .library(name: "ObjectMappingDefinitions", targets: ["ObjectMappingDefinitions"]),
    // LoopbackServer and Gzip, for users' tests of code that uses the object manager.
    .library(name: "ObjectMappingTestSupport", targets: ["ObjectMappingTestSupport"]),
    .library(name: "ObjectMappingStore", targets: ["ObjectMappingStore"]),
    .executable(name: "showcase", targets: ["showcase"]),
  ],
  targets: [
    // The document model and its formats (Node, the scanned tape, JSON, form and Foundation
    // readers and writers). It knows nothing of mappings; ObjectMapping uses its `package`
    // declarations and re-exports its public API, so users write one `import ObjectMapping`.
    .target(
      name: "ObjectMappingDocument",
      swiftSettings: [.strictMemorySafety()]
    ),
    .target(
      name: "ObjectMapping",
      dependencies: ["ObjectMappingDocument"],
      swiftSettings: [.strictMemorySafety()]
    ),
    // The object manager: a router and an async HTTP client (URLSession; FoundationNetworking
    // on Linux) that loads, sends and maps objects.
    .target(
      name: "ObjectMappingClient",
      dependencies: ["ObjectMapping"],
      swiftSettings: [.strictMemorySafety()]
    ),
    // Declarative definition files (AppCoreKit `.mappings`, CSMapper plist/JSON) loaded at run
    // time into ordinary mappings, bound to Swift types through property tables.
    .target(
      name: "ObjectMappingDefinitions",
      dependencies: ["ObjectMapping", "ObjectMappingDocument"]
    ),
    // The system's SQLite (Linux: the libsqlite3-dev package; Apple platforms: the SDK's), for
    // the persistent object store. No SQLite wrapper package.
    .systemLibrary(
      name: "ObjectMappingCSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
    ),
    // The persistent object store: objects saved as their mappings' JSON in a SQLite database,
    // keyed by entity and identity, queried through the mappings' key paths. It depends on the
    // client (to load the object manager's responses into a store in one transaction); the
    // client does not depend on SQLite.
    .target(
      name: "ObjectMappingStore",
      dependencies: ["ObjectMapping", "ObjectMappingClient", "ObjectMappingCSQLite"],
      swiftSettings: [.strictMemorySafety()]
    ),
    .target(
      name: "ObjectMappingTesting",
      dependencies: ["ObjectMapping"]
    ),
    // An HTTP/1.1 server on 127.0.0.1 that tests start and stop (with the misbehaviours of
    // real servers), and gzip bodies; a product, so users' tests can use it too.
    .target(
      name: "ObjectMappingTestSupport",
      dependencies: ["ObjectMapping"]
    ),
    // The showcase's models, mappings and payloads, shared by the executable and the tests.
    .target(
      name: "ShowcaseKit",
      dependencies: [
        "ObjectMapping", "ObjectMappingClient", "ObjectMappingDefinitions",
        "ObjectMappingStore", "ObjectMappingTestSupport",
      ],
      resources: [.copy("Resources/Timeline.mappings")]
    ),
    .executableTarget(
      name: "showcase",
      dependencies: ["ObjectMapping", "ShowcaseKit"]
    ),
    .testTarget(
      name: "ObjectMappingClientTests",
      dependencies: [
        "ObjectMapping", "ObjectMappingClient", "ObjectMappingDefinitions",
        "ObjectMappingTestSupport", "ShowcaseKit",
      ]
    ),
    .testTarget(
      name: "ObjectMappingDefinitionsTests",
      dependencies: [
        "ObjectMapping", "ObjectMappingDefinitions", "ObjectMappingDocument",
        "ObjectMappingTesting", "ObjectMappingTestSupport",
      ]
    ),
    .testTarget(
      name: "ObjectMappingStoreTests",
      dependencies: [
        "ObjectMapping", "ObjectMappingClient", "ObjectMappingStore",
        "ObjectMappingTestSupport", "ShowcaseKit",
      ]
    ),
    .testTarget(
      name: "ObjectMappingTests",
      dependencies: [
        "ObjectMapping", "ObjectMappingDefinitions", "ObjectMappingDocument",
        "ObjectMappingTesting",
        "ObjectMappingTestSupport", "ShowcaseKit",
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
