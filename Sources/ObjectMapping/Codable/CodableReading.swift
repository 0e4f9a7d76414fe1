import Foundation

/// One decoding call of ``FastJSONDecoder``: the scanned document, the settings, and how each
/// value of the document becomes a `Decodable` value.
///
/// Lifetime: the document is the caller's (the bytes of the `Data` being decoded, the scanner's
/// index), borrowed for the decode call (``run(tape:options:_:)``). A model's `init(from:)` may
/// keep its decoder or a container (legal `Codable`: `JSONDecoder`'s containers own their
/// values); whatever it kept holds this reading. When the call ends and anything still holds
/// the reading, the reading copies the document (``_TapeCopy``) and reads the copy from then
/// on, on any thread, as `JSONDecoder` does (`takeOwnershipOfBackingDataIfNeeded`). The copy is
/// made only then: a call whose decoders and containers all ended with it copies nothing.
///
/// While the call runs, its reading token is current on the decoding thread
/// (``_ReadingScope``), begun and ended by ``run(tape:options:_:)`` itself (never by a
/// `deinit`, which could run later on another thread). Every member of a decoder or container
/// that reads the document checks the token first (``checkLifetime()``): current, or the
/// reading owns its copy, or a reading nested in this one runs on the same thread (the
/// document is still alive).
///
/// Values are read as `JSONDecoder` reads them: the same conversions, the same errors with
/// the same coding paths (see `CodableReading+Scalars.swift`).
final class CodableReading: UncheckedExclusiveState<CodableReadingState> {
  /// The document: the caller's while the call runs, ``copy``'s after it ended with the
  /// reading still held. (Exclusivity: replaced once, by the decoding thread, before the
  /// call returns; every later access only reads it.)
  private(set) var tape: _UnsafeTapeView {
    @inline(__always) get { state.tape }
    set { state.tape = newValue }
  }
  /// The owned copy of the document, once the call ended with the reading still held.
  private var copy: _TapeCopy? {
    get { state.copy }
    set { state.copy = newValue }
  }
  /// Whether the decode call that made this reading returned.
  private var ended: Bool {
    get { state.ended }
    set { state.ended = newValue }
  }
  let options: DecodingOptions
  let userInfo: [CodingUserInfoKey: Any]
  /// A key strategy other than `.useDefaultKeys` is set.
  let convertsKeys: Bool
  /// The token of the call's reading (``_ReadingScope``).
  let token: UInt64
  /// Where the last member lookup stopped, per nesting depth. (Exclusivity: a reading is used
  /// by one thread at a time, and no access outlives a lookup.)
  private var hints: [ObjectHint] {
    @inline(__always) get { state.hints }
    @inline(__always) _modify { yield &state.hints }
  }
  /// The conformances looked up so far (``dictionaryType(_:)``, ``arrayType(_:)``): those of
  /// earlier calls (``KnownConformances``), and whether this one added some.
  private var dictionaryTypes: TypeCache<any TapeDecodableDictionary.Type> {
    @inline(__always) get { state.dictionaryTypes }
    @inline(__always) _modify { yield &state.dictionaryTypes }
  }
  private var arrayTypes: TypeCache<any TapeDecodableArray.Type> {
    @inline(__always) get { state.arrayTypes }
    @inline(__always) _modify { yield &state.arrayTypes }
  }
  private var learnedConformances: Bool {
    get { state.learnedConformances }
    set { state.learnedConformances = newValue }
  }
  /// Whether the caches hold the earlier calls' answers yet (read at the first miss, so that a
  /// call that needs no conformance takes no lock).
  private var loadedConformances: Bool {
    get { state.loadedConformances }
    set { state.loadedConformances = newValue }
  }

  private init(tape: _UnsafeTapeView, options: DecodingOptions, token: UInt64) {
    self.options = options
    self.token = token
    userInfo = options.userInfo.mapValues { $0 as Any }
    if case .useDefaultKeys = options.keyDecodingStrategy {
      convertsKeys = false
    } else {
      convertsKeys = true
    }
    super.init(state: CodableReadingState(tape: tape))
  }

  /// Runs one decoding call on `tape`: begins its reading, calls `body` with it, and before
  /// returning ends the reading, moving it to a copy of the document when a decoder or
  /// container made during the call is still held (see the type's documentation).
  static func run<Result>(
    tape: _UnsafeTapeView, options: DecodingOptions, _ body: (CodableReading) throws -> Result
  ) rethrows -> Result {
    let (token, previous) = _ReadingScope.begin()
    defer { _ReadingScope.end(restoring: previous) }
    var reading = CodableReading(tape: tape, options: options, token: token)
    defer {
      if !isKnownUniquelyReferenced(&reading) { reading.keepDocument() }
      reading.ended = true
      if reading.learnedConformances {
        KnownConformances.shared.current = (reading.dictionaryTypes, reading.arrayTypes)
      }
    }
    return try body(reading)
  }

