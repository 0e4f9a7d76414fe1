/// The facts AppCoreKit's selectors test (`@ipad`, `@iphone`, `@iphone5`, `@ios >= 7`), which
/// the app supplies: a definition library does not guess the device.
///
/// ```swift
/// // "$TweetModel": { "name": "user.name", "@ipad": { "name": "user.screen_name" } }
/// let conditions = DefinitionConditions(["ipad": UIDevice.current.userInterfaceIdiom == .pad],
///                                       osVersion: UIDevice.current.systemVersion)
/// ```
///
/// A selector whose condition holds merges its members over the object it sits in; one that
/// does not hold is skipped. `ipad`, `iphone` and `iphone5` are always known (false unless
/// given); any other name the app gives (`"tv"`, `"beta"`) becomes a selector too (`@tv`). An
/// `@ios` selector without an `osVersion` never holds. Any other `@name` is an unknown keyword.
public struct DefinitionConditions: Sendable {
  /// The named selectors and whether each holds.
  public var selectors: [String: Bool]
  /// The OS version `@ios` selectors compare with, as numbers (`[17, 2]`).
  public var osVersion: [Int]?

  /// Creates conditions.
  ///
  /// - Parameters:
  ///   - selectors: Named selectors and whether each holds (`["ipad": true]`).
  ///   - osVersion: The OS version (`"17.2"`) for `@ios` selectors.
  public init(_ selectors: [String: Bool] = [:], osVersion: String? = nil) {
    self.selectors = selectors
    self.osVersion = osVersion.map { $0.split(separator: ".").map { Int($0) ?? 0 } }
  }

  /// No selector holds.
  public static var none: DefinitionConditions { DefinitionConditions() }

  /// Whether the selector key (`@ipad`, `@ios >= 7`) holds; `nil` when the key is not a
  /// selector.
  func holds(_ key: String) -> Bool? {
    guard key.hasPrefix("@") else { return nil }
    let body = key.dropFirst()
    if body.hasPrefix("ios") {
      let rest = body.dropFirst(3).filter { $0 != " " }
      guard !rest.isEmpty else { return osVersion != nil }
      for op in [">=", "<=", "==", "!=", ">", "<", "="] where rest.hasPrefix(op) {
        let wanted = rest.dropFirst(op.count).split(separator: ".").map { Int($0) }
        guard !wanted.isEmpty, wanted.allSatisfy({ $0 != nil }) else { return nil }
        guard let osVersion else { return false }
        let order = Self.compare(osVersion, wanted.compactMap { $0 })
        switch op {
        case ">=": return order >= 0
        case "<=": return order <= 0
        case ">": return order > 0
        case "<": return order < 0
        case "!=": return order != 0
        default: return order == 0
        }
      }
      return nil
    }
    let name = String(body)
    if let value = selectors[name] { return value }
    if ["ipad", "iphone", "iphone5"].contains(name) { return false }
    return nil
  }

  private static func compare(_ left: [Int], _ right: [Int]) -> Int {
    for index in 0..<max(left.count, right.count) {
      let l = index < left.count ? left[index] : 0
      let r = index < right.count ? right[index] : 0
      if l != r { return l < r ? -1 : 1 }
    }
    return 0
  }
}
