import Foundation
import ObjectMapping

// The generated article payloads of the scaling series (`Scale.articles_<N>.ObjectMapping`):
// a JSON array of N articles, each with an author object, a tag array, numbers and an ISO 8601
// date. `Benchmarks/table.py` rebuilds the same text to know the payload size: keep
// `ArticlePayload.article(_:)` and `article_text` there in step.

struct ScaleArticle: Codable, Equatable {
  var id = 0
  var title = ""
  var body = ""
  var publishedAt = Date(timeIntervalSince1970: 0)
  var author = ScaleAuthor()
  var tags: [String] = []
  var views = 0
  var rating = 0.0
  var draft = false

  enum CodingKeys: String, CodingKey {
    case id
    case title
    case body
    case publishedAt = "published_at"
    case author
    case tags
    case views
    case rating
    case draft
  }
}

struct ScaleAuthor: Codable, Equatable {
  var name = ""
  var email: String?
}

enum ArticleMappings {
  static let article = Mapping(ScaleArticle.init) {
    Attribute("id", \.id)
    Attribute("title", \.title)
    Attribute("body", \.body)
    Attribute("published_at", \.publishedAt)
    Relationship("author", \.author, author)
    Attribute("tags", \.tags)
    Attribute("views", \.views)
    Attribute("rating", \.rating)
    Attribute("draft", \.draft)
  }

  static let author = Mapping(ScaleAuthor.init) {
    Attribute("name", \.name)
    Attribute("email", \.email)
  }
}

enum ArticlePayload {
  /// The sizes of the scaling series.
  static let counts = [1_000, 10_000, 100_000, 1_000_000]

  /// The JSON text of article `index` (no whitespace).
  static func article(_ index: Int) -> String {
    let author = index % 97
    let day = index % 28 + 1
    let hour = index % 24
    return #"{"id":\#(index),"title":"Article number \#(index)","#
      + #""body":"Lorem ipsum dolor sit amet, consectetur adipiscing elit \#(index).","#
      + #""published_at":"2024-03-\#(day < 10 ? "0" : "")\#(day)T\#(hour < 10 ? "0" : "")\#(hour):15:30Z","#
      + #""author":{"name":"Author \#(author)","email":"author\#(author)@example.com"},"#
      + #""tags":["swift","json","tag\#(index % 10)"],"views":\#(index * 7 % 100_000),"#
      + #""rating":\#(index % 5).5,"draft":\#(index % 3 == 0 ? "true" : "false")}"#
  }

  /// A JSON array of `count` articles.
  static func data(count: Int) -> Data {
    var text = "["
    text.reserveCapacity(count * 300)
    for index in 0..<count {
      if index > 0 { text += "," }
      text += article(index)
    }
    text += "]"
    return Data(text.utf8)
  }
}
