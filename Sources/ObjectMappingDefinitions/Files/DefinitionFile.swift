import Foundation

/// A definition file to load: from a URL, a bundle resource, or a string.
///
/// ```swift
/// let files: [DefinitionFile] = [
///   .url(URL(fileURLWithPath: "Definitions/Tweets.mappings")),
///   .resource("YourMappings", withExtension: "mappings", in: .main),   // AppCoreKit's loadContentOfFileNamed:
///   .string(#"{"$User": {"@class": "UserModel", "name": "name"}}"#, name: "Users.mappings"),
/// ]
/// ```
///
/// The name is what errors print (`Users.mappings:1:2: …`) and what `@import` finds a string
/// file by; for CSMapper, the name without its extension is the class the file defines
/// (`Person.plist` defines `Person`). A file that cannot be read is a
/// ``DefinitionError/Kind/missingFile`` error when the catalog loads, reported with the others.
public struct DefinitionFile: Sendable {
  enum Content: Sendable {
    case url(URL)
    case text(String)
    case missing(String)
  }

  /// The file's name: a URL's last path component, a resource's name and extension, or the name
  /// given to a string.
  public let name: String
  let content: Content

  /// A file at `url` (read when the catalog loads; `@import`s resolve next to it).
  public static func url(_ url: URL) -> DefinitionFile {
    DefinitionFile(name: url.lastPathComponent, content: .url(url))
  }

  /// A file whose text is `text`, named `name` (`"Tweets.mappings"`, `"Person.json"`).
  public static func string(_ text: String, name: String) -> DefinitionFile {
    DefinitionFile(name: name, content: .text(text))
  }

  /// The resource `name.ext` of `bundle` (`Bundle.main`, `Bundle.module`).
  public static func resource(_ name: String, withExtension ext: String, in bundle: Bundle)
    -> DefinitionFile
  {
    let fileName = ext.isEmpty ? name : "\(name).\(ext)"
    guard let url = bundle.url(forResource: name, withExtension: ext) else {
      return DefinitionFile(
        name: fileName,
        content: .missing("no resource \(fileName) in the bundle at \(bundle.bundlePath)"))
    }
    return DefinitionFile(name: fileName, content: .url(url))
  }

  /// The file's name without its extension (`Person` for `Person.plist`).
  var baseName: String {
    let last = name.split(separator: "/").last.map(String.init) ?? name
    guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return last }
    return String(last[..<dot])
  }

  /// The file's extension, lowercased (`plist`).
  var pathExtension: String {
    guard let dot = name.lastIndex(of: ".") else { return "" }
    return name[name.index(after: dot)...].lowercased()
  }

  /// Where the file is, for `@import` resolution and duplicate detection.
  var identity: String {
    switch content {
    case .url(let url): return url.standardizedFileURL.path
    case .text, .missing: return name
    }
  }

  /// The file's text.
  func text(requestedAt location: DefinitionLocation?) throws(DefinitionError) -> String {
    switch content {
    case .text(let text): return text
    case .missing(let reason): throw DefinitionError(.missingFile, at: location, reason)
    case .url(let url):
      let data: Data
      do {
        data = try Data(contentsOf: url)
      } catch {
        throw DefinitionError(
          .missingFile, at: location, "cannot read \(url.path): no such file or not readable")
      }
      guard let text = String(data: data, encoding: .utf8) else {
        throw DefinitionError(.missingFile, at: location, "\(url.path) is not UTF-8 text")
      }
      return text
    }
  }

  /// The file `path` (as an `@import` writes it) names, next to this one.
  func sibling(_ path: String) -> DefinitionFile? {
    guard case .url(let url) = content else { return nil }
    return .url(url.deletingLastPathComponent().appendingPathComponent(path))
  }
}
