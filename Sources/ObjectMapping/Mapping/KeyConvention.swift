import Foundation

/// How a rule declared without a key (`Attribute(\.createdAt)`) names its payload key: from the
/// property's name, through a convention the mapping declares.
///
/// ```swift
/// let issueMapping = Mapping(Issue.init, keys: .snakeCase) {
///   Attribute(\.createdAt)              // "created_at"
///   Attribute(\.htmlURL)                // "html_url"
///   Attribute("number", \.id)           // an explicit key always wins
///   Relationship(\.user, userMapping)   // "user"
/// }
/// ```
///
/// The key is derived once, when the mapping is built: mapping and serializing cost nothing
/// more than with spelled keys. The property's name is read from the key path's description
/// (`\Issue.createdAt`), which Swift provides on Linux and on current Apple OSes for stored
/// properties. A key path whose name cannot be read (a computed property, stripped reflection
/// metadata, optional chaining, a subscript) is a definition problem naming the rule, reported
/// by `validate()` and on first use, telling you to spell the key: never a wrong key. A nested
/// key path (`\.address.city`) names nested keys (`address.city`), each component converted.
///
/// ## A whole call
///
/// A call can declare a convention too, for every mapping it reaches that declares none
/// (``MappingOptions/keys``):
///
/// ```swift
/// let snake = MappingOptions(keys: .snakeCase)
/// let issue = try issueMapping.map(json, with: snake)
/// let body = try issueMapping.serialize(issue, as: .json, with: snake)
/// ```
///
/// It applies to the keyless rules of the root mapping and of every child mapping (through
/// relationships, dynamic cases, recursion) that was built without `keys:` and without
/// ``Mapping/keys(_:)``; a mapping's own convention and a spelled key always win. Each mapping
/// derives its keys for a convention once, the first time a call uses it, and keeps them: the
/// built-in conventions and a `custom` one kept in a constant cost a lookup per object, not a
/// derivation. Keyless rules of an ``Include``d mapping keep the keys that mapping gave them.
public struct KeyConvention: Sendable {
  /// Makes the key for one property name (one component of a nested key path).
  let transform: @Sendable (String) -> String
  /// Which convention this is: mappings keep the keys they derive for a call's convention under
  /// this name (``KeyVariants``).
  let name: ConventionName
  /// For a custom convention (and one derived from it): the object whose identity is in
  /// ``name``, kept alive with the convention so that no other convention can get its identity.
  let token: CustomConvention?

  init(
    _ name: ConventionName, token: CustomConvention? = nil,
    transform: @escaping @Sendable (String) -> String
  ) {
    self.name = name
    self.token = token
    self.transform = transform
  }

  /// A convention that makes keys with `transform` (`{ "x_" + $0 }`).
  ///
  /// Each call of `custom` makes a new convention: a mapping derives its keys again for each
  /// one a call uses, so keep a custom convention in a constant (`static let`) rather than
  /// making it per call.
  @preconcurrency
  public static func custom(_ transform: @escaping @Sendable (String) -> String) -> KeyConvention {
    let token = CustomConvention()
    return KeyConvention(.custom(ObjectIdentifier(token)), token: token, transform: transform)
  }

  /// The property name as it is (`createdAt`): ObjectMapper's automatic same-name mapping. Rules
  /// without a key use it when neither the mapping nor the call declares a convention.
  public static let identity = KeyConvention(.identity) { $0 }

  /// `created_at` from `createdAt`, `html_url` from `htmlURL`, `user_id` from `userID` (the words
  /// `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase` would read back).
  public static let snakeCase = KeyConvention(.snakeCase) { separatedWords($0, by: "_") }

  /// `created-at` from `createdAt`.
  public static let kebabCase = KeyConvention(.kebabCase) { separatedWords($0, by: "-") }

  /// `CreatedAt` from `createdAt`.
  public static let pascalCase = KeyConvention(.pascalCase) { name in
    guard let first = name.first else { return name }
    return first.uppercased() + name.dropFirst()
  }

