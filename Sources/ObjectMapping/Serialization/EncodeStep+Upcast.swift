/// The serializing step of a superclass's rule, run on a subclass instance.
final class UpcastEncodeStep<Object, Base>: EncodeStepKind {
  let inner: EncodeStep

  init(_ inner: EncodeStep) {
    self.inner = inner
  }

  func write(
    _ object: UnsafeBorrowedModel, to writer: inout PayloadWriter, run: inout EncodingRun,
    nulls: NullPolicy
  ) -> Bool {
    guard let base = upcastReference(object.load(Object.self), to: Base.self)
    else {
      run.record(MappingError(notABase(Object.self, Base.self)), at: [])
      return false
    }
    return withBorrowed(base) { inner.write($0.erased, to: &writer, run: &run, nulls: nulls) }
  }
}
