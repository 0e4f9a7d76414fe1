import Foundation

/// A folder of files for one test, removed when the test ends.
struct TemporaryFolder {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("definitions-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  /// Writes `text` to `path` inside the folder (making its folders) and returns its URL.
  @discardableResult
  func write(_ text: String, to path: String) throws -> URL {
    let file = url.appendingPathComponent(path)
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: file, atomically: true, encoding: .utf8)
    return file
  }

  /// Makes `path` a symbolic link to `destination` (a path, relative to the link's folder or
  /// absolute).
  func link(_ path: String, to destination: String) throws {
    try FileManager.default.createSymbolicLink(
      atPath: url.appendingPathComponent(path).path, withDestinationPath: destination)
  }

  /// The folder's real path (symbolic links resolved), as error messages print it.
  var realPath: String { url.resolvingSymlinksInPath().standardizedFileURL.path }

  func remove() {
    try? FileManager.default.removeItem(at: url)
  }
}
