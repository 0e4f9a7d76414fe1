/// An owned copy of the memory a ``_UnsafeTapeView`` reads: its entries, its bytes and its long
/// lengths, allocated once and freed with the copy.
///
/// A view made by a scan borrows the scanned text and the scanner's index for the duration of
/// one call. A reader whose values may outlive that call (a `Codable` container that a model's
/// `init(from:)` stored, which `JSONDecoder` allows) moves to a copy before the call returns:
/// ``view`` reads the copy, with the same indices as the view it was made from.
///
/// Invariant (what makes ``view`` safe): the three buffers are allocated in `init`, initialized
/// from the source view there, never written afterwards, and freed only in `deinit`; a holder
/// of ``view`` keeps the copy alive (it stores the copy next to the view), so the view never
/// outlives its memory. Reading the copy from several threads is safe: nothing writes to it.
@safe package final class _TapeCopy: @unchecked Sendable {
  // @unchecked: immutable after `init` (see the invariant).
  private let entries: UnsafeMutableBufferPointer<_PackedEntry>
  private let bytes: UnsafeMutableBufferPointer<UInt8>
  private let longLengths: UnsafeMutableBufferPointer<_LongLength>
  /// The view's side (the copied long lengths; no shared strings: the table belongs to the
  /// scan the source view was made by).
  private let side: UnsafeMutablePointer<_TapeSide>
  /// A view of the copy, valid while the copy is alive.
  package let view: _UnsafeTapeView

  /// Copies what `source` reads.
  package init(copying source: _UnsafeTapeView) {
    unsafe entries = unsafe Self.copy(source.entries)
    unsafe bytes = unsafe Self.copy(source.bytes)
    unsafe longLengths = unsafe Self.copy(source.longLengths)
    unsafe side = UnsafeMutablePointer<_TapeSide>.allocate(capacity: 1)
    unsafe side.initialize(
      to: _TapeSide(
        longLengths: UnsafeBufferPointer(rebasing: longLengths[0..<source.longLengths.count]),
        sharedStrings: nil))
    view = unsafe _UnsafeTapeView(
      entries: UnsafeBufferPointer(rebasing: entries[0..<source.entries.count]),
      bytes: UnsafeBufferPointer(rebasing: bytes[0..<source.bytes.count]),
      side: UnsafePointer(side))
    unsafe assert(
      view.entries.count == source.entries.count && view.bytes.count == source.bytes.count)
  }

  /// A new buffer holding `source`'s elements (at least one element of capacity, so that the
  /// buffer always has a base address to free).
  private static func copy<Element>(_ source: UnsafeBufferPointer<Element>)
    -> UnsafeMutableBufferPointer<Element>
  {
    let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: max(source.count, 1))
    if source.count > 0 {
      _ = unsafe UnsafeMutableBufferPointer(rebasing: buffer[0..<source.count]).initialize(
        from: source)
    }
    return unsafe buffer
  }

  deinit {
    // The elements are trivial (integers and bit patterns): nothing to deinitialize.
    unsafe entries.deallocate()
    unsafe bytes.deallocate()
    unsafe longLengths.deallocate()
    unsafe side.deallocate()
  }
}
