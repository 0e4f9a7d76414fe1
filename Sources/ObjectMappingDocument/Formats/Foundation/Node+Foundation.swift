import Foundation

extension Node {
  /// Creates a node from a Foundation object tree, as produced by `JSONSerialization` or
  /// `PropertyListSerialization` (or built by hand), so payloads parsed elsewhere can be mapped.
  ///
  /// Conversions:
  /// - `NSDictionary` / `[String: Any]` → ``object(_:)``. Dictionaries are unordered, so the
  ///   members are **sorted by the UTF-8 bytes of their keys** to make the result
  ///   deterministic. Keys must be strings.
  /// - `NSArray` / `[Any]` and `NSOrderedSet` (in its order) → ``array(_:)``; `NSString` /
  ///   `String` → ``string(_:)``; `NSNull` and `nil` (an `Optional` inside `Any`) → ``null``.
  ///   An unordered `NSSet` has no deterministic order and is an error.
  /// - Booleans (`Bool`, and the `NSNumber` booleans `JSONSerialization` produces for `true`
  ///   and `false`) → ``bool(_:)``. A boolean `NSNumber` is told from the number `1` on both
  ///   Linux and Apple platforms.
  /// - Integers (`Int`, `Int8`…`UInt64`, integer `NSNumber`s) → ``integer(_:)``, or
  ///   ``decimal(_:)-enum.case`` with the exact digits when beyond `Int64`.
  /// - `Double` and floating-point `NSNumber`s → ``double(_:)``; `Float` → ``decimal(_:)-enum.case`` with
  ///   the float's shortest text (`Float(0.1)` → `"0.1"`, not `0.10000000149011612`).
  /// - `Decimal` / `NSDecimalNumber` → ``integer(_:)`` when integral and within `Int64`,
  ///   otherwise ``decimal(_:)-enum.case`` with its exact text.
  /// - `Date` / `NSDate` (property lists) → an ISO 8601 UTC string, with milliseconds when
  ///   non-zero (`"2011-07-07T04:35:28Z"`, `"2011-07-07T04:35:28.123Z"`), for dates in the
  ///   years 0000 through 9999 (see `DateFormat`); any other date is an error.
  /// - `Data` / `NSData` (property lists) → a base64 string.
  ///
  /// The tree is walked with an explicit stack, and arrays and dictionaries may nest at most
  /// `maximumDepth` levels, as in the JSON reader (``JSONReadingOptions/maximumDepth``): a
  /// deeper ``Node`` could not be mapped, compared or freed safely on a small stack.
  ///
  /// ```swift
  /// let any = try JSONSerialization.jsonObject(with: Data(#"{"ok": true, "n": 1}"#.utf8))
  /// let node = try Node(foundation: any)   // ["n": 1, "ok": true]  (keys sorted)
  /// let back = node.foundationValue        // ["n": 1, "ok": true] as [String: Any]
  /// let deep = try Node(foundation: any, maximumDepth: 2_000)
  /// ```
  ///
  /// - Parameters:
  ///   - value: A Foundation object tree.
  ///   - maximumDepth: The deepest nesting of arrays and dictionaries accepted (512, as for
  ///     JSON); `[[1]]` is 2 levels deep, a scalar 0.
  /// - Throws: ``FormatError`` `.notRepresentable` at the path of the first value that has no
  ///   ``Node`` equivalent (a non-string dictionary key, a `Decimal` NaN, a date outside the
  ///   years 0000 through 9999, any other type), naming its type, for example
  ///   `/items/0: cannot serialize: a value of type URL has no Node equivalent`;
  ///   ``FormatError/Kind/depthLimitExceeded(limit:location:)`` at the path of the first
  ///   container nested too deep, for example `/a/0: nesting deeper than 2 levels` (its
  ///   location has line 0: the input is not text).
  public init(foundation value: Any, maximumDepth: Int = 512) throws {
    var stack: [FoundationFrame] = []
    var pending = value
    while true {
      var result: Node
      let classified = try _classify(pending, stack: stack)
      if classified.isContainer && stack.count >= maximumDepth {
        throw FormatError(
          path: _pointer(of: stack),
          .depthLimitExceeded(
            limit: maximumDepth, location: TextLocation(offset: 0, line: 0, column: 0)))
      }
      switch classified {
      case .node(let node):
        result = node
      case .array(let items):
        guard let first = items.first else {
          result = .array([])
          break
        }
        stack.append(FoundationFrame(items: items))
        pending = first
        continue
      case .object(let pairs):
        guard let first = pairs.first else {
          result = .object([])
          break
        }
        stack.append(FoundationFrame(pairs: pairs))
        pending = first.value
        continue
      }
      // Hand the finished value to its container; finish containers whose last item it was.
      while true {
        guard let top = stack.indices.last else {
          self = result
          return
        }
        if let next = stack[top].add(result) {
          pending = next
          break
        }
        result = stack[top].node
        stack.removeLast()
      }
    }
  }

