import ObjectMapping

/// Models and mappings for the mapper tests, namespaced so other suites can use the same names.
enum Shop {
  struct Product: Equatable, Sendable, CustomStringConvertible {
    var id = 0
    var name = ""
    var description: String { "Product \(id) \(name)" }
  }

  struct Category: Equatable, Sendable, CustomStringConvertible {
    var id = 0
    var name = ""
    var description: String { "Category \(id) \(name)" }
  }

  struct User: Equatable, Sendable {
    var name = ""
    var email: String?
  }

  /// A model class that is not `Sendable`.
  final class Note {
    var text = ""
  }

  static let productMapping = Mapping(Product.init) {
    Attribute("id", \.id)
    Attribute("name", \.name)
  }

  static let categoryMapping = Mapping(Category.init) {
    Attribute("id", \.id)
    Attribute("name", \.name)
  }

  static let userMapping = Mapping(User.init) {
    Attribute("name", \.name)
    Attribute("email", \.email)
  }

  static let noteMapping = Mapping(Note.init) {
    Attribute("text", \.text)
  }

  /// RestKit's products-and-categories payload: two key paths, two objects each.
  static let productsAndCategories = """
    {
      "products": [
        {"id": 1, "name": "Laptop"},
        {"id": 2, "name": "Mouse"}
      ],
      "categories": [
        {"id": 10, "name": "Computers"},
        {"id": 11, "name": "Accessories"}
      ]
    }
    """

  static let provider = MappingProvider {
    Route("products", productMapping, name: "product")
    Route("categories", categoryMapping, name: "category")
  }
}
