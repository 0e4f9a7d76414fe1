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
    let last = name.split(separator: "/").last.map(String.init) ?? name
    guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return "" }
    return last[last.index(after: dot)...].lowercased()
  }

  /// The file's extension as its name spells it (`mappings`), for `@import`s that leave it out.
  var spelledExtension: String {
    let last = name.split(separator: "/").last.map(String.init) ?? name
    guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return "" }
    return String(last[last.index(after: dot)...])
  }

  /// Where the file is, for `@import` cycles and files loaded twice: a file's real path, with
  /// symbolic links resolved (a link to a file is that file), or a string's name.
  var identity: String {
    switch content {
    case .url(let url): return "file:" + url.resolvingSymlinksInPath().standardizedFileURL.path
    case .text, .missing: return "string:" + name
    }
  }

  /// The URL of a file loaded from one; `nil` for a string.
  var url: URL? {
    guard case .url(let url) = content else { return nil }
    return url
  }

  /// The folder a file loaded from a URL is in, symbolic links resolved; `nil` for a string.
  var folder: URL? {
    guard case .url(let url) = content else { return nil }
    return url.resolvingSymlinksInPath().standardizedFileURL.deletingLastPathComponent()
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
        throw Self.encodingError(Array(data), file: name)
      }
      return text
    }
  }

  /// Why `bytes`, which are not UTF-8, cannot be read, at the place they stop being UTF-8: a
  /// ``DefinitionError/Kind/syntax`` error. A binary property list and a UTF-16 or UTF-32 file
  /// (told by their first bytes) are named as such, with what to convert them to.
  static func encodingError(_ bytes: [UInt8], file: String) -> DefinitionError {
    let start = DefinitionLocation(file: file, line: 1, column: 1)
    if bytes.starts(with: Array("bplist".utf8)) {
      return DefinitionError(
        .syntax, at: start,
        "a binary property list: convert it to XML (`plutil -convert xml1 \(file)`)")
    }
    for (mark, encoding) in [
      ([0x00, 0x00, 0xFE, 0xFF], "UTF-32"), ([0xFF, 0xFE, 0x00, 0x00], "UTF-32"),
      ([0xFE, 0xFF], "UTF-16"), ([0xFF, 0xFE], "UTF-16"),
    ] as [([UInt8], String)] where bytes.starts(with: mark) {
      return DefinitionError(
        .syntax, at: start, "the file is \(encoding) text; definition files are UTF-8: convert it")
    }
    // The position of the first byte that is not UTF-8: lines end at LF, CR LF or a lone CR,
    // and columns count Unicode scalars, as the readers count them.
    var position = LinePosition()
    var offset = 0
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    while case .scalarValue(let scalar) = decoder.decode(&iterator) {
      offset += UTF8.width(scalar)
      position.move(past: scalar)
    }
    let location = DefinitionLocation(file: file, line: position.line, column: position.column)
    return DefinitionError(
      .syntax, at: location, "invalid UTF-8 at byte \(offset): definition files are UTF-8 text")
  }

  /// The file loaded from a URL that `path` (as an `@import` writes it) names beside this one;
  /// `nil` for a string.
  func sibling(_ path: String) -> DefinitionFile? {
    guard case .url(let url) = content else { return nil }
    return .url(url.deletingLastPathComponent().appendingPathComponent(path))
  }
}

/// Where the `@import`s of `.mappings` files may lead.
///
/// ```swift
/// // Definitions/Root.mappings: { "@import": ["Shared/Users", "../Secrets.mappings"] }
/// let catalog = try DefinitionCatalog(
///   appCoreKitFiles: [.url(definitions.appendingPathComponent("Root.mappings"))], types: types)
/// // Root.mappings:1:36: @import "../Secrets.mappings" leads out of the folder … (importOutsideFolder)
/// ```
///
/// By default (``insideFolder``) an import is a relative path without `..` that stays, symbolic
/// links resolved, inside the folder of the file given to the catalog that imports it (directly
/// or through other imports): a definition file, which may come from anywhere, can then read no
/// other file of the machine. ``anywhere`` lifts that for trusted layouts: `..`, absolute paths
/// (used as they are, never re-rooted) and links that lead out.
public struct DefinitionImportPolicy: Sendable, Hashable {
  let allowsAnyPath: Bool

  /// Imports stay inside the folder of the file given to the catalog: a relative path without
  /// `..`, which resolves (symbolic links included) inside that folder. The default.
  public static let insideFolder = DefinitionImportPolicy(allowsAnyPath: false)

  /// Any path: `..`, absolute paths and links leading out of the folder, for trusted layouts.
  public static let anywhere = DefinitionImportPolicy(allowsAnyPath: true)
}
