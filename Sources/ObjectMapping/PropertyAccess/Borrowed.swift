/// A value lent by address for the length of one call: how the encode steps read a model, its
/// properties and its children in place, with no copy, retain or release per value.
///
/// Made only here (``withBorrowed(_:_:)``, ``PropertyReader``, ``UnsafeBorrowedModel/typed(_:)``),
/// from a value the lender keeps alive and unchanged for the call it lends it to. Never stored:
/// a borrowed value is a parameter or a local of the call it was lent to.
///
/// `@safe` under that invariant, which the compiler does not check (the type is escapable): its
/// initializer takes a pointer, so only code inside this folder can make one, and every such
/// place lends it for one call only. Marking it `@unsafe` instead would mark every encode step
/// that reads a lent model (five files outside the fence) without making any of them safer.
@safe struct UnsafeBorrowed<Value> {
  private let pointer: UnsafePointer<Value>

  fileprivate init(_ pointer: UnsafePointer<Value>) {
    unsafe self.pointer = unsafe pointer
  }

  /// The value, in place (an addressor: reading a member copies only that member).
  var value: Value {
    unsafeAddress { unsafe pointer }
  }

  /// The value of `keyPath` in the lent value, read in place: the key path's projection is
  /// given the lent value's address, so the value is not copied first (as reading
  /// `value[keyPath:]` does).
  @inline(__always)
  func project<Property>(_ keyPath: KeyPath<Value, Property>) -> Property {
    // Passed inout, the lent value's address goes to the projection as it is; read through
    // `pointee` as an rvalue, it was copied into a temporary first. Nothing is written: a
    // `KeyPath` only reads.
    unsafe projected(&UnsafeMutablePointer(mutating: pointer).pointee, keyPath)
  }

  /// The value with its type erased, for the encode steps' common signature.
  @inline(__always)
  var erased: UnsafeBorrowedModel {
    unsafe UnsafeBorrowedModel(UnsafeRawPointer(pointer), Value.self)
  }
}

/// A lent model whose type the callee knows: an encode step is only ever given a model of its
/// own plan's `Object` type (the plan that compiled it lends it; see ``InversePlan``).
///
/// `@safe` under the same invariant as ``UnsafeBorrowed``. Debug builds also carry the lent value's
/// type and check it in ``typed(_:)``, ``advanced(by:from:to:)``'s callers and ``load(_:)``.
@safe struct UnsafeBorrowedModel {
  private let raw: UnsafeRawPointer
  #if DEBUG
    /// The type of the value lent (debug builds only: checked by every typed read).
    private let type: Any.Type
  #endif

  // Always inlined: in release builds `type` is unused and costs nothing once inlined (a call
  // of the generic initializer cost about 2% of serializing twitter.json).
  @inline(__always)
  fileprivate init<Value>(_ raw: UnsafeRawPointer, _ type: Value.Type) {
    unsafe self.raw = unsafe raw
    #if DEBUG
      self.type = type
    #endif
  }

  /// Stops a debug build when the model is read as a type other than the one lent.
  @inline(__always)
  private func assertType<Object>(_ expected: Object.Type) {
    #if DEBUG
      assert(
        type == expected,
        "UnsafeBorrowedModel lent as \(type) read as \(expected): an encode step was given another plan's model"
      )
    #endif
  }

  /// The model as the `Object` it is.
  @inline(__always)
  func typed<Object>(_ type: Object.Type) -> UnsafeBorrowed<Object> {
    assertType(Object.self)
    return unsafe UnsafeBorrowed(raw.assumingMemoryBound(to: Object.self))
  }

  /// The stored property of type `Value` `offset` bytes into the model: only for an offset
  /// `MemoryLayout.offset(of:)` reported for the model's type (``PropertyReader``).
  @inline(__always)
  func advanced<Root, Value>(by offset: Int, from root: Root.Type, to value: Value.Type)
    -> UnsafeBorrowedModel
  {
    assertType(Root.self)
    assert(offset >= 0 && offset + MemoryLayout<Value>.size <= MemoryLayout<Root>.size)
    return unsafe UnsafeBorrowedModel(raw + offset, Value.self)
  }