  /// This convention's keys with `prefix` in front (TinyMappingModel's `im:name` for `name`).
  ///
  /// ```swift
  /// Mapping(Track.init, keys: .identity.prefixed("im:")) { Attribute(\.name) }   // "im:name"
  /// ```
  public func prefixed(_ prefix: String) -> KeyConvention {
    let inner = transform
    return KeyConvention(.prefixed(name, prefix), token: token) { prefix + inner($0) }
  }

  /// The key for `propertyName`.
  public func key(for propertyName: String) -> String {
    transform(propertyName)
  }
}

/// Which ``KeyConvention`` a value is: the built-in ones by name, a custom one by the identity of
/// the object its `custom` call made, a prefixed one by its convention and prefix.
indirect enum ConventionName: Hashable, Sendable {
  case identity
  case snakeCase
  case kebabCase
  case pascalCase
  /// `ObjectIdentifier` of a ``CustomConvention``: unique while the object lives, and
  /// ``KeyVariants`` keeps the convention (so the object) alive as long as it keeps its keys.
  case custom(ObjectIdentifier)
  case prefixed(ConventionName, String)
}

/// What makes each `KeyConvention.custom(_:)` value distinct (``ConventionName/custom(_:)``).
final class CustomConvention: Sendable {}

/// `name`'s words joined by `separator`, lowercased: a word starts at an uppercase letter that
/// follows a lowercase letter or a digit, and at the last uppercase letter of a run followed by a
/// lowercase one (`htmlURLString` -> `html_url_string`).
///
/// The library's own snake case (``KeyConvention/snakeCase``). `JSONEncoder`'s
/// `convertToSnakeCase` (``snakeCased(_:)``, which the `Codable` coders use so that
/// either coder reads what the other wrote) splits acronyms differently (`HTTPStatus` ->
/// `h_ttp_status`, here `http_status`); both lowercase and join their words with
/// ``joinedLowercased(_:separator:)``.
func separatedWords(_ name: String, by separator: Character) -> String {
  let characters = Array(name)
  var words: [Range<Int>] = []
  var wordStart = 0
  for (offset, character) in characters.enumerated() where character.isUppercase && offset > 0 {
    let previous = characters[offset - 1]
    let next = offset + 1 < characters.count ? characters[offset + 1] : nil
    let startsWord =
      previous.isLowercase || previous.isNumber
      || (previous.isUppercase && (next?.isLowercase ?? false))
    if startsWord, previous != separator {
      words.append(wordStart..<offset)
      wordStart = offset
    }
  }
  words.append(wordStart..<characters.count)
  return joinedLowercased(words.map { String(characters[$0]) }, separator: separator)
}

/// `words` lowercased and joined by `separator`: the last step of both snake cases.
func joinedLowercased(_ words: [some StringProtocol], separator: Character) -> String {
  var result = ""
  for (offset, word) in words.enumerated() {
    if offset > 0 { result.append(separator) }
    result += word.lowercased()
  }
  return result
}

/// `JSONEncoder.KeyEncodingStrategy.convertToSnakeCase`, exactly: `createdAt` -> `created_at`,
/// `userID` -> `user_id`, `myURLProperty` -> `my_url_property`, and, as `JSONEncoder` writes
/// them, `HTTPStatus` -> `h_ttp_status`, `URLValue` -> `u_rl_value`, `ALL_CAPS` ->
/// `a_ll_caps` (the first character never starts a word of its own run). Leading and
/// trailing underscores are kept. What the `Codable` coders write, so that `JSONDecoder` and
/// ``FastJSONDecoder`` read each other's output.
func snakeCased(_ key: String) -> String {
  guard !key.isEmpty else { return key }
  var words: [Range<String.Index>] = []
  // A word ends before an uppercase letter (not looked for at the first character); a run of
  // uppercase letters followed by a lowercase one is a word up to its last letter, which
  // starts the next word.
  var wordStart = key.startIndex
  var searchRange = key.index(after: wordStart)..<key.endIndex
  while let upper = key.rangeOfCharacter(from: .uppercaseLetters, options: [], range: searchRange) {
    words.append(wordStart..<upper.lowerBound)
    searchRange = upper.lowerBound..<searchRange.upperBound
    guard let lower = key.rangeOfCharacter(from: .lowercaseLetters, options: [], range: searchRange)
    else {
      wordStart = searchRange.lowerBound
      break
    }
    if lower.lowerBound == key.index(after: upper.lowerBound) {
      wordStart = upper.lowerBound
    } else {
      let beforeLower = key.index(before: lower.lowerBound)
      words.append(upper.lowerBound..<beforeLower)
      wordStart = beforeLower
    }
    searchRange = lower.upperBound..<searchRange.upperBound
  }
  words.append(wordStart..<searchRange.upperBound)
  return joinedLowercased(words.map { key[$0] }, separator: "_")
}

