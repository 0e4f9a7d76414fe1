import ObjectMapping
import Testing

// MappingErrors.partialResult holds the valid elements of a failed collection only when the
// model is Sendable: the error is Sendable and may reach another task, so a model that is not
// must not travel in it (issue 37).

/// A `Sendable` model (an internal struct of `Sendable` values).
private struct Tag: Equatable {
  var id = 0
}

/// A model that is not `Sendable`: a class with mutable state.
private final class Note {
  var id = 0
}

private let tagMapping = Mapping(Tag.init) {
  Attribute("id", \.id)
}

private let noteMapping = Mapping(Note.init) {
  Attribute("id", \.id)
}

private let payload = #"[{"id": 1}, {"id": "two"}, {"id": 3}, 4]"#

private let expectedErrors = [
  #"/1/id: cannot convert "two" to an integer"#,
  "/3: expected an object, found 4",
]

/// Maps `payload` through a mapping whose model type this function does not know to be
/// `Sendable`: the general `mapCollection` runs.
private func mapGenerically<M: MappingProtocol>(_ mapping: M) -> MappingErrors? {
  do {
    _ = try mapping.mapCollection(payload)
    return nil
  } catch {
    return error
  }
}

@Suite struct PartialResultTests {
  @Test func aSendableModelsValidElementsAreThePartialResult() throws {
    do {
      _ = try tagMapping.mapCollection(payload)
      Issue.record("expected errors")
    } catch {
      #expect(error.errors.map(\.description) == expectedErrors)
      #expect(error.partialResult(as: [Tag].self) == [Tag(id: 1), Tag(id: 3)])
    }
  }

  @Test func aModelThatIsNotSendableFailsTheSameWayWithoutAPartialResult() throws {
    do {
      _ = try noteMapping.mapCollection(payload)
      Issue.record("expected errors")
    } catch {
      #expect(error.errors.map(\.description) == expectedErrors)
      #expect(error.partialResult == nil)
    }
    // Its valid elements are still there for the caller that maps them, through a report per
    // element, which returns instead of throwing.
    let report = noteMapping.report(#"{"id": 3}"#)
    #expect(report.object?.id == 3)
  }

  @Test func aGenericCallerGetsTheGeneralSpellingWithoutAPartialResult() throws {
    let failure = try #require(mapGenerically(tagMapping))
    #expect(failure.errors.map(\.description) == expectedErrors)
    #expect(failure.partialResult == nil)
  }

  @Test func theErrorCrossesToAnotherTaskWithItsPartialResult() async throws {
    let failure = await Task.detached { () -> MappingErrors? in
      do throws(MappingErrors) {
        _ = try tagMapping.mapCollection(payload)
        return nil
      } catch {
        return error
      }
    }.value
    let errors = try #require(failure)
    #expect(errors.partialResult(as: [Tag].self) == [Tag(id: 1), Tag(id: 3)])
  }
}
