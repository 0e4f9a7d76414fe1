import Foundation
import ObjectMapping
import ObjectMappingDocument

/// The mapping of a definition that a relationship refers to through a level of indirection: in
/// a cycle (a comment's replies), in a long chain of definitions, or where the relationship's
/// child is itself the top of many direct levels. Set when the definition's mapping is built
/// (before the catalog is returned), read on every use after.
///
/// Freeing a chain of mappings frees each one from inside the one before, a few frames per
/// level: 10,000 definitions, each holding the next, would overflow any thread's stack. So the
/// catalog never lets more than ``CatalogBuilder/maximumDirectHeight`` levels hold each other
/// directly, and a slot hands its mapping to ``DeferredRelease`` when it goes: the chain is
/// freed level by level in a loop, never by recursion proportional to its length.
final class MappingSlot<T>: Sendable {
  private let value = Locked<Mapping<T>?>(nil)
  private let placeholder: @Sendable () -> Mapping<T>

  init(_ placeholder: @escaping @Sendable () -> Mapping<T>) {
    self.placeholder = placeholder
  }

  func fill(_ mapping: Mapping<T>) {
    value.withLock { $0 = mapping }
  }

  var mapping: Mapping<T> {
    value.value ?? placeholder()
  }

  deinit {
    // Handed over, not copied: no reference may be left in this frame to free the mapping here.
    if let held = value.withLock({ $0.take() }) { DeferredRelease.release(consume held) }
  }
}

/// Frees values outside the `deinit` that drops them: the first release on a thread frees, in a
/// loop, the values released while it frees (however deep the chain they hold), so that freeing
/// a long chain takes a constant depth of stack.
enum DeferredRelease {
  /// The values waiting to be freed on one thread, and whether a loop is freeing them.
  private final class Queue {
    var items: [Any] = []
    var isDraining = false
  }

  private static let key = "ObjectMappingDefinitions.DeferredRelease"

  /// Frees `item` now, or after the values being freed on this thread when a loop is running.
  static func release(_ item: consuming Any) {
    let threadValues = Thread.current.threadDictionary
    let queue: Queue
    if let existing = threadValues[key] as? Queue {
      queue = existing
    } else {
      queue = Queue()
      threadValues[key] = queue
    }
    queue.items.append(consume item)
    guard !queue.isDraining else { return }
    queue.isDraining = true
    while let next = queue.items.popLast() {
      // Freed here: a slot it held appends its own value to `items` instead of recursing.
      _ = next
    }
    queue.isDraining = false
  }
}
