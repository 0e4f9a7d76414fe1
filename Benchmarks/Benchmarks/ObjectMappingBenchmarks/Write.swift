import Benchmark
import Foundation
import ObjectMapping

/// Write a document to bytes: `node.jsonData()` against `JSONSerialization.data(withJSONObject:)`.
///
/// Each side writes its own document, parsed once in `setup` by its own reader, outside the
/// measured loop.
func registerWriteBenchmarks() {
  for corpus in Corpus.allCases {
    Benchmark("Write.\(corpus.name).ObjectMapping") { benchmark, node in
      for _ in benchmark.scaledIterations {
        blackHole(try node.jsonData())
      }
    } setup: {
      try Node(jsonData: corpus.data())
    }

    Benchmark("Write.\(corpus.name).JSONSerialization") { benchmark, object in
      for _ in benchmark.scaledIterations {
        blackHole(try JSONSerialization.data(withJSONObject: object))
      }
    } setup: {
      try JSONSerialization.jsonObject(with: corpus.data())
    }
  }
}
