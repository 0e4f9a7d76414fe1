/// One case of a dynamic mapping: a mapping of some model type and how its objects become
/// `Base` values (and back, for serialization).
public struct DynamicCase<Base>: Sendable {
  let name: String
  let decode: @Sendable (Int, inout MappingRun) -> Base?
  /// How the case maps the object at an index onto an existing `Base`.
  let update: CaseUpdate<Base>
  /// The serializing side, writing `discriminator` back when there is one.
  let makeEncoder: @Sendable (Discriminator?) -> CaseEncoder<Base>

  /// A case for a subclass of `Base` or a type conforming to a protocol `Base`.
  ///
  /// - Parameter mapping: The mapping of the case's model type.
  public init<Child>(_ mapping: some MappingProtocol<Child>) {
    self.init(
      mapping, name: "\(Child.self)",
      embed: { child in child as? Base },
      extract: { value, exact in
        if exact { return type(of: value as Any) == Child.self ? value as? Child : nil }
        return value as? Child
      })
  }

  /// A case for an enum `Base`: `embed` wraps the mapped value in the enum case, `extract`
  /// unwraps it for serialization.
  ///
  /// ```swift
  /// DynamicCase(circleMapping, case: Shape.circle) { if case .circle(let c) = $0 { c } else { nil } }
  /// ```
  ///
  /// - Parameters:
  ///   - mapping: The mapping of the associated value's type.
  ///   - embed: The enum case (`Shape.circle`).
  ///   - extract: The associated value when the enum value is this case, else `nil`.
  @preconcurrency
  public init<Child>(
    _ mapping: some MappingProtocol<Child>, case embed: @escaping @Sendable (Child) -> Base,
    extract: @escaping @Sendable (Base) -> Child?
  ) {
    self.init(mapping, embed: embed, extract: extract)
  }

  /// Removed: this spelling found the case again for serialization by reflecting on the enum
  /// value (`Mirror`), which cannot tell two cases that carry the same type. Pass `extract:`
  /// (``init(_:case:extract:)``).
  @available(
    *, unavailable,
    message:
      "add extract: { if case .circle(let value) = $0 { value } else { nil } }, so serialization needs no reflection"
  )
  @preconcurrency
  public init<Child>(
    _ mapping: some MappingProtocol<Child>, case embed: @escaping @Sendable (Child) -> Base
  ) {
    self.init(mapping, embed: embed, extract: { _ in nil })
  }

  /// A case with explicit conversions both ways, for enums whose cases share a payload type.
  @preconcurrency
  public init<Child>(
    _ mapping: some MappingProtocol<Child>, embed: @escaping @Sendable (Child) -> Base,
    extract: @escaping @Sendable (Base) -> Child?
  ) {
    self.init(
      mapping, name: "\(Child.self)", embed: { embed($0) }, extract: { value, _ in extract(value) })
  }

  /// A case made of its parts (``CodableMapping``'s single case).
  init(
    name: String, decode: @escaping @Sendable (Int, inout MappingRun) -> Base?,
    update: CaseUpdate<Base>, makeEncoder: @escaping @Sendable (Discriminator?) -> CaseEncoder<Base>
  ) {
    self.name = name
    self.decode = decode
    self.update = update
    self.makeEncoder = makeEncoder
  }

  private init<Child>(
    _ mapping: some MappingProtocol<Child>, name: String,
    embed: @escaping @Sendable (Child) -> Base?,
    extract: @escaping @Sendable (Base, Bool) -> Child?
  ) {
    let plan = mapping._plan
    self.name = name
    decode = { index, run in
      // The child is made in this frame (no `decodeNew` returning an optional in between):
      // recursion through a dynamic mapping repeats it per level of nesting.
      var value: Base?
      var made = false
      plan.decodeNew(at: index, run: &run) { child in
        made = true
        value = embed(child)
      }
      if made, value == nil { recordNotABase(Child.self, Base.self, run: &run) }
      return value
    }
    update = .mapping { existing, index, run in
      guard let child = extract(existing, false) else {
        run.fail(
          .typeMismatch(
            expected: "a payload for the existing \(type(of: existing as Any))",
            found: "a \(name)"))
        return nil
      }
      guard let pending = plan.map(existing: child, at: index, matching: .target, run: &run)
      else { return nil }
      var patch = Patch<Base>()
      // A class child is the existing instance itself: applying the writes updates it in
      // place, and embedding it again gives back the same reference. A value child (a struct
      // behind a protocol, an enum case's payload) is updated, then embedded again. The
      // preview changes no existing class instance (see `PendingChild.preview`).
      patch.append(
        { base in
          if let embedded = embed(pending.materialize()) { base = embedded }
        },
        preview: { base in
          guard !(Child.self is AnyClass) else { return }
          if let embedded = embed(pending.preview) { base = embedded }
        })
      return .merged(existing, patch)
    }
    makeEncoder = { discriminator in
      var inverse = plan.inverse
      if let discriminator {
        inverse = inverse.addingFallback(path: discriminator.path, label: "discriminator") { _ in
          discriminator.value
        }
      }
      let inversePlan = inverse.plan
      return CaseEncoder { value, exact, writer, run in
        guard let child = extract(value, exact) else { return false }
        inversePlan.encode(child, to: &writer, run: &run)
        return true
      }
    }
  }
}

extension DynamicCase {
  /// Maps the object at `index` onto `existing`, for which this case was chosen: through the
  /// case mapping's ``_MappingPlan/map(existing:at:matching:declineIsAcceptable:run:)``, or as
  /// ``update`` says for a case that makes whole values. `nil` with the errors in the run when
  /// it fails.
  func map(existing: Base, at index: Int, run: inout MappingRun) -> PendingChild<Base>? {
    switch update {
    case .mapping(let map):
      return map(existing, index, &run)
    case .replacing:
      return decode(index, &run).map { .fresh($0) }
    case .refusing(let message):
      run.fail(.invalidDefinition(message: message))
      return nil
    }
  }
}

/// How a ``DynamicCase`` maps an object onto an existing `Base`.
enum CaseUpdate<Base>: Sendable {
  /// With the case's mapping, onto the existing instance cast to the case's model type (a type
  /// mismatch naming both types when it is of another type).
  case mapping(@Sendable (Base, Int, inout MappingRun) -> PendingChild<Base>?)
  /// Replaced whole by the value the case decodes (a `Codable` type's `init(from:)`).
  case replacing
  /// Refused with this definition problem (a class that cannot be updated in place).
  case refusing(String)
}

/// A case's child that is not a `Base` (a definition mistake).
@inline(never)
private func recordNotABase(_ child: Any.Type, _ base: Any.Type, run: inout MappingRun) {
  run.fail(.invalidDefinition(message: "a \(child) is not a \(base)"))
}
