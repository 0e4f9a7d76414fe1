/// The step of a superclass's rule, run on a subclass instance.
final class UpcastStep<Object, Base>: DecodeStepKind {
  let inner: DecodeStep<Base>

  init(_ inner: DecodeStep<Base>) {
    self.inner = inner
  }

  func decode(
    _ object: inout Object, _ patch: inout Patch<Object>, objectIndex: Int,
    hint: inout _MemberHint,
    run: inout MappingRun
  ) {
    guard var base = upcastReference(object, to: Base.self) else {
      return run.fail(notABase(Object.self, Base.self))
    }
    // The same instance seen as its superclass: a new model is written through it in place;
    // onto an existing instance, the superclass's writes are recorded and lifted.
    var basePatch = Patch<Base>()
    inner.decode(&base, &basePatch, objectIndex: objectIndex, hint: &hint, run: &run)
    guard run.ontoExisting, !basePatch.isEmpty else { return }
    patch.append(
      { object in
        guard var base = upcastReference(object, to: Base.self) else { return }
        basePatch.apply(to: &base)
      },
      preview: { object in
        guard var base = upcastReference(object, to: Base.self) else { return }
        basePatch.applyPreview(to: &base)
      })
  }

  func sourceIsPresent(objectIndex: Int, run: inout MappingRun) -> Bool {
    inner.sourceIsPresent(objectIndex: objectIndex, run: &run)
  }

  func sourceIsFound(objectIndex: Int, run: inout MappingRun) -> Bool {
    inner.sourceIsFound(objectIndex: objectIndex, run: &run)
  }

  func applies(in run: borrowing MappingRun) -> Bool {
    inner.applies(in: run)
  }

  var absenceAppliesOntoExistingInstances: Bool {
    inner.absenceAppliesOntoExistingInstances
  }

  func payloadIdentity(objectIndex: Int, key: IdentityKey, run: inout MappingRun)
    -> PayloadIdentityRead
  {
    inner.payloadIdentity(objectIndex: objectIndex, key: key, run: &run)
  }
}

/// `object` seen as its superclass `Base`: a checked class cast, which succeeds whenever the
/// rule was lifted (both are classes and `Object` is `Base` or a subclass, so the reference is
/// the same); `nil` only if that invariant were broken.
@inline(__always)
func upcastReference<Object, Base>(_ object: Object, to: Base.Type) -> Base? {
  object as? Base
}

/// The error for an object that is not a `Base` (never happens for a lifted rule).
@inline(never)
func notABase(_ object: Any.Type, _ base: Any.Type) -> MappingError.Kind {
  .invalidDefinition(message: "a \(object) is not a \(base)")
}
