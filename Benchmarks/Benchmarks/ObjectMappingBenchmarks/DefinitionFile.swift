import Benchmark
import Foundation
import ObjectMapping
import ObjectMappingDefinitions

// A mapping loaded from an AppCoreKit `.mappings` file against the same mapping written in the
// DSL (`ArticleMappings.article`), on the 10,000-article payload: a loaded definition compiles
// to the same rules, so the two should cost the same per value. Not paired with Foundation in
// `Benchmarks/run.sh`'s table (`table.py` skips the `DefinitionFile` area); compare the two rows.

extension ScaleArticle: DefinableModel {
  static let properties = PropertyTable(ScaleArticle.init) {
    Property(\.id)
    Property(\.title)
    Property(\.body)
    Property(\.publishedAt)
    Property(\.author)
    Property(\.tags)
    Property(\.views)
    Property(\.rating)
    Property(\.draft)
  }
}

extension ScaleAuthor: DefinableModel {
  static let properties = PropertyTable(ScaleAuthor.init) {
    Property(\.name)
    Property(\.email)
  }
}

enum ArticleDefinitions {
  static let text = """
    {
      "$ScaleAuthor": { "@class": "ScaleAuthor", "name": "name",
                        "email": { "@keyPath": "email", "@optional": 1 } },
      "$ScaleArticle": {
        "@class": "ScaleArticle",
        "id": "id", "title": "title", "body": "body", "publishedAt": "published_at",
        "author": { "@keyPath": "author", "@object": { "@mappings": "$ScaleAuthor" } },
        "tags": "tags", "views": "views", "rating": "rating", "draft": "draft"
      }
    }
    """

  static func article() throws -> Mapping<ScaleArticle> {
    try DefinitionCatalog(
      appCoreKitFiles: [.string(text, name: "Articles.mappings")],
      types: [ScaleArticle.self, ScaleAuthor.self]
    ).mapping("$ScaleArticle")
  }
}

func registerDefinitionFileBenchmarks() {
  let count = 10_000
  Benchmark("DefinitionFile.articles_\(count).DSL") { benchmark, data in
    for _ in benchmark.scaledIterations {
      blackHole(try ArticleMappings.article.mapCollection(data))
    }
  } setup: {
    ArticlePayload.data(count: count)
  }

  Benchmark("DefinitionFile.articles_\(count).Loaded") { benchmark, input in
    for _ in benchmark.scaledIterations {
      blackHole(try input.mapping.mapCollection(input.data))
    }
  } setup: {
    let data = ArticlePayload.data(count: count)
    let mapping = try ArticleDefinitions.article()
    // Both sides must make the same articles.
    guard try mapping.mapCollection(data) == ArticleMappings.article.mapCollection(data) else {
      FileHandle.standardError.write(Data("error: DefinitionFile: the models differ\n".utf8))
      exit(1)
    }
    return (mapping: mapping, data: data)
  }
}