  /// The node as a Foundation object tree, as `JSONSerialization` would produce it.
  ///
  /// Conversions: ``object(_:)`` → `[String: Any]` (for duplicate keys the first member wins,
  /// as in ``subscript(_:)-(String)``); ``array(_:)`` → `[Any]`; ``string(_:)`` → `String`;
  /// ``bool(_:)`` → `Bool`; ``integer(_:)`` → `Int`; ``double(_:)`` → `Double`;
  /// ``decimal(_:)-enum.case`` → `Int` for an integer that fits, `Decimal` for a larger integer,
  /// `Double` (correctly rounded) for text with a fraction or an exponent, `Double.nan` for text
  /// that is not a JSON number (`.decimal("1,2")`); ``null`` → `NSNull`.
  ///
  /// ```swift
  /// let node: Node = ["ok": true, "n": 1, "big": .decimal("12345678901234567890")]
  /// let data = try JSONSerialization.data(withJSONObject: node.foundationValue)
  /// let back = try Node(foundation: JSONSerialization.jsonObject(with: data))
  /// ```
  public var foundationValue: Any { foundationValue(numbersAsNSNumber: false) }

  /// ``foundationValue`` with every number an `NSNumber` (an `NSDecimalNumber` for a large
  /// integer) when `numbersAsNSNumber`, as Objective-C APIs and `JSONSerialization` give them:
  /// a whole number then reads back `as? Double` as well as `as? Int` (Foundation's bridging
  /// checks exactness), where a Swift `Int` in an `Any` reads only as an `Int`. Booleans stay
  /// `Bool`.
  package func foundationValue(numbersAsNSNumber: Bool) -> Any {
    var stack: [_WriteFrame] = []
    var built: [[Any]] = []
    var builtObjects: [[String: Any]] = []
    var value = self
    while true {
      var result: Any
      switch value {
      case .array(let elements) where !elements.isEmpty:
        stack.append(_WriteFrame(elements: elements))
        built.append([])
        built[built.count - 1].reserveCapacity(elements.count)
        value = elements[0]
        continue
      case .object(let members) where !members.isEmpty:
        stack.append(_WriteFrame(members: members))
        builtObjects.append([:])
        builtObjects[builtObjects.count - 1].reserveCapacity(members.count)
        value = members[0].value
        continue
      default:
        if numbersAsNSNumber, case .decimal(let number) = value,
          case .float(let float) = number.storage
        {
          // A `Float` property's value: an `NSNumber` of the `Float`, which reads back
          // `as? Float` (Foundation checks exactness, and `1.3` as a `Double` is not a `Float`).
          result = NSNumber(value: float)
        } else {
          result = _foundationScalar(value)
          if numbersAsNSNumber { result = _asNSNumber(result) }
        }
      }
      while true {
        guard let top = stack.indices.last else { return result }
        let index = stack[top].index
        if stack[top].isObject {
          let members = stack[top].members
          let key = members[index].key
          let last = builtObjects.count - 1
          if builtObjects[last][key] == nil { builtObjects[last][key] = result }
          if index + 1 < members.count {
            stack[top].index = index + 1
            value = members[index + 1].value
            break
          }
          result = builtObjects.removeLast()
        } else {
          let elements = stack[top].elements
          built[built.count - 1].append(result)
          if index + 1 < elements.count {
            stack[top].index = index + 1
            value = elements[index + 1]
            break
          }
          result = built.removeLast()
        }
        stack.removeLast()
      }
    }
  }
}

