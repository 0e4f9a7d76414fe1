// swift-version: 6
// The Codable coders' `userInfo` takes what `JSONDecoder`'s and `JSONEncoder`'s take: in Swift 6
// mode a value that is not `Sendable` is the same warning for both, not an error for ours (a
// probe found code moving from Foundation's coders that stopped building). Checked by
// Scripts/check-diagnostics.sh in Swift 6 mode (the line above).

import Foundation
import ObjectMapping

final class Context {}  // expected-note 4 {{class 'Context' does not conform to the 'Sendable' protocol}}

func configure(_ key: CodingUserInfoKey) {
  let foundation = JSONDecoder()
  foundation.userInfo[key] = Context()  // expected-warning {{type 'Context' does not conform to the 'Sendable' protocol}}
  let fast = FastJSONDecoder()
  fast.userInfo[key] = Context()  // expected-warning {{type 'Context' does not conform to the 'Sendable' protocol}}
  let foundationEncoder = JSONEncoder()
  foundationEncoder.userInfo[key] = Context()  // expected-warning {{type 'Context' does not conform to the 'Sendable' protocol}}
  let fastEncoder = FastJSONEncoder()
  fastEncoder.userInfo[key] = Context()  // expected-warning {{type 'Context' does not conform to the 'Sendable' protocol}}
}
