import Foundation
import ObjectMapping
import ObjectMappingDefinitions

// The models definition files are bound to, with every kind of property a file can name. No
// type holds itself, directly or through another: definitions of recursive types keep
// themselves alive (a relationship's slot holds its own mapping), which LeakSanitizer would
// report at exit.

struct Coordinate: Equatable, Sendable {
  var latitude = 0.0
  var longitude = 0.0
}

enum State: String, Sendable {
  case open, closed
}

struct UserModel: DefinableModel, Equatable, Sendable {
  var imageUrl: URL?
  var name = ""
  var age: Int?
  var tags: [String] = []

  static let properties = PropertyTable(UserModel.init) {
    Property(\.imageUrl)
    Property(\.name)
    Property(\.age)
    Property(\.tags)
  }
}

struct TweetModel: DefinableModel, Equatable, Sendable {
  var identifier = ""
  var message = ""
  var retweets = 0
  var created: Date?
  var state = State.open
  var coordinates = Coordinate()
  var user: UserModel?
  var mentions: [UserModel] = []
  var byName: [String: UserModel] = [:]
  var summary: String { message }

  static let properties = PropertyTable(TweetModel.init) {
    Property(\.identifier)
    Property(\.message)
    Property(\.retweets)
    Property(\.created)
    Property(\.state)
    Property("coordinates", \.coordinates)
    Property(\.user)
    Property(\.mentions)
    Property("byName", \.byName)
    Property("summary", readOnly: \.summary)
  }
}

/// CSMapper's `Person`, named as its files are.
struct Person: DefinableModel, Equatable, Sendable {
  var name: String?
  var age: Int?
  var height: Int?
  var active = false
  var compound: String?
  var contact: UserModel?

  static let properties = PropertyTable(Person.init) {
    Property(\.name)
    Property(\.age)
    Property(\.height)
    Property(\.active)
    Property(\.compound)
    Property(\.contact)
  }
}

enum Fixtures {
  static let types: [any DefinableModel.Type] = [UserModel.self, TweetModel.self, Person.self]

  static let transforms: TransformRegistry = {
    var registry = TransformRegistry.standard
    registry.register(
      "coordinateFromArray",
      ValueTransform<[Double], Coordinate>(
        forward: { pair in
          guard pair.count == 2 else {
            throw ConversionFailure.invalidValue(
              expected: "two numbers", raw: "\(pair.count) numbers", reason: nil)
          }
          return Coordinate(latitude: pair[0], longitude: pair[1])
        },
        reverse: { [$0.latitude, $0.longitude] }))
    registry.register(
      "coordinateFromObject",
      userData: { (userData: Node) throws -> ValueTransform<Node, Coordinate> in
        let latitude = userData["latitude"]?.stringValue ?? "lat"
        let longitude = userData["longitude"]?.stringValue ?? "long"
        return ValueTransform(
          forward: { node in
            guard case .double(let lat)? = node[latitude], case .double(let long)? = node[longitude]
            else {
              throw ConversionFailure.typeMismatch(
                expected: "two numbers", found: node.kindDescription)
            }
            return Coordinate(latitude: lat, longitude: long)
          },
          reverse: { coordinate in
            .object([
              Node.Member(latitude, .double(coordinate.latitude)),
              Node.Member(longitude, .double(coordinate.longitude)),
            ])
          })
      })
    registry.register("shout", decodeOnly: { (text: String) in text.uppercased() })
    registry.register(
      "display", values: ValueTransform<[String], String>(decodeOnly: { $0.joined(separator: "/") })
    )
    return registry
  }()

  /// Payloads every loaded mapping is tried on.
  static let payloads: [Node] = [
    [
      "id_str": "1", "text": "hello", "retweet_count": 3, "created": "2013-11-01T07:20:20Z",
      "state": "closed", "coordinates": [1.5, 2.5], "lat": 1.5, "long": 2.5,
      "user": ["name": "Ann", "profile_image_url": "http://a/ann.png", "tags": ["a", "b"]],
      "mentions": [["name": "Bo"], ["name": "Cy", "age": 3]],
      "person_name": "Ann", "person_age": 41, "person_height": "170", "active": "on",
      "contact": ["name": "Di"], "groups": ["list"],
    ],
    [:],
    ["text": .null, "user": .null, "mentions": .null, "person_name": .null, "active": 1],
    [["id_str": "2", "text": "two"], ["id_str": "3"]],
  ]
}
