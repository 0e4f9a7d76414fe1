import Foundation
import ObjectMapping
import ObjectMappingDefinitions

/// The models of AppCoreKit's "Mappings" guide, in Swift, with their property tables.
struct Coordinate: Equatable, Sendable {
  var latitude = 0.0
  var longitude = 0.0
}

struct UserModel: DefinableModel, Equatable, Sendable {
  var imageUrl: URL?
  var name = ""

  static let properties = PropertyTable(UserModel.init) {
    Property(\.imageUrl)
    Property(\.name)
  }
}

struct TweetModel: DefinableModel, Equatable, Sendable {
  var imageUrl: URL?
  var name = ""
  var message = ""
  var identifier = ""
  var coordinates = Coordinate()
  var user: UserModel?
  var retweets = 0

  var summary: String { "\(name): \(message)" }

  static let properties = PropertyTable(TweetModel.init) {
    Property(\.imageUrl)
    Property(\.name)
    Property(\.message)
    Property(\.identifier)
    Property("coordinates", \.coordinates)
    Property(\.user)
    Property(\.retweets)
    Property("summary", readOnly: \.summary)
  }
}

struct TimelineModel: DefinableModel, Equatable, Sendable {
  var tweets: [TweetModel] = []

  static let properties = PropertyTable(TimelineModel.init) {
    Property(\.tweets)
  }
}

/// A recursive model: a comment's replies are comments.
struct Comment: DefinableModel, Equatable, Sendable {
  var text = ""
  var replies: [Comment] = []

  static let properties = PropertyTable(Comment.init) {
    Property(\.text)
    Property(\.replies)
  }
}

enum Transforms {
  /// The guide's transformers, registered under their selectors.
  static var registry: TransformRegistry {
    var registry = TransformRegistry.standard
    // coordinate2DFromFloatArray:error: — CLLocationCoordinate2DMake(array[0], array[1]).
    registry.register(
      "coordinate2DFromFloatArray:error:",
      ValueTransform<[Double], Coordinate>(
        forward: { array in
          guard array.count == 2 else {
            throw ConversionFailure.invalidValue(
              expected: "two numbers", raw: "\(array.count) numbers", reason: nil)
          }
          return Coordinate(latitude: array[0], longitude: array[1])
        },
        reverse: { [$0.latitude, $0.longitude] }))
    // coordinate2DFromDictionary:userData:error: — the user data names the two keys.
    registry.register(
      "coordinate2DFromDictionary:userData:error:", userData: coordinateFromDictionary)
    registry.register(
      "CLLocationCoordinate2DFromFloatArray:error:", userData: coordinateFromDictionary)
    return registry
  }

  @Sendable static func coordinateFromDictionary(_ userData: Node) throws -> ValueTransform<
    Node, Coordinate
  > {
    guard let longitudeKey = userData["longitude"]?.stringValue,
      let latitudeKey = userData["latitude"]?.stringValue
    else {
      throw ConversionFailure.invalidValue(
        expected: "{\"longitude\": …, \"latitude\": …}", raw: userData.kindDescription, reason: nil)
    }
    return ValueTransform(
      forward: { node in
        guard let longitude = number(node[longitudeKey]), let latitude = number(node[latitudeKey])
        else {
          throw ConversionFailure.invalidValue(
            expected: "an object with \(longitudeKey) and \(latitudeKey)",
            raw: node.kindDescription,
            reason: nil)
        }
        return Coordinate(latitude: latitude, longitude: longitude)
      },
      reverse: { coordinate in
        .object([
          Node.Member(longitudeKey, .double(coordinate.longitude)),
          Node.Member(latitudeKey, .double(coordinate.latitude)),
        ])
      })
  }
}

/// The number a node holds, if it holds one.
func number(_ node: Node?) -> Double? {
  switch node {
  case .integer(let value)?: return Double(value)
  case .double(let value)?: return value
  case .decimal(let number)?: return Double(number.text)
  default: return nil
  }
}