/// `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase`, exactly: `created_at` ->
/// `createdAt`, `ALL_CAPS` -> `allCaps`, `h_ttp_status` -> `hTtpStatus`; a key without
/// underscores between its words is left as it is (`userID`), and leading and trailing
/// underscores are kept (`_leading`, `trailing_`).
func camelCasedFromSnakeCase(_ key: String) -> String {
  guard let first = key.firstIndex(where: { $0 != "_" }) else { return key }
  var last = key.index(before: key.endIndex)
  while last > first, key[last] == "_" { key.formIndex(before: &last) }
  let words = key[first...last].split(separator: "_")
  guard words.count > 1 else { return key }
  let joined = words[0].lowercased() + words.dropFirst().map(\.capitalized).joined()
  return String(key[..<first]) + joined + String(key[key.index(after: last)...])
}

/// The name a rule without a key derives its key from.
enum DerivedKey: Sendable, Equatable {
  /// The property path's names (`["address", "city"]`).
  case names([String])
  /// The key path does not tell its property's name: the rule and the key path, for the
  /// definition problem.
  case unknown(rule: String, keyPath: String)

  /// The names of the stored properties `keyPath` goes through, read from its description
  /// (`\Issue.createdAt`); `.unknown` when they cannot be read.
  init<Root>(_ keyPath: AnyKeyPath, root: Root.Type, rule: String) {
    let described = String(describing: keyPath)
    let prefix = "\\" + String(describing: Root.self) + "."
    guard described.hasPrefix(prefix) else {
      self = .unknown(rule: rule, keyPath: described)
      return
    }
    let names = described.dropFirst(prefix.count).split(
      separator: ".", omittingEmptySubsequences: false)
    let isIdentifier: (Substring) -> Bool = { name in
      guard let first = name.first, first.isLetter || first == "_" else { return false }
      return name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }
    guard !names.isEmpty, names.allSatisfy(isIdentifier) else {
      self = .unknown(rule: rule, keyPath: described)
      return
    }
    self = .names(names.map(String.init))
  }

  /// The source for `convention`; `nil` when the name is unknown.
  func source(with convention: KeyConvention) -> SourcePath? {
    guard case .names(let names) = self else { return nil }
    return SourcePath(keys: names.map(convention.key(for:)))
  }

  /// The definition problem of an unknown name.
  var problem: String? {
    guard case .unknown(let rule, let keyPath) = self else { return nil }
    return "\(rule) has no key, and the property name cannot be read from the key path "
      + "\(keyPath) (a computed property, optional chaining, a subscript, or reflection "
      + "metadata stripped from the build); spell the key: \(rule)(\"key\", …)"
  }
}

/// A rule that may take its key from its property's name (``KeyConvention``).
protocol KeyDerivingRule {
  /// The same rule with its key made by `convention`, when it was declared without one.
  func applyingKeyConvention(_ convention: KeyConvention) -> Self
  /// The property's names when the rule's key is the default one (declared without a key, in a
  /// mapping that declares no convention): a call's convention (``MappingOptions/keys``) then
  /// makes its key. `nil` for a spelled key, a mapping's convention, or an unknown name.
  var defaultKeyNames: [String]? { get }
}

extension Attribute: KeyDerivingRule {
  func applyingKeyConvention(_ convention: KeyConvention) -> Self {
    guard let derivedKey, let source = derivedKey.source(with: convention) else { return self }
    var copy = self
    copy.source = source
    copy.keyIsDefault = false
    return copy
  }

  var defaultKeyNames: [String]? {
    guard keyIsDefault, case .names(let names)? = derivedKey else { return nil }
    return names
  }
}

