import Foundation
import ObjectMapping
import Testing

/// The example of `Documentation/MappingDSL.md`, "Custom value types": it must compile and work.
@Suite struct CustomValueTests {
  /// An amount of money written as `"12.50 EUR"`: a whole number of cents and a currency code.
  struct Money: MappableValue, Equatable {
    var cents: Int
    var currency: String

    init(cents: Int, currency: String) {
      self.cents = cents
      self.currency = currency
    }

    static var expectedDescription: String { #"an amount such as "12.50 EUR""# }

    init(payload: PayloadValue) throws {
      guard payload.kind == .string else {
        throw payload.mismatch(expected: Self.expectedDescription)
      }
      let text = try payload.decode(String.self)
      let parts = text.split(separator: " ", omittingEmptySubsequences: false)
      guard parts.count == 2, let cents = Self.cents(in: parts[0]),
        parts[1].count == 3, parts[1].allSatisfy({ $0.isASCII && $0.isUppercase })
      else {
        throw payload.invalid(expected: Self.expectedDescription)
      }
      self.init(cents: cents, currency: String(parts[1]))
    }

    func payloadNode() throws -> Node {
      guard cents >= 0 else {
        throw ConversionFailure.notRepresentable("\(cents) cents", reason: "negative amount")
      }
      let fraction = cents % 100
      return .string("\(cents / 100).\(fraction < 10 ? "0" : "")\(fraction) \(currency)")
    }

    /// `"12.50"` as 1250; `nil` unless it is digits, a dot and exactly two digits.
    private static func cents(in amount: Substring) -> Int? {
      let halves = amount.split(separator: ".", omittingEmptySubsequences: false)
      guard halves.count == 2, halves[1].count == 2,
        halves.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
        let units = Int(halves[0]), units < Int.max / 100, let hundredths = Int(halves[1])
      else { return nil }
      return units * 100 + hundredths
    }
  }

  struct Order: Equatable {
    var price = Money(cents: 0, currency: "EUR")
    var discount: Money?
    var history: [Money] = []
  }

  static let mapping = Mapping(Order.init) {
    Attribute("price", \.price)
    Attribute("discount", \.discount)
    Attribute("history", \.history, default: [])
  }

  @Test func readsTheCustomTypeAndItsOptionalAndArrayForms() throws {
    let order = try Self.mapping.map(
      #"{"price": "12.50 EUR", "discount": null, "history": ["9.99 EUR", "0.05 USD"]}"#)
    #expect(order.price == Money(cents: 1250, currency: "EUR"))
    #expect(order.discount == nil)
    #expect(
      order.history == [Money(cents: 999, currency: "EUR"), Money(cents: 5, currency: "USD")])
  }

  @Test(arguments: ["12.50 EUR", "0.05 USD", "1000.00 JPY", "0.00 CHF"])
  func writesWhatItReads(text: String) throws {
    let order = try Self.mapping.map(#"{"price": "\#(text)"}"#)
    #expect(try order.price.payloadNode() == .string(text))
    // And back again, through a document node.
    let reread = try Self.mapping.map(Node.object([.init("price", order.price.payloadNode())]))
    #expect(reread.price == order.price)
  }

  @Test func writingANegativeAmountIsAnError() {
    #expect(throws: ConversionFailure.notRepresentable("-5 cents", reason: "negative amount")) {
      try Money(cents: -5, currency: "EUR").payloadNode()
    }
  }

  @Test func badInputNamesThePathAndTheRawValue() {
    let json = """
      {"price": "12,50 EUR", "discount": 12.5, "history": ["1.00 EUR", "1.5 EUR", "2.00 eur"]}
      """
    #expect(
      errorLines { try Self.mapping.map(json) } == [
        #"/price: cannot convert "12,50 EUR" to an amount such as "12.50 EUR""#,
        #"/discount: expected an amount such as "12.50 EUR", found 12.5"#,
        #"/history/1: cannot convert "1.5 EUR" to an amount such as "12.50 EUR""#,
        #"/history/2: cannot convert "2.00 eur" to an amount such as "12.50 EUR""#,
      ])
  }
}