/// A scalar (or empty container) node as a Foundation value.
private func _foundationScalar(_ node: Node) -> Any {
  switch node {
  case .null: return NSNull()
  case .bool(let flag): return flag
  case .integer(let number): return Int(exactly: number) ?? number
  case .double(let number): return number
  case .decimal(let number): return _foundationNumber(number.text)
  case .string(let text): return text
  case .array: return [Any]()
  case .object: return [String: Any]()
  }
}

/// A Foundation scalar's number as an `NSNumber` (`Decimal` as `NSDecimalNumber`); anything
/// else as it is.
private func _asNSNumber(_ value: Any) -> Any {
  switch value {
  case let number as Int: return NSNumber(value: number)
  case let number as Int64: return NSNumber(value: number)
  case let number as Double: return NSNumber(value: number)
  case let number as Decimal: return NSDecimalNumber(decimal: number)
  default: return value
  }
}

/// Number text as `Int`, `Decimal` (large integers) or `Double` (fractions and exponents);
/// `Double.nan` for text that is not a JSON number, so it is never read as a prefix of it.
private func _foundationNumber(_ text: String) -> Any {
  guard _isJSONNumber(text) else { return Double.nan }
  let isInteger = !text.utf8.contains {
    $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E")
  }
  if isInteger {
    if let integer = Int(text) { return integer }
    if let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) {
      return decimal
    }
  }
  if let double = Double(text), double.isFinite { return double }
  if let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) {
    return decimal
  }
  return Double(text) ?? Double.nan
}

/// What a Foundation value turned out to be.
private enum Classified {
  case node(Node)
  case array([Any])
  case object([(key: String, value: Any)])

  /// Whether this is an array or a dictionary (empty ones included): one nesting level.
  var isContainer: Bool {
    switch self {
    case .node: return false
    case .array, .object: return true
    }
  }
}

/// One container being converted by ``Node/init(foundation:maximumDepth:)``.
private struct FoundationFrame {
  var items: [Any] = []
  var pairs: [(key: String, value: Any)] = []
  var elements: [Node] = []
  var members: [Node.Member] = []
  /// The position of the item being converted.
  var index = 0
  var isObject: Bool

  init(items: [Any]) {
    self.items = items
    self.elements.reserveCapacity(items.count)
    self.isObject = false
  }

  init(pairs: [(key: String, value: Any)]) {
    self.pairs = pairs
    self.members.reserveCapacity(pairs.count)
    self.isObject = true
  }

  /// Stores the converted item and returns the next one to convert, if any.
  mutating func add(_ node: Node) -> Any? {
    if isObject {
      members.append(Node.Member(pairs[index].key, node))
      index += 1
      return index < pairs.count ? pairs[index].value : nil
    }
    elements.append(node)
    index += 1
    return index < items.count ? items[index] : nil
  }

  /// The finished container.
  var node: Node { isObject ? .object(members) : .array(elements) }

  /// The JSON Pointer token of the item being converted.
  var token: String {
    isObject ? _escapePointerToken(pairs[index].key) : String(index)
  }
}

/// Lets `Optional` values inside `Any` be recognised and unwrapped.
private protocol OptionalValue {
  var _wrappedValue: Any? { get }
}

extension Optional: OptionalValue {
  fileprivate var _wrappedValue: Any? {
    switch self {
    case .some(let wrapped): return wrapped
    case .none: return nil
    }
  }
}

/// Sorts the key–value pairs of a dictionary by the UTF-8 bytes of their keys.
private func _sortedPairs(_ dictionary: [String: Any]) -> [(key: String, value: Any)] {
  dictionary.sorted { _compareUTF8($0.key, $1.key) < 0 }
}

