import Foundation

/// The nativejson-benchmark documents every benchmark area runs on.
///
/// The files are read from the folder named by the `OBJECT_MAPPING_DATA` environment variable,
/// or else from `../shared/data` beside the repository root. They are never copied into the
/// repository.
enum Corpus: String, CaseIterable, Sendable {
  case twitter
  case citmCatalog = "citm_catalog"
  case canada

  /// The name used in benchmark names (`Parse.citm_catalog.ObjectMapping`).
  var name: String { rawValue }

  /// The corpus file, relative to the data folder.
  var relativePath: String { "json-benchmark/\(rawValue).json" }

  /// The bytes of the corpus file.
  func data() throws -> Data {
    try Data(contentsOf: Self.directory.appendingPathComponent(relativePath))
  }

  /// The data folder: `$OBJECT_MAPPING_DATA`, else `<repository root>/../shared/data`.
  static let directory: URL = {
    if let path = ProcessInfo.processInfo.environment["OBJECT_MAPPING_DATA"], !path.isEmpty {
      return URL(fileURLWithPath: path, isDirectory: true)
    }
    // Benchmarks/Benchmarks/ObjectMappingBenchmarks/Corpus.swift -> repository root.
    let root = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent()
      .deletingLastPathComponent()
      .deletingLastPathComponent()
      .deletingLastPathComponent()
    return root.deletingLastPathComponent().appendingPathComponent("shared/data")
  }()

  /// Stops the benchmark run with a clear message when a corpus file is missing, before any
  /// benchmark is registered (a missing corpus must never look like a fast benchmark).
  static func requireDirectory() {
    let files = allCases.map { directory.appendingPathComponent($0.relativePath).path }
    let missing = files.filter { !FileManager.default.fileExists(atPath: $0) }
    guard !missing.isEmpty else { return }
    FileHandle.standardError.write(
      Data(
        ("error: benchmark corpus not found: \(missing.joined(separator: ", ")). "
          + "Put the shared data folder at ../shared/data beside the repository "
          + "or set OBJECT_MAPPING_DATA to its path.\n").utf8))
    exit(1)
  }
}
