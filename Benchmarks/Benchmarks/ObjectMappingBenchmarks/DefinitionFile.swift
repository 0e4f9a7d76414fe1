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

  /// The payload of `count` articles, after checking that the loaded mapping and the DSL one
  /// make the same articles from it.
  static func checkedPayload(count: Int) throws -> Data {
    let data = ArticlePayload.data(count: count)
    let articles = try loaded.mapCollection(data)
    guard try articles == ArticleMappings.article.mapCollection(data), articles.count == count
    else {
      FileHandle.standardError.write(Data("error: DefinitionFile: the models differ\n".utf8))
      exit(1)
    }
    return data
  }

  /// The loaded mapping; a mapping with no rules (which the setup's check rejects) if the
  /// definition did not load.
  static let loaded: Mapping<ScaleArticle> = {
    do {
      return try DefinitionCatalog(
        appCoreKitFiles: [.string(text, name: "Articles.mappings")],
        types: [ScaleArticle.self, ScaleAuthor.self]
      ).mapping("$ScaleArticle")
    } catch {
      FileHandle.standardError.write(Data("error: DefinitionFile: \(error)\n".utf8))
      return Mapping(ScaleArticle.init) { [any MappingRule<ScaleArticle>]() }
    }
  }()
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

  Benchmark("DefinitionFile.articles_\(count).Loaded") { benchmark, data in
    for _ in benchmark.scaledIterations {
      blackHole(try ArticleDefinitions.loaded.mapCollection(data))
    }
  } setup: {
    try ArticleDefinitions.checkedPayload(count: count)
  }
}
