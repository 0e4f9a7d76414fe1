import Foundation

/// A `Decodable` decoder on ObjectMapping's JSON reader: the drop-in for `JSONDecoder` when the
/// models are `Codable` and the payload is JSON.
///
/// ```swift
/// var decoder = FastJSONDecoder()
/// decoder.keyDecodingStrategy = .convertFromSnakeCase
/// let search = try decoder.decode(TwitterSearch.self, from: data)
/// ```
///
/// The payload is scanned once into the flat index the mappings read; containers read it in
/// place (no `Any`, no dictionaries of members, no `NSNumber`). It takes `JSONDecoder`'s own
/// strategy types (keys, dates, data, non-conforming floats) and `userInfo`, so moving a
/// configured `JSONDecoder` over is a matter of copying its settings.
///
/// Values convert strictly, as `JSONDecoder` converts them: a number for an `Int` (a number
/// with a fraction or out of range is an error), a string for a `String`. Errors are
/// ``MappingErrors`` with a JSON Pointer path (`/statuses/3/user/id`) and, for syntax, the line
/// and column; the `DecodingError` a model's own `init(from:)` sees inside is kept as the
/// error's ``MappingError/underlyingError``. As with every `Decoder`, decoding stops at the first
/// error a model does not catch.
public struct FastJSONDecoder {
  /// How keys of the payload are matched with coding keys (`JSONDecoder`'s type).
  public var keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys
  /// How dates are read (`JSONDecoder`'s type; default `.deferredToDate`).
  public var dateDecodingStrategy: JSONDecoder.DateDecodingStrategy = .deferredToDate
  /// How `Data` is read (default `.base64`).
  public var dataDecodingStrategy: JSONDecoder.DataDecodingStrategy = .base64
  /// Whether strings stand for infinities and NaN (default `.throw`).
  public var nonConformingFloatDecodingStrategy: JSONDecoder.NonConformingFloatDecodingStrategy =
    .throw
  /// Values the models' `init(from:)` can read from `decoder.userInfo`.
  public var userInfo: [CodingUserInfoKey: any Sendable] = [:]
  /// The JSON reader's options (depth, duplicate keys, …).
  public var reading: JSONReadingOptions = .strict

  /// Creates a decoder with `JSONDecoder`'s defaults.
  public init() {}

  /// Decodes a value of `type` from UTF-8 JSON.
  ///
  /// - Parameters:
  ///   - type: The type to decode.
  ///   - data: The JSON bytes.
  /// - Returns: The value.
  /// - Throws: ``MappingErrors``: a syntax error with its line and column, or the first
  ///   decoding error with its JSON Pointer path.
  public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(MappingErrors) -> T {
    try decode(type, text: .data(data))
  }

  /// Decodes a value of `type` from JSON text.
  public func decode<T: Decodable>(_ type: T.Type, from json: String) throws(MappingErrors) -> T {
    try decode(type, text: .string(json))
  }

  /// Decodes a value of `type` from UTF-8 JSON bytes.
  public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws(MappingErrors)
    -> T
  {
    try decode(type, text: .bytes(bytes))
  }

  private func decode<T: Decodable>(_ type: T.Type, text: _JSONText) throws(MappingErrors) -> T {
    let outcome: Result<T, MappingErrors>
    do throws(FormatError) {
      outcome = try text.scan(options: reading) { view in
        _CodableReading.run(tape: view, settings: self) { state in
          do {
            return .success(try state.decode(T.self, at: 0, parent: nil, key: nil))
          } catch let errors as MappingErrors {
            // A mapped model's (MappedCodable) errors, each at its path.
            return .failure(errors)
          } catch {
            return .failure(MappingErrors([state.mappingError(error, root: 0)]))
          }
        }
      }
    } catch {
      throw MappingErrors([MappingError(error)])
    }
    return try outcome.get()
  }
}

// MARK: The document being decoded

