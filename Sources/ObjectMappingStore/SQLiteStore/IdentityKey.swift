/// An identity's text as a dictionary key, equal to another only when their UTF-8 bytes are:
/// the store compares identities as SQLite does (and as Core Data and RestKit compare strings),
/// where Swift's `String` equality is canonical equivalence (`"caf\u{E9}"` and `"cafe\u{301}"`
/// are one string to Swift and two rows to SQLite). Keying by `String` made the two identities
/// one live instance, and `fetch(_:ids:)` give one object's row for the other.
struct IdentityKey: Hashable, Sendable {
  let text: String

  init(_ text: String) {
    self.text = text
  }

  static func == (left: IdentityKey, right: IdentityKey) -> Bool {
    left.text.utf8.elementsEqual(right.text.utf8)
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(text.utf8.count)
    for byte in text.utf8 { hasher.combine(byte) }
  }
}
