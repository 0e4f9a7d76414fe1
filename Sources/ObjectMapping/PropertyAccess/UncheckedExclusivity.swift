/// A base class whose subclass keeps its mutable state in ``state``, read and changed without
/// the runtime's dynamic exclusivity checks: the Codable decoder's reading and the streaming
/// encoder, whose state is touched on every value (checking each access cost a fifth to a
/// half of their time, measured with callgrind).
///
/// Invariant (what the subclass promises, and what makes skipping the checks safe): the
/// object is used by one thread at a time, and no access to ``state`` (or to a forwarding
/// property of it) overlaps another access to the same part of it: no method hands out an
/// `inout` access that outlives its call, and no call made during such an access reaches the
/// same part of the state. The static exclusivity checks still hold for everything else.
///
/// Not marked `@unsafe`, under that invariant, which the compiler does not check: marking it
/// would mark each of the 200-odd accesses in `Codable/` without making one of them safer. The
/// two subclasses are named in Documentation/Architecture.md's fence section.
class UncheckedExclusiveState<State> {
  @exclusivity(unchecked) private final var storage: State

  init(state: State) {
    unsafe storage = state
  }

  /// The subclass's state.
  final var state: State {
    @inline(__always) _read { yield unsafe storage }
    @inline(__always) _modify { yield unsafe &storage }
  }
}
