#if canImport(Glibc)
  import Glibc
#endif

/// Asks the kernel to back the reserved storage of a large array with transparent huge pages.
///
/// A decode of a large payload writes hundreds of megabytes of fresh memory (the tape, the
/// array of mapped objects). With 4 KiB pages every page is a separate page fault; with 2 MiB
/// pages there are 512 times fewer, which removed a third of the page faults of a
/// 1M-article decode (Documentation/Performance.md, "Scaling"). Only whole 2 MiB blocks inside
/// the array's reserved capacity are advised, and only when there are at least four: small
/// arrays are left alone. Pages never written still never become resident (a touched huge page
/// is resident whole: at most 2 MiB more per array).
///
/// A hint, not a requirement: it does nothing where transparent huge pages are off, and on
/// platforms without `madvise(MADV_HUGEPAGE)`.
package func _adviseHugePages<Element>(for array: inout [Element]) {
  #if os(Linux) && canImport(Glibc)
    let bytes = array.capacity * MemoryLayout<Element>.stride
    unsafe array.withUnsafeMutableBufferPointer { buffer in
      // The buffer's count may be 0; its base address is still the start of the storage.
      unsafe _adviseHugePages(
        for: UnsafeMutableRawBufferPointer(start: buffer.baseAddress, count: bytes))
    }
  #endif
}

/// ``_adviseHugePages(for:)-(inout [Element])`` for storage given as a raw buffer (the tape
/// the scanner writes into).
package func _adviseHugePages(for storage: UnsafeMutableRawBufferPointer) {
  #if os(Linux) && canImport(Glibc)
    let hugePage = 2 << 20
    let bytes = storage.count
    guard bytes >= 4 * hugePage, let base = storage.baseAddress else { return }
    let address = Int(bitPattern: base)
    let start = (address + hugePage - 1) & ~(hugePage - 1)
    let stop = (address + bytes) & ~(hugePage - 1)
    guard stop > start, let pointer = unsafe UnsafeMutableRawPointer(bitPattern: start) else {
      return
    }
    _ = unsafe madvise(pointer, stop - start, MADV_HUGEPAGE)
  #endif
}
