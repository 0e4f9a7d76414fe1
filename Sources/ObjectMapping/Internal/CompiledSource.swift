/// A ``SourcePath`` compiled for lookups: its keys' UTF-8 bytes allocated once.
struct _CompiledSource: @unchecked Sendable {
  // @unchecked: the key views read immutable bytes that `storage`, held here, keeps alive.

  /// Owns the bytes the key views read (see ``_KeyBytes``).
  private let storage: _KeyStorage

  /// The path's first key; `nil` for a special source (the object itself).
  let first: _KeyBytes?
  /// The path's other keys.
  let rest: [_KeyBytes]
  /// For each of ``rest``: the array index it names when it is a decimal integer (`"0"` in
  /// `"nested.0.value"`), read when the value at that step is an array; `nil` otherwise.
  let restIndexes: [Int?]
  /// An earlier rule of the same mapping reads the same first key.
  let mayRepeat: Bool
  /// The path, for error messages.
  let pathComponents: [_PathComponent]

  init(_ source: SourcePath, mayRepeat: Bool) {
    storage = _KeyStorage(source.isSpecial ? [] : source.utf8Keys)
    first = storage.keys.first
    rest = Array(storage.keys.dropFirst())
    restIndexes = (source.isSpecial ? [] : source.utf8Keys.dropFirst()).map(_arrayIndex)
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
    for offset in rest.indices {
      if let found = tape.member(of: current, named: rest[offset].buffer) {
        current = found
      } else if let index = restIndexes[offset], let found = tape.element(of: current, at: index) {
        current = found
      } else {
        return nil
      }
    }
    return current
  }
}

/// The array index a path key names (`"0"`, `"12"`: decimal digits, no leading zero, at most nine
/// digits), or `nil`.
func _arrayIndex(_ key: [UInt8]) -> Int? {
  guard !key.isEmpty, key.count <= 9, key.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
    return nil
  }
  guard key.count == 1 || key[0] != 0x30 else { return nil }
  return key.reduce(0) { $0 * 10 + Int($1 - 0x30) }
}