/// One decoding call: the scanned document, the settings, and the strict context values are
/// read with.
///
/// Lifetime: the document is the caller's (the bytes of the `Data` being decoded, the scanner's
/// index), borrowed for the decode call (``run(tape:settings:_:)``). A model's `init(from:)` may
/// keep its decoder or a container (legal `Codable`: `JSONDecoder`'s containers own their
/// values); whatever it kept holds this reading. When the call ends and anything still holds
/// the reading, the reading copies the document (``_TapeCopy``) and reads the copy from then
/// on, on any thread, as `JSONDecoder` does (`takeOwnershipOfBackingDataIfNeeded`). The copy is
/// made only then: a call whose decoders and containers all ended with it copies nothing.
///
/// While the call runs, its reading token is current on the decoding thread
/// (``_ReadingScope``), begun and ended by ``run(tape:settings:_:)`` itself (never by a
/// `deinit`, which could run later on another thread). Every member that reads the document
/// checks the token first (``checkLifetime()``): current, or the reading owns its copy, or a
/// reading nested in this one on the same thread (the document is still alive).
final class _CodableReading {
  /// The document: the caller's while the call runs, ``copy``'s after it ended with the
  /// reading still held. (Exclusivity: replaced once, by the decoding thread, before the
  /// call returns; every later access only reads it.)
  @exclusivity(unchecked) private(set) var tape: _TapeView
  /// The owned copy of the document, once the call ended with the reading still held.
  @exclusivity(unchecked) private var copy: _TapeCopy?
  /// Whether the decode call that made this reading returned.
  @exclusivity(unchecked) private var ended = false
  let settings: FastJSONDecoder
  let userInfo: [CodingUserInfoKey: Any]
  /// A key strategy other than `.useDefaultKeys` is set.
  let convertsKeys: Bool
  /// The token of the call's reading (``_ReadingScope``).
  private let token: UInt64
  /// Where the last member lookup stopped, per nesting depth. (Exclusivity: a reading is used
  /// by one decoding call on one thread, and no access outlives a lookup.)
  @exclusivity(unchecked) private var hints: [_ObjectHint] = []
  private let context = _ValueContext(coercion: .strict, dateFormats: [.iso8601])

  private init(tape: _TapeView, settings: FastJSONDecoder, token: UInt64) {
    self.tape = tape
    self.settings = settings
    self.token = token
    userInfo = settings.userInfo.mapValues { $0 as Any }
    if case .useDefaultKeys = settings.keyDecodingStrategy {
      convertsKeys = false
    } else {
      convertsKeys = true
    }
  }

  /// Runs one decoding call on `tape`: begins its reading, calls `body` with it, and before
  /// returning ends the reading, moving it to a copy of the document when a decoder or
  /// container made during the call is still held (see the type's documentation).
  static func run<Result>(
    tape: _TapeView, settings: FastJSONDecoder, _ body: (_CodableReading) throws -> Result
  ) rethrows -> Result {
    let (token, previous) = _ReadingScope.begin()
    defer { _ReadingScope.end(restoring: previous) }
    var reading = _CodableReading(tape: tape, settings: settings, token: token)
    defer {
      if !isKnownUniquelyReferenced(&reading) { reading.keepDocument() }
      reading.ended = true
    }
    return try body(reading)
  }

  /// Moves the reading to its own copy of the document: something made during the call
  /// outlives it.
  private func keepDocument() {
    let copy = _TapeCopy(copying: tape)
    self.copy = copy
    tape = copy.view
  }

  /// Checks that the document can be read here (see the type's documentation): stops the
  /// program only for a container used on another thread while its decode call still runs,
  /// a data race the compiler rejects (decoders and containers are not `Sendable`).
  @inline(__always)
  func checkLifetime() {
    guard _fastPath(_ReadingScope.isCurrent(token)) else { return checkLifetimeOutsideTheCall() }
  }

  @inline(never)
  private func checkLifetimeOutsideTheCall() {
    if copy != nil { return }
    if !ended && _ReadingScope.began(onThisThread: token) { return }
    _decoderUsedOnAnotherThread()
  }

  /// A value of the document for a ``MappableValue`` conversion: its `PayloadValue` belongs to
  /// the call's reading, or, outside the call (a kept container), to a reading begun for the
  /// conversion alone.
  func withPayload<Result>(at index: Int, _ body: (PayloadValue) throws -> Result) rethrows
    -> Result
  {
    if _ReadingScope.isCurrent(token) {
      return try body(PayloadValue(tape: tape, index: index, context: context, token: token))
    }
    let (token, previous) = _ReadingScope.begin()
    defer { _ReadingScope.end(restoring: previous) }
    return try body(PayloadValue(tape: tape, index: index, context: context, token: token))
  }

  /// A value at `index` of a `MappableValue` type, read strictly. The path is built only for
  /// an error.
  @inline(__always)
  func scalar<T: MappableValue>(
    _ type: T.Type, at index: Int, path: @autoclosure () -> [any CodingKey]
  ) throws -> T {
    checkLifetime()
    return try readScalar(T.self, at: index, path: path())
  }

