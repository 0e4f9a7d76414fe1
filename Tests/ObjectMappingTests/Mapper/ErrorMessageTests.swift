import ObjectMapping
import Testing

@Suite("Error payloads and asError")
struct ErrorMessageTests {
  @Test(
    "Each error payload shape maps to one error with the joined description",
    arguments: [
      (#"{"error": "error1"}"#, "error1", 1),
      (#"{"errors": ["error1", "error2"]}"#, "error1, error2", 2),
      (
        #"{"errors": [{"message": "error1"}, {"message": "error2", "code": 12}]}"#,
        "error1, error2", 2
      ),
    ])
  func shapes(payload: String, description: String, count: Int) throws {
    let result = try Mapper(Shop.provider).map(payload)
    #expect(result.errors.isEmpty)
    let error = try #require(result.asError())
    #expect(error.description == description)
    #expect(error.localizedDescription == description)
    #expect(error.objects(ErrorMessage.self).count == count)
    #expect(result.all(ErrorMessage.self).map(\.message) == error.messages)
  }

  @Test("An error object keeps its whole representation")
  func representation() throws {
    let result = try Mapper(Shop.provider).map(#"{"errors": [{"message": "Nope", "code": 12}]}"#)
    let message = try #require(result.first(ErrorMessage.self))
    #expect(message.message == "Nope")
    #expect(message.representation == ["message": "Nope", "code": 12])
    #expect(ErrorMessage(message: "x").representation == "x")
  }

  /// The error routes look for messages in every payload, so a value of another shape is
  /// passed over with a diagnostic, never an error: a success payload's `"error": false` does
  /// not fail it (RestKit applied error mappings to error responses only).
  @Test("An error value of another shape is passed over with a diagnostic")
  func badShape() throws {
    let result = try Mapper(Shop.provider).map(#"{"errors": [42, {"text": "x"}, "real"]}"#)
    #expect(result.errors.isEmpty)
    #expect(result.asError()?.messages == ["real"])
    #expect(
      result.diagnostics.map(\.description) == [
        #"/errors/0: element skipped: /errors/0: expected an error message (a string or an object with a string "message"), found 42"#,
        #"/errors/1: element skipped: /errors/1: expected an error message (a string or an object with a string "message"), found an object"#,
      ])
    // Next to data, `"error": false` is no error; the data maps.
    let success = try Mapper(Shop.provider).map(
      #"{"products": [{"id": 1, "name": "Tea"}], "error": false}"#)
    #expect(success.errors.isEmpty && success.first(ErrorMessage.self) == nil)
    #expect(success.all(Shop.Product.self).count == 1)
    #expect(success.diagnostics.map(\.path) == ["/error"])
    // Alone, it is nothing to map: no route found content.
    let alone = try Mapper(Shop.provider).map(#"{"error": false}"#)
    #expect(
      alone.errors.map(\.description) == [
        #"nothing to map: no route found mappable content at "categories", "error", "errors", "products"; the payload's top-level keys are "error""#
      ])
    // A route of yours at the same key path is yours: its failures are errors.
    let strict = try Mapper(MappingProvider { Route("errors", ErrorMessage.mapping) }).map(
      #"{"errors": [42]}"#)
    #expect(strict.errors.map(\.path) == ["/errors/0"])
  }

  @Test("Error routes can be dropped")
  func dropped() throws {
    let provider = MappingProvider(errorRoutes: []) { Route("products", Shop.productMapping) }
    let result = try Mapper(provider).map(#"{"errors": ["error1"]}"#)
    #expect(result.isEmpty)
    #expect(
      result.errors.map(\.description) == [
        #"nothing to map: no route found mappable content at "products"; the payload's top-level keys are "errors""#
      ])
  }

  struct APIError: Sendable, Equatable, CustomStringConvertible {
    var code = 0
    var text = ""
    var description: String { "\(text) (\(code))" }
  }

  static let apiErrorMapping = Mapping(APIError.init) {
    Attribute("code", \.code)
    Attribute("text", \.text)
  }

  @Test("Error routes can be replaced, with the provider option or a route of your own")
  func replaced() throws {
    let payload = #"{"errors": [{"code": 12345, "text": "This is the error message"}]}"#
    let option = MappingProvider(errorRoutes: [Route("errors", Self.apiErrorMapping)]) {
      Route("products", Shop.productMapping)
    }
    let own = MappingProvider {
      Route("products", Shop.productMapping)
      Route("errors", Self.apiErrorMapping)
    }
    #expect(own.routes.compactMap(\.keyPath) == ["products", "errors", "error"])
    for provider in [option, own] {
      let result = try Mapper(provider).map(payload)
      #expect(result.errors.isEmpty)
      #expect(result.all(ErrorMessage.self).isEmpty)
      let error = try #require(result.asError())
      #expect(error.description == "This is the error message (12345)")
      #expect(
        error.objects(APIError.self) == [APIError(code: 12345, text: "This is the error message")])
    }
  }

  @Test("asError over any objects; objects that are not Sendable are described but not kept")
  func asErrorOverModels() throws {
    let provider = MappingProvider {
      Route("products", Shop.productMapping)
      Route("notes", Shop.noteMapping)
    }
    let result = try Mapper(provider).map(
      #"{"products": [{"id": 1, "name": "Laptop"}], "notes": [{"text": "hi"}]}"#)
    let error = try #require(result.asError())
    #expect(error.messages.count == 2)
    #expect(error.messages.first == "Product 1 Laptop")
    #expect(error.objects.count == 1)
    #expect(error.objects(Shop.Product.self) == [Shop.Product(id: 1, name: "Laptop")])
    #expect(result.all(Shop.Note.self).map(\.text) == ["hi"])
  }
}