  /// A reading of a document holding one `null`, that any thread may read at any time: what a
  /// keyed container's `superDecoder(forKey:)` reads for an absent key, as `JSONDecoder`
  /// gives a decoder of null there.
  static func null(options: DecodingOptions) -> CodableReading {
    let reading = CodableReading(tape: _nullTapeCopy.view, options: options, token: 0)
    reading.copy = _nullTapeCopy
    reading.ended = true
    return reading
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
    decoderUsedOnAnotherThread()
  }

  // MARK: Values

  /// A value of any `Decodable` type at `index` (checking the lifetime first).
  func decode<T: Decodable>(
    _ type: T.Type, at index: Int, parent: PathNode?, key: (any CodingKey)?
  ) throws -> T {
    checkLifetime()
    return try readValue(type, at: index, parent: parent, key: key)
  }

  /// ``decode(_:at:parent:key:)`` for a caller that checked the lifetime already.
  ///
  /// Objects, the values most models nest, go straight to their type's `init(from:)` (or, for
  /// a `[String: V]`, to a loop over the members); everything else to ``readOther(_:at:parent:key:)``.
  /// Kept small and not inlined: it is on the stack once per level of a recursive model, which
  /// must fit 512 levels in a 512 KB stack. Nothing here makes an `Optional<T>`: in this
  /// unspecialized function its metadata would be looked up on every call.
  @inline(never)
  func readValue<T: Decodable>(
    _ type: T.Type, at index: Int, parent: PathNode?, key: (any CodingKey)?
  ) throws -> T {
    if _slowPath(type != T.self) {
      // A subclass passed as its superclass's metatype: decode the subclass.
      return try readDynamic(type, at: index, parent: parent, key: key)
    }
    if tape[index].kind == .object, !Self.isSpecial(T.self) {
      if let dictionary = dictionaryType(T.self) {
        return try Self.decodeDictionary(
          dictionary, as: T.self, self, at: index, parent: parent, key: key)
      }
      return try T(from: TapeDecoder(self, index: index, parent: parent, key: key))
    }
    return try readOther(type, at: index, parent: parent, key: key)
  }

  /// `T` as a `[String: V]` type, or `nil`. Conformances are looked up once per type and
  /// kept (``TypeCache``): most objects of a document are of a few types, and a lookup costs
  /// about a tenth of decoding a small object.
  @inline(__always)
  private func dictionaryType<T>(_ type: T.Type) -> (any TapeDecodableDictionary.Type)? {
    if let known = dictionaryTypes[T.self] { return known }
    return lookUpDictionaryType(T.self)
  }

  @inline(never)
  private func lookUpDictionaryType<T>(_ type: T.Type) -> (any TapeDecodableDictionary.Type)? {
    if loadEarlierConformances(), let known = dictionaryTypes[T.self] { return known }
    let found = T.self as? any TapeDecodableDictionary.Type
    dictionaryTypes[T.self] = .some(found)
    learnedConformances = true
    return found
  }

  /// `T` as an array type read element by element, or `nil` (looked up once per type).
  @inline(__always)
  private func arrayType<T>(_ type: T.Type) -> (any TapeDecodableArray.Type)? {
    if let known = arrayTypes[T.self] { return known }
    return lookUpArrayType(T.self)
  }

  @inline(never)
  private func lookUpArrayType<T>(_ type: T.Type) -> (any TapeDecodableArray.Type)? {
    if loadEarlierConformances(), let known = arrayTypes[T.self] { return known }
    let found = T.self as? any TapeDecodableArray.Type
    arrayTypes[T.self] = .some(found)
    learnedConformances = true
    return found
  }

  /// Reads the earlier calls' answers into the caches, the first time only: `true` when it
  /// did (the caller looks again).
  private func loadEarlierConformances() -> Bool {
    guard !loadedConformances else { return false }
    loadedConformances = true
    (dictionaryTypes, arrayTypes) = KnownConformances.shared.current
    return true
  }

  /// Whether `T` is one of the types `JSONDecoder` reads with a strategy or specially
  /// (`Date`, `Data`, `URL`, `Decimal`), or ``Node``, read from the document whole.
  @inline(__always)
  static func isSpecial<T>(_ type: T.Type) -> Bool {
    T.self == Date.self || T.self == Data.self || T.self == URL.self || T.self == Decimal.self
      || T.self == Node.self
  }

