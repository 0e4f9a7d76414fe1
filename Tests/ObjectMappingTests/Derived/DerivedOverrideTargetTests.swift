import Foundation
import ObjectMapping
import Testing

/// Which properties a derived mapping's override can answer for, and when a model's
/// `init(from:)` that skips an overridden member is an error.
@Suite("Derived mappings: override targets")
struct DerivedOverrideTargetTests {
  /// Reads `radius` for circles only, as hand-written `init(from:)`s of tagged shapes do.
  struct TaggedShape: Codable, Equatable, Sendable {
    var kind: String
    var radius: Double?
    enum CodingKeys: String, CodingKey { case kind, radius }

    init(kind: String, radius: Double?) {
      self.kind = kind
      self.radius = radius
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      kind = try container.decode(String.self, forKey: .kind)
      radius = kind == "circle" ? try container.decode(Double.self, forKey: .radius) : nil
    }
  }

  struct Drawing: Codable, Equatable, Sendable {
    var shapes: [TaggedShape]
  }

  static let shapeMapping = Mapping(TaggedShape.self) { Attribute("r", \.radius) }

  @Test func aMemberTheModelReadsForSomeObjectsOnlyIsNoErrorWhereItIsAbsent() throws {
    #expect(
      try Self.shapeMapping.map(#"{"kind": "circle", "r": 2}"#)
        == TaggedShape(kind: "circle", radius: 2))
    #expect(
      try Self.shapeMapping.map(#"{"kind": "square"}"#) == TaggedShape(kind: "square", radius: nil))
    #expect(
      try Self.shapeMapping.map(#"{"kind": "square", "r": null}"#)
        == TaggedShape(kind: "square", radius: nil))
    let drawing = Mapping(Drawing.self) { Relationship("shapes", \.shapes, Self.shapeMapping) }
    #expect(
      try drawing.map(#"{"shapes": [{"kind": "circle", "r": 2}, {"kind": "square"}]}"#)
        == Drawing(shapes: [
          TaggedShape(kind: "circle", radius: 2), TaggedShape(kind: "square", radius: nil),
        ]))
  }

  @Test func aValueTheModelDidNotReadIsAnErrorAtItsPath() throws {
    let message =
      #"Attribute "r" overrides radius, which TaggedShape's init(from:) did not read for "#
      + "this object; name a property its Codable conformance decodes"
    #expect(throws: MappingErrors([MappingError(path: "/r", .invalidDefinition(message: message))]))
    {
      try Self.shapeMapping.map(#"{"kind": "square", "r": 5}"#)
    }
    let drawing = Mapping(Drawing.self) { Relationship("shapes", \.shapes, Self.shapeMapping) }
    #expect(
      throws: MappingErrors([
        MappingError(path: "/shapes/1/r", .invalidDefinition(message: message))
      ])
    ) {
      try drawing.map(#"{"shapes": [{"kind": "circle", "r": 2}, {"kind": "square", "r": 5}]}"#)
    }
  }

  @propertyWrapper
  struct Trimmed: Codable, Equatable, Sendable {
    var wrappedValue: String
    init(wrappedValue: String) {
      self.wrappedValue = wrappedValue.trimmingCharacters(in: .whitespaces)
    }
    init(from decoder: any Decoder) throws { self.init(wrappedValue: try String(from: decoder)) }
    func encode(to encoder: any Encoder) throws { try wrappedValue.encode(to: encoder) }
  }

  struct Account: Codable, Equatable, Sendable {
    @Trimmed var name: String
    var id: Int
    var owner: Owner
  }

  struct Owner: Codable, Equatable, Sendable {
    var login: String
  }

  @Test func aWrappedPropertyIsLeftToTheModelAndNamedReadably() throws {
    // Without an override the wrapper decodes itself, as with JSONDecoder.
    let derived = try Mapping(Account.self).map(
      #"{"name": "  ann ", "id": 1, "owner": {"login": "a"}}"#)
    let decoded = try JSONDecoder().decode(
      Account.self, from: Data(#"{"name": "  ann ", "id": 1, "owner": {"login": "a"}}"#.utf8))
    #expect(derived == decoded)
    #expect(derived.name == "ann")

    let overridden = Mapping(Account.self) { Attribute("full_name", \.name) }
    let problem = try #require(Self.firstProblem(of: overridden))
    #expect(problem.contains("property wrapper"), "\(problem)")
    #expect(problem.contains(#"Attribute "full_name" writes"#), "\(problem)")
    #expect(!problem.contains("0x"), "the key path's address: \(problem)")
    #expect(throws: MappingErrors.self) {
      try overridden.map(#"{"full_name": "bob", "id": 1, "owner": {"login": "a"}}"#)
    }
  }

  @Test func aMembersPropertyIsNamedAsOne() throws {
    let overridden = Mapping(Account.self) { Attribute("login", \.owner.login) }
    let problem = try #require(Self.firstProblem(of: overridden))
    #expect(
      problem.hasPrefix(
        #"Attribute "login" writes \Account.owner.login, a property of a member, which is not "#
          + "one of Account's own"), "\(problem)")
  }

  /// A member whose own `Codable` encoding refuses to write (a secret sent in a form only).
  struct Token: Codable, Equatable, Sendable {
    var text: String
    struct Refused: Error {}
    init(text: String) { self.text = text }
    init(from decoder: any Decoder) throws { text = try String(from: decoder) }
    func encode(to encoder: any Encoder) throws { throw Refused() }
  }

  struct Session: Codable, Equatable, Sendable {
    var user: String
    var token: Token
  }

  @Test func serializingRunsTheModelsEncodingForItsOtherMembersOnly() throws {
    let session = Session(user: "ann", token: Token(text: "t0k"))
    // Without an override, the member's refusal is the error, as with JSONEncoder.
    #expect(throws: Token.Refused.self) { try JSONEncoder().encode(session) }
    #expect(throws: MappingErrors.self) { try Mapping(Session.self).serialize(session) }
    // The override writes the member: the model's encode(to:) is not asked to.
    let mapping = Mapping(Session.self) {
      Attribute(
        "token", \.token,
        ValueTransform<String, Token>(forward: { Token(text: $0) }, reverse: { $0.text }))
    }
    let body = try mapping.serialize(session)
    #expect(String(decoding: body, as: UTF8.self) == #"{"token":"t0k","user":"ann"}"#)
    #expect(try mapping.map(body) == session)
    // An override's own failure is reported once, at its path.
    let failing = Mapping(Session.self) {
      Attribute(
        "token", \.token,
        ValueTransform<String, Token>(
          forward: { Token(text: $0) }, reverse: { _ in throw Token.Refused() }))
    }
    let errors = #expect(throws: MappingErrors.self) { try failing.serialize(session) }
    #expect(errors?.errors.map(\.path) == ["/token"])
  }

  /// The message of the first definition problem `validate()` reports.
  static func firstProblem<Object>(of mapping: Mapping<Object>) -> String? {
    do {
      try mapping.validate()
      return nil
    } catch {
      guard case .invalidDefinition(let message)? = error.errors.first?.kind else { return nil }
      return message
    }
  }
}
