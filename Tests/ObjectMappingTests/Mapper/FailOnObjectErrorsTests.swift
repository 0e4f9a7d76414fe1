import Foundation
import ObjectMapping
import Testing

/// `MappingOptions.failOnObjectErrors` (RestKit's reference: "a switch `failOnObjectErrors`";
/// RestKit's mapper swallowed the errors of individual objects, R-1.8.8).
@Suite("Mapper: failOnObjectErrors")
struct FailOnObjectErrorsTests {
  static let payload = """
    {"products": [{"id": 1, "name": "Laptop"}, {"id": "x", "name": "Mouse"}, {"name": "Pad"}],
     "categories": [{"id": 10, "name": "Computers"}]}
    """

  @Test func byDefaultAFailedObjectIsLeftOutAndReported() throws {
    let result = try Mapper(Shop.provider).map(Self.payload)
    #expect(result.all(Shop.Product.self).map(\.id) == [1])
    #expect(result.all(Shop.Category.self).map(\.id) == [10])
    #expect(result.errors.map(\.path) == ["/products/1/id", "/products/2/id"])
  }

  @Test func setOnTheMapperOrTheCallARunWithErrorsThrowsThem() throws {
    let failing = Mapper(Shop.provider, options: MappingOptions(failOnObjectErrors: true))
    let thrown = #expect(throws: MappingErrors.self) { try failing.map(Self.payload) }
    #expect(thrown?.errors.map(\.path) == ["/products/1/id", "/products/2/id"])
    #expect(thrown?.errors.map(\.kind.isMissingRequiredKey) == [false, true])
    // The call's own options win over the mapper's, field by field.
    let lenient = try failing.map(Self.payload, with: MappingOptions(failOnObjectErrors: false))
    #expect(lenient.all(Shop.Product.self).count == 1)
    #expect(throws: MappingErrors.self) {
      try Mapper(Shop.provider).map(Self.payload, with: MappingOptions(failOnObjectErrors: true))
    }
    // A clean run returns its result as before.
    let clean = try failing.map(#"{"products": [{"id": 1, "name": "Laptop"}]}"#)
    #expect(clean.all(Shop.Product.self) == [Shop.Product(id: 1, name: "Laptop")])
  }

  @Test func nothingFoundIsAnErrorButDiagnosticsAreNot() throws {
    let failing = Mapper(Shop.provider, options: MappingOptions(failOnObjectErrors: true))
    let thrown = #expect(throws: MappingErrors.self) { try failing.map(#"{"other": 1}"#) }
    #expect(thrown?.errors.count == 1)
    guard case .nothingFound(let searched, let keys)? = thrown?.errors.first?.kind else {
      Issue.record("expected nothingFound, got \(String(describing: thrown))")
      return
    }
    #expect(searched == ["categories", "error", "errors", "products"])
    #expect(keys == ["other"])
    // A declined element and a null element are diagnostics, not errors.
    let result = try failing.map(#"{"products": [null, {"id": 2, "name": "Mouse"}]}"#)
    #expect(result.all(Shop.Product.self).map(\.id) == [2])
    #expect(!result.diagnostics.isEmpty)
    // An empty payload is still success.
    #expect(try failing.map("{}").isEmpty)
  }

  @Test func errorsPastTheLimitStillFailTheRun() throws {
    let failing = Mapper(
      Shop.provider, options: MappingOptions(errorLimit: 0, failOnObjectErrors: true))
    let thrown = #expect(throws: MappingErrors.self) { try failing.map(Self.payload) }
    #expect(thrown?.errors.isEmpty == true)
    #expect(thrown?.omittedCount == 2)
  }
}

extension MappingError.Kind {
  fileprivate var isMissingRequiredKey: Bool {
    if case .missingRequiredKey = self { true } else { false }
  }
}
