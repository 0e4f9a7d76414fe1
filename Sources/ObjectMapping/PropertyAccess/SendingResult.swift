/// `value`, which the caller knows shares no state with anything else it can reach, as a value
/// it may send: the one place the mapping target asserts a region the checker cannot see.
///
/// For `Mapper.map(_:with:)`: the result is made by the call and holds only objects the run
/// created (a Foundation input is copied into a `Node` first), never a reference to the input,
/// but the checker merges it into the input's region because the scan that produced it is
/// generic over its result. Anything else that needs it must meet the same condition and say so
/// where it calls this.
@inline(__always)
func _sendingResultOfFreshRun<Value>(_ value: Value) -> sending Value {
  nonisolated(unsafe) let fresh = value
  return unsafe fresh
}
