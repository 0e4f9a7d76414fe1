import Benchmark
import Foundation
import ObjectMapping

/// Encode typed models to bytes: `mapping.serialize(model, as: .json)` against
/// `JSONEncoder().encode(model)`, for the models decoded from each corpus (the same struct types
/// and keys on both sides, see `Decode.swift`).
///
/// Before measuring, the setup decodes the corpus, serializes it with ObjectMapping and maps the
/// output back, and stops the run if the round trip does not give equal models; it checks
/// JSONEncoder's output the same way with JSONDecoder.
///
/// `Form.articles_1000.*` writes 1,000 generated articles as one `application/x-www-form-urlencoded`
/// body under the root key `articles` (`articles[0][id]=0&…`). Foundation has no form encoder;
/// its side is what an app would do without one: `JSONEncoder`, `JSONSerialization` to a
/// dictionary, flattened into `URLQueryItem`s with bracketed names, joined by `URLComponents`.
/// That body is not byte-equal to ours (`URLComponents` writes spaces as `%20` and leaves `&`,
/// `=` and `+` inside values unescaped), so it is a rough reference, not a like-for-like pair.
func registerEncodeBenchmarks() {
  registerEncode(.twitter, TwitterMappings.search)
  registerEncode(.citmCatalog, CitmMappings.catalog)
  registerEncode(.canada, CanadaMappings.featureCollection)
  registerFormBenchmarks()
}

private func registerEncode<Model: Codable & Equatable>(
  _ corpus: Corpus, _ mapping: Mapping<Model>
) {
  Benchmark("Encode.\(corpus.name).ObjectMapping") { benchmark, model in
    for _ in benchmark.scaledIterations {
      blackHole(try mapping.serialize(model, as: .json))
    }
  } setup: {
    try checkedModel(corpus, mapping)
  }

  Benchmark("Encode.\(corpus.name).JSONEncoder") { benchmark, model in
    let encoder = JSONEncoder()
    for _ in benchmark.scaledIterations {
      blackHole(try encoder.encode(model))
    }
  } setup: {
    try mapping.map(corpus.data())
  }

  // The same Codable models through ObjectMapping's Codable encoder (issue 20).
  Benchmark("Encode.\(corpus.name).FastJSONEncoder") { benchmark, model in
    let encoder = FastJSONEncoder()
    for _ in benchmark.scaledIterations {
      blackHole(try encoder.encode(model))
    }
  } setup: {
    try fastEncodeModel(corpus, mapping)
  }
}

/// The corpus model, after checking that FastJSONEncoder's output reads back equal.
private func fastEncodeModel<Model: Codable & Equatable>(
  _ corpus: Corpus, _ mapping: Mapping<Model>
) throws -> Model {
  let model = try mapping.map(corpus.data())
  let data = try FastJSONEncoder().encode(model)
  guard try JSONDecoder().decode(Model.self, from: data) == model else {
    FileHandle.standardError.write(
      Data("error: Encode.\(corpus.name): FastJSONEncoder output reads back differently\n".utf8))
    exit(1)
  }
  return model
}

/// The model decoded from the corpus, after checking that both encoders' output reads back as
/// an equal model.
private func checkedModel<Model: Codable & Equatable>(
  _ corpus: Corpus, _ mapping: Mapping<Model>
) throws -> Model {
  let model = try mapping.map(corpus.data())
  let ours = try mapping.map(mapping.serialize(model, as: .json))
  let foundation = try JSONDecoder().decode(Model.self, from: JSONEncoder().encode(model))
  guard ours == model, foundation == model else {
    stop("Encode.\(corpus.name): the serialized model does not map back to an equal model")
  }
  return model
}

private func stop(_ message: String) -> Never {
  FileHandle.standardError.write(Data("error: \(message)\n".utf8))
  exit(1)
}

// MARK: - Form bodies

/// The number of articles in the form benchmark (`Form.articles_<N>.*`).
let formArticleCount = 1_000

private func registerFormBenchmarks() {
  let name = "Form.articles_\(formArticleCount)"
  Benchmark("\(name).ObjectMapping") { benchmark, articles in
    let inverse = ArticleMappings.article.inverted().rootKey("articles")
    for _ in benchmark.scaledIterations {
      blackHole(try inverse.serializeCollection(articles, as: .formURLEncoded))
    }
  } setup: {
    try checkedFormArticles(name)
  }

  Benchmark("\(name).URLComponents") { benchmark, articles in
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    for _ in benchmark.scaledIterations {
      blackHole(try foundationForm(articles, rootKey: "articles", encoder: encoder))
    }
  } setup: {
    try formArticles()
  }
}

/// The generated articles of the scaling series, decoded once.
private func formArticles() throws -> [ScaleArticle] {
  try ArticleMappings.article.mapCollection(ArticlePayload.data(count: formArticleCount))
}

/// The articles, after checking that their form body reads back as equal articles.
private func checkedFormArticles(_ name: String) throws -> [ScaleArticle] {
  let articles = try formArticles()
  let inverse = ArticleMappings.article.inverted().rootKey("articles")
  let form = try inverse.serializeCollection(articles, as: .formURLEncoded)
  let node = try Node(formURLEncoded: form)
  guard case .object(let members) = node, let list = members.first?.value,
    try ArticleMappings.article.mapCollection(list) == articles
  else {
    stop("\(name): the form body does not map back to equal articles")
  }
  return articles
}

/// A form body built with Foundation only: Codable to a dictionary, flattened into query items.
private func foundationForm(
  _ articles: [ScaleArticle], rootKey: String, encoder: JSONEncoder
) throws -> Data {
  let object = try JSONSerialization.jsonObject(with: encoder.encode(articles))
  var items: [URLQueryItem] = []
  flatten(object, name: rootKey, into: &items)
  var components = URLComponents()
  components.queryItems = items
  return Data((components.percentEncodedQuery ?? "").utf8)
}

private func flatten(_ value: Any, name: String, into items: inout [URLQueryItem]) {
  switch value {
  case let dictionary as [String: Any]:
    for (key, member) in dictionary { flatten(member, name: "\(name)[\(key)]", into: &items) }
  case let array as [Any]:
    for (index, element) in array.enumerated() {
      flatten(element, name: "\(name)[\(index)]", into: &items)
    }
  case let number as NSNumber:
    items.append(URLQueryItem(name: name, value: number.stringValue))
  case is NSNull:
    break
  default:
    items.append(URLQueryItem(name: name, value: "\(value)"))
  }
}
