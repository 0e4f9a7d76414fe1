/// Maps the *key* of a nested dictionary into a property (RestKit's
/// `mapKeyOfNestedDictionaryToAttribute:`).
///
/// Payload `{"blake": {"email": "blake@restkit.org", "favorite_animal": "Monkey"}}`:
///
/// ```swift
/// let userMapping = Mapping(User.init) {
///   KeyAttribute("username", \.username)                   // "blake"
///   Attribute("(username).email", \.email)                 // RestKit's placeholder syntax…
///   Attribute("favorite_animal", \.favoriteAnimal)         // …or a path relative to the value
/// }
/// let user = try userMapping.map(json)                     // one key: one object
/// let users = try userMapping.mapCollection(json)          // one object per key, in payload order
/// ```
///
/// A mapping with a key attribute reads an object whose keys are values. Mapped as one object
/// (`map`, a to-one relationship) the object must have exactly one key; several keys are an error
/// naming them, never a silently chosen one. Mapped as a collection (`mapCollection`, a `[T]`
/// relationship) each key becomes one object, in payload order; in a `[String: T]` relationship
/// each key is both the dictionary key and the key attribute. The other rules read inside the
/// keyed value: write their paths relative to it, or with the placeholder `(name).` / `{name}.`
/// where `name` is the key attribute's name.
///
/// The key converts like any value: `KeyAttribute("id", \.id)` with an `Int` property reads
/// `{"42": {...}}` and writes `42` back as the key. Serialization writes `{"<key>": {...}}`, one
/// dictionary for a collection; two objects with the same key are an error naming both paths.
public struct KeyAttribute<Object, Value: MappableValue>: MappingRule {
  /// The name placeholders use for this key (`username` in `"(username).email"`).
  public let name: String
  let property: WritableKeyPath<Object, Value> & Sendable

  /// Maps the nested dictionary's key into `property`.
  ///
  /// - Parameters:
  ///   - name: The name other rules' placeholders use (`"(name).email"`).
  ///   - property: The property that receives the key.
  public init(_ name: String, _ property: WritableKeyPath<Object, Value> & Sendable) {
    self.name = name
    self.property = property
    keyPathProblem = KeyPathCheck.problem(property, rule: "KeyAttribute \"\(name)\"")
  }

  /// Why the property's key path must not be used (it could trap), or `nil`.
  let keyPathProblem: String?
}

/// The compiled key attribute of a nested-key mapping.
struct KeyRule<Object>: Sendable {
  let name: String
  /// Why the key attribute's key path must not be used; its closures then never touch it.
  var keyPathProblem: String?
  /// Writes the key at tape index `keyIndex` into the object.
  let decode: @Sendable (inout Object, Int, inout MappingRun) -> Void
  /// The write that sets the key at tape index `keyIndex` onto an existing object, or `nil`
  /// with the error in the run when the key does not convert.
  let collect: @Sendable (Int, inout MappingRun) -> ((inout Object) -> Void)?
  /// The object's key as text, for serialization.
  let encode: @Sendable (Object) throws -> String
}

/// A rule that is the key attribute of a nested-key mapping.
protocol KeyRuleProvider<Object> {
  associatedtype Object
  var keyRule: KeyRule<Object> { get }
}

extension KeyAttribute: KeyRuleProvider {
  var keyRule: KeyRule<Object> {
    let property = self.property
    if let keyPathProblem {
      return KeyRule(
        name: name, keyPathProblem: keyPathProblem,
        decode: { _, _, run in run.fail(.invalidDefinition(message: keyPathProblem)) },
        collect: { _, run in
          run.fail(.invalidDefinition(message: keyPathProblem))
          return nil
        },
        encode: { _ in throw MappingError(.invalidDefinition(message: keyPathProblem)) })
    }
    return KeyRule(
      name: name, keyPathProblem: nil,
      decode: { object, keyIndex, run in
        let payload = PayloadValue(run: run, index: keyIndex, context: .default)
        do {
          object[keyPath: property] = try Value(payload: payload)
        } catch {
          run.record(error)
        }
      },
      collect: { keyIndex, run in
        let payload = PayloadValue(run: run, index: keyIndex, context: .default)
        do {
          let key = try Value(payload: payload)
          return { object in object[keyPath: property] = key }
        } catch {
          run.record(error)
          return nil
        }
      },
      encode: { object in
        switch try object[keyPath: property].payloadNode() {
        case .string(let text): return text
        case .decimal(let number): return number.text
        case .integer(let number): return String(number)
        case .double(let number): return number.description
        case .bool(let flag): return flag ? "true" : "false"
        case let other:
          throw ConversionFailure.notRepresentable(
            "\(other)", reason: "a dictionary key must be a scalar")
        }
      })
  }
}

