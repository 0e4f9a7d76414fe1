import Foundation
import ObjectMapping
import Testing

/// Key-value coding's collection operators in source paths (RestKit read every `@` key it did
/// not reserve through KVC, so `comments.@count` was the number of comments).
@Suite("Collection operators in key paths (@count, @sum, @unionOfObjects, …)")
struct CollectionOperatorTests {
  struct Summary: Equatable, Sendable {
    var comments = 0
    var total = 0
    var average: Double?
    var highest: Decimal?
    var lowest: Int?
    var firstName: String?
    var lastName: String?
    var names: [String] = []
    var uniqueNames: [String] = []
  }

  static let summary = Mapping(Summary.init) {
    Attribute("comments.@count", \.comments)
    Attribute("items.@sum.quantity", \.total)
    Attribute("items.@avg.price", \.average)
    Attribute("items.@max.price", \.highest)
    Attribute("items.@min.quantity", \.lowest)
    Attribute("authors.@min.name", \.firstName)
    Attribute("authors.@max.name", \.lastName)
    Attribute("authors.@unionOfObjects.name", \.names)
    Attribute("authors.@distinctUnionOfObjects.name", \.uniqueNames)
  }

  static let payload = #"""
    {
      "comments": [{"id": 1}, {"id": 2}, {"id": 3}],
      "items": [
        {"quantity": 2, "price": 1.5},
        {"quantity": 5, "price": 10},
        {"quantity": 1, "price": null},
        {"quantity": 3}
      ],
      "authors": [{"name": "Zoe"}, {"name": "Ann"}, {"name": "Zoe"}, {"name": null}, {}]
    }
    """#

  @Test func eachOperatorReadsWhatKeyValueCodingGave() throws {
    let summary = try Self.summary.map(Self.payload)
    #expect(summary.comments == 3)
    #expect(summary.total == 11)
    #expect(summary.average == 5.75)  // (1.5 + 10) / 2: null and absent prices are skipped
    #expect(summary.highest == 10)
    #expect(summary.lowest == 1)
    #expect(summary.firstName == "Ann" && summary.lastName == "Zoe")
    #expect(summary.names == ["Zoe", "Ann", "Zoe"])
    #expect(summary.uniqueNames == ["Zoe", "Ann"])
  }

  @Test func anEmptyCollectionSumsToZeroAndHasNoAverageOrExtreme() throws {
    let summary = try Self.summary.map(#"{"comments": [], "items": [], "authors": []}"#)
    #expect(summary == Summary())
  }

  @Test func anAbsentOrNullCollectionIsAnAbsentValue() throws {
    let counted = Mapping(Summary.init) { Attribute("comments.@count", \.comments) }
    #expect(
      errorLines { try counted.map(#"{"comments": null}"#) } == [
        "/comments/@count: required value is missing"
      ])
    let optional = Mapping(Summary.init) { Attribute("items.@avg.price", \.average) }
    #expect(try optional.map(#"{"items": null, "other": 1}"#).average == nil)
    // Only absent keys: an unmappable representation, as for any other key.
    #expect(
      errorLines { try optional.map(#"{"other": 1}"#) } == [
        #"unmappable representation: the mapping reads none of the keys "other""#
      ])
  }

  @Test func countReadsAnObjectsMembersToo() throws {
    let mapping = Mapping(Summary.init) { Attribute("settings.@count", \.comments) }
    #expect(try mapping.map(#"{"settings": {"a": 1, "b": 2}}"#).comments == 2)
  }

  @Test func sumsStayExactAndIntegersStayIntegers() throws {
    struct Totals: Equatable, Sendable {
      var exact: Decimal = 0
      var big: Int64 = 0
    }
    let mapping = Mapping(Totals.init) {
      Attribute("a.@sum", \.exact)
      Attribute("b.@sum.self", \.big)
    }
    let totals = try mapping.map(#"{"a": [0.1, 0.2, 0.3], "b": [9007199254740993, 1]}"#)
    #expect(totals.exact == Decimal(string: "0.6"))
    #expect(totals.big == 9_007_199_254_740_994)
  }

  @Test func unionsOfArraysFlattenNestedCollections() throws {
    struct Library: Equatable, Sendable {
      var titles: [String] = []
      var distinct: [String] = []
      var lineItems: [String] = []
    }
    let mapping = Mapping(Library.init) {
      Attribute("shelves.@unionOfArrays.title", \.titles)
      Attribute("shelves.@distinctUnionOfArrays.title", \.distinct)
      // The keys before the operator cross an array (`orders.items`): one array per order.
      Attribute("orders.items.@unionOfArrays.sku", \.lineItems)
    }
    let json = #"""
      {"shelves": [[{"title": "A"}, {"title": "B"}], null, [{"title": "A"}]],
       "orders": [{"items": [{"sku": "x"}, {"sku": "y"}]}, {"items": [{"sku": "z"}]}]}
      """#
    let library = try mapping.map(json)
    #expect(library.titles == ["A", "B", "A"])
    #expect(library.distinct == ["A", "B"])
    #expect(library.lineItems == ["x", "y", "z"])
  }

  @Test func aRelationshipMapsTheUnionOfNestedArrays() throws {
    struct Book: Equatable, Sendable {
      var title = ""
    }
    struct Shelf: Equatable, Sendable {
      var books: [Book] = []
    }
    let book = Mapping(Book.init) { Attribute("title", \.title) }
    let shelf = Mapping(Shelf.init) { Relationship("rows.@unionOfArrays", \.books, book) }
    let mapped = try shelf.map(#"{"rows": [[{"title": "A"}], [{"title": "B"}, {"title": "C"}]]}"#)
    #expect(mapped.books.map(\.title) == ["A", "B", "C"])
  }

  /// A relationship reading a union maps its objects where they are in the payload (no copy of
  /// them, which in a recursion held every level below): each child's position is its place in
  /// the union, its parent the object holding the rule; a distinct union (which compares the
  /// objects) gives the same children.
  @Test func aRelationshipMapsAUnionsObjectsInThePayload() throws {
    struct Item: Equatable, Sendable {
      var sku = ""
      var position = -1
      var orderName: String?
    }
    struct Cart: Equatable, Sendable {
      var name = ""
      var items: [Item] = []
    }
    let item = Mapping(Item.init) {
      Attribute("sku", \.sku)
      Attribute(.index, \.position)
      Attribute("@parent.name", \.orderName)
    }
    let json = #"""
      {"name": "cart", "orders": [{"items": [{"sku": "x"}, {"sku": "y"}]}, null, {"items": [{"sku": "z"}]}]}
      """#
    for path in ["orders.items.@unionOfArrays", "orders.items.@distinctUnionOfArrays"] {
      let mapping = Mapping(Cart.init) {
        Attribute("name", \.name)
        Relationship(SourcePath(path), \.items, item)
      }
      let cart = try mapping.map(json)
      #expect(cart.items.map(\.sku) == ["x", "y", "z"])
      #expect(cart.items.map(\.position) == [0, 1, 2])
      if path.contains("distinct") { continue }
      // In place: `@parent` is the cart (a copy had no parent to read).
      #expect(cart.items.map(\.orderName) == ["cart", "cart", "cart"])
    }
    let rows = Mapping(Cart.init) { Relationship("rows.@unionOfObjects", \.items, item) }
    do {
      _ = try rows.map(#"{"rows": [{"sku": "a"}, null, {"sku": [5]}, 7]}"#)
      Issue.record("expected errors for the array and the scalar")
    } catch {
      #expect(
        error.errors.map(\.description) == [
          "/rows/@unionOfObjects/1/sku: expected a string, found an array",
          "/rows/@unionOfObjects/2: expected an object, found 7",
        ])
    }
  }

  @Test func valuesThatDoNotFitAreTypeMismatchesAtTheOperatorsPath() {
    let mapping = Mapping(Summary.init) {
      Attribute("items.@sum.name", \.total)
      Attribute("title.@count", \.comments)
    }
    #expect(
      errorLines { try mapping.map(#"{"items": [{"name": "a"}], "title": "x"}"#) } == [
        "/items/@sum: expected numbers for @sum, found a string",
        "/title/@count: expected a collection for @count, found a string",
      ])
  }

  @Test func aNumberBeyondDecimalsRangeIsAConversionFailure() {
    // It was "expected numbers for @sum, found a number".
    let mapping = Mapping(Summary.init) { Attribute("items.@sum.price", \.total) }
    let lines = errorLines { try mapping.map(#"{"items": [{"price": 1}, {"price": 1e400}]}"#) }
    #expect(lines.count == 1)
    #expect(lines.first?.hasPrefix("/items/@sum: cannot convert 1e400") == true)
    #expect(lines.first?.hasSuffix("out of range for @sum") == true)
  }

  @Test func anEscapedOperatorIsAPlainKey() throws {
    let mapping = Mapping(Summary.init) { Attribute(#"stats.\@count"#, \.comments) }
    #expect(try mapping.map(#"{"stats": {"@count": 7}}"#).comments == 7)
    // A first key is never an operator: `@count` alone is a key, as JSON-LD's `@id` is.
    let first = Mapping(Summary.init) { Attribute("@count", \.comments) }
    #expect(try first.map(#"{"@count": 4}"#).comments == 4)
  }

  @Test func pathsPrintAsTheyReadBack() {
    let operation = SourcePath("items.@sum.price")
    #expect(operation.description == "items.@sum.price")
    #expect(SourcePath(operation.description) == operation)
    let literal = SourcePath(keys: ["items", "@count"])
    #expect(literal.description == #"items.\@count"#)
    #expect(SourcePath(literal.description) == literal)
    #expect(literal != SourcePath("items.@count"))
  }

  @Test func operatorsOnlyDecode() throws {
    let mapping = Mapping(Summary.init) {
      Attribute("comments.@count", \.comments)
      Attribute("names", \.names)
    }
    #expect(
      mapping.inverted().omitted.map(\.description) == [
        #"Attribute "comments.@count": a collection operator (@count) cannot be inverted"#
      ])
    let json = try mapping.serialize(Summary(comments: 2, names: ["a"]))
    #expect(String(decoding: json, as: UTF8.self) == #"{"names":["a"]}"#)
  }

  @Test func theCollectionsKeyIsAKnownKey() throws {
    let mapping = Mapping(Summary.init) { Attribute("comments.@count", \.comments) }
      .rejectingUnknownKeys()
    #expect(try mapping.map(#"{"comments": [1, 2]}"#).comments == 2)
    #expect(errorLines { try mapping.map(#"{"comments": [], "x": 1}"#) } == ["/x: unknown key"])
  }

  /// A distinct union of objects nested deep that differ only at the bottom: comparing two of
  /// them (on a hash collision in the set of values seen) took 2^depth steps and never ended.
  @Test(.timeLimit(.minutes(1))) func aDistinctUnionOfDeepObjectsEnds() throws {
    struct Unique { var values: [Node] = [] }
    let mapping = Mapping(Unique.init) { Attribute("items.@distinctUnionOfObjects", \.values) }
    let deep = (0..<64).map {
      String(repeating: #"{"a":"#, count: 100) + "\($0 % 32)" + String(repeating: "}", count: 100)
    }
    let unique = try mapping.map(#"{"items": ["# + deep.joined(separator: ",") + "]}")
    #expect(unique.values.count == 32)
  }
}