  /// A value that is not an object of an ordinary type: scalars and arrays read straight from
  /// the document (the common types by specialized code, the comparisons of metadata
  /// pointers), the special types, anything else through its `init(from:)`.
  @inline(never)
  private func readOther<T: Decodable>(
    _ type: T.Type, at index: Int, parent: PathNode?, key: (any CodingKey)?
  ) throws -> T {
    let kind = tape[index].kind
    if kind == .array {
      if Self.isFastArray(T.self) {
        return try fastArray(T.self, at: index, parent: parent, key: key)
      }
      if let array = arrayType(T.self) {
        return try Self.decodeArray(array, as: T.self, self, at: index, parent: parent, key: key)
      }
    }
    if Self.isFastScalar(T.self) {
      return try fastScalar(T.self, at: index, parent: parent, key: key)
    }
    if Self.isSpecial(T.self) {
      return try readSpecial(type, at: index, parent: parent, key: key)
    }
    if kind == .null, convertsKeys,
      (T.self as? any TapeDecodableDictionary.Type)?.hasStringKeys == true
    {
      // `JSONDecoder` reads a `[String: V]` itself under a key strategy, and says so.
      throw nullFound([String: Any].self, path: childCodingPath(parent, key))
    }
    return try T(from: TapeDecoder(self, index: index, parent: parent, key: key))
  }

  /// A value of `type`, a subclass of `T` (the caller's static type), made by the subclass's
  /// own `init(from:)`, as `JSONDecoder` makes it.
  ///
  /// Not by opening `type` as an existential and reading it generically: with optimization,
  /// Swift 6.3 opens the metatype as `T`, not the subclass, so release builds decoded a
  /// `Person.Type` holding `Employee.self` as a `Person` (swift-foundation's
  /// `decodingConcreteTypeParameter`).
  @inline(never)
  private func readDynamic<T: Decodable>(
    _ type: T.Type, at index: Int, parent: PathNode?, key: (any CodingKey)?
  ) throws -> T {
    try type.init(from: TapeDecoder(self, index: index, parent: parent, key: key))
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
    _ type: T.Type, at index: Int, parent: PathNode?, key: (any CodingKey)?
  ) throws -> T {
    if T.self == String.self {
      return identityCast(try readString(at: index, path: childCodingPath(parent, key)), to: T.self)
    }
    if T.self == Int.self {
      return identityCast(
        try readInteger(Int.self, at: index, path: childCodingPath(parent, key)), to: T.self)
    }
    if T.self == Double.self {
      return identityCast(
        try readFloat(Double.self, at: index, path: childCodingPath(parent, key)), to: T.self)
    }
    if T.self == Bool.self {
      return identityCast(try readBool(at: index, path: childCodingPath(parent, key)), to: T.self)
    }
    return identityCast(
      try readInteger(Int64.self, at: index, path: childCodingPath(parent, key)), to: T.self)
  }

  /// Whether ``fastArray(_:at:parent:key:)`` reads `T`.
  @inline(__always)
  static func isFastArray<T>(_ type: T.Type) -> Bool {
    T.self == [Double].self || T.self == [[Double]].self || T.self == [[[Double]]].self
      || T.self == [Int].self || T.self == [String].self || T.self == [Int64].self
      || T.self == [Bool].self
  }

  /// The array at `index` when `T` is an array of the common scalars (`[Double]` up to three
  /// levels deep, as coordinates are; `[Int]`, `[Int64]`, `[String]`, `[Bool]`; see
  /// ``isFastArray(_:)``), read by specialized loops whose paths are built only for an error.
  /// The caller has checked the lifetime; no code of the model's runs in these loops.
  @inline(never)
  private func fastArray<T>(
    _ type: T.Type, at index: Int, parent: PathNode?, key: (any CodingKey)?
  ) throws -> T {
    let path = ArrayPath(parent: parent, key: key)
    if T.self == [Double].self {
      return identityCast(try doubles(at: index, path: path), to: T.self)
    }
    if T.self == [[Double]].self {
      return identityCast(
        try elements(at: index, path: path) { try doubles(at: $0, path: $1) }, to: T.self)
    }
    if T.self == [[[Double]]].self {
      return identityCast(
        try elements(at: index, path: path) { cursor, path in
          try elements(at: cursor, path: path) { try doubles(at: $0, path: $1) }
        }, to: T.self)
    }
    if T.self == [Int].self {
      return identityCast(
        try elements(at: index, path: path) { try readInteger(Int.self, at: $0, path: $1.path) },
        to: T.self)
    }
    if T.self == [String].self {
      return identityCast(
        try elements(at: index, path: path) { try readString(at: $0, path: $1.path) },
        to: T.self)
    }
    if T.self == [Int64].self {
      return identityCast(
        try elements(at: index, path: path) {
          try readInteger(Int64.self, at: $0, path: $1.path)
        },
        to: T.self)
    }
    return identityCast(
      try elements(at: index, path: path) { try readBool(at: $0, path: $1.path) }, to: T.self)
  }