  /// ``scalar(_:at:path:)`` for a caller that checked the lifetime already (a container that
  /// just looked the member up): one thread-local lookup per value instead of two.
  @inline(__always)
  func readScalar<T: MappableValue>(
    _ type: T.Type, at index: Int, path: @autoclosure () -> [any CodingKey]
  ) throws -> T {
    let entry = tape[index]
    // The common cases straight from the tape (the type tests fold away where `T` is known).
    switch entry.kind {
    case .string:
      if T.self == String.self, let value = _sameType(tape.string(at: index), as: T.self) {
        return value
      }
    case .integer:
      if T.self == Int.self, let value = _sameType(Int(entry.payload), as: T.self) { return value }
      if T.self == Int64.self, let value = _sameType(entry.payload, as: T.self) { return value }
      if T.self == Double.self, let value = _sameType(Double(entry.payload), as: T.self) {
        return value
      }
    case .number:
      if T.self == Double.self, let double = tape.doubleValue(at: index), double.isFinite,
        let value = _sameType(double, as: T.self)
      {
        return value
      }
    case .true, .false:
      if T.self == Bool.self, let value = _sameType(entry.kind == .true, as: T.self) {
        return value
      }
    case .null:
      throw DecodingError.valueNotFound(
        T.self, DecodingError.Context(codingPath: path(), debugDescription: "found null"))
    default:
      break
    }
    do {
      return try withPayload(at: index) { try T(payload: $0) }
    } catch {
      throw DecodingError.typeMismatch(
        T.self,
        DecodingError.Context(
          codingPath: path(), debugDescription: "\(error)", underlyingError: error))
    }
  }

  /// A `Double` or `Float`, with the non-conforming float strategy.
  func floatingPoint<T: BinaryFloatingPoint & MappableValue & LosslessStringConvertible>(
    _ type: T.Type, at index: Int, path: @autoclosure () -> [any CodingKey]
  ) throws -> T {
    checkLifetime()
    return try readFloatingPoint(T.self, at: index, path: path())
  }

  /// ``floatingPoint(_:at:path:)`` for a caller that checked the lifetime already.
  @inline(__always)
  func readFloatingPoint<T: BinaryFloatingPoint & MappableValue & LosslessStringConvertible>(
    _ type: T.Type, at index: Int, path: @autoclosure () -> [any CodingKey]
  ) throws -> T {
    if tape[index].kind == .string,
      case .convertFromString(let positive, let negative, let nan) =
        settings.nonConformingFloatDecodingStrategy
    {
      let text = tape.string(at: index)
      if text == positive { return .infinity }
      if text == negative { return -.infinity }
      if text == nan { return .nan }
    }
    return try readScalar(T.self, at: index, path: path())
  }

  /// A value of any `Decodable` type at `index`: the types `JSONDecoder` reads specially
  /// (dates, data, URLs, decimals) with their strategies, everything else through its
  /// `init(from:)`.
  func decode<T: Decodable>(
    _ type: T.Type, at index: Int, parent: _PathNode?, key: (any CodingKey)?
  ) throws -> T {
    checkLifetime()
    return try readValue(T.self, at: index, parent: parent, key: key)
  }

  /// ``decode(_:at:parent:key:)`` for a caller that checked the lifetime already.
  func readValue<T: Decodable>(
    _ type: T.Type, at index: Int, parent: _PathNode?, key: (any CodingKey)?
  ) throws -> T {
    // Scalars and arrays are read straight from the document: no decoder, no existential
    // container per value (the common types first; the comparisons are of metadata pointers).
    // The type tests are skipped for the kinds they cannot match: an object (most nested
    // values) goes straight to its `init(from:)`. A scalar type given an array or an object
    // still gets its own error below, from its `init(from:)`.
    // Nothing here makes an `Optional<T>`: in this unspecialized function its metadata would
    // be looked up on every call.
    switch tape[index].kind {
    case .object:
      break
    case .array:
      if Self.isFastArray(T.self) {
        return try fastArray(T.self, at: index, parent: parent, key: key)
      }
      // (The conformance check is a lookup of its own.)
      if let array = T.self as? any _TapeDecodableArray.Type {
        return try Self.decodeArray(array, as: T.self, self, at: index, parent: parent, key: key)
      }
    default:
      if Self.isFastScalar(T.self) {
        return try fastScalar(T.self, at: index, parent: parent, key: key)
      }
    }
    if T.self == Date.self || T.self == Data.self || T.self == URL.self || T.self == Decimal.self {
      return try decodeSpecial(type, at: index, parent: parent, key: key)
    }
    if convertsKeys, T.self is any _StringKeyedDictionary.Type {
      return try T(
        from: _TapeDecoder(self, index: index, parent: parent, key: key, convertsKeys: false))
    }
    return try T(from: _TapeDecoder(self, index: index, parent: parent, key: key))
  }

