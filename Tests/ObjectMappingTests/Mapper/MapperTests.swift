import Foundation
import ObjectMapping
import Testing

@Suite("Mapper routes")
struct MapperRoutingTests {
  @Test("RestKit's products and categories: two routes, 2 + 2 objects, route order")
  func productsAndCategories() throws {
    let result = try Mapper(Shop.provider).map(Shop.productsAndCategories)
    #expect(result.errors.isEmpty)
    #expect(result.diagnostics.isEmpty)
    #expect(result.count == 4)
    #expect(result.keyPaths == ["products", "categories"])
    #expect(
      result.asCollection().map { String(describing: $0) } == [
        "Product 1 Laptop", "Product 2 Mouse", "Category 10 Computers", "Category 11 Accessories",
      ])
    #expect(
      result.all(Shop.Product.self) == [
        Shop.Product(id: 1, name: "Laptop"), Shop.Product(id: 2, name: "Mouse"),
      ])
    #expect(result.all(Shop.Category.self).map(\.id) == [10, 11])
    #expect(result.first(Shop.Category.self)?.name == "Computers")
    #expect((result.asObject() as? Shop.Product)?.id == 1)
  }

  @Test("Route order wins over the payload's key order")
  func routeOrderThenPayloadOrder() throws {
    let payload = """
      {"categories": [{"id": 10, "name": "Computers"}], "products": [{"id": 2, "name": "Mouse"},
      {"id": 1, "name": "Laptop"}]}
      """
    let result = try Mapper(Shop.provider).map(payload)
    #expect(
      result.asCollection().map { String(describing: $0) } == [
        "Product 2 Mouse", "Product 1 Laptop", "Category 10 Computers",
      ])
  }

  @Test("asDictionary: key path to array for collections, to the object for one object")
  func dictionary() throws {
    let provider = MappingProvider {
      Route("products", Shop.productMapping)
      Route("featured", Shop.productMapping)
      Route("empty", Shop.categoryMapping)
    }
    let payload = """
      {"products": [{"id": 1, "name": "Laptop"}], "featured": {"id": 2, "name": "Mouse"},
       "empty": []}
      """
    let dictionary = try Mapper(provider).map(payload).asDictionary()
    #expect(dictionary.keys.sorted() == ["empty", "featured", "products"])
    #expect((dictionary["products"] as? [Any])?.count == 1)
    #expect(
      (dictionary["products"] as? [Any])?.first as? Shop.Product
        == Shop.Product(id: 1, name: "Laptop"))
    #expect(dictionary["featured"] as? Shop.Product == Shop.Product(id: 2, name: "Mouse"))
    #expect((dictionary["empty"] as? [Any])?.isEmpty == true)
  }

  @Test("Typed accessors by key path")
  func typedByKeyPath() throws {
    let provider = MappingProvider {
      Route("products", Shop.productMapping)
      Route("featured", Shop.productMapping)
    }
    let payload = """
      {"products": [{"id": 1, "name": "Laptop"}, {"id": 3, "name": "Pen"}],
       "featured": {"id": 2, "name": "Mouse"}}
      """
    let result = try Mapper(provider).map(payload)
    #expect(result.all(Shop.Product.self).map(\.id) == [1, 3, 2])
    #expect(result.all(Shop.Product.self, at: "products").map(\.id) == [1, 3])
    #expect(result.first(Shop.Product.self, at: "featured")?.id == 2)
    #expect(result.first(Shop.Category.self) == nil)
    #expect(result.all(Shop.Product.self, at: "missing").isEmpty)
    #expect(result.objects(at: "products").count == 2)
  }

  @Test("The whole payload: an object maps one object, an array a collection")
  func wholePayload() throws {
    let provider = MappingProvider { Route("", Shop.userMapping) }
    let single = try Mapper(provider).map(#"{"name": "Ann"}"#)
    #expect(single.all(Shop.User.self) == [Shop.User(name: "Ann")])
    #expect(single.asDictionary()[""] as? Shop.User == Shop.User(name: "Ann"))
    let many = try Mapper(provider).map(#"[{"name": "Ann"}, {"name": "Bob"}]"#)
    #expect(many.all(Shop.User.self).map(\.name) == ["Ann", "Bob"])
    #expect((many.asDictionary()[""] as? [Any])?.count == 2)
  }

  @Test("A dotted key path reads nested objects; an escaped dot is a literal key")
  func nestedKeyPath() throws {
    let provider = MappingProvider {
      Route("data.user", Shop.userMapping)
      Route(#"dotted\.key"#, Shop.userMapping)
    }
    let result = try Mapper(provider).map(
      #"{"data": {"user": {"name": "Ann"}}, "dotted.key": {"name": "Bob"}}"#)
    #expect(result.errors.isEmpty)
    #expect(result.all(Shop.User.self).map(\.name) == ["Ann", "Bob"])
    #expect(result.keyPaths == ["data.user", #"dotted\.key"#])
  }

  @Test("A key path over a top-level array maps the value in every element")
  func throughTopLevelArray() throws {
    let provider = MappingProvider { Route("human", Shop.userMapping) }
    let result = try Mapper(provider).map(
      #"[{"human": {"name": "Ann"}}, {"robot": {}}, {"human": {"name": "Bob"}}]"#)
    #expect(result.errors.isEmpty)
    #expect(result.all(Shop.User.self).map(\.name) == ["Ann", "Bob"])
    #expect((result.asDictionary()["human"] as? [Any])?.count == 2)
  }

  @Test("A key path through nested arrays flattens the collections it reaches")
  func throughNestedArrays() throws {
    let provider = MappingProvider { Route("groups.people", Shop.userMapping) }
    let payload = """
      {"groups": [{"people": [{"name": "Ann"}, {"name": "Bob"}]}, {"people": [{"email": "x"}]},
       {"people": [{"name": "Cy"}]}]}
      """
    let result = try Mapper(provider).map(payload)
    #expect(result.all(Shop.User.self).map(\.name) == ["Ann", "Bob", "Cy"])
    #expect(
      result.errors.map(\.description) == ["/groups/1/people/0/name: required value is missing"])
    #expect(
      result.diagnostics.map(\.description) == [
        "/groups/1/people/0: element skipped: it did not map (see the errors at this path)"
      ])
  }

  @Test("Routes can be built with if, for and outside a block")
  func builderForms() throws {
    let includeCategories = false
    let keyPaths = ["a", "b"]
    let provider = MappingProvider(errorRoutes: []) {
      Route("products", Shop.productMapping)
      if includeCategories {
        Route("categories", Shop.categoryMapping)
      }
      for keyPath in keyPaths {
        Route(keyPath, Shop.userMapping)
      }
    }
    #expect(provider.routes.compactMap(\.keyPath) == ["products", "a", "b"])
    let listed = MappingProvider(
      routes: [Route("products", Shop.productMapping), Route("a", Shop.userMapping)])
    #expect(listed.routes.compactMap(\.keyPath) == ["products", "a", "error", "errors"])
  }
}

@Suite("Mapper: empty payloads, nothing found, failures")
struct MapperOutcomeTests {
  @Test("An empty object or array payload is success with no objects", arguments: ["{}", "[]"])
  func emptyPayload(payload: String) throws {
    for provider in [Shop.provider, MappingProvider { Route("", Shop.userMapping) }] {
      let result = try Mapper(provider).map(payload)
      #expect(result.isEmpty)
      #expect(result.asCollection().isEmpty)
      #expect(result.errors.isEmpty)
      #expect(result.diagnostics.isEmpty)
      #expect(result.asError() == nil)
    }
  }

  @Test("No matching route: one error listing the key paths searched and the top-level keys")
  func nothingFound() throws {
    let provider = MappingProvider {
      Route("this", Shop.userMapping)
      Route("that", Shop.userMapping)
    }
    let result = try Mapper(provider).map(#"{"user": {"name": "Blake"}, "meta": null}"#)
    #expect(result.isEmpty)
    // The key paths searched in a stable order: sorted (issue 36), not in route order.
    #expect(
      result.errors.map(\.description) == [
        #"nothing to map: no route found mappable content at "error", "errors", "that", "this"; "#
          + #"the payload's top-level keys are "user", "meta""#
      ])
    #expect(
      result.errors.first?.kind
        == .nothingFound(
          searched: ["error", "errors", "that", "this"], topLevelKeys: ["user", "meta"]))
  }

  @Test("Nothing found in a payload that is not an object")
  func nothingFoundInArray() throws {
    let provider = MappingProvider(errorRoutes: []) { Route("human", Shop.userMapping) }
    let result = try Mapper(provider).map(#"[{"robot": 1}, 2]"#)
    #expect(
      result.errors.map(\.description) == [
        #"nothing to map: no route found mappable content at "human"; the payload is not an object"#
      ])
    let whole = MappingProvider(errorRoutes: []) { Route("", Shop.userMapping) }
    #expect(
      try Mapper(whole).map("null").errors.map(\.description) == [
        "nothing to map: no route found mappable content at the whole payload; "
          + "the payload is not an object"
      ])
  }

  @Test("A null value counts as not found")
  func nullIsNotFound() throws {
    let result = try Mapper(Shop.provider).map(#"{"products": null, "categories": []}"#)
    #expect(result.errors.isEmpty)
    #expect(result.keyPaths == ["categories"])
  }

  @Test("A single object that fails is left out; its errors are reported; other routes map")
  func singleObjectFailure() throws {
    let provider = MappingProvider {
      Route("user", Shop.userMapping)
      Route("products", Shop.productMapping)
    }
    let result = try Mapper(provider).map(
      #"{"user": {"email": "a@b.c"}, "products": [{"id": 1, "name": "Laptop"}]}"#)
    #expect(result.keyPaths == ["products"])
    #expect(result.all(Shop.Product.self).count == 1)
    #expect(result.errors.map(\.description) == ["/user/name: required value is missing"])
  }

  @Test("Failed and null elements of a collection are skipped with a diagnostic each")
  func collectionElementFailures() throws {
    let result = try Mapper(Shop.provider).map(
      #"{"products": [{"id": 1, "name": "Laptop"}, null, {"id": "x", "name": "Pen"}]}"#)
    #expect(result.all(Shop.Product.self).map(\.id) == [1])
    #expect(
      result.errors.map(\.description) == [
        #"/products/2/id: cannot convert "x" to an integer"#
      ])
    #expect(
      result.diagnostics.map(\.description) == [
        "/products/1: element skipped: it is null",
        "/products/2: element skipped: it did not map (see the errors at this path)",
      ])
  }

  @Test("A payload that cannot be read throws")
  func unreadable() {
    // Mapper throws MappingErrors, as Mapping does (issue 22: one error type per family).
    #expect(
      throws: MappingErrors([
        MappingError(
          .format(
            .syntax(
              message: "expected a value, found '}'",
              location: TextLocation(offset: 14, line: 1, column: 15))))
      ])
    ) { try Mapper(Shop.provider).map(#"{"products": [}"#) }
    do {
      _ = try Mapper(Shop.provider).map("[1,]")
      Issue.record("expected a syntax error")
    } catch {
      #expect(error.description.hasPrefix("syntax error at line 1, column 4 (byte 3)"))
    }
  }
}

@Suite("Mapper inputs")
struct MapperInputTests {
  static let json = #"{"products": [{"id": 1, "name": "Laptop"}]}"#

  @Test("Data, String, Node and Foundation values map alike")
  func inputs() throws {
    let mapper = Mapper(Shop.provider)
    let data = Data(Self.json.utf8)
    let node = try Node(jsonString: Self.json)
    let foundation = try JSONSerialization.jsonObject(with: data)
    let expected = [Shop.Product(id: 1, name: "Laptop")]
    #expect(try mapper.map(data).all(Shop.Product.self) == expected)
    #expect(try mapper.map(Self.json).all(Shop.Product.self) == expected)
    #expect(try mapper.map(node).all(Shop.Product.self) == expected)
    #expect(try mapper.map(.foundation(foundation)).all(Shop.Product.self) == expected)
  }

  @Test("A payload with a Content-Type is read with the format registry")
  func contentType() throws {
    let mapper = Mapper(Shop.provider)
    let json = try mapper.map(
      .payload(Data(Self.json.utf8), contentType: "application/json; charset=utf-8"))
    #expect(json.all(Shop.Product.self) == [Shop.Product(id: 1, name: "Laptop")])
    let form = try mapper.map(
      .payload(
        Data("products[0][id]=7&products[0][name]=Desk".utf8),
        contentType: "application/x-www-form-urlencoded"))
    #expect(form.errors.isEmpty)
    #expect(form.all(Shop.Product.self) == [Shop.Product(id: 7, name: "Desk")])
    #expect(throws: MappingErrors([MappingError(.unsupportedContentType("text/csv"))])) {
      try mapper.map(.payload(Data("a,b".utf8), contentType: "text/csv"))
    }
  }

  @Test("A custom format from the mapper's registry")
  func customFormat() throws {
    let lines = PayloadFormat(
      contentType: "text/x-names",
      read: { data in
        let names = String(decoding: data, as: UTF8.self).split(separator: "\n")
        let users = names.map { Node.object([Node.Member("name", .string(String($0)))]) }
        return .object([Node.Member("users", .array(users))])
      },
      write: { _ in Data() })
    let mapper = Mapper(
      MappingProvider { Route("users", Shop.userMapping) },
      formats: FormatRegistry.standard.registering(lines))
    let result = try mapper.map(.payload(Data("Ann\nBob".utf8), contentType: "text/x-names"))
    #expect(result.all(Shop.User.self).map(\.name) == ["Ann", "Bob"])
  }
}