  /// `[Element]` (the opened `array`) read element by element, as `T` (the same type).
  static func decodeArray<A: TapeDecodableArray, T>(
    _ array: A.Type, as type: T.Type, _ reading: CodableReading, at index: Int,
    parent: PathNode?, key: (any CodingKey)?
  ) throws -> T {
    identityCast(try A.decodeElements(reading, at: index, parent: parent, key: key), to: T.self)
  }

  /// `[String: Value]` (the opened `dictionary`) read member by member, as `T` (the same type).
  static func decodeDictionary<D: TapeDecodableDictionary, T>(
    _ dictionary: D.Type, as type: T.Type, _ reading: CodableReading, at index: Int,
    parent: PathNode?, key: (any CodingKey)?
  ) throws -> T {
    identityCast(try D.decodeMembers(reading, at: index, parent: parent, key: key), to: T.self)
  }

  private func doubles(at index: Int, path: ArrayPath) throws -> [Double] {
    try elements(at: index, path: path) { try readFloat(Double.self, at: $0, path: $1.path) }
  }

  /// The elements of the array at `index`, each read by `element` from its tape index and its
  /// path. Anything but an array is reported as `[E](from:)` reports it.
  @inline(__always)
  private func elements<E: Decodable>(
    at index: Int, path: ArrayPath, _ element: (Int, ArrayPath) throws -> E
  ) throws -> [E] {
    guard tape[index].kind == .array else {
      return try [E](from: TapeDecoder(self, index: index, parent: path.node, key: nil))
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

  // MARK: Keys

  /// The value index of the member of the object at `object` whose key matches `key` (the
  /// first such member, as `JSONDecoder` finds it), under the key strategy: by `keys`, the
  /// converted keys, when there are some.
  ///
  /// An ASCII key is compared byte for byte: lookups in one object start where the previous
  /// one stopped (``_MemberHint``), so a model whose properties come in the payload's order
  /// finds each member at the first comparison; `depth` (the container's coding path length)
  /// picks the object's hint slot. A key that is not ASCII is compared as a `String`, by
  /// canonical equivalence, as `JSONDecoder`'s dictionary of members compares keys
  /// (``memberComparingText(of:name:)``).
  @inline(__always)
  func member(of object: Int, key: some CodingKey, keys: ConvertedKeys?, depth: Int) -> Int? {
    if let keys { return keys.index[key.stringValue] }
    var name = key.stringValue
    // A mapping derived from the model's `Codable` conformance: its convention's key.
    if let names = options.payloadKeys { name = names.payloadKey(for: name) }
    // `nil`: the key is not ASCII; `.some(nil)`: an ASCII key the bytes did not find.
    let found: Int?? = name.withASCIIKeyBytes { key -> Int? in
      if depth >= hints.count {
        hints.append(
          contentsOf: repeatElement(ObjectHint(object: -1), count: depth + 1 - hints.count))
      }
      if hints[depth].object != object { hints[depth] = ObjectHint(object: object) }
      if hints[depth].isIndexed, let index = state.memberIndexes[object] {
        return index.value(named: key, in: tape)
      }
      // A key looked up before in this object (a `decodeNil` then a `decode`, say) may lie
      // before the hint: the lookup then scans from the start, to find the first member.
      let mayRepeat = hints[depth].found & key.signature != 0
      hints[depth].found |= key.signature
      if mayRepeat || hints[depth].hint.skippedKeys & key.signature != 0 {
        // A scan from the start: when the payload drives the lookups (`allKeys`, `[Int: V]`)
        // every one can be, so past a few in a large object an index answers them instead.
        hints[depth].scans &+= 1
        if hints[depth].scans > ObjectHint.indexedAfter, let index = memberIndex(of: object) {
          hints[depth].isIndexed = true
          return index.value(named: key, in: tape)
        }
      }
      return tape.member(of: object, named: key, hint: &hints[depth].hint, mayRepeat: mayRepeat)
    }
    // An ASCII key the bytes did not find is not there: the bytes compared every member
    // (escaped keys by their decoded text). See below for the one exception.
    if let found { return found }
    return memberComparingText(of: object, name: name)
  }

  /// The index of the members of `object` (built at its first use, kept for the call); `nil`
  /// for an object of ``ObjectHint/indexedMembers`` members or fewer, where a scan is cheap.
  @inline(never)
  private func memberIndex(of object: Int) -> _MemberIndex? {
    guard tape.count(at: object) > ObjectHint.indexedMembers else { return nil }
    if let index = state.memberIndexes[object] { return index }
    let index = _MemberIndex(tape: tape, object: object)
    state.memberIndexes[object] = index
    return index
  }

  /// The first member of `object` whose key equals `name` (a key that is not ASCII) as a
  /// `String`: by canonical equivalence, as `JSONDecoder` compares keys (`"café"` written
  /// with U+00E9 or with `e` and U+0301).
  ///
  /// An ASCII key is compared byte for byte only: the one case that differs from `JSONDecoder`
  /// is a payload key holding U+212A KELVIN SIGN, U+037E GREEK QUESTION MARK or U+1FEF GREEK
  /// VARIA, which Unicode makes equal to `K`, `;` and `` ` ``, for a model key spelled with
  /// those ASCII characters (documented in MigratingFromCodable.md). Checking every missed
  /// ASCII key for them would cost a scan of the object's keys per absent optional member.
  ///
  /// Past ``ObjectHint/indexedAfter`` such lookups in an object of more than
  /// ``ObjectHint/indexedMembers`` members, its keys are kept in a dictionary of `String`s
  /// (whose hashing follows the same equivalence), so a payload-driven loop over a large
  /// object's keys does not build every key once per lookup.
  @inline(never)
  private func memberComparingText(of object: Int, name: String) -> Int? {
    if let index = state.textIndexes[object] { return index[name] }
    let count = tape.count(at: object)
    if count > ObjectHint.indexedMembers {
      let scans = state.textScans[object, default: 0] &+ 1
      state.textScans[object] = scans
      if scans > ObjectHint.indexedAfter {
        // The keys as they are, the first member of each: what a key strategy's index holds.
        let index = ConvertedKeys(tape: tape, object: object) { $0 }.index
        state.textIndexes[object] = index
        state.textScans[object] = nil
        return index[name]
      }
    }
    var cursor = object + 1
    for _ in 0..<count {
      if tape.string(at: cursor) == name { return cursor + 1 }
      cursor = tape.next(after: cursor + 1)
    }
    return nil
  }

  /// The object's keys as the key strategy converts them; `nil` for `.useDefaultKeys`.
  func convertedKeys(of object: Int, path: @autoclosure () -> [any CodingKey]) -> ConvertedKeys? {
    switch options.keyDecodingStrategy {
    case .useDefaultKeys:
      return nil
    case .convertFromSnakeCase:
      return ConvertedKeys(tape: tape, object: object) { camelCasedFromSnakeCase($0) }
    case .custom(let closure):
      let path = path()
      return ConvertedKeys(tape: tape, object: object) { name in
        closure(path + [AnyCodingKey(stringValue: name)]).stringValue
      }
    @unknown default:
      return nil
    }
  }

  // MARK: Errors

  /// `error`, thrown while decoding the value at `root`, as the caller receives it: unchanged
  /// (``FastJSONDecoder/ErrorReporting/decodingError``), or as ``MappingErrors`` with the
  /// payload's paths.
  func report(_ error: any Error, root: Int) -> any Error {
    switch options.errorReporting {
    case .decodingError:
      return error
    case .mappingErrors:
      if let errors = error as? MappingErrors { return errors }
      return MappingErrors([mappingError(error, root: root)])
    }
  }

  /// `error` as a ``MappingError`` whose path names the payload's members as they are written
  /// there, from the value at `root`.
  func mappingError(_ error: any Error, root: Int) -> MappingError {
    guard convertsKeys || options.payloadKeys != nil else { return convertedMappingError(error) }
    return convertedMappingError(error) { self.payloadPath($0, from: root) }
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
      let name = key.stringValue
      let conventional = options.payloadKeys?.payloadKey(for: name)
      // A converted key, or a key left as it is (a `[String: V]`'s).
      guard tape[at].kind == .object,
        let value = convertedKeys(of: at, path: [])?.index[name]
          ?? conventional.flatMap({ tape.member(of: at, named: $0) })
          ?? tape.member(of: at, named: name)
      else {
        components.append(.key(conventional ?? key.stringValue))
        current = nil
        continue
      }
      components.append(.key(tape.string(at: value - 1)))
      current = value
    }
    return components
  }

  /// How the value at `index` reads in a message (`"two"`, `1.5`, `an object`).
  func rawDescription(at index: Int) -> String {
    PayloadValue(tape: tape, index: index, context: .default, token: 0).description(
      of: tape[index])
  }
}

/// The stop of `CodableReading.checkLifetime()`, out of line.
@inline(never)
private func decoderUsedOnAnotherThread() -> Never {
  preconditionFailure(
    "a Decoder or decoding container of FastJSONDecoder was used on another thread while the "
      + "decode call that made it was still running")
}

/// A document of one `null`, kept for the life of the process
/// (``CodableReading/null(options:)``).
private let _nullTapeCopy = _Tape(entries: [_PackedEntry(kind: .null)], bytes: []).withView {
  _TapeCopy(copying: $0)
}

/// What a conformance lookup found for the types seen so far (`Value?`: the type as the
/// protocol's metatype, or `nil` when it does not conform): 64 slots, a type's entry within
/// four of the one its metadata address picks (a type seen again is found in a comparison or
/// two; when all four are taken, the first is replaced). The slots are allocated at the first
/// entry, so a call that meets no type costs nothing.
struct TypeCache<Value> {
  private var types: [ObjectIdentifier?] = []
  private var values: [Value?] = []

