import Foundation
import ObjectMapping
import Testing

// A run keeps the first MappingOptions.errorLimit errors and diagnostics and counts the rest.

struct Numbered: Equatable {
  var id = 0
}

struct Shelf {
  var numbers: [Numbered] = []
}

private let numberedMapping = Mapping(Numbered.init) {
  Attribute("id", \.id)
}

private let droppingShelf = Mapping(Shelf.init) {
  Relationship("numbers", \.numbers, numberedMapping).onChildFailure(.dropChild)
}

/// `[1, 1, …]`: `count` elements that are not objects.
private func numbers(_ count: Int) -> String {
  "[" + Array(repeating: "1", count: count).joined(separator: ",") + "]"
}

private let moreLine = "(beyond the error limit of a run; see MappingOptions.errorLimit)"

/// Counts how often its description is asked for (from several test tasks at once, so behind
/// a lock: the only mutable state is `count`, always accessed with `lock` held).
private final class DescriptionCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  var value: Int { lock.withLock { count } }
  func increment() { lock.withLock { count += 1 } }
}

private struct CountedError: Error, CustomStringConvertible {
  let counter: DescriptionCounter
  var description: String {
    counter.increment()
    return "counted"
  }
}

@Suite("Error limit of a run")
struct ErrorLimitTests {
  @Test func aRunKeepsAThousandErrorsAndCountsTheRest() throws {
    #expect(MappingOptions.defaultErrorLimit == 1_000 && MappingOptions.none.errorLimit == nil)
    do {
      _ = try numberedMapping.mapCollection(numbers(5_000))
      Issue.record("expected errors")
    } catch {
      #expect(error.errors.count == 1_000 && error.omittedCount == 4_000)
      let lines = (0..<1_000).map { "/\($0): expected an object, found 1" }
      #expect(
        error.description
          == (lines + ["… and 4,000 more errors \(moreLine)"]).joined(separator: "\n"))
    }
  }

  @Test func theLimitIsSetPerCall() throws {
    let two = MappingOptions(errorLimit: 2)
    let report = numberedMapping.report(#"{"id": []}"#, with: two)
    #expect(report.summary == ["/id: expected an integer, found an array"])
    do {
      _ = try numberedMapping.mapCollection(numbers(3), with: two)
      Issue.record("expected errors")
    } catch {
      #expect(
        error.description == """
          /0: expected an object, found 1
          /1: expected an object, found 1
          … and 1 more error \(moreLine)
          """)
    }
    // The next call without the option keeps the default again; a negative limit counts as 0.
    do {
      _ = try numberedMapping.mapCollection(numbers(3))
      Issue.record("expected errors")
    } catch {
      #expect(error.errors.count == 3 && error.omittedCount == 0)
    }
    #expect(
      numberedMapping.report(#"{"id": []}"#, with: MappingOptions(errorLimit: -5)).summary == [
        "… and 1 more error \(moreLine)"
      ])
  }

  @Test func aRunPastItsLimitStillFails() throws {
    do {
      _ = try numberedMapping.map(#"{"id": "x"}"#, with: MappingOptions(errorLimit: 0))
      Issue.record("expected errors")
    } catch {
      #expect(error.errors.isEmpty && error.omittedCount == 1)
      #expect(error.description == "… and 1 more error \(moreLine)")
    }
    let existing = Numbered(id: 4)
    let report = numberedMapping.report(
      #"{"id": "x"}"#, onto: existing, with: MappingOptions(errorLimit: 0))
    #expect(!report.succeeded && report.object == nil && existing == Numbered(id: 4))
    #expect(report.summary == ["… and 1 more error \(moreLine)"])
  }

  @Test func skippedElementsAreDiagnosticsUnderTheSameLimit() throws {
    let report = droppingShelf.report(
      #"{"numbers": [1, {}, "x"]}"#, with: MappingOptions(errorLimit: 2))
    #expect(report.succeeded && report.object?.numbers == [])
    #expect(report.omittedErrorCount == 0 && report.omittedDiagnosticCount == 1)
    #expect(
      report.summary == [
        "/numbers/0: element skipped: /numbers/0: expected an object, found 1",
        "/numbers/1: element skipped: /numbers/1/id: required value is missing",
        "… and 1 more diagnostic \(moreLine)",
      ])
  }

  @Test func aSkippedElementListsTenOfItsErrorsAndCountsTheRest() throws {
    let mapping = Mapping(Shelf.init) {
      Relationship("numbers", \.numbers, numberedMapping)
    }
    let shelves = Mapping(Library.init) {
      Relationship("shelves", \.shelves, mapping).onChildFailure(.dropChild)
    }
    let report = shelves.report(#"{"shelves": [{"numbers": \#(numbers(12))}]}"#)
    #expect(report.succeeded)
    let reasons = (0..<10).map { "/shelves/0/numbers/\($0): expected an object, found 1" }
    #expect(
      report.summary == [
        "/shelves/0: element skipped: " + reasons.joined(separator: "; ")
          + "; and 2 more errors"
      ])
  }

  @Test func errorsPastTheLimitAreCountedNotBuilt() throws {
    let counter = DescriptionCounter()
    let mapping = Mapping(Numbered.init) {
      Attribute("id", \.id).validate { _ in throw CountedError(counter: counter) }
    }
    let payload = "[" + Array(repeating: #"{"id": 1}"#, count: 200).joined(separator: ",") + "]"
    do {
      _ = try mapping.mapCollection(payload, with: MappingOptions(errorLimit: 5))
      Issue.record("expected errors")
    } catch {
      #expect(error.errors.count == 5 && error.omittedCount == 195)
    }
    #expect(counter.value == 5)
  }

  @Test func collectionsReportsAndMapperResultsCountWhatTheyLeftOut() throws {
    do {
      _ = try numberedMapping.mapCollection(
        #"[{"id": 1}, 2, 3]"#, with: MappingOptions(errorLimit: 1))
      Issue.record("failing elements are thrown")
    } catch {
      #expect(error.partialResult(as: [Numbered].self) == [Numbered(id: 1)])
      #expect(error.errors.map(\.description) == ["/1: expected an object, found 2"])
      #expect(error.omittedCount == 1)
    }

    let mapper = Mapper(MappingProvider { Route("numbers", numberedMapping) })
    let result = try mapper.map(
      #"{"numbers": [{"id": "a"}, {"id": "b"}, {"id": 3}]}"#, with: MappingOptions(errorLimit: 1))
    #expect(result.all(Numbered.self) == [Numbered(id: 3)])
    #expect(
      result.errors.map(\.description) == [#"/numbers/0/id: cannot convert "a" to an integer"#])
    #expect(result.omittedErrorCount == 1 && result.omittedDiagnosticCount == 1)
    #expect(
      result.diagnostics.map(\.description) == [
        "/numbers/0: element skipped: it did not map (see the errors at this path)"
      ])
  }

  @Test func aMapperTakesTheLimitFromItsOwnOptionsUnlessTheCallGivesOne() throws {
    let provider = MappingProvider { Route("numbers", numberedMapping) }
    let mapper = Mapper(provider, options: MappingOptions(errorLimit: 1))
    let payload = #"{"numbers": [{"id": "a"}, {"id": "b"}, {"id": "c"}]}"#
    let own = try mapper.map(payload)
    #expect(
      own.errors.map(\.description) == [#"/numbers/0/id: cannot convert "a" to an integer"#])
    #expect(own.omittedErrorCount == 2)
    let call = try mapper.map(payload, with: MappingOptions(errorLimit: 2))
    #expect(
      call.errors.map(\.description) == [
        #"/numbers/0/id: cannot convert "a" to an integer"#,
        #"/numbers/1/id: cannot convert "b" to an integer"#,
      ])
    #expect(call.omittedErrorCount == 1)
  }

  @Test func manyFailingElementsMakeABoundedReport() throws {
    let report = numberedMapping.report(#"{"id": 1}"#)
    #expect(report.succeeded)
    let collection: MappingErrors
    do {
      _ = try numberedMapping.mapCollection(numbers(200_000))
      Issue.record("failing elements are thrown")
      return
    } catch {
      collection = error
    }
    #expect(collection.errors.count == 1_000 && collection.omittedCount == 199_000)
    let text = collection.description
    #expect(text.utf8.count < 40_000)
    #expect(text.hasSuffix("\n… and 199,000 more errors \(moreLine)"))
  }
}

struct Library {
  var shelves: [Shelf] = []
}

struct LongKeyErrorPathTests {
  struct Box {
    var children: [Numbered] = []
  }

  @Test func theKeptErrorsPathsAreBoundedTogether() throws {
    // A thousand errors under one 256 KB key: each exact path holds the key, 256 MB together
    // before the budget; 16 MiB of paths are kept now, the rest counted.
    let key = String(repeating: "k", count: 256 * 1024)
    let children = Array(repeating: #"{"id": "x"}"#, count: 1_000).joined(separator: ",")
    let json = "{\"\(key)\": [\(children)]}"
    let box = Mapping(Box.init) { Relationship([key], \.children, numberedMapping) }
    let error = try #require(throws: MappingErrors.self) {
      try box.map(json, with: MappingOptions(errorLimit: .max))
    }
    #expect(error.errors.count + error.omittedCount == 1_000)
    // Kept until they fill 16 MiB (the one that crosses it included).
    #expect(error.errors.count == 64)
    #expect(error.errors.reduce(0) { $0 + $1.path.utf8.count } < (16 << 20) + 300_000)
    #expect(error.errors.first?.path == "/\(key)/0/id")
    // Short paths are not affected: every error is kept.
    let short = Mapping(Box.init) { Relationship("k", \.children, numberedMapping) }
    let shortError = try #require(throws: MappingErrors.self) {
      try short.map("{\"k\": [\(children)]}", with: MappingOptions(errorLimit: .max))
    }
    #expect(shortError.errors.count == 1_000 && shortError.omittedCount == 0)
  }
}
