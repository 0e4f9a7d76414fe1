/// One value of a payload, as a ``MappableValue`` conformance sees it.
///
/// It reads straight from the scanned document: strings are decoded and numbers parsed only
/// when asked for. The typed accessors apply the mapping's ``Coercion``; ask for another
/// mappable type with ``decode(_:)`` to reuse a built-in conversion.
///
/// A `PayloadValue` is valid only during the mapping call that made it, on its thread: it reads
/// the run's document without copying it. Use it (and the values from its ``elements``,
/// ``members`` and subscript) inside `init(payload:)`, and store what you read from it, not the
/// value itself. Every member checks this first: a value used after its mapping call returned,
/// on another thread, or (in a streamed `mapCollection`) after its element was mapped stops the
/// program with the message "a PayloadValue was used after the mapping call that made it
/// returned" instead of reading freed or foreign memory. It is not `Sendable`.
public struct PayloadValue {
  // Reads the mapping run's tape through unsafe buffers and refers to the run's settings
  // without retaining them, so that handing one to `init(payload:)` costs no reference
  // counting. Both stay alive while the run's reading (`token`, see `_ReadingScope`) is
  // current on this thread, which every public member checks before reading them.
  let tape: _UnsafeTapeView
  let index: Int
  private let unretainedContext: UnsafeUnretained<ValueContext>
  /// The settings the value is read with (the run's, not retained: see above).
  var context: ValueContext {
    @inline(__always) get { unretainedContext.target }
  }
  /// The reading (mapping run, or streamed element) this value belongs to.
  let token: UInt64

  @inline(__always)
  init(tape: _UnsafeTapeView, index: Int, context: ValueContext, token: UInt64) {
    self.tape = tape
    self.index = index
    unretainedContext = UnsafeUnretained(context)
    self.token = token
  }

  /// A value of `run`'s document, read with the run's settings.
  @inline(__always)
  init(run: borrowing MappingRun, index: Int, context: ValueContext? = nil) {
    self.init(tape: run.tape, index: index, context: context ?? run.context, token: run.token)
  }

  /// Another value of the same reading.
  @inline(__always)
  func sibling(at index: Int) -> PayloadValue {
    PayloadValue(tape: tape, index: index, context: context, token: token)
  }

  /// Stops the program when this value is used outside the reading that made it (see the type's
  /// documentation): reading its document then could read freed memory.
  @inline(__always)
  func checkLifetime() {
    guard _fastPath(_ReadingScope.isCurrent(token)) else { useAfterReading() }
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
    checkLifetime()
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
  public var isNull: Bool {
    checkLifetime()
    return entry.kind == .null
  }

  /// Whether the value is a string that is empty or holds only whitespace (spaces, tabs, line
  /// breaks): what RestKit read as `nil` for numbers and dates (unchecked: for the engine,
  /// inside the reading).
  var isBlankString: Bool {
    entry.kind == .string && tape.string(at: index).allSatisfy(\.isWhitespace)
  }

  /// The coercion mode of the mapping that reads this value.
  public var coercion: Coercion {
    checkLifetime()
    return context.coercion
  }

  /// The value as a document node (the whole subtree).
  public var node: Node {
    checkLifetime()
    return tape.node(at: index)
  }

  /// Reads this value as another mappable type, with that type's conversion rules.
  ///
  /// - Parameter type: The type to read.
  /// - Returns: The converted value.
  /// - Throws: ``ConversionFailure`` when the value does not convert.
  public func decode<T: MappableValue>(_ type: T.Type) throws -> T {
    checkLifetime()
    return try T(payload: self)
  }

  /// The elements of an array value, in order; `nil` for any other kind.
  public var elements: [PayloadValue]? {
    checkLifetime()
    let entry = self.entry
    guard entry.kind == .array else { return nil }
    var result: [PayloadValue] = []
    result.reserveCapacity(Int(entry.length))
    var cursor = index + 1
    for _ in 0..<entry.length {
      result.append(sibling(at: cursor))
      cursor = tape.next(after: cursor)
    }
    return result
  }

  /// The members of an object value, in payload order; `nil` for any other kind.
  public var members: [(key: String, value: PayloadValue)]? {
    checkLifetime()
    let entry = self.entry
    guard entry.kind == .object else { return nil }
    var result: [(key: String, value: PayloadValue)] = []
    result.reserveCapacity(Int(entry.length))
    var cursor = index + 1
    for _ in 0..<entry.length {
      let key = tape.string(at: cursor)
      let value = sibling(at: cursor + 1)
      result.append((key, value))
      cursor = tape.next(after: cursor + 1)
    }
    return result
  }

  /// The value of the first member named `key` of an object value; `nil` when absent or when
  /// this is not an object.
  public subscript(key: String) -> PayloadValue? {
    checkLifetime()
    return tape.member(of: index, named: key).map { sibling(at: $0) }
  }

  /// How this value reads in an error message: strings quoted and numbers as written (both
  /// shortened past 60 characters, with `…`), booleans as written, containers by kind
  /// (`an object`).
  public var rawDescription: String {
    checkLifetime()
    return description(of: entry)
  }

  /// ``rawDescription`` of `entry` (this value's), unchecked.
  func description(of entry: _TapeEntry) -> String {
    switch entry.kind {
    case .null: return "null"
    case .true: return "true"
    case .false: return "false"
    case .integer: return String(entry.payload)
    case .number:
      // A number as written, kept to both ends when long (a megabyte literal makes a short
      // message); rendering it again in the error's description leaves it as it is.
      return MessageText.value(tape.contentText(of: entry))
    case .string: return quotedForMessage(tape.string(at: index))
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

/// The stop of ``PayloadValue/checkLifetime()``, out of line.
@inline(never)
private func useAfterReading() -> Never {
  preconditionFailure(
    "a PayloadValue was used after the mapping call that made it returned (or on another "
      + "thread, or after its element of a streamed collection was mapped); store what you "
      + "read from it in init(payload:), not the value itself")
}

/// `"text"` quoted for an error message: escaped and, past 158 bytes, shortened to both ends
/// (``MessageText/quoted(_:)``).
func quotedForMessage(_ text: String) -> String {
  MessageText.quoted(text)
}
