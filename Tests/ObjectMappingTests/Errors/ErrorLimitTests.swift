import Foundation
import ObjectMapping
import Testing

// A run keeps the first MappingErrorLimit.current errors and diagnostics and counts the rest.

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

private let moreLine = "(beyond the error limit of a run; see MappingErrorLimit)"

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
    #expect(MappingErrorLimit.default == 1_000 && MappingErrorLimit.current == 1_000)
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

  @Test func theLimitIsSetPerScope() throws {
    let report = MappingErrorLimit.withLimit(2) { numberedMapping.report(#"{"id": []}"#) }
    #expect(report.summary == ["/id: expected an integer, found an array"])
    do {
      try MappingErrorLimit.withLimit(2) {
        #expect(MappingErrorLimit.current == 2)
        _ = try numberedMapping.mapCollection(numbers(3))
      }
      Issue.record("expected errors")
    } catch let error as MappingErrors {
      #expect(
        error.description == """
          /0: expected an object, found 1
          /1: expected an object, found 1
          … and 1 more error \(moreLine)
          """)
    }
    #expect(MappingErrorLimit.current == 1_000)
  }

  @Test func aRunPastItsLimitStillFails() throws {
    do {
      try MappingErrorLimit.withLimit(0) { _ = try numberedMapping.map(#"{"id": "x"}"#) }
      Issue.record("expected errors")
    } catch let error as MappingErrors {
      #expect(error.errors.isEmpty && error.omittedCount == 1)
      #expect(error.description == "… and 1 more error \(moreLine)")
    }
    var existing = Numbered(id: 4)
    let report = MappingErrorLimit.withLimit(0) {
      numberedMapping.report(#"{"id": "x"}"#, onto: &existing)
    }
    #expect(!report.succeeded && report.object == nil && existing == Numbered(id: 4))
    #expect(report.summary == ["… and 1 more error \(moreLine)"])
  }

  @Test func skippedElementsAreDiagnosticsUnderTheSameLimit() throws {
    let report = MappingErrorLimit.withLimit(2) {
      droppingShelf.report(#"{"numbers": [1, {}, "x"]}"#)
    }
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
      try MappingErrorLimit.withLimit(5) { _ = try mapping.mapCollection(payload) }
      Issue.record("expected errors")
    } catch let error as MappingErrors {
      #expect(error.errors.count == 5 && error.omittedCount == 195)
    }
    #expect(counter.value == 5)
  }

  @Test func collectionsReportsAndMapperResultsCountWhatTheyLeftOut() throws {
    let collection = try MappingErrorLimit.withLimit(1) {
      try numberedMapping.mapCollection(#"[{"id": 1}, 2, 3]"#, options: .skippingInvalidElements)
    }
    #expect(collection.objects == [Numbered(id: 1)])
    #expect(collection.errors.map(\.description) == ["/1: expected an object, found 2"])
    #expect(collection.omittedErrorCount == 1 && collection.omittedDiagnosticCount == 0)

    let mapper = Mapper(MappingProvider { Route("numbers", numberedMapping) })
    let result = try MappingErrorLimit.withLimit(1) {
      try mapper.map(#"{"numbers": [{"id": "a"}, {"id": "b"}, {"id": 3}]}"#)
    }
    #expect(result.all(Numbered.self) == [Numbered(id: 3)])
    #expect(
      result.errors.map(\.description) == [#"/numbers/0/id: cannot convert "a" to an integer"#])
    #expect(result.omittedErrorCount == 1 && result.omittedDiagnosticCount == 1)
    #expect(
      result.diagnostics.map(\.description) == [
        "/numbers/0: element skipped: it did not map (see the errors at this path)"
      ])
  }

  @Test func manyFailingElementsMakeABoundedReport() throws {
    let report = numberedMapping.report(#"{"id": 1}"#)
    #expect(report.succeeded)
    let collection = try numberedMapping.mapCollection(
      numbers(200_000), options: .skippingInvalidElements)
    #expect(collection.errors.count == 1_000 && collection.omittedErrorCount == 199_000)
    let text = MappingErrors(collection.errors, omittedCount: collection.omittedErrorCount)
      .description
    #expect(text.utf8.count < 40_000)
    #expect(text.hasSuffix("\n… and 199,000 more errors \(moreLine)"))
  }
}

struct Library {
  var shelves: [Shelf] = []
}