  /// Calls `body` with the lent `Object`, borrowed in place: unlike ``load(_:)``, no copy (for
  /// a string, no retain and release around the call). `body` only reads it.
  @inline(__always)
  func withValue<Object, Result>(
    _ type: Object.Type, _ body: (borrowing Object) throws -> Result
  ) rethrows -> Result {
    assertType(Object.self)
    // Passed inout, the value's address goes to `body` as it is, and the optimizer may assume
    // that nothing else writes it during the call (read through `pointee` as an rvalue, it is
    // copied first). Nothing is written: `body` borrows it.
    let pointer = unsafe UnsafeMutablePointer(mutating: raw.assumingMemoryBound(to: Object.self))
    return unsafe try lendInPlace(&pointer.pointee, body)
  }

  /// ``advanced(by:from:to:)`` for a value whose type is known only as a metatype (a
  /// ``BuiltInScalar``'s): debug builds check the offset against the model's size and carry
  /// `type` on for the value's typed reads.
  @inline(__always)
  func advanced<Root>(by offset: Int, from root: Root.Type, to type: Any.Type)
    -> UnsafeBorrowedModel
  {
    assertType(Root.self)
    assert(offset >= 0 && offset < MemoryLayout<Root>.size)
    return unsafe UnsafeBorrowedModel(raw + offset, erasedType: type)
  }

  @inline(__always)
  private init(_ raw: UnsafeRawPointer, erasedType: Any.Type) {
    unsafe self.raw = unsafe raw
    #if DEBUG
      type = erasedType
    #endif
  }

  /// A copy of the model.
  @inline(__always)
  func load<Object>(_ type: Object.Type) -> Object {
    assertType(Object.self)
    return unsafe raw.assumingMemoryBound(to: Object.self).pointee
  }
}

/// `keyPath` read from `root`, passed inout so that it is not copied (see
/// ``UnsafeBorrowed/project(_:)``).
@inline(__always)
private func projected<Root, Property>(_ root: inout Root, _ keyPath: KeyPath<Root, Property>)
  -> Property
{
  root[keyPath: keyPath]
}

/// Lends `value`, passed inout so that it is not copied, to `body`, which borrows it (see
/// ``UnsafeBorrowedModel/withValue(_:_:)``).
@inline(__always)
private func lendInPlace<Value, Result>(
  _ value: inout Value, _ body: (borrowing Value) throws -> Result
) rethrows -> Result {
  try body(value)
}

/// Lends `value` to `body`.
@inline(__always)
func withBorrowed<Value, Result>(
  _ value: Value, _ body: (UnsafeBorrowed<Value>) throws -> Result
) rethrows -> Result {
  unsafe try withUnsafePointer(to: value) { unsafe try body(UnsafeBorrowed($0)) }
}

/// Lends `value` (a local copy the caller owns) to `body`, without a closure frame when
/// inlined: the recursive relationship steps repeat this per level of nesting.
@inline(__always)
func withBorrowed<Value, Result>(
  copy value: inout Value, _ body: (UnsafeBorrowedModel) throws -> Result
) rethrows -> Result {
  unsafe try lendAddress(of: &value, body)
}

@inline(__always)
private func lendAddress<Value, Result>(
  of value: UnsafeMutablePointer<Value>, _ body: (UnsafeBorrowedModel) throws -> Result
) rethrows -> Result {
  unsafe try body(UnsafeBorrowedModel(UnsafeRawPointer(value), Value.self))
}