  /// Whether ``fastScalar(_:at:parent:key:)`` reads `T`.
  @inline(__always)
  static func isFastScalar<T>(_ type: T.Type) -> Bool {
    T.self == String.self || T.self == Int.self || T.self == Double.self || T.self == Bool.self
      || T.self == Int64.self
  }

  /// The value at `index` when `T` is one of the common scalars (`String`, `Int`, `Double`,
  /// `Bool`, `Int64`; see ``isFastScalar(_:)``), read straight from the document. The caller
  /// has checked the lifetime.
  @inline(__always)
  func fastScalar<T>(
    _ type: T.Type, at index: Int, parent: _PathNode?, key: (any CodingKey)?
  ) throws -> T {
    if T.self == String.self {
      return _identityCast(
        try readScalar(String.self, at: index, path: _path(parent, key)), to: T.self)
    }
    if T.self == Int.self {
      return _identityCast(
        try readScalar(Int.self, at: index, path: _path(parent, key)), to: T.self)
    }
    if T.self == Double.self {
      return _identityCast(
        try readFloatingPoint(Double.self, at: index, path: _path(parent, key)), to: T.self)
    }
    if T.self == Bool.self {
      return _identityCast(
        try readScalar(Bool.self, at: index, path: _path(parent, key)), to: T.self)
    }
    return _identityCast(
      try readScalar(Int64.self, at: index, path: _path(parent, key)), to: T.self)
  }

  /// Whether ``fastArray(_:at:parent:key:)`` reads `T`.
  @inline(__always)
  static func isFastArray<T>(_ type: T.Type) -> Bool {
    T.self == [Double].self || T.self == [[Double]].self || T.self == [[[Double]]].self
      || T.self == [Int].self || T.self == [String].self || T.self == [Int64].self
      || T.self == [Bool].self
  }

  /// The value at `index` when `T` is an array of the common scalars (`[Double]` up to three
  /// levels deep, as coordinates are; `[Int]`, `[Int64]`, `[String]`, `[Bool]`; see
  /// ``isFastArray(_:)``), read by specialized loops whose paths are built only for an error.
  /// The caller has checked the lifetime; no code of the model's runs in these loops.
  @inline(__always)
  func fastArray<T>(
    _ type: T.Type, at index: Int, parent: _PathNode?, key: (any CodingKey)?
  ) throws -> T {
    let path = _ArrayPath(parent: parent, key: key)
    if T.self == [Double].self {
      return _identityCast(try doubles(at: index, path: path), to: T.self)
    }
    if T.self == [[Double]].self {
      return _identityCast(
        try elements(at: index, path: path) { try doubles(at: $0, path: $1) }, to: T.self)
    }
    if T.self == [[[Double]]].self {
      return _identityCast(
        try elements(at: index, path: path) { cursor, path in
          try elements(at: cursor, path: path) { try doubles(at: $0, path: $1) }
        }, to: T.self)
    }
    if T.self == [Int].self {
      return _identityCast(
        try elements(at: index, path: path) { try readScalar(Int.self, at: $0, path: $1.path) },
        to: T.self)
    }
    if T.self == [String].self {
      return _identityCast(
        try elements(at: index, path: path) { try readScalar(String.self, at: $0, path: $1.path) },
        to: T.self)
    }
    if T.self == [Int64].self {
      return _identityCast(
        try elements(at: index, path: path) { try readScalar(Int64.self, at: $0, path: $1.path) },
        to: T.self)
    }
    return _identityCast(
      try elements(at: index, path: path) { try readScalar(Bool.self, at: $0, path: $1.path) },
      to: T.self)
  }

  /// `[Element]` (the opened `array`) read element by element, as `T` (the same type).
  static func decodeArray<A: _TapeDecodableArray, T>(
    _ array: A.Type, as type: T.Type, _ reading: _CodableReading, at index: Int,
    parent: _PathNode?, key: (any CodingKey)?
  ) throws -> T {
    _identityCast(try A.decodeElements(reading, at: index, parent: parent, key: key), to: T.self)
  }

