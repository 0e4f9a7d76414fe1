import Foundation
import ObjectMapping

// FastJSONDecoder has exactly JSONDecoder's `decode` spellings (issue 37): `Data` only. The
// tests write most payloads as text, so they convert here, in one place, as a caller would.
extension FastJSONDecoder {
  func decode<T: Decodable>(_ type: T.Type, from json: String) throws -> T {
    try decode(type, from: Data(json.utf8))
  }

  func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
    try decode(type, from: Data(bytes))
  }
}
