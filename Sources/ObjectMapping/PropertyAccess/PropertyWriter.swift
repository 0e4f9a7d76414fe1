/// Writes one property of the model being mapped.
///
/// A key path written in generic code goes through `WritableKeyPath`'s runtime projection,
/// which looks up generic metadata on every call. When the key path names a stored property of
/// a struct (or a chain of them), the value is written at its byte offset instead, computed
/// once by `MemoryLayout.offset(of:)`; class properties and computed properties keep the key
/// path. This type and ``PropertyReader`` are the only places in the mapping layer that touch
/// a model through a pointer.
struct PropertyWriter<Object, Value>: @unchecked Sendable {
  // @unchecked: a key path and an offset, both immutable; the key path is `Sendable` where the
  // rule that made it required one.
  let keyPath: WritableKeyPath<Object, Value>
  /// The byte offset of the stored property inside `Object`, or `nil`.
  private let offset: Int?

  init(_ keyPath: WritableKeyPath<Object, Value>) {
    self.keyPath = keyPath
    offset = storedPropertyOffset(of: keyPath)
  }

  /// Sets the property of `object` to `value`.
  @inline(__always)
  func write(_ value: Value, into object: inout Object) {
    guard let offset else {
      object[keyPath: keyPath] = value
      return
    }
    // `&object` lends the model's address for the call (no closure: recursive relationship
    // steps repeat this frame per level of nesting).
    unsafe Self.store(value, at: offset, in: &object)
  }

  /// Sets the property of `object` to `value`, consuming it: a child model written through a
  /// key path (a computed or class property) is handed over instead of copied and then
  /// destroyed (a whole model's reference counting, per write). For values that are no longer
  /// needed after the write; ``write(_:into:)`` otherwise (a borrowed value passed here would
  /// be copied first).
  @inline(__always)
  func write(taking value: consuming Value, into object: inout Object) {
    guard let offset else {
      object[keyPath: keyPath] = consume value
      return
    }
    unsafe Self.store(taking: value, at: offset, in: &object)
  }

  /// ``store(_:at:in:)``, consuming `value`.
  @inline(__always)
  private static func store(
    taking value: consuming Value, at offset: Int, in base: UnsafeMutablePointer<Object>
  ) {
    unsafe (UnsafeMutableRawPointer(base) + offset).assumingMemoryBound(to: Value.self).pointee =
      consume value
  }

  /// Stores `value` at `offset` in the model at `base`. In bounds and correctly typed:
  /// `offset(of:)` returned the offset of a stored `Value` inside `Object` (checked in `init`),
  /// and `base` is the address of an `Object` exclusively accessed for the call.
  @inline(__always)
  private static func store(_ value: Value, at offset: Int, in base: UnsafeMutablePointer<Object>) {
    unsafe (UnsafeMutableRawPointer(base) + offset).assumingMemoryBound(to: Value.self).pointee =
      value
  }

  /// The property's value in `object`.
  @inline(__always)
  func value(in object: Object) -> Value {
    object[keyPath: keyPath]
  }
}

/// The byte offset of the stored property `keyPath` names inside `Root` (a stored property of
/// a struct, or a chain of them), or `nil` (class and computed properties): the one place both
/// ``PropertyReader`` and ``PropertyWriter`` get their offset from.
func storedPropertyOffset<Root, Value>(of keyPath: KeyPath<Root, Value>) -> Int? {
  let offset = MemoryLayout<Root>.offset(of: keyPath)
  // `offset(of:)` gives an offset only for storage inline in `Root`, which therefore holds the
  // whole value.
  assert(
    offset.map { $0 >= 0 && $0 + MemoryLayout<Value>.size <= MemoryLayout<Root>.size } ?? true)
  return offset
}
