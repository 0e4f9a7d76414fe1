import Foundation
import ObjectMapping
import Testing

/// SPEC §3: "the throwing APIs throw if any element fails, with every element's errors; an
/// option keeps the valid elements (`.skippingInvalidElements`) and still reports the rest".
@Suite("Collections: .skippingInvalidElements keeps the valid elements and reports the rest")
struct CollectionOptionsTests {
  struct Author: Equatable, Sendable {
    var id = 0
    var email = ""
  }

  /// A model that is not `Sendable`: skipping does not need one.
  final class Note {
    var text = ""
  }

  static let author = Mapping(Author.init) {
    Attribute("id", \.id)
    Attribute("email", \.email)
  }

  static let note = Mapping(Note.init) { Attribute("text", \.text) }

  static let mixed = #"""
    [{"id": 1, "email": "a@x"}, {"id": 2, "email": ["b"]}, {"id": 3, "email": "c@x"},
     {"id": "x", "email": "d@x"}]
    """#

  @Test func theValidElementsAreKeptInOrderWithTheOthersErrors() throws {
    let mapped = try Self.author.mapCollection(Self.mixed, options: .skippingInvalidElements)
    #expect(mapped.objects == [Author(id: 1, email: "a@x"), Author(id: 3, email: "c@x")])
    #expect(
      mapped.errors.map(\.description) == [
        "/1/email: expected a string, found an array",
        #"/3/id: cannot convert "x" to an integer"#,
      ])
    #expect(!mapped.succeeded)
    #expect(mapped.omittedErrorCount == 0)
  }

  @Test func theSameObjectsAndErrorsAsTheThrowingVerbAndAWholePayloadRoute() throws {
    let mapped = try Self.author.mapCollection(Self.mixed, options: .skippingInvalidElements)
    // The throwing verb: the same errors, the same valid elements as its partial result.
    do {
      _ = try Self.author.mapCollection(Self.mixed)
      Issue.record("an element failed: the throwing verb throws")
    } catch {
      #expect(error.errors == mapped.errors)
      #expect(error.partialResult(as: [Author].self) == mapped.objects)
    }
    // Without the option, this verb throws the same errors.
    #expect(throws: MappingErrors.self) {
      try Self.author.mapCollection(Self.mixed, options: [])
    }
    do {
      _ = try Self.author.mapCollection(Self.mixed, options: [])
    } catch {
      #expect(error.errors == mapped.errors)
    }
    // A whole-payload mapper route keeps the same elements and errors.
    let result = try Mapper(MappingProvider { Route("", Self.author) }).map(Self.mixed)
    #expect(result.all(Author.self) == mapped.objects)
    #expect(result.errors == mapped.errors)
  }

  @Test func everyInputMapsTheSameWay() throws {
    let fromText = try Self.author.mapCollection(Self.mixed, options: .skippingInvalidElements)
    let fromData = try Self.author.mapCollection(
      Data(Self.mixed.utf8), options: .skippingInvalidElements)
    let fromNode = try Self.author.mapCollection(
      try Node(jsonString: Self.mixed), options: .skippingInvalidElements)
    let fromFoundation = try Self.author.mapCollection(
      .foundation(try JSONSerialization.jsonObject(with: Data(Self.mixed.utf8))),
      options: .skippingInvalidElements)
    for other in [fromData, fromNode, fromFoundation] {
      #expect(other.objects == fromText.objects)
      #expect(other.errors == fromText.errors)
    }
  }

  @Test func aCollectionWithoutFailuresSucceeds() throws {
    let mapped = try Self.author.mapCollection(
      #"[{"id": 1, "email": "a@x"}]"#, options: .skippingInvalidElements)
    #expect(mapped.succeeded && mapped.errors.isEmpty && mapped.diagnostics.isEmpty)
    #expect(mapped.objects == [Author(id: 1, email: "a@x")])
  }

  @Test func errorsPastTheLimitAreCounted() throws {
    let payload =
      "[" + (0..<5).map { _ in #"{"id": "x", "email": "e"}"# }.joined(separator: ",")
      + #", {"id": 9, "email": "ok"}]"#
    let mapped = try Self.author.mapCollection(
      payload, options: .skippingInvalidElements, with: MappingOptions(errorLimit: 2))
    #expect(mapped.objects == [Author(id: 9, email: "ok")])
    #expect(mapped.errors.count == 2)
    #expect(mapped.omittedErrorCount == 3)
  }

  @Test func declinedElementsAreDiagnostics() throws {
    let mapped = try People.person.mapCollection(
      #"[{"name": "Ann", "type": "Girl"}, {"name": "R2", "type": "Robot"}]"#,
      options: .skippingInvalidElements)
    #expect(mapped.objects.map(\.name) == ["Ann"])
    #expect(mapped.errors.isEmpty)
    #expect(mapped.diagnostics.count == 1)
    #expect(mapped.diagnostics.first?.path == "/1")
  }

  @Test func aPayloadThatCannotBeReadIsThrown() throws {
    #expect(throws: MappingErrors.self) {
      try Self.author.mapCollection(#"[{"id": 1,"#, options: .skippingInvalidElements)
    }
  }

  @Test func aModelThatIsNotSendableMapsToo() throws {
    let mapped = try Self.note.mapCollection(
      #"[{"text": "a"}, {"text": []}, {"text": "c"}]"#, options: .skippingInvalidElements)
    #expect(mapped.objects.map(\.text) == ["a", "c"])
    #expect(mapped.errors.map(\.path) == ["/1/text"])
  }
}
