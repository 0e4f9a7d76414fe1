/// The settings a value conversion reads: fixed when a mapping is built.
final class _ValueContext: Sendable {
  let coercion: Coercion
  let dateFormats: [DateFormat]
  /// Whether validators run (``Mapping/validation(_:)``).
  let validates: Bool

  init(coercion: Coercion, dateFormats: [DateFormat], validates: Bool = true) {
    self.coercion = coercion
    self.dateFormats = dateFormats
    self.validates = validates
  }

  static let `default` = _ValueContext(coercion: .lenient, dateFormats: DateFormat.defaultFormats)

  func with(coercion: Coercion? = nil, dateFormats: [DateFormat]? = nil) -> _ValueContext {
    _ValueContext(
      coercion: coercion ?? self.coercion, dateFormats: dateFormats ?? self.dateFormats,
      validates: validates)
  }
}