extension Array {
  /// Writes each element with `plan`, lent in place from the array's own storage, with its
  /// index on the run's path. (The loop lives here, not behind a closure taking each element:
  /// a closure per element cost about 1% of serializing citm_catalog.)
  @inline(__always)
  func encodeEachBorrowed(
    with plan: InversePlan<Element>, to writer: inout PayloadWriter, run: inout EncodingRun
  ) {
    let stride = MemoryLayout<Element>.stride
    unsafe withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      let start = unsafe UnsafeRawPointer(base)
      for offset in 0..<buffer.count {
        run.path.append(.index(offset))
        unsafe plan.encode(
          at: UnsafeBorrowedModel(start + offset * stride, Element.self), to: &writer, run: &run)
        run.path.removeLast()
      }
    }
  }
}

/// A class instance referenced without retaining it, by a holder its owner outlives: the
/// members of an inverse plan (the plan holds their steps), and a `PayloadValue`'s settings
/// (the run holds them while its reading is current, which every public member of the value
/// checks first). Calling through it costs no retain/release.
@safe struct UnsafeUnretained<Target: AnyObject> {
  private let reference: Unmanaged<Target>

  init(_ target: Target) {
    unsafe reference = unsafe .passUnretained(target)
  }

  /// The instance (retained by the caller from here on).
  var target: Target { unsafe reference.takeUnretainedValue() }

  /// Calls `body` with the instance, which its owner keeps alive.
  @inline(__always)
  func call<Result>(_ body: (Target) throws -> Result) rethrows -> Result {
    unsafe try reference._withUnsafeGuaranteedRef(body)
  }
}

/// A fixed array owned by a class, read without bounds checks or retains in release builds
/// (bounds are asserted in debug builds): an inverse plan's members and key bytes.
@safe final class FixedBuffer<Element>: @unchecked Sendable {
  // @unchecked: written once in init, read-only afterwards, freed in deinit.
  private let storage: UnsafeMutableBufferPointer<Element>
  let count: Int

  init(_ elements: [Element]) {
    unsafe storage = .allocate(capacity: Swift.max(elements.count, 1))
    _ = unsafe storage.initialize(from: elements)
    count = elements.count
  }

  deinit {
    unsafe storage.baseAddress?.deinitialize(count: count)
    unsafe storage.deallocate()
  }

  @inline(__always)
  subscript(index: Int) -> Element {
    assert(index >= 0 && index < count)
    return unsafe storage[index]
  }

  /// Lends the elements in `start..<start + length` to `body`.
  @unsafe
  @inline(__always)
  func withSlice<Result>(
    from start: Int, count length: Int, _ body: (UnsafeBufferPointer<Element>) -> Result
  ) -> Result {
    assert(start >= 0 && length >= 0 && start + length <= count)
    return unsafe body(UnsafeBufferPointer(rebasing: storage[start..<start + length]))
  }
}

extension FixedBuffer where Element == UInt8 {
  /// Writes the framed key (`"name":`, pre-escaped) in `start..<start + length` to `writer`.
  @inline(__always)
  func writeKey(from start: Int, count length: Int, to writer: inout _JSONWriter) {
    unsafe withSlice(from: start, count: length) { unsafe writer.key(framed: $0) }
  }
}

/// `value` as `Target` when the two are the same type (checked by their metadata), without the
/// runtime's dynamic cast; `nil` otherwise. Safe: the bits are reinterpreted only as the type
/// they already are. For generic code that has just matched a type (`T.self == [Double].self`).
@inline(__always)
func sameType<Value, Target>(_ value: Value, as target: Target.Type) -> Target? {
  guard Value.self == Target.self else { return nil }
  return unsafe unsafeBitCast(value, to: Target.self)
}

/// `value` as `Target`, which the caller has just matched as the same type (stops the program
/// otherwise: a bug in the caller, never input). Unlike ``sameType(_:as:)`` it returns no
/// `Optional<Target>`, whose metadata unspecialized generic code would look up on every call.
@inline(__always)
func identityCast<Value, Target>(_ value: Value, to target: Target.Type) -> Target {
  precondition(Value.self == Target.self, "identityCast between different types")
  return unsafe unsafeBitCast(value, to: Target.self)
}
