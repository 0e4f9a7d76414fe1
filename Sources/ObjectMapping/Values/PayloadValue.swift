/// One value of a payload, as a ``MappableValue`` conformance sees it.
///
/// It reads straight from the scanned document: strings are decoded and numbers parsed only
/// when asked for. The typed accessors apply the mapping's ``Coercion``; ask for another
/// mappable type with ``decode(_:)`` to reuse a built-in conversion.
///
/// A `PayloadValue` is only valid during the `init(payload:)` call that received it: it reads the
/// mapping run's document without keeping it alive, so do not store it, or the values from its
/// ``elements`` and ``members``, or use them after that call returns.
public struct PayloadValue: @unchecked Sendable {
  // @unchecked: a payload value reads the mapping run's tape through unsafe buffers and refers
  // to the rule's settings without retaining them, so that handing one to `init(payload:)`
  // costs no reference counting. Everything it points to is immutable while the mapping runs
  // (the tape is only read; settings are `let`s), so reading it from any task is race-free,
  // and both outlive the `init(payload:)` call, the only place it may be used (see above).
  let tape: _TapeView
  let index: Int
  unowned(unsafe) let context: _ValueContext

  @inline(__always)
  init(tape: _TapeView, index: Int, context: _ValueContext) {
    self.tape = tape
    self.index = index
    self.context = context
  }

  /// The JSON type of a payload value.
  public enum Kind: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool
    /// A number.
    case number
    /// A string.
    case string
    /// An array.
    case array
    /// An object.
    case object
  }

  var entry: _TapeEntry {
    @inline(__always) get { tape[index] }
  }

  /// The JSON type of this value.
  public var kind: Kind {
    switch entry.kind {
    case .null: return .null
    case .true, .false: return .bool
    case .integer, .number: return .number
    case .string: return .string
    case .array: return .array
    case .object: return .object
    }
  }

  /// Whether this value is `null`.
  public var isNull: Bool { entry.kind == .null }

  /// The coercion mode of the mapping that reads this value.
  public var coercion: Coercion { context.coercion }

  /// The value as a document node (the whole subtree).
  public var node: Node { tape.node(at: index) }

  /// Reads this value as another mappable type, with that type's conversion rules.
  ///
  /// - Parameter type: The type to read.
  /// - Returns: The converted value.
  /// - Throws: ``ConversionFailure`` when the value does not convert.
  public func decode<T: MappableValue>(_ type: T.Type) throws -> T {
    try T(payload: self)
  }

  /// The elements of an array value, in order; `nil` for any other kind.
  public var elements: [PayloadValue]? {
    let entry = self.entry
    guard entry.kind == .array else { return nil }
    var result: [PayloadValue] = []
    result.reserveCapacity(Int(entry.length))
    var cursor = index + 1
    for _ in 0..<entry.length {
      result.append(PayloadValue(tape: tape, index: cursor, context: context))
      cursor = tape.next(after: cursor)
    }
    return result
  }

  /// The members of an object value, in payload order; `nil` for any other kind.
  public var members: [(key: String, value: PayloadValue)]? {
    let entry = self.entry
    guard entry.kind == .object else { return nil }
    var result: [(key: String, value: PayloadValue)] = []
    result.reserveCapacity(Int(entry.length))
    var cursor = index + 1
    for _ in 0..<entry.length {
      let key = tape.string(at: cursor)
      let value = PayloadValue(tape: tape, index: cursor + 1, context: context)
      result.append((key, value))
      cursor = tape.next(after: cursor + 1)
    }
    return result
  }

  /// The value of the first member named `key` of an object value; `nil` when absent or when
  /// this is not an object.
  public subscript(key: String) -> PayloadValue? {
    var key = key
    return key.withUTF8 { bytes in
      tape.member(of: index, named: bytes).map {
        PayloadValue(tape: tape, index: $0, context: context)
      }
    }
  }

  /// How this value reads in an error message: strings quoted and numbers as written (both
  /// shortened past 60 characters, with `…`), booleans as written, containers by kind
  /// (`an object`).
  public var rawDescription: String {
    switch entry.kind {
    case .null: return "null"
    case .true: return "true"
    case .false: return "false"
    case .integer: return String(entry.payload)
    case .number:
      // A number as written, kept to both ends when long (a megabyte literal makes a short
      // message); rendering it again in the error's description leaves it as it is.
      return MessageText.value(String(decoding: tape.content(of: entry), as: UTF8.self))
    case .string: return _quotedForMessage(tape.string(at: index))
    case .array: return "an array"
    case .object: return "an object"
    }
  }

  /// A type mismatch naming `expected` and this value.
  public func mismatch(expected: String) -> ConversionFailure {
    .typeMismatch(expected: expected, found: rawDescription)
  }

  /// An invalid-value failure naming `expected`, this value and an optional reason.
  public func invalid(expected: String, reason: String? = nil) -> ConversionFailure {
    .invalidValue(expected: expected, raw: rawDescription, reason: reason)
  }
}

/// `"text"` quoted for an error message: escaped and, past 158 bytes, shortened to both ends
/// (``MessageText/quoted(_:)``).
func _quotedForMessage(_ text: String) -> String {
  MessageText.quoted(text)
}