extension Relationship: KeyDerivingRule {
  func applyingKeyConvention(_ convention: KeyConvention) -> Self {
    guard let derivedKey, let source = derivedKey.source(with: convention) else { return self }
    var copy = self
    copy.source = source
    copy.keyIsDefault = false
    return copy
  }

  var defaultKeyNames: [String]? {
    guard keyIsDefault, case .names(let names)? = derivedKey else { return nil }
    return names
  }
}

extension Attribute where Value: MappableValue {
  /// Maps the value at the key the mapping's ``KeyConvention`` makes from the property's name
  /// (the name itself when the mapping declares none).
  ///
  /// ```swift
  /// Mapping(Issue.init, keys: .snakeCase) { Attribute(\.createdAt) }   // "created_at"
  /// ```
  public init(_ property: WritableKeyPath<Object, Value> & Sendable) {
    let derived = DerivedKey(property, root: Object.self, rule: "Attribute")
    self.init(derived.source(with: .identity) ?? SourcePath(keys: ["?"]), property)
    derivedKey = derived
    keyIsDefault = true
  }

  /// The keyless rule above, with a default for an absent or `null` value.
  public init(_ property: WritableKeyPath<Object, Value> & Sendable, default defaultValue: Value)
  where Value: Sendable {
    let derived = DerivedKey(property, root: Object.self, rule: "Attribute")
    self.init(
      derived.source(with: .identity) ?? SourcePath(keys: ["?"]), property, default: defaultValue)
    derivedKey = derived
    keyIsDefault = true
  }
}

extension Attribute {
  /// Maps the value at the key the mapping's ``KeyConvention`` makes from the property's name,
  /// through a two-way transform.
  public init<Wire: MappableValue>(
    _ property: WritableKeyPath<Object, Value> & Sendable, _ transform: ValueTransform<Wire, Value>
  ) {
    let derived = DerivedKey(property, root: Object.self, rule: "Attribute")
    self.init(derived.source(with: .identity) ?? SourcePath(keys: ["?"]), property, transform)
    derivedKey = derived
    keyIsDefault = true
  }
}

extension Attribute {
  /// `make`'s rule at the key the mapping's ``KeyConvention`` makes from `property`'s name.
  static func keyless(
    _ property: AnyKeyPath, _ make: (SourcePath) -> Attribute
  ) -> Attribute {
    let derived = DerivedKey(property, root: Object.self, rule: "Attribute")
    var rule = make(derived.source(with: .identity) ?? SourcePath(keys: ["?"]))
    rule.derivedKey = derived
    rule.keyIsDefault = true
    return rule
  }
}

extension Attribute
where Value: RawRepresentable & SendableMetatype, Value.RawValue: MappableValue {
  /// A raw-value enum at the key the mapping's ``KeyConvention`` makes from the property's
  /// name, read and written by its raw value (as the initializer with a key does).
  ///
  /// ```swift
  /// enum IssueState: String { case open, closed }
  /// Mapping(Issue.init, keys: .snakeCase) { Attribute(\.issueState) }   // "issue_state"
  /// ```
  @_disfavoredOverload
  public init(_ property: WritableKeyPath<Object, Value> & Sendable) {
    self = .keyless(property) { Attribute(rawValueAt: $0, property) }
  }

  /// The keyless raw-value rule above, with a default for an absent or `null` value.
  @_disfavoredOverload
  public init(_ property: WritableKeyPath<Object, Value> & Sendable, default defaultValue: Value)
  where Value: Sendable {
    self = .keyless(property) { Attribute($0, property, default: defaultValue) }
  }
}

extension Attribute where Value: Codable & SendableMetatype {
  /// A `Codable` value at the key the mapping's ``KeyConvention`` makes from the property's
  /// name, read and written by its `Codable` conformance with the coders given (as the
  /// initializer with a key does).
  ///
  /// ```swift
  /// struct Reactions: Codable { var plusOne: Int; var heart: Int }
  /// Mapping(Issue.init) { Attribute(\.reactions) }   // "reactions"
  /// ```
  @_disfavoredOverload
  public init(
    _ property: WritableKeyPath<Object, Value> & Sendable,
    decoder: FastJSONDecoder = FastJSONDecoder(), encoder: FastJSONEncoder = FastJSONEncoder()
  ) {
    self = .keyless(property) { Attribute($0, property, decoder: decoder, encoder: encoder) }
  }
}

