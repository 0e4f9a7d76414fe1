/// A ``SourcePath`` compiled for lookups: its keys' UTF-8 bytes allocated once.
struct _CompiledSource: @unchecked Sendable {
  // @unchecked: the key views read immutable bytes that `storage`, held here, keeps alive.

  /// Owns the bytes the key views read (see ``_KeyBytes``).
  private let storage: _KeyStorage

  /// The path's first key; `nil` for a special source (the object itself).
  let first: _KeyBytes?
  /// The path's other keys.
  let rest: [_KeyBytes]
  /// An earlier rule of the same mapping reads the same first key.
  let mayRepeat: Bool
  /// The path, for error messages.
  let pathComponents: [_PathComponent]

  init(_ source: SourcePath, mayRepeat: Bool) {
    storage = _KeyStorage(source.isSpecial ? [] : source.utf8Keys)
    first = storage.keys.first
    rest = Array(storage.keys.dropFirst())
    self.mayRepeat = mayRepeat
    pathComponents = source.pathComponents
  }

  /// The tape index of the value this path reaches from the object at `objectIndex`, or `nil`
  /// when absent. The first key's lookup starts at `hint`.
  @inline(__always)
  func resolve(in tape: _TapeView, from objectIndex: Int, hint: inout _MemberHint) -> Int? {
    // A special source reads the index its wrapping step resolved (`-1`: absent).
    guard let first else { return objectIndex >= 0 ? objectIndex : nil }
    guard
      var current = tape.member(of: objectIndex, named: first, hint: &hint, mayRepeat: mayRepeat)
    else { return nil }
    for key in rest {
      guard let found = tape.member(of: current, named: key.buffer) else { return nil }
      current = found
    }
    return current
  }
}