  private func doubles(at index: Int, path: _ArrayPath) throws -> [Double] {
    try elements(at: index, path: path) {
      try readFloatingPoint(Double.self, at: $0, path: $1.path)
    }
  }

  /// The elements of the array at `index`, each read by `element` from its tape index and its
  /// path. Anything but an array is reported as `[E](from:)` reports it.
  @inline(__always)
  private func elements<E: Decodable>(
    at index: Int, path: _ArrayPath, _ element: (Int, _ArrayPath) throws -> E
  ) throws -> [E] {
    guard tape[index].kind == .array else {
      return try [E](from: _TapeDecoder(self, index: index, parent: path.node, key: nil))
    }
    let count = tape.count(at: index)
    var result: [E] = []
    result.reserveCapacity(count)
    var cursor = index + 1
    for offset in 0..<count {
      result.append(try element(cursor, path.appending(offset)))
      cursor = tape.next(after: cursor)
    }
    return result
  }

  /// A date, data, URL or decimal, which `JSONDecoder` reads with its strategies. Its path is
  /// built only for an error.
  private func decodeSpecial<T: Decodable>(
    _ type: T.Type, at index: Int, parent: _PathNode?, key: (any CodingKey)?
  ) throws -> T {
    if T.self == Date.self {
      return _identityCast(try decodeDate(at: index, parent: parent, key: key), to: T.self)
    }
    if T.self == Data.self {
      return _identityCast(try decodeData(at: index, parent: parent, key: key), to: T.self)
    }
    return try decodeMappable(type, at: index, parent: parent, key: key)
  }

  private func decodeMappable<T>(
    _ type: T.Type, at index: Int, parent: _PathNode?, key: (any CodingKey)?
  ) throws -> T {
    guard let mappable = type as? any MappableValue.Type else {
      return try decodeOpened(type, at: index, path: _path(parent, key))
    }
    let value = try _openScalar(mappable, reading: self, at: index, parent: parent, key: key)
    guard let typed = value as? T else { throw _castFailure(T.self, value, _path(parent, key)) }
    return typed
  }

  private func decodeOpened<T>(_ type: T.Type, at index: Int, path: [any CodingKey]) throws -> T {
    throw DecodingError.typeMismatch(
      T.self, DecodingError.Context(codingPath: path, debugDescription: "not decodable"))
  }

