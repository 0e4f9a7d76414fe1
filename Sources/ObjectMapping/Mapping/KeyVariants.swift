import Foundation

/// The plans a mapping derives for the key conventions calls declare (``MappingOptions/keys``):
/// the same mapping with its default keys (rules declared without a key, in a mapping without a
/// convention of its own) made by the call's convention.
///
/// A plan is derived the first time a call uses a convention and kept, up to ``limit``
/// conventions per mapping, the oldest forgotten first: a program that makes a custom
/// convention per call (each one a new convention) gets a derivation per call, never an
/// unbounded cache. Shared by every task that maps with the mapping; the lock is taken only by
/// calls that declare a convention.
final class KeyVariants<Plan: AnyObject & Sendable>: Sendable {
  /// Derives the plan for a convention; the argument is the owning plan's identity, which the
  /// derived plan keeps for the settings precedence (see ``_MappingPlan/settingsID``).
  private let derive: @Sendable (KeyConvention, ObjectIdentifier) -> Plan
  private let kept = Locked<[(convention: KeyConvention, plan: Plan)]>([])

  /// How many conventions' plans a mapping keeps.
  static var limit: Int { 8 }

  init(_ derive: @escaping @Sendable (KeyConvention, ObjectIdentifier) -> Plan) {
    self.derive = derive
  }

  /// The plan for `convention`, derived on first use; `owner` is the plan this belongs to.
  @inline(never)
  func plan(for convention: KeyConvention, owner: ObjectIdentifier) -> Plan {
    if let known = lookUp(convention) { return known }
    // Derived outside the lock: deriving builds a mapping, which may reach other mappings'
    // variants (a recursive relationship's) and must not wait for this one.
    let derived = derive(convention, owner)
    return kept.withLock { kept in
      if let raced = kept.first(where: { $0.convention.name == convention.name }) {
        return raced.plan
      }
      if kept.count == Self.limit { kept.removeFirst() }
      kept.append((convention, derived))
      return derived
    }
  }

  private func lookUp(_ convention: KeyConvention) -> Plan? {
    kept.withLock { kept in kept.first(where: { $0.convention.name == convention.name })?.plan }
  }
}
