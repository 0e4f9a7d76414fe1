import Foundation
import ObjectMapping

/// `precondition` that prints its message in release builds too.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fatalError(message()) }
}

/// The serialized payload of an account, or `nil` when it holds a value JSON cannot carry (a
/// date too far away for epoch milliseconds).
func payload(_ account: Account) -> Node? {
  do {
    return try Mappings.account.node(account)
  } catch {
    for failure in error.errors {
      switch failure.kind {
      case .format(.nonFiniteNumber), .format(.notRepresentable), .notRepresentable: continue
      default: fatalError("serializing failed: \(error)")
      }
    }
    return nil
  }
}

/// The bytes and the node read from them map alike; what maps serializes and maps back.
func checkMapping(_ data: Data) {
  let fromData = Result { () throws(MappingErrors) in try Mappings.account.map(data) }
  guard let node = try? Node(jsonData: data) else {
    if case .success = fromData { fatalError("mapped bytes that do not read as a Node") }
    return
  }
  let fromNode = Result { () throws(MappingErrors) in try Mappings.account.map(node) }
  switch (fromData, fromNode) {
  case (.success(let a), .success(let b)):
    let first = payload(a)
    require(first == payload(b), "bytes and node mapped differently: \(node)")
    guard let first else { return }
    do {
      let again = try Mappings.account.map(first)
      let second = payload(again)
      require(second == first, "\(first) mapped back as \(String(describing: second))")
    } catch {
      fatalError("the payload \(first) does not map back: \(error)")
    }
  case (.failure(let a), .failure(let b)):
    require(a.description == b.description, "bytes failed with \(a), the node with \(b)")
  default:
    fatalError("bytes and node disagree: \(fromData) vs \(fromNode) for \(node)")
  }
}

/// A fixed account with an owner and two members, mapped from JSON.
func existingAccount() -> Account {
  do {
    return try Mappings.account.map(
      #"{"id": 1, "title": "t", "created": 10, "#
        + #""owner": {"id": 7, "name": "Ann", "badge": {"code": "A"}}, "#
        + #""members": [{"id": 1, "name": "a"}, {"id": 2, "name": "b", "seen_ms": 5}]}"#)
  } catch {
    fatalError("the fixed account does not map: \(error)")
  }
}

/// `map(_:onto:)` is transactional and keeps the instances of children it already had.
func checkOnto(_ data: Data) {
  var account = existingAccount()
  let before = payload(account)
  let owner = account.owner
  let members = account.members
  let children = Dictionary(
    members.compactMap { member in member.id.map { ($0, ObjectIdentifier(member)) } },
    uniquingKeysWith: { first, _ in first })
  do {
    try Mappings.account.map(data, onto: &account)
  } catch {
    require(payload(account) == before, "a failed map(_:onto:) changed the account: \(error)")
    require(account.owner === owner, "a failed map(_:onto:) replaced the owner")
    require(
      account.members.count == members.count
        && zip(account.members, members).allSatisfy { $0 === $1 },
      "a failed map(_:onto:) replaced members")
    return
  }
  // Same id, same instance: existing members are merged into, and one id is one object.
  var seen: [Int: ObjectIdentifier] = [:]
  for member in account.members {
    guard let id = member.id else { continue }
    let identity = ObjectIdentifier(member)
    if let known = children[id] {
      require(known == identity, "member \(id) was replaced instead of merged into")
    }
    if let earlier = seen.updateValue(identity, forKey: id) {
      require(earlier == identity, "member \(id) is two objects")
    }
  }
  // The owner's identity is its badge code, read from the nested key path `badge.code`: an
  // owner with a known code is merged into, not replaced.
  if let owner, let code = owner.code, let now = account.owner, now.code == code {
    require(now === owner, "the owner with badge \(code) was replaced instead of merged into")
  }
  _ = payload(account)
}