  private func decodeDate(at index: Int, parent: _PathNode?, key: (any CodingKey)?) throws -> Date {
    switch settings.dateDecodingStrategy {
    case .deferredToDate:
      return try Date(from: _TapeDecoder(self, index: index, parent: parent, key: key))
    case .secondsSince1970:
      return Date(
        timeIntervalSince1970: try scalar(Double.self, at: index, path: _path(parent, key)))
    case .millisecondsSince1970:
      return Date(
        timeIntervalSince1970: try scalar(Double.self, at: index, path: _path(parent, key)) / 1000)
    case .iso8601:
      let text = try scalar(String.self, at: index, path: _path(parent, key))
      guard case .date(let date) = DateFormat.iso8601.parse(text: text) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: _path(parent, key),
            debugDescription: "Expected date string to be ISO8601-formatted."))
      }
      return date
    case .custom(let closure):
      return try closure(_TapeDecoder(self, index: index, parent: parent, key: key))
    @unknown default:
      // `.formatted(DateFormatter)` where Foundation has it: use `.custom` with the formatter.
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: _path(parent, key),
          debugDescription: "this date decoding strategy is not supported; use .custom"))
    }
  }

  private func decodeData(at index: Int, parent: _PathNode?, key: (any CodingKey)?) throws -> Data {
    switch settings.dataDecodingStrategy {
    case .deferredToData:
      return try Data(from: _TapeDecoder(self, index: index, parent: parent, key: key))
    case .base64:
      let text = try scalar(String.self, at: index, path: _path(parent, key))
      guard let data = Data(base64Encoded: text) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: _path(parent, key),
            debugDescription: "Encountered Data is not valid Base64."))
      }
      return data
    case .custom(let closure):
      return try closure(_TapeDecoder(self, index: index, parent: parent, key: key))
    @unknown default:
      return try Data(from: _TapeDecoder(self, index: index, parent: parent, key: key))
    }
  }

  // MARK: Keys

  /// The member of the object at `object` whose key matches `key` under the key strategy.
  ///
  /// Lookups in one object start where the previous one stopped (``_MemberHint``), so a model
  /// whose properties come in the payload's order finds each member at the first comparison
  /// instead of scanning the object; `depth` (the container's coding path length) picks the
  /// object's hint slot. The result is still the first member with that key.
  @inline(__always)
  func member(of object: Int, key: some CodingKey, keys: _ConvertedKeys?, depth: Int) -> Int? {
    if let keys { return keys.index[key.stringValue] }
    var name = key.stringValue
    return name.withUTF8 { bytes in
      let key = _KeyBytes(bytes)
      if depth >= hints.count {
        hints.append(
          contentsOf: repeatElement(_ObjectHint(object: -1), count: depth + 1 - hints.count))
      }
      if hints[depth].object != object { hints[depth] = _ObjectHint(object: object) }
      // A key looked up before in this object (a `decodeNil` then a `decode`, say) may lie
      // before the hint: the lookup then scans from the start, to find the first member.
      let mayRepeat = hints[depth].found & key.signature != 0
      hints[depth].found |= key.signature
      return tape.member(of: object, named: key, hint: &hints[depth].hint, mayRepeat: mayRepeat)
    }
  }

  /// `error` as a ``MappingError`` whose path names the payload's members as they are written
  /// there, from the value at `root`.
  func mappingError(_ error: any Error, root: Int) -> MappingError {
    guard convertsKeys else { return _mappingError(error) }
    return _mappingError(error) { self.payloadPath($0, from: root) }
  }

  /// The payload path that `codingPath` reaches from the value at `root`: each member's name
  /// as the payload spells it (before the key strategy converted it). Past a member that is
  /// not there (a missing key), the coding keys are used as they are.
  func payloadPath(_ codingPath: [any CodingKey], from root: Int) -> [_PathComponent] {
    var current: Int? = root
    var components: [_PathComponent] = []
    for key in codingPath {
      guard let at = current else {
        components.append(key.intValue.map { .index($0) } ?? .key(key.stringValue))
        continue
      }
      if let position = key.intValue, tape[at].kind == .array {
        components.append(.index(position))
        current = tape.element(of: at, at: position)
        continue
      }
      guard tape[at].kind == .object,
        let value = convertedKeys(of: at, path: [])?.index[key.stringValue]
      else {
        components.append(.key(key.stringValue))
        current = nil
        continue
      }
      components.append(.key(tape.string(at: value - 1)))
      current = value
    }
    return components
  }

  /// The object's keys as the key strategy converts them; `nil` for `.useDefaultKeys`.
  func convertedKeys(of object: Int, path: @autoclosure () -> [any CodingKey]) -> _ConvertedKeys? {
    switch settings.keyDecodingStrategy {
    case .useDefaultKeys:
      return nil
    case .convertFromSnakeCase:
      return _ConvertedKeys(tape: tape, object: object) { _convertFromSnakeCase($0) }
    case .custom(let closure):
      let path = path()
      return _ConvertedKeys(tape: tape, object: object) { name in
        closure(path + [_AnyCodingKey(stringValue: name)]).stringValue
      }
    @unknown default:
      return nil
    }
  }
}

/// The stop of `_CodableReading.checkLifetime()`, out of line.
@inline(never)
private func _decoderUsedOnAnotherThread() -> Never {
  preconditionFailure(
    "a Decoder or decoding container of FastJSONDecoder was used on another thread while the "
      + "decode call that made it was still running")
}

/// The member-lookup state of one object.
struct _ObjectHint {
  var object: Int
  var hint: _MemberHint
  /// The signatures of the keys looked up so far.
  var found: UInt64 = 0

  init(object: Int) {
    self.object = object
    hint = _MemberHint(object: max(object, 0))
  }
}

/// The error for a value that is not the `T` the caller just matched.
private func _castFailure<T>(_: T.Type, _ value: Any, _ path: [any CodingKey]) -> DecodingError {
  DecodingError.typeMismatch(
    T.self, DecodingError.Context(codingPath: path, debugDescription: "found \(type(of: value))"))
}

/// Opens `type` to read a scalar of it.
private func _openScalar<T: MappableValue>(
  _ type: T.Type, reading: _CodableReading, at index: Int, parent: _PathNode?,
  key: (any CodingKey)?
) throws -> Any {
  try reading.scalar(T.self, at: index, path: _path(parent, key))
}

/// `[Element]`, read element by element from the document without an unkeyed container.
protocol _TapeDecodableArray {
  static func decodeElements(
    _ reading: _CodableReading, at index: Int, parent: _PathNode?, key: (any CodingKey)?
  ) throws -> Self
}

