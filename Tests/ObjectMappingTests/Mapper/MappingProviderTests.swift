import ObjectMapping
import Testing

@Suite("Mapping provider: mappings by name")
struct MappingProviderTests {
  @Test("A mapping registered with a route or by name only is found by name and type")
  func lookup() throws {
    let provider = MappingProvider {
      Route("products", Shop.productMapping, name: "product")
      NamedMapping("user", Shop.userMapping)
    }
    #expect(provider.names == ["product", "user"])
    #expect(provider.routes.compactMap(\.keyPath) == ["products", "error", "errors"])
    let users = try #require(provider.mapping(named: "user", as: Shop.User.self))
    #expect(try users.map(#"{"name": "Ann"}"#) == Shop.User(name: "Ann"))
    #expect(try users.mapCollection(#"[{"name": "Ann"}, {"name": "Bob"}]"#).count == 2)
    #expect(provider.mapping(named: "user", as: Shop.Product.self) == nil)
    #expect(provider.mapping(named: "nobody") == nil)
    #expect(provider.mapping(named: "product") is Mapping<Shop.Product>)
    #expect(provider.definitionErrors.isEmpty)
  }

  @Test("Objects of a named route")
  func objectsByRouteName() throws {
    let result = try Mapper(Shop.provider).map(Shop.productsAndCategories)
    #expect(result.objects(named: "category").count == 2)
    #expect(result.objects(named: "nothing").isEmpty)
  }

  @Test("A name given twice: the first keeps it, and every run reports the mistake")
  func duplicateName() throws {
    let provider = MappingProvider {
      Route("products", Shop.productMapping, name: "item")
      Route("categories", Shop.categoryMapping, name: "item")
    }
    #expect(provider.mapping(named: "item", as: Shop.Product.self) != nil)
    let message =
      #"invalid mapping definition: the name "item" is given to 2 mappings; the first one keeps it"#
    #expect(provider.definitionErrors.map(\.description) == [message])
    let result = try Mapper(provider).map(Shop.productsAndCategories)
    #expect(result.count == 4)
    #expect(result.errors.map(\.description) == [message])
  }
}
