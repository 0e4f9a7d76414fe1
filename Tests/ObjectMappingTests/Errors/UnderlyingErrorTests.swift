import Foundation
import ObjectMapping
import Testing

/// Errors thrown by your code are kept on the `MappingError` and described as theirs, and a
/// payload none of whose keys a mapping reads is reported (issue 17).
@Suite("Errors: thrown errors kept, unmappable representations")
struct UnderlyingErrorTests {
  enum PriceError: Error, Equatable, CustomStringConvertible {
    case negative(Int)
    var description: String {
      switch self {
      case .negative(let value): "a price cannot be negative (\(value))"
      }
    }
  }

  struct Item: Equatable, Sendable {
    var price = 0
    var name = ""
  }

  static let cents = ValueTransform<Int, Int>(
    forward: { value in
      guard value >= 0 else { throw PriceError.negative(value) }
      return value * 100
    },
    reverse: { $0 / 100 })

  @Test func aTransformsErrorIsKeptAndDescribedAsItself() throws {
    let mapping = Mapping(Item.init) { Attribute("price", \.price, Self.cents) }
    #expect(try mapping.map(#"{"price": 2}"#).price == 200)
    do {
      _ = try mapping.map(#"{"price": -1}"#)
      Issue.record("expected an error")
    } catch {
      let first = try #require(error.errors.first)
      #expect(first.underlyingError as? PriceError == .negative(-1))
      #expect(first.kind == .transformFailed(raw: "-1", message: "a price cannot be negative (-1)"))
      // Not "cannot convert -1 to an integer": -1 is an integer.
      #expect(
        first.description == "/price: the transform failed on -1: a price cannot be negative (-1)")
    }
  }

  @Test func aValidatorsErrorIsKept() throws {
    let mapping = Mapping(Item.init) {
      Attribute("price", \.price).validate { (price: inout Int) in
        if price > 1_000 { throw PriceError.negative(price) }
        return true
      }
    }
    do {
      _ = try mapping.map(#"{"price": 5000}"#)
      Issue.record("expected an error")
    } catch {
      #expect(error.errors.first?.underlyingError as? PriceError == .negative(5000))
      #expect(error.errors.first?.path == "/price")
    }
  }

  @Test func errorsCompareByPathAndKindOnly() {
    let first = MappingError(
      path: "/a", .missingRequiredKey, underlyingError: PriceError.negative(1))
    #expect(first == MappingError(path: "/a", .missingRequiredKey))
    #expect(first != MappingError(path: "/b", .missingRequiredKey))
  }

  // MARK: Unmappable representations

  @Test func anObjectWithNoKeyTheMappingReadsIsAnError() throws {
    let mapping = Mapping(Item.init) {
      Attribute("price", \.price).optional()
      Attribute("name", \.name).optional()
    }
    do {
      _ = try mapping.map(#"{"favorite_color": "blue"}"#)
      Issue.record("expected an unmappable representation")
    } catch {
      #expect(error.errors.map(\.kind) == [.unmappableRepresentation(keys: ["favorite_color"])])
      #expect(
        error.errors.first?.description
          == #"unmappable representation: the mapping reads none of the keys "favorite_color""#)
    }
    var item = Item(price: 3)
    #expect(throws: MappingErrors.self) { try mapping.map(#"{"colour": 1}"#, onto: &item) }
    #expect(item.price == 3)
    // An empty object has none of the keys either (issue 36: RestKit's rule); one key read is
    // enough.
    let empty = try #require(throws: MappingErrors.self) { try mapping.map("{}") }
    #expect(
      empty.errors.map(\.description) == ["unmappable representation: the object is empty"])
    #expect(try mapping.map(#"{"favorite_color": "blue", "name": "x"}"#).name == "x")
    // Opted out per mapping.
    #expect(try mapping.allowingUnmappableRepresentation().map(#"{"x": 1}"#) == Item())
  }
}
