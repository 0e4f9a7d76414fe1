import ObjectMappingDocument
import Testing

@testable import ObjectMapping

/// The debug checks of the unsafe fence (Documentation/Architecture.md), and the one lock type.
@Suite("The unsafe fence's debug checks, and Locked")
struct FenceCheckTests {
  @Test("A lent model read as the type it was lent as gives the value")
  func lentModelReadAsItsType() {
    let loaded = withBorrowed(42) { $0.erased.load(Int.self) }
    let typed = withBorrowed("text") { $0.erased.typed(String.self).value }
    #expect(loaded == 42)
    #expect(typed == "text")
  }

  #if DEBUG
    @Test("A lent model read as another type stops a debug build")
    func lentModelReadAsAnotherType() async {
      // `UInt` has `Int`'s layout: without the check, the read would quietly succeed.
      await #expect(processExitsWith: .failure) {
        _ = withBorrowed(42) { $0.erased.typed(UInt.self).value }
      }
    }

    @Test("The scanner's input accessor stops a debug build at a read past the end")
    func checkedBytesStopAtTheEnd() async {
      await #expect(processExitsWith: .failure) {
        let bytes: [UInt8] = [1, 2, 3]
        bytes.withUnsafeBufferPointer { buffer in
          guard let start = buffer.baseAddress else { return }
          // One byte past the end, inside the array's allocation: without the check, the
          // read would quietly succeed.
          let checked = _CheckedBytes(start: start, count: buffer.count)
          _ = checked[3]
        }
      }
    }
  #endif

  @Test("The scanner's input accessor reads every byte inside the input")
  func checkedBytesReadInside() {
    let bytes: [UInt8] = [1, 2, 3]
    let read = bytes.withUnsafeBufferPointer { buffer -> [UInt8] in
      guard let start = buffer.baseAddress else { return [] }
      let checked = _CheckedBytes(start: start, count: buffer.count)
      return (0..<3).map { checked[$0] }
    }
    #expect(read == [1, 2, 3])
  }

  @Test("Locked serializes changes from concurrent tasks")
  func lockedSerializesChanges() async {
    final class Counter: Sendable {
      let count = ObjectMappingDocument.Locked(0)
    }
    let counter = Counter()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask {
          for _ in 0..<1000 { counter.count.withLock { $0 += 1 } }
        }
      }
    }
    #expect(counter.count.value == 8000)
  }
}