extension Array: _TapeDecodableArray where Element: Decodable {
  static func decodeElements(
    _ reading: _CodableReading, at index: Int, parent: _PathNode?, key: (any CodingKey)?
  ) throws -> Self {
    guard reading.tape[index].kind == .array else {
      // Not an array: the decoder reports it as `Array.init(from:)` would.
      return try [Element](from: _TapeDecoder(reading, index: index, parent: parent, key: key))
    }
    let count = reading.tape.count(at: index)
    var elements: [Element] = []
    elements.reserveCapacity(count)
    var cursor = index + 1
    // The array's node of the coding path, once for all its elements.
    let path = _PathNode.node(parent, key)
    if _CodableReading.isFastScalar(Element.self) {
      // Scalars: an element's path is built only when it fails.
      for offset in 0..<count {
        elements.append(
          try reading.fastScalar(Element.self, at: cursor, parent: path, key: _IndexKey(offset)))
        cursor = reading.tape.next(after: cursor)
      }
      return elements
    }
    for offset in 0..<count {
      // The caller checked the lifetime; the elements' own code runs within this same call.
      elements.append(
        try reading.readValue(Element.self, at: cursor, parent: path, key: _IndexKey(offset)))
      cursor = reading.tape.next(after: cursor)
    }
    return elements
  }
}

/// `[String: V]`: its keys are data, left as they are by the key strategy.
protocol _StringKeyedDictionary {}
extension Dictionary: _StringKeyedDictionary where Key == String {}

/// An object's members by converted key (the first member of a repeated key wins).
struct _ConvertedKeys {
  var index: [String: Int] = [:]
  var names: [String] = []

  init(tape: _TapeView, object: Int, convert: (String) -> String) {
    var cursor = object + 1
    for _ in 0..<tape.count(at: object) {
      let name = convert(tape.string(at: cursor))
      if index[name] == nil {
        index[name] = cursor + 1
        names.append(name)
      }
      cursor = tape.next(after: cursor + 1)
    }
  }
}

/// `JSONDecoder`'s `convertFromSnakeCase`: `created_at` -> `createdAt`; leading and trailing
/// underscores are kept, a key without underscores is unchanged.
func _convertFromSnakeCase(_ key: String) -> String {
  guard !key.isEmpty, key.contains("_") else { return key }
  guard let firstNonUnderscore = key.firstIndex(where: { $0 != "_" }) else { return key }
  var lastNonUnderscore = key.index(before: key.endIndex)
  while lastNonUnderscore > firstNonUnderscore, key[lastNonUnderscore] == "_" {
    key.formIndex(before: &lastNonUnderscore)
  }
  let range = firstNonUnderscore...lastNonUnderscore
  let components = key[range].split(separator: "_")
  let joined =
    String(components[0]) + components.dropFirst().map { $0.capitalized }.joined()
  return String(key[..<range.lowerBound]) + joined
    + String(key[key.index(after: range.upperBound)...])
}

/// A coding key made from a string or an index (paths, `superDecoder`, custom key strategies);
/// an index's text is made only when asked for.
struct _AnyCodingKey: CodingKey {
  private let name: String?
  let intValue: Int?

  var stringValue: String { name ?? "\(intValue ?? 0)" }

  init(stringValue: String) {
    name = stringValue
    intValue = nil
  }

  init(intValue: Int) {
    name = nil
    self.intValue = intValue
  }

  static let `super` = _AnyCodingKey(stringValue: "super")
}

/// An array element's coding key: its index, small enough to be stored in an existential
/// without an allocation.
struct _IndexKey: CodingKey {
  let index: Int
  init(_ index: Int) { self.index = index }
  init?(intValue: Int) { index = intValue }
  init?(stringValue: String) { nil }
  var intValue: Int? { index }
  var stringValue: String { "\(index)" }
}

/// The coding path of an element of nested arrays (at most three levels below `key`), kept as
/// indexes and built only when an error needs it.
struct _ArrayPath {
  let parent: _PathNode?
  let key: (any CodingKey)?
  private var indexes: (Int, Int, Int) = (0, 0, 0)
  private var depth = 0

  init(parent: _PathNode?, key: (any CodingKey)?) {
    self.parent = parent
    self.key = key
  }

