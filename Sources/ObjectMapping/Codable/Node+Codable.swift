import Foundation

extension Node: Codable {
  /// Reads any value from any decoder (`JSONDecoder`, ``FastJSONDecoder``, a property list
  /// decoder): a `Node` property of a `Codable` model holds whatever the payload has there.
  ///
  /// ```swift
  /// struct Event: Codable { var name: String; var details: Node }
  /// let event = try JSONDecoder().decode(Event.self, from: data)   // details: any JSON
  /// ```
  ///
  /// Object keys are read as the payload spells them, whatever the decoder's key strategy (an
  /// object is read as a `[String: Node]`, whose keys `JSONDecoder` leaves alone), so that a
  /// ``MappedCodable`` value finds the keys its mapping spells; of members with equal keys the
  /// first is kept, as `JSONDecoder` keeps it. Under ``FastJSONDecoder`` the node is read
  /// straight from the scanned document: members in payload order, numbers with their exact
  /// text (``decimal(_:)-enum.case``). Other decoders give objects sorted by key and numbers as the
  /// decoder reads them.
  public init(from decoder: any Decoder) throws {
    if let decoder = decoder as? TapeDecoder {
      decoder.reading.checkLifetime()
      self = decoder.reading.tape.node(at: decoder.index).keepingFirstOfEqualKeys()
      return
    }
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int64.self) {
      self = .integer(value)
    } else if let value = try? container.decode(Double.self) {
      self = .double(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([Node].self) {
      self = .array(value)
    } else {
      let members = try container.decode([String: Node].self)
      self = .object(members.sorted { $0.key < $1.key }.map { Node.Member($0.key, $0.value) })
    }
  }

  /// Writes the node to any encoder: numbers as numbers (a decimal's exact text as a
  /// `Decimal`), objects with their keys as they are, whatever the encoder's key strategy (as a
  /// `[String: Node]`, whose keys `JSONEncoder` leaves alone; the first of repeated keys).
  /// ``FastJSONEncoder`` writes the node as it is, members in order.
  public func encode(to encoder: any Encoder) throws {
    if let encoder = encoder as? StreamEncoder {
      return try encoder.writeNode(self)
    }
    if let encoder = encoder as? NodeEncoder {
      encoder.box.content = .value(self)
      return
    }
    var container = encoder.singleValueContainer()
    switch self {
    case .null:
      try container.encodeNil()
    case .bool(let value):
      try container.encode(value)
    case .integer(let value):
      try container.encode(value)
    case .double(let value):
      try container.encode(value)
    case .decimal(let number):
      let text = number.text
      if let value = Decimal(string: text) {
        try container.encode(value)
      } else {
        try container.encode(text)
      }
    case .string(let value):
      try container.encode(value)
    case .array(let elements):
      try container.encode(elements)
    case .object(let members):
      var dictionary: [String: Node] = [:]
      for member in members where dictionary[member.key] == nil {
        dictionary[member.key] = member.value
      }
      try container.encode(dictionary)
    }
  }
}

extension Node {
  /// The node with each object's members unique by key (keys compared as `String`s, so by
  /// canonical equivalence), the first of equal keys kept: an object as `JSONDecoder` reads
  /// it, through a dictionary. The node itself when no object repeats a key.
  func keepingFirstOfEqualKeys() -> Node {
    guard repeatsAKey else { return self }
    return keepingFirstMembers()
  }

  /// Whether some object of the tree has two members with equal keys (checked without
  /// recursion).
  private var repeatsAKey: Bool {
    var pending: [Node] = [self]
    while let node = pending.popLast() {
      switch node {
      case .array(let elements):
        pending.append(contentsOf: elements)
      case .object(let members):
        if members.count > 1 {
          var keys = Set<String>()
          for member in members where !keys.insert(member.key).inserted { return true }
        }
        pending.append(contentsOf: members.map(\.value))
      default:
        break
      }
    }
    return false
  }

  private func keepingFirstMembers() -> Node {
    switch self {
    case .array(let elements):
      return .array(elements.map { $0.keepingFirstMembers() })
    case .object(let members):
      var keys = Set<String>()
      return .object(
        members.compactMap { member in
          keys.insert(member.key).inserted
            ? Node.Member(member.key, member.value.keepingFirstMembers()) : nil
        })
    default:
      return self
    }
  }
}