extension _MappingPlan {
  /// Maps a nested-key object in single-object mode: it must have exactly one key.
  @inline(never)
  func decodeSingleKeyed(at index: Int, keyRule: KeyRule<Object>, run: inout MappingRun)
    -> Object?
  {
    guard singleKeyIsValid(at: index, keyRule: keyRule, run: &run) else { return nil }
    return decodeKeyed(keyIndex: index + 1, keyRule: keyRule, run: &run)
  }

  /// Whether the value at `index` is an object with exactly one key; records the mismatch
  /// otherwise.
  private func singleKeyIsValid(at index: Int, keyRule: KeyRule<Object>, run: inout MappingRun)
    -> Bool
  {
    let entry = run.tape[index]
    guard entry.kind == .object else {
      run.fail(
        .typeMismatch(
          expected: "an object keyed by \(keyRule.name)", found: run.foundDescription(at: index)))
      return false
    }
    guard entry.length == 1 else {
      let keys = run.tape.memberKeys(of: index).map { "\"\($0)\"" }
      let found = keys.isEmpty ? "none" : "\(keys.count) keys: \(keys.joined(separator: ", "))"
      run.fail(.typeMismatch(expected: "one key (the \(keyRule.name))", found: found))
      return false
    }
    return true
  }

  /// Collects the writes that map a single-key nested-key object onto `existing`: the key into
  /// the key attribute, the rules against the keyed value (only its present keys are written).
  /// `nil` with the errors in the run when anything fails.
  @inline(never)
  func collectSingleKeyed(
    _ existing: Object, at index: Int, keyRule: KeyRule<Object>, run: inout MappingRun
  ) -> Patch<Object>? {
    guard singleKeyIsValid(at: index, keyRule: keyRule, run: &run) else { return nil }
    let keyIndex = index + 1
    run.path.append(.key(run.tape.string(at: keyIndex)))
    defer { run.path.removeLast() }
    let keyWrite = keyRule.collect(keyIndex, &run)
    let fields = collectFields(existing, at: keyIndex + 1, run: &run)
    guard let keyWrite, let fields else { return nil }
    var patch = Patch<Object>()
    patch.append(keyWrite)
    patch.append(contentsOf: fields)
    return patch
  }

  /// Maps every key of a nested-key object, in payload order. A failed entry is kept, filled as
  /// far as it mapped, when `keepsFailed` (a relationship's children: see ``Shape/decode``),
  /// else left out; either way its errors are in the run, unless the relationship drops failed
  /// children (``MappingRun/dropsFailedChildren``): then it is left out with a diagnostic at
  /// its key.
  func decodeKeyedCollection(
    at index: Int, keyRule: KeyRule<Object>, keepsFailed: Bool = false, run: inout MappingRun
  ) -> [Object] {
    var objects: [Object] = []
    // A repeated key: the first member wins (JSONReadingOptions.rejectsDuplicateKeys).
    var seen: Set<String> = []
    var cursor = index + 1
    let keepsFailed = keepsFailed && !run.dropsFailedChildren
    for _ in 0..<Int(run.tape[index].length) {
      let key = run.tape.string(at: cursor)
      let at = cursor
      if seen.insert(key).inserted,
        let object = decodeEntry(
          run: &run, at: [.key(key)],
          { decodeKeyed(keyIndex: at, keyRule: keyRule, keepsFailed: keepsFailed, run: &$0) })
      {
        objects.append(object)
      }
      cursor = run.tape.next(after: cursor + 1)
    }
    return objects
  }

  /// Maps the member whose key is at `keyIndex` (its value follows): the key into the key
  /// attribute, the rules against the value. The path gains the key. `nil` when it fails,
  /// unless `keepsFailed` (a relationship's child, kept as far as it mapped: see
  /// ``decodeChild(at:run:declineIsAcceptable:accept:)``); its errors are in `run` either way.
  func decodeKeyed(
    keyIndex: Int, keyRule: KeyRule<Object>, keepsFailed: Bool = false, run: inout MappingRun
  ) -> Object? {
    guard let make else { return nil }
    let key = run.tape.string(at: keyIndex)
    run.path.append(.key(key))
    defer { run.path.removeLast() }
    let before = run.errors.count
    var object = make()
    keyRule.decode(&object, keyIndex, &run)
    guard acceptsValue(at: keyIndex + 1, run: &run) else { return nil }
    let decoded = decode(into: &object, at: keyIndex + 1, run: &run)
    return (decoded && run.errors.count == before) || keepsFailed ? object : nil
  }
}

extension _UnsafeTapeView {
  /// The keys of the object at `index`, in order.
  func memberKeys(of index: Int) -> [String] {
    var keys: [String] = []
    var cursor = index + 1
    for _ in 0..<Int(self[index].length) {
      keys.append(string(at: cursor))
      cursor = next(after: cursor + 1)
    }
    return keys
  }
}