extension Attribute
where Value: Codable & RawRepresentable & SendableMetatype, Value.RawValue: MappableValue {
  /// A `Codable` raw-value enum at the key the convention makes: read and written by its raw
  /// value (the more specific of the two keyless initializers).
  @_disfavoredOverload
  public init(_ property: WritableKeyPath<Object, Value> & Sendable) {
    self = .keyless(property) { Attribute(rawValueAt: $0, property) }
  }
}

extension Attribute {
  /// An optional raw-value enum at the key the convention makes: `null` and absence are `nil`.
  @_disfavoredOverload
  public init<Wrapped: RawRepresentable & SendableMetatype>(
    _ property: WritableKeyPath<Object, Wrapped?> & Sendable
  ) where Value == Wrapped?, Wrapped.RawValue: MappableValue {
    self = .keyless(property) { Attribute($0, property) }
  }
}

extension Relationship {
  /// Sets the key a keyless initializer derived.
  func derivingKey(from property: AnyKeyPath) -> Self {
    var copy = self
    let derived = DerivedKey(property, root: Object.self, rule: "Relationship")
    copy.derivedKey = derived
    copy.keyIsDefault = true
    if let source = derived.source(with: .identity) { copy.source = source }
    return copy
  }

  /// A to-one relationship at the key the mapping's ``KeyConvention`` makes from the property's
  /// name.
  ///
  /// ```swift
  /// Mapping(Issue.init, keys: .snakeCase) { Relationship(\.closedBy, userMapping) }   // "closed_by"
  /// ```
  public init<Child>(
    _ property: WritableKeyPath<Object, Child> & Sendable, _ mapping: some MappingProtocol<Child>
  ) {
    self = Relationship("?", property, mapping).derivingKey(from: property)
  }

  /// An optional to-one relationship at the key the convention makes.
  public init<Child>(
    _ property: WritableKeyPath<Object, Child?> & Sendable, _ mapping: some MappingProtocol<Child>
  ) {
    self = Relationship("?", property, mapping).derivingKey(from: property)
  }

  /// A to-many relationship at the key the convention makes.
  public init<Collection: MappableCollection>(
    _ property: WritableKeyPath<Object, Collection> & Sendable,
    _ mapping: some MappingProtocol<Collection.Element>
  ) {
    self = Relationship("?", property, mapping).derivingKey(from: property)
  }

  /// A dictionary of objects at the key the convention makes.
  public init<Child>(
    _ property: WritableKeyPath<Object, [String: Child]> & Sendable,
    _ mapping: some MappingProtocol<Child>
  ) {
    self = Relationship("?", property, mapping).derivingKey(from: property)
  }

  /// A recursive relationship (its mapping resolved when first used) at the key the convention
  /// makes: to-one, optional, or to-many.
  public init<Child, M: MappingProtocol<Child>>(
    _ property: WritableKeyPath<Object, Child?> & Sendable,
    lazy mapping: @escaping @Sendable () -> M
  ) {
    self = Relationship("?", property, lazy: mapping).derivingKey(from: property)
  }

  /// A recursive to-many relationship at the key the convention makes.
  public init<Collection: MappableCollection, M: MappingProtocol<Collection.Element>>(
    _ property: WritableKeyPath<Object, Collection> & Sendable,
    lazy mapping: @escaping @Sendable () -> M
  ) {
    self = Relationship("?", property, lazy: mapping).derivingKey(from: property)
  }
}

extension KeyConvention {
  /// The property name `keyPath` describes itself with (`\Issue.createdAt` → `"createdAt"`,
  /// `\User.address.city` → `"address.city"`); `nil` when it cannot be read (a computed
  /// property, a subscript, optional chaining, stripped reflection metadata). For the property
  /// tables of definition files.
  package static func propertyName<Root>(of keyPath: AnyKeyPath, in root: Root.Type) -> String? {
    guard case .names(let names) = DerivedKey(keyPath, root: root, rule: "Property") else {
      return nil
    }
    return names.joined(separator: ".")
  }
}
