/// A plan's decode steps, called without retaining them: a plan runs its steps once per object,
/// and a retain and release around each call was measurable (about 2% of decoding twitter.json).
///
/// Sound because the plan that holds this list also holds the steps themselves
/// (``_MappingPlan/steps``) for as long as it exists, and a plan outlives every run of it.
@safe struct UnretainedSteps<Object>: @unchecked Sendable {
  // @unchecked: the references are immutable and point to immutable, `Sendable` steps.
  // The references are typed `AnyObject`, so that walking them needs no generic metadata (a
  // `[Unmanaged<DecodeStep<Object>>]` looked up `Unmanaged`'s metadata per object).
  private let steps: [Unmanaged<AnyObject>]

  /// An unretained view of `steps`; the caller keeps `steps` alive as long as this list.
  init(_ steps: [DecodeStep<Object>]) {
    unsafe self.steps = unsafe steps.map { unsafe Unmanaged.passUnretained($0 as AnyObject) }
  }

  /// Calls `body` with each step, in order.
  @inline(__always)
  func callEach(_ body: (DecodeStep<Object>) -> Void) {
    // An index loop, not `for step in steps`: the iterator over `Unmanaged` values is unsafe,
    // and `for unsafe` is rewritten to `for unsafestep` by this toolchain's swift-format.
    let count = unsafe steps.count
    for index in 0..<count {
      unsafe steps[index]._withUnsafeGuaranteedRef { step in
        // Every element was made from a `DecodeStep<Object>` in `init`.
        unsafe body(unsafeDowncast(step, to: DecodeStep<Object>.self))
      }
    }
  }
}
