/// The serializing step of a superclass's rule, run on a subclass instance.
final class _UpcastEncodeStep<Object, Base>: _EncodeStep, @unchecked Sendable {
  // @unchecked: immutable after init (see _EncodeStep).
  let inner: _EncodeStep

  init(_ inner: _EncodeStep) {
    self.inner = inner
  }

  override func write(
    _ object: _BorrowedModel, to writer: inout _PayloadWriter, run: inout _EncodingRun,
    nulls: NullPolicy
  ) -> Bool {
    guard let base = _upcast(object.load(Object.self), to: Base.self)
    else {
      run.record(MappingError(_notABase(Object.self, Base.self)), at: [])
      return false
    }
    return _withBorrowed(base) { inner.write($0.erased, to: &writer, run: &run, nulls: nulls) }
  }
}