  /// A metadata address's slot: the top six bits of its Fibonacci hash (the low bits of
  /// addresses are alike; their shifted bits crowded the types of one document into a few
  /// slots, so two of them replaced each other on every lookup).
  private static func slot(_ id: ObjectIdentifier) -> Int {
    let bits = UInt64(UInt(bitPattern: id))
    return Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) >> 58)
  }

  /// The recorded result for `type` (`.some(nil)`: it does not conform), or `nil` when none is.
  subscript(type: Any.Type) -> Value?? {
    get {
      guard !types.isEmpty else { return nil }
      let id = ObjectIdentifier(type)
      let first = Self.slot(id)
      for probe in 0..<4 {
        let slot = (first + probe) & 63
        guard let stored = types[slot] else { return nil }
        if stored == id { return .some(values[slot]) }
      }
      return nil
    }
    set {
      if types.isEmpty {
        types = [ObjectIdentifier?](repeating: nil, count: 64)
        values = [Value?](repeating: nil, count: 64)
      }
      let id = ObjectIdentifier(type)
      let first = Self.slot(id)
      var chosen = first
      for probe in 0..<4 {
        let slot = (first + probe) & 63
        if types[slot] == nil || types[slot] == id {
          chosen = slot
          break
        }
      }
      types[chosen] = id
      values[chosen] = newValue ?? nil
    }
  }
}