/// Classifies one Foundation value, converting scalars.
///
/// Class instances (`NSNumber`, `NSString`, `NSArray`, …) and Swift values are told apart
/// first: an `as?` cast from a Swift array to a Foundation class would bridge (copy) the whole
/// array, and one from an `NSNumber` 1 to `Bool` would succeed.
private func _classify(_ value: Any, stack: [FoundationFrame]) throws -> Classified {
  var value = value
  while let optional = value as? any OptionalValue {
    guard let wrapped = optional._wrappedValue else { return .node(.null) }
    value = wrapped
  }
  let valueType = type(of: value)
  if valueType is AnyClass { return try _classifyObject(value, stack: stack) }
  if valueType == Bool.self, let flag = value as? Bool { return .node(.bool(flag)) }
  if valueType == String.self, let text = value as? String { return .node(.string(text)) }
  if valueType == Int.self, let number = value as? Int { return .node(.integer(Int64(number))) }
  if valueType == Double.self, let number = value as? Double { return .node(.double(number)) }
  if let node = _nativeInteger(value, type: valueType) { return .node(node) }
  if valueType == Float.self, let number = value as? Float { return .node(_floatNode(number)) }
  if valueType == Decimal.self, let number = value as? Decimal {
    return .node(try _decimalNode(number, stack: stack))
  }
  if let items = value as? [Any] { return .array(items) }
  if let dictionary = value as? [String: Any] { return .object(_sortedPairs(dictionary)) }
  if let dictionary = value as? [AnyHashable: Any] {
    throw _nonStringKey(in: dictionary, stack: stack)
  }
  if valueType == Date.self, let date = value as? Date {
    return .node(.string(try _iso8601(date, stack: stack)))
  }
  if valueType == Data.self, let data = value as? Data {
    return .node(.string(data.base64EncodedString()))
  }
  if let text = value as? String { return .node(.string(text)) }  // Substring, …
  throw _notRepresentable("a value of type \(valueType) has no Node equivalent", stack: stack)
}

/// Classifies an instance of a class: the Foundation types of `JSONSerialization` and
/// `PropertyListSerialization` trees.
private func _classifyObject(_ value: Any, stack: [FoundationFrame]) throws -> Classified {
  if let number = value as? NSNumber {
    if let decimal = number as? NSDecimalNumber {
      return .node(try _decimalNode(decimal.decimalValue, stack: stack))
    }
    return .node(_numberNode(number))
  }
  if let text = value as? NSString { return .node(.string(text as String)) }
  if value is NSNull { return .node(.null) }
  if value is NSArray, let items = value as? [Any] { return .array(items) }
  // An ordered set (Core Data's ordered to-many relationships) is an array in its order.
  if let ordered = value as? NSOrderedSet { return .array(ordered.array) }
  if value is NSDictionary {
    if let dictionary = value as? [String: Any] { return .object(_sortedPairs(dictionary)) }
    if let dictionary = value as? [AnyHashable: Any] {
      throw _nonStringKey(in: dictionary, stack: stack)
    }
  }
  if let date = value as? NSDate { return .node(.string(try _iso8601(date as Date, stack: stack))) }
  if let data = value as? NSData { return .node(.string((data as Data).base64EncodedString())) }
  throw _notRepresentable(
    "a value of type \(type(of: value)) has no Node equivalent", stack: stack)
}

private func _nonStringKey(
  in dictionary: [AnyHashable: Any], stack: [FoundationFrame]
) -> FormatError {
  let badKey = dictionary.keys.first { !($0.base is String) }.map { "\(type(of: $0.base))" }
  return _notRepresentable(
    "a dictionary key of type \(badKey ?? "AnyHashable") is not a string", stack: stack)
}

/// Fixed-width Swift integers other than `Int`.
private func _nativeInteger(_ value: Any, type: Any.Type) -> Node? {
  switch value {
  case let number as Int8 where type == Int8.self: return .integer(Int64(number))
  case let number as Int16 where type == Int16.self: return .integer(Int64(number))
  case let number as Int32 where type == Int32.self: return .integer(Int64(number))
  case let number as Int64 where type == Int64.self: return .integer(number)
  case let number as UInt where type == UInt.self: return _unsignedNode(UInt64(number))
  case let number as UInt8 where type == UInt8.self: return .integer(Int64(number))
  case let number as UInt16 where type == UInt16.self: return .integer(Int64(number))
  case let number as UInt32 where type == UInt32.self: return .integer(Int64(number))
  case let number as UInt64 where type == UInt64.self: return _unsignedNode(number)
  default: return nil
  }
}

private func _unsignedNode(_ number: UInt64) -> Node {
  if let exact = Int64(exactly: number) { return .integer(exact) }
  return .decimal(String(number))
}

/// A `Float` keeps its own shortest text, so `Float(0.1)` stays `0.1`.
private func _floatNode(_ number: Float) -> Node {
  number.isFinite ? .decimal(Node.DecimalText(float: number)) : .double(Double(number))
}

