import Benchmark
import Foundation
import ObjectMapping

/// Parse bytes into a document: `Node(jsonData:)` against `JSONSerialization.jsonObject(with:)`.
///
/// The corpus is read once in `setup`, outside the measured loop.
func registerParseBenchmarks() {
  for corpus in Corpus.allCases {
    Benchmark("Parse.\(corpus.name).ObjectMapping") { benchmark, data in
      for _ in benchmark.scaledIterations {
        blackHole(try Node(jsonData: data))
      }
    } setup: {
      try corpus.data()
    }

    Benchmark("Parse.\(corpus.name).JSONSerialization") { benchmark, data in
      for _ in benchmark.scaledIterations {
        blackHole(try JSONSerialization.jsonObject(with: data))
      }
    } setup: {
      try corpus.data()
    }
  }
}