extension TypeCache: Sendable where Value: Sendable {}

/// The conformances the decoding calls looked up, kept for the next calls: the runtime's own
/// answer for a type that does not conform costs thousands of instructions each time (it
/// scans the conformance records), and most documents of an app are of the same few types.
/// Each call reads the table when it starts and, when it learned something, stores its own
/// when it ends (the last call's table wins: a lost entry is only looked up again).
final class KnownConformances: Sendable {
  static let shared = KnownConformances()
  private let table = Locked(
    (TypeCache<any TapeDecodableDictionary.Type>(), TypeCache<any TapeDecodableArray.Type>())
  )

  var current: (TypeCache<any TapeDecodableDictionary.Type>, TypeCache<any TapeDecodableArray.Type>)
  {
    get { table.value }
    set { table.withLock { $0 = newValue } }
  }
}

/// The mutable state of a ``CodableReading`` (see its properties of the same names), kept
/// without dynamic exclusivity checks (``UncheckedExclusiveState``).
struct CodableReadingState {
  var tape: _UnsafeTapeView
  var copy: _TapeCopy?
  var ended = false
  var hints: [ObjectHint] = []
  var dictionaryTypes = TypeCache<any TapeDecodableDictionary.Type>()
  var arrayTypes = TypeCache<any TapeDecodableArray.Type>()
  var learnedConformances = false
  var loadedConformances = false
  /// The member indexes of the large objects read with many lookups, by the object's tape
  /// index (``CodableReading/memberIndex(of:)``).
  var memberIndexes: [Int: _MemberIndex] = [:]
  /// The lookups by text (keys that are not ASCII) so far in each large object, and the
  /// objects' keys as text once they took more than a few (``CodableReading/memberComparingText(of:name:)``).
  var textScans: [Int: Int32] = [:]
  var textIndexes: [Int: [String: Int]] = [:]
}

/// The member-lookup state of one object.
struct ObjectHint {
  var object: Int
  var hint: _MemberHint
  /// The signatures of the keys looked up so far.
  var found: UInt64 = 0
  /// The lookups so far that scanned from the object's start: past ``indexedAfter`` in an
  /// object of more members than ``indexedMembers``, lookups go through the object's
  /// ``_MemberIndex``.
  var scans: Int32 = 0
  /// The object's lookups go through its ``_MemberIndex``.
  var isIndexed = false

