import Foundation
import ObjectMapping

// The models and mappings the mapper fuzzer drives: one mapping using many rule kinds, so that
// arbitrary documents reach attributes of every common value type, nested key paths, to-one,
// to-many and dictionary relationships, recursion, a dynamic mapping, a nested-key mapping and
// validators.

enum Kind: String, Equatable, Sendable, MappableValue {
  case tool, toy, part
}

struct Owner: Equatable, Sendable {
  var id = 0
  var name = ""
  var email: String?
}

struct Part: Equatable, Hashable, Sendable {
  var sku = ""
  var count: Int16 = 0
  var weight: Float?
}

struct Photo: Equatable, Sendable {
  var url = URL(fileURLWithPath: "/")
  var width = 0
  var caption: String?
}

struct Note: Equatable, Sendable {
  var text = ""
  var closed = false
}

enum Attachment: Equatable, Sendable {
  case photo(Photo)
  case note(Note)
}

/// Read from a dictionary keyed by user name: `{"ann": {"followers": 3}}`.
struct Profile: Equatable, Sendable {
  var username = ""
  var followers = 0
  var joined: Date?
}

struct Gadget: Equatable, Sendable {
  var id = 0
  var name = ""
  var price = Decimal(0)
  var rating: Double?
  var created = Date(timeIntervalSince1970: 0)
  var updated: Date?
  var homepage: URL?
  var identifier: UUID?
  var blob: Data?
  var enabled = false
  var kind = Kind.tool
  var width: UInt8 = 0
  var depth: Int64?
  var tags: [String] = []
  var labels: [String] = []
  var codes: Set<Int> = []
  var scores: [String: Double] = [:]
  var matrix: [[Int]]?
  var anything: Node?
  var owner = Owner()
  var coOwner: Owner?
  var parts: [Part] = []
  var spares: Set<Part>?
  var partsByName: [String: Part] = [:]
  var children: [Gadget] = []
  var parent: [Gadget]?
  var attachments: [Attachment] = []
  var pinned: Attachment?
  var profiles: [Profile] = []
}

enum Mappings {
  static let owner = Mapping(Owner.init) {
    Attribute("id", \.id)
    Attribute("name", \.name).validate("a name is not empty") { !$0.isEmpty }
    Attribute("email", \.email)
  }

  static let part = Mapping(Part.init) {
    Attribute("sku", \.sku).validate { sku in
      sku = sku.lowercased()
      return true
    }
    Attribute("count", \.count, default: 0)
    Attribute("weight", \.weight)
  }

  static let photo = Mapping(Photo.init) {
    Attribute("url", \.url)
    Attribute("size.width", \.width, default: 0)
    Attribute("caption", \.caption)
  }

  static let note = Mapping(Note.init) {
    Attribute("text", \.text)
    Attribute("closed", \.closed, .boolWords(true: "yes", false: "no"), default: false)
  }

  static let attachment = DynamicMapping<Attachment> {
    Match("type", equals: "photo", photo, case: Attachment.photo) {
      if case .photo(let value) = $0 { value } else { nil }
    }
    Match("type", equals: "note", note, case: Attachment.note) {
      if case .note(let value) = $0 { value } else { nil }
    }
  }

  static let profile = Mapping(Profile.init) {
    KeyAttribute("username", \.username)
    Attribute("(username).followers", \.followers, default: 0)
    Attribute("(username).joined", \.joined).dateFormats([.pattern("yyyy-MM-dd")])
  }

  static let gadget: Mapping<Gadget> = Mapping(Gadget.init) {
    Attribute("id", \.id)
    Attribute("name", \.name, default: "")
    Attribute("price", \.price, default: 0).validate("a price is not negative") { $0 >= 0 }
    Attribute("rating", \.rating)
    Attribute("created", \.created, .date(format: "dd/MM/yyyy HH:mm"))
    Attribute("updated", \.updated)
    Attribute("links.home", \.homepage)
    Attribute("uuid", \.identifier)
    Attribute("blob", \.blob)
    Attribute("enabled", \.enabled, default: false)
    Attribute("kind", \.kind, default: .tool)
    Attribute("size.width", \.width, default: 0)
    Attribute("size.depth", \.depth)
    Attribute("tags", \.tags, .separated(by: ","), default: [])
    Attribute("labels", \.labels, default: [])
    Attribute("codes", \.codes, default: [])
    Attribute("scores", \.scores, default: [:])
    Attribute("matrix", \.matrix)
    Attribute("anything", \.anything)
    Relationship("owner", \.owner, owner)
    Relationship("co_owner", \.coOwner, owner)
    Relationship("parts", \.parts, part).optional().onChildFailure(.dropChild)
    Relationship("spares", \.spares, part)
    Relationship("parts_by_name", \.partsByName, part).optional()
    Relationship("children", \.children, lazy: { Mappings.gadget }).optional()
    Relationship("parent", \.parent, lazy: { Mappings.gadget })
    Relationship("attachments", \.attachments, attachment).optional()
    Relationship("pinned", \.pinned, attachment)
    Relationship("users", \.profiles, profile).optional()
      .validate("at most eight users") { (profiles: inout [Profile]) in profiles.count <= 8 }
  }

  static let provider = MappingProvider {
    Route("gadget", gadget, name: "gadget")
    Route("gadgets", gadget, name: "gadgets")
    Route("owners", owner, name: "owner")
    Route("attachments", attachment, name: "attachment")
  }
}
