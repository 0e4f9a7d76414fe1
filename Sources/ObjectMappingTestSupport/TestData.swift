import Foundation

/// Locates the shared test corpora (`../shared/data` beside the repository, or the folder named
/// by the `OBJECT_MAPPING_DATA` environment variable). For this package's own tests: `package`,
/// so it is not part of the `ObjectMappingTestSupport` product's API.
package enum TestData {
  /// The corpus folder, or `nil` when it is not on this machine.
  package static let directory: URL? = {
    let environment = ProcessInfo.processInfo.environment
    if let path = environment["OBJECT_MAPPING_DATA"], !path.isEmpty {
      return URL(fileURLWithPath: path, isDirectory: true)
    }
    // Sources/ObjectMappingTestSupport/TestData.swift -> repository root -> ../shared/data
    let root = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent()
      .deletingLastPathComponent()
      .deletingLastPathComponent()
    let candidate = root.deletingLastPathComponent().appendingPathComponent("shared/data")
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
      isDirectory.boolValue
    {
      return candidate
    }
    return nil
  }()

  /// Whether corpus tests must run (CI sets `OBJECT_MAPPING_REQUIRE_CORPUS=1`): a missing
  /// corpus is then a failure instead of a skip.
  package static let isRequired: Bool =
    ProcessInfo.processInfo.environment["OBJECT_MAPPING_REQUIRE_CORPUS"] == "1"

  /// Whether the corpus is available; tests use it in `.enabled(if:)`.
  package static var isAvailable: Bool { directory != nil || isRequired }

  /// The bytes of a corpus file (`"json-benchmark/twitter.json"`).
  package static func data(_ relativePath: String) throws -> Data {
    guard let directory else { throw MissingCorpus(path: relativePath) }
    return try Data(contentsOf: directory.appendingPathComponent(relativePath))
  }

  /// The URLs of the files in a corpus folder, sorted by name.
  package static func files(in relativePath: String) throws -> [URL] {
    guard let directory else { throw MissingCorpus(path: relativePath) }
    let folder = directory.appendingPathComponent(relativePath)
    return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
      .map { folder.appendingPathComponent($0) }
  }

  /// Thrown when a corpus file is asked for on a machine without the corpus.
  package struct MissingCorpus: Error, CustomStringConvertible {
    /// The file that was asked for.
    package var path: String
    /// Names the missing corpus and how to provide it.
    package var description: String {
      "test corpus '\(path)' not found: put ../shared/data beside the repository "
        + "or set OBJECT_MAPPING_DATA"
    }
  }
}