  /// How many scans from the start an object takes before its lookups go through an index: a
  /// model's keys, found in payload order, take none or a few; a payload-driven loop over a
  /// large object takes one per key, so the scans before the index cost a few passes over it.
  static let indexedAfter: Int32 = 16
  /// The members an object needs for an index: scans of fewer cost a few dozen comparisons
  /// per member at most (a model's objects, twitter.json's users of 40 members, stay below).
  static let indexedMembers = 64

  init(object: Int) {
    self.object = object
    hint = _MemberHint(object: max(object, 0))
  }
}

/// `[Element]`, read element by element from the document without an unkeyed container.
protocol TapeDecodableArray: SendableMetatype {
  static func decodeElements(
    _ reading: CodableReading, at index: Int, parent: PathNode?, key: (any CodingKey)?
  ) throws -> Self
}

extension Array: TapeDecodableArray where Element: Decodable {
  static func decodeElements(
    _ reading: CodableReading, at index: Int, parent: PathNode?, key: (any CodingKey)?
  ) throws -> Self {
    let count = reading.tape.count(at: index)
    var elements: [Element] = []
    elements.reserveCapacity(count)
    var cursor = index + 1
    // The array's node of the coding path, once for all its elements.
    let path = PathNode.node(parent, key)
    if CodableReading.isFastScalar(Element.self) {
      // Scalars: an element's path is built only when it fails.
      for offset in 0..<count {
        elements.append(
          try reading.fastScalar(Element.self, at: cursor, parent: path, key: IndexKey(offset)))
        cursor = reading.tape.next(after: cursor)
      }
      return elements
    }
    for offset in 0..<count {
      // The caller checked the lifetime; the elements' own code runs within this same call.
      elements.append(
        try reading.readValue(Element.self, at: cursor, parent: path, key: IndexKey(offset)))
      cursor = reading.tape.next(after: cursor)
    }
    return elements
  }
}

/// `[String: Value]` and `[Int: Value]`, read member by member from the document without a
/// keyed container.
///
/// A `[String: Value]`'s keys are data, left as they are by any key strategy (as `JSONDecoder`
/// reads them), and the first of members whose keys are equal strings wins (as in
/// `JSONDecoder`'s dictionary). An `[Int: Value]` is read as the standard library's
/// `Dictionary.init(from:)` reads it from a keyed container (``decodeIntegerKeyed(_:at:parent:key:)``),
/// without that initializer's frames: a recursion through `[Int: Self]` took about 1.2 KB of
/// stack per JSON level that way, and overflowed a 512 KB stack at 400 levels.
protocol TapeDecodableDictionary: SendableMetatype {
  static func decodeMembers(
    _ reading: CodableReading, at index: Int, parent: PathNode?, key: (any CodingKey)?
  ) throws -> Self

  /// Whether the keys are `String`s (`JSONDecoder` reads these dictionaries itself).
  static var hasStringKeys: Bool { get }
}

/// The key types of the dictionaries read member by member: `String` and `Int`, and only
/// these: the readers (and ``StreamedDictionary``) take every key that is not a `String` for an
/// `Int` (``identityCast(_:to:)`` stops the program on another type).
protocol TapeDictionaryKey: Hashable {}
extension String: TapeDictionaryKey {}
extension Int: TapeDictionaryKey {}

extension Dictionary: TapeDecodableDictionary where Key: TapeDictionaryKey, Value: Decodable {
  static var hasStringKeys: Bool { Key.self == String.self }

  static func decodeMembers(
    _ reading: CodableReading, at index: Int, parent: PathNode?, key: (any CodingKey)?
  ) throws -> Self {
    if Key.self != String.self {
      // Each its own frame, called from here: one frame per level of a recursion.
      if reading.convertsKeys {
        return identityCast(
          try decodeConvertedIntegerKeyed(reading, at: index, parent: parent, key: key),
          to: Self.self)
      }
      return identityCast(
        try decodeIntegerKeyed(reading, at: index, parent: parent, key: key), to: Self.self)
    }
    let count = reading.tape.count(at: index)
    var members: [String: Value] = [:]
    members.reserveCapacity(count)
    var cursor = index + 1
    let path = PathNode.node(parent, key)
    // `JSONDecoder` reads the members through `Dictionary.init(from:)` (whose keys have an
    // integer value when they read as one) unless a key strategy is set.
    let integerKeys = !reading.convertsKeys
    for _ in 0..<count {
      let name = reading.tape.string(at: cursor)
      if members[name] == nil {
        let key = DictionaryKey(name, integerKeys: integerKeys)
        members[name] = try reading.readValue(Value.self, at: cursor + 1, parent: path, key: key)
      }
      cursor = reading.tape.next(after: cursor + 1)
    }
    return identityCast(members, to: Self.self)
  }

