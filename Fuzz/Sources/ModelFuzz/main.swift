import Foundation
import ObjectMapping

/// Maps the input (JSON) into class models with identities, epoch dates and a key path through
/// an optional. The bytes and the `Node` read from them map alike (duplicate keys included); a
/// mapped object serializes and maps back to the same payload; `map(_:onto:)` either succeeds,
/// keeping the instance of every child whose id it already had, or fails leaving the instance
/// and its children as they were.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzModel(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let data = Data(bytes: start, count: count)
  checkMapping(data)
  checkOnto(data)
  return 0
}