  /// The path one level down, at element `index`.
  func appending(_ index: Int) -> _ArrayPath {
    var path = self
    switch depth {
    case 0: path.indexes.0 = index
    case 1: path.indexes.1 = index
    default: path.indexes.2 = index
    }
    path.depth = Swift.min(depth + 1, 3)
    return path
  }

  /// The coding path.
  var path: [any CodingKey] {
    let all = [indexes.0, indexes.1, indexes.2].prefix(depth).map { _IndexKey($0) as any CodingKey }
    return _path(parent, key) + all
  }

  /// The coding path as a node (for a decoder made to report an error).
  var node: _PathNode? {
    var node = _PathNode.node(parent, key)
    for index in [indexes.0, indexes.1, indexes.2].prefix(depth) {
      node = _PathNode(parent: node, key: _IndexKey(index))
    }
    return node
  }
}

/// `parent` and `key`, the coding path of a value.
func _path(_ parent: [any CodingKey], _ key: (any CodingKey)?) -> [any CodingKey] {
  guard let key else { return parent }
  return parent + [key]
}

/// `parent`'s path and `key`, the coding path of a value.
func _path(_ parent: _PathNode?, _ key: (any CodingKey)?) -> [any CodingKey] {
  var path = parent?.codingPath ?? []
  if let key { path.append(key) }
  return path
}

/// The ``MappingError`` for an error thrown while decoding: its path from the coding path, its
/// kind from the `DecodingError`, the error itself kept.
///
/// `payloadPath` turns a coding path into the payload's path when a key strategy renamed the
/// members (the model's `openIssues` is the payload's `open_issues`).
func _mappingError(
  _ error: any Error, payloadPath: (([any CodingKey]) -> [_PathComponent])? = nil
) -> MappingError {
  guard let decoding = error as? DecodingError else {
    return MappingError(.validationFailed(message: "\(error)"), underlyingError: error)
  }
  func pointer(_ path: [any CodingKey]) -> String {
    if let payloadPath { return _jsonPointer(payloadPath(path)) }
    return _jsonPointer(
      path.map { key in key.intValue.map { .index($0) } ?? .key(key.stringValue) })
  }
  switch decoding {
  case .keyNotFound(let key, let context):
    return MappingError(
      path: pointer(context.codingPath + [key]), .missingRequiredKey, underlyingError: error)
  case .valueNotFound(let type, let context):
    return MappingError(
      path: pointer(context.codingPath),
      .typeMismatch(expected: _describe(type), found: "null"), underlyingError: error)
  case .typeMismatch(let type, let context):
    if let failure = context.underlyingError as? ConversionFailure {
      var converted = MappingError(path: pointer(context.codingPath), .missingRequiredKey)
      switch failure {
      case .typeMismatch(let expected, let found):
        converted.kind = .typeMismatch(expected: expected, found: found)
      case .invalidValue(let expected, let raw, let reason):
        converted.kind = .conversionFailed(expected: expected, raw: raw, reason: reason)
      case .notRepresentable(let value, let reason):
        converted.kind = .notRepresentable(reason: "\(value): \(reason)")
      }
      converted.underlyingError = error
      return converted
    }
    return MappingError(
      path: pointer(context.codingPath),
      .typeMismatch(expected: _describe(type), found: context.debugDescription),
      underlyingError: error)
  case .dataCorrupted(let context):
    return MappingError(
      path: pointer(context.codingPath),
      .conversionFailed(expected: "a valid value", raw: "", reason: context.debugDescription),
      underlyingError: error)
  @unknown default:
    return MappingError(.validationFailed(message: "\(error)"), underlyingError: error)
  }
}

/// `"a String"`, `"an Int"`: a type for an error message.
private func _describe(_ type: Any.Type) -> String {
  if let mappable = type as? any MappableValue.Type { return mappable.expectedDescription }
  return _withArticle("\(type)")
}

// MARK: Codable values inside mappings

/// A `Decodable` value read from a mapping's payload value with ``FastJSONDecoder``'s reader:
/// failures inside it are a `MappingError` whose path continues the rule's
/// (`/meta/tags/2`).
func _decodeCodable<T: Decodable>(
  _ type: T.Type, from payload: PayloadValue, with decoder: FastJSONDecoder
) throws -> T {
  payload.checkLifetime()
  return try _CodableReading.run(tape: payload.tape, settings: decoder) { reading in
    do {
      return try reading.decode(T.self, at: payload.index, parent: nil, key: nil)
    } catch let errors as MappingErrors {
      throw errors
    } catch {
      throw reading.mappingError(error, root: payload.index)
    }
  }
}