private func _decimalNode(_ number: Decimal, stack: [FoundationFrame]) throws -> Node {
  guard number.isFinite else {
    throw _notRepresentable("the Decimal \(number) is not a number", stack: stack)
  }
  let text = _decimalText(number)
  if let integer = Int64(text) { return .integer(integer) }
  return .decimal(text)
}

/// The largest significand ``_decimalText(_:)`` converts through `UInt64`.
private let _largestUInt64Significand = Decimal(UInt64.max)

/// The exact text of a finite `Decimal` in JSON number grammar, without exponent notation.
///
/// `Decimal.description` takes microseconds per value, which shows when bridging large
/// payloads (`JSONSerialization` on Linux returns long numbers as `NSDecimalNumber`s); a
/// significand that fits `UInt64` is converted exactly, about 30 times faster, and the
/// decimal point placed by the exponent.
private func _decimalText(_ number: Decimal) -> String {
  let significand = number.significand
  guard significand <= _largestUInt64Significand else { return number.description }
  let digits = String(NSDecimalNumber(decimal: significand).uint64Value)
  if digits == "0" { return digits }
  let sign = number.sign == .minus ? "-" : ""
  let exponent = number.exponent
  if exponent >= 0 { return sign + digits + String(repeating: "0", count: exponent) }
  let fractionDigits = -exponent
  if digits.utf8.count > fractionDigits {
    let split = digits.index(digits.endIndex, offsetBy: -fractionDigits)
    return sign + digits[..<split] + "." + digits[split...]
  }
  return sign + "0." + String(repeating: "0", count: fractionDigits - digits.utf8.count) + digits
}

/// A non-decimal `NSNumber`: boolean, integer or floating point, by its storage type.
private func _numberNode(_ number: NSNumber) -> Node {
  if _isBoolean(number) { return .bool(number.boolValue) }
  switch _storageTypeCode(of: number) {
  case CChar(UInt8(ascii: "f")): return _floatNode(number.floatValue)
  case CChar(UInt8(ascii: "d")): return .double(number.doubleValue)
  case CChar(UInt8(ascii: "C")), CChar(UInt8(ascii: "S")), CChar(UInt8(ascii: "I")),
    CChar(UInt8(ascii: "L")), CChar(UInt8(ascii: "Q")):
    return _unsignedNode(number.uint64Value)
  case CChar(UInt8(ascii: "B")): return .bool(number.boolValue)
  default: return .integer(number.int64Value)
  }
}

/// Whether an `NSNumber` is a boolean rather than the number 0 or 1.
///
/// Boolean `NSNumber`s are the two `kCFBooleanTrue`/`kCFBooleanFalse` singletons on Apple
/// platforms and the two `__NSCFBoolean` instances of swift-corelibs-foundation on Linux; both
/// are what `NSNumber(value: true)` and `NSNumber(value: false)` return, and what
/// `JSONSerialization` produces for `true` and `false`. An `Int8` 1 shares the `"c"` storage
/// type with a boolean, so the type code alone cannot tell them apart: identity can.
private func _isBoolean(_ number: NSNumber) -> Bool {
  guard _storageTypeCode(of: number) == CChar(UInt8(ascii: "c")) else { return false }
  return number === NSNumber(value: true) || number === NSNumber(value: false)
    || String(describing: type(of: number)).hasSuffix("Boolean")
}

private func _notRepresentable(_ reason: String, stack: [FoundationFrame]) -> FormatError {
  FormatError(path: _pointer(of: stack), .notRepresentable(reason: reason))
}

/// The JSON Pointer of the value being converted.
private func _pointer(of stack: [FoundationFrame]) -> String {
  stack.map { "/" + $0.token }.joined()
}

/// `2011-07-07T04:35:28Z`, with `.SSS` milliseconds (rounded) when they are not zero (UTC): the
/// mapping layer's default date format, written here without it (the bridge knows no mappings).
private func _iso8601(_ date: Date, stack: [FoundationFrame]) throws(FormatError) -> String {
  let interval = date.timeIntervalSince1970
  guard let fields = _CivilTime.fields(interval: interval, unitsPerSecond: 1000) else {
    throw _notRepresentable(
      "Date(timeIntervalSince1970: \(interval)): outside the years 0000 through 9999",
      stack: stack)
  }
  return _CivilTime.iso8601(fields)
}