  /// An `[Int: Value]`, read as `Dictionary.init(from:)` reads it through a keyed container:
  /// the distinct keys in the payload's order (keys equal as strings once, the first member's
  /// value), each key that does not read as an `Int` a type mismatch at the key's path, and a
  /// later spelling of the same number (`"01"` after `"1"`) replacing the earlier's value.
  /// Under a key strategy ``decodeConvertedIntegerKeyed(_:at:parent:key:)`` reads it.
  @inline(never)
  private static func decodeIntegerKeyed(
    _ reading: CodableReading, at index: Int, parent: PathNode?, key: (any CodingKey)?
  ) throws -> [Int: Value] {
    let count = reading.tape.count(at: index)
    var members: [Int: Value] = [:]
    members.reserveCapacity(count)
    // The keys read so far, kept from the first number spelt twice on (`"1"` and `"01"`, or
    // a repeated key): until then a new number is a new key.
    var seen: Set<String>?
    var cursor = index + 1
    let path = PathNode.node(parent, key)
    for _ in 0..<count {
      let name = reading.tape.string(at: cursor)
      let number = Int(name)
      if let number, members[number] != nil, seen == nil {
        seen = Self.names(reading, of: index, before: cursor)
      }
      if seen?.insert(name).inserted ?? true {
        let key = DictionaryKey(name, integerKeys: true)
        guard let number else { throw Self.notANumber(key, path: path) }
        members[number] = try reading.readValue(Value.self, at: cursor + 1, parent: path, key: key)
      }
      cursor = reading.tape.next(after: cursor + 1)
    }
    return members
  }

  /// ``decodeIntegerKeyed(_:at:parent:key:)`` under a key strategy: the keys the strategy
  /// converted, each once (the first member's value), as the keyed container's `allKeys` and
  /// lookups see them. Out of line, so that the loop without a strategy keeps a small frame.
  @inline(never)
  private static func decodeConvertedIntegerKeyed(
    _ reading: CodableReading, at index: Int, parent: PathNode?, key: (any CodingKey)?
  ) throws -> [Int: Value] {
    guard let converted = reading.convertedKeys(of: index, path: childCodingPath(parent, key))
    else {
      return try [Int: Value](from: TapeDecoder(reading, index: index, parent: parent, key: key))
    }
    let names = converted.names
    var members: [Int: Value] = [:]
    members.reserveCapacity(names.count)
    var seen: Set<String>?
    let path = PathNode.node(parent, key)
    for offset in names.indices {
      let name = names[offset]
      guard let value = converted.index[name] else { continue }
      let number = Int(name)
      if let number, members[number] != nil, seen == nil { seen = Set(names[..<offset]) }
      if seen?.insert(name).inserted ?? true {
        let key = DictionaryKey(name, integerKeys: true)
        guard let number else { throw Self.notANumber(key, path: path) }
        members[number] = try reading.readValue(Value.self, at: value, parent: path, key: key)
      }
    }
    return members
  }

  /// The standard library's error for a key of an `[Int: V]` that does not read as an `Int`.
  private static func notANumber(_ key: DictionaryKey, path: PathNode?) -> DecodingError {
    DecodingError.typeMismatch(
      Int.self,
      DecodingError.Context(
        codingPath: childCodingPath(path, key),
        debugDescription: "Expected Int key but found String key instead."))
  }

  /// The keys of the object at `object`'s members before the one at `end`.
  private static func names(_ reading: CodableReading, of object: Int, before end: Int) -> Set<
    String
  > {
    var names: Set<String> = []
    var cursor = object + 1
    while cursor < end {
      names.insert(reading.tape.string(at: cursor))
      cursor = reading.tape.next(after: cursor + 1)
    }
    return names
  }
}

/// An object's members by converted key (the first member of a repeated key wins).
struct ConvertedKeys {
  var index: [String: Int] = [:]
  var names: [String] = []

  init(tape: _UnsafeTapeView, object: Int, convert: (String) -> String) {
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

// MARK: Codable values inside mappings

/// A `Decodable` value read from a mapping's payload value with ``FastJSONDecoder``'s reader:
/// failures inside it are a `MappingError` whose path continues the rule's
/// (`/meta/tags/2`).
func decodeCodable<T: Decodable>(
  _ type: T.Type, from payload: PayloadValue, with options: DecodingOptions
) throws -> T {
  payload.checkLifetime()
  return try CodableReading.run(tape: payload.tape, options: options) { reading in
    do {
      return try reading.decode(T.self, at: payload.index, parent: nil, key: nil)
    } catch let errors as MappingErrors {
      throw errors
    } catch {
      throw reading.mappingError(error, root: payload.index)
    }
  }
}
