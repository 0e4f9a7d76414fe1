// Swift 5 language mode: what a user of a Swift 5 package writes, type-checked against the
// library by Scripts/check-swift5.sh, which fails on any warning (issue 37). In Swift 6 mode
// `Model.init` and a function name are inferred `@Sendable`; in Swift 5 mode the library's
// `@preconcurrency` declarations keep them from warning.

import Foundation
import ObjectMapping

struct Author {
  var id = 0
  var name = ""
}

struct Article {
  var id = 0
  var title = ""
  var tags: [String] = []
  var author = Author()
  var published: Date?
}

final class Profile {
  var name = ""
  var age = 0
}

func normalized(_ text: String) -> String { text.lowercased() }

let authorMapping = Mapping(Author.init) {
  Attribute("id", \.id)
  Attribute("name", \.name, decodeOnly: normalized)
}.identified(by: \.id)

let articleMapping = Mapping(Article.init) {
  Attribute("id", \.id)
  Attribute("title", \.title).validate { !$0.isEmpty }
  Attribute("tags", \.tags)
  Attribute("published", \.published, .iso8601)
  Relationship("author", \.author, authorMapping)
}.coercion(.strict)

let keyed = Mapping(Author.init, keys: .snakeCase) {
  Attribute(\.name)
}

let profileMapping = Mapping(Profile.init) {
  Attribute("name", \.name)
  Attribute("age", \.age)
}

func check() throws -> (Article, MappingResult) {
  let article = try articleMapping.map(#"{"id": 1, "title": "Hi", "tags": ["a"]}"#)
  let result = try Mapper(MappingProvider { Route("articles", articleMapping) }).map(
    #"{"articles": []}"#)
  return (article, result)
}
