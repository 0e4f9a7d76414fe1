import Foundation
import ObjectMapping
import ObjectMappingStore
import Testing

/// A folder of its own under the system's temporary folder, removed by ``remove()``.
struct TemporaryFolder {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("object-mapping-store-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  /// The path of `name` in the folder.
  func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  func remove() {
    try? FileManager.default.removeItem(at: url)
  }
}

enum ArticleState: String, MappableValue, Sendable {
  case draft, published, archived
}

struct Author: Equatable, Sendable {
  var name = ""
  var email: String?
}

struct Article: Equatable, Sendable {
  var id = 0
  var title = ""
  var state = ArticleState.draft
  var rating = 0.0
  var publishedAt = Date(timeIntervalSince1970: 0)
  var author = Author()
  var editor: Author?
  var tags: [String] = []
  var subtitle: String?
}

enum Fixtures {
  static let authorMapping = Mapping(Author.init) {
    Attribute("name", \.name)
    Attribute("email", \.email)
  }

  static let articleMapping = Mapping(Article.init) {
    Attribute("id", \.id)
    Attribute("title", \.title)
    Attribute("state", \.state)
    Attribute("rating", \.rating)
    Attribute("published_at", \.publishedAt)
    Relationship("author", \.author, authorMapping)
    Relationship("editor", \.editor, authorMapping)
    Attribute("tags", \.tags)
    Attribute("subtitle", \.subtitle)
  }.identified(by: \.id)

  static let articles = StoreEntity("Article", mapping: articleMapping)
    .indexed(by: \.publishedAt)
    .indexed(by: \.author.name)

  static func article(
    _ id: Int, _ title: String, state: ArticleState = .published, rating: Double = 0,
    day: Int = 0, author: String = "Ann", editor: String? = nil, subtitle: String? = nil
  ) -> Article {
    Article(
      id: id, title: title, state: state, rating: rating,
      publishedAt: Date(timeIntervalSince1970: Double(day) * 86_400),
      author: Author(name: author, email: "\(author.lowercased())@example.com"),
      editor: editor.map { Author(name: $0) }, tags: ["t\(id)"], subtitle: subtitle)
  }

  /// A class model, for the identity map.
  final class Note: @unchecked Sendable {
    // @unchecked: the tests touch a note from one task at a time.
    var id = 0
    var text = ""
    init() {}
  }

  static let noteMapping = Mapping(Note.init) {
    Attribute("id", \.id)
    Attribute("text", \.text)
  }.identified(by: \.id)

  static let notes = StoreEntity("Note", mapping: noteMapping)

  static func note(_ id: Int, _ text: String) -> Note {
    let note = Note()
    note.id = id
    note.text = text
    return note
  }
}

/// Opens a store in a new temporary folder, runs `body`, closes the store and removes the folder.
func withStore<Result>(
  _ options: SQLiteStore.Options = SQLiteStore.Options(),
  _ body: (SQLiteStore, TemporaryFolder) async throws -> Result
) async throws -> Result {
  let folder = try TemporaryFolder()
  defer { folder.remove() }
  let store = try SQLiteStore(path: folder.path("store.sqlite"), options: options)
  do {
    let result = try await body(store, folder)
    await store.close()
    return result
  } catch {
    await store.close()
    throw error
  }
}
