/// Reads one property of the object being serialized.
///
/// A key path read in generic code goes through `KeyPath`'s runtime projection, which looks up
/// generic metadata on every call (about a fifth of the time of serializing twitter.json). When
/// the key path names a stored property of a struct (or a chain of them), the value is read at
/// its byte offset instead, computed once by `MemoryLayout.offset(of:)`; class properties and
/// computed properties keep the key path.
struct PropertyReader<Root, Value>: @unchecked Sendable {
  // @unchecked: a key path and an offset, both immutable.
  private let keyPath: KeyPath<Root, Value>
  private let offset: Int?

  init(_ keyPath: KeyPath<Root, Value>) {
    self.keyPath = keyPath
    offset = storedPropertyOffset(of: keyPath)
  }

  /// The property's offset in the root when it is a stored property of a struct (or a chain of
  /// them), `nil` otherwise.
  var storedOffset: Int? { offset }

  /// Calls `body` with the property's value in the lent `root`: in place for a stored
  /// property, a copy otherwise.
  @inline(__always)
  func withValue<Result>(
    in root: UnsafeBorrowedModel, _ body: (UnsafeBorrowedModel) throws -> Result
  ) rethrows -> Result {
    guard let offset else {
      return try withBorrowed(root.typed(Root.self).value[keyPath: keyPath]) {
        try body($0.erased)
      }
    }
    return try body(root.advanced(by: offset, from: Root.self, to: Value.self))
  }

  /// A copy of the property's value in the lent `root`. The key path is applied to the lent
  /// root in place (``UnsafeBorrowed/project(_:)``): reading it as `.value[keyPath:]` copied
  /// the whole root first (a retain and a release of each of its members; for twitter.json's
  /// computed `retweetedStatus`, a status per status).
  @inline(__always)
  func value(in root: UnsafeBorrowedModel) -> Value {
    root.typed(Root.self).project(keyPath)
  }

  /// The property's value in place in the lent `root` when it is a stored property of a struct
  /// (or a chain of them), `nil` otherwise: read without a closure, for the recursive
  /// relationship steps, whose frames repeat per level of nesting.
  @inline(__always)
  func storedValue(in root: UnsafeBorrowedModel) -> UnsafeBorrowedModel? {
    guard let offset else { return nil }
    return root.advanced(by: offset, from: Root.self, to: Value.self)
  }
}
